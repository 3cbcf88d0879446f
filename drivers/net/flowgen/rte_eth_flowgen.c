/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * net_flowgen: a virtual PMD whose RX queues generate traffic from a flow
 * population and whose TX queues count and free what they are given.
 *
 * A packet's cost must not depend on the number of flows (the generator is
 * charged to the application it feeds, at up to 64M flows), so no per-flow
 * record is read: a flow is a number, and its header fields are computed
 * from it on the fly.
 *  - Flow id -> 64 bits by a bijective mix (distinct ids, distinct tuples);
 *    the bits are the host parts of the addresses, the source port and the
 *    destination port's index in a short list.
 *  - The RSS (Toeplitz) hash is linear over GF(2) in the input bits, so it is
 *    the XOR of one precomputed table entry per byte of those 64 bits.
 *  - Checksums are ones' complement sums, so each is the template's
 *    precomputed sum (constant header words, payload) plus the sum of the
 *    few varying words.
 *  - Each queue owns slots, one flow per slot. Slot s of queue q holds flow
 *    id s * nb_queues + q + g * lines in its generation g; a new flow (churn)
 *    is the next generation of a slot. With several queues a slot skips the
 *    generations whose RSS hash lands on another queue, so the queue keeps a
 *    table of generations. One queue keeps none: without churn every slot is
 *    in generation 0, and with churn the slots are renewed in the order of a
 *    fixed permutation, so a slot's generation is computed from the number
 *    of renewals so far. Either way no per-flow memory is read.
 *  - Popularity picks a slot: uniformly (one random number, a multiply-high
 *    reduction), or by zipf rank with an alias table (rank = slot).
 * Table entries (alias, generation) are random reads: they are prefetched a
 * burst ahead of use.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <rte_common.h>
#include <rte_byteorder.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memcpy.h>
#include <rte_prefetch.h>
#include <rte_kvargs.h>
#include <rte_mbuf.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_udp.h>
#include <rte_tcp.h>
#include <rte_thash.h>
#include <ethdev_driver.h>
#include <ethdev_vdev.h>
#include <bus_vdev_driver.h>

#include "flowgen_compat.h"
#include "rte_eth_flowgen.h"

#define FLOWGEN_ARG_FLOWS		"flows"
#define FLOWGEN_ARG_DIST		"dist"
#define FLOWGEN_ARG_NEW_FLOW_RATE	"new_flow_rate"
#define FLOWGEN_ARG_IPV6		"ipv6"
#define FLOWGEN_ARG_PROTO		"proto"
#define FLOWGEN_ARG_PKT_SIZE		"pkt_size"
#define FLOWGEN_ARG_SEED		"seed"
#define FLOWGEN_ARG_QUEUES		"queues"
#define FLOWGEN_ARG_EM_RULES		"em_rules"
#define FLOWGEN_ARG_PCAP		"pcap"

static const char * const valid_arguments[] = {
	FLOWGEN_ARG_FLOWS,
	FLOWGEN_ARG_DIST,
	FLOWGEN_ARG_NEW_FLOW_RATE,
	FLOWGEN_ARG_IPV6,
	FLOWGEN_ARG_PROTO,
	FLOWGEN_ARG_PKT_SIZE,
	FLOWGEN_ARG_SEED,
	FLOWGEN_ARG_QUEUES,
	FLOWGEN_ARG_EM_RULES,
	FLOWGEN_ARG_PCAP,
	NULL
};

#define FLOWGEN_FLOWS_DEFAULT	1024
#define FLOWGEN_QUEUES_MAX	64
#define FLOWGEN_ZIPF_S_MAX	10.0
/* packets generated per pass of the burst loop (sizes the on-stack arrays) */
#define FLOWGEN_CHUNK		32
/*
 * Slot choices made (and their table entries prefetched) ahead of use, at
 * least FLOWGEN_CHUNK: one burst ahead already covers DRAM latency.
 */
#define FLOWGEN_AHEAD		32

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

static const uint8_t flowgen_src6_net[16] = { 0xfd };
static const uint8_t flowgen_dst6_net[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 1 };

/* one RSS table per byte of a flow's 64 bits */
#define FLOWGEN_RSS_TABS	8

RTE_LOG_REGISTER_DEFAULT(flowgen_logtype, NOTICE);

#define FLOWGEN_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, flowgen_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

enum flowgen_proto {
	FLOWGEN_PROTO_UDP,
	FLOWGEN_PROTO_TCP,
	FLOWGEN_PROTO_MIX,
};

/* index of a template in pmd_internals.tmpl */
enum flowgen_tmpl_idx {
	FLOWGEN_TMPL_UDP,
	FLOWGEN_TMPL_TCP,
	FLOWGEN_TMPL_NUM,
};

struct flowgen_options {
	uint32_t flows;		/**< Flows in the population, all queues. */
	double zipf_s;		/**< Zipf exponent, 0 for uniform. */
	double new_flow_rate;	/**< Share of packets starting a new flow. */
	unsigned int ipv6;	/**< 1: IPv6 frames. */
	enum flowgen_proto proto; /**< L4 protocol(s). */
	unsigned int pkt_size;	/**< Frame length, 0 for the default. */
	uint64_t seed;		/**< Population and sampling seed. */
	unsigned int queues;	/**< RX and TX queues offered. */
	char em_rules[PATH_MAX]; /**< l3fwd EM rule file written at start; "": none. */
	char pcap[PATH_MAX];	/**< Capture of the population written at start; "": none. */
};

/*
 * One frame layout per L4 protocol. The frame holds the address prefixes;
 * ports and checksums are zero. Sums are folded to 16 bits, in host order.
 */
struct flowgen_tmpl {
	uint32_t ptype;		/* mbuf packet_type */
	uint32_t ip_sum;	/* IPv4 header */
	uint32_t l4_sum;	/* pseudo-header (address prefixes, protocol,
				 * length), L4 header, payload
				 */
	uint16_t l4_cksum_off;	/* offset of the L4 checksum in the frame */
	uint8_t udp;		/* a computed 0 is sent as 0xffff (0: "none") */
	uint8_t frame[RTE_PMD_FLOWGEN_PKT_SIZE_MAX] __rte_cache_aligned;
};

/*
 * Alias table entry (Walker/Vose): slot k is drawn uniformly, then kept when
 * a 32-bit random number is below thresh, else replaced by alias.
 */
struct flowgen_alias {
	uint32_t thresh;
	uint32_t alias;
};

/* The varying fields of a flow, decoded from its 64 bits; host order. */
struct flowgen_fields {
	uint32_t src;		/* host part of the source address */
	uint32_t dst;		/* host part of the destination address */
	uint16_t sport;
	uint16_t dport;
};

/* A flow's full addresses and ports, for rte_softrss() at setup. */
struct flowgen_tuple {
	uint32_t src4, dst4;	/* host order */
	uint8_t src6[16], dst6[16];
	uint16_t sport, dport;	/* host order */
};

struct pmd_internals;

struct flowgen_rxq {
	/* read on every burst */
	struct rte_mempool *mp;
	const struct flowgen_tmpl *tmpl;	/* [FLOWGEN_TMPL_NUM] */
	const uint32_t (*rss_tab)[256];		/* the port's [FLOWGEN_RSS_TABS] */
	uint32_t *gen;			/* slot -> generation; NULL: one queue */
	struct flowgen_alias *alias;	/* NULL: uniform popularity */
	uint32_t nb_flows;		/* slots */
	uint16_t pkt_size;
	uint16_t port_id;
	uint64_t ol_flags;
	uint64_t mbuf_rearm;		/* data_off, refcnt, nb_segs and port of an mbuf */
	uint64_t rng;			/* xorshift64* state, never 0 */
	uint64_t id_salt;		/* the seed's term, added to an id before mixing */
	uint64_t lines;			/* ids between two generations of a slot */
	uint16_t queue_id;
	uint16_t nb_queues;
	uint8_t proto;			/* enum flowgen_proto */
	bool rss_hash;			/* fill mbuf hash.rss */
	unsigned int ring_head;		/* next position of the pick ring */
	uint32_t ahead[FLOWGEN_AHEAD];	/* gen: chosen slots, entry prefetched */
	uint32_t pre_slot[FLOWGEN_AHEAD]; /* zipf: drawn slots, alias entry prefetched */
	uint32_t pre_hi[FLOWGEN_AHEAD];	/* zipf: their alias decision bits */
	uint64_t churn_left;		/* packets of this chunk before the next new flow */
	uint64_t sweep;			/* one queue, churn: sweep positions passed */
	uint64_t sweep_mul;		/* position -> slot, odd */
	uint64_t sweep_inv;		/* slot -> position: sweep_mul's inverse */
	uint64_t sweep_mask;		/* positions: a power of two >= nb_flows */
	unsigned int sweep_bits;	/* log2(sweep_mask + 1) */
	double churn_inv_log;		/* 1 / ln(1 - new_flow_rate), gap sampling */
	int churn;			/* new_flow_rate > 0 */
	/* written on every burst, read by stats_get */
	uint64_t pkts;
	uint64_t bytes;
	uint64_t pkts_base;		/* stats_reset snapshot */
	uint64_t bytes_base;
	/* slow path */
	uint64_t *alloc_failed;		/* the port's rx_mbuf_alloc_failed */
	const struct pmd_internals *pi;
};

