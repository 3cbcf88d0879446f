/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * libFuzzer target: the input is one frame for dpdk-flowpmd's parser
 * (app/flowpmd/parse.h, parse.c). libFuzzer hands it over in a heap buffer
 * of exactly its size, so AddressSanitizer catches any read past the end.
 *
 * Checked on every input:
 * - the family is the one the ethertype after the VLAN tags names (never a
 *   flow for another ethertype), and the VLAN count is that of the tags;
 * - ports are 0 unless the protocol is TCP, UDP or SCTP, and always 0 for
 *   an IPv4 fragment other than the first;
 * - the key is a pure function of the bytes: two parses into keys holding
 *   different garbage give the same key, with zero padding;
 * - the whole result equals that of a reference parse written here byte by
 *   byte from the rules stated in parse.h (so a frame parsed differently
 *   from the documented rules is a finding too).
 * No EAL: the parser uses none of it.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(...) do {							\
	fprintf(stderr, "fuzz_parse: " __VA_ARGS__);			\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

/* ---- reference parse: offsets and fields spelled out ---- */

struct ref_result {
	int family;            /* FLOW_V4, FLOW_V6, -1 */
	unsigned int vlans;
	uint16_t ethertype;    /* after the tags skipped */
	uint8_t src[16];
	uint8_t dst[16];
	uint8_t proto;
	uint16_t sport;        /* host order */
	uint16_t dport;
	bool v4_later_frag;    /* IPv4 fragment offset non-zero */
};

static uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static bool
ref_has_ports(uint8_t proto)
{
	return proto == 6 || proto == 17 || proto == 132;
}

static bool
ref_ipv6_ext(uint8_t nh)
{
	/* hop-by-hop, routing, fragment, destination options, AH */
	return nh == 0 || nh == 43 || nh == 44 || nh == 60 || nh == 51;
}

/* Ports of an L4 header at byte pos of a packet of end bytes. */
static void
ref_ports(const uint8_t *p, uint32_t pos, uint32_t end, struct ref_result *r)
{
	if (ref_has_ports(r->proto) && end >= pos + 4) {
		r->sport = rd16(p + pos);
		r->dport = rd16(p + pos + 2);
	}
}

static int
ref_ipv4(const uint8_t *p, uint32_t n, struct ref_result *r)
{
	uint32_t ihl, total, end;

	if (n < 20)
		return -1;
	ihl = (p[0] & 0xf) * 4u;
	total = rd16(p + 2);
	if (p[0] >> 4 != 4 || ihl < 20 || ihl > n || total < ihl)
		return -1;
	end = total < n ? total : n;
	memcpy(r->src, p + 12, 4);
	memcpy(r->dst, p + 16, 4);
	r->proto = p[9];
	r->v4_later_frag = (rd16(p + 6) & 0x1fff) != 0;
	if (!r->v4_later_frag)
		ref_ports(p, ihl, end, r);
	return FLOW_V4;
}

static int
ref_ipv6(const uint8_t *p, uint32_t n, struct ref_result *r)
{
	uint32_t plen, end, pos = 40, hlen;
	uint8_t nh;
	int i;

	if (n < 40 || p[0] >> 4 != 6)
		return -1;
	plen = rd16(p + 4);
	end = (plen != 0 && 40 + plen < n) ? 40 + plen : n;
	memcpy(r->src, p + 8, 16);
	memcpy(r->dst, p + 24, 16);
	nh = p[6];
	for (i = 0; i < 8 && ref_ipv6_ext(nh) && end - pos >= 8; i++) {
		if (nh == 44 && (rd16(p + pos + 2) >> 3) != 0) {
			r->proto = p[pos];
			return FLOW_V6;
		}
		if (nh == 44)
			hlen = 8;
		else if (nh == 51)
			hlen = (p[pos + 1] + 2u) * 4;
		else
			hlen = (p[pos + 1] + 1u) * 8;
		if (pos + hlen > end)
			break;
		nh = p[pos];
		pos += hlen;
	}
	r->proto = nh;
	ref_ports(p, pos, end, r);
	return FLOW_V6;
}

static void
ref_parse(const uint8_t *d, uint32_t n, struct ref_result *r)
{
	uint32_t pos = 12;

	memset(r, 0, sizeof(*r));
	r->family = -1;
	if (n < 14)
		return;
	r->ethertype = rd16(d + 12);
	while (r->vlans < 2 && (r->ethertype == 0x8100 || r->ethertype == 0x88a8)) {
		if (n < pos + 6)
			return;
		r->ethertype = rd16(d + pos + 4);
		pos += 4;
		r->vlans++;
	}
	pos += 2;
	if (r->ethertype == 0x0800)
		r->family = ref_ipv4(d + pos, n - pos, r);
	else if (r->ethertype == 0x86dd)
		r->family = ref_ipv6(d + pos, n - pos, r);
}

/* ---- checks ---- */

struct parsed {
	int family;
	unsigned int vlans;
	struct flow_key4 k4;
	struct flow_key6 k6;
};

static void
parse_with_garbage(const uint8_t *d, uint32_t n, uint8_t garbage, struct parsed *p)
{
	memset(&p->k4, garbage, sizeof(p->k4));
	memset(&p->k6, garbage, sizeof(p->k6));
	p->vlans = garbage;
	p->family = flowpmd_parse(d, n, &p->k4, &p->k6, &p->vlans);
}

static void
check_pad(const uint8_t *pad, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pad[i] != 0)
			FAIL("key padding byte %zu is %#x", i, pad[i]);
}

