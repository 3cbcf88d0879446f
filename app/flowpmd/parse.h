/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _FLOWPMD_PARSE_H_
#define _FLOWPMD_PARSE_H_

/**
 * @file
 * The flow key of one frame: Ethernet, up to two VLAN tags (0x8100, 0x88a8),
 * IPv4 or IPv6, and the ports of TCP, UDP and SCTP.
 *
 * The parser works on a plain buffer, so that the forwarding path (first
 * mbuf segment), the unit test and the fuzz target all run the same code.
 * It reads only the len bytes it is given, at any alignment. The common
 * frames are parsed inline here; IPv6 extension header chains, which are
 * rare, are walked out of line in parse.c.
 *
 * Key rules (the rest of the application depends on them):
 * - addresses and ports are in network byte order, padding is zero;
 * - proto is the IPv4 protocol, or the IPv6 header that ends the
 *   extension header chain: an upper-layer protocol, ESP (50), no next
 *   header (59), or the extension header at which the walk stopped
 *   (truncated, or past FLOWPMD_PARSE_MAX_EXT_HDRS);
 * - the ports are those of TCP, UDP and SCTP when the first 4 bytes of
 *   their header are in the packet, else 0; a fragment other than the
 *   first (IPv4 offset or IPv6 fragment header offset non-zero) has no
 *   ports, and keeps the protocol it carries;
 * - a frame whose IPv4 header is malformed (version, IHL, total length)
 *   or cut, or whose IPv6 fixed header is, is not a flow: -1, as for a
 *   non-IP frame.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>

#include "flowpmd.h"

#define FLOWPMD_PARSE_MAX_VLANS 2    /**< Tags skipped: one, or QinQ. */
#define FLOWPMD_PARSE_MAX_EXT_HDRS 8 /**< IPv6 extension headers followed. */

/** 16 bits as they are in the frame (network order), at any alignment. */
static inline uint16_t
flowpmd_parse_load16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline bool
flowpmd_parse_has_ports(uint8_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP || proto == IPPROTO_SCTP;
}

/** Source and destination ports of an L4 header of len bytes, or 0. */
static inline void
flowpmd_parse_ports(const uint8_t *l4, uint32_t len, uint8_t proto, uint16_t *sport,
		    uint16_t *dport)
{
	if (flowpmd_parse_has_ports(proto) && len >= 4) {
		*sport = flowpmd_parse_load16(l4);
		*dport = flowpmd_parse_load16(l4 + 2);
	} else {
		*sport = 0;
		*dport = 0;
	}
}

static inline bool
flowpmd_parse_ipv6_is_ext(uint8_t proto)
{
	return proto == IPPROTO_HOPOPTS || proto == IPPROTO_ROUTING ||
		proto == IPPROTO_FRAGMENT || proto == IPPROTO_DSTOPTS || proto == IPPROTO_AH;
}

/**
 * Walk the extension headers after the fixed header of an IPv6 packet of
 * len bytes and set k's proto and ports (parse.c).
 */
void flowpmd_parse_ipv6_ext(const uint8_t *l3, uint32_t len, struct flow_key6 *k);

static inline bool
flowpmd_parse_ipv4(const uint8_t *l3, uint32_t len, struct flow_key4 *k)
{
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)l3;
	uint32_t hlen, tlen;

	if (unlikely(len < sizeof(*ip)))
		return false;
	/* version 4 and IHL at least 5 words: 0x45 to 0x4f, in one comparison */
	if (unlikely((uint8_t)(ip->version_ihl - RTE_IPV4_VHL_DEF) >
		     RTE_IPV4_HDR_IHL_MASK - RTE_IPV4_MIN_IHL))
		return false;
	hlen = (ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) * RTE_IPV4_IHL_MULTIPLIER;
	tlen = rte_be_to_cpu_16(ip->total_length);
	if (unlikely(hlen > len || tlen < hlen))
		return false;
	/* the bytes past the total length are Ethernet padding */
	len = RTE_MIN(len, tlen);
	k->src = ip->src_addr;
	k->dst = ip->dst_addr;
	k->proto = ip->next_proto_id;
	memset(k->pad, 0, sizeof(k->pad));
	/* only the first fragment carries the ports */
	if ((ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_OFFSET_MASK)) != 0)
		flowpmd_parse_ports(NULL, 0, 0, &k->sport, &k->dport);
	else
		flowpmd_parse_ports(l3 + hlen, len - hlen, k->proto, &k->sport, &k->dport);
	return true;
}

static inline bool
flowpmd_parse_ipv6(const uint8_t *l3, uint32_t len, struct flow_key6 *k)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)l3;
	uint32_t plen;

	if (unlikely(len < sizeof(*ip) || (l3[0] >> 4) != 6))
		return false;
	/* 0 is a jumbogram's: its length is in a hop-by-hop option */
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (plen != 0)
		len = RTE_MIN(len, sizeof(*ip) + plen);
	memcpy(k->src, &ip->src_addr, sizeof(k->src));
	memcpy(k->dst, &ip->dst_addr, sizeof(k->dst));
	memset(k->pad, 0, sizeof(k->pad));
	/* TCP, UDP or SCTP first: the common packets skip the extension test */
	if (likely(flowpmd_parse_has_ports(ip->proto)) ||
	    !flowpmd_parse_ipv6_is_ext(ip->proto)) {
		k->proto = ip->proto;
		flowpmd_parse_ports(l3 + sizeof(*ip), len - sizeof(*ip), k->proto, &k->sport,
				    &k->dport);
	} else {
		flowpmd_parse_ipv6_ext(l3, len, k);
	}
	return true;
}

/**
 * Parse one frame of len bytes. On FLOW_V4 the key is in *k4, on FLOW_V6
 * in *k6 (each of them is scratch space otherwise); -1: not a flow
 * (neither IPv4 nor IPv6, or a malformed IP header). *vlans is the number
 * of VLAN tags skipped. Thread-safe, reads nothing but frame[0, len).
 */
static inline int
flowpmd_parse(const uint8_t *frame, uint32_t len, struct flow_key4 *k4, struct flow_key6 *k6,
	      unsigned int *vlans)
{
	uint32_t off = sizeof(struct rte_ether_hdr);
	uint16_t type;
	unsigned int n;

	*vlans = 0;
	if (unlikely(len < off))
		return -1;
	type = flowpmd_parse_load16(frame + offsetof(struct rte_ether_hdr, ether_type));
	for (n = 0; n < FLOWPMD_PARSE_MAX_VLANS; n++) {
		if (type != rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN) &&
		    type != rte_cpu_to_be_16(RTE_ETHER_TYPE_QINQ))
			break;
		if (unlikely(len < off + sizeof(struct rte_vlan_hdr)))
			return -1;
		type = flowpmd_parse_load16(frame + off +
					    offsetof(struct rte_vlan_hdr, eth_proto));
		off += sizeof(struct rte_vlan_hdr);
	}
	*vlans = n;
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
		return flowpmd_parse_ipv4(frame + off, len - off, k4) ? FLOW_V4 : -1;
	if (type == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6))
		return flowpmd_parse_ipv6(frame + off, len - off, k6) ? FLOW_V6 : -1;
	return -1;
}

#endif /* _FLOWPMD_PARSE_H_ */
