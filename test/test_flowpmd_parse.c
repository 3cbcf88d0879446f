/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * dpdk-flowpmd's frame parser (app/flowpmd/parse.c, parse.h) on frames built
 * byte by byte here: the key it gives for each kind of header stack, and -1
 * for what is not a flow. Needs no EAL resource.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "test.h"
#include "../app/flowpmd/parse.h"

#define TF_MAX 1024

/* Address bytes used by every frame: 10.0.0.1 -> 10.0.0.2, 2001:db8::1 -> ::2 */
static const uint8_t tf_src4[4] = { 10, 0, 0, 1 };
static const uint8_t tf_dst4[4] = { 10, 0, 0, 2 };
static const uint8_t tf_src6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const uint8_t tf_dst6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

/* A frame being built: bytes appended in order, multi-byte values big-endian. */
struct tframe {
	uint8_t b[TF_MAX];
	uint32_t len;
};

static void
tf_bytes(struct tframe *f, const void *p, uint32_t n)
{
	memcpy(f->b + f->len, p, n);
	f->len += n;
}

static void
tf_u8(struct tframe *f, uint8_t v)
{
	f->b[f->len++] = v;
}

static void
tf_u16(struct tframe *f, uint16_t v)
{
	tf_u8(f, v >> 8);
	tf_u8(f, v & 0xff);
}

static void
tf_zero(struct tframe *f, uint32_t n)
{
	memset(f->b + f->len, 0, n);
	f->len += n;
}

/* Ethernet header, then one tag per entry of tpids (the last type is type). */
static void
tf_eth(struct tframe *f, const uint16_t *tpids, unsigned int ntags, uint16_t type)
{
	unsigned int i;

	f->len = 0;
	tf_zero(f, 12);
	for (i = 0; i < ntags; i++) {
		tf_u16(f, tpids[i]);
		tf_u16(f, 100 + i); /* TCI */
	}
	tf_u16(f, type);
}

/* IPv4 header of ihl words, opt_words of them present; tlen 0: set by tf_ipv4_fix_len(). */
static void
tf_ipv4(struct tframe *f, uint8_t ver, uint8_t ihl, uint16_t tlen, uint16_t frag,
	uint8_t opt_words, uint8_t proto)
{
	tf_u8(f, ver << 4 | ihl);
	tf_u8(f, 0);
	tf_u16(f, tlen);
	tf_u16(f, 1);          /* id */
	tf_u16(f, frag);       /* flags, offset in 8-byte units */
	tf_u8(f, 64);
	tf_u8(f, proto);
	tf_u16(f, 0);          /* checksum: not checked by the parser */
	tf_bytes(f, tf_src4, 4);
	tf_bytes(f, tf_dst4, 4);
	tf_zero(f, opt_words * 4u); /* options: end of list */
}

/* IPv6 fixed header; plen 0: to be set by tf_ipv6_fix_len(). */
static void
tf_ipv6(struct tframe *f, uint8_t ver, uint16_t plen, uint8_t next)
{
	tf_u8(f, ver << 4);
	tf_zero(f, 3);
	tf_u16(f, plen);
	tf_u8(f, next);
	tf_u8(f, 64);
	tf_bytes(f, tf_src6, 16);
	tf_bytes(f, tf_dst6, 16);
}

static void
tf_ipv4_fix_len(struct tframe *f, uint32_t l3)
{
	f->b[l3 + 2] = (f->len - l3) >> 8;
	f->b[l3 + 3] = (f->len - l3) & 0xff;
}

static void
tf_ipv6_fix_len(struct tframe *f, uint32_t l3)
{
	f->b[l3 + 4] = (f->len - l3 - 40) >> 8;
	f->b[l3 + 5] = (f->len - l3 - 40) & 0xff;
}

