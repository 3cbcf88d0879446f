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

/* IPv4 header of ihl words; tlen 0: to be set by tf_ipv4_fix_len(). */
static uint32_t
tf_ipv4(struct tframe *f, uint8_t ver, uint8_t ihl, uint16_t tlen, uint16_t frag, uint8_t proto)
{
	uint32_t start = f->len;

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
	if (ihl > 5)
		tf_zero(f, (ihl - 5) * 4u); /* options: end of list */
	return start;
}

/* IPv6 fixed header; plen 0: to be set by tf_ipv6_fix_len(). */
static uint32_t
tf_ipv6(struct tframe *f, uint8_t ver, uint16_t plen, uint8_t next)
{
	uint32_t start = f->len;

	tf_u8(f, ver << 4);
	tf_zero(f, 3);
	tf_u16(f, plen);
	tf_u8(f, next);
	tf_u8(f, 64);
	tf_bytes(f, tf_src6, 16);
	tf_bytes(f, tf_dst6, 16);
	return start;
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

static void
tf_frag6(struct tframe *f, uint8_t next, uint16_t offset_bytes, int more)
{
	tf_u8(f, next);
	tf_u8(f, 0);
	tf_u16(f, offset_bytes | (more ? 1 : 0));
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

/* The first 4 bytes of TCP, UDP or SCTP, then pad bytes of the rest. */
static void
tf_ports(struct tframe *f, uint16_t sport, uint16_t dport, uint32_t pad)
{
	tf_u16(f, sport);
	tf_u16(f, dport);
	tf_zero(f, pad);
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

static int
check4(const struct tframe *f, unsigned int vlans, struct flow_key4 e)
{
	return check(f, f->len, FLOW_V4, vlans, &e, NULL);
}

static int
check6(const struct tframe *f, unsigned int vlans, struct flow_key6 e)
{
	return check(f, f->len, FLOW_V6, vlans, NULL, &e);
}

static int
check_other(const struct tframe *f, uint32_t len)
{
	return check(f, len, -1, 0, NULL, NULL);
}

#define CHECK(expr) do {						\
	if ((expr) != TEST_SUCCESS) {					\
		printf("  from %s:%d\n", __FILE__, __LINE__);		\
		return TEST_FAILED;					\
	}								\
} while (0)

/* ---- cases ---- */

static int
test_parse_non_ip(void)
{
	struct tframe f;

	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_ARP);
	tf_zero(&f, 28);
	CHECK(check_other(&f, f.len));
	/* shorter than an Ethernet header */
	CHECK(check_other(&f, 0));
	CHECK(check_other(&f, 13));
	return TEST_SUCCESS;
}

static int
test_parse_ipv4_l4(void)
{
	static const uint8_t with_ports[] = { IPPROTO_TCP, IPPROTO_UDP, IPPROTO_SCTP };
	struct tframe f;
	uint32_t l3;
	unsigned int i;

	for (i = 0; i < RTE_DIM(with_ports); i++) {
		tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
		l3 = tf_ipv4(&f, 4, 5, 0, 0, with_ports[i]);
		tf_ports(&f, 1234, 80, 16);
		tf_ipv4_fix_len(&f, l3);
		CHECK(check4(&f, 0, key4(with_ports[i], 1234, 80)));
	}
	/* ICMP: the same bytes are no ports */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 0, 0, IPPROTO_ICMP);
	tf_ports(&f, 0x0800, 0x1234, 4);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check4(&f, 0, key4(IPPROTO_ICMP, 0, 0)));
	/* options: the ports are after IHL words */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 7, 0, 0, IPPROTO_UDP);
	tf_ports(&f, 53, 5353, 4);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check4(&f, 0, key4(IPPROTO_UDP, 53, 5353)));
	return TEST_SUCCESS;
}

