#!/bin/bash
# Bisectability: after each patch, arch/x86/kvm/, arch/x86/events/intel/
# and kernel/events/ (perf core) build (KVM_INTEL=m KVM_AMD=m
# KVM_WERROR=y), and the KVM modules link:
# modpost finds every symbol they use exported by vmlinux or by each other.
# Incremental builds in $O_FULL, so only what a patch touches is recompiled;
# a patch that changes no file the last build read is not built again (the
# build would be the previous patch's).
#
# BISECT_LINK=0 (make check sets it for the 6.12 backport, to stay within
# CI's time): without the module link, so without the vmlinux.o of the
# whole series that modpost needs, which takes longer to build than the
# per-patch loop of the 7.3 series; and after a patch that adds, removes or
# renames no C file and changes no Makefile or Kconfig file, only the
# objects of the C files the series changes are built: a header change
# then recompiles those, not every object that includes it.
. "$(dirname "$0")/../lib.sh"

link=${BISECT_LINK:-1}

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
if [ "$link" = 1 ] &&
   ! make -C "$CHECK_TREE" O="$O_FULL" -j"$JOBS" LOCALVERSION= vmlinux_o >"$log" 2>&1; then
	grep -E 'error:|warning:|\*\*\*' "$log" | head -20 | sed 's/^/    /'
	result fail "bisect: vmlinux.o of the series builds" "log: $log"
	exit 1
fi

[ "$link" = 1 ] && echo "  vmlinux.o of the series: $((SECONDS - t)) s"

dirs=(arch/x86/kvm arch/x86/events/intel kernel/events virt/lib)
modules="arch/x86/kvm/kvm.ko arch/x86/kvm/kvm-intel.ko arch/x86/kvm/kvm-amd.ko virt/lib/irqbypass.ko"
what="builds and links"
if [ "$link" != 1 ]; then
	modules=""
	what="builds"
fi

# The tree's files that the last build of $dirs read: sources and headers
# from the dependency lists kbuild keeps in each object's .cmd file.  A
# .cmd file is parsed again only when it changed (the lists of the others
# are kept in $inputs.cache): parsing all of them takes seconds.
inputs=$BUILD/bisect.inputs
rm -f "$inputs.cache"
read_inputs() {
	# virt/kvm's objects are kvm.ko's (built from arch/x86/kvm's Makefile)
	python3 - "$O_FULL" "$CHECK_TREE" "$inputs" "${dirs[@]}" virt/kvm <<'PY'
import os, pickle, re, sys

o, top, out, dirs = sys.argv[1], sys.argv[2] + "/", sys.argv[3], sys.argv[4:]
try:
    with open(out + ".cache", "rb") as f:
        cache = pickle.load(f)
except OSError:
    cache = {}
new = {}
for d in dirs:
    for root, _, files in os.walk(os.path.join(o, d)):
        for name in files:
            if not (name.startswith(".") and name.endswith(".cmd")):
                continue
            path = os.path.join(root, name)
            st = os.stat(path)
            key = (st.st_mtime_ns, st.st_size)
            if path in cache and cache[path][0] == key:
                new[path] = cache[path]
                continue
            with open(path, errors="replace") as f:
                words = re.split(r"[\s\\]+", f.read())
            files_read = set()
            for w in words:
                if w.startswith(top):
                    w = os.path.normpath(w)
                    if w.startswith(top):
                        files_read.add(w[len(top):])
            new[path] = (key, files_read)
with open(out + ".cache", "wb") as f:
    pickle.dump(new, f)
with open(out, "w") as f:
    f.write("".join(p + "\n" for p in sorted(set().union(*(v[1] for v in new.values())))))
PY
}

# Whether commit $1 changes what make reads: a file the last build read,
# the build system or the configuration (Kconfig files anywhere, since
# Kconfig sources Documentation/Kconfig; Makefiles outside tools/, whose
# own build system is the tools' line, and Documentation/, which only
# htmldocs reads), or a tool the build runs.
needs_build() {
	local changed

	changed=$(git -C "$CHECK_TREE" diff-tree --no-commit-id --name-only -r "$1")
	printf '%s\n' "$changed" | grep -q -E \
		-e '(^|/)Kconfig[^/]*$' \
		-e '^(scripts|tools/(objtool|include|arch|lib|build|scripts))/' ||
		printf '%s\n' "$changed" | grep -v -E '^(tools|Documentation)/' |
		grep -q -E '(^|/)(Makefile|Kbuild)[^/]*$' ||
		printf '%s\n' "$changed" | grep -q -x -F -f "$inputs"
}

# The objects of the C files under $dirs that the series changes and this
# configuration builds (kbuild left a .cmd file for them), in BISECT_LINK=0
# builds after patches that leave the set of objects alone.
series_c_files=$(git -C "$CHECK_TREE" diff --name-only base series -- "${dirs[@]/%//*.c}")
touched_objects() {
	local f o

	printf '%s\n' "$series_c_files" |
	while IFS= read -r f; do
		o=${f%.c}.o
		[ -n "$f" ] && [ -f "$CHECK_TREE/$f" ] &&
			[ -f "$O_FULL/$(dirname "$o")/.$(basename "$o").cmd" ] &&
			printf '%s\n' "$o"
	done
}
changes_objects() {	# whether commit $1 may change which objects are built
	git -C "$CHECK_TREE" diff-tree --no-commit-id --name-status -r "$1" |
		grep -q -E -e '^[ADRC][0-9]*[[:space:]].*\.c$' \
			-e '(^|/)(Makefile|Kbuild|Kconfig)[^/]*$'
}

rc=0
i=0
built=""	# the commit of the last successful build
for c in $(series_commits "$CHECK_TREE"); do
	i=$((i + 1))
	subject=$(git -C "$CHECK_TREE" log -1 --format=%s "$c")
	name="bisect: $what after patch $i ($subject)"
	if [ -n "$built" ] && ! needs_build "$c"; then
		result pass "$name" "no file the build reads changed"
		continue
	fi
	git -C "$CHECK_TREE" checkout -q --detach "$c"
	t=$SECONDS
	targets=("${dirs[@]/%//}")
	if [ "$link" != 1 ] && [ -n "$built" ] && ! changes_objects "$c"; then
		mapfile -t targets < <(touched_objects)
		[ ${#targets[@]} -gt 0 ] || targets=("${dirs[@]/%//}")
	fi
	# shellcheck disable=SC2086
	if make -C "$CHECK_TREE" O="$O_FULL" -j"$JOBS" LOCALVERSION= \
		"${targets[@]}" $modules >"$log" 2>&1; then
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
