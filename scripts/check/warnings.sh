#!/bin/bash
# W=1 and sparse (C=2) on every object whose source the series touches: no
# warning that the base does not already have.
#
# Full configuration: the touched objects are built on the base (results
# cached: the base never changes) and on the series; warnings are compared
# as messages without file and line, pooled over all objects, so code moved
# between files keeps its pre-existing warnings.
# KUnit configuration (it also builds the tests): objects that only it
# builds, or whose source includes a touched file, must add no warning
# (file and message) to what the full configuration gives.  Each
# configuration's objects build in one make call: kbuild's own start takes
# seconds a call.
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

warnings() { # warnings O-DIR OBJECT...: build with W=1 C=2, print "FILE: warning"
	local o=$1 arch=() tree=$CHECK_TREE
	shift

	# as the kunit step builds it
	[ "$o" = "$O_KUNIT" ] && arch=(ARCH=x86_64) && tree=$SERIES_TREE
	(cd "$o" && rm -f "$@")
	make -C "$tree" O="$o" "${arch[@]}" -k -j"$JOBS" LOCALVERSION= W=1 C=2 "$@" 2>&1 >/dev/null |
		grep -E ': (warning|error):' | sed -e "s|^$tree/||" -e 's|^\./||' |
		sed -E 's/^([^ :]+):[0-9]+(:[0-9]+)?: /\1: /' || true
}
unfiled() { sed -E 's/^[^ :]+: //'; }
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
	key=$cache/$(printf '%s\n' "${full[@]}" | sha256sum | cut -c1-16).log
	if [ ! -f "$key" ]; then
		series_times_save "$CHECK_TREE" "$BUILD/series-times"
		git -C "$CHECK_TREE" checkout -q --detach base
		existing=()
		for o in "${full[@]}"; do
			[ -f "$CHECK_TREE/${o%.o}.c" ] && existing+=("$o")
		done
		: > "$key.tmp"
		[ ${#existing[@]} -eq 0 ] || warnings "$O_FULL" "${existing[@]}" > "$key.tmp"
		mv "$key.tmp" "$key"
		git -C "$CHECK_TREE" checkout -q series
		# Only the objects built here differ from the series: rebuilt below.
		series_times_restore "$CHECK_TREE" "$BUILD/series-times"
	fi

	# Pooled and without file names: code moved between files keeps its
	# warnings.
	base_list=$(unfiled < "$key" | sort)
	tip=$(warnings "$O_FULL" "${full[@]}")
	tip_list=$(printf '%s\n' "$tip" | unfiled | sort)
	new=$(comm -13 <(printf '%s\n' "$base_list") <(printf '%s\n' "$tip_list") | sed '/^$/d')
	report "W=1 and sparse on ${full[*]}" "$new" "$tip_list"
fi

# The KUnit build of the same sources adds no warning (file and message)
# to what the full configuration gives for the series' objects.
if [ ${#kunit[@]} -gt 0 ]; then
	ref=$(printf '%s\n' "${tip:-}" | sort)
	got=$(warnings "$O_KUNIT" "${kunit[@]}" | sort)
	new=$(comm -13 <(printf '%s\n' "$ref") <(printf '%s\n' "$got") | sed '/^$/d')
	report "W=1 and sparse on ${kunit[*]} in the KUnit configuration" "$new" "$got"
fi
exit $rc
