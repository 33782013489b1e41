#!/bin/bash
# W=1 and sparse (C=2) on every object whose source the series touches: no
# warning that the base does not already have.  Objects are checked in each
# configuration that builds them: the full kernel's and the KUnit kernel's
# (which also builds the tests).  Warnings are compared as messages
# without file and line, pooled over all touched objects, so code moved
# between files keeps its (pre-existing) warnings.
. "$(dirname "$0")/../lib.sh"

"$TOP/scripts/config.sh" "$CHECK_TREE" "$O_FULL"

# Touched objects, as "O-DIR OBJECT" lines.
objs=()
for f in $(git -C "$CHECK_TREE" diff --name-only base series -- '*.c'); do
	case $f in tools/*|Documentation/*|samples/*) continue ;; esac
	o=${f%.c}.o
	cmd=$(dirname "$o")/.$(basename "$o").cmd
	n=${#objs[@]}
	for odir in "$O_FULL" "$O_KUNIT"; do
		[ -f "$odir/$cmd" ] && objs+=("$odir $o")
	done
	if [ ${#objs[@]} -gt "$n" ]; then
		continue
	elif grep -q "^#include \"$(basename "$f")\"" "$CHECK_TREE/$(dirname "$f")"/*.c 2>/dev/null; then
		result skip "warnings: $f" "included by another source, checked there"
	else
		result skip "warnings: $f" "not built in the full or the KUnit configuration"
	fi
done
[ ${#objs[@]} -gt 0 ] || exit 0

warnings() { # warnings O-DIR OBJECT: build with W=1 C=2, print normalized warnings
	local arch=()

	[ "$1" = "$O_KUNIT" ] && arch=(ARCH=x86_64)	# as kunit.py builds it
	rm -f "$1/$2"
	make -C "$CHECK_TREE" O="$1" "${arch[@]}" LOCALVERSION= W=1 C=2 "$2" 2>&1 >/dev/null |
		grep -E ': (warning|error):' |
		sed -E 's/^[^ :]+:[0-9]+(:[0-9]+)?: //' || true
}

# Base warnings, cached per configuration (the base never changes).
cache_of() { # cache_of O-DIR OBJECT
	printf '%s/warn-base/%s/%s.log' "$BUILD" \
		"$(sha256sum "$1/.config" | cut -c1-16)" "$(printf '%s' "$2" | tr / _)"
}
git -C "$CHECK_TREE" checkout -q --detach base
for entry in "${objs[@]}"; do
	read -r odir o <<< "$entry"
	key=$(cache_of "$odir" "$o")
	[ -f "$key" ] && continue
	mkdir -p "$(dirname "$key")"
	if [ -f "$CHECK_TREE/${o%.o}.c" ]; then
		warnings "$odir" "$o" > "$key.tmp"
	else
		: > "$key.tmp"
	fi
	mv "$key.tmp" "$key"
done
git -C "$CHECK_TREE" checkout -q series

base_list=$(for entry in "${objs[@]}"; do
	read -r odir o <<< "$entry"
	cat "$(cache_of "$odir" "$o")"
done | sort)
tip_list=$(for entry in "${objs[@]}"; do
	read -r odir o <<< "$entry"
	warnings "$odir" "$o"
done | sort)
new=$(comm -13 <(printf '%s\n' "$base_list") <(printf '%s\n' "$tip_list") | sed '/^$/d')
names=$(for entry in "${objs[@]}"; do
	case $entry in "$O_KUNIT "*) printf '%s(kunit) ' "${entry#* }" ;; *) printf '%s ' "${entry#* }" ;; esac
done)

if [ -z "$new" ]; then
	result pass "warnings: W=1 and sparse on ${names% }" \
		"$(printf '%s\n' "$tip_list" | sed '/^$/d' | wc -l) pre-existing"
else
	printf '%s\n' "$new" | sed 's/^/    /'
	result fail "warnings: W=1 and sparse on ${names% }" "$(printf '%s\n' "$new" | wc -l) new"
	exit 1
fi
