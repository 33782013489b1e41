#!/bin/bash
# config.sh TREE O: write O/.config = defconfig + kvm_guest.config +
# config/*.config + config/slim.fragment (unless SLIM=0: make deb).  Leaves
# an identical existing .config alone so that rebuilds stay incremental, and
# fails if a fragment option did not stick.
. "$(dirname "$0")/lib.sh"

tree=${1:?usage: config.sh TREE O}
o=${2:?usage: config.sh TREE O}
scratch=$BUILD/o-config
mkdir -p "$o" "$scratch"

frags=("$TOP"/config/*.config)
[ "${SLIM:-1}" = 0 ] || frags+=("$TOP/config/slim.fragment")

make -C "$tree" O="$scratch" defconfig >/dev/null
"$tree/scripts/kconfig/merge_config.sh" -m -O "$scratch" "$scratch/.config" \
	"$tree/kernel/configs/kvm_guest.config" "${frags[@]}" >/dev/null
make -C "$tree" O="$scratch" olddefconfig >/dev/null

bad=0
for frag in "${frags[@]}"; do
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		grep -qxF "$line" "$scratch/.config" || {
			printf 'config: %s did not stick (%s)\n' "$line" "${frag##*/}" >&2
			bad=1
		}
	done < "$frag"
done
[ $bad = 0 ] || die "kernel configuration does not match config/"

if ! cmp -s "$scratch/.config" "$o/.config"; then
	cp "$scratch/.config" "$o/.config"
	make -C "$tree" O="$o" olddefconfig >/dev/null
fi