struct flowgen_txq {
	uint64_t pkts;
	uint64_t bytes;
	uint64_t pkts_base;
	uint64_t bytes_base;
	bool fast_free;			/* RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE */
};

struct pmd_internals {
	struct flowgen_options opt;
	uint16_t pkt_size;
	struct rte_ether_addr mac;
	uint8_t rss_key[RTE_PMD_FLOWGEN_RSS_KEY_LEN];
	/* RSS hash of a flow: XOR over its bytes j of rss_tab[j][byte] */
	uint32_t rss_tab[FLOWGEN_RSS_TABS][256] __rte_cache_aligned;
	struct flowgen_tmpl tmpl[FLOWGEN_TMPL_NUM];
};

static const struct rte_eth_link flowgen_link_down = {
	.link_speed = RTE_ETH_SPEED_NUM_10G,
	.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
	.link_status = RTE_ETH_LINK_DOWN,
	.link_autoneg = RTE_ETH_LINK_FIXED,
};

/* The symmetric Toeplitz key (0x6d5a repeated): both directions hash alike. */
static void
flowgen_rss_key_init(uint8_t *key)
{
	unsigned int i;

	for (i = 0; i < RTE_PMD_FLOWGEN_RSS_KEY_LEN; i += 2) {
		key[i] = 0x6d;
		key[i + 1] = 0x5a;
	}
}

#define FLOWGEN_RSS_OFFLOADS \
	(RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
	 RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_NONFRAG_IPV6_TCP)

/* ---------------------------------------------------------------------- */
/* random numbers and flows */

/* splitmix64 finaliser: a bijection of 64-bit values, so distinct ids stay distinct. */
static inline uint64_t
flowgen_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* xorshift64*: one multiply and three shifts per 64 random bits. */
static inline uint64_t
flowgen_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Uniform value below n from 32 random bits (multiply-shift, no division). */
static inline uint32_t
flowgen_below(uint32_t r, uint32_t n)
{
	return (uint32_t)(((uint64_t)r * n) >> 32);
}

/* The seed's term of a flow's mix: each seed gives another population. */
static uint64_t
flowgen_id_salt(uint64_t seed)
{
	return seed * 0x9e3779b97f4a7c15ULL;
}

/* A flow's 64 bits, from which its header fields are taken. */
static inline uint64_t
flowgen_flow_bits(uint64_t id, uint64_t salt)
{
	return flowgen_mix64(id + salt);
}

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

/* A flow's full addresses and ports, as an RSS input. */
static void
flowgen_tuple_make(unsigned int ipv6, uint64_t v, struct flowgen_tuple *t)
{
	struct flowgen_fields f;
	rte_be32_t src, dst;

	flowgen_fields_get(v, &f);
	t->sport = f.sport;
	t->dport = f.dport;
	t->src4 = FLOWGEN_SRC4_NET | f.src;
	t->dst4 = FLOWGEN_DST4_NET | f.dst;
	if (!ipv6)
		return;
	memcpy(t->src6, flowgen_src6_net, sizeof(t->src6));
	memcpy(t->dst6, flowgen_dst6_net, sizeof(t->dst6));
	src = rte_cpu_to_be_32(f.src);
	dst = rte_cpu_to_be_32(f.dst);
	memcpy(&t->src6[12], &src, sizeof(src));
	memcpy(&t->dst6[12], &dst, sizeof(dst));
}

/* Toeplitz hash of (src, dst, sport, dport), as a NIC's RSS computes it. */
static uint32_t
flowgen_tuple_rss(const struct pmd_internals *pi, const struct flowgen_tuple *t)
{
	union rte_thash_tuple tt;
	struct rte_ipv6_hdr ip6;

	memset(&tt, 0, sizeof(tt));
	if (!pi->opt.ipv6) {
		tt.v4.src_addr = t->src4;
		tt.v4.dst_addr = t->dst4;
		tt.v4.sport = t->sport;
		tt.v4.dport = t->dport;
		return rte_softrss((uint32_t *)&tt, RTE_THASH_V4_L4_LEN, pi->rss_key);
	}
	memcpy(&ip6.src_addr, t->src6, sizeof(ip6.src_addr));
	memcpy(&ip6.dst_addr, t->dst6, sizeof(ip6.dst_addr));
	rte_thash_load_v6_addrs(&ip6, &tt);
	tt.v6.sport = t->sport;
	tt.v6.dport = t->dport;
	return rte_softrss((uint32_t *)&tt, RTE_THASH_V6_L4_LEN, pi->rss_key);
}

static uint32_t
flowgen_bits_rss_slow(const struct pmd_internals *pi, uint64_t v)
{
	struct flowgen_tuple t;

	flowgen_tuple_make(pi->opt.ipv6, v, &t);
	return flowgen_tuple_rss(pi, &t);
}

/*
 * Toeplitz is an XOR of key windows, one per input bit set: linear over
 * GF(2). A tuple is constants XOR the image of the flow's bits 0..60 (each
 * lands on one address or port bit) XOR the destination port chosen by bits
 * 61..63. So the hash is the XOR of a table entry per byte: byte 7's table
 * holds the constants and the port list, the others their bits' share alone
 * (the hash of the byte alone, XOR that of the constants).
 */
static void
flowgen_rss_tab_init(struct pmd_internals *pi)
{
	uint32_t base = flowgen_bits_rss_slow(pi, 0);
	unsigned int j, b;

	for (j = 0; j < FLOWGEN_RSS_TABS; j++) {
		for (b = 0; b < 256; b++) {
			uint32_t h = flowgen_bits_rss_slow(pi, (uint64_t)b << (8 * j));

			pi->rss_tab[j][b] = j == FLOWGEN_RSS_TABS - 1 ? h : h ^ base;
		}
	}
}

/* A flow's RSS hash, equal to rte_softrss() of its tuple with the port's key. */
static inline uint32_t
flowgen_rss(const uint32_t (*tab)[256], uint64_t v)
{
	return tab[0][v & 0xff] ^ tab[1][(v >> 8) & 0xff] ^
		tab[2][(v >> 16) & 0xff] ^ tab[3][(v >> 24) & 0xff] ^
		tab[4][(v >> 32) & 0xff] ^ tab[5][(v >> 40) & 0xff] ^
		tab[6][(v >> 48) & 0xff] ^ tab[7][v >> 56];
}

/* The queue a NIC with the default redirection table would pick. */
static inline uint16_t
flowgen_rss_queue(uint32_t rss, uint16_t nb_queues)
{
	return (rss % RTE_PMD_FLOWGEN_RETA_SIZE) % nb_queues;
}

/*
 * Flow id of a slot in its generation: slot s of queue q owns the ids
 * s * nb_queues + q + g * lines, lines being nb_queues times the largest
 * share, so that no two slots of the port share an id.
 */
static inline uint64_t
flowgen_slot_id(const struct flowgen_rxq *q, uint32_t slot, uint32_t gen)
{
	return (uint64_t)slot * q->nb_queues + q->queue_id + gen * q->lines;
}

static inline uint64_t
flowgen_slot_bits(const struct flowgen_rxq *q, uint32_t slot, uint32_t gen)
{
	return flowgen_flow_bits(flowgen_slot_id(q, slot, gen), q->id_salt);
}

/*
 * The first generation, from gen on, whose flow RSS steers to this queue, so
 * that a queue generates only its own flows. With one queue, gen itself.
 */
static uint32_t
flowgen_gen_find(const struct flowgen_rxq *q, uint32_t slot, uint32_t gen)
{
	while (flowgen_rss_queue(flowgen_rss(q->rss_tab, flowgen_slot_bits(q, slot, gen)),
			q->nb_queues) != q->queue_id)
		gen++;
	return gen;
}

/* ---------------------------------------------------------------------- */
/*
 * checksums: ones' complement sums of 16-bit words. The sum does not depend
 * on byte order (RFC 1071), so the template's sums are kept in host order
 * and a flow adds its host-order fields without swapping them first.
 */

/* Sum of the 16-bit words of a buffer, loaded as they lie in memory. */
static uint32_t
flowgen_sum16(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t sum = 0;
	uint16_t w;

	for (; len >= 2; len -= 2, p += 2) {
		memcpy(&w, p, sizeof(w));
		sum += w;
	}
	if (len != 0) {
		uint8_t last[2] = { p[0], 0 };

		memcpy(&w, last, sizeof(w));
		sum += w;
	}
	return sum;
}

