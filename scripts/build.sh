#!/bin/bash
# build.sh [TREE]: configure (defconfig + kvm_guest.config + config/*.config)
# and build bzImage and modules of TREE (default: the check tree) in $O_FULL,
# then install them into out/.
. "$(dirname "$0")/lib.sh"

tree=${1:-$CHECK_TREE}
o=$O_FULL
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree"

"$TOP/scripts/config.sh" "$tree" "$o"

log "building bzImage and modules ($JOBS jobs)"
make -C "$tree" O="$o" -j"$JOBS" LOCALVERSION= bzImage modules >"$o/build.log" 2>&1 || {
	grep -E -B2 -A8 'error|Error' "$o/build.log" | tail -60 >&2
	die "kernel build failed (log: $o/build.log)"
}

rel=$(cat "$o/include/config/kernel.release")
rm -rf "$OUT"
mkdir -p "$OUT"
make -C "$tree" O="$o" LOCALVERSION= INSTALL_MOD_PATH="$OUT/modules" \
	INSTALL_MOD_STRIP=1 modules_install >/dev/null
cp "$o/arch/x86/boot/bzImage" "$OUT/bzImage"
cp "$o/.config" "$OUT/config"
cp "$o/System.map" "$OUT/System.map"
find "$OUT/modules" \( -name kvm.ko -o -name kvm-intel.ko -o -name kvm-amd.ko \) \
	-exec cp {} "$OUT/" \;
echo "$rel" > "$OUT/release"
