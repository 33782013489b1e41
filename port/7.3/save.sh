#!/bin/bash
# save.sh: write port/7.3/wip.diff from build/port73/linux (committed or
# not).  Run from the repository root.
set -euo pipefail
git -C build/port73/linux -c core.excludesFile=/dev/null add -f -A .
git -C build/port73/linux diff --cached --binary base > port/7.3/wip.diff
wc -l port/7.3/wip.diff
