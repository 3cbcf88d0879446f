/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _FLOWGEN_PKT_H_
#define _FLOWGEN_PKT_H_

/*
 * Frames of a flow, from its 64 bits (flowgen_model.h): the bits are the host
 * parts of the addresses, the source port and the destination port's index
 * in a short list. Checksums are ones' complement sums, so each is the
 * template's precomputed sum (constant header words, payload) plus the sum
 * of the few varying words.
 */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_memcpy.h>

#include "flowgen_pvt.h"
#include "flowgen_rss.h"

/* frame offsets: Ethernet, then IPv4 (20 bytes) or IPv6 (40 bytes) */
#define FLOWGEN_L3_OFF		RTE_ETHER_HDR_LEN
#define FLOWGEN_IP4_CKSUM_OFF	(FLOWGEN_L3_OFF + 10)
#define FLOWGEN_IP4_ADDR_OFF	(FLOWGEN_L3_OFF + 12)
#define FLOWGEN_IP4_L4_OFF	(FLOWGEN_L3_OFF + 20)
#define FLOWGEN_IP6_ADDR_OFF	(FLOWGEN_L3_OFF + 8)
#define FLOWGEN_IP6_L4_OFF	(FLOWGEN_L3_OFF + 40)
/* IPv6: a flow's bits are the last 32 bits of each address */
#define FLOWGEN_IP6_SRC_TAIL_OFF	(FLOWGEN_IP6_ADDR_OFF + 12)
#define FLOWGEN_IP6_DST_TAIL_OFF	(FLOWGEN_IP6_ADDR_OFF + 16 + 12)

/* the population's address prefixes: /9 for IPv4, /64 for IPv6 */
#define FLOWGEN_HOST_BITS	23
#define FLOWGEN_HOST_MASK	((UINT32_C(1) << FLOWGEN_HOST_BITS) - 1)
#define FLOWGEN_SRC4_NET	RTE_IPV4(10, 0, 0, 0)
#define FLOWGEN_DST4_NET	RTE_IPV4(10, 128, 0, 0)

/* The varying fields of a flow, decoded from its 64 bits; host order. */
struct flowgen_fields {
	uint32_t src;		/* host part of the source address */
	uint32_t dst;		/* host part of the destination address */
	uint16_t sport;
	uint16_t dport;
};

/* A flow's full addresses and ports, for rte_softrss() and em_rules. */
struct flowgen_tuple {
	uint32_t src4, dst4;	/* host order */
	uint8_t src6[16], dst6[16];
	uint16_t sport, dport;	/* host order */
};

/* Destination ports of the population: a flow's top 3 bits pick one. */
static const uint16_t flowgen_dports[8] = {
	53, 80, 123, 443, 993, 5060, 8080, 8443,
};

/*
 * The 64 bits of a flow are split over source (23 bits), destination (23),
 * source port (15) and destination port (3): the mapping is injective, so
 * every flow id gives a distinct 5-tuple.
 */
static inline void
flowgen_fields_get(uint64_t v, struct flowgen_fields *f)
{
	f->src = v & FLOWGEN_HOST_MASK;
	f->dst = (v >> FLOWGEN_HOST_BITS) & FLOWGEN_HOST_MASK;
	f->sport = 0x8000 | ((v >> 46) & 0x7fff);
	f->dport = flowgen_dports[v >> 61];
}

/* proto=mix gives each flow one of both, from bits independent of its tuple. */
static inline enum flowgen_tmpl_idx
flowgen_flow_tmpl(uint8_t proto, uint64_t v)
{
	if (proto == FLOWGEN_PROTO_MIX)
		return flowgen_mix64(v) & 1 ? FLOWGEN_TMPL_TCP : FLOWGEN_TMPL_UDP;
	return proto == FLOWGEN_PROTO_TCP ? FLOWGEN_TMPL_TCP : FLOWGEN_TMPL_UDP;
}

/*
 * checksums: ones' complement sums of 16-bit words. The sum does not depend
 * on byte order (RFC 1071), so the template's sums are kept in host order
 * and a flow adds its host-order fields without swapping them first.
 */

/* Fold a 32-bit sum to 16 bits: twice is enough (the first leaves < 0x1ffff). */
static inline uint16_t
flowgen_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* Sum of the two 16-bit words of a 32-bit value. */
static inline uint32_t
flowgen_sum32(uint32_t x)
{
	return (x & 0xffff) + (x >> 16);
}

/* A checksum field from a host-order sum. */
static inline rte_be16_t
flowgen_cksum(uint32_t sum)
{
	return rte_cpu_to_be_16((uint16_t)~flowgen_fold(sum));
}

/*
 * L4 checksum field from the sum of the words a flow adds to the template:
 * the host parts of the addresses (their bits are clear in the prefixes, so
 * the words add up) and the ports (zero in the template). UDP sends a
 * computed 0 as 0xffff (0 means "none").
 */
