#!/bin/bash
# export.sh [TREE [DIR]]: write the commits base..series of TREE (default: the
# developer tree) as patches into DIR (default: patches/), with a cover letter
# from cover-letter.txt and a quilt "series" file.  Re-exporting an unchanged
# tree gives byte-identical files.
. "$(dirname "$0")/lib.sh"

tree=${1:-$DEV_TREE}
dest=${2:-$PATCHES}
[ -d "$tree/.git" ] || die "no tree at $tree (run 'make tree' first)"
[ -z "$(tgit "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes: commit (or --fixup) them first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Subject: first paragraph of cover-letter.txt; body: the rest.
GIT_COMMITTER_NAME="KVM Intel PT" GIT_COMMITTER_EMAIL="kvm-intel-pt@example.org" \
GIT_COMMITTER_DATE="$BASE_DATE" \
tgit "$tree" -c branch.series.description="$(cat "$TOP/cover-letter.txt")" \
	format-patch -q --cover-letter --cover-from-description=subject \
	--zero-commit --no-signature --base=base --abbrev=12 --no-renames \
	--diff-algorithm=myers --stat=80 --subject-prefix=PATCH \
	-o "$tmp" base..series

# The cover letter carries the time of the export: pin it to the base date.
sed -i '1,10s/^Date: .*/Date: Sat, 1 Jan 2000 00:00:00 +0000/' "$tmp"/0000-cover-letter.patch

mkdir -p "$dest"
rm -f "$dest"/*.patch "$dest"/series
cp "$tmp"/*.patch "$dest"/
(cd "$dest" && ls [0-9]*.patch | grep -v '^0000-cover-letter.patch$' > series) || true
log "exported $(wc -l < "$dest/series") patches to $dest"
