#!/bin/bash
# apply.sh TREE [product]: reset TREE to the base commit and apply the
# product series with git am (branch "product"), then the KUnit series on
# top (branch "series", checked out); with "product", only the first
# (checked out as both).  A clone of $BASE_GIT is made if TREE does not
# exist.  Files the series does not touch keep their timestamps, so builds
# in TREE stay incremental.
. "$(dirname "$0")/lib.sh"

tree=${1:?usage: apply.sh TREE [product]}
what=${2:-series}

if [ ! -d "$tree/.git" ]; then
	log "cloning the base into $tree"
	git clone -q --no-checkout "$BASE_GIT" "$tree"
	tgit "$tree" checkout -q -B series base
fi

tgit "$tree" am --abort >/dev/null 2>&1 || true
tgit "$tree" checkout -q -f -B series base
tgit "$tree" reset -q --hard base

# am FILE...: one git am for them all (one index refresh, not one a patch).
am() {
	local next p patches=("$@")

	[ $# -gt 0 ] || return 0
	if ! tgit "$tree" am -q --whitespace=nowarn "${@/#/$PATCHES/}" >/dev/null 2>"$BUILD/am.err"; then
		next=$(cat "$(tgit "$tree" rev-parse --absolute-git-dir)/rebase-apply/next" 2>/dev/null || echo 0)
		tgit "$tree" am --abort >/dev/null 2>&1 || true
		cat "$BUILD/am.err" >&2
		[ "$next" -gt 0 ] && p=${patches[next - 1]} || p="the series"
		die "$p does not apply to $BASE_PKG $BASE_VERSION (base $(base_commit | cut -c1-12))"
	fi
}

mapfile -t files < <(product_files)
am "${files[@]}"
tgit "$tree" branch -q -f product
n=${#files[@]}
if [ "$what" = series ]; then
	mapfile -t files < <(kunit_files)
	am "${files[@]}"
	[ ${#files[@]} -eq 0 ] || n="$n + ${#files[@]}"
fi
log "applied $n patches on $BASE_PKG $BASE_VERSION: $(tgit "$tree" log -1 --format='%h %s')"
