#!/bin/bash
# The series changes tools/perf: perf builds with it (warnings are errors
# in perf's build), out of tree in $BUILD/o-perf.  Optional libraries are
# left out, so that only what deps.sh installs is needed.
. "$(dirname "$0")/../lib.sh"

log=$BUILD/perf.log
mkdir -p "$BUILD/o-perf"
if make -C "$CHECK_TREE/tools/perf" O="$BUILD/o-perf" -j"$JOBS" \
	NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_JEVENTS=1 NO_LIBBPF=1 NO_LIBDW=1 \
	NO_SLANG=1 NO_LIBUNWIND=1 NO_LIBPERL=1 NO_LIBPYTHON=1 >"$log" 2>&1; then
	result pass "perf: tools/perf builds with the series"
else
	grep -E 'error|warning' "$log" | head -20 | sed 's/^/    /'
	result fail "perf: tools/perf builds with the series" "log: $log"
	exit 1
fi