static inline rte_be16_t
flowgen_l4_cksum(const struct flowgen_tmpl *t, uint32_t var_sum)
{
	rte_be16_t ck = flowgen_cksum(t->l4_sum + var_sum);

	if (ck == 0 && t->udp)
		ck = 0xffff;
	return ck;
}

void flowgen_frame_copy_any(uint8_t *p, const struct flowgen_tmpl *t, uint16_t len);

static inline uint8_t *
flowgen_frame_copy(const struct flowgen_rxq *q, struct rte_mbuf *m,
		const struct flowgen_tmpl *t)
{
	uint8_t *p = (uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM;

	if (likely(q->pkt_size == 64))
		rte_mov64(p, t->frame);
	else
		flowgen_frame_copy_any(p, t, q->pkt_size);
	return p;
}

/* The 8 bytes at an mbuf's rearm_data marker (via uintptr_t: the marker is a 0-length array). */
static inline uint64_t *
flowgen_rearm_word(struct rte_mbuf *m)
{
	return (uint64_t *)(uintptr_t)&m->rearm_data;
}

/*
 * The mbuf fields a NIC's RX path fills; the pool keeps next NULL. The
 * first four (data_off, refcnt, nb_segs, port) are one 8-byte store.
 */
static inline void
flowgen_mbuf_fill(const struct flowgen_rxq *q, struct rte_mbuf *m, uint32_t ptype,
		uint32_t rss)
{
	*flowgen_rearm_word(m) = q->mbuf_rearm;
	m->ol_flags = q->ol_flags;
	m->packet_type = ptype;
	m->pkt_len = q->pkt_size;
	m->data_len = q->pkt_size;
	m->hash.rss = rss;
}

/* IPv4: the addresses and the header checksum, the rest of the frame is shared. */
static inline void
flowgen_addrs4(uint8_t *p, const struct flowgen_tmpl *t, const struct flowgen_fields *f,
		uint32_t addr_sum)
{
	rte_be64_t addrs = rte_cpu_to_be_64((uint64_t)(FLOWGEN_SRC4_NET | f->src) << 32 |
		(FLOWGEN_DST4_NET | f->dst));
	rte_be16_t ip_ck = flowgen_cksum(t->ip_sum + addr_sum);

	memcpy(p + FLOWGEN_IP4_ADDR_OFF, &addrs, sizeof(addrs));
	memcpy(p + FLOWGEN_IP4_CKSUM_OFF, &ip_ck, sizeof(ip_ck));
}

/* IPv6: the address tails (the template holds the /64 prefixes); no header checksum. */
static inline void
flowgen_addrs6(uint8_t *p, const struct flowgen_fields *f)
{
	rte_be32_t src = rte_cpu_to_be_32(f->src);
	rte_be32_t dst = rte_cpu_to_be_32(f->dst);

	memcpy(p + FLOWGEN_IP6_SRC_TAIL_OFF, &src, sizeof(src));
	memcpy(p + FLOWGEN_IP6_DST_TAIL_OFF, &dst, sizeof(dst));
}

/*
 * The frame of flow v in mbuf m, as queue q generates it: template, then
 * addresses, ports and checksums. ipv6 is a constant in each burst function,
 * so each gets a builder of its own family.
 */
static inline void
flowgen_build(const struct flowgen_rxq *q, struct rte_mbuf *m, uint64_t v, int ipv6)
{
	const struct flowgen_tmpl *t = &q->tmpl[flowgen_flow_tmpl(q->proto, v)];
	struct flowgen_fields f;
	rte_be32_t ports;
	rte_be16_t l4_ck;
	uint32_t addr_sum;
	uint8_t *p;

	flowgen_fields_get(v, &f);
	addr_sum = flowgen_sum32(f.src) + flowgen_sum32(f.dst);
	l4_ck = flowgen_l4_cksum(t, addr_sum + f.sport + f.dport);
	/* source and destination port as they lie in the frame, one 32-bit store */
	ports = rte_cpu_to_be_32((uint32_t)f.sport << 16 | f.dport);

	p = flowgen_frame_copy(q, m, t);
	if (ipv6)
		flowgen_addrs6(p, &f);
	else
		flowgen_addrs4(p, t, &f, addr_sum);
	memcpy(p + (ipv6 ? FLOWGEN_IP6_L4_OFF : FLOWGEN_IP4_L4_OFF), &ports, sizeof(ports));
	memcpy(p + t->l4_cksum_off, &l4_ck, sizeof(l4_ck));
	flowgen_mbuf_fill(q, m, t->ptype, q->rss_hash ? flowgen_rss(q->rss_tab, v) : 0);
}

void flowgen_tuple_make(unsigned int ipv6, uint64_t v, struct flowgen_tuple *t);
int flowgen_pkt_size(const struct flowgen_options *o, uint16_t *size);
void flowgen_tmpl_init(struct pmd_internals *pi, enum flowgen_tmpl_idx ti);
uint64_t flowgen_mbuf_rearm(uint16_t port_id);

#endif /* _FLOWGEN_PKT_H_ */
