#!/bin/bash
# Documentation: the KVM documentation builds with the kernel's Sphinx target
# (make htmldocs SPHINXDIRS=virt, Sphinx from Debian) with no warning the
# base does not have, and scripts/kernel-doc has nothing to say about the
# kernel-doc comments of the files the series adds or changes for Intel PT.
. "$(dirname "$0")/../lib.sh"

O_DOCS=$BUILD/o-docs

docs_warnings() { # the warnings of a clean build of the virt docs, normalized
	rm -rf "$O_DOCS"
	mkdir -p "$O_DOCS"
	PATH=/usr/bin:$PATH make -C "$CHECK_TREE" O="$O_DOCS" SPHINXDIRS=virt htmldocs \
		>"$O_DOCS.log" 2>&1 || echo "ERROR: make htmldocs failed"
	grep -E 'WARNING|ERROR' "$O_DOCS.log" |
		sed -E 's|^[^ ]*/Documentation/|Documentation/|; s/:[0-9]+:/:/' | sort -u || true
}

kdoc_warnings() { # kernel-doc -Wall on FILES (missing ones skipped), normalized
	local f
	for f in "$@"; do
		[ -f "$CHECK_TREE/$f" ] || continue
		# "FILE:LINE: warning" (6.12) or "Warning: FILE:LINE text" (7.3)
		(cd "$CHECK_TREE" && PATH=/usr/bin:$PATH scripts/kernel-doc -none -Wall "$f" 2>&1) |
			sed -E 's/:[0-9]+([: ])/\1/'
	done | sort -u
}

kdoc_files=(arch/x86/kvm/vmx/pt.c arch/x86/kvm/vmx/pt.h arch/x86/events/intel/pt.c)

base=$BUILD/docs-base/$(base_commit | cut -c1-16)
if [ ! -f "$base/htmldocs" ] || [ ! -f "$base/kernel-doc" ]; then
	mkdir -p "$base"
	series_times_save "$CHECK_TREE" "$BUILD/series-times.docs"
	git -C "$CHECK_TREE" checkout -q --detach base
	docs_warnings > "$base/htmldocs.tmp"
	kdoc_warnings "${kdoc_files[@]}" > "$base/kernel-doc.tmp"
	git -C "$CHECK_TREE" checkout -q series
	# Else the boot step rebuilds all that includes a file the series changes.
	series_times_restore "$CHECK_TREE" "$BUILD/series-times.docs"
	mv "$base/htmldocs.tmp" "$base/htmldocs"
	mv "$base/kernel-doc.tmp" "$base/kernel-doc"
fi

rc=0
check() { # check NAME BASE-FILE CURRENT-WARNINGS
	local new
	new=$(comm -13 "$2" <(printf '%s\n' "$3" | sed '/^$/d'))
	if [ -z "$new" ]; then
		result pass "docs: $1" "$(wc -l < "$2") pre-existing"
	else
		printf '%s\n' "$new" | head -20 | sed 's/^/    /'
		result fail "docs: $1" "$(printf '%s\n' "$new" | wc -l) new"
		rc=1
	fi
}

check "make htmldocs SPHINXDIRS=virt adds no warning" "$base/htmldocs" "$(docs_warnings)"
check "kernel-doc -Wall on ${kdoc_files[*]} adds no warning" "$base/kernel-doc" \
	"$(kdoc_warnings "${kdoc_files[@]}")"

# 7.3: Documentation/virt/kvm/x86/intel-pt.rst; 6.12: virt/kvm/intel-pt.rst
rst=$(git -C "$CHECK_TREE" ls-files 'Documentation/virt/*intel-pt.rst' | head -1)
html=${rst#Documentation/}
if [ -n "$rst" ] && [ -f "$O_DOCS/Documentation/output/${html%.rst}.html" ]; then
	result pass "docs: $rst is built"
else
	result fail "docs: ${rst:-Documentation/virt/**/intel-pt.rst} is built"
	rc=1
fi
exit $rc
