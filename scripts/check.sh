#!/bin/bash
# check.sh [STEP...]: every test (or the STEPs), on a tree applied freshly
# from patches/; then, for the 7.3 series and without STEPs, the 6.12
# backport's BACKPORT_STEPS (default below; empty: none; its bisect is the
# lighter one, BISECT_LINK=0).  The backport's bisect is not in the
# default until the whole fits CI's time (README, "Times").  Ends with one
# line "N passed, N failed, N skipped"; exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"

STEPS=(apply checkpatch bisect kunit ipt selftests perf docs warnings boot)
BACKPORT=(apply kunit)
if [ $# -gt 0 ]; then
	STEPS=("$@")
	BACKPORT=()
fi
[ -z "${BACKPORT_STEPS+set}" ] || read -r -a BACKPORT <<< "$BACKPORT_STEPS"
[ "$KERNEL" = 7.3 ] || BACKPORT=()

"$TOP/scripts/deps.sh"
"$TOP/scripts/get-base.sh"
if [ ${#BACKPORT[@]} -gt 0 ]; then
	KERNEL=6.12 "$TOP/scripts/deps.sh"
	KERNEL=6.12 "$TOP/scripts/get-base.sh"
fi

mkdir -p "$BUILD"
export RESULTS=$BUILD/check-results
: > "$RESULTS"

# run_step KERNEL STEP: run it, record a failure if it failed without
# saying so.
run_step() {
	local kernel=$1 step=$2 start=$SECONDS rc=0 fails_before fails_now

	fails_before=$(grep -c '^fail ' "$RESULTS" || true)
	KERNEL=$kernel "$TOP/scripts/check/$step.sh" || rc=$?
	fails_now=$(grep -c '^fail ' "$RESULTS" || true)
	if [ $rc -ne 0 ] && [ "$fails_now" -le "$fails_before" ]; then
		KERNEL=$kernel result fail "$step" "step exited non-zero"
	fi
	log "check: $kernel $step took $((SECONDS - start)) s"
	return $rc
}

# run_steps KERNEL STEP...
run_steps() {
	local kernel=$1 step abort=""
	shift

	for step in "$@"; do
		[ -x "$TOP/scripts/check/$step.sh" ] || die "no such check step: $step"
		if [ -n "$abort" ]; then
			KERNEL=$kernel result fail "$step" "not run: $abort"
			continue
		fi
		log "check: $kernel $step"
		if ! run_step "$kernel" "$step" && [ "$step" = apply ]; then
			abort="the series does not apply"
		fi
	done
}

run_steps "$KERNEL" "${STEPS[@]}"
[ ${#BACKPORT[@]} -eq 0 ] || BISECT_LINK=${BISECT_LINK:-0} run_steps 6.12 "${BACKPORT[@]}"

passed=$(grep -c '^pass ' "$RESULTS" || true)
failed=$(grep -c '^fail ' "$RESULTS" || true)
skipped=$(grep -c '^skip ' "$RESULTS" || true)
if [ "$failed" -gt 0 ]; then
	echo "Failed:"
	sed -n 's/^fail /  /p' "$RESULTS"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
