/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The rare part of the frame parser: IPv6 extension header chains. The
 * common frames never leave the inline code of parse.h.
 */

#include <stdint.h>

#include <rte_ip.h>

#include "parse.h"

/* Every extension header followed here starts with next header, length. */
#define EXT_HDR_MIN_LEN 8

/* Length of the extension header at h (at least EXT_HDR_MIN_LEN bytes). */
static uint32_t
ipv6_ext_len(uint8_t type, const uint8_t *h)
{
	if (type == IPPROTO_FRAGMENT)
		return sizeof(struct rte_ipv6_fragment_ext);
	/* AH counts 4-byte words minus 2 (RFC 4302), the others 8-byte words minus 1 */
	if (type == IPPROTO_AH)
		return ((uint32_t)h[1] + 2) * 4;
	return ((uint32_t)h[1] + 1) * 8;
}

/* A fragment header whose offset is not 0: a fragment without the L4 header. */
static bool
ipv6_frag_not_first(const uint8_t *h)
{
	const struct rte_ipv6_fragment_ext *f = (const struct rte_ipv6_fragment_ext *)h;

	return RTE_IPV6_GET_FO(rte_be_to_cpu_16(f->frag_data)) != 0;
}

/*
 * The walk stops at the first header that is not an extension header, at a
 * header that is cut short, at a fragment other than the first, or after
 * FLOWPMD_PARSE_MAX_EXT_HDRS headers (a bound on the work per packet); the
 * header it stopped at is the key's protocol. Only an upper-layer header
 * can carry ports, so a walk that stopped early leaves them at 0.
 */
void
flowpmd_parse_ipv6_ext(const uint8_t *l3, uint32_t len, struct flow_key6 *k)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)l3;
	uint32_t off = sizeof(*ip), hlen;
	uint8_t next = ip->proto;
	const uint8_t *h;
	unsigned int n;

	for (n = 0; n < FLOWPMD_PARSE_MAX_EXT_HDRS && flowpmd_parse_ipv6_is_ext(next); n++) {
		if (len - off < EXT_HDR_MIN_LEN)
			break;
		h = l3 + off;
		if (next == IPPROTO_FRAGMENT && ipv6_frag_not_first(h)) {
			k->proto = h[0];
			flowpmd_parse_ports(NULL, 0, 0, &k->sport, &k->dport);
			return;
		}
		hlen = ipv6_ext_len(next, h);
		if (hlen > len - off)
			break;
		next = h[0];
		off += hlen;
	}
	k->proto = next;
	flowpmd_parse_ports(l3 + off, len - off, next, &k->sport, &k->dport);
}
