# Shared settings for the scripts in this directory; sourced, never run.
# shellcheck shell=bash

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../base.env
. "$TOP/base.env"

BUILD=$TOP/build
OUT=$TOP/out
PATCHES=$TOP/patches
BASE_GIT=$BUILD/base.git	# bare repository holding the pristine base commit
DEV_TREE=$BUILD/linux		# developer tree: base + one commit per patch
CHECK_TREE=$BUILD/check		# freshly applied from patches/ by make check
O_FULL=$BUILD/o-full		# defconfig + fragments, also used for bisect/W=1
O_KUNIT=$BUILD/o-kunit
JOBS=${JOBS:-$(nproc)}

# Fixed identity and date so that the base commit has the same id everywhere.
BASE_IDENT_NAME="Debian $BASE_PKG"
BASE_IDENT_EMAIL="base@invalid"
BASE_DATE="2000-01-01T00:00:00Z"

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# git in a kernel tree, with settings that must not depend on the user's config.
tgit() {
	local tree=$1; shift
	git -C "$tree" -c user.name="${GIT_AUTHOR_NAME:-kvm-pt}" \
		-c user.email="${GIT_AUTHOR_EMAIL:-kvm-pt@invalid}" \
		-c core.abbrev=12 -c diff.renames=false -c diff.noprefix=false \
		-c diff.mnemonicPrefix=false -c am.threeWay=false "$@"
}

# The patch files of the series, in order.
series_files() { list_file "$PATCHES/series"; }

base_commit() { git --git-dir="$BASE_GIT" rev-parse base; }

# result pass|fail|skip NAME [DETAIL]: record one test result for make check.
result() {
	local status=$1 name=$2
	shift 2
	printf '%s %s\n' "$status" "$name" >> "${RESULTS:?result() needs RESULTS}"
	printf '  %-4s %s%s\n' "$(printf '%s' "$status" | tr '[:lower:]' '[:upper:]')" \
		"$name" "${1:+: $*}"
}

# The commits of the series in TREE, oldest first.
series_commits() { git -C "$1" rev-list --reverse base..series; }

# Kernel log lines that mean something went wrong, whatever the test says.
KERNEL_SPLATS='WARNING:|BUG:|Oops|unchecked MSR access|general protection|Call Trace'

# The entries of a list file: comments and blank lines removed.
list_file() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"; }

# kunit.py arguments for TREE: config/kunit.kunitconfig plus every
# .kunitconfig the series adds under arch/x86/.  Two CPUs: the tests move
# a vCPU, and host perf's events, between them.
kunit_args() {
	local k
	printf '%s\n' --arch=x86_64 --build_dir="$O_KUNIT" --jobs="$JOBS" \
		--kunitconfig="$TOP/config/kunit.kunitconfig" --qemu_args="-smp 2"
	for k in $(git -C "$1" ls-files -- 'arch/x86/*.kunitconfig' 'arch/x86/*/.kunitconfig'); do
		printf '%s\n' --kunitconfig="$1/$k"
	done
}

# The benchmark lines a KUnit log holds.
bench_lines() { grep -o 'bench: .*' "$1" | sed 's/^bench: /  /' || true; }
