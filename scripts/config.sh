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
		case $line in
		CONFIG_*=*) grep -qxF "$line" "$scratch/.config" ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			! grep -q "^${sym%% *}=" "$scratch/.config" ;;
		*) continue ;;
		esac || {
			printf 'config: %s did not stick (%s)\n' "$line" "${frag##*/}" >&2
			bad=1
		}
	done < "$frag"
done
[ $bad = 0 ] || die "kernel configuration does not match config/"

# value SYMBOL CONFIG: the symbol's line in CONFIG, empty if it has none.
value() { grep -E "^(# )?CONFIG_$1[= ]" "$2" || true; }

# The slim fragment leaves out only what KVM and perf do not test: every
# CONFIG_ symbol their code names has the value it has without the fragment,
# but those the fragment says may differ.  Checked when the configuration
# is written, against the same configuration without the fragment.
if [ "${SLIM:-1}" != 0 ] && ! cmp -s "$scratch/.config" "$o/.config"; then
	full=$BUILD/o-config-full
	mkdir -p "$full"
	make -C "$tree" O="$full" defconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$full" "$full/.config" \
		"$tree/kernel/configs/kvm_guest.config" "$TOP"/config/*.config >/dev/null
	make -C "$tree" O="$full" olddefconfig >/dev/null
	read -r -a may_differ < <(sed -n 's/^# may differ: //p' "$TOP/config/slim.fragment")
	while read -r sym; do
		[[ " ${may_differ[*]} " == *" $sym "* ]] && continue
		[ "$(value "$sym" "$full/.config")" = "$(value "$sym" "$scratch/.config")" ] || {
			printf 'config: slim.fragment changes CONFIG_%s, which KVM or perf tests: "%s", not "%s"\n' \
				"$sym" "$(value "$sym" "$scratch/.config")" "$(value "$sym" "$full/.config")" >&2
			bad=1
		}
	done < <(cd "$tree" && grep -rhoE 'CONFIG_[A-Z0-9_]+' arch/x86/kvm virt/kvm virt/lib \
			arch/x86/events kernel/events include/linux/kvm*.h \
			arch/x86/include/asm/kvm*.h include/linux/perf_event.h \
			arch/x86/include/asm/perf_event.h | sed 's/^CONFIG_//' | sort -u)
	[ $bad = 0 ] || die "config/slim.fragment leaves out what KVM or perf tests"
fi

if ! cmp -s "$scratch/.config" "$o/.config"; then
	cp "$scratch/.config" "$o/.config"
	make -C "$tree" O="$o" olddefconfig >/dev/null
fi
