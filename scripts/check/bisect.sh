#!/bin/bash
# Bisectability: after each patch, arch/x86/kvm/ and arch/x86/events/intel/
# build (KVM_INTEL=m KVM_AMD=m KVM_WERROR=y).  Incremental object builds in
# $O_FULL, so only what a patch touches is recompiled.
. "$(dirname "$0")/../lib.sh"

"$TOP/scripts/config.sh" "$CHECK_TREE" "$O_FULL"

rc=0
i=0
for c in $(series_commits "$CHECK_TREE"); do
	i=$((i + 1))
	subject=$(git -C "$CHECK_TREE" log -1 --format=%s "$c")
	git -C "$CHECK_TREE" checkout -q --detach "$c"
	if make -C "$CHECK_TREE" O="$O_FULL" -j"$JOBS" LOCALVERSION= \
		arch/x86/kvm/ arch/x86/events/intel/ >"$BUILD/bisect.log" 2>&1; then
		result pass "bisect: builds after patch $i ($subject)"
	else
		grep -E 'error|warning' "$BUILD/bisect.log" | head -20 | sed 's/^/    /'
		result fail "bisect: builds after patch $i ($subject)"
		rc=1
	fi
done
git -C "$CHECK_TREE" checkout -q series
exit $rc
