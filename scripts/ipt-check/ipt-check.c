// SPDX-License-Identifier: GPL-2.0
/*
 * ipt-check: decode the Intel PT streams that the KUnit test
 * pt_trace_streams_for_libipt prints (lines "pt-ipt-stream: begin|data|end"
 * in the kernel log) with Intel's libipt packet decoder, and check them:
 *
 *  - from the first PSB on, every packet decodes (no libipt error, no
 *    truncated packet at the end), and the bytes before it are at most an
 *    enable's TIP.PGE and PADs;
 *  - PSB+: PSBEND (or OVF) ends it, and only the packets the SDM allows
 *    there ("PSB+" in "Packet Generation Scenarios") come in between; TSC
 *    if the stream has TSCEn, TMA if TSCEn and MTCEn, a CBR in each, and
 *    MODE.Exec and FUP in each PSB+ that comes while tracing is on
 *    (PacketEn), never FUP without MODE.Exec;
 *  - a flow decoder's view of PacketEn (TIP.PGE on, TIP.PGD off, OVF off
 *    until FUP or TIP.PGE, a PSB+ on if and only if it has a FUP): no TNT,
 *    TIP or TIP.PGD while it is off;
 *  - payloads as the test meant them: PIP's CR3 and NR, the VMCS packet's
 *    base (or no VMCS packet at all), the IP of every FUP and TIP*, the
 *    TNT packets the model's (whose they are, their running count with no
 *    gap) and how many.
 *
 * Usage: ipt-check [-s] KERNEL-LOG
 * One line per stream, "ok NAME: ..." or "FAIL NAME: ..."; exit status 0
 * only if there was at least one stream and every one passed.  With -s
 * (self-test), each stream is corrupted in several ways instead, one at a
 * time, and every corrupted copy must fail: exit status 0 only if all do.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

#define PREFIX		"pt-ipt-stream: "
#define MAX_STREAMS	16
#define MAX_BYTES	(1 << 20)

/* The model's TNT-8 packets: bit 5 of the payload guest, bits 4:0 a count. */
#define TNT_GUEST	0x20
#define TNT_SEQ		0x1f

struct stream {
	char name[64];
	uint64_t cr3, vmcs, ip, tnt;
	bool nr, has_vmcs, guest, tsc, tma;
	uint8_t *buf;
	size_t len, size;
	bool ended;
};

/* Offsets of the first packets of interest, for the self-test's corruptions. */
struct landmarks {
	long pip, vmcs, psb_fup, psbend, tnt, ip, psb_tsc, cbr;
};

struct result {
	char why[256];
	uint64_t at;
	unsigned long packets, psbs, tnt;
};

static void fail(struct result *r, uint64_t at, const char *fmt, ...)
{
	va_list ap;

	if (r->why[0])
		return;
	r->at = at;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
}

static bool in_psb_allowed(enum pt_packet_type t)
{
	switch (t) {
	case ppt_pad:
	case ppt_tsc:
	case ppt_tma:
	case ppt_pip:
	case ppt_vmcs:
	case ppt_cbr:
	case ppt_mode:
	case ppt_fup:
	case ppt_mtc:
	case ppt_cyc:
		return true;
	default:
		return false;
	}
}

static void mark(long *where, uint64_t off)
{
	if (*where < 0)
		*where = (long)off;
}

/* Decode and check @s's bytes @buf, @len; landmarks into @lm if given. */
static void check(const struct stream *s, const uint8_t *buf, size_t len,
		  struct result *r, struct landmarks *lm)
{
	struct pt_packet_decoder *dec;
	struct pt_config cfg;
	struct pt_packet pkt;
	bool in_psb = false, psb_fup = false, psb_exec = false, psb_tsc = false;
	bool psb_tma = false, psb_cbr = false, psb_while_on = false, on = false;
	int seq = -1, err;
	uint64_t off = 0, sync;

	memset(r, 0, sizeof(*r));
	if (lm)
		memset(lm, 0xff, sizeof(*lm));
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	if (!dec) {
		fail(r, 0, "pt_pkt_alloc_decoder failed");
		return;
	}
	err = pt_pkt_sync_forward(dec);
	if (err < 0) {
		fail(r, 0, "no PSB: %s", pt_errstr(pt_errcode(err)));
		goto out;
	}
	pt_pkt_get_sync_offset(dec, &sync);
	/* Before the first PSB: the TIP.PGE of the enable, PADs. */
	if (sync > 9 + 3)
		fail(r, 0, "%" PRIu64 " bytes before the first PSB", sync);

