#!/bin/bash
# The KVM kselftests build (make -C tools/testing/selftests TARGETS=kvm),
# out of tree in $O_FULL/kselftest, against the series' uapi headers.
. "$(dirname "$0")/../lib.sh"

"$TOP/scripts/config.sh" "$CHECK_TREE" "$O_FULL"
log=$BUILD/selftests.log
if make -C "$CHECK_TREE" O="$O_FULL" headers >"$log" 2>&1 &&
   make -C "$CHECK_TREE/tools/testing/selftests" O="$O_FULL" TARGETS=kvm \
	-j"$JOBS" >>"$log" 2>&1; then
	result pass "selftests: KVM kselftests build"
else
	grep -E 'error|Error' "$log" | head -20 | sed 's/^/    /'
	result fail "selftests: KVM kselftests build" "log: $log"
	exit 1
fi
