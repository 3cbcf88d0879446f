/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RTE_ETH_FLOWGEN_H_
#define _RTE_ETH_FLOWGEN_H_

/**
 * @file
 * net_flowgen: a virtual traffic generator PMD.
 *
 * Each RX queue returns frames drawn from its share of a flow population:
 * Ethernet / IPv4 or IPv6 / UDP or TCP with valid IPv4 header and L4
 * checksums. TX counts the mbufs and frees them.
 *
 * Devargs (all optional):
 *   flows=<n>            flows in the population (default 1024), split over
 *                        the configured RX queues by RSS
 *   dist=uniform|zipf[:<s>]  flow popularity (zipf exponent s, default 1.0)
 *   new_flow_rate=<p>    share of packets (0..1) that start a new flow, which
 *                        replaces a flow of the population: with one queue
 *                        in the order of a seeded permutation (each flow
 *                        once per `flows` new flows), with several queues a
 *                        flow of the queue's own picked uniformly
 *   ipv6=0|1             IPv6 instead of IPv4
 *   proto=udp|tcp|mix    L4 protocol; mix gives each flow one of both
 *   pkt_size=<bytes>     frame length (pkt_len), default 64 (or the smallest
 *                        length holding the headers, when that is larger)
 *   seed=<n>             population and sampling seed (default 0)
 *   queues=<n>           RX and TX queues the port offers (default 1)
 *   em_rules=<path>      at port start, write the population (the flows the
 *                        RX queues generate) as l3fwd exact-match rules
 *   pcap=<path>          at port start, write a capture of one frame per
 *                        flow of the population, in a seeded random order
 *
 * The generated population, so that tests can check what they parse:
 *   - source address 10.0.0.0/9 (IPv4) or fd00::/64 (IPv6),
 *     destination 10.128.0.0/9 or fd00:0:0:1::/64;
 *   - source port in 32768..65535, destination port one of a few services;
 *   - every 5-tuple is distinct over the life of the port, churn included
 *     (until one flow's place in the population has been renewed 2^32
 *     times, about flows x 2^32 new flows);
 *   - in RSS Rx mode (mq_mode RTE_ETH_MQ_RX_RSS; not computed otherwise),
 *     mbuf hash.rss is the Toeplitz hash of (src, dst, sport, dport) with the
 *     key reported by rte_eth_dev_rss_hash_conf_get(), and a flow's queue is
 *     reta[hash % RTE_PMD_FLOWGEN_RETA_SIZE] with reta[i] = i % nb_rx_queues.
 *
 * Cost: a packet's headers, checksums and RSS hash are computed from its
 * flow number, so with one queue and uniform popularity (churn or not) the
 * generator reads no per-flow memory and its cost does not depend on flows.
 * Per-flow memory, read a burst ahead: 4 bytes with several RX queues,
 * 8 bytes with dist=zipf.
 */

#ifdef __cplusplus
extern "C" {
#endif

/** Driver name, for rte_vdev_init("net_flowgen0", args). */
#define RTE_PMD_FLOWGEN_NAME "net_flowgen"

/** Default frame length in bytes (pkt_len of every generated mbuf). */
#define RTE_PMD_FLOWGEN_PKT_SIZE_DEFAULT 64

/** Largest accepted pkt_size (a frame always fits one mbuf segment). */
#define RTE_PMD_FLOWGEN_PKT_SIZE_MAX 9216

/** Largest accepted number of flows. */
#define RTE_PMD_FLOWGEN_FLOWS_MAX (1u << 26)

/** Entries of the RSS redirection table. */
#define RTE_PMD_FLOWGEN_RETA_SIZE 128

/** Length of the RSS (Toeplitz) key in bytes. */
#define RTE_PMD_FLOWGEN_RSS_KEY_LEN 40

#ifdef __cplusplus
}
#endif

#endif /* _RTE_ETH_FLOWGEN_H_ */
