#!/bin/bash
# boot.sh [INIT [CMDLINE...]]: boot out/bzImage under QEMU (TCG) with a
# busybox initramfs.  Without INIT: an interactive shell on the console
# (leave with 'reboot -f': QEMU runs with -no-reboot, and the test kernel
# has no ACPI to power off with).  Extra CMDLINE words are appended.
# Environment: BOOT_TIMEOUT (seconds, non-interactive), BOOT_EXTRA (dirs to
# copy under /opt in the guest).
. "$(dirname "$0")/lib.sh"

init=${1:-$TOP/scripts/guest/init-shell}
shift || true
initrd=$BUILD/initramfs-$(basename "$init").cpio.gz
# shellcheck disable=SC2086
"$TOP/scripts/initramfs.sh" "$initrd" "$init" ${BOOT_EXTRA:-}

qemu=(qemu-system-x86_64 -accel tcg -cpu max -smp 1 -m 2048 -nodefaults
	-nographic -no-reboot -serial stdio -bios /usr/share/qemu/qboot.rom
	-kernel "$OUT/bzImage" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 $*")
if [ -n "${BOOT_TIMEOUT:-}" ]; then
	timeout --foreground "$BOOT_TIMEOUT" "${qemu[@]}" </dev/null
else
	"${qemu[@]}"
fi
