#!/bin/bash
# export.sh: write the two 7.3 series from the work tree (build/port73/linux
# and its worktrees) into port/7.3/product/ (base..product) and
# port/7.3/kunit/ (product..kunit), as git format-patch files with a
# "series" file each.  Re-exporting unchanged branches gives byte-identical
# files.  Run from the repository root.
set -euo pipefail
top=$(pwd)
tree=${PORT_TREE:-$top/build/port73/linux}
export_range() {	# RANGE DIR
	local tmp
	tmp=$(mktemp -d)
	GIT_COMMITTER_NAME="KVM Intel PT" GIT_COMMITTER_EMAIL="kvm-intel-pt@example.org" \
	GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git -C "$tree" format-patch -q --zero-commit --no-signature --abbrev=12 \
		--no-renames --diff-algorithm=myers --stat=80 --subject-prefix=PATCH \
		-o "$tmp" "$1"
	mkdir -p "$2"
	rm -f "$2"/*.patch "$2"/series
	cp "$tmp"/*.patch "$2"/
	(cd "$2" && ls [0-9]*.patch > series)
	rm -rf "$tmp"
	echo "$2: $(wc -l < "$2/series") patches"
}
export_range base..product "$top/port/7.3/product"
if git -C "$tree" rev-parse -q --verify kunit >/dev/null; then
	export_range product..kunit "$top/port/7.3/kunit"
fi
