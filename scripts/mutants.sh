#!/bin/bash
# mutants.sh: mutation testing of the KUnit tests (make mutants).  Mutates,
# one at a time, the lines the series adds to the files below, rebuilds the
# KUnit kernel and runs every suite: a mutant is killed if a test fails,
# crashes or does not run, or the kernel log has a WARNING, BUG or Oops.
# Prints killed, survived (file:line and the mutation) and the score per
# file, also into build/mutants-results.txt.  Not part of make check (slow).
#
# Environment (or make variables):
#   MUTANTS_FILES="a.c b.c"  files to mutate (default: the three below)
#   MUTANTS_IDS="id id ..."  only these mutants (ids as MUTANTS_LIST=1 shows)
#   MUTANTS_LIMIT=N          only the first N (after MUTANTS_IDS)
#   MUTANTS_LIST=1           list the mutants, run nothing
#   MUTANTS_TIMEOUT=S        seconds for one KUnit run (default: 5 times the
#                            unmutated run, at least 60)
#   MUTANTS_SILENCE=S        a mutant whose kernel prints nothing for S
#                            seconds hangs: killed (default: 3 times the
#                            unmutated run's longest silence, at least 60)
#   MUTANTS_STUBS=1          also mutate the KUnit static stub helpers
#   JOBS=N                   make -j (default: nproc)
# Exits non-zero only if the tool could not run (the series does not apply,
# the unmutated kernel does not build or fails its tests).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TREE=$BUILD/mutants
O_KUNIT=$BUILD/o-mutants	# kunit_args() uses it
MUT=$TOP/scripts/mutants/mutants.py
EQUIV=$TOP/scripts/mutants/equivalent
[ "$KERNEL" = 7.3 ] || EQUIV=$EQUIV-$KERNEL
WORK=$BUILD/mutants-run
LIST=$WORK/list.json
STATE=$WORK/state.tsv
OUTFILE=$BUILD/mutants-results.txt
read -r -a files <<< "${MUTANTS_FILES:-arch/x86/kvm/vmx/pt.c arch/x86/kvm/cpuid.c arch/x86/events/intel/pt.c}"
export KERNEL_SPLATS

"$TOP/scripts/deps.sh"
"$TOP/scripts/get-base.sh"
# Apply the series afresh unless the tree holds exactly patches/ already:
# re-applying gives every file the series touches (headers included) a new
# timestamp, and the KUnit kernel would be rebuilt in good part.
applied=$(cd "$PATCHES" && { base_commit; cat series; series_files | xargs cat; } | sha256sum)
stamp=$TREE/.git/mutants-applied
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$applied" ] &&
	[ "$(git -C "$TREE" rev-parse HEAD)" = "$(git -C "$TREE" rev-parse series)" ] &&
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	log "$TREE has patches/ applied already: $(tgit "$TREE" log -1 --format='%h %s')"
else
	# Files whose content comes out the same keep their timestamps, so
	# that the KUnit kernel rebuilds only what the new patches change.
	declare -A old_hash=() old_time=()
	if [ -d "$TREE/.git" ] && git -C "$TREE" rev-parse -q --verify base >/dev/null; then
		while read -r f; do
			[ -f "$TREE/$f" ] || continue
			old_hash[$f]=$(git -C "$TREE" hash-object -- "$f")
			old_time[$f]=$(stat -c %y "$TREE/$f")
		done < <(git -C "$TREE" diff --name-only --no-renames base)
	fi
	rm -f "$stamp"
	"$TOP/scripts/apply.sh" "$TREE"
	for f in "${!old_hash[@]}"; do
		if [ -f "$TREE/$f" ] && [ "$(git -C "$TREE" hash-object -- "$f")" = "${old_hash[$f]}" ]; then
			touch -d "${old_time[$f]}" "$TREE/$f"
		fi
	done
	printf '%s\n' "$applied" > "$stamp"
fi
cd "$TREE" || die "no $TREE"
for f in "${files[@]}"; do
	[ -f "$f" ] || die "MUTANTS_FILES: no $f in the tree"
	[ -n "$(tgit "$TREE" diff --name-only base series -- "$f")" ] ||
		die "MUTANTS_FILES: the series does not change $f"
done