/* The fields of the parser's key, as the reference holds them. */
static void
key_fields(const struct parsed *p, uint8_t *src, uint8_t *dst, uint8_t *proto,
	   uint16_t *sport, uint16_t *dport)
{
	if (p->family == FLOW_V4) {
		memcpy(src, &p->k4.src, 4);
		memcpy(dst, &p->k4.dst, 4);
		*proto = p->k4.proto;
		*sport = rte_be_to_cpu_16(p->k4.sport);
		*dport = rte_be_to_cpu_16(p->k4.dport);
	} else {
		memcpy(src, p->k6.src, 16);
		memcpy(dst, p->k6.dst, 16);
		*proto = p->k6.proto;
		*sport = rte_be_to_cpu_16(p->k6.sport);
		*dport = rte_be_to_cpu_16(p->k6.dport);
	}
}

static void
check_invariants(const struct parsed *p, const struct ref_result *r)
{
	uint8_t src[16] = { 0 }, dst[16] = { 0 }, proto;
	uint16_t sport, dport;

	if (p->family == FLOW_V4 && r->ethertype != 0x0800)
		FAIL("IPv4 flow behind ethertype %#x", r->ethertype);
	if (p->family == FLOW_V6 && r->ethertype != 0x86dd)
		FAIL("IPv6 flow behind ethertype %#x", r->ethertype);
	if (p->family != FLOW_V4 && p->family != FLOW_V6 && p->family != -1)
		FAIL("family %d", p->family);
	if (p->family < 0)
		return;
	if (p->vlans != r->vlans)
		FAIL("%u VLAN tags, the frame has %u", p->vlans, r->vlans);
	key_fields(p, src, dst, &proto, &sport, &dport);
	if ((sport != 0 || dport != 0) && !ref_has_ports(proto))
		FAIL("ports %u %u for protocol %u", sport, dport, proto);
	if ((sport != 0 || dport != 0) && p->family == FLOW_V4 && r->v4_later_frag)
		FAIL("ports %u %u in a later IPv4 fragment", sport, dport);
	if (p->family == FLOW_V4)
		check_pad(p->k4.pad, sizeof(p->k4.pad));
	else
		check_pad(p->k6.pad, sizeof(p->k6.pad));
}

static void
check_reference(const struct parsed *p, const struct ref_result *r)
{
	uint8_t src[16] = { 0 }, dst[16] = { 0 }, proto;
	uint16_t sport, dport;

	if (p->family != r->family)
		FAIL("family %d, reference %d", p->family, r->family);
	if (p->family < 0)
		return;
	key_fields(p, src, dst, &proto, &sport, &dport);
	if (memcmp(src, r->src, 16) != 0 || memcmp(dst, r->dst, 16) != 0)
		FAIL("addresses differ from the reference");
	if (proto != r->proto || sport != r->sport || dport != r->dport)
		FAIL("proto %u ports %u %u, reference %u %u %u", proto, sport, dport,
		     r->proto, r->sport, r->dport);
}

static void
check_same(const struct parsed *a, const struct parsed *b)
{
	if (a->family != b->family || a->vlans != b->vlans)
		FAIL("two parses: family %d/%d, vlans %u/%u", a->family, b->family, a->vlans,
		     b->vlans);
	if (a->family == FLOW_V4 && memcmp(&a->k4, &b->k4, sizeof(a->k4)) != 0)
		FAIL("two parses give different IPv4 keys");
	if (a->family == FLOW_V6 && memcmp(&a->k6, &b->k6, sizeof(a->k6)) != 0)
		FAIL("two parses give different IPv6 keys");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t n = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
	struct parsed a, b;
	struct ref_result r;

	parse_with_garbage(data, n, 0x00, &a);
	parse_with_garbage(data, n, 0xff, &b);
	ref_parse(data, n, &r);
	check_invariants(&a, &r);
	check_same(&a, &b);
	check_reference(&a, &r);
	return 0;
}
