#!/bin/bash
# installed.sh: say what 'make' built into out/ and how to use it.
. "$(dirname "$0")/lib.sh"

rel=$(cat "$OUT/release")
n=$(product_files | wc -l)
out=${OUT#"$TOP"/}
# 7.3: host-guest mode rides on the mediated vPMU (6.12 has none)
mediated=" enable_mediated_pmu=1"
[ "$KERNEL" = 7.3 ] || mediated=
cat <<EOT

Built Linux $rel: $BASE_PKG $BASE_VERSION + $n patches (${PATCHES#"$TOP"/}/series).
  $out/bzImage             the kernel
  $out/config              its configuration (defconfig + config/*.config +
                          config/slim.fragment)
  $out/modules/lib/modules/$rel/   modules, including kvm.ko and kvm-intel.ko
  $out/kvm.ko $out/kvm-intel.ko     the KVM modules alone

This is the test kernel that 'make check' boots under QEMU ('make boot'
gives a shell in it): it has no network, disk, USB or graphics drivers.
For an Intel host with Intel PT, 'make deb' packages the kernel with
defconfig's drivers (or apply patches/ to your own tree):
  dpkg -i $out/deb/linux-image-${rel}_*.deb
  # after rebooting into it:
  modprobe kvm_intel pt_mode=host-guest$mediated
  cat /sys/module/kvm_intel/parameters/pt_mode   # 1, or 0 after a fallback
If the host lacks something host-guest mode needs, kvm_intel logs which
capability is missing and runs in system mode (dmesg | grep kvm_intel).
EOT
