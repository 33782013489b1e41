#!/bin/bash
# deb.sh [TREE]: Debian packages (the kernel's bindeb-pkg) of the patched
# kernel, with the same configuration as 'make', into out/deb/.
. "$(dirname "$0")/lib.sh"

tree=${1:-$CHECK_TREE}
o=$BUILD/o-deb
"$TOP/scripts/config.sh" "$tree" "$o"
make -C "$tree" O="$o" -j"$JOBS" LOCALVERSION= bindeb-pkg
mkdir -p "$OUT/deb"
mv "$BUILD"/*.deb "$OUT/deb/" 2>/dev/null || mv "$o"/../*.deb "$OUT/deb/"
ls -l "$OUT/deb"
