#!/bin/bash
# vmx-check.sh (make vmx-check): KVM on a CPU with VMX, under Bochs (VMX
# with EPT, no Intel PT).  Boots the series' kernel (make's, in out/) and
# the base kernel built with the same configuration, each from an ISO
# image, loads kvm_intel with pt_mode=1 and runs the KVM selftests of
# config/vmx-selftests, each kernel with the selftests of its own tree.
# Fails if a selftest's result differs between the two, if an Intel PT
# selftest does not skip, if kvm_intel does not fall back to system mode
# naming the missing Intel PT, or if the series' kernel log has a splat
# the base's has not.  Prints the results side by side.
#
# Environment: BOCHS_CPU (Bochs CPU model, default corei7_icelake_u),
# VMX_CHECK_TIMEOUT (seconds for each Bochs run, default 3600).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

VMX=$BUILD/vmx-check
BASE_TREE=$BUILD/vmx-base	# worktree of the check tree at base
O_BASE=$BUILD/o-vmx-base
cpu=${BOCHS_CPU:-corei7_icelake_u}
limit=${VMX_CHECK_TIMEOUT:-3600}

# Bochs, and GRUB for a BIOS-bootable ISO image.
"$TOP/scripts/deps.sh" bochs bochs-term bochsbios vgabios grub-pc-bin grub-common xorriso mtools
[ -f "$OUT/bzImage" ] && [ -d "$OUT/modules/lib/modules" ] ||
	die "no kernel in $OUT (run 'make' first)"
git -C "$CHECK_TREE" rev-parse -q --verify series >/dev/null ||
	die "no series in $CHECK_TREE (run 'make' first)"
[ "$(git -C "$CHECK_TREE" rev-parse HEAD)" = "$(git -C "$CHECK_TREE" rev-parse series)" ] ||
	die "$CHECK_TREE is not at its series (run 'make' again)"

mkdir -p "$VMX"
if [ "$(git -C "$BASE_TREE" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" = \
     "$(git -C "$CHECK_TREE" rev-parse --path-format=absolute --git-common-dir)" ]; then
	git -C "$BASE_TREE" checkout -q -f --detach base
else
	rm -rf "$BASE_TREE"
	git -C "$CHECK_TREE" worktree prune
	git -C "$CHECK_TREE" worktree add -q --detach "$BASE_TREE" base
fi

log "building the base kernel in $O_BASE ($JOBS jobs)"
"$TOP/scripts/config.sh" "$BASE_TREE" "$O_BASE"
make -C "$BASE_TREE" O="$O_BASE" -j"$JOBS" LOCALVERSION= bzImage modules \
	>"$O_BASE/build.log" 2>&1 || die "base kernel build failed (log: $O_BASE/build.log)"
rm -rf "$VMX/base-modules"
make -C "$BASE_TREE" O="$O_BASE" LOCALVERSION= INSTALL_MOD_PATH="$VMX/base-modules" \
	INSTALL_MOD_STRIP=1 modules_install >/dev/null
cmp -s "$O_BASE/.config" "$OUT/config" ||
	die "base and series kernels are configured differently ($O_BASE/.config, $OUT/config)"

mapfile -t tests < <(list_file "$SERIES_CONFIG/vmx-selftests")

# selftests NAME TREE: build the listed selftests that TREE has into
# $VMX/NAME/selftests (one directory, as the guest runs them).
selftests() {
	local name=$1 tree=$2 o=$VMX/$1/o st=$VMX/$1/st t targets=()

	for t in "${tests[@]}"; do
		[ -f "$tree/tools/testing/selftests/kvm/$t.c" ] && targets+=("$st/$t")
	done
	log "building ${#targets[@]} KVM selftests of the $name tree"
	make -C "$tree" O="$o" headers >"$VMX/$name/selftests.log" 2>&1 &&
	make -C "$tree/tools/testing/selftests/kvm" O="$o" OUTPUT="$st" \
		KHDR_INCLUDES="-isystem $o/usr/include" -j"$JOBS" "${targets[@]}" \
		>>"$VMX/$name/selftests.log" 2>&1 ||
		die "$name selftests build failed (log: $VMX/$name/selftests.log)"
	rm -rf "$VMX/$name/selftests"
	mkdir -p "$VMX/$name/selftests"
	cp "${targets[@]}" "$VMX/$name/selftests/"
}

# image NAME BZIMAGE MODULES: a BIOS-bootable ISO (GRUB, serial console)
# with the kernel, and an initramfs with its modules and its selftests.
image() {
	local name=$1 iso=$VMX/$1/iso

	rm -rf "$iso"
	mkdir -p "$iso/boot/grub"
	cp "$2" "$iso/bzImage"
	INITRAMFS_MODULES=$3 "$TOP/scripts/initramfs.sh" "$iso/initrd.gz" \
		"$TOP/scripts/guest/init-vmx" "$VMX/$name/selftests"
	cat > "$iso/boot/grub/grub.cfg" <<-EOF
	serial --unit=0 --speed=115200
	terminal_input serial
	terminal_output serial
	set timeout=0
	menuentry $name {
		linux /bzImage console=ttyS0 panic=-1 printk.time=0 printk.devkmsg=on
		initrd /initrd.gz
	}
	EOF
	grub-mkrescue -o "$VMX/$name/boot.iso" "$iso" >"$VMX/$name/grub-mkrescue.log" 2>&1 ||
		die "grub-mkrescue failed (log: $VMX/$name/grub-mkrescue.log)"
}

