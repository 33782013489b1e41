#!/bin/bash
# check.sh: every test, on a tree applied freshly from patches/.  Ends with
# one line "N passed, N failed, N skipped"; exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"

STEPS=(apply bisect checkpatch kunit ipt selftests perf docs warnings boot)
[ $# -gt 0 ] && STEPS=("$@")
# bisect checks out each patch in $CHECK_TREE and builds in $O_FULL, with
# idle time on 2 cores between its builds: it runs in the background while
# the steps that use neither (they use $SERIES_TREE) run.
BESIDE_BISECT=" checkpatch kunit ipt selftests perf docs "

"$TOP/scripts/deps.sh"
"$TOP/scripts/get-base.sh"

mkdir -p "$BUILD"
export RESULTS=$BUILD/check-results
: > "$RESULTS"

# run_step STEP: run it, record a failure if it failed without saying so.
run_step() {
	local step=$1 start=$SECONDS rc=0 fails_before fails_now

	fails_before=$(grep -c '^fail ' "$RESULTS" || true)
	"$TOP/scripts/check/$step.sh" || rc=$?
	fails_now=$(grep -c '^fail ' "$RESULTS" || true)
	if [ $rc -ne 0 ] && [ "$fails_now" -le "$fails_before" ]; then
		result fail "$step" "step exited non-zero"
	fi
	log "check: $step took $((SECONDS - start)) s"
	return $rc
}

bisect_pid=""
bisect_out=$BUILD/bisect.out
trap '[ -z "$bisect_pid" ] || kill "$bisect_pid" 2>/dev/null || true' EXIT
join_bisect() {
	[ -n "$bisect_pid" ] || return 0
	wait "$bisect_pid" || true
	bisect_pid=""
	log "check: bisect (it ran beside the steps above)"
	cat "$bisect_out"
	cat "$RESULTS.bisect" >> "$RESULTS"
}

abort=""
for step in "${STEPS[@]}"; do
	[ -x "$TOP/scripts/check/$step.sh" ] || die "no such check step: $step"
	if [ -n "$abort" ]; then
		result fail "$step" "not run: $abort"
		continue
	fi
	case $BESIDE_BISECT in *" $step "*) ;; *) join_bisect ;; esac
	if [ "$step" = bisect ]; then
		: > "$RESULTS.bisect"
		RESULTS=$RESULTS.bisect run_step bisect > "$bisect_out" 2>&1 &
		bisect_pid=$!
		continue
	fi
	log "check: $step"
	if ! run_step "$step" && [ "$step" = apply ]; then
		abort="the series does not apply"
	fi
done
join_bisect

passed=$(grep -c '^pass ' "$RESULTS" || true)
failed=$(grep -c '^fail ' "$RESULTS" || true)
skipped=$(grep -c '^skip ' "$RESULTS" || true)
if [ "$failed" -gt 0 ]; then
	echo "Failed:"
	sed -n 's/^fail /  /p' "$RESULTS"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
