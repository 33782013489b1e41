#!/bin/bash
# Verify the pinned linux-source tarball and commit it, once, as the base of
# the series in a bare repository ($BASE_GIT, tag "base").
. "$(dirname "$0")/lib.sh"

if git --git-dir="$BASE_GIT" rev-parse -q --verify base >/dev/null 2>&1; then
	exit 0
fi

tarball=$BASE_TARBALL
rm -rf "$BUILD/base.tmp"
mkdir -p "$BUILD/base.tmp"
if [ -n "${BASE_SUITE:-}" ]; then
	# Not installable on Debian 12: the package is downloaded from its suite
	# with a private apt configuration (nothing on the machine changes) and
	# the tarball taken out of it.
	apt=$BUILD/apt
	deb=$apt/${BASE_PKG}_${BASE_VERSION/:/%3a}_all.deb
	if [ ! -f "$deb" ] || ! echo "$BASE_DEB_SHA256  $deb" | sha256sum -c --status -; then
		log "downloading $BASE_PKG $BASE_VERSION from Debian's $BASE_SUITE"
		mkdir -p "$apt/lists/partial" "$apt/archives/partial"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
			"http://deb.debian.org/debian $BASE_SUITE main" > "$apt/sources.list"
		opts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
		      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt"
		      -o Dir::State::Status=/dev/null -o APT::Sandbox::User=root)
		apt-get "${opts[@]}" -qq update || die "apt-get update of $BASE_SUITE failed"
		rm -f "$deb"
		(cd "$apt" && apt-get "${opts[@]}" -qq download "$BASE_PKG=$BASE_VERSION") ||
			die "apt-get download $BASE_PKG=$BASE_VERSION from $BASE_SUITE failed"
		[ -f "$deb" ] || die "apt-get download did not give $deb"
	fi
	got=$(sha256sum "$deb" | cut -d' ' -f1)
	[ "$got" = "$BASE_DEB_SHA256" ] ||
		die "$deb has sha256 $got, expected $BASE_DEB_SHA256 (base.env)"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$BUILD/base.tmp" ".$BASE_TARBALL"
	tarball=$BUILD/base.tmp$BASE_TARBALL
fi

[ -f "$tarball" ] || die "$tarball not found (package $BASE_PKG=$BASE_VERSION)"
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$got" != "$BASE_SHA256" ]; then
	die "$tarball has sha256 $got, expected $BASE_SHA256.
The installed $BASE_PKG is $(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || echo unknown),
the series is pinned to $BASE_VERSION ($BASE_ENV)."
fi

log "unpacking $BASE_PKG $BASE_VERSION"
rm -rf "$BASE_GIT"
tar -xf "$tarball" -C "$BUILD/base.tmp"
src=$BUILD/base.tmp/$BASE_TOPDIR
[ -f "$src/Makefile" ] || die "unexpected tarball layout: no $BASE_TOPDIR/Makefile"

git init -q --bare "$BASE_GIT"
# No automatic gc: the commit below would start one in the background,
# which packs and deletes the loose objects that a clone of the base may
# be copying at that moment (make check clones it at once).
git --git-dir="$BASE_GIT" config gc.auto 0
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
