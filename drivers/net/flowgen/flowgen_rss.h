/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _FLOWGEN_RSS_H_
#define _FLOWGEN_RSS_H_

/*
 * The RSS (Toeplitz) hash of a flow is linear over GF(2) in its 64 bits, so
 * it is the XOR of one precomputed table entry per byte of those bits.
 */

#include "flowgen_pvt.h"

#define FLOWGEN_RSS_OFFLOADS \
	(RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_UDP | RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
	 RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_NONFRAG_IPV6_TCP)

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
	return (rss % FLOWGEN_RETA_SIZE) % nb_queues;
}

void flowgen_rss_init(struct pmd_internals *pi);

#endif /* _FLOWGEN_RSS_H_ */
