#!/bin/bash
# initramfs.sh OUT.cpio.gz INIT [DIR...]: a busybox initramfs with the
# modules from out/ (or INITRAMFS_MODULES, a modules_install directory),
# INIT as /init, and each DIR copied under /opt.
. "$(dirname "$0")/lib.sh"

dest=${1:?usage: initramfs.sh OUT INIT [DIR...]}
init=${2:?usage: initramfs.sh OUT INIT [DIR...]}
shift 2
modules=${INITRAMFS_MODULES:-$OUT/modules}
[ -d "$modules/lib/modules" ] || die "no modules in $modules (run 'make' first)"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,lib/modules,opt}
cp /bin/busybox "$root/bin/busybox"
cp -a "$modules/lib/modules/." "$root/lib/modules/"
install -m 0755 "$init" "$root/init"
for d in "$@"; do
	cp -a "$d" "$root/opt/"
	# Dynamically linked programs (the selftests) need their libraries.
	find "$d" -type f -perm -u+x | while read -r exe; do
		ldd "$exe" 2>/dev/null | grep -o '/[^ ]*' || true
	done | sort -u | while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$dest"
