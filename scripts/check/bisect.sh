#!/bin/bash
# Bisectability: after each patch, arch/x86/kvm/ and arch/x86/events/intel/
# build (KVM_INTEL=m KVM_AMD=m KVM_WERROR=y), and the KVM modules link:
# modpost finds every symbol they use exported by vmlinux or by each other.
# Incremental builds in $O_FULL, so only what a patch touches is recompiled.
. "$(dirname "$0")/../lib.sh"

"$TOP/scripts/config.sh" "$CHECK_TREE" "$O_FULL"

# modpost takes vmlinux's exports from vmlinux.o: that of the whole series
# (exports a patch adds to vmlinux are there from its first patch on).  The
# boot step's full build reuses its objects.  The target is vmlinux_o: in an
# empty build directory kbuild takes "vmlinux.o" for a single-object build
# and finds no rule for it.
log=$BUILD/bisect.log
git -C "$CHECK_TREE" checkout -q series
series_times_save "$CHECK_TREE" "$BUILD/series-times"
t=$SECONDS
if ! make -C "$CHECK_TREE" O="$O_FULL" -j"$JOBS" LOCALVERSION= vmlinux_o >"$log" 2>&1; then
	grep -E 'error:|warning:|\*\*\*' "$log" | head -20 | sed 's/^/    /'
	result fail "bisect: vmlinux.o of the series builds" "log: $log"
	exit 1
fi

echo "  vmlinux.o of the series: $((SECONDS - t)) s"

modules="arch/x86/kvm/kvm.ko arch/x86/kvm/kvm-intel.ko arch/x86/kvm/kvm-amd.ko virt/lib/irqbypass.ko"
rc=0
i=0
for c in $(series_commits "$CHECK_TREE"); do
	i=$((i + 1))
	subject=$(git -C "$CHECK_TREE" log -1 --format=%s "$c")
	git -C "$CHECK_TREE" checkout -q --detach "$c"
	t=$SECONDS
	# shellcheck disable=SC2086
	if make -C "$CHECK_TREE" O="$O_FULL" -j"$JOBS" LOCALVERSION= \
		arch/x86/kvm/ arch/x86/events/intel/ $modules >"$log" 2>&1; then
		result pass "bisect: builds and links after patch $i ($subject)" \
			"$((SECONDS - t)) s"
	else
		grep -E 'error|warning|ERROR' "$log" | head -20 | sed 's/^/    /'
		result fail "bisect: builds and links after patch $i ($subject)"
		rc=1
	fi
done
git -C "$CHECK_TREE" checkout -q series
# The last patch's build left every object in O_FULL as the series makes it.
series_times_restore "$CHECK_TREE" "$BUILD/series-times"
exit $rc
