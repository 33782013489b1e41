#!/bin/bash
# export.sh [TREE [DIR]]: write the commits base..product of TREE (default:
# the developer tree) as patches into DIR (default: $PATCHES), and
# product..series into DIR's KUnit series directory (7.3: kunit/; the
# 6.12 backport has one series, base..series), each
# with a cover letter from the directory's cover-letter.txt and a quilt
# "series" file.  Re-exporting an unchanged tree gives byte-identical files.
. "$(dirname "$0")/lib.sh"

tree=${1:-$DEV_TREE}
dest=${2:-$PATCHES}
[ -d "$tree/.git" ] || die "no tree at $tree (run 'make tree' first)"
[ -z "$(tgit "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes: commit (or --fixup) them first"
product=series	# 6.12: one series
if [ -n "$KUNIT_PATCHES" ]; then
	product=product
	tgit "$tree" rev-parse -q --verify product >/dev/null ||
		die "$tree has no branch product (run 'make tree')"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# export_range RANGE DIR COVER: the commits of RANGE into DIR.  Subject of
# the cover letter: COVER's first paragraph; body: the rest.  Its base is
# always the base commit: the KUnit series' lists the product's patches
# as prerequisite patch ids.
export_range() {
	local range=$1 dir=$2 cover=$3

	rm -rf "$tmp/out"
	GIT_COMMITTER_NAME="KVM Intel PT" GIT_COMMITTER_EMAIL="kvm-intel-pt@example.org" \
	GIT_COMMITTER_DATE="$BASE_DATE" \
	tgit "$tree" -c branch.series.description="$(cat "$cover")" \
		-c branch.product.description="$(cat "$cover")" \
		format-patch -q --cover-letter --cover-from-description=subject \
		--zero-commit --no-signature --base=base --abbrev=12 --no-renames \
		--diff-algorithm=myers --stat=80 --subject-prefix=PATCH \
		-o "$tmp/out" "$range"
	# The cover letter carries the time of the export: pin it to the base date.
	sed -i '1,10s/^Date: .*/Date: Sat, 1 Jan 2000 00:00:00 +0000/' \
		"$tmp/out/0000-cover-letter.patch"
	mkdir -p "$dir"
	rm -f "$dir"/*.patch "$dir"/series
	cp "$tmp/out"/*.patch "$dir"/
	(cd "$dir" && ls [0-9]*.patch | grep -v '^0000-cover-letter.patch$' > series) || true
	log "exported $(wc -l < "$dir/series") patches to $dir"
}

export_range "base..$product" "$dest" "$PATCHES/cover-letter.txt"
if [ -n "$KUNIT_PATCHES" ]; then
	export_range product..series "$dest/${KUNIT_PATCHES#"$PATCHES"/}" \
		"$KUNIT_PATCHES/cover-letter.txt"
fi