rm -rf "$WORK"
mkdir -p "$WORK"
python3 "$MUT" list "$TREE" "$LIST" "${files[@]}" | tee "$WORK/list.txt"
python3 "$MUT" select "$LIST" > "$WORK/ids" || die "MUTANTS_IDS: see above"
mapfile -t ids < "$WORK/ids"
[ ${#ids[@]} -gt 0 ] || die "no mutant selected"
if [ "${MUTANTS_LIST:-0}" = 1 ]; then
	python3 "$MUT" show "$LIST" "${ids[@]}"
	echo "${#ids[@]} mutants"
	exit 0
fi

lanes=${MUTANTS_LANES:-1}
[[ $lanes =~ ^[1-9][0-9]*$ ]] || die "MUTANTS_LANES: a number of lanes, not '$lanes'"
[ "$lanes" -le "${#ids[@]}" ] || lanes=${#ids[@]}

# lane_dirs N: the tree, the build directory and the work directory of
# lane N (lane 1: those above).
lane_dirs() {
	if [ "$1" = 1 ]; then
		lane_tree=$TREE lane_o=$O_KUNIT lane_work=$WORK
	else
		lane_tree=$TREE-$1 lane_o=$O_KUNIT-$1 lane_work=$WORK/lane-$1
	fi
}

# kernel_build LOG: rebuild the KUnit kernel after a change (incremental).
kernel_build() {
	make ARCH=x86_64 O="$O_KUNIT" --jobs="$JOBS" all >"$1" 2>&1
}

# kunit_exec JSON LOG TIMEOUT [STOP]: boot it and run every suite; LOG
# gets the kernel's output as it comes, JSON what kunit.py makes of it, and
# LOG.quiet the longest time in seconds that the kernel printed nothing.
# With STOP, the run ends at the first sign of a killed mutant (a failed
# expectation or test case, a splat, no output for $silence seconds: a
# hang), which it writes into STOP: kunit.py's own results come only as a
# suite ends, minutes after a flood of failures.
kunit_exec() {
	local pid signs size=0 now quiet=$SECONDS longest=0
	signs="^[[:space:]]*not ok [0-9]|(EXPECTATION|ASSERTION) FAILED|$KERNEL_SPLATS"
	# The log too: the loop below must not read the last run's.
	rm -f "$1" "$2" ${4:+"$4"}
	: >"$2"
	PYTHONUNBUFFERED=1 setsid timeout $(($3 + 120)) \
		python3 tools/testing/kunit/kunit.py exec "${exec_args[@]}" \
		--timeout="$3" --raw_output=all >"$2" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		now=$(stat -c %s "$2")
		[ "$now" = "$size" ] || size=$now quiet=$SECONDS
		[ $((SECONDS - quiet)) -le "$longest" ] || longest=$((SECONDS - quiet))
		if [ -n "${4:-}" ]; then
			grep -m1 -E "$signs" "$2" >"$4" || true
			if [ ! -s "$4" ] && [ $((SECONDS - quiet)) -ge "$silence" ]; then
				echo "no kernel output for ${silence}s: hung" >"$4"
			fi
			if [ -s "$4" ]; then
				# It may have ended meanwhile: that must not end
				# us (set -e).
				kill -- -"$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
				break
			fi
		fi
		sleep 1
	done
	wait "$pid" || true
	echo "$longest" >"$2.quiet"
	if [ -n "${4:-}" ] && [ -s "$4" ]; then
		return 0
	fi
	rm -f ${4:+"$4"}
	python3 tools/testing/kunit/kunit.py parse --json="$1" "$2" >/dev/null 2>&1 || true
}

start=$SECONDS
report() {
	cat "$WORK"/state.tsv "$WORK"/lane-*/state.tsv 2>/dev/null > "$STATE.all" || true
	[ -s "$STATE.all" ] || return 0
	{
		echo "make mutants: $(tgit "$TREE" log -1 --format='%h %s' series)"
		echo "files: ${files[*]}; KUnit timeouts: $(cat "$WORK"/timeout "$WORK"/lane-*/timeout 2>/dev/null | tr '\n' ' ')s;" \
			"JOBS=$JOBS, $lanes lane(s)"
		python3 "$MUT" report "$LIST" "$STATE.all" "$EQUIV"
		echo "total time: $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s" \
			"(unmutated build and run included)"
	} | tee "$OUTFILE"
	{
		echo
		echo "mutants generated:"
		cat "$WORK/list.txt"
		echo
		echo "each mutant run (id, result, seconds, file:line, mutation):"
		python3 "$MUT" table "$LIST" "$STATE.all"
	} >> "$OUTFILE"
	log "results in $OUTFILE"
}

# lane N ID...: build and run the unmutated KUnit kernel in lane N's tree,
# then each mutant.  Writes the lane's state.tsv (id, result, seconds,
# detail).
lane() {
	local n=$1 id what status detail verdict secs shown i=0 t0 base_secs bad ncases splats
	local timeout quiet silence prefix="" mutated=0
	shift
	lane_dirs "$n"
	TREE=$lane_tree O_KUNIT=$lane_o WORK=$lane_work
	[ "$lanes" = 1 ] || prefix="[lane $n] "
	mkdir -p "$WORK"
	cd "$TREE" || die "no $TREE"
	mapfile -t args < <(kunit_args "$TREE")
	exec_args=()
	for a in "${args[@]}"; do
		case $a in --jobs=*) ;; *) exec_args+=("$a") ;; esac
	done

	# A mutated file goes back to the series' version, whatever happens
	# (make mutants stopped with Ctrl-C included); git leaves unchanged
	# files alone.
	restore() {
		if [ "$mutated" = 1 ]; then
			tgit "$TREE" checkout -q -- "${files[@]}"
			mutated=0
		fi
	}
	trap restore EXIT
	trap 'restore; exit 130' INT TERM

	log "${prefix}building the unmutated KUnit kernel in $O_KUNIT"
	if ! python3 tools/testing/kunit/kunit.py build "${args[@]}" >"$WORK/base.build.log" 2>&1; then
		tail -30 "$WORK/base.build.log" >&2
		die "the unmutated KUnit kernel does not build; see $WORK/base.build.log"
	fi
	log "${prefix}running the unmutated KUnit kernel"
	t0=$SECONDS
	kunit_exec "$WORK/base.json" "$WORK/base.log" "${MUTANTS_TIMEOUT:-900}"
	base_secs=$((SECONDS - t0))
	[ -s "$WORK/base.json" ] || die "the unmutated KUnit run gave no result; see $WORK/base.log"
	cp "$O_KUNIT/test.log" "$WORK/base.test.log"
	bad=$(python3 "$MUT" cases "$WORK/base.json" | grep -v -E '^(PASS|SKIP) ' || true)
	[ -z "$bad" ] || die "the unmutated tree fails its tests (see $WORK/base.log):
$bad"
	ncases=$(python3 "$MUT" cases "$WORK/base.json" | wc -l)
	[ "$ncases" -gt 0 ] || die "the unmutated KUnit run ran no test; see $WORK/base.log"
	splats=$(grep -E "$KERNEL_SPLATS" "$WORK/base.test.log" || true)
	[ -z "$splats" ] || die "the unmutated KUnit kernel's log has: $(printf '%s\n' "$splats" | head -3)"
	timeout=${MUTANTS_TIMEOUT:-$((base_secs * 5 > 60 ? base_secs * 5 : 60))}
	echo "$timeout" > "$WORK/timeout"
	quiet=$(cat "$WORK/base.log.quiet")
	silence=${MUTANTS_SILENCE:-$((quiet * 3 > 60 ? quiet * 3 : 60))}
	log "${prefix}unmutated: $ncases test cases pass or skip (${base_secs}s, at most ${quiet}s without output); $# mutants, KUnit timeout ${timeout}s, hung after ${silence}s without output"

	: > "$WORK/state.tsv"
	for id in "$@"; do
		i=$((i + 1))
		t0=$SECONDS
		what=$(python3 "$MUT" show "$LIST" "$id")
		mutated=1
		python3 "$MUT" apply "$TREE" "$LIST" "$id" >/dev/null
		if ! kernel_build "$WORK/build.log"; then
			status=unbuilt
			detail="did not build"
			cp "$WORK/build.log" "$WORK/$id.build.log"
		else
			kunit_exec "$WORK/run.json" "$WORK/run.log" "$timeout" "$WORK/stop"
			if [ -f "$WORK/stop" ]; then
				verdict="killed: first failure: $(sed -E 's/^[[:space:]#]*//' "$WORK/stop" | cut -c1-120)"
			else
				verdict=$(python3 "$MUT" judge "$WORK/base.json" "$WORK/run.json" "$O_KUNIT/test.log")
			fi
			status=${verdict%%:*}
			detail=${verdict#*: }
			[ "$status" = killed ] || detail=
			if [ "$status" = killed ] && [ ! -s "$WORK/run.json" ]; then
				cp "$O_KUNIT/test.log" "$WORK/$id.test.log"
			fi
		fi
		restore
		secs=$((SECONDS - t0))
		printf '%s\t%s\t%s\t%s\n' "$id" "$status" "$secs" "$detail" >> "$WORK/state.tsv"
		case $status in
		unbuilt) shown="did not build (see $WORK/$id.build.log)" ;;
		killed) shown="killed: $detail" ;;
		*) shown=SURVIVED ;;
		esac
		printf '%s[%d/%d] %s\n        %s, %ss\n' "$prefix" "$i" "$#" "$what" "$shown" "$secs"
	done
}

# Lanes after the first work in copies of the tree as patches/ left it,
# timestamps kept, so that their builds stay incremental.
for ((n = 2; n <= lanes; n++)); do
	lane_dirs "$n"
	if cmp -s "$stamp" "$lane_tree/.git/mutants-applied" &&
	   [ -z "$(git -C "$lane_tree" status --porcelain --untracked-files=no)" ]; then
		continue
	fi
	log "lane $n: copying $TREE to $lane_tree"
	rm -rf "$lane_tree"
	cp -a "$TREE" "$lane_tree"
done

# Lane N takes every N-th mutant.
pids=()
for ((n = 1; n <= lanes; n++)); do
	lane_ids=()
	for ((k = n - 1; k < ${#ids[@]}; k += lanes)); do
		lane_ids+=("${ids[$k]}")
	done
	lane "$n" "${lane_ids[@]}" &
	pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null; wait; echo; log "interrupted"; report; exit 130' INT TERM
rc=0
for pid in "${pids[@]}"; do
	wait "$pid" || rc=1
done
trap - INT TERM
report
[ "$rc" = 0 ] || die "a lane stopped early; see above"
