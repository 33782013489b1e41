#!/bin/bash
# The series changes tools/perf: perf builds with it (warnings are errors
# in perf's build), from $SERIES_TREE, out of tree in $BUILD/o-perf.  Optional libraries are
# left out, so that only what deps.sh installs is needed.  Then that perf
# records with the intel_pt format attributes the series adds, against a
# sysfs made from the series' driver source (see perf_record_attr below).
. "$(dirname "$0")/../lib.sh"

log=$BUILD/perf.log
mkdir -p "$BUILD/o-perf"
if make -C "$SERIES_TREE/tools/perf" O="$BUILD/o-perf" -j"$JOBS" \
	NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_JEVENTS=1 NO_LIBBPF=1 NO_LIBDW=1 \
	NO_SLANG=1 NO_LIBUNWIND=1 NO_LIBPERL=1 NO_LIBPYTHON=1 NO_RUST=1 >"$log" 2>&1; then
	result pass "perf: tools/perf builds with the series"
else
	grep -E 'error|warning' "$log" | head -20 | sed 's/^/    /'
	result fail "perf: tools/perf builds with the series" "log: $log"
	exit 1
fi

# perf record, with sysfs at $fake, on a GenuineIntel CPU (qemu-user, so
# that perf takes its Intel PT path here too): the perf_event_attr it
# prints (-vv) before perf_event_open(), which qemu-user does not have.
fake=$BUILD/perf-sysfs
perf_record_attr() {
	(cd "$BUILD" && SYSFS_PATH=$fake qemu-x86_64 -cpu qemu64,vendor=GenuineIntel \
		"$BUILD/o-perf/perf" record -vv -o "$BUILD/perf-record.data" "$@" -- true 2>&1 || true)
}

# The intel_pt PMU as the series' driver shows it: its format attributes
# from the source; the capabilities of a CPU with CR3 and IP filtering
# (two ranges) and configurable PSB; kvm_intel in host-guest mode.
pmu=$fake/bus/event_source/devices/intel_pt
rm -rf "$fake"
mkdir -p "$pmu/format" "$pmu/caps" "$fake/module/kvm_intel/parameters"
sed -n 's/^PMU_FORMAT_ATTR(\([a-z0-9_]*\),[[:space:]]*"\([^"]*\)".*/\1 \2/p' \
	"$SERIES_TREE/arch/x86/events/intel/pt.c" | while read -r name spec; do
	printf '%s\n' "$spec" >"$pmu/format/$name"
done
echo 4242 >"$pmu/type"
echo 2 >"$pmu/nr_addr_filters"
for cap in max_subleaf=1 cr3_filtering=1 psb_cyc=1 ip_filtering=1 mtc=1 ptwrite=0 \
	power_event_trace=0 event_trace=0 tnt_disable=0 topa_output=1 \
	topa_multiple_entries=1 single_range_output=1 output_subsys=0 payloads_lip=0 \
	num_address_ranges=2 mtc_periods=249 cycle_thresholds=1fff psb_periods=3f; do
	echo "${cap#*=}" >"$pmu/caps/${cap%%=*}"
done
echo 1 >"$fake/module/kvm_intel/parameters/pt_mode"

# attr_field NAME: the value perf printed for NAME in the intel_pt event's
# perf_event_attr (type 4242; perf prints others too, such as 7.3's dummy
# tracking event), or nothing.
attr_field() {
	printf '%s\n' "$out" |
		awk '/^perf_event_attr:/ { pt = 0 } /^  type  *4242( \(intel_pt\))?$/ { pt = 1 } pt' |
		sed -n "s/^  $1  *\([^ ]*\)\$/\1/p" | head -1
}

# Control: without a modifier, perf excludes the guest in host-guest mode
# (it read pt_mode from the fake sysfs, so the check below means something).
out=$(perf_record_attr -e intel_pt//)
if [ "$(attr_field exclude_guest)" = 1 ]; then
	result pass "perf: intel_pt// excludes the guest where kvm_intel has pt_mode=1"
else
	printf '%s\n' "$out" | tail -30 | sed 's/^/    /'
	result fail "perf: intel_pt// excludes the guest where kvm_intel has pt_mode=1"
	exit 1
fi

# What a fuzzer asks for: guest only, CR3 filter, a PSB per region, and a
# raw address range (no file): each reaches perf_event_open() as asked.
out=$(perf_record_attr -e intel_pt/cr3_filter,cr3_match=0x1234000,psb_on_start/G \
	--filter 'filter 0x401000/0x1000')
config=$(attr_field config)
why=
[ -n "$config" ] && [ $((config & 0x80)) -ne 0 ] || why+=" config ${config:-missing}: no CR3Filter (bit 7);"
[ "$(attr_field '{ bp_addr, config1 }')" = 0x1 ] || why+=" config1 is not psb_on_start;"
[ "$(attr_field '{ bp_len, config2 }')" = 0x1234000 ] || why+=" config2 is not cr3_match;"
[ "$(attr_field exclude_host)" = 1 ] || why+=" exclude_host is not 1;"
[ -z "$(attr_field exclude_guest)" ] || why+=" exclude_guest is set: :G traces nothing;"
printf '%s\n' "$out" | grep -qx 'Address filter: filter 0x401000/0x1000' ||
	why+=" the address filter is not passed as given;"
if [ -z "$why" ]; then
	result pass "perf: perf record takes intel_pt/cr3_filter,cr3_match=,psb_on_start/G and a raw --filter range"
else
	printf '%s\n' "$out" | tail -30 | sed 's/^/    /'
	result fail "perf: perf record takes intel_pt/cr3_filter,cr3_match=,psb_on_start/G and a raw --filter range" "${why# }"
	exit 1
fi
