#!/bin/bash
# apply.sh TREE: reset TREE to the base commit and apply patches/ with git am.
# A clone of $BASE_GIT is made if TREE does not exist.  Files the series does
# not touch keep their timestamps, so builds in TREE stay incremental.
. "$(dirname "$0")/lib.sh"

tree=${1:?usage: apply.sh TREE}

if [ ! -d "$tree/.git" ]; then
	log "cloning the base into $tree"
	git clone -q --no-checkout "$BASE_GIT" "$tree"
	tgit "$tree" checkout -q -B series base
fi

tgit "$tree" am --abort >/dev/null 2>&1 || true
tgit "$tree" checkout -q -f -B series base
tgit "$tree" reset -q --hard base

mapfile -t files < <(series_files)
# One git am for the whole series: one index refresh instead of one per patch.
if ! tgit "$tree" am -q --whitespace=nowarn "${files[@]/#/$PATCHES/}" >/dev/null 2>"$BUILD/am.err"; then
	next=$(cat "$(tgit "$tree" rev-parse --absolute-git-dir)/rebase-apply/next" 2>/dev/null || echo 0)
	tgit "$tree" am --abort >/dev/null 2>&1 || true
	cat "$BUILD/am.err" >&2
	[ "$next" -gt 0 ] && p=${files[next - 1]} || p="the series"
	die "$p does not apply to $BASE_PKG $BASE_VERSION (base $(base_commit | cut -c1-12))"
fi
n=${#files[@]}
log "applied $n patches on $BASE_PKG $BASE_VERSION: $(tgit "$tree" log -1 --format='%h %s')"
