#!/bin/bash
# deps.sh [PACKAGE...]: install with apt-get whatever the build and the
# tests need and is missing, and the PACKAGEs a target needs beyond them.
. "$(dirname "$0")/lib.sh"

pkgs=(
	build-essential bc bison flex libssl-dev libelf-dev dwarves cpio kmod
	rsync xz-utils git python3 perl python3-ply python3-git
	python3-sphinx python3-yaml
	qemu-system-x86 busybox-static sparse
	# perf record on a GenuineIntel CPU (check/perf.sh)
	qemu-user
	# kselftests (KVM)
	libc6-dev
	# Intel's Intel PT decoder, for check/ipt.sh
	libipt-dev
)
# The base: installed from the machine's suites, or downloaded by
# get-base.sh from BASE_SUITE with Debian's archive keys.
if [ -z "${BASE_SUITE:-}" ]; then
	pkgs+=("$BASE_PKG=$BASE_VERSION")
else
	pkgs+=(debian-archive-keyring)
fi
pkgs+=("$@")

missing=()
for p in "${pkgs[@]}"; do
	name=${p%%=*}
	want=${p#*=}
	have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
	case $have in
	"install ok installed "*)
		[ "$p" = "$name" ] || [ "${have##* }" = "$want" ] || missing+=("$p")
		;;
	*) missing+=("$p") ;;
	esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]} (run as root, or install them)"
log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
	die "apt-get could not install: ${missing[*]}
If $BASE_PKG=$BASE_VERSION is no longer served, the series needs rebasing:
see 'Moving to a new base' in README.md."
fi