	for (;;) {
		pt_pkt_get_offset(dec, &off);
		err = pt_pkt_next(dec, &pkt, sizeof(pkt));
		if (err == -pte_eos) {
			if (off != len)
				fail(r, off, "a truncated packet at the end");
			break;
		}
		if (err < 0) {
			fail(r, off, "libipt: %s", pt_errstr(pt_errcode(err)));
			break;
		}
		r->packets++;
		if (in_psb && !in_psb_allowed(pkt.type) && pkt.type != ppt_psbend &&
		    pkt.type != ppt_ovf)
			fail(r, off, "packet type %d inside PSB+", pkt.type);

		switch (pkt.type) {
		case ppt_psb:
			if (in_psb)
				fail(r, off, "PSB inside PSB+");
			r->psbs++;
			in_psb = true;
			psb_while_on = on;
			psb_fup = psb_exec = psb_tsc = psb_tma = psb_cbr = false;
			break;
		case ppt_psbend:
			if (!in_psb) {
				fail(r, off, "PSBEND without PSB");
				break;
			}
			in_psb = false;
			if (s->tsc != psb_tsc)
				fail(r, off, "PSB+ %s TSC, TSCEn=%d", psb_tsc ? "with" : "without",
				     s->tsc);
			if ((s->tsc && s->tma) != psb_tma)
				fail(r, off, "PSB+ %s TMA", psb_tma ? "with" : "without");
			if (!psb_cbr)
				fail(r, off, "PSB+ without CBR");
			if (psb_while_on && !psb_fup)
				fail(r, off, "PSB+ while tracing without FUP");
			if (psb_fup != psb_exec)
				fail(r, off, "PSB+ with FUP but no MODE.Exec, or the other way");
			on = psb_fup;
			break;
		case ppt_ovf:
			in_psb = false;
			on = false;
			seq = -1;
			break;
		case ppt_tsc:
			psb_tsc = true;
			if (lm && in_psb)
				mark(&lm->psb_tsc, off);
			break;
		case ppt_tma:
			psb_tma = true;
			break;
		case ppt_cbr:
			psb_cbr = true;
			if (lm)
				mark(&lm->cbr, off);
			break;
		case ppt_mode:
			if (pkt.payload.mode.leaf == pt_mol_exec) {
				psb_exec = in_psb;
				if (pt_get_exec_mode(&pkt.payload.mode.bits.exec) != ptem_64bit)
					fail(r, off, "MODE.Exec not 64-bit");
			} else if (pkt.payload.mode.leaf == pt_mol_tsx) {
				if (pkt.payload.mode.bits.tsx.intx || pkt.payload.mode.bits.tsx.abrt)
					fail(r, off, "MODE.TSX in a transaction");
			}
			break;
		case ppt_pip:
			if (lm)
				mark(&lm->pip, off);
			if (pkt.payload.pip.cr3 != s->cr3 || pkt.payload.pip.nr != s->nr)
				fail(r, off, "PIP CR3 %#" PRIx64 " NR %u, not %#" PRIx64 " NR %d",
				     pkt.payload.pip.cr3, pkt.payload.pip.nr, s->cr3, s->nr);
			break;
		case ppt_vmcs:
			if (lm)
				mark(&lm->vmcs, off);
			if (!s->has_vmcs)
				fail(r, off, "a VMCS packet in a stream that has none");
			else if (pkt.payload.vmcs.base != s->vmcs)
				fail(r, off, "VMCS base %#" PRIx64 ", not %#" PRIx64,
				     pkt.payload.vmcs.base, s->vmcs);
			break;
		case ppt_fup:
		case ppt_tip:
		case ppt_tip_pge:
		case ppt_tip_pgd:
			if (pkt.payload.ip.ipc != pt_ipc_suppressed) {
				if (lm)
					mark(&lm->ip, off);
				if (pkt.payload.ip.ip != s->ip)
					fail(r, off, "IP %#" PRIx64 ", not %#" PRIx64,
					     pkt.payload.ip.ip, s->ip);
			}
			if (pkt.type == ppt_fup && in_psb) {
				psb_fup = true;
				if (lm)
					mark(&lm->psb_fup, off);
			} else if (pkt.type == ppt_fup) {
				/* After an OVF: where tracing resumes. */
				on = true;
			} else if (pkt.type == ppt_tip_pge) {
				on = true;
			} else if (pkt.type == ppt_tip_pgd) {
				if (!on)
					fail(r, off, "TIP.PGD while tracing is off");
				on = false;
			} else if (!on) {
				fail(r, off, "TIP while tracing is off");
			}
			break;
		case ppt_tnt_8: {
			unsigned int bits = (unsigned int)pkt.payload.tnt.payload;

			r->tnt++;
			/* Not the first: then the next one's count has a gap. */
			if (lm && r->tnt > 1)
				mark(&lm->tnt, off);
			if (!on)
				fail(r, off, "TNT while tracing is off");
			if (pkt.payload.tnt.bit_size != 6)
				fail(r, off, "TNT-8 of %u bits", pkt.payload.tnt.bit_size);
			if (!!(bits & TNT_GUEST) != s->guest)
				fail(r, off, "a TNT packet of the %s", s->guest ? "host" : "guest");
			if (seq >= 0 && (int)(bits & TNT_SEQ) != seq)
				fail(r, off, "TNT count %u, not %d: packets lost", bits & TNT_SEQ, seq);
			seq = ((bits & TNT_SEQ) + 1) & TNT_SEQ;
			break;
		}
		case ppt_pad:
		case ppt_mtc:
		case ppt_cyc:
			break;
		default:
			fail(r, off, "packet type %d the model does not write", pkt.type);
			break;
		}
		if (lm && pkt.type == ppt_psbend)
			mark(&lm->psbend, off);
	}
	if (in_psb)
		fail(r, off, "the stream ends inside PSB+");
	if (r->tnt != s->tnt)
		fail(r, off, "%lu TNT packets, not %" PRIu64, r->tnt, s->tnt);
out:
	pt_pkt_free_decoder(dec);
}

