#!/bin/bash
# The series applies with git am, without fuzz, on the pinned base.
. "$(dirname "$0")/../lib.sh"

if "$TOP/scripts/apply.sh" "$CHECK_TREE"; then
	n=$(series_commits "$CHECK_TREE" | wc -l)
	result pass "apply: $n patches on $BASE_PKG $BASE_VERSION"
else
	result fail "apply: series on $BASE_PKG $BASE_VERSION"
	exit 1
fi
# A second checkout of the series, for the steps that run beside those
# that check out other commits in $CHECK_TREE (check.sh's LATE steps).
series_tree