/* Fold a 32-bit sum to 16 bits: twice is enough (the first leaves < 0x1ffff). */
static inline uint16_t
flowgen_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* A sum of words loaded from memory, folded and in host order. */
static uint32_t
flowgen_sum_host(uint32_t mem_sum)
{
	return rte_be_to_cpu_16(flowgen_fold(mem_sum));
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

/* ---------------------------------------------------------------------- */
/* population */

/* Build the alias table of a zipf(s) popularity over ranks 0..n-1 (Vose). */
static int
flowgen_alias_build(struct flowgen_alias *tab, uint32_t n, double s)
{
	double *p = malloc(sizeof(*p) * n);
	uint32_t *small = malloc(sizeof(*small) * n);
	uint32_t *large = malloc(sizeof(*large) * n);
	uint32_t k, ns = 0, nl = 0;
	double sum = 0.0;

	if (p == NULL || small == NULL || large == NULL) {
		free(p);
		free(small);
		free(large);
		return -ENOMEM;
	}
	for (k = 0; k < n; k++) {
		p[k] = pow((double)k + 1.0, -s);
		sum += p[k];
	}
	/* scale so that the mean is 1: a slot keeps its own mass p, lends 1 - p */
	for (k = 0; k < n; k++) {
		p[k] = p[k] * n / sum;
		if (p[k] < 1.0)
			small[ns++] = k;
		else
			large[nl++] = k;
	}
	while (ns > 0 && nl > 0) {
		uint32_t l = small[--ns];
		uint32_t g = large[nl - 1];

		tab[l].thresh = (uint32_t)(p[l] * 4294967296.0);
		tab[l].alias = g;
		p[g] -= 1.0 - p[l];
		if (p[g] < 1.0) {
			nl--;
			small[ns++] = g;
		}
	}
	/* what is left has mass 1 up to rounding: always keep the slot */
	while (nl > 0) {
		k = large[--nl];
		tab[k].thresh = UINT32_MAX;
		tab[k].alias = k;
	}
	while (ns > 0) {
		k = small[--ns];
		tab[k].thresh = UINT32_MAX;
		tab[k].alias = k;
	}
	free(p);
	free(small);
	free(large);
	return 0;
}

static void
flowgen_rxq_free(struct flowgen_rxq *q)
{
	if (q == NULL)
		return;
	rte_free(q->gen);
	rte_free(q->alias);
	rte_free(q);
}

/*
 * A generation table is needed with several queues: generation 0 of a slot
 * may hash to another queue, and so may the next one of a renewed slot.
 */
static int
flowgen_gen_create(struct flowgen_rxq *q, int socket_id)
{
	uint32_t s;

	if (q->nb_queues == 1)
		return 0;
	q->gen = rte_malloc_socket("flowgen_gen", sizeof(*q->gen) * q->nb_flows,
			RTE_CACHE_LINE_SIZE, socket_id);
	if (q->gen == NULL)
		return -ENOMEM;
	for (s = 0; s < q->nb_flows; s++)
		q->gen[s] = flowgen_gen_find(q, s, 0);
	return 0;
}

/* The queue's population: its slots' generations, and the alias table. */
static int
flowgen_population_create(struct flowgen_rxq *q, uint32_t nb_flows, int socket_id)
{
	const struct pmd_internals *pi = q->pi;
	int ret;

	q->nb_flows = nb_flows;
	if (nb_flows == 0)
		return 0;
	ret = flowgen_gen_create(q, socket_id);
	if (ret != 0 || pi->opt.zipf_s == 0.0)
		return ret;
	q->alias = rte_malloc_socket("flowgen_alias", sizeof(*q->alias) * nb_flows,
			RTE_CACHE_LINE_SIZE, socket_id);
	if (q->alias == NULL)
		return -ENOMEM;
	return flowgen_alias_build(q->alias, nb_flows, pi->opt.zipf_s);
}

/* Inverse of an odd number modulo 2^64 (Newton: each step doubles the good bits). */
static uint64_t
flowgen_odd_inverse(uint64_t a)
{
	uint64_t x = a;	/* right modulo 2^3 */
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

/*
 * One queue with churn renews its slots in a sweep: position p of the sweep
 * (over a power of two covering the slots) renews slot p * mul, modulo that
 * power of two, positions of no slot being skipped. Multiplying by an odd
 * number permutes the positions, and its inverse gives a slot's position
 * back, so a slot's generation is a function of the sweep's progress.
 */
static void
flowgen_sweep_init(struct flowgen_rxq *q)
{
	q->sweep_bits = 0;
	while ((UINT64_C(1) << q->sweep_bits) < q->nb_flows)
		q->sweep_bits++;
	q->sweep_mask = (UINT64_C(1) << q->sweep_bits) - 1;
	/* a seeded odd multiplier: each seed renews in another order */
	q->sweep_mul = flowgen_mix64(q->id_salt + 1) | 1;
	q->sweep_inv = flowgen_odd_inverse(q->sweep_mul);
	q->sweep = 0;
}

/* Packets until the next new flow: geometric with mean 1 / new_flow_rate. */
static uint64_t
flowgen_churn_gap(struct flowgen_rxq *q)
{
	double u = (double)(flowgen_rand(&q->rng) >> 11) * 0x1.0p-53;
	double gap = log1p(-u) * q->churn_inv_log;

	if (gap > (double)(UINT64_C(1) << 62))
		return UINT64_C(1) << 62;
	return 1 + (uint64_t)gap;
}

/* ---------------------------------------------------------------------- */
/* fast path */

/* Zipf: draw a slot and its alias decision bits; the entry is read a ring turn later. */
static inline void
flowgen_zipf_draw(struct flowgen_rxq *q, unsigned int pos)
{
	uint64_t r = flowgen_rand(&q->rng);

	q->pre_slot[pos] = flowgen_below((uint32_t)r, q->nb_flows);
	q->pre_hi[pos] = (uint32_t)(r >> 32);
	rte_prefetch0(&q->alias[q->pre_slot[pos]]);
}

/* Zipf: resolve the draw of a ring position, then draw anew there. */
static inline uint32_t
flowgen_zipf_next(struct flowgen_rxq *q, unsigned int pos)
{
	const struct flowgen_alias *a = &q->alias[q->pre_slot[pos]];
	uint32_t slot = q->pre_hi[pos] < a->thresh ? q->pre_slot[pos] : a->alias;

	flowgen_zipf_draw(q, pos);
	return slot;
}

/*
 * Choose the slot of each packet of a chunk. Table reads are pipelined over
 * bursts on a ring of positions: with zipf a position resolves the alias
 * entry it prefetched a turn ago; with a generation table it hands out the
 * slot it chose (and whose entry it prefetched) a turn ago.
 */
static inline void
flowgen_pick(struct flowgen_rxq *q, uint32_t *slot, unsigned int n)
{
	unsigned int i, pos;
	uint32_t s;

	for (i = 0; i < n; i++) {
		pos = (q->ring_head + i) % FLOWGEN_AHEAD;
		if (q->alias != NULL)
			s = flowgen_zipf_next(q, pos);
		else
			s = flowgen_below((uint32_t)flowgen_rand(&q->rng), q->nb_flows);
		if (q->gen == NULL) {
			slot[i] = s;
			continue;
		}
		slot[i] = q->ahead[pos];
		q->ahead[pos] = s;
		rte_prefetch0(&q->gen[s]);
	}
	q->ring_head = (q->ring_head + n) % FLOWGEN_AHEAD;
}

/* Fill the pick pipeline before the first burst. */
static void
flowgen_pick_init(struct flowgen_rxq *q)
{
	uint32_t unused[FLOWGEN_AHEAD];
	unsigned int pos;

	/* a chunk must not use a ring position twice */
	RTE_BUILD_BUG_ON(FLOWGEN_AHEAD < FLOWGEN_CHUNK);
	if (q->alias != NULL)
		for (pos = 0; pos < FLOWGEN_AHEAD; pos++)
			flowgen_zipf_draw(q, pos);
	/* one turn moves the draws into ahead[], the hand-outs are dropped */
	if (q->gen != NULL)
		flowgen_pick(q, unused, FLOWGEN_AHEAD);
}

/* One queue: the slot the sweep renews next, the sweep moving past it. */
static uint32_t
flowgen_sweep_next(struct flowgen_rxq *q)
{
	uint64_t s;

	do {
		s = (q->sweep++ * q->sweep_mul) & q->sweep_mask;
	} while (s >= q->nb_flows);
	return (uint32_t)s;
}

/*
 * One queue: a slot's generation is the number of sweeps completed, plus
 * one when the current sweep has passed the slot's position.
 */
static inline uint32_t
flowgen_sweep_gen(const struct flowgen_rxq *q, uint32_t slot)
{
	uint64_t pos = ((uint64_t)slot * q->sweep_inv) & q->sweep_mask;

	return (uint32_t)((q->sweep >> q->sweep_bits) + (pos < (q->sweep & q->sweep_mask)));
}

/*
 * Several queues: a uniformly chosen slot goes to its next generation of
 * this queue's own.
 */
static uint32_t
flowgen_renew_random(struct flowgen_rxq *q)
{
	uint32_t s = flowgen_below((uint32_t)flowgen_rand(&q->rng), q->nb_flows);

	q->gen[s] = flowgen_gen_find(q, s, q->gen[s] + 1);
	return s;
}

/*
 * New flows due in this chunk each take a slot to its next generation, and
 * the packet is the new flow's first.
 */
static inline void
flowgen_churn(struct flowgen_rxq *q, uint32_t *slot, unsigned int n)
{
	if (!q->churn)
		return;
	while (q->churn_left < n) {
		slot[q->churn_left] = q->gen != NULL ? flowgen_renew_random(q) :
			flowgen_sweep_next(q);
		q->churn_left += flowgen_churn_gap(q);
	}
	q->churn_left -= n;
}

/*
 * The generations of the chunk's slots, in a loop of their own. From a table
 * the loads are independent, so those the prefetch did not cover in time
 * overlap instead of each stalling a frame build (measured with 16M flows
 * and churn: 54 ns per packet when read in the build loop, 25 ns here). One
 * queue computes them: in dpdk-flowpmd with 1M flows and 1% churn the table
 * loads and their prefetches took 11% of the forwarding lcore, the flow
 * table's misses leaving them little room.
 */
static inline void
flowgen_gens(const struct flowgen_rxq *q, const uint32_t *slot, uint32_t *gen,
		unsigned int n)
{
	unsigned int i;

	if (q->gen != NULL) {
		for (i = 0; i < n; i++)
			gen[i] = q->gen[slot[i]];
	} else if (q->churn) {
		for (i = 0; i < n; i++)
			gen[i] = flowgen_sweep_gen(q, slot[i]);
	} else {
		memset(gen, 0, sizeof(*gen) * n);
	}
}

/* Frames other than 64 bytes: out of line, rte_memcpy is large. */
static void
flowgen_frame_copy_any(uint8_t *p, const struct flowgen_tmpl *t, uint16_t len)
{
	rte_memcpy(p, t->frame, len);
}

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

/* Source and destination port as they lie in the frame, one 32-bit store. */
static inline rte_be32_t
flowgen_ports_be(const struct flowgen_fields *f)
{
	return rte_cpu_to_be_32((uint32_t)f->sport << 16 | f->dport);
}

/* An IPv4 frame: template, then addresses, ports and both checksums. */
static inline void
flowgen_build4(const struct flowgen_rxq *q, struct rte_mbuf *m, uint64_t v)
{
	const struct flowgen_tmpl *t = &q->tmpl[flowgen_flow_tmpl(q->proto, v)];
	struct flowgen_fields f;
	rte_be16_t ip_ck, l4_ck;
	rte_be32_t ports;
	rte_be64_t addrs;
	uint32_t addr_sum;
	uint8_t *p;

	flowgen_fields_get(v, &f);
	addr_sum = flowgen_sum32(f.src) + flowgen_sum32(f.dst);
	ip_ck = flowgen_cksum(t->ip_sum + addr_sum);
	l4_ck = flowgen_l4_cksum(t, addr_sum + f.sport + f.dport);
	addrs = rte_cpu_to_be_64((uint64_t)(FLOWGEN_SRC4_NET | f.src) << 32 |
		(FLOWGEN_DST4_NET | f.dst));
	ports = flowgen_ports_be(&f);

	p = flowgen_frame_copy(q, m, t);
	memcpy(p + FLOWGEN_IP4_ADDR_OFF, &addrs, sizeof(addrs));
	memcpy(p + FLOWGEN_IP4_L4_OFF, &ports, sizeof(ports));
	memcpy(p + FLOWGEN_IP4_CKSUM_OFF, &ip_ck, sizeof(ip_ck));
	memcpy(p + t->l4_cksum_off, &l4_ck, sizeof(l4_ck));
	flowgen_mbuf_fill(q, m, t->ptype, q->rss_hash ? flowgen_rss(q->rss_tab, v) : 0);
}

/* An IPv6 frame: template (with the /64 prefixes), address tails, ports, L4 checksum. */
static inline void
flowgen_build6(const struct flowgen_rxq *q, struct rte_mbuf *m, uint64_t v)
{
	const struct flowgen_tmpl *t = &q->tmpl[flowgen_flow_tmpl(q->proto, v)];
	struct flowgen_fields f;
	rte_be32_t src, dst, ports;
	rte_be16_t l4_ck;
	uint8_t *p;

	flowgen_fields_get(v, &f);
	l4_ck = flowgen_l4_cksum(t, flowgen_sum32(f.src) + flowgen_sum32(f.dst) +
		f.sport + f.dport);
	src = rte_cpu_to_be_32(f.src);
	dst = rte_cpu_to_be_32(f.dst);
	ports = flowgen_ports_be(&f);

	p = flowgen_frame_copy(q, m, t);
	memcpy(p + FLOWGEN_IP6_SRC_TAIL_OFF, &src, sizeof(src));
	memcpy(p + FLOWGEN_IP6_DST_TAIL_OFF, &dst, sizeof(dst));
	memcpy(p + FLOWGEN_IP6_L4_OFF, &ports, sizeof(ports));
	memcpy(p + t->l4_cksum_off, &l4_ck, sizeof(l4_ck));
	flowgen_mbuf_fill(q, m, t->ptype, q->rss_hash ? flowgen_rss(q->rss_tab, v) : 0);
}

/* Generate one chunk of at most FLOWGEN_CHUNK packets; 0 when the pool is empty. */
static inline unsigned int
flowgen_rx_chunk(struct flowgen_rxq *q, struct rte_mbuf **bufs, unsigned int n, int ipv6)
{
	uint32_t slot[FLOWGEN_CHUNK], gen[FLOWGEN_CHUNK];
	unsigned int i;

	if (unlikely(rte_mempool_get_bulk(q->mp, (void **)bufs, n) != 0))
		return 0;
	flowgen_pick(q, slot, n);
	flowgen_churn(q, slot, n);
	flowgen_gens(q, slot, gen, n);
	for (i = 0; i < n; i++) {
		uint64_t v = flowgen_slot_bits(q, slot[i], gen[i]);

		if (ipv6)
			flowgen_build6(q, bufs[i], v);
		else
			flowgen_build4(q, bufs[i], v);
	}
	return n;
}

/* Single writer per queue: a relaxed store lets stats_get read without tearing. */
static inline void
flowgen_count(uint64_t *pkts, uint64_t *bytes, uint64_t n, uint64_t b)
{
	__atomic_store_n(pkts, *pkts + n, __ATOMIC_RELAXED);
	__atomic_store_n(bytes, *bytes + b, __ATOMIC_RELAXED);
}

static inline uint16_t
flowgen_rx(void *queue, struct rte_mbuf **bufs, uint16_t nb_bufs, int ipv6)
{
	struct flowgen_rxq *q = queue;
	unsigned int done = 0, n, got;

	if (unlikely(q->nb_flows == 0))
		return 0;
	while (done < nb_bufs) {
		n = RTE_MIN((unsigned int)(nb_bufs - done), (unsigned int)FLOWGEN_CHUNK);
		got = flowgen_rx_chunk(q, bufs + done, n, ipv6);
		if (unlikely(got == 0)) {
			__atomic_fetch_add(q->alloc_failed, n, __ATOMIC_RELAXED);
			break;
		}
		done += got;
	}
	flowgen_count(&q->pkts, &q->bytes, done, (uint64_t)done * q->pkt_size);
	return done;
}

static uint16_t
flowgen_rx4(void *queue, struct rte_mbuf **bufs, uint16_t nb_bufs)
{
	return flowgen_rx(queue, bufs, nb_bufs, 0);
}

static uint16_t
flowgen_rx6(void *queue, struct rte_mbuf **bufs, uint16_t nb_bufs)
{
	return flowgen_rx(queue, bufs, nb_bufs, 1);
}

static uint16_t
flowgen_tx(void *queue, struct rte_mbuf **bufs, uint16_t nb_bufs)
{
	struct flowgen_txq *q = queue;
	uint64_t bytes = 0;
	uint16_t i;

	if (unlikely(nb_bufs == 0))
		return 0;
	for (i = 0; i < nb_bufs; i++)
		bytes += rte_pktmbuf_pkt_len(bufs[i]);
	/*
	 * Fast free: the application promised what a NIC's completion path
	 * relies on (one mempool, direct mbufs of one segment, reference
	 * count 1), so the mbufs go back to their pool as they are.
	 */
	if (q->fast_free)
		rte_mempool_put_bulk(bufs[0]->pool, (void **)bufs, nb_bufs);
	else
		rte_pktmbuf_free_bulk(bufs, nb_bufs);
	flowgen_count(&q->pkts, &q->bytes, nb_bufs, bytes);
	return nb_bufs;
}

/* ---------------------------------------------------------------------- */
/* frame templates */

static uint16_t
flowgen_l4_hdr_len(enum flowgen_tmpl_idx t)
{
	return t == FLOWGEN_TMPL_TCP ? sizeof(struct rte_tcp_hdr) : sizeof(struct rte_udp_hdr);
}

static uint16_t
flowgen_hdr_len(unsigned int ipv6, enum flowgen_tmpl_idx t)
{
	return RTE_ETHER_HDR_LEN + (ipv6 ? sizeof(struct rte_ipv6_hdr) :
		sizeof(struct rte_ipv4_hdr)) + flowgen_l4_hdr_len(t);
}

/* L4 header with ports and checksum zero; returns the checksum's offset in it. */
static uint16_t
flowgen_l4_hdr_init(uint8_t *l4, enum flowgen_tmpl_idx t, uint16_t l4_len)
{
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)l4;
	struct rte_tcp_hdr *tcp = (struct rte_tcp_hdr *)l4;

	if (t == FLOWGEN_TMPL_UDP) {
		udp->dgram_len = rte_cpu_to_be_16(l4_len);
		return offsetof(struct rte_udp_hdr, dgram_cksum);
	}
	tcp->sent_seq = rte_cpu_to_be_32(1);
	tcp->recv_ack = rte_cpu_to_be_32(1);
	tcp->data_off = (sizeof(*tcp) / 4) << 4;
	tcp->tcp_flags = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG;
	tcp->rx_win = rte_cpu_to_be_16(0xffff);
	return offsetof(struct rte_tcp_hdr, cksum);
}

/* IPv4 header with the address prefixes; returns the addresses' sum in memory order. */
static uint32_t
flowgen_ip4_hdr_init(struct flowgen_tmpl *t, struct rte_ipv4_hdr *ip4, uint16_t ip_len,
		uint8_t proto)
{
	ip4->version_ihl = RTE_IPV4_VHL_DEF;
	ip4->total_length = rte_cpu_to_be_16(ip_len);
	ip4->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip4->time_to_live = 64;
	ip4->next_proto_id = proto;
	ip4->src_addr = RTE_BE32(FLOWGEN_SRC4_NET);
	ip4->dst_addr = RTE_BE32(FLOWGEN_DST4_NET);
	t->ip_sum = flowgen_sum_host(flowgen_sum16(ip4, sizeof(*ip4)));
	t->ptype |= RTE_PTYPE_L3_IPV4;
	return flowgen_sum16(&ip4->src_addr, sizeof(ip4->src_addr)) +
		flowgen_sum16(&ip4->dst_addr, sizeof(ip4->dst_addr));
}

/* IPv6 header with the address prefixes; returns the addresses' sum in memory order. */
static uint32_t
flowgen_ip6_hdr_init(struct flowgen_tmpl *t, struct rte_ipv6_hdr *ip6, uint16_t l4_len,
		uint8_t proto)
{
	ip6->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip6->payload_len = rte_cpu_to_be_16(l4_len);
	ip6->proto = proto;
	ip6->hop_limits = 64;
	memcpy(&ip6->src_addr, flowgen_src6_net, sizeof(ip6->src_addr));
	memcpy(&ip6->dst_addr, flowgen_dst6_net, sizeof(ip6->dst_addr));
	t->ip_sum = 0;
	t->ptype |= RTE_PTYPE_L3_IPV6;
	return flowgen_sum16(&ip6->src_addr, sizeof(ip6->src_addr)) +
		flowgen_sum16(&ip6->dst_addr, sizeof(ip6->dst_addr));
}

static void
flowgen_tmpl_init(struct pmd_internals *pi, enum flowgen_tmpl_idx ti)
{
	static const struct rte_ether_addr src_mac = {
		.addr_bytes = { 0x02, 0x46, 0x47, 0x00, 0x00, 0x01 } };
	struct flowgen_tmpl *t = &pi->tmpl[ti];
	unsigned int ipv6 = pi->opt.ipv6;
	uint16_t l3_len = ipv6 ? sizeof(struct rte_ipv6_hdr) : sizeof(struct rte_ipv4_hdr);
	uint16_t l4_off = RTE_ETHER_HDR_LEN + l3_len;
	uint16_t l4_len = pi->pkt_size - l4_off;
	uint8_t proto = ti == FLOWGEN_TMPL_TCP ? IPPROTO_TCP : IPPROTO_UDP;
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)t->frame;
	uint32_t addr_sum;
	unsigned int i;

	memset(t->frame, 0, sizeof(t->frame));
	/* a payload that is not all zeros, so that checksum slips show */
	for (i = flowgen_hdr_len(ipv6, ti); i < pi->pkt_size; i++)
		t->frame[i] = (uint8_t)i;
	rte_ether_addr_copy(&pi->mac, &eth->dst_addr);
	rte_ether_addr_copy(&src_mac, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(ipv6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4);
	t->l4_cksum_off = l4_off + flowgen_l4_hdr_init(t->frame + l4_off, ti, l4_len);
	t->udp = ti == FLOWGEN_TMPL_UDP;
	t->ptype = RTE_PTYPE_L2_ETHER |
		(ti == FLOWGEN_TMPL_TCP ? RTE_PTYPE_L4_TCP : RTE_PTYPE_L4_UDP);
	if (ipv6)
		addr_sum = flowgen_ip6_hdr_init(t, (struct rte_ipv6_hdr *)(eth + 1), l4_len, proto);
	else
		addr_sum = flowgen_ip4_hdr_init(t, (struct rte_ipv4_hdr *)(eth + 1),
			pi->pkt_size - RTE_ETHER_HDR_LEN, proto);
	/* pseudo-header: the address prefixes here, a flow adds its host parts */
	t->l4_sum = flowgen_sum_host(flowgen_sum16(t->frame + l4_off, l4_len) + addr_sum +
		rte_cpu_to_be_16(proto) + rte_cpu_to_be_16(l4_len));
}

/* ---------------------------------------------------------------------- */
/*
 * Population export (devargs em_rules and pcap): at port start, the flows
 * the RX queues are about to generate are written out, as l3fwd exact-match
 * rules and as a capture of one frame per flow, so that other programs run
 * on exactly this traffic (devtools/l3fwd-bench.sh). Both are computed by
 * the generator's own code: the same slots, generations and frame builder.
 */

/* The 64 bits of every flow of the population, queue after queue. */
static uint64_t *
flowgen_population_bits(struct rte_eth_dev *dev, uint64_t *nb)
{
	const struct flowgen_rxq *q;
	uint64_t *bits, n = 0;
	uint32_t s, gen;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++)
		n += ((const struct flowgen_rxq *)dev->data->rx_queues[i])->nb_flows;
	bits = malloc(sizeof(*bits) * RTE_MAX(n, UINT64_C(1)));
	if (bits == NULL)
		return NULL;
	*nb = 0;
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		q = dev->data->rx_queues[i];
		for (s = 0; s < q->nb_flows; s++) {
			flowgen_gens(q, &s, &gen, 1);
			bits[(*nb)++] = flowgen_slot_bits(q, s, gen);
		}
	}
	return bits;
}

