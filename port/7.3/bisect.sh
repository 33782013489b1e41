#!/bin/bash
# bisect.sh [RANGE]: build every commit of RANGE (default base..product) of
# the 7.3 work tree in a worktree of its own (build/port73/bis), the KVM,
# perf and perf-core directories with W=1 and KVM_WERROR (kvm_intel and
# kvm_amd as modules, the defconfig otherwise), and print one line per
# commit.  Run from the repository root.
set -uo pipefail
top=$(pwd)
range=${1:-base..product}
tree=$top/build/port73/linux
wt=$top/build/port73/bis
o=$top/build/port73/o-bis
[ -d "$wt" ] || git -C "$tree" worktree add -q --detach "$wt" base
if [ ! -f "$o/.config" ]; then
	mkdir -p "$o"
	make -s -C "$wt" O="$o" ARCH=x86_64 defconfig
	"$wt/scripts/config" --file "$o/.config" -m KVM -m KVM_INTEL -m KVM_AMD \
		-e KVM_WERROR -d KVM_INTEL_TDX
	make -s -C "$wt" O="$o" ARCH=x86_64 olddefconfig
fi
for c in $(git -C "$tree" rev-list --reverse "$range"); do
	git -C "$wt" checkout -q --detach "$c"
	log=$o/bisect-$c.log
	if nice make -C "$wt" O="$o" ARCH=x86_64 -j"$(nproc)" W=1 \
		arch/x86/kvm/ arch/x86/events/ kernel/events/ >"$log" 2>&1; then
		r=ok
	else
		r=FAIL
	fi
	echo "$(git -C "$tree" log -1 --format='%h %s' "$c"): $r, $(grep -c 'warning:' "$log") warnings"
done