static struct stream streams[MAX_STREAMS];
static int nr_streams;

static struct stream *find(const char *name)
{
	int i;

	for (i = 0; i < nr_streams; i++)
		if (!strcmp(streams[i].name, name))
			return &streams[i];
	return NULL;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void parse_begin(char *rest)
{
	struct stream *s;
	char *tok, *save;

	if (nr_streams == MAX_STREAMS) {
		fprintf(stderr, "ipt-check: too many streams\n");
		exit(2);
	}
	s = &streams[nr_streams++];
	memset(s, 0, sizeof(*s));
	tok = strtok_r(rest, " \t\r\n", &save);
	snprintf(s->name, sizeof(s->name), "%s", tok ? tok : "?");
	while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
		char *eq = strchr(tok, '=');
		uint64_t v;

		if (!eq)
			continue;
		*eq++ = 0;
		v = strtoull(eq, NULL, 0);
		if (!strcmp(tok, "cr3"))
			s->cr3 = v;
		else if (!strcmp(tok, "nr"))
			s->nr = v;
		else if (!strcmp(tok, "vmcs"))
			s->has_vmcs = strcmp(eq, "none"), s->vmcs = v;
		else if (!strcmp(tok, "ip"))
			s->ip = v;
		else if (!strcmp(tok, "guest"))
			s->guest = v;
		else if (!strcmp(tok, "tnt"))
			s->tnt = v;
		else if (!strcmp(tok, "tsc"))
			s->tsc = v;
		else if (!strcmp(tok, "tma"))
			s->tma = v;
	}
}

static int parse_data(char *rest)
{
	char *name = strtok(rest, " \t"), *hex = strtok(NULL, " \t\r\n");
	struct stream *s = name ? find(name) : NULL;
	size_t i;

	if (!s || !hex || s->ended)
		return -1;
	for (i = 0; hex[i] && hex[i + 1]; i += 2) {
		int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		if (s->len == s->size) {
			s->size = s->size ? 2 * s->size : 4096;
			if (s->size > MAX_BYTES)
				return -1;
			s->buf = realloc(s->buf, s->size);
			if (!s->buf)
				return -1;
		}
		s->buf[s->len++] = hi << 4 | lo;
	}
	return hex[i] ? -1 : 0;
}