/* One l3fwd EM rule: R<dst> <src> <dport> <sport> <proto> <out port>. */
static int
flowgen_em_rule_write(FILE *f, const struct pmd_internals *pi, uint64_t v, uint16_t port)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	struct flowgen_tuple t;
	rte_be32_t a4;
	int proto;

	flowgen_tuple_make(pi->opt.ipv6, v, &t);
	proto = flowgen_flow_tmpl(pi->opt.proto, v) == FLOWGEN_TMPL_TCP ? IPPROTO_TCP :
		IPPROTO_UDP;
	if (pi->opt.ipv6) {
		inet_ntop(AF_INET6, t.src6, src, sizeof(src));
		inet_ntop(AF_INET6, t.dst6, dst, sizeof(dst));
	} else {
		a4 = rte_cpu_to_be_32(t.src4);
		inet_ntop(AF_INET, &a4, src, sizeof(src));
		a4 = rte_cpu_to_be_32(t.dst4);
		inet_ntop(AF_INET, &a4, dst, sizeof(dst));
	}
	return fprintf(f, "R%s %s %u %u %d %u\n", dst, src, t.dport, t.sport, proto, port) < 0 ?
		-EIO : 0;
}

/* Seeded Fisher-Yates shuffle: a capture replays its flows in random order. */
static void
flowgen_shuffle(uint64_t *bits, uint64_t n, uint64_t seed)
{
	uint64_t rng = flowgen_mix64(seed ^ 0x70636170) | 1, i, j, tmp;

	for (i = n; i > 1; i--) {
		j = flowgen_rand(&rng) % i;
		tmp = bits[i - 1];
		bits[i - 1] = bits[j];
		bits[j] = tmp;
	}
}

