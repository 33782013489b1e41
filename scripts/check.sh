#!/bin/bash
# check.sh [STEP...]: every test (or the STEPs), on a tree applied freshly
# from patches/; then, for the 7.3 series and without STEPs, the 6.12
# backport's BACKPORT_STEPS (default below; empty: none; its bisect is the
# lighter one, BISECT_LINK=0).  The base downloads while the backport's
# base package installs; the backport's base is committed and its steps
# run beside the 7.3 series' (their own trees, build directories and
# log); after them, in the same track, the 7.3 steps of LATE below.  Ends
# with one line "N passed, N failed, N skipped"; exits non-zero on any
# failure.
. "$(dirname "$0")/lib.sh"

STEPS=(apply checkpatch bisect kunit ipt selftests perf docs warnings boot)
BACKPORT=(apply bisect kunit)
# The 7.3 steps that read only $SERIES_TREE and write only their own
# files: with the backport, they run in its track once its steps are done,
# while the 7.3 steps' end (QEMU on one CPU, links) leaves a CPU partly
# idle.  Boot runs the selftests' binaries: it waits for them.
LATE=(selftests checkpatch perf)
if [ $# -gt 0 ]; then
	STEPS=("$@")
	BACKPORT=()
fi
[ -z "${BACKPORT_STEPS+set}" ] || read -r -a BACKPORT <<< "$BACKPORT_STEPS"
[ "$KERNEL" = 7.3 ] || BACKPORT=()
[ ${#BACKPORT[@]} -gt 0 ] && [ $# -eq 0 ] || LATE=()

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

# run_steps KERNEL STEP...: once apply failed, the next steps (of later
# calls too) are listed as not run.
abort=""
run_steps() {
	local kernel=$1 step
	shift

	for step in "$@"; do
		[ -x "$TOP/scripts/check/$step.sh" ] || die "no such check step: $step"
		if [ -n "$abort" ]; then
			KERNEL=$kernel result fail "$step" "not run: $abort"
			continue
		fi
		if [ "$step" = boot ] && [[ " ${LATE[*]} " == *" selftests "* ]]; then
			log "check: boot waits for the selftests step (after the 6.12 backport's)"
			while [ ! -e "$BUILD/check-late.selftests" ] &&
			      kill -0 "$backport_pid" 2>/dev/null; do
				sleep 5
			done
		fi
		log "check: $kernel $step"
		if ! run_step "$kernel" "$step" && [ "$step" = apply ]; then
			abort="the series does not apply"
		fi
		[ -z "${DONE_MARK:-}" ] || touch "$DONE_MARK.$step"
	done
}

# show NAME RESULTS LOG: a background run's output, and its results added
# to $RESULTS.
show() {
	echo "==> $1's output:"
	cat "$3"
	cat "$2" >> "$RESULTS"
}

# The backport, in the background: its results and output go to its own
# files, shown after the 7.3 series' (a line a minute says how far it is).
if [ ${#BACKPORT[@]} -gt 0 ]; then
	bp_build=$TOP/build/6.12
	bp_log=$bp_build/check.log
	mkdir -p "$bp_build"
	: > "$bp_build/check-results"
	log "check: the 6.12 backport's steps (${BACKPORT[*]}) run beside, log: $bp_log"
	: > "$BUILD/check-results.late"
	: > "$BUILD/late.log"
	rm -f "$BUILD"/check-late.*
	# Its base unpacks and commits while the 7.3 base downloads.
	(
		export RESULTS=$bp_build/check-results
		if KERNEL=6.12 "$TOP/scripts/get-base.sh"; then
			BISECT_LINK=${BISECT_LINK:-0} run_steps 6.12 "${BACKPORT[@]}"
		else
			KERNEL=6.12 result fail "base" "the pinned 6.12 base could not be committed (see above)"
		fi
		[ ${#LATE[@]} -gt 0 ] || exit 0
		# the 7.3 apply's outcome
		while [ ! -e "$BUILD/check-late.applied" ]; do
			sleep 5
		done
		abort=$(cat "$BUILD/check-late.applied")
		export RESULTS=$BUILD/check-results.late
		DONE_MARK=$BUILD/check-late run_steps "$KERNEL" "${LATE[@]}" > "$BUILD/late.log" 2>&1
	) > "$bp_log" 2>&1 &
	backport_pid=$!
fi

get_base_rc=0
wait "$get_base_pid" || get_base_rc=$?
cat "$BUILD/get-base.log"
if [ "$get_base_rc" = 0 ]; then
	foreground=()
	for step in "${STEPS[@]}"; do
		[[ " ${LATE[*]} " == *" $step "* ]] || foreground+=("$step")
	done
	if [ ${#LATE[@]} -gt 0 ]; then
		# apply is the first step: its outcome lets the late steps go
		run_steps "$KERNEL" "${foreground[0]}"
		echo "$abort" > "$BUILD/check-late.applied"
		foreground=("${foreground[@]:1}")
	fi
	run_steps "$KERNEL" "${foreground[@]}"
else
	result fail "base" "the pinned $KERNEL base could not be fetched (see above)"
	echo "the $KERNEL base could not be fetched" > "$BUILD/check-late.applied"
fi

if [ -n "$backport_pid" ]; then
	n=0
	while kill -0 "$backport_pid" 2>/dev/null; do
		[ $((n++ % 12)) -ne 0 ] ||
			log "check: waiting for the 6.12 backport and the late steps: $(cat \
				"$bp_build/check-results" "$BUILD/check-results.late" | grep -c .) results so far"
		sleep 5
	done
	wait "$backport_pid" || true
	trap - EXIT
	show "the 6.12 backport" "$bp_build/check-results" "$bp_log"
	[ ${#LATE[@]} -eq 0 ] ||
		show "the $KERNEL steps after the backport's (${LATE[*]})" \
			"$BUILD/check-results.late" "$BUILD/late.log"
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
