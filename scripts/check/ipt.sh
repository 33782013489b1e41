#!/bin/bash
# Intel's libipt decodes the model's trace: the KUnit test
# pt_trace_streams_for_libipt prints the trace streams of a few hundred
# random round trips ("pt-ipt-stream:" lines in the kernel log, with what
# each must decode to), and scripts/ipt-check/ipt-check.c, built here
# against libipt, checks them with libipt's packet decoder: one result per
# stream.  Then the control: each stream corrupted in several ways (a PIP's
# CR3, the FUP of a PSB+, a TNT packet, PSBEND, an IP, the VMCS base, a
# TSC, a CBR) must fail the same check.  Runs after the kunit step, whose
# kernel log it reads ($O_KUNIT/test.log, or the file given).
. "$(dirname "$0")/../lib.sh"

klog=${1:-$O_KUNIT/test.log}
bin=$BUILD/ipt-check
out=$BUILD/ipt-check.log

if ! cc -O2 -Wall -Wextra -Werror -o "$bin" "$TOP/scripts/ipt-check/ipt-check.c" -lipt \
	>"$out" 2>&1; then
	sed 's/^/    /' "$out" | head -20
	result fail "ipt: the libipt checker builds" "log: $out"
	exit 1
fi
if [ ! -s "$klog" ] || ! grep -q 'pt-ipt-stream: begin' "$klog"; then
	result fail "ipt: the KUnit log has trace streams" "none in $klog (run the kunit step first)"
	exit 1
fi

rc=0
"$bin" "$klog" >"$out" 2>&1 || rc=1
while read -r status name rest; do
	case $status in
	ok) result pass "ipt: ${name%:} decodes with libipt as the model meant" "$rest" ;;
	FAIL) result fail "ipt: ${name%:} decodes with libipt as the model meant" "$rest" ;;
	esac
done <"$out"
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
	sed 's/^/    /' "$out" | head -20
	result fail "ipt: libipt decodes the streams" "log: $out"
fi

# The control: every corrupted copy of every stream fails.
if "$bin" -s "$klog" >"$out.corrupt" 2>&1; then
	result pass "ipt: corrupted streams fail the check" \
		"$(grep -c '^ok ' "$out.corrupt") corruptions rejected"
else
	grep -v '^ok ' "$out.corrupt" | head -10 | sed 's/^/    /'
	result fail "ipt: corrupted streams fail the check" "log: $out.corrupt"
	rc=1
fi
exit $rc
