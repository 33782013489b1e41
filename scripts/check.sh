#!/bin/bash
# check.sh: every test, on a tree applied freshly from patches/.  Ends with
# one line "N passed, N failed, N skipped"; exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"

STEPS=(apply checkpatch bisect kunit ipt warnings selftests perf docs boot)
[ $# -gt 0 ] && STEPS=("$@")

"$TOP/scripts/deps.sh"
"$TOP/scripts/get-base.sh"

mkdir -p "$BUILD"
export RESULTS=$BUILD/check-results
: > "$RESULTS"

abort=""
for step in "${STEPS[@]}"; do
	script=$TOP/scripts/check/$step.sh
	[ -x "$script" ] || die "no such check step: $step"
	if [ -n "$abort" ]; then
		result fail "$step" "not run: $abort"
		continue
	fi
	log "check: $step"
	start=$SECONDS
	fails_before=$(grep -c '^fail ' "$RESULTS" || true)
	if ! "$script"; then
		fails_now=$(grep -c '^fail ' "$RESULTS" || true)
		[ "$fails_now" -gt "$fails_before" ] || result fail "$step" "step exited non-zero"
		[ "$step" = apply ] && abort="the series does not apply"
	fi
	log "check: $step took $((SECONDS - start)) s"
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
