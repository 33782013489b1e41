#!/bin/bash
# make-tree.sh: build/port73/linux, the 7.3 work tree: Debian's
# linux-source-7.3 (fetched with a private apt configuration, nothing else
# on the machine changes), committed as "base", then the product series
# (port/7.3/product/) on branch "product" and the KUnit series
# (port/7.3/kunit/) on branch "kunit" (also "whole").  Run from the
# repository root.
set -euo pipefail
top=$(pwd)
dir=${PORT_DIR:-$top/build/port73}
pkg=linux-source-7.3
ver=7.3.4-1~bpo13+1
deb_sha=703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3
tar_sha=76df1affb19f24926949369be1d74b60071c963c598ce8780bddd4bbf0fc3bc4
mkdir -p "$dir/apt/lists/partial" "$dir/apt/archives/partial"
cd "$dir"
deb=$(ls ${pkg}_*.deb 2>/dev/null | head -1 || true)
if [ -z "$deb" ]; then
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie-backports main" > apt/sources.list
	opts=(-o Dir::Etc::SourceList="$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	      -o Dir::State::Lists="$dir/apt/lists" -o Dir::Cache="$dir/apt"
	      -o Dir::State::Status=/dev/null -o APT::Sandbox::User=root)
	apt-get "${opts[@]}" update >/dev/null
	apt-get "${opts[@]}" download "$pkg=$ver"
	deb=$(ls ${pkg}_*.deb | head -1)
fi
echo "$deb_sha  $deb" | sha256sum -c -
rm -rf x && mkdir x && dpkg-deb -x "$deb" x
echo "$tar_sha  x/usr/src/$pkg.tar.xz" | sha256sum -c -
rm -rf linux && tar -xJf "x/usr/src/$pkg.tar.xz" && mv "$pkg" linux && rm -rf x
cd linux
git init -q
git config user.name "KVM Intel PT"
git config user.email kvm-intel-pt@example.org
git config core.excludesFile /dev/null
git -c core.autocrlf=false add -f -A .
git commit -q -m "Linux $ver ($pkg)"
git tag base
am_series() {	# DIR
	local f
	while read -r f; do
		git am -q --no-3way "$1/$f"
	done < "$1/series"
}
git checkout -q -b product
am_series "$top/port/7.3/product"
git checkout -q -b kunit
am_series "$top/port/7.3/kunit"
git branch whole
echo "$dir/linux: $(git log --oneline -1)"
