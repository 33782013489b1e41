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

n=0
for p in $(series_files); do
	if ! tgit "$tree" am -q --whitespace=nowarn "$PATCHES/$p" >/dev/null 2>"$BUILD/am.err"; then
		tgit "$tree" am --abort >/dev/null 2>&1 || true
		cat "$BUILD/am.err" >&2
		die "$p does not apply to $BASE_PKG $BASE_VERSION (base $(base_commit | cut -c1-12))"
	fi
	n=$((n + 1))
done
log "applied $n patches on $BASE_PKG $BASE_VERSION: $(tgit "$tree" log -1 --format='%h %s')"
