/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * net_flowgen: a virtual PMD whose RX queues generate traffic from a flow
 * population (flowgen_model.h, flowgen_pkt.h) and whose TX queues count and
 * free what they are given. This file holds the ethdev side: burst
 * functions, ops, devargs table, probe.
 */

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include <rte_malloc.h>
#include <ethdev_vdev.h>
#include <bus_vdev_driver.h>

#include "flowgen_compat.h"
#include "flowgen_model.h"
#include "flowgen_pkt.h"
#include "flowgen_rss.h"

/* devargs keys (test_flowgen_pmd.py reads them here) */
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

/*
 * The devargs, one line each: key, value syntax (PMD info), value type
 * (enum flowgen_val_type), field of struct flowgen_options, bounds. The
 * valid keys, the parsing table and the PMD info string are made from it
 * (X_LAST: the last line, which the info string ends without a space).
 */
#define FLOWGEN_DEVARGS(X, X_LAST) \
	X(FLOWGEN_ARG_FLOWS, "<int>", UINT, flows, 1, FLOWGEN_FLOWS_MAX) \
	X(FLOWGEN_ARG_DIST, "uniform|zipf:<s>", DIST, zipf_s, 0, FLOWGEN_ZIPF_S_MAX) \
	X(FLOWGEN_ARG_NEW_FLOW_RATE, "<0..1>", DOUBLE, new_flow_rate, 0, 1) \
	X(FLOWGEN_ARG_IPV6, "0|1", UINT, ipv6, 0, 1) \
	X(FLOWGEN_ARG_PROTO, "udp|tcp|mix", PROTO, proto, 0, 0) \
	X(FLOWGEN_ARG_PKT_SIZE, "<int>", UINT, pkt_size, 1, FLOWGEN_PKT_SIZE_MAX) \
	X(FLOWGEN_ARG_SEED, "<int>", UINT, seed, 0, UINT64_MAX) \
	X(FLOWGEN_ARG_QUEUES, "<int>", UINT, queues, 1, FLOWGEN_QUEUES_MAX) \
	X(FLOWGEN_ARG_EM_RULES, "<path>", PATH, em_rules, 0, 0) \
	X_LAST(FLOWGEN_ARG_PCAP, "<path>", PATH, pcap, 0, 0)

#define FLOWGEN_DEVARG_KEY(key, ...) key,
#define FLOWGEN_DEVARG_HELP(key, syntax, ...) key "=" syntax " "
#define FLOWGEN_DEVARG_HELP_LAST(key, syntax, ...) key "=" syntax
#define FLOWGEN_DEVARG(key, syntax, type, field, lo, hi) \
	{ key, FLOWGEN_VAL_ ## type, offsetof(struct flowgen_options, field), \
		sizeof(((struct flowgen_options *)NULL)->field), lo, hi },

static const char * const valid_arguments[] = {
	FLOWGEN_DEVARGS(FLOWGEN_DEVARG_KEY, FLOWGEN_DEVARG_KEY)
	NULL
};
static const struct flowgen_devarg flowgen_devargs[] = {
	FLOWGEN_DEVARGS(FLOWGEN_DEVARG, FLOWGEN_DEVARG)
	{ .key = NULL },
};

RTE_LOG_REGISTER_DEFAULT(flowgen_logtype, NOTICE);

static const struct rte_eth_link flowgen_link_down = {
	.link_speed = RTE_ETH_SPEED_NUM_10G,
	.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
	.link_status = RTE_ETH_LINK_DOWN,
	.link_autoneg = RTE_ETH_LINK_FIXED,
};

/* ---------------------------------------------------------------------- */
/* fast path */

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
	for (i = 0; i < n; i++)
		flowgen_build(q, bufs[i], flowgen_slot_bits(q, slot[i], gen[i]), ipv6);
	return n;
}

/* Single writer per queue: a relaxed store lets stats_get read without tearing. */
static inline void
flowgen_count(struct flowgen_stats *st, uint64_t n, uint64_t b)
{
	rte_atomic_store_explicit(&st->pkts,
		rte_atomic_load_explicit(&st->pkts, rte_memory_order_relaxed) + n,
		rte_memory_order_relaxed);
	rte_atomic_store_explicit(&st->bytes,
		rte_atomic_load_explicit(&st->bytes, rte_memory_order_relaxed) + b,
		rte_memory_order_relaxed);
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
			rte_atomic_fetch_add_explicit(q->alloc_failed, n,
						      rte_memory_order_relaxed);
			break;
		}
		done += got;
	}
	flowgen_count(&q->stats, done, (uint64_t)done * q->pkt_size);
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
	flowgen_count(&q->stats, nb_bufs, bytes);
	return nb_bufs;
}

/* ---------------------------------------------------------------------- */
/* control path */