/* pcap file and record headers (libpcap format 2.4, Ethernet, microseconds) */
struct flowgen_pcap_hdr {
	uint32_t magic;
	uint16_t major;
	uint16_t minor;
	int32_t zone;
	uint32_t sigfigs;
	uint32_t snaplen;
	uint32_t linktype;
};

struct flowgen_pcap_rec {
	uint32_t sec;
	uint32_t usec;
	uint32_t caplen;
	uint32_t len;
};

/* Every frame built by the RX path itself, into one mbuf of queue 0's pool. */
static int
flowgen_pcap_frames_write(FILE *f, struct flowgen_rxq *q, const uint64_t *bits, uint64_t n)
{
	struct flowgen_pcap_rec rec = { .caplen = q->pkt_size, .len = q->pkt_size };
	struct rte_mbuf *m = rte_pktmbuf_alloc(q->mp);
	uint64_t i;
	int ret = 0;

	if (m == NULL)
		return -ENOMEM;
	for (i = 0; i < n && ret == 0; i++) {
		if (q->pi->opt.ipv6)
			flowgen_build6(q, m, bits[i]);
		else
			flowgen_build4(q, m, bits[i]);
		rec.sec = i / 1000000;
		rec.usec = i % 1000000;
		if (fwrite(&rec, sizeof(rec), 1, f) != 1 ||
		    fwrite(rte_pktmbuf_mtod(m, void *), q->pkt_size, 1, f) != 1)
			ret = -EIO;
	}
	rte_pktmbuf_free(m);
	return ret;
}