static int
test_parse_ipv4_l4_cut(void)
{
	struct tframe f;
	uint32_t l3;

	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 0, 0, IPPROTO_UDP);
	tf_ports(&f, 1000, 2000, 0);
	tf_ipv4_fix_len(&f, l3);
	/* exactly the 4 port bytes, then 3 of them */
	CHECK(check4(&f, 0, key4(IPPROTO_UDP, 1000, 2000)));
	f.len--;
	tf_ipv4_fix_len(&f, l3);
	CHECK(check4(&f, 0, key4(IPPROTO_UDP, 0, 0)));
	/* the port bytes are Ethernet padding past the total length */
	f.len = l3 + 20;
	tf_ipv4_fix_len(&f, l3);
	tf_ports(&f, 1000, 2000, 22);
	CHECK(check4(&f, 0, key4(IPPROTO_UDP, 0, 0)));
	return TEST_SUCCESS;
}

static int
test_parse_ipv4_malformed(void)
{
	struct tframe f;
	uint32_t l3;

	/* version 6 behind the IPv4 ethertype */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 6, 5, 0, 0, IPPROTO_UDP);
	tf_ports(&f, 1, 2, 4);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check_other(&f, f.len));
	/* IHL below 5 */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 4, 0, 0, IPPROTO_UDP);
	tf_ports(&f, 1, 2, 8);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check_other(&f, f.len));
	/* IHL past the end of the frame */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 0, 0, IPPROTO_UDP);
	f.b[l3] = 0x4f;
	tf_ports(&f, 1, 2, 4);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check_other(&f, f.len));
	/* total length shorter than the header */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 19, 0, IPPROTO_UDP);
	tf_ports(&f, 1, 2, 4);
	CHECK(check_other(&f, f.len));
	/* header cut: 19 of its 20 bytes */
	CHECK(check_other(&f, l3 + 19));
	return TEST_SUCCESS;
}

static int
test_parse_ipv4_fragments(void)
{
	struct tframe f;
	uint32_t l3;

	/* first fragment (more fragments, offset 0): ports */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 0, 0x2000, IPPROTO_UDP);
	tf_ports(&f, 7000, 7001, 28);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check4(&f, 0, key4(IPPROTO_UDP, 7000, 7001)));
	/* later fragments: no ports, protocol kept */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 0, 0x2004, IPPROTO_UDP);
	tf_ports(&f, 7000, 7001, 28);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check4(&f, 0, key4(IPPROTO_UDP, 0, 0)));
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 0, 0x0004, IPPROTO_TCP);
	tf_ports(&f, 7000, 7001, 28);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check4(&f, 0, key4(IPPROTO_TCP, 0, 0)));
	return TEST_SUCCESS;
}

static int
test_parse_vlan(void)
{
	static const uint16_t one[] = { RTE_ETHER_TYPE_VLAN };
	static const uint16_t qinq[] = { RTE_ETHER_TYPE_QINQ, RTE_ETHER_TYPE_VLAN };
	static const uint16_t two8100[] = { RTE_ETHER_TYPE_VLAN, RTE_ETHER_TYPE_VLAN };
	static const uint16_t three[] = { RTE_ETHER_TYPE_QINQ, RTE_ETHER_TYPE_VLAN,
					  RTE_ETHER_TYPE_VLAN };
	struct tframe f;
	uint32_t l3;

	tf_eth(&f, one, 1, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 0, 0, IPPROTO_TCP);
	tf_ports(&f, 1, 2, 16);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check4(&f, 1, key4(IPPROTO_TCP, 1, 2)));

	tf_eth(&f, qinq, 2, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_UDP);
	tf_ports(&f, 3, 4, 4);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 2, key6(IPPROTO_UDP, 3, 4)));

	tf_eth(&f, two8100, 2, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 0, 0, IPPROTO_UDP);
	tf_ports(&f, 5, 6, 4);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check4(&f, 2, key4(IPPROTO_UDP, 5, 6)));

	/* a third tag is not skipped: not a flow */
	tf_eth(&f, three, 3, RTE_ETHER_TYPE_IPV4);
	l3 = tf_ipv4(&f, 4, 5, 0, 0, IPPROTO_UDP);
	tf_ports(&f, 5, 6, 4);
	tf_ipv4_fix_len(&f, l3);
	CHECK(check_other(&f, f.len));

	/* tag cut */
	tf_eth(&f, qinq, 2, RTE_ETHER_TYPE_IPV4);
	CHECK(check_other(&f, 14 + 3));
	CHECK(check_other(&f, 14 + 4 + 3));
	return TEST_SUCCESS;
}