/* Hop-by-hop, routing or destination options header of 8 * words bytes. */
static void
tf_ext(struct tframe *f, uint8_t next, uint8_t words)
{
	tf_u8(f, next);
	tf_u8(f, words - 1);
	tf_zero(f, words * 8u - 2);
}

/* Fragment header; field: offset in bytes, low bit set for more fragments. */
static void
tf_frag6(struct tframe *f, uint8_t next, uint16_t field)
{
	tf_u8(f, next);
	tf_u8(f, 0);
	tf_u16(f, field);
	tf_u16(f, 0xabcd);
	tf_u16(f, 0x0001);
}

/* AH of 4 * words bytes (at least 3 words). */
static void
tf_ah(struct tframe *f, uint8_t next, uint8_t words)
{
	tf_u8(f, next);
	tf_u8(f, words - 2);
	tf_zero(f, words * 4u - 2);
}

static struct flow_key4
key4(uint8_t proto, uint16_t sport, uint16_t dport)
{
	struct flow_key4 k;

	memset(&k, 0, sizeof(k));
	memcpy(&k.src, tf_src4, 4);
	memcpy(&k.dst, tf_dst4, 4);
	k.proto = proto;
	k.sport = rte_cpu_to_be_16(sport);
	k.dport = rte_cpu_to_be_16(dport);
	return k;
}

static struct flow_key6
key6(uint8_t proto, uint16_t sport, uint16_t dport)
{
	struct flow_key6 k;

	memset(&k, 0, sizeof(k));
	memcpy(k.src, tf_src6, 16);
	memcpy(k.dst, tf_dst6, 16);
	k.proto = proto;
	k.sport = rte_cpu_to_be_16(sport);
	k.dport = rte_cpu_to_be_16(dport);
	return k;
}

/*
 * Parse f (at an odd address too, for alignment) with keys prefilled with
 * garbage, and compare with the expected family, VLAN count and key.
 */
static int
check(const struct tframe *f, uint32_t len, int fam, unsigned int vlans,
	const struct flow_key4 *e4, const struct flow_key6 *e6)
{
	static uint8_t shifted[TF_MAX + 1];
	struct flow_key4 k4;
	struct flow_key6 k6;
	unsigned int v;
	int ret, pass;

	for (pass = 0; pass < 2; pass++) {
		const uint8_t *p = f->b;

		if (pass == 1) {
			memcpy(shifted + 1, f->b, len);
			p = shifted + 1;
		}
		memset(&k4, 0xa5, sizeof(k4));
		memset(&k6, 0xa5, sizeof(k6));
		ret = flowpmd_parse(p, len, &k4, &k6, &v);
		TEST_ASSERT_EQUAL(ret, fam, "family %d, expected %d", ret, fam);
		if (fam < 0)
			continue;
		TEST_ASSERT_EQUAL(v, vlans, "%u VLAN tags, expected %u", v, vlans);
		if (fam == FLOW_V4)
			TEST_ASSERT(memcmp(&k4, e4, sizeof(k4)) == 0,
				    "IPv4 key: proto %u ports %u %u, expected %u %u %u", k4.proto,
				    rte_be_to_cpu_16(k4.sport), rte_be_to_cpu_16(k4.dport),
				    e4->proto, rte_be_to_cpu_16(e4->sport),
				    rte_be_to_cpu_16(e4->dport));
		else
			TEST_ASSERT(memcmp(&k6, e6, sizeof(k6)) == 0,
				    "IPv6 key: proto %u ports %u %u, expected %u %u %u", k6.proto,
				    rte_be_to_cpu_16(k6.sport), rte_be_to_cpu_16(k6.dport),
				    e6->proto, rte_be_to_cpu_16(e6->sport),
				    rte_be_to_cpu_16(e6->dport));
	}
	return TEST_SUCCESS;
}

/* ---- cases ---- */

enum tf_hdr_kind { TF_EXT = 1, TF_FRAG6, TF_AH };

