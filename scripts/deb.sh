#!/bin/bash
# deb.sh [TREE]: Debian packages (the kernel's bindeb-pkg) of the patched
# kernel into out/deb/: the configuration of 'make' with the drivers that
# config/slim.fragment leaves out of the test kernel.
. "$(dirname "$0")/lib.sh"

tree=${1:-$CHECK_TREE}
# bindeb-pkg checks the build dependencies of the package it generates.
if ! dpkg-query -W -f='${Status}' debhelper 2>/dev/null | grep -q 'ok installed'; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debhelper >/dev/null
fi
o=$BUILD/o-deb
SLIM=0 "$TOP/scripts/config.sh" "$tree" "$o"
rel=$(make -s -C "$tree" O="$o" LOCALVERSION= kernelrelease)
make -C "$tree" O="$o" -j"$JOBS" LOCALVERSION= KDEB_PKGVERSION="$rel-1" bindeb-pkg
mkdir -p "$OUT/deb"
mv "$BUILD"/*.deb "$OUT/deb/" 2>/dev/null || mv "$o"/../*.deb "$OUT/deb/"
ls -l "$OUT/deb"
