#!/bin/bash
# The KVM kselftests build (make -C tools/testing/selftests TARGETS=kvm),
# from $SERIES_TREE, out of tree in $O_SELFTESTS/kselftest, against the
# series' uapi headers; the selftests the series adds or changes build
# without warnings.
. "$(dirname "$0")/../lib.sh"

log=$BUILD/selftests.log
if ! make -C "$SERIES_TREE" O="$O_SELFTESTS" headers >"$log" 2>&1 ||
   ! make -C "$SERIES_TREE/tools/testing/selftests" O="$O_SELFTESTS" TARGETS=kvm \
	-j"$JOBS" >>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 | sed 's/^/    /'
	result fail "selftests: KVM kselftests build" "log: $log"
	exit 1
fi
result pass "selftests: KVM kselftests build"

# Rebuild each selftest and library file the series touches, in one make
# call: no warning at all.  A warning is the file's whose name it starts
# with; any other (from a header) fails every file rebuilt.
rc=0
out=$O_SELFTESTS/kselftest/kvm
names=()
targets=()
for f in $(git -C "$SERIES_TREE" diff --name-only base series -- 'tools/testing/selftests/kvm/*.c'); do
	name=${f#tools/testing/selftests/kvm/}
	name=${name%.c}
	case $name in
	lib/*) target=$out/$name.o ;;
	*) target=$out/$name ;;
	esac
	rm -f "$target" "$out/$name.o"
	names+=("$name")
	targets+=("$target")
done
[ ${#names[@]} -gt 0 ] || exit 0
warn=$(make -C "$SERIES_TREE/tools/testing/selftests/kvm" O="$O_SELFTESTS" OUTPUT="$out" \
	KHDR_INCLUDES="-isystem $O_SELFTESTS/usr/include" -k -j"$JOBS" "${targets[@]}" 2>&1 |
	grep -E 'warning:|error:' | sed "s|^$SERIES_TREE/tools/testing/selftests/kvm/||" || true)
others=$(printf '%s\n' "$warn" | grep -v -E "^($(IFS='|'; echo "${names[*]}"))\.c:" | sed '/^$/d' || true)
for i in "${!names[@]}"; do
	name=${names[i]}
	mine=$(printf '%s\n' "$warn" | grep -F "$name.c:" | grep -E "^$name\.c:" || true)
	if [ -z "$mine$others" ] && [ -s "${targets[i]}" ]; then
		result pass "selftests: $name builds without warnings"
	else
		printf '%s\n' "$mine" "$others" | sed '/^$/d; s/^/    /'
		result fail "selftests: $name builds without warnings"
		rc=1
	fi
done
exit $rc