/* An IPv6 extension header, written repeat times (once when 0). */
struct tf_hdr {
	uint8_t kind;
	uint8_t next;
	uint16_t size;  /* TF_EXT: 8-byte words, TF_AH: 4-byte words, TF_FRAG6: field */
	uint8_t repeat;
};

/*
 * One frame and what the parser must make of it. The frame is Ethernet, the
 * tags, an IPv4 or IPv6 header as type says (nothing for other types), the
 * extension headers, then the ports (if any) and pad zero bytes.
 */
struct parse_case {
	const char *what;
	uint16_t tags[3];         /* TPIDs, 0-terminated */
	uint16_t type;
	uint8_t ver;              /* IP version field; 0: the one of type */
	uint8_t ihl;              /* IPv4 header words written; 0: 5 */
	uint8_t opt_words;        /* IPv4 option words actually present */
	uint16_t frag;            /* IPv4 flags and fragment offset */
	uint8_t proto;            /* IPv4 protocol, IPv6 next header */
	bool ip_len_set;          /* IP_LEN(): the length field given, not computed */
	uint16_t ip_len;
	struct tf_hdr hdrs[3];
	bool ports;
	uint16_t sport, dport;
	uint16_t pad;
	uint8_t trim;             /* bytes cut off the end before the length is computed */
	bool partial;             /* FIRST(): only the first len bytes are parsed */
	uint16_t len;
	int fam;                  /* expected: FLOW_V4, FLOW_V6 or -1 */
	uint8_t vlans;
	uint8_t e_proto;
	uint16_t e_sport, e_dport;
};

#define ETH_LEN RTE_ETHER_HDR_LEN
#define TCP IPPROTO_TCP
#define UDP IPPROTO_UDP
#define V4 RTE_ETHER_TYPE_IPV4
#define V6 RTE_ETHER_TYPE_IPV6
#define VLAN RTE_ETHER_TYPE_VLAN
#define QINQ RTE_ETHER_TYPE_QINQ
#define PORTS(s, d, p) .ports = true, .sport = (s), .dport = (d), .pad = (p)
#define IP_LEN(n) .ip_len_set = true, .ip_len = (n)
#define FIRST(n) .partial = true, .len = (n)
#define EXT(nh, w) { TF_EXT, (nh), (w), 1 }
#define KEY4(p, s, d) .fam = FLOW_V4, .e_proto = (p), .e_sport = (s), .e_dport = (d)
#define KEY6(p, s, d) .fam = FLOW_V6, .e_proto = (p), .e_sport = (s), .e_dport = (d)
#define NOT_FLOW .fam = -1