static int
flowgen_pcap_write(FILE *f, struct rte_eth_dev *dev, uint64_t *bits, uint64_t n)
{
	const struct pmd_internals *pi = dev->data->dev_private;
	const struct flowgen_pcap_hdr hdr = {
		.magic = 0xa1b2c3d4, .major = 2, .minor = 4,
		.snaplen = RTE_PMD_FLOWGEN_PKT_SIZE_MAX, .linktype = 1,
	};

	if (fwrite(&hdr, sizeof(hdr), 1, f) != 1)
		return -EIO;
	flowgen_shuffle(bits, n, pi->opt.seed);
	return flowgen_pcap_frames_write(f, dev->data->rx_queues[0], bits, n);
}

static int
flowgen_em_rules_write(FILE *f, struct rte_eth_dev *dev, uint64_t *bits, uint64_t n)
{
	uint64_t i;
	int ret = 0;

	for (i = 0; i < n && ret == 0; i++)
		ret = flowgen_em_rule_write(f, dev->data->dev_private, bits[i],
					    dev->data->port_id);
	return ret;
}

typedef int (*flowgen_export_fn)(FILE *f, struct rte_eth_dev *dev, uint64_t *bits,
		uint64_t n);

static int
flowgen_export_one(struct rte_eth_dev *dev, const char *path, flowgen_export_fn fn,
		const char *what)
{
	uint64_t *bits, n = 0;
	FILE *f;
	int ret;

	if (path[0] == '\0')
		return 0;
	bits = flowgen_population_bits(dev, &n);
	if (bits == NULL)
		return -ENOMEM;
	f = fopen(path, "w");
	if (f == NULL) {
		ret = -errno;
		FLOWGEN_LOG(ERR, "cannot write %s %s: %s", what, path, strerror(errno));
		free(bits);
		return ret;
	}
	ret = fn(f, dev, bits, n);
	if (fclose(f) != 0 && ret == 0)
		ret = -EIO;
	free(bits);
	if (ret != 0)
		FLOWGEN_LOG(ERR, "writing %s %s: %s", what, path, strerror(-ret));
	else
		FLOWGEN_LOG(INFO, "wrote the %" PRIu64 " flows of port %u to %s %s", n,
			dev->data->port_id, what, path);
	return ret;
}

/* The population of the configured queues, as the devargs ask. */
static int
flowgen_export(struct rte_eth_dev *dev)
{
	const struct pmd_internals *pi = dev->data->dev_private;
	int ret;

	if (dev->data->nb_rx_queues == 0 || dev->data->rx_queues[0] == NULL)
		return 0;
	ret = flowgen_export_one(dev, pi->opt.em_rules, flowgen_em_rules_write,
			"l3fwd EM rules");
	if (ret == 0)
		ret = flowgen_export_one(dev, pi->opt.pcap, flowgen_pcap_write, "pcap");
	return ret;
}

/* ---------------------------------------------------------------------- */
/* control path */

static int
flowgen_dev_configure(struct rte_eth_dev *dev __rte_unused)
{
	return 0;
}

static void
flowgen_queue_states(struct rte_eth_dev *dev, uint8_t state)
{
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = state;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = state;
}

static int
flowgen_dev_start(struct rte_eth_dev *dev)
{
	int ret = flowgen_export(dev);

	if (ret != 0)
		return ret;
	dev->data->dev_link.link_status = RTE_ETH_LINK_UP;
	flowgen_queue_states(dev, RTE_ETH_QUEUE_STATE_STARTED);
	return 0;
}

static int
flowgen_dev_stop(struct rte_eth_dev *dev)
{
	dev->data->dev_link.link_status = RTE_ETH_LINK_DOWN;
	flowgen_queue_states(dev, RTE_ETH_QUEUE_STATE_STOPPED);
	return 0;
}

static int
flowgen_dev_close(struct rte_eth_dev *dev)
{
	uint16_t i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		flowgen_rxq_free(dev->data->rx_queues[i]);
		dev->data->rx_queues[i] = NULL;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		rte_free(dev->data->tx_queues[i]);
		dev->data->tx_queues[i] = NULL;
	}
	/* part of dev_private: must not be freed on its own by ethdev */
	dev->data->mac_addrs = NULL;
	return 0;
}

static int
flowgen_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	const struct pmd_internals *pi = dev->data->dev_private;

	info->max_mac_addrs = 1;
	/* frames are pkt_size long; a standard MTU is accepted as well */
	info->max_rx_pktlen = RTE_MAX((uint32_t)pi->pkt_size, (uint32_t)RTE_ETHER_MAX_LEN);
	info->max_mtu = info->max_rx_pktlen - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN;
	info->min_rx_bufsize = pi->pkt_size;
	info->max_rx_queues = pi->opt.queues;
	info->max_tx_queues = pi->opt.queues;
	info->reta_size = RTE_PMD_FLOWGEN_RETA_SIZE;
	info->hash_key_size = RTE_PMD_FLOWGEN_RSS_KEY_LEN;
	info->flow_type_rss_offloads = FLOWGEN_RSS_OFFLOADS;
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_RSS_HASH | RTE_ETH_RX_OFFLOAD_CHECKSUM;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	info->tx_queue_offload_capa = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	info->speed_capa = RTE_ETH_LINK_SPEED_10G;
	return 0;
}

/* What flowgen_mbuf_fill() stores at rearm_data, built field by field. */
static uint64_t
flowgen_mbuf_rearm(uint16_t port_id)
{
	struct rte_mbuf m;

	memset(&m, 0, sizeof(m));
	m.data_off = RTE_PKTMBUF_HEADROOM;
	rte_mbuf_refcnt_set(&m, 1);
	m.nb_segs = 1;
	m.port = port_id;
	return *flowgen_rearm_word(&m);
}

/*
 * Whether mbufs carry the RSS hash: in an RSS Rx mode, the only one ethdev
 * accepts RTE_ETH_RX_OFFLOAD_RSS_HASH in (delivered with or without that
 * offload, as most NICs do for applications that predate it). Without it a
 * packet costs a few cycles less: the hash is an XOR of eight table entries.
 */
static bool
flowgen_rss_hash_wanted(const struct rte_eth_conf *conf)
{
	return (conf->rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG) != 0;
}

/* The fields of a queue that do not depend on its population. */
static void
flowgen_rxq_init(struct flowgen_rxq *q, struct rte_eth_dev *dev, uint16_t qid,
		struct rte_mempool *mp)
{
	const struct pmd_internals *pi = dev->data->dev_private;
	uint16_t nb_queues = dev->data->nb_rx_queues;
	uint32_t share_max = (pi->opt.flows + nb_queues - 1) / nb_queues;

	q->mp = mp;
	q->alloc_failed = &dev->data->rx_mbuf_alloc_failed;
	q->pi = pi;
	q->tmpl = pi->tmpl;
	q->rss_tab = pi->rss_tab;
	q->pkt_size = pi->pkt_size;
	q->port_id = dev->data->port_id;
	q->queue_id = qid;
	q->nb_queues = nb_queues;
	q->lines = (uint64_t)share_max * nb_queues;
	q->id_salt = flowgen_id_salt(pi->opt.seed);
	q->proto = pi->opt.proto;
	q->rss_hash = flowgen_rss_hash_wanted(&dev->data->dev_conf);
	q->ol_flags = (q->rss_hash ? RTE_MBUF_F_RX_RSS_HASH : 0) | RTE_MBUF_F_RX_L4_CKSUM_GOOD |
		(pi->opt.ipv6 ? 0 : RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	q->mbuf_rearm = flowgen_mbuf_rearm(q->port_id);
	q->rng = flowgen_mix64(pi->opt.seed ^ flowgen_mix64(qid + 1)) | 1;
	q->churn = pi->opt.new_flow_rate > 0.0;
	if (q->churn)
		q->churn_inv_log = pi->opt.new_flow_rate >= 1.0 ? 0.0 :
			1.0 / log1p(-pi->opt.new_flow_rate);
}

static int
flowgen_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc __rte_unused,
		unsigned int socket_id, const struct rte_eth_rxconf *conf __rte_unused,
		struct rte_mempool *mp)
{
	const struct pmd_internals *pi = dev->data->dev_private;
	uint16_t nb_queues = dev->data->nb_rx_queues;
	uint32_t share = pi->opt.flows / nb_queues + (qid < pi->opt.flows % nb_queues);
	struct flowgen_rxq *q;
	int ret;

	if (rte_pktmbuf_data_room_size(mp) < RTE_PKTMBUF_HEADROOM + pi->pkt_size) {
		FLOWGEN_LOG(ERR, "mbufs of %s too small for %u-byte frames", mp->name,
			pi->pkt_size);
		return -EINVAL;
	}
	q = rte_zmalloc_socket("flowgen_rxq", sizeof(*q), RTE_CACHE_LINE_SIZE, socket_id);
	if (q == NULL)
		return -ENOMEM;
	flowgen_rxq_init(q, dev, qid, mp);
	ret = flowgen_population_create(q, share, socket_id);
	if (ret != 0) {
		FLOWGEN_LOG(ERR, "no memory for %u flows of queue %u", share, qid);
		flowgen_rxq_free(q);
		return ret;
	}
	if (share != 0)
		flowgen_pick_init(q);
	if (q->churn) {
		flowgen_sweep_init(q);
		q->churn_left = flowgen_churn_gap(q) - 1;
	}
	dev->data->rx_queues[qid] = q;
	return 0;
}

