/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#include <string.h>

#include <rte_thash.h>

#include "flowgen_pkt.h"
#include "flowgen_rss.h"

/* Toeplitz hash of a flow's (src, dst, sport, dport), as a NIC's RSS computes it. */
static uint32_t
flowgen_bits_rss_slow(const struct pmd_internals *pi, uint64_t v)
{
	union rte_thash_tuple tt;
	struct rte_ipv6_hdr ip6;
	struct flowgen_tuple t;

	flowgen_tuple_make(pi->opt.ipv6, v, &t);
	memset(&tt, 0, sizeof(tt));
	if (!pi->opt.ipv6) {
		tt.v4.src_addr = t.src4;
		tt.v4.dst_addr = t.dst4;
		tt.v4.sport = t.sport;
		tt.v4.dport = t.dport;
		return rte_softrss((uint32_t *)&tt, RTE_THASH_V4_L4_LEN, pi->rss_key);
	}
	memcpy(&ip6.src_addr, t.src6, sizeof(ip6.src_addr));
	memcpy(&ip6.dst_addr, t.dst6, sizeof(ip6.dst_addr));
	rte_thash_load_v6_addrs(&ip6, &tt);
	tt.v6.sport = t.sport;
	tt.v6.dport = t.dport;
	return rte_softrss((uint32_t *)&tt, RTE_THASH_V6_L4_LEN, pi->rss_key);
}

/*
 * The port's key: the symmetric Toeplitz key (0x6d5a repeated), so that
 * both directions hash alike; and its tables. Toeplitz is an XOR of key windows, one per
 * input bit set: linear over GF(2). A tuple is constants XOR the image of the
 * flow's bits 0..60 (each lands on one address or port bit) XOR the
 * destination port chosen by bits 61..63. So the hash is the XOR of a table
 * entry per byte: byte 7's table holds the constants and the port list, the
 * others their bits' share alone (the hash of the byte alone, XOR that of
 * the constants).
 */
void
flowgen_rss_init(struct pmd_internals *pi)
{
	uint32_t base;
	unsigned int j, b;

	for (j = 0; j < FLOWGEN_RSS_KEY_LEN; j += 2) {
		pi->rss_key[j] = 0x6d;
		pi->rss_key[j + 1] = 0x5a;
	}
	base = flowgen_bits_rss_slow(pi, 0);
	for (j = 0; j < FLOWGEN_RSS_TABS; j++) {
		for (b = 0; b < 256; b++) {
			uint32_t h = flowgen_bits_rss_slow(pi, (uint64_t)b << (8 * j));

			pi->rss_tab[j][b] = j == FLOWGEN_RSS_TABS - 1 ? h : h ^ base;
		}
	}
}
