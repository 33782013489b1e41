#!/bin/bash
# W=1 and sparse (C=2) on every object whose source the series touches: no
# warning that the base does not already have.
#
# Full configuration: the touched objects are built on the base (results
# cached: the base never changes) and on the series; warnings are compared
# as messages without file and line, pooled over all objects, so code moved
# between files keeps its pre-existing warnings.
# KUnit configuration (it also builds the tests): objects that only it
# builds, or whose source includes a touched file, must add no warning to
# what the same object gives in the full configuration.
. "$(dirname "$0")/../lib.sh"

"$TOP/scripts/config.sh" "$CHECK_TREE" "$O_FULL"
[ -f "$O_KUNIT/.config" ] || die "no KUnit build in $O_KUNIT (run the kunit step first)"

touched=$(git -C "$CHECK_TREE" diff --name-only base series -- '*.c' |
	grep -v -E '^(tools|Documentation|samples)/' || true)
built() { [ -f "$1/$(dirname "$2")/.$(basename "$2").cmd" ]; }

full=()
kunit=()
for f in $touched; do
	o=${f%.c}.o
	including=$(grep -l "^#include \"$(basename "$f")\"" \
		"$CHECK_TREE/$(dirname "$f")"/*.c 2>/dev/null | head -1 || true)
	if [ -n "$including" ]; then
		o=${including#"$CHECK_TREE"/}
		o=${o%.c}.o
		built "$O_KUNIT" "$o" && kunit+=("$o")
		continue
	fi
	built "$O_FULL" "$o" && full+=("$o")
	built "$O_KUNIT" "$o" && ! built "$O_FULL" "$o" && kunit+=("$o")
	built "$O_FULL" "$o" || built "$O_KUNIT" "$o" ||
		result skip "warnings: $f" "built in neither configuration"
done

warnings() { # warnings O-DIR OBJECT: build with W=1 C=2, print normalized warnings
	local arch=() tree=$CHECK_TREE

	# as the kunit step builds it
	[ "$1" = "$O_KUNIT" ] && arch=(ARCH=x86_64) && tree=$SERIES_TREE
	rm -f "$1/$2"
	make -C "$tree" O="$1" "${arch[@]}" LOCALVERSION= W=1 C=2 "$2" 2>&1 >/dev/null |
		grep -E ': (warning|error):' |
		sed -E 's/^[^ :]+:[0-9]+(:[0-9]+)?: //' || true
}
report() { # report NAME NEW-WARNINGS PRE-EXISTING
	if [ -z "$2" ]; then
		result pass "warnings: $1" "$(printf '%s\n' "$3" | sed '/^$/d' | wc -l) pre-existing"
	else
		printf '%s\n' "$2" | sed 's/^/    /'
		result fail "warnings: $1" "$(printf '%s\n' "$2" | wc -l) new"
		rc=1
	fi
}
rc=0

if [ ${#full[@]} -gt 0 ]; then
	cache=$BUILD/warn-base/$(sha256sum "$O_FULL/.config" | cut -c1-16)
	mkdir -p "$cache"
	series_times_save "$CHECK_TREE" "$BUILD/series-times"
	git -C "$CHECK_TREE" checkout -q --detach base
	for o in "${full[@]}"; do
		key=$cache/$(printf '%s' "$o" | tr / _).log
		[ -f "$key" ] && continue
		if [ -f "$CHECK_TREE/${o%.o}.c" ]; then
			warnings "$O_FULL" "$o" > "$key.tmp"
		else
			: > "$key.tmp"
		fi
		mv "$key.tmp" "$key"
	done
	git -C "$CHECK_TREE" checkout -q series
	# Only the objects built here differ from the series: rebuilt below.
	series_times_restore "$CHECK_TREE" "$BUILD/series-times"

	base_list=$(for o in "${full[@]}"; do cat "$cache/$(printf '%s' "$o" | tr / _).log"; done | sort)
	tip_list=$(for o in "${full[@]}"; do warnings "$O_FULL" "$o"; done | sort)
	new=$(comm -13 <(printf '%s\n' "$base_list") <(printf '%s\n' "$tip_list") | sed '/^$/d')
	report "W=1 and sparse on ${full[*]}" "$new" "$tip_list"
fi

for o in "${kunit[@]}"; do
	ref=""
	built "$O_FULL" "$o" && ref=$(warnings "$O_FULL" "$o" | sort)
	got=$(warnings "$O_KUNIT" "$o" | sort)
	new=$(comm -13 <(printf '%s\n' "$ref") <(printf '%s\n' "$got") | sed '/^$/d')
	report "W=1 and sparse on $o in the KUnit configuration" "$new" "$ref"
done
exit $rc