static int
test_parse_ipv6(void)
{
	struct tframe f;
	uint32_t l3;

	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_TCP);
	tf_ports(&f, 40000, 443, 16);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_TCP, 40000, 443)));
	/* L4 cut to 3 bytes: no ports */
	f.len = l3 + 43;
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_TCP, 0, 0)));
	/* the same, the frame going on past the payload length (padding) */
	f.len = l3 + 60;
	CHECK(check6(&f, 0, key6(IPPROTO_TCP, 0, 0)));
	/* payload length 0 (jumbogram): the frame length bounds the parse */
	f.b[l3 + 4] = 0;
	f.b[l3 + 5] = 0;
	CHECK(check6(&f, 0, key6(IPPROTO_TCP, 40000, 443)));
	/* ICMPv6 */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_ICMPV6);
	tf_ports(&f, 0x8000, 1, 4);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_ICMPV6, 0, 0)));
	return TEST_SUCCESS;
}

static int
test_parse_ipv6_malformed(void)
{
	struct tframe f;
	uint32_t l3;

	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 4, 0, IPPROTO_UDP);
	tf_ports(&f, 1, 2, 4);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check_other(&f, f.len));
	/* fixed header cut */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 8, IPPROTO_UDP);
	CHECK(check_other(&f, l3 + 39));
	return TEST_SUCCESS;
}

static int
test_parse_ipv6_ext(void)
{
	struct tframe f;
	uint32_t l3;

	/* hop-by-hop, routing, destination options, then UDP */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_HOPOPTS);
	tf_ext(&f, IPPROTO_ROUTING, 1);
	tf_ext(&f, IPPROTO_DSTOPTS, 3);
	tf_ext(&f, IPPROTO_UDP, 2);
	tf_ports(&f, 5353, 53, 4);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_UDP, 5353, 53)));
	/* AH (RFC 4302 length), then TCP */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_AH);
	tf_ah(&f, IPPROTO_TCP, 6);
	tf_ports(&f, 42000, 22, 16);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_TCP, 42000, 22)));
	/* SCTP after hop-by-hop */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_HOPOPTS);
	tf_ext(&f, IPPROTO_SCTP, 1);
	tf_ports(&f, 9000, 9001, 8);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_SCTP, 9000, 9001)));
	return TEST_SUCCESS;
}

static int
test_parse_ipv6_ext_end(void)
{
	struct tframe f;
	uint32_t l3;

	/* ESP: the walk stops, nothing after it is readable */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_HOPOPTS);
	tf_ext(&f, IPPROTO_ESP, 1);
	tf_ports(&f, 1, 2, 16);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_ESP, 0, 0)));
	/* no next header */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_DSTOPTS);
	tf_ext(&f, IPPROTO_NONE, 1);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_NONE, 0, 0)));
	return TEST_SUCCESS;
}

static int
test_parse_ipv6_fragments(void)
{
	struct tframe f;
	uint32_t l3;

	/* first fragment: offset 0, more fragments; ports */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_FRAGMENT);
	tf_frag6(&f, IPPROTO_UDP, 0, 1);
	tf_ports(&f, 6000, 6001, 20);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_UDP, 6000, 6001)));
	/* later fragment after destination options: no ports, protocol kept */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_DSTOPTS);
	tf_ext(&f, IPPROTO_FRAGMENT, 1);
	tf_frag6(&f, IPPROTO_TCP, 1480, 0);
	tf_ports(&f, 6000, 6001, 20);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_TCP, 0, 0)));
	return TEST_SUCCESS;
}

