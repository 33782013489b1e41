#!/bin/bash
# make-tree.sh: (re)create the developer tree $DEV_TREE from patches/: the
# pristine base commit, then one commit per patch on branch "product" (the
# product series) and "series" (the KUnit series on it; 6.12: the one
# series).
# Refuses to overwrite commits that have not been exported.
. "$(dirname "$0")/lib.sh"

if [ -d "$DEV_TREE/.git" ] && [ "${FORCE:-0}" != 1 ]; then
	[ -z "$(tgit "$DEV_TREE" status --porcelain --untracked-files=no)" ] ||
		die "$DEV_TREE has uncommitted changes (FORCE=1 discards them)"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	"$TOP/scripts/export.sh" "$DEV_TREE" "$tmp" 2>/dev/null
	if ! (cd "$tmp" && find . -type f | while read -r f; do
		cmp -s "$f" "$PATCHES/$f" || exit 1
	done); then
		die "$DEV_TREE has commits that differ from patches/: 'make export' them, or FORCE=1 to discard"
	fi
fi
"$TOP/scripts/apply.sh" "$DEV_TREE"
# Commits made there carry the series' author, not the machine's identity.
author=$(sed -n 's/^From: //p' "$PATCHES/$(series_files | head -n1)" | head -n1)
git -C "$DEV_TREE" config user.name "${author% <*}"
email=${author##*<}
git -C "$DEV_TREE" config user.email "${email%>*}"
if [ -n "$KUNIT_PATCHES" ]; then
	log "developer tree: $DEV_TREE (branch product: the product series; branch series: the KUnit series on it; base commit tagged 'base')"
else
	log "developer tree: $DEV_TREE (branch series; base commit tagged 'base')"
fi