static const struct parse_case parse_cases[] = {
	{ "ARP", .type = RTE_ETHER_TYPE_ARP, .pad = 28, NOT_FLOW },
	{ "empty frame", .type = RTE_ETHER_TYPE_ARP, .pad = 28, FIRST(0), NOT_FLOW },
	{ "shorter than Ethernet", .type = RTE_ETHER_TYPE_ARP, .pad = 28, FIRST(13), NOT_FLOW },

	{ "IPv4 TCP", .type = V4, .proto = TCP, PORTS(1234, 80, 16), KEY4(TCP, 1234, 80) },
	{ "IPv4 UDP", .type = V4, .proto = UDP, PORTS(1234, 80, 16), KEY4(UDP, 1234, 80) },
	{ "IPv4 SCTP", .type = V4, .proto = IPPROTO_SCTP, PORTS(1234, 80, 16),
		KEY4(IPPROTO_SCTP, 1234, 80) },
	{ "IPv4 ICMP: the same bytes are no ports", .type = V4, .proto = IPPROTO_ICMP,
		PORTS(0x0800, 0x1234, 4), KEY4(IPPROTO_ICMP, 0, 0) },
	{ "IPv4 options: the ports are after IHL words", .type = V4, .ihl = 7, .opt_words = 2,
		.proto = UDP, PORTS(53, 5353, 4), KEY4(UDP, 53, 5353) },

	{ "IPv4 exactly the 4 port bytes", .type = V4, .proto = UDP, PORTS(1000, 2000, 0),
		KEY4(UDP, 1000, 2000) },
	{ "IPv4 3 port bytes", .type = V4, .proto = UDP, PORTS(1000, 2000, 0), .trim = 1,
		KEY4(UDP, 0, 0) },
	{ "IPv4 port bytes in Ethernet padding past the total length", .type = V4,
		.proto = UDP, IP_LEN(20), PORTS(1000, 2000, 22), KEY4(UDP, 0, 0) },

	{ "version 6 behind the IPv4 ethertype", .type = V4, .ver = 6, .proto = UDP,
		PORTS(1, 2, 4), NOT_FLOW },
	{ "IHL below 5", .type = V4, .ihl = 4, .proto = UDP, PORTS(1, 2, 8), NOT_FLOW },
	{ "IHL past the end of the frame", .type = V4, .ihl = 15, .proto = UDP,
		PORTS(1, 2, 4), NOT_FLOW },
	{ "total length shorter than the header", .type = V4, .proto = UDP, IP_LEN(19),
		PORTS(1, 2, 4), NOT_FLOW },
	{ "IPv4 header cut: 19 of its 20 bytes", .type = V4, .proto = UDP, IP_LEN(19),
		PORTS(1, 2, 4), FIRST(ETH_LEN + 19), NOT_FLOW },

	{ "IPv4 first fragment: ports", .type = V4, .frag = 0x2000, .proto = UDP,
		PORTS(7000, 7001, 28), KEY4(UDP, 7000, 7001) },
	{ "IPv4 later fragment: no ports, protocol kept", .type = V4, .frag = 0x2004,
		.proto = UDP, PORTS(7000, 7001, 28), KEY4(UDP, 0, 0) },
	{ "IPv4 last fragment", .type = V4, .frag = 0x0004, .proto = TCP,
		PORTS(7000, 7001, 28), KEY4(TCP, 0, 0) },

	{ "one VLAN tag", { VLAN }, V4, .proto = TCP, PORTS(1, 2, 16), .vlans = 1,
		KEY4(TCP, 1, 2) },
	{ "QinQ", { QINQ, VLAN }, V6, .proto = UDP, PORTS(3, 4, 4), .vlans = 2,
		KEY6(UDP, 3, 4) },
	{ "two 0x8100 tags", { VLAN, VLAN }, V4, .proto = UDP, PORTS(5, 6, 4), .vlans = 2,
		KEY4(UDP, 5, 6) },
	{ "a third tag is not skipped", { QINQ, VLAN, VLAN }, V4, .proto = UDP,
		PORTS(5, 6, 4), NOT_FLOW },
	{ "first tag cut", { QINQ, VLAN }, V4, .proto = UDP, FIRST(ETH_LEN + 3), NOT_FLOW },
	{ "second tag cut", { QINQ, VLAN }, V4, .proto = UDP, FIRST(ETH_LEN + 4 + 3),
		NOT_FLOW },

	{ "IPv6 TCP", .type = V6, .proto = TCP, PORTS(40000, 443, 16),
		KEY6(TCP, 40000, 443) },
	{ "IPv6 L4 cut to 3 bytes: no ports", .type = V6, .proto = TCP, PORTS(40000, 443, 0),
		.trim = 1, KEY6(TCP, 0, 0) },
	{ "IPv6 frame going on past the payload length", .type = V6, .proto = TCP,
		IP_LEN(3), PORTS(40000, 443, 16), KEY6(TCP, 0, 0) },
	{ "IPv6 payload length 0 (jumbogram): the frame length bounds the parse",
		.type = V6, .proto = TCP, IP_LEN(0), PORTS(40000, 443, 16),
		KEY6(TCP, 40000, 443) },
	{ "ICMPv6", .type = V6, .proto = IPPROTO_ICMPV6, PORTS(0x8000, 1, 4),
		KEY6(IPPROTO_ICMPV6, 0, 0) },

	{ "version 4 behind the IPv6 ethertype", .type = V6, .ver = 4, .proto = UDP,
		PORTS(1, 2, 4), NOT_FLOW },
	{ "IPv6 fixed header cut", .type = V6, .proto = UDP, IP_LEN(8), FIRST(ETH_LEN + 39),
		NOT_FLOW },

	{ "hop-by-hop, routing, destination options, then UDP", .type = V6,
		.proto = IPPROTO_HOPOPTS,
		.hdrs = { EXT(IPPROTO_ROUTING, 1), EXT(IPPROTO_DSTOPTS, 3), EXT(UDP, 2) },
		PORTS(5353, 53, 4), KEY6(UDP, 5353, 53) },
	{ "AH (RFC 4302 length), then TCP", .type = V6, .proto = IPPROTO_AH,
		.hdrs = { { TF_AH, TCP, 6, 1 } }, PORTS(42000, 22, 16), KEY6(TCP, 42000, 22) },
	{ "SCTP after hop-by-hop", .type = V6, .proto = IPPROTO_HOPOPTS,
		.hdrs = { EXT(IPPROTO_SCTP, 1) }, PORTS(9000, 9001, 8),
		KEY6(IPPROTO_SCTP, 9000, 9001) },

	{ "ESP: the walk stops, nothing after it is readable", .type = V6,
		.proto = IPPROTO_HOPOPTS, .hdrs = { EXT(IPPROTO_ESP, 1) }, PORTS(1, 2, 16),
		KEY6(IPPROTO_ESP, 0, 0) },
	{ "no next header", .type = V6, .proto = IPPROTO_DSTOPTS,
		.hdrs = { EXT(IPPROTO_NONE, 1) }, KEY6(IPPROTO_NONE, 0, 0) },

	{ "IPv6 first fragment: ports", .type = V6, .proto = IPPROTO_FRAGMENT,
		.hdrs = { { TF_FRAG6, UDP, 0 | 1, 1 } }, PORTS(6000, 6001, 20),
		KEY6(UDP, 6000, 6001) },
	{ "IPv6 later fragment after destination options: no ports, protocol kept",
		.type = V6, .proto = IPPROTO_DSTOPTS,
		.hdrs = { EXT(IPPROTO_FRAGMENT, 1), { TF_FRAG6, TCP, 1480, 1 } },
		PORTS(6000, 6001, 20), KEY6(TCP, 0, 0) },

	{ "FLOWPMD_PARSE_MAX_EXT_HDRS extension headers are followed", .type = V6,
		.proto = IPPROTO_DSTOPTS,
		.hdrs = { { TF_EXT, IPPROTO_DSTOPTS, 1, FLOWPMD_PARSE_MAX_EXT_HDRS - 1 },
			EXT(UDP, 1) },
		PORTS(7002, 7003, 4), KEY6(UDP, 7002, 7003) },
	{ "one more: the walk stops at it", .type = V6, .proto = IPPROTO_HOPOPTS,
		.hdrs = { { TF_EXT, IPPROTO_HOPOPTS, 1, FLOWPMD_PARSE_MAX_EXT_HDRS - 1 },
			EXT(IPPROTO_ROUTING, 1), EXT(UDP, 1) },
		PORTS(7000, 7001, 4), KEY6(IPPROTO_ROUTING, 0, 0) },

	{ "routing then UDP", .type = V6, .proto = IPPROTO_HOPOPTS,
		.hdrs = { EXT(IPPROTO_ROUTING, 1), EXT(UDP, 8) }, PORTS(1, 2, 4),
		KEY6(UDP, 1, 2) },
	{ "the routing header (64 bytes) cut by the frame end", .type = V6,
		.proto = IPPROTO_HOPOPTS, .hdrs = { EXT(IPPROTO_ROUTING, 1), EXT(UDP, 8) },
		PORTS(1, 2, 4), FIRST(ETH_LEN + 40 + 8 + 63), KEY6(IPPROTO_ROUTING, 0, 0) },
	{ "... by fewer than the 8 bytes any extension header has", .type = V6,
		.proto = IPPROTO_HOPOPTS, .hdrs = { EXT(IPPROTO_ROUTING, 1), EXT(UDP, 8) },
		PORTS(1, 2, 4), FIRST(ETH_LEN + 40 + 8 + 7), KEY6(IPPROTO_ROUTING, 0, 0) },
	{ "... by the payload length, the frame being long enough", .type = V6,
		.proto = IPPROTO_HOPOPTS, .hdrs = { EXT(IPPROTO_ROUTING, 1), EXT(UDP, 8) },
		IP_LEN(8 + 32), PORTS(1, 2, 4), KEY6(IPPROTO_ROUTING, 0, 0) },
	{ "AH cut", .type = V6, .proto = IPPROTO_AH, .hdrs = { { TF_AH, TCP, 6, 1 } },
		.trim = 4, KEY6(IPPROTO_AH, 0, 0) },
};

