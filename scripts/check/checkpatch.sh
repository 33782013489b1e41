#!/bin/bash
# checkpatch.pl --strict on every patch: no errors, warnings or checks,
# except those listed with a reason in config/checkpatch-allow (6.12:
# config/6.12/checkpatch-allow).
. "$(dirname "$0")/../lib.sh"

allow=$SERIES_CONFIG/checkpatch-allow
outs=$BUILD/checkpatch
rm -rf "$outs"
mkdir -p "$outs"
# One checkpatch.pl per patch, $JOBS at a time; results in series order.
# spdxcheck.py needs Debian's python3 (python3-ply, python3-git).
# shellcheck disable=SC2016
series_files | PATH=/usr/bin:$PATH xargs -P "$JOBS" -I{} sh -c \
	'mkdir -p "$(dirname "$4/$3")" && "$1/scripts/checkpatch.pl" --strict --show-types --no-summary --root="$1" \
		"$2/$3" > "$4/$3.out" 2>&1 || true' sh "$SERIES_TREE" "$PATCHES" {} "$outs"

rc=0
for p in $(series_files); do
	out=$(cat "$outs/$p.out")
	# Findings look like "WARNING:TYPE: message" / "CHECK:TYPE: ..." / "ERROR:TYPE: ...".
	bad=$(printf '%s\n' "$out" | { grep -E '^(ERROR|WARNING|CHECK):' || true; } | while IFS= read -r line; do
		type=$(printf '%s' "$line" | cut -d: -f2)
		if [ -f "$allow" ] && awk -v t="$type" -v p="$p" \
			'$1 == t && (p ~ $2) { found = 1 } END { exit !found }' "$allow"; then
			continue
		fi
		printf '%s\n' "$line"
	done)
	if printf '%s\n' "$out" | grep -q '^Traceback'; then
		bad="checkpatch helper crashed"
	fi
	if [ -z "$bad" ]; then
		result pass "checkpatch: $p"
	else
		printf '%s\n' "$out" | sed 's/^/    /'
		result fail "checkpatch: $p" "$(printf '%s\n' "$bad" | wc -l) finding(s)"
		rc=1
	fi
done
exit $rc