# bochs NAME: boot NAME's image; the serial console goes to serial.log.
# The guest's clock follows the instructions executed (clock: sync=none),
# so its timeouts mean the same on every host.  Bochs is built with its
# debugger: the rc file lets it run without a prompt.
bochs_run() {
	local dir=$VMX/$1 pid

	echo c > "$dir/bochs.rc"
	cat > "$dir/bochsrc" <<-EOF
	megs: 1024
	cpu: model=$cpu, count=1, ips=100000000
	romimage: file=/usr/share/bochs/BIOS-bochs-latest
	vgaromimage: file=/usr/share/vgabios/vgabios.bin
	ata0-master: type=cdrom, path=$dir/boot.iso, status=inserted
	boot: cdrom
	com1: enabled=1, mode=file, dev=$dir/serial.log
	display_library: rfb, options="timeout=0"
	clock: sync=none, time0=946684800
	log: $dir/bochs.log
	panic: action=fatal
	error: action=report
	info: action=ignore
	debug: action=ignore
	EOF
	rm -f "$dir/serial.log"
	timeout "$limit" bochs -f "$dir/bochsrc" -rc "$dir/bochs.rc" </dev/null \
		>"$dir/bochs.out" 2>&1 &
	pid=$!
	# The guest cannot power off (no ACPI): its last line ends Bochs.
	while kill -0 "$pid" 2>/dev/null; do
		if tr -d '\r' 2>/dev/null < "$dir/serial.log" | grep -q '^vmx-check: done$'; then
			sleep 2
			kill "$pid" 2>/dev/null || true
			break
		fi
		sleep 5
	done
	wait "$pid" || true
	tr -d '\r' < "$dir/serial.log" > "$dir/serial.txt"
}

mkdir -p "$VMX/base" "$VMX/series"
selftests base "$BASE_TREE"
selftests series "$CHECK_TREE"
image base "$O_BASE/arch/x86/boot/bzImage" "$VMX/base-modules"
image series "$OUT/bzImage" "$OUT/modules"

log "booting both kernels under Bochs ($cpu), at most $limit s"
start=$(date +%s)
bochs_run base & pid=$!
bochs_run series
wait $pid
log "Bochs runs took $(($(date +%s) - start)) s"

fails=0
check() { # check DESCRIPTION COMMAND...: print PASS or FAIL
	if "${@:2}"; then
		printf '  PASS %s\n' "$1"
	else
		printf '  FAIL %s\n' "$1"
		fails=$((fails + 1))
	fi
}
has() { grep -qE -- "$2" "$VMX/$1/serial.txt"; }
# result_of NAME TEST: pass, skip, fail (rc N), timeout, "not run", or
# - where NAME's tree has no such selftest.
result_of() {
	local rc

	rc=$(sed -n "s/^vmx-check: selftest ${2##*/} rc=\([0-9]*\)$/\1/p" "$VMX/$1/serial.txt")
	[ -n "$rc" ] || [ -e "$VMX/$1/selftests/${2##*/}" ] || { echo "-"; return; }
	case $rc in
	'') echo "not run" ;;
	0) echo pass ;;
	4) echo skip ;;
	124|143) echo timeout ;;
	*) echo "fail (rc $rc)" ;;
	esac
}
# splats NAME: the kernel log's WARNING, BUG, Oops and unchecked MSR
# access lines, without CPU and task, line numbers, offsets and values
# (digits), so that base and series compare.
splats() {
	grep -E 'WARNING:|BUG:|Oops|unchecked MSR access|general protection' "$VMX/$1/serial.txt" |
		grep -v '^vmx-check: ' |
		sed -E 's/CPU: [0-9]+ PID: [0-9]+ //; s/:[0-9]+ / /;
			s/\+0x[0-9a-f]+\/0x[0-9a-f]+//g; s/[0-9]+/N/g' | sort -u
}

for k in base series; do
	check "$k: boots to userspace and completes" has $k '^vmx-check: done$'
	check "$k: the CPU has VMX and no Intel PT" \
		sh -c "grep -q '^vmx-check: cpu has vmx$' '$VMX/$k/serial.txt' &&
		       grep -q '^vmx-check: cpu has no intel_pt$' '$VMX/$k/serial.txt'"
	check "$k: modprobe kvm_intel pt_mode=1 succeeds" has $k '^vmx-check: modprobe kvm_intel pt_mode=1 rc=0$'
done
check "series: kvm_intel falls back to system mode, naming the missing Intel PT" \
	has series '^kvm_intel: Intel PT host-guest mode unavailable: the CPU has no Intel PT; using system mode'

printf '\n  %-44s %-14s %s\n' "selftest" "base" "series"
for t in "${tests[@]}"; do
	b=$(result_of base "$t")
	s=$(result_of series "$t")
	printf '  %-44s %-14s %s\n' "${t##*/}" "$b" "$s"
	case ${t##*/} in
	intel_pt_*) [ "$s" = skip ] || { echo "  FAIL ${t##*/}: an Intel PT selftest must skip without Intel PT"; fails=$((fails + 1)); } ;;
	*) [ "$b" = "$s" ] || { echo "  FAIL ${t##*/}: base and series differ"; fails=$((fails + 1)); } ;;
	esac
done
echo

new=$(comm -13 <(splats base) <(splats series))
[ -z "$new" ] || printf '%s\n' "$new" | sed 's/^/    new: /'
check "series: no kernel splat the base does not have" test -z "$new"

[ $fails = 0 ] || die "$fails checks failed (serial logs: $VMX/base/serial.txt, $VMX/series/serial.txt)"
log "vmx-check passed"