static void
tf_hdr(struct tframe *f, const struct tf_hdr *h)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX(h->repeat, 1); i++) {
		if (h->kind == TF_EXT)
			tf_ext(f, h->next, h->size);
		else if (h->kind == TF_FRAG6)
			tf_frag6(f, h->next, h->size);
		else
			tf_ah(f, h->next, h->size);
	}
}

/* The frame of c, and the offset of its IP header. */
static uint32_t
tf_build(struct tframe *f, const struct parse_case *c)
{
	unsigned int ntags = 0, i;
	uint32_t l3;

	while (ntags < RTE_DIM(c->tags) && c->tags[ntags] != 0)
		ntags++;
	tf_eth(f, c->tags, ntags, c->type);
	l3 = f->len;
	if (c->type == V4)
		tf_ipv4(f, c->ver ? c->ver : 4, c->ihl ? c->ihl : 5, c->ip_len, c->frag,
			c->opt_words, c->proto);
	else if (c->type == V6)
		tf_ipv6(f, c->ver ? c->ver : 6, c->ip_len, c->proto);
	for (i = 0; i < RTE_DIM(c->hdrs) && c->hdrs[i].kind != 0; i++)
		tf_hdr(f, &c->hdrs[i]);
	if (c->ports) {
		tf_u16(f, c->sport);
		tf_u16(f, c->dport);
	}
	tf_zero(f, c->pad);
	f->len -= c->trim;
	if (!c->ip_len_set && c->type == V4)
		tf_ipv4_fix_len(f, l3);
	else if (!c->ip_len_set && c->type == V6)
		tf_ipv6_fix_len(f, l3);
	return l3;
}

static int
test_parse_case(const struct parse_case *c)
{
	struct flow_key4 e4 = key4(c->e_proto, c->e_sport, c->e_dport);
	struct flow_key6 e6 = key6(c->e_proto, c->e_sport, c->e_dport);
	struct tframe f;

	tf_build(&f, c);
	return check(&f, c->partial ? c->len : f.len, c->fam, c->vlans, &e4, &e6);
}

static int
test_parse_frames(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(parse_cases); i++) {
		if (test_parse_case(&parse_cases[i]) != TEST_SUCCESS) {
			printf("  case %u: %s\n", i, parse_cases[i].what);
			return TEST_FAILED;
		}
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite flowpmd_parse_suite = {
	.suite_name = "dpdk-flowpmd frame parser",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE(test_parse_frames),
		TEST_CASES_END()
	}
};

static int
test_flowpmd_parse(void)
{
	return unit_test_suite_runner(&flowpmd_parse_suite);
}

REGISTER_TEST_COMMAND(flowpmd_parse_autotest, test_flowpmd_parse);
