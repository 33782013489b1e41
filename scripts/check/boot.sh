#!/bin/bash
# Full kernel build (defconfig + fragments) into out/, then boot it under
# QEMU (TCG) with a busybox initramfs and check what a user sees on this
# CPU without VMX.
. "$(dirname "$0")/../lib.sh"

if "$TOP/scripts/build.sh" "$CHECK_TREE"; then
	result pass "build: bzImage and modules ($(cat "$OUT/release"))"
else
	result fail "build: bzImage and modules"
	exit 1
fi

# KVM selftests built by the selftests step run inside the guest.
extra=()
st=$BUILD/boot-selftests/selftests
rm -rf "$BUILD/boot-selftests"
mkdir -p "$st"
while read -r t; do
	[ -n "$t" ] || continue
	bin=$O_SELFTESTS/kselftest/kvm/$t
	[ -x "$bin" ] && cp "$bin" "$st/"
done < <(list_file "$SERIES_CONFIG/boot-selftests")
[ -n "$(ls -A "$st")" ] && extra=("$st")

log=$BUILD/boot.log
qemu_rc=0
BOOT_TIMEOUT=300 BOOT_EXTRA="${extra[*]:-}" \
	"$TOP/scripts/boot.sh" "$TOP/scripts/guest/init-test" kvm_intel.pt_mode=host-guest \
	>"$log" 2>&1 || qemu_rc=$?
tr -d '\r' < "$log" > "$log.txt"
# The guest's init ends with reboot -f, which ends QEMU (-no-reboot); QEMU
# killed at the timeout means it never got there or could not leave.
if [ $qemu_rc = 124 ]; then
	result fail "boot: the guest ends QEMU" "QEMU was still running after 300 s"
else
	result pass "boot: the guest ends QEMU"
fi
log=$log.txt

expect() { # expect NAME REGEX: the boot log has a line matching REGEX
	if grep -qE -- "$2" "$log"; then
		result pass "boot: $1"
	else
		result fail "boot: $1" "no line matching '$2' in $log"
	fi
}
expect_not() { # expect_not NAME REGEX: no line of the boot log matches
	local hits
	hits=$(grep -E -- "$2" "$log" || true)
	if [ -z "$hits" ]; then
		result pass "boot: $1"
	else
		printf '%s\n' "$hits" | head -10 | sed 's/^/    /'
		result fail "boot: $1"
	fi
}

expect "boots to userspace and completes" '^kvm-pt-test: done$'
expect "test CPU has no VMX" '^kvm-pt-test: cpu has no vmx$'
expect_not "no WARNING, BUG, Oops or unchecked MSR access" "$KERNEL_SPLATS"
expect "modprobe kvm succeeds" '^kvm-pt-test: modprobe kvm rc=0$'
expect "modprobe kvm_intel pt_mode=bogus fails" \
	'^kvm-pt-test: modprobe kvm_intel pt_mode=bogus rc=[1-9]'
expect "pt_mode=bogus is refused naming the valid values" \
	"^kvm-pt-test: pt_mode=bogus: .*kvm_intel: invalid pt_mode 'bogus': use 0 or system, 1 or host-guest"
expect "modprobe kvm_intel pt_mode=1 fails" '^kvm-pt-test: modprobe kvm_intel pt_mode=1 rc=[1-9]'
expect "pt_mode=1: kvm_intel says VMX is not supported" \
	'^kvm-pt-test: pt_mode=1: .*kvm_intel: VMX not supported by CPU'
expect "kvm_intel.pt_mode=host-guest is on the kernel command line" \
	'^kvm-pt-test: kvm_intel options on the command line: pt_mode=host-guest$'
expect "modprobe kvm_intel with it fails" '^kvm-pt-test: modprobe kvm_intel cmdline rc=[1-9]'
expect "kvm_intel.pt_mode=host-guest: kvm_intel says VMX is not supported" \
	'^kvm-pt-test: cmdline: .*kvm_intel: VMX not supported by CPU'
expect "kvm_intel is not loaded" '^kvm-pt-test: kvm_intel not loaded$'
expect_not "pt_mode is a known parameter" "unknown parameter 'pt_mode'"
expect_not "only 'bogus' is refused" "invalid pt_mode '[^b]"

while read -r t; do
	[ -n "$t" ] || continue
	if [ ! -x "$st/$(basename "$t")" ]; then
		result fail "boot: selftest $t" "not built"
		continue
	fi
	# Without VMX the test must skip (kselftest exit code 4).
	expect "selftest $t skips without VMX" "^kvm-pt-test: selftest $(basename "$t") rc=4$"
done < <(list_file "$SERIES_CONFIG/boot-selftests")
