#!/bin/bash
# W=1 and sparse (C=2) on every object whose source the series touches: no
# warning that the base does not already have.  Warnings are compared as
# messages without file and line, pooled over all touched objects, so code
# moved between files keeps its (pre-existing) warnings.
. "$(dirname "$0")/../lib.sh"

"$TOP/scripts/config.sh" "$CHECK_TREE" "$O_FULL"
cache=$BUILD/warn-base/$(sha256sum "$O_FULL/.config" | cut -c1-16)
mkdir -p "$cache"

# Objects of touched .c files that this configuration builds.
objs=()
for f in $(git -C "$CHECK_TREE" diff --name-only base series -- '*.c'); do
	case $f in tools/*|Documentation/*|samples/*) continue ;; esac
	dir=$(dirname "$f")
	base=$(basename "$f" .c)
	# Built if its directory's Makefile names it and the config enables it:
	# ask kbuild by checking for a .cmd file after the bisect build.
	if [ -f "$O_FULL/$dir/.$base.o.cmd" ]; then
		objs+=("$dir/$base.o")
	else
		result skip "warnings: $f" "not built in this configuration"
	fi
done
[ ${#objs[@]} -gt 0 ] || exit 0

warnings() { # build the objects with W=1 C=2, print normalized warnings
	for o in "$@"; do
		rm -f "$O_FULL/$o"
		make -C "$CHECK_TREE" O="$O_FULL" LOCALVERSION= W=1 C=2 "$o" 2>&1 >/dev/null |
			grep -E ': (warning|error):' |
			sed -E 's/^[^ :]+:[0-9]+(:[0-9]+)?: //' || true
	done
}

# Base warnings, cached per configuration (the base never changes).
git -C "$CHECK_TREE" checkout -q --detach base
for o in "${objs[@]}"; do
	key=$cache/$(printf '%s' "$o" | tr / _).log
	[ -f "$key" ] && continue
	if [ -f "$CHECK_TREE/${o%.o}.c" ]; then
		warnings "$o" > "$key.tmp"
	else
		: > "$key.tmp"
	fi
	mv "$key.tmp" "$key"
done
git -C "$CHECK_TREE" checkout -q series

base_list=$(for o in "${objs[@]}"; do cat "$cache/$(printf '%s' "$o" | tr / _).log"; done | sort)
tip_list=$(warnings "${objs[@]}" | sort)
new=$(comm -13 <(printf '%s\n' "$base_list") <(printf '%s\n' "$tip_list") | sed '/^$/d')

if [ -z "$new" ]; then
	result pass "warnings: W=1 and sparse on ${objs[*]}" \
		"$(printf '%s\n' "$tip_list" | sed '/^$/d' | wc -l) pre-existing"
else
	printf '%s\n' "$new" | sed 's/^/    /'
	result fail "warnings: W=1 and sparse on ${objs[*]}" "$(printf '%s\n' "$new" | wc -l) new"
	exit 1
fi