static int
test_parse_ipv6_ext_limit(void)
{
	struct tframe f;
	uint32_t l3;
	unsigned int i;

	/* FLOWPMD_PARSE_MAX_EXT_HDRS headers are followed */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_DSTOPTS);
	for (i = 1; i < FLOWPMD_PARSE_MAX_EXT_HDRS; i++)
		tf_ext(&f, IPPROTO_DSTOPTS, 1);
	tf_ext(&f, IPPROTO_UDP, 1);
	tf_ports(&f, 7002, 7003, 4);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_UDP, 7002, 7003)));
	/* one more: the walk stops at it */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_HOPOPTS);
	for (i = 0; i < FLOWPMD_PARSE_MAX_EXT_HDRS; i++)
		tf_ext(&f, i + 1 < FLOWPMD_PARSE_MAX_EXT_HDRS ? IPPROTO_HOPOPTS :
		       IPPROTO_ROUTING, 1);
	tf_ext(&f, IPPROTO_UDP, 1);
	tf_ports(&f, 7000, 7001, 4);
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_ROUTING, 0, 0)));
	return TEST_SUCCESS;
}

static int
test_parse_ipv6_ext_cut(void)
{
	struct tframe f;
	uint32_t l3, full;

	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_HOPOPTS);
	tf_ext(&f, IPPROTO_ROUTING, 1);
	tf_ext(&f, IPPROTO_UDP, 8);
	tf_ports(&f, 1, 2, 4);
	full = f.len;
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_UDP, 1, 2)));
	/* the routing header (64 bytes) cut by the frame end */
	f.len = l3 + 40 + 8 + 63;
	CHECK(check6(&f, 0, key6(IPPROTO_ROUTING, 0, 0)));
	/* ... by fewer than the 8 bytes any extension header has */
	f.len = l3 + 40 + 8 + 7;
	CHECK(check6(&f, 0, key6(IPPROTO_ROUTING, 0, 0)));
	/* ... by the payload length, the frame being long enough */
	f.len = full;
	f.b[l3 + 4] = 0;
	f.b[l3 + 5] = 8 + 32;
	CHECK(check6(&f, 0, key6(IPPROTO_ROUTING, 0, 0)));
	/* AH cut */
	tf_eth(&f, NULL, 0, RTE_ETHER_TYPE_IPV6);
	l3 = tf_ipv6(&f, 6, 0, IPPROTO_AH);
	tf_ah(&f, IPPROTO_TCP, 6);
	f.len -= 4;
	tf_ipv6_fix_len(&f, l3);
	CHECK(check6(&f, 0, key6(IPPROTO_AH, 0, 0)));
	return TEST_SUCCESS;
}

static struct unit_test_suite flowpmd_parse_suite = {
	.suite_name = "dpdk-flowpmd frame parser",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE(test_parse_non_ip),
		TEST_CASE(test_parse_ipv4_l4),
		TEST_CASE(test_parse_ipv4_l4_cut),
		TEST_CASE(test_parse_ipv4_malformed),
		TEST_CASE(test_parse_ipv4_fragments),
		TEST_CASE(test_parse_vlan),
		TEST_CASE(test_parse_ipv6),
		TEST_CASE(test_parse_ipv6_malformed),
		TEST_CASE(test_parse_ipv6_ext),
		TEST_CASE(test_parse_ipv6_ext_end),
		TEST_CASE(test_parse_ipv6_fragments),
		TEST_CASE(test_parse_ipv6_ext_limit),
		TEST_CASE(test_parse_ipv6_ext_cut),
		TEST_CASES_END()
	}
};

static int
test_flowpmd_parse(void)
{
	return unit_test_suite_runner(&flowpmd_parse_suite);
}

REGISTER_TEST_COMMAND(flowpmd_parse_autotest, test_flowpmd_parse);
