/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#include <netinet/in.h>

#include <rte_tcp.h>
#include <rte_udp.h>

#include "flowgen_pkt.h"

static const uint8_t flowgen_src6_net[16] = { 0xfd };
static const uint8_t flowgen_dst6_net[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 1 };

/* Frames other than 64 bytes: out of line, rte_memcpy is large. */
void
flowgen_frame_copy_any(uint8_t *p, const struct flowgen_tmpl *t, uint16_t len)
{
	rte_memcpy(p, t->frame, len);
}

/* A flow's full addresses and ports, as an RSS input. */
void
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

/* A sum of words loaded from memory, folded and in host order. */
static uint32_t
flowgen_sum_host(uint32_t mem_sum)
{
	return rte_be_to_cpu_16(flowgen_fold(mem_sum));
}

static uint16_t
flowgen_hdr_len(unsigned int ipv6, enum flowgen_tmpl_idx t)
{
	return RTE_ETHER_HDR_LEN + (ipv6 ? sizeof(struct rte_ipv6_hdr) :
		sizeof(struct rte_ipv4_hdr)) +
		(t == FLOWGEN_TMPL_TCP ? sizeof(struct rte_tcp_hdr) : sizeof(struct rte_udp_hdr));
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

/* The template of one L4 protocol: frame and checksum sums. */
void
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

/* Frame length: the one asked for, else 64 or the headers' length if larger. */
int
flowgen_pkt_size(const struct flowgen_options *o, uint16_t *size)
{
	uint16_t need = flowgen_hdr_len(o->ipv6,
		o->proto == FLOWGEN_PROTO_UDP ? FLOWGEN_TMPL_UDP : FLOWGEN_TMPL_TCP);

	if (o->pkt_size == 0) {
		*size = RTE_MAX(need, (uint16_t)FLOWGEN_PKT_SIZE_DEFAULT);
		return 0;
	}
	if (o->pkt_size < need) {
		FLOWGEN_LOG(ERR, "pkt_size %u below the %u bytes of headers", o->pkt_size, need);
		return -EINVAL;
	}
	*size = o->pkt_size;
	return 0;
}

/* What flowgen_mbuf_fill() stores at rearm_data, built field by field. */
uint64_t
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