static int
flowgen_noop(struct rte_eth_dev *dev __rte_unused)
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
flowgen_dev_close(struct rte_eth_dev *dev)
{
	uint16_t i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		flowgen_rx_queue_release(dev, i);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		flowgen_tx_queue_release(dev, i);
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
	info->reta_size = FLOWGEN_RETA_SIZE;
	info->hash_key_size = FLOWGEN_RSS_KEY_LEN;
	info->flow_type_rss_offloads = FLOWGEN_RSS_OFFLOADS;
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_RSS_HASH | RTE_ETH_RX_OFFLOAD_CHECKSUM;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	info->tx_queue_offload_capa = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	info->speed_capa = RTE_ETH_LINK_SPEED_10G;
	return 0;
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
	/*
	 * mbufs carry the RSS hash in an RSS Rx mode, the only one ethdev
	 * accepts RTE_ETH_RX_OFFLOAD_RSS_HASH in (delivered with or without that
	 * offload, as most NICs do for applications that predate it). Without it
	 * a packet costs a few cycles less: the hash is an XOR of eight entries.
	 */
	q->rss_hash = (dev->data->dev_conf.rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG) != 0;
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

static int
flowgen_link_update(struct rte_eth_dev *dev, int wait __rte_unused)
{
	struct rte_eth_link link = flowgen_link_down;

	if (dev->data->dev_started)
		link.link_status = RTE_ETH_LINK_UP;
	return rte_eth_linkstatus_set(dev, &link);
}

static int
flowgen_mtu_set(struct rte_eth_dev *dev __rte_unused, uint16_t mtu __rte_unused)
{
	return 0;
}

/*
 * The counters of a port's queues since the last reset, added to its totals
 * and, with q_pkts, stored per queue; off locates them in a queue.
 */
static void
flowgen_queues_stats(void * const *queues, uint16_t nb, size_t off, uint64_t *pkts,
		uint64_t *bytes, uint64_t *q_pkts, uint64_t *q_bytes)
{
	const struct flowgen_stats *qs;
	uint64_t p, b;
	uint16_t i;

	for (i = 0; i < nb; i++) {
		if (queues[i] == NULL)
			continue;
		qs = RTE_PTR_ADD(queues[i], off);
		p = rte_atomic_load_explicit(&qs->pkts, rte_memory_order_relaxed) -
			qs->pkts_base;
		b = rte_atomic_load_explicit(&qs->bytes, rte_memory_order_relaxed) -
			qs->bytes_base;
		*pkts += p;
		*bytes += b;
		if (q_pkts != NULL && i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			q_pkts[i] = p;
			q_bytes[i] = b;
		}
	}
}

static int
flowgen_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st,
		  struct eth_queue_stats *qst)
{
	/* ethdev asks for the queue counters only when it shows them */
	flowgen_queues_stats(dev->data->rx_queues, dev->data->nb_rx_queues,
		offsetof(struct flowgen_rxq, stats), &st->ipackets, &st->ibytes,
		qst != NULL ? qst->q_ipackets : NULL, qst != NULL ? qst->q_ibytes : NULL);
	flowgen_queues_stats(dev->data->tx_queues, dev->data->nb_tx_queues,
		offsetof(struct flowgen_txq, stats), &st->opackets, &st->obytes,
		qst != NULL ? qst->q_opackets : NULL, qst != NULL ? qst->q_obytes : NULL);
	return 0;
}

/* A reset snapshots the counters, so that it never races with the datapath. */
static void
flowgen_queues_stats_reset(void * const *queues, uint16_t nb, size_t off)
{
	struct flowgen_stats *qs;
	uint16_t i;

	for (i = 0; i < nb; i++) {
		if (queues[i] == NULL)
			continue;
		qs = RTE_PTR_ADD(queues[i], off);
		qs->pkts_base = rte_atomic_load_explicit(&qs->pkts, rte_memory_order_relaxed);
		qs->bytes_base = rte_atomic_load_explicit(&qs->bytes, rte_memory_order_relaxed);
	}
}

static int
flowgen_stats_reset(struct rte_eth_dev *dev)
{
	flowgen_queues_stats_reset(dev->data->rx_queues, dev->data->nb_rx_queues,
		offsetof(struct flowgen_rxq, stats));
	flowgen_queues_stats_reset(dev->data->tx_queues, dev->data->nb_tx_queues,
		offsetof(struct flowgen_txq, stats));
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
		if (conf->rss_key_len < FLOWGEN_RSS_KEY_LEN)
			return -EINVAL;
		memcpy(conf->rss_key, pi->rss_key, FLOWGEN_RSS_KEY_LEN);
	}
	conf->rss_key_len = FLOWGEN_RSS_KEY_LEN;
	return 0;
}

static int
flowgen_reta_query(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *reta,
		uint16_t reta_size)
{
	uint16_t nb_queues = RTE_MAX(dev->data->nb_rx_queues, (uint16_t)1);
	uint16_t i;

	if (reta_size != FLOWGEN_RETA_SIZE)
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
	.dev_configure = flowgen_noop,
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
	flowgen_rss_init(pi);
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
	ret = flowgen_args_parse(rte_vdev_device_args(vdev), flowgen_devargs, valid_arguments, &o);
	if (ret != 0)
		return ret;
	ret = flowgen_pkt_size(&o, &pkt_size);
	if (ret != 0)
		return ret;
	FLOWGEN_LOG(INFO, "%s: %u flows, zipf s %.2f, new flows %.4f, %s/%s, %u bytes, %u queues",
		rte_vdev_device_name(vdev), o.flows, o.zipf_s, o.new_flow_rate,
		o.ipv6 ? "ipv6" : "ipv4",
		flowgen_proto_names[o.proto],
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
	FLOWGEN_DEVARGS(FLOWGEN_DEVARG_HELP, FLOWGEN_DEVARG_HELP_LAST));