/* Corruption @k of @s into @out; false if @s has nothing to corrupt that way. */
static bool corrupt(const struct stream *s, const struct landmarks *lm, int k,
		    uint8_t *out, size_t *len, const char **what)
{
	long at;
	size_t cut = 0;

	memcpy(out, s->buf, s->len);
	*len = s->len;
	switch (k) {
	case 0:
		*what = "a bit of PIP's CR3 flipped";
		at = lm->pip + 3;
		if (lm->pip < 0)
			return false;
		out[at] ^= 0x10;
		return true;
	case 1:
		*what = "the FUP of a PSB+ removed";
		at = lm->psb_fup;
		cut = 9;
		break;
	case 2:
		*what = "a TNT packet removed";
		at = lm->tnt;
		cut = 1;
		break;
	case 3:
		*what = "PSBEND made a CBR opcode";
		if (lm->psbend < 0)
			return false;
		out[lm->psbend + 1] = 0x03;
		return true;
	case 4:
		*what = "a bit of an IP flipped";
		if (lm->ip < 0)
			return false;
		out[lm->ip + 2] ^= 0x01;
		return true;
	case 5:
		*what = "a bit of the VMCS base flipped";
		if (lm->vmcs < 0)
			return false;
		out[lm->vmcs + 3] ^= 0x01;
		return true;
	case 6:
		*what = "the TSC of a PSB+ removed";
		at = lm->psb_tsc;
		cut = 8;
		break;
	case 7:
		*what = "a CBR removed";
		at = lm->cbr;
		cut = 4;
		break;
	case 8:
		/* The model writes MODE.Exec right before the FUP. */
		*what = "MODE.Exec and FUP of a PSB+ removed, as the old model wrote it";
		at = lm->psb_fup < 2 ? -1 : lm->psb_fup - 2;
		cut = 11;
		if (at >= 0 && (out[at] != 0x99 || out[at + 2] != 0xdd))
			return false;
		break;
	default:
		return false;
	}
	if (at < 0)
		return false;
	memmove(out + at, out + at + cut, s->len - at - cut);
	*len = s->len - cut;
	return true;
}

int main(int argc, char **argv)
{
	bool self_test = false;
	const char *path;
	char line[4096];
	int i, k, bad = 0;
	FILE *f;

	if (argc == 3 && !strcmp(argv[1], "-s")) {
		self_test = true;
		path = argv[2];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fprintf(stderr, "usage: ipt-check [-s] KERNEL-LOG\n");
		return 2;
	}
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "ipt-check: %s: %s\n", path, strerror(errno));
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, PREFIX);
		struct stream *s;

		if (!p)
			continue;
		p += strlen(PREFIX);
		if (!strncmp(p, "begin ", 6)) {
			parse_begin(p + 6);
		} else if (!strncmp(p, "data ", 5)) {
			if (parse_data(p + 5)) {
				fprintf(stderr, "ipt-check: bad data line: %s", line);
				bad++;
			}
		} else if (!strncmp(p, "end ", 4)) {
			p[strcspn(p, "\r\n")] = 0;
			s = find(p + 4);
			if (s)
				s->ended = true;
		}
	}
	fclose(f);
	if (!nr_streams) {
		fprintf(stderr, "ipt-check: no stream in %s\n", path);
		return 1;
	}

	for (i = 0; i < nr_streams; i++) {
		struct stream *s = &streams[i];
		struct landmarks lm;
		struct result r;
		uint8_t *copy;
		size_t len;

		if (!s->ended || !s->len) {
			printf("FAIL %s: %s\n", s->name, s->ended ? "empty" : "no end line");
			bad++;
			continue;
		}
		check(s, s->buf, s->len, &r, &lm);
		if (!self_test) {
			if (r.why[0]) {
				printf("FAIL %s: at byte %" PRIu64 ": %s\n", s->name, r.at, r.why);
				bad++;
			} else {
				printf("ok %s: %zu bytes, %lu packets, %lu PSB+, %lu TNT\n",
				       s->name, s->len, r.packets, r.psbs, r.tnt);
			}
			continue;
		}
		if (r.why[0]) {
			printf("FAIL %s: the stream itself fails: %s\n", s->name, r.why);
			bad++;
			continue;
		}
		copy = malloc(s->len);
		if (!copy)
			return 2;
		for (k = 0; k < 9; k++) {
			const char *what = NULL;
			struct result cr;

			if (!corrupt(s, &lm, k, copy, &len, &what)) {
				printf("-- %s: %s: nothing to corrupt\n", s->name, what);
				continue;
			}
			check(s, copy, len, &cr, NULL);
			if (cr.why[0]) {
				printf("ok %s: %s: rejected at byte %" PRIu64 ": %s\n", s->name,
				       what, cr.at, cr.why);
			} else {
				printf("FAIL %s: %s: not rejected\n", s->name, what);
				bad++;
			}
		}
		free(copy);
	}
	return bad ? 1 : 0;
}
