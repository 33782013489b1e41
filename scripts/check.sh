#!/bin/bash
# check.sh: every test, on a tree applied freshly from patches/.  Ends with
# one line "N passed, N failed, N skipped"; exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"

STEPS=(apply checkpatch bisect kunit ipt selftests perf docs warnings boot)
[ $# -gt 0 ] && STEPS=("$@")

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

abort=""
for step in "${STEPS[@]}"; do
	[ -x "$TOP/scripts/check/$step.sh" ] || die "no such check step: $step"
	if [ -n "$abort" ]; then
		result fail "$step" "not run: $abort"
		continue
	fi
	log "check: $step"
	if ! run_step "$step" && [ "$step" = apply ]; then
		abort="the series does not apply"
	fi
done

passed=$(grep -c '^pass ' "$RESULTS" || true)
failed=$(grep -c '^fail ' "$RESULTS" || true)
skipped=$(grep -c '^skip ' "$RESULTS" || true)
if [ "$failed" -gt 0 ]; then
	echo "Failed:"
	sed -n 's/^fail /  /p' "$RESULTS"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
