#!/bin/bash
# Verify the pinned linux-source tarball and commit it, once, as the base of
# the series in a bare repository ($BASE_GIT, tag "base").
. "$(dirname "$0")/lib.sh"

if git --git-dir="$BASE_GIT" rev-parse -q --verify base >/dev/null 2>&1; then
	exit 0
fi

[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL not found (package $BASE_PKG=$BASE_VERSION)"
got=$(sha256sum "$BASE_TARBALL" | cut -d' ' -f1)
if [ "$got" != "$BASE_SHA256" ]; then
	die "$BASE_TARBALL has sha256 $got, expected $BASE_SHA256.
The installed $BASE_PKG is $(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || echo unknown),
the series is pinned to $BASE_VERSION (base.env)."
fi

log "unpacking $BASE_PKG $BASE_VERSION"
rm -rf "$BASE_GIT" "$BUILD/base.tmp"
mkdir -p "$BUILD/base.tmp"
tar -xf "$BASE_TARBALL" -C "$BUILD/base.tmp"
src=$BUILD/base.tmp/$BASE_TOPDIR
[ -f "$src/Makefile" ] || die "unexpected tarball layout: no $BASE_TOPDIR/Makefile"

git init -q --bare "$BASE_GIT"
export GIT_DIR=$BASE_GIT GIT_WORK_TREE=$src
export GIT_AUTHOR_NAME=$BASE_IDENT_NAME GIT_AUTHOR_EMAIL=$BASE_IDENT_EMAIL
export GIT_COMMITTER_NAME=$BASE_IDENT_NAME GIT_COMMITTER_EMAIL=$BASE_IDENT_EMAIL
export GIT_AUTHOR_DATE=$BASE_DATE GIT_COMMITTER_DATE=$BASE_DATE
# The tarball's .gitignore hides dotfiles such as .clang-format: add everything.
git -c core.autocrlf=false add -f -A .
git commit -q -m "Linux $BASE_VERSION ($BASE_PKG)" -m "sha256 of the tarball: $BASE_SHA256"
git tag base
unset GIT_DIR GIT_WORK_TREE
rm -rf "$BUILD/base.tmp"
log "base commit $(base_commit)"