static int
flowgen_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc __rte_unused,
		unsigned int socket_id, const struct rte_eth_txconf *conf)
{
	uint64_t offloads = dev->data->dev_conf.txmode.offloads;
	struct flowgen_txq *q;

	if (conf != NULL)
		offloads |= conf->offloads;
	q = rte_zmalloc_socket("flowgen_txq", sizeof(*q), RTE_CACHE_LINE_SIZE, socket_id);
	if (q == NULL)
		return -ENOMEM;
	q->fast_free = (offloads & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE) != 0;
	dev->data->tx_queues[qid] = q;
	return 0;
}

static void
flowgen_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	flowgen_rxq_free(dev->data->rx_queues[qid]);
	dev->data->rx_queues[qid] = NULL;
}

static void
flowgen_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	rte_free(dev->data->tx_queues[qid]);
	dev->data->tx_queues[qid] = NULL;
}

static int
flowgen_link_update(struct rte_eth_dev *dev, int wait __rte_unused)
{
	struct rte_eth_link link = flowgen_link_down;

	if (dev->data->dev_started)
		link.link_status = RTE_ETH_LINK_UP;
	return rte_eth_linkstatus_set(dev, &link);
}

static int
flowgen_noop(struct rte_eth_dev *dev __rte_unused)
{
	return 0;
}

static int
flowgen_mtu_set(struct rte_eth_dev *dev __rte_unused, uint16_t mtu __rte_unused)
{
	return 0;
}

static uint64_t
flowgen_since(const uint64_t *count, uint64_t base)
{
	return __atomic_load_n(count, __ATOMIC_RELAXED) - base;
}

static int
flowgen_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st,
		  struct eth_queue_stats *qst)
{
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		const struct flowgen_rxq *q = dev->data->rx_queues[i];
		uint64_t p, b;

		if (q == NULL)
			continue;
		p = flowgen_since(&q->pkts, q->pkts_base);
		b = flowgen_since(&q->bytes, q->bytes_base);
		st->ipackets += p;
		st->ibytes += b;
		/* ethdev asks for the queue counters only when it shows them */
		if (qst != NULL && i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qst->q_ipackets[i] = p;
			qst->q_ibytes[i] = b;
		}
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		const struct flowgen_txq *q = dev->data->tx_queues[i];
		uint64_t p, b;

		if (q == NULL)
			continue;
		p = flowgen_since(&q->pkts, q->pkts_base);
		b = flowgen_since(&q->bytes, q->bytes_base);
		st->opackets += p;
		st->obytes += b;
		if (qst != NULL && i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qst->q_opackets[i] = p;
			qst->q_obytes[i] = b;
		}
	}
	return 0;
}

/* A reset snapshots the counters, so that it never races with the datapath. */
static int
flowgen_stats_reset(struct rte_eth_dev *dev)
{
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct flowgen_rxq *q = dev->data->rx_queues[i];

		if (q == NULL)
			continue;
		q->pkts_base = __atomic_load_n(&q->pkts, __ATOMIC_RELAXED);
		q->bytes_base = __atomic_load_n(&q->bytes, __ATOMIC_RELAXED);
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct flowgen_txq *q = dev->data->tx_queues[i];

		if (q == NULL)
			continue;
		q->pkts_base = __atomic_load_n(&q->pkts, __ATOMIC_RELAXED);
		q->bytes_base = __atomic_load_n(&q->bytes, __ATOMIC_RELAXED);
	}
	return 0;
}

static const uint32_t *
flowgen_ptypes_get(struct rte_eth_dev *dev __rte_unused, size_t *nb_ptypes)
{
	/* the terminator is for DPDK before 24.03 (flowgen_compat.h) */
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER,
		RTE_PTYPE_L3_IPV4,
		RTE_PTYPE_L3_IPV6,
		RTE_PTYPE_L4_UDP,
		RTE_PTYPE_L4_TCP,
		RTE_PTYPE_UNKNOWN
	};

	*nb_ptypes = RTE_DIM(ptypes) - 1;
	return ptypes;
}

static int
flowgen_rss_hash_conf_get(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf)
{
	const struct pmd_internals *pi = dev->data->dev_private;

	conf->rss_hf = FLOWGEN_RSS_OFFLOADS;
	if (conf->rss_key != NULL) {
		if (conf->rss_key_len < RTE_PMD_FLOWGEN_RSS_KEY_LEN)
			return -EINVAL;
		memcpy(conf->rss_key, pi->rss_key, RTE_PMD_FLOWGEN_RSS_KEY_LEN);
	}
	conf->rss_key_len = RTE_PMD_FLOWGEN_RSS_KEY_LEN;
	return 0;
}

static int
flowgen_reta_query(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *reta,
		uint16_t reta_size)
{
	uint16_t nb_queues = RTE_MAX(dev->data->nb_rx_queues, (uint16_t)1);
	uint16_t i;

	if (reta_size != RTE_PMD_FLOWGEN_RETA_SIZE)
		return -EINVAL;
	for (i = 0; i < reta_size; i++) {
		struct rte_eth_rss_reta_entry64 *e = &reta[i / RTE_ETH_RETA_GROUP_SIZE];
		unsigned int bit = i % RTE_ETH_RETA_GROUP_SIZE;

		if (e->mask & (UINT64_C(1) << bit))
			e->reta[bit] = i % nb_queues;
	}
	return 0;
}

static const struct eth_dev_ops flowgen_ops = {
	.dev_configure = flowgen_dev_configure,
	.dev_start = flowgen_dev_start,
	.dev_stop = flowgen_dev_stop,
	.dev_close = flowgen_dev_close,
	.dev_infos_get = flowgen_dev_infos_get,
	.dev_supported_ptypes_get = flowgen_ops_ptypes_get,
	.rx_queue_setup = flowgen_rx_queue_setup,
	.tx_queue_setup = flowgen_tx_queue_setup,
	.rx_queue_release = flowgen_rx_queue_release,
	.tx_queue_release = flowgen_tx_queue_release,
	.link_update = flowgen_link_update,
	.promiscuous_enable = flowgen_noop,
	.promiscuous_disable = flowgen_noop,
	.allmulticast_enable = flowgen_noop,
	.allmulticast_disable = flowgen_noop,
	.mtu_set = flowgen_mtu_set,
	.stats_get = flowgen_ops_stats_get,
	.stats_reset = flowgen_stats_reset,
	.rss_hash_conf_get = flowgen_rss_hash_conf_get,
	.reta_query = flowgen_reta_query,
};

/* ---------------------------------------------------------------------- */
/* devargs */

