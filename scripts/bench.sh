#!/bin/bash
# bench.sh: the KUnit benchmark of Intel PT accesses per VM round trip, on a
# tree applied freshly from patches/.  Prints one line per scenario.
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/deps.sh"
"$TOP/scripts/get-base.sh"
"$TOP/scripts/apply.sh" "$CHECK_TREE"
series_tree	# where make check builds the KUnit kernel

cd "$SERIES_TREE"
mapfile -t args < <(kunit_args "$SERIES_TREE")
mkdir -p "$BUILD"
if ! python3 tools/testing/kunit/kunit.py run --timeout=900 "${args[@]}" \
	'kvm_intel_pt_bench.*' >"$BUILD/bench.log" 2>&1; then
	tail -40 "$BUILD/bench.log" >&2
	die "the benchmark did not run; see $BUILD/bench.log"
fi
lines=$(bench_lines "$O_KUNIT/test.log")
[ -n "$lines" ] || die "the benchmark printed nothing; see $O_KUNIT/test.log"
echo "Intel PT accesses per VM round trip (KUnit model, icelake-server profile):"
echo "$lines"
