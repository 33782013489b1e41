# Shared settings for the scripts in this directory; sourced, never run.
# shellcheck shell=bash

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# QEMU under TCG only, for kunit.py too (see qemu-tcg/qemu-system-x86_64).
case :$PATH: in
*":$TOP/scripts/qemu-tcg:"*) ;;
*) export PATH=$TOP/scripts/qemu-tcg:$PATH ;;
esac

# KERNEL picks the series: 7.3 (the default: patches/ on base.env's
# linux-source-7.3, the KUnit series patches/kunit/ on top) or 6.12 (the
# backport: patches/6.12/ on its own base.env, tests included; its own
# build directory and config/6.12/ for the files that name its paths).
KERNEL=${KERNEL:-7.3}
case $KERNEL in
7.3)
	BASE_ENV=$TOP/base.env
	PATCHES=$TOP/patches
	KUNIT_PATCHES=$PATCHES/kunit
	BUILD=$TOP/build
	SERIES_CONFIG=$TOP/config
	OUT=$TOP/out
	;;
6.12)
	PATCHES=$TOP/patches/6.12
	BASE_ENV=$PATCHES/base.env
	KUNIT_PATCHES=
	BUILD=$TOP/build/6.12
	SERIES_CONFIG=$TOP/config/6.12
	OUT=$TOP/out/6.12
	;;
*)
	printf 'error: KERNEL=%s: use 7.3 or 6.12\n' "$KERNEL" >&2
	exit 1
	;;
esac
# shellcheck source=../base.env
. "$BASE_ENV"
BASE_GIT=$BUILD/base.git	# bare repository holding the pristine base commit
DEV_TREE=$BUILD/linux		# developer tree: base + one commit per patch
CHECK_TREE=$BUILD/check		# freshly applied from patches/ by make check
O_FULL=$BUILD/o-full		# defconfig + fragments, also used for bisect/W=1
O_KUNIT=$BUILD/o-kunit
SERIES_TREE=$BUILD/series	# the check tree's series again (git worktree),
				# for the steps that run while others check out
				# other commits in $CHECK_TREE; with $O_KUNIT
O_SELFTESTS=$BUILD/o-selftests
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

# The patch files, in order, relative to $PATCHES: product_files those of
# the product series (branch "product" of a tree), series_files those and
# the KUnit series' after them, as kunit/NAME (branch "series").
product_files() { list_file "$PATCHES/series"; }
kunit_files() {
	[ -z "$KUNIT_PATCHES" ] || list_file "$KUNIT_PATCHES/series" | sed "s|^|${KUNIT_PATCHES#"$PATCHES"/}/|"
}
series_files() { product_files; kunit_files; }

base_commit() { git --git-dir="$BASE_GIT" rev-parse base; }

# result pass|fail|skip NAME [DETAIL]: record one test result for make check.
result() {
	local status=$1 name=$2
	shift 2
	[ "$KERNEL" = 7.3 ] || name="$KERNEL $name"	# the backport's
	printf '%s %s\n' "$status" "$name" >> "${RESULTS:?result() needs RESULTS}"
	printf '  %-4s %s%s\n' "$(printf '%s' "$status" | tr '[:lower:]' '[:upper:]')" \
		"$name" "${1:+: $*}"
}

# series_tree: check out $CHECK_TREE's series in $SERIES_TREE, a worktree
# of it (detached: the branch stays $CHECK_TREE's).  Files that did not
# change keep their times, so that builds from it stay incremental.
series_tree() {
	local common

	common=$(git -C "$CHECK_TREE" rev-parse --path-format=absolute --git-common-dir)
	if [ "$(git -C "$SERIES_TREE" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" = \
	     "$common" ]; then
		git -C "$SERIES_TREE" checkout -q -f --detach series
	else
		rm -rf "$SERIES_TREE"
		git -C "$CHECK_TREE" worktree prune
		git -C "$CHECK_TREE" worktree add -q --detach "$SERIES_TREE" series
	fi
}

# The commits of the series in TREE, oldest first.
series_commits() { git -C "$1" rev-list --reverse base..series; }

# series_times_save TREE FILE, series_times_restore TREE FILE: the
# modification times of the files the series changes.  A step that checks
# out other commits (bisect, warnings) gives each of them a new time; once
# back on "series" their content is again what the build directories were
# built from, and the old times spare the next build a recompilation of
# everything that includes them (include/linux/perf_event.h: a fifth of
# the kernel).
series_times_save() {
	git -C "$1" diff --name-only base series | while IFS= read -r f; do
		if [ -f "$1/$f" ]; then
			printf '%s %s\n' "$(stat -c %Y "$1/$f")" "$f"
		fi
	done > "$2"
}
series_times_restore() {
	local t f

	[ "$(git -C "$1" rev-parse HEAD)" = "$(git -C "$1" rev-parse series)" ] ||
		die "series_times_restore: $1 is not at series"
	git -C "$1" diff --quiet series || die "series_times_restore: $1 has changes"
	while read -r t f; do
		touch -m -d "@$t" "$1/$f"
	done < "$2"
}

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