static int
flowgen_parse_uint(const char *value, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (value == NULL || *value == '\0' || *value == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(value, &end, 0);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int
flowgen_arg_flows(const char *key __rte_unused, const char *value, void *opaque)
{
	struct flowgen_options *o = opaque;
	uint64_t v;

	if (flowgen_parse_uint(value, 1, RTE_PMD_FLOWGEN_FLOWS_MAX, &v) != 0)
		return -EINVAL;
	o->flows = v;
	return 0;
}

static int
flowgen_arg_queues(const char *key __rte_unused, const char *value, void *opaque)
{
	struct flowgen_options *o = opaque;
	uint64_t v;

	if (flowgen_parse_uint(value, 1, FLOWGEN_QUEUES_MAX, &v) != 0)
		return -EINVAL;
	o->queues = v;
	return 0;
}

static int
flowgen_arg_pkt_size(const char *key __rte_unused, const char *value, void *opaque)
{
	struct flowgen_options *o = opaque;
	uint64_t v;

	if (flowgen_parse_uint(value, 1, RTE_PMD_FLOWGEN_PKT_SIZE_MAX, &v) != 0)
		return -EINVAL;
	o->pkt_size = v;
	return 0;
}

static int
flowgen_arg_seed(const char *key __rte_unused, const char *value, void *opaque)
{
	struct flowgen_options *o = opaque;

	return flowgen_parse_uint(value, 0, UINT64_MAX, &o->seed);
}

static int
flowgen_arg_ipv6(const char *key __rte_unused, const char *value, void *opaque)
{
	struct flowgen_options *o = opaque;
	uint64_t v;

	if (flowgen_parse_uint(value, 0, 1, &v) != 0)
		return -EINVAL;
	o->ipv6 = v;
	return 0;
}

static int
flowgen_arg_proto(const char *key __rte_unused, const char *value, void *opaque)
{
	struct flowgen_options *o = opaque;

	if (strcmp(value, "udp") == 0)
		o->proto = FLOWGEN_PROTO_UDP;
	else if (strcmp(value, "tcp") == 0)
		o->proto = FLOWGEN_PROTO_TCP;
	else if (strcmp(value, "mix") == 0)
		o->proto = FLOWGEN_PROTO_MIX;
	else
		return -EINVAL;
	return 0;
}

static int
flowgen_parse_double(const char *value, double min, double max, double *out)
{
	char *end;
	double v;

	if (value == NULL || *value == '\0')
		return -EINVAL;
	errno = 0;
	v = strtod(value, &end);
	if (errno != 0 || *end != '\0' || !(v >= min && v <= max))
		return -EINVAL;
	*out = v;
	return 0;
}

/* "uniform", "zipf" (s = 1) or "zipf:<s>" */
static int
flowgen_arg_dist(const char *key __rte_unused, const char *value, void *opaque)
{
	struct flowgen_options *o = opaque;

	if (strcmp(value, "uniform") == 0) {
		o->zipf_s = 0.0;
		return 0;
	}
	if (strcmp(value, "zipf") == 0) {
		o->zipf_s = 1.0;
		return 0;
	}
	if (strncmp(value, "zipf:", 5) != 0)
		return -EINVAL;
	if (flowgen_parse_double(value + 5, 0.0, FLOWGEN_ZIPF_S_MAX, &o->zipf_s) != 0 ||
			o->zipf_s == 0.0)
		return -EINVAL;
	return 0;
}

static int
flowgen_arg_rate(const char *key __rte_unused, const char *value, void *opaque)
{
	struct flowgen_options *o = opaque;

	return flowgen_parse_double(value, 0.0, 1.0, &o->new_flow_rate);
}

static int
flowgen_arg_path(const char *value, char *out)
{
	if (value == NULL || *value == '\0' || strlen(value) >= PATH_MAX)
		return -EINVAL;
	strcpy(out, value);
	return 0;
}

static int
flowgen_arg_em_rules(const char *key __rte_unused, const char *value, void *opaque)
{
	return flowgen_arg_path(value, ((struct flowgen_options *)opaque)->em_rules);
}

static int
flowgen_arg_pcap(const char *key __rte_unused, const char *value, void *opaque)
{
	return flowgen_arg_path(value, ((struct flowgen_options *)opaque)->pcap);
}

static const struct {
	const char *key;
	arg_handler_t handler;
} flowgen_arg_handlers[] = {
	{ FLOWGEN_ARG_FLOWS, flowgen_arg_flows },
	{ FLOWGEN_ARG_DIST, flowgen_arg_dist },
	{ FLOWGEN_ARG_NEW_FLOW_RATE, flowgen_arg_rate },
	{ FLOWGEN_ARG_IPV6, flowgen_arg_ipv6 },
	{ FLOWGEN_ARG_PROTO, flowgen_arg_proto },
	{ FLOWGEN_ARG_PKT_SIZE, flowgen_arg_pkt_size },
	{ FLOWGEN_ARG_SEED, flowgen_arg_seed },
	{ FLOWGEN_ARG_QUEUES, flowgen_arg_queues },
	{ FLOWGEN_ARG_EM_RULES, flowgen_arg_em_rules },
	{ FLOWGEN_ARG_PCAP, flowgen_arg_pcap },
};

static int
flowgen_parse_args(const char *params, struct flowgen_options *o)
{
	struct rte_kvargs *kvlist;
	unsigned int i;
	int ret = 0;

	if (params == NULL || *params == '\0')
		return 0;
	kvlist = rte_kvargs_parse(params, valid_arguments);
	if (kvlist == NULL) {
		FLOWGEN_LOG(ERR, "cannot parse arguments \"%s\"", params);
		return -EINVAL;
	}
	for (i = 0; i < RTE_DIM(flowgen_arg_handlers); i++) {
		ret = rte_kvargs_process(kvlist, flowgen_arg_handlers[i].key,
				flowgen_arg_handlers[i].handler, o);
		if (ret != 0) {
			FLOWGEN_LOG(ERR, "bad value for %s", flowgen_arg_handlers[i].key);
			ret = -EINVAL;
			break;
		}
	}
	rte_kvargs_free(kvlist);
	return ret;
}

/* Frame length: the one asked for, else 64 or the headers' length if larger. */
static int
flowgen_pkt_size(const struct flowgen_options *o, uint16_t *size)
{
	uint16_t need = flowgen_hdr_len(o->ipv6,
		o->proto == FLOWGEN_PROTO_UDP ? FLOWGEN_TMPL_UDP : FLOWGEN_TMPL_TCP);

	if (o->pkt_size == 0) {
		*size = RTE_MAX(need, (uint16_t)RTE_PMD_FLOWGEN_PKT_SIZE_DEFAULT);
		return 0;
	}
	if (o->pkt_size < need) {
		FLOWGEN_LOG(ERR, "pkt_size %u below the %u bytes of headers", o->pkt_size, need);
		return -EINVAL;
	}
	*size = o->pkt_size;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* probe and remove */

static void
flowgen_set_burst(struct rte_eth_dev *eth_dev)
{
	const struct pmd_internals *pi = eth_dev->data->dev_private;

	eth_dev->rx_pkt_burst = pi->opt.ipv6 ? flowgen_rx6 : flowgen_rx4;
	eth_dev->tx_pkt_burst = flowgen_tx;
}

static int
flowgen_create(struct rte_vdev_device *vdev, const struct flowgen_options *o, uint16_t pkt_size)
{
	struct rte_eth_dev_data *data;
	struct pmd_internals *pi;
	struct rte_eth_dev *eth_dev;

	if (vdev->device.numa_node == SOCKET_ID_ANY)
		vdev->device.numa_node = rte_socket_id();
	eth_dev = rte_eth_vdev_allocate(vdev, sizeof(*pi));
	if (eth_dev == NULL)
		return -ENOMEM;
	data = eth_dev->data;
	pi = data->dev_private;
	pi->opt = *o;
	pi->pkt_size = pkt_size;
	/* locally administered, fixed per port: frames are reproducible */
	pi->mac = (struct rte_ether_addr){ .addr_bytes = { 0x02, 0x46, 0x47, 0x00,
		(uint8_t)(data->port_id >> 8), (uint8_t)data->port_id } };
	flowgen_rss_key_init(pi->rss_key);
	flowgen_rss_tab_init(pi);
	if (o->proto != FLOWGEN_PROTO_TCP)
		flowgen_tmpl_init(pi, FLOWGEN_TMPL_UDP);
	if (o->proto != FLOWGEN_PROTO_UDP)
		flowgen_tmpl_init(pi, FLOWGEN_TMPL_TCP);

	data->dev_link = flowgen_link_down;
	data->mac_addrs = &pi->mac;
	data->promiscuous = 1;
	data->all_multicast = 1;
	data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	eth_dev->dev_ops = &flowgen_ops;
	flowgen_set_burst(eth_dev);
	rte_eth_dev_probing_finish(eth_dev);
	return 0;
}

static int
flowgen_probe_secondary(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *eth_dev;

	eth_dev = rte_eth_dev_attach_secondary(rte_vdev_device_name(vdev));
	if (eth_dev == NULL)
		return -ENODEV;
	eth_dev->dev_ops = &flowgen_ops;
	eth_dev->device = &vdev->device;
	flowgen_set_burst(eth_dev);
	rte_eth_dev_probing_finish(eth_dev);
	return 0;
}

static int
flowgen_probe(struct rte_vdev_device *vdev)
{
	struct flowgen_options o = {
		.flows = FLOWGEN_FLOWS_DEFAULT,
		.proto = FLOWGEN_PROTO_UDP,
		.queues = 1,
	};
	uint16_t pkt_size;
	int ret;

	if (rte_eal_process_type() == RTE_PROC_SECONDARY)
		return flowgen_probe_secondary(vdev);
	ret = flowgen_parse_args(rte_vdev_device_args(vdev), &o);
	if (ret != 0)
		return ret;
	ret = flowgen_pkt_size(&o, &pkt_size);
	if (ret != 0)
		return ret;
	FLOWGEN_LOG(INFO, "%s: %u flows, zipf s %.2f, new flows %.4f, %s/%s, %u bytes, %u queues",
		rte_vdev_device_name(vdev), o.flows, o.zipf_s, o.new_flow_rate,
		o.ipv6 ? "ipv6" : "ipv4",
		o.proto == FLOWGEN_PROTO_MIX ? "mix" : o.proto == FLOWGEN_PROTO_TCP ? "tcp" : "udp",
		pkt_size, o.queues);
	return flowgen_create(vdev, &o, pkt_size);
}

static int
flowgen_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *eth_dev;

	eth_dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));
	if (eth_dev == NULL)
		return 0; /* already closed */
	flowgen_dev_close(eth_dev);
	return rte_eth_dev_release_port(eth_dev);
}

static struct rte_vdev_driver flowgen_vdev_drv = {
	.probe = flowgen_probe,
	.remove = flowgen_remove,
};

RTE_PMD_REGISTER_VDEV(net_flowgen, flowgen_vdev_drv);
RTE_PMD_REGISTER_PARAM_STRING(net_flowgen,
	FLOWGEN_ARG_FLOWS "=<int> "
	FLOWGEN_ARG_DIST "=uniform|zipf:<s> "
	FLOWGEN_ARG_NEW_FLOW_RATE "=<0..1> "
	FLOWGEN_ARG_IPV6 "=0|1 "
	FLOWGEN_ARG_PROTO "=udp|tcp|mix "
	FLOWGEN_ARG_PKT_SIZE "=<int> "
	FLOWGEN_ARG_SEED "=<int> "
	FLOWGEN_ARG_QUEUES "=<int> "
	FLOWGEN_ARG_EM_RULES "=<path> "
	FLOWGEN_ARG_PCAP "=<path>");
