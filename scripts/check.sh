#!/bin/bash
# check.sh [STEP...]: every test (or the STEPs), on a tree applied freshly
# from patches/; then, for the 7.3 series and without STEPs, the 6.12
# backport's BACKPORT_STEPS (default below; empty: none; its bisect is the
# lighter one, BISECT_LINK=0).  The base downloads while the backport's
# base package installs; the backport's base is committed and its steps
# run beside the 7.3 series' (their own trees, build directories and
# log).  Ends with one line "N passed, N failed, N skipped"; exits
# non-zero on any failure.
. "$(dirname "$0")/lib.sh"

STEPS=(apply checkpatch bisect kunit ipt selftests perf docs warnings boot)
BACKPORT=(apply bisect kunit)
if [ $# -gt 0 ]; then
	STEPS=("$@")
	BACKPORT=()
fi
[ -z "${BACKPORT_STEPS+set}" ] || read -r -a BACKPORT <<< "$BACKPORT_STEPS"
[ "$KERNEL" = 7.3 ] || BACKPORT=()

"$TOP/scripts/deps.sh"
mkdir -p "$BUILD"
export RESULTS=$BUILD/check-results
: > "$RESULTS"

# The base downloads (its own apt state, no lock shared with the machine's
# apt) while the backport's base package installs.
backport_pid=
"$TOP/scripts/get-base.sh" > "$BUILD/get-base.log" 2>&1 &
get_base_pid=$!
# shellcheck disable=SC2317
stop_background() {
	kill "$get_base_pid" 2>/dev/null || true
	[ -z "$backport_pid" ] || kill -- -"$backport_pid" 2>/dev/null ||
		kill "$backport_pid" 2>/dev/null || true
}
trap stop_background EXIT
[ ${#BACKPORT[@]} -eq 0 ] || KERNEL=6.12 "$TOP/scripts/deps.sh"

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

# The backport, in the background: its results and output go to its own
# files, shown after the 7.3 series' (a line a minute says how far it is).
if [ ${#BACKPORT[@]} -gt 0 ]; then
	bp_build=$TOP/build/6.12
	bp_log=$bp_build/check.log
	mkdir -p "$bp_build"
	: > "$bp_build/check-results"
	log "check: the 6.12 backport's steps (${BACKPORT[*]}) run beside, log: $bp_log"
	# Its base unpacks and commits while the 7.3 base downloads.
	(
		export RESULTS=$bp_build/check-results
		if KERNEL=6.12 "$TOP/scripts/get-base.sh"; then
			BISECT_LINK=${BISECT_LINK:-0} run_steps 6.12 "${BACKPORT[@]}"
		else
			KERNEL=6.12 result fail "base" "the pinned 6.12 base could not be committed (see above)"
		fi
	) > "$bp_log" 2>&1 &
	backport_pid=$!
fi

get_base_rc=0
wait "$get_base_pid" || get_base_rc=$?
cat "$BUILD/get-base.log"
if [ "$get_base_rc" = 0 ]; then
	run_steps "$KERNEL" "${STEPS[@]}"
else
	result fail "base" "the pinned $KERNEL base could not be fetched (see above)"
fi

if [ -n "$backport_pid" ]; then
	while kill -0 "$backport_pid" 2>/dev/null; do
		log "check: waiting for the 6.12 backport: $(grep -c . "$bp_build/check-results") results so far"
		sleep 60 & wait $! || true
	done
	wait "$backport_pid" || true
	trap - EXIT
	echo "==> the 6.12 backport's output:"
	cat "$bp_log"
	cat "$bp_build/check-results" >> "$RESULTS"
fi

passed=$(grep -c '^pass ' "$RESULTS" || true)
failed=$(grep -c '^fail ' "$RESULTS" || true)
skipped=$(grep -c '^skip ' "$RESULTS" || true)
if [ "$failed" -gt 0 ]; then
	echo "Failed:"
	sed -n 's/^fail /  /p' "$RESULTS"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
