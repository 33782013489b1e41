#!/bin/bash
# KUnit: kunit.py run --arch=x86_64 (QEMU, TCG) in $SERIES_TREE, with
# config/kunit.kunitconfig plus every .kunitconfig the series adds under
# arch/x86/.  One result per test case; known-bug tests that still skip
# are listed.
. "$(dirname "$0")/../lib.sh"

cd "$SERIES_TREE"
mapfile -t args < <(kunit_args "$SERIES_TREE")

json=$BUILD/kunit.json
rm -f "$json"
if ! python3 tools/testing/kunit/kunit.py run --timeout=900 --json="$json" "${args[@]}" \
	>"$BUILD/kunit.log" 2>&1; then
	tail -40 "$BUILD/kunit.log" | sed 's/^/    /'
fi
if [ ! -s "$json" ]; then
	result fail "kunit: build and boot" "see $BUILD/kunit.log"
	exit 1
fi

# One line per test case: STATUS suite.case
python3 - "$json" > "$BUILD/kunit.cases" <<'PY'
import json, sys

def walk(group, prefix):
    for case in group.get("test_cases", []):
        print(case["status"], prefix + case["name"])
    for sub in group.get("sub_groups", []):
        walk(sub, prefix + sub["name"] + ".")

walk(json.load(open(sys.argv[1])), "")
PY

rc=0
n=0
while read -r status name; do
	n=$((n + 1))
	case $status in
	PASS) result pass "kunit: $name" ;;
	SKIP) result skip "kunit: $name" ;;
	*) result fail "kunit: $name" "$status"; rc=1 ;;
	esac
done < "$BUILD/kunit.cases"
if [ $n -eq 0 ]; then
	result fail "kunit: no test ran"
	exit 1
fi

# A WARN or BUG while the tests ran fails the step even if every test passed.
splats=$(grep -E "$KERNEL_SPLATS" "$O_KUNIT/test.log" || true)
if [ -n "$splats" ]; then
	printf '%s\n' "$splats" | head -10 | sed 's/^/    /'
	result fail "kunit: no WARNING, BUG or Oops in the kernel log"
	rc=1
else
	result pass "kunit: no WARNING, BUG or Oops in the kernel log"
fi

# Known-bug tests skip with "known bug <ID>" until the fix lands.
known=$(grep -o '# SKIP known bug [A-Z][0-9]*' "$O_KUNIT/test.log" | awk '{print $NF}' | sort -u || true)
if [ -n "$known" ]; then
	echo "  known-bug tests still skipped: $(printf '%s\n' "$known" | wc -l) ($(echo $known))"
else
	echo "  known-bug tests still skipped: 0"
fi

# The benchmark (make bench) ran with the rest: show its numbers.
if grep -q 'bench: ' "$O_KUNIT/test.log"; then
	echo "  benchmark, Intel PT accesses per VM round trip (make bench):"
	bench_lines "$O_KUNIT/test.log"
fi
exit $rc
