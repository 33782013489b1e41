#!/bin/bash
# Bisectability: after each patch, arch/x86/kvm/ and arch/x86/events/intel/
# build (KVM_INTEL=m KVM_AMD=m KVM_WERROR=y), and the KVM modules link:
# modpost finds every symbol they use exported by vmlinux or by each other.
# Incremental builds in $O_FULL, so only what a patch touches is recompiled;
# a patch that changes no file the last build read is not built again (the
# build would be the previous patch's).
. "$(dirname "$0")/../lib.sh"

"$TOP/scripts/config.sh" "$CHECK_TREE" "$O_FULL"

# modpost takes vmlinux's exports from vmlinux.o: that of the whole series
# (exports a patch adds to vmlinux are there from its first patch on).  The
# boot step's full build reuses its objects.  The target is vmlinux_o: in an
# empty build directory kbuild takes "vmlinux.o" for a single-object build
# and finds no rule for it.
log=$BUILD/bisect.log
git -C "$CHECK_TREE" checkout -q series
series_times_save "$CHECK_TREE" "$BUILD/series-times"
t=$SECONDS
if ! make -C "$CHECK_TREE" O="$O_FULL" -j"$JOBS" LOCALVERSION= vmlinux_o >"$log" 2>&1; then
	grep -E 'error:|warning:|\*\*\*' "$log" | head -20 | sed 's/^/    /'
	result fail "bisect: vmlinux.o of the series builds" "log: $log"
	exit 1
fi

echo "  vmlinux.o of the series: $((SECONDS - t)) s"

dirs=(arch/x86/kvm arch/x86/events/intel virt/lib)
modules="arch/x86/kvm/kvm.ko arch/x86/kvm/kvm-intel.ko arch/x86/kvm/kvm-amd.ko virt/lib/irqbypass.ko"

# The tree's files that the last build of $dirs read: sources and headers
# from the dependency lists kbuild keeps in each object's .cmd file.
inputs=$BUILD/bisect.inputs
read_inputs() {
	(cd "$O_FULL" && find "${dirs[@]}" -name '.*.cmd' -exec cat {} +) |
		tr -s '[:space:]\134' '\n' | grep -F "$CHECK_TREE/" |
		python3 -c 'import os, sys
top = sys.argv[1] + "/"
for line in sys.stdin:
    path = os.path.normpath(line.strip())
    if path.startswith(top):
        print(path[len(top):])' "$CHECK_TREE" | sort -u > "$inputs"
}

# Whether commit $1 changes what make reads: a file the last build read,
# the build system or the configuration, or a tool the build runs.
needs_build() {
	local changed

	changed=$(git -C "$CHECK_TREE" diff-tree --no-commit-id --name-only -r "$1")
	printf '%s\n' "$changed" | grep -q -E \
		-e '(^|/)(Makefile|Kbuild|Kconfig)[^/]*$' \
		-e '^(scripts|tools/(objtool|include|arch|lib|build|scripts))/' ||
		printf '%s\n' "$changed" | grep -q -x -F -f "$inputs"
}

rc=0
i=0
built=""	# the commit of the last successful build
for c in $(series_commits "$CHECK_TREE"); do
	i=$((i + 1))
	subject=$(git -C "$CHECK_TREE" log -1 --format=%s "$c")
	name="bisect: builds and links after patch $i ($subject)"
	if [ -n "$built" ] && ! needs_build "$c"; then
		result pass "$name" "no file the build reads changed"
		continue
	fi
	git -C "$CHECK_TREE" checkout -q --detach "$c"
	t=$SECONDS
	# shellcheck disable=SC2086
	if make -C "$CHECK_TREE" O="$O_FULL" -j"$JOBS" LOCALVERSION= \
		"${dirs[@]/%//}" $modules >"$log" 2>&1; then
		result pass "$name" "$((SECONDS - t)) s"
		built=$c
		read_inputs
	else
		grep -E 'error|warning|ERROR' "$log" | head -20 | sed 's/^/    /'
		result fail "$name"
		rc=1
		built=""	# a failed build leaves stale dependency lists
	fi
done
git -C "$CHECK_TREE" checkout -q series
# The last patch's build left every object in O_FULL as the series makes it.
series_times_restore "$CHECK_TREE" "$BUILD/series-times"
exit $rc
