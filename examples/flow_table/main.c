/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * flow_table: the smallest complete use of rte_rhashtable in a packet path.
 *
 * - one worker lcore receives from port 0, keys each IPv4 packet by its
 *   5-tuple, looks the burst up in the table and creates the flows it does
 *   not find, then sends the burst back out;
 * - the table resizes itself: its rehash service runs on the service lcores
 *   (EAL -s), or on the main lcore when there is none;
 * - the main lcore ages flows idle for --timeout seconds with a table walk,
 *   and the removed flows go back to their mempool through RCU QSBR, once
 *   the worker can no longer hold them;
 * - SIGINT, or the end of --duration, stops everything cleanly.
 *
 * Run: dpdk-flow_table -l 0-1 --vdev net_null0 -- --duration 5
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_rcu_qsbr.h>
#include <rte_service.h>

#include <rte_rhashtable.h>

#ifdef RHT_EAL_MEM
#include "rht_eal_mem.h"
#endif

#define BURST 32
#define MAX_FLOWS (1 << 20)

/* The key: an IPv4 5-tuple, 16 bytes with the padding zeroed. */
struct flow_key {
	uint32_t src;
	uint32_t dst;
	uint16_t sport;
	uint16_t dport;
	uint8_t proto;
	uint8_t pad[3];
};

/*
 * A flow. The table is intrusive: the flow embeds the table's link
 * (struct rte_rhash_head), so a lookup returns the flow itself.
 */
struct flow {
	struct rte_rhash_head node;
	struct flow_key key;
	uint64_t pkts;      /* written by the worker only */
	uint64_t last_seen; /* TSC; read by the main lcore for aging */
	bool picked;        /* main lcore only: chosen for removal */
};

static volatile bool quit;
static volatile bool worker_run = true;
static struct rte_rhashtable *table;
static struct rte_rcu_qsbr *qsbr;
static struct rte_mempool *flow_pool;

static void
on_signal(int sig)
{
	RTE_SET_USED(sig);
	quit = true;
}

/* Called by the table's defer queue once no reader can hold obj, and for
 * each flow left at exit by rte_rhashtable_free_and_destroy().
 */
static void
flow_free(void *ctx, void *obj)
{
	rte_mempool_put(ctx, obj);
}

/* Step 1: the table, with a QSBR variable on which its readers report. */
static int
table_create(void)
{
	struct rte_rhashtable_params params = {
		.name = "flow_table",
		.socket_id = rte_socket_id(),
		.key_len = sizeof(struct flow_key),
		.key_offset = offsetof(struct flow, key),
		.head_offset = offsetof(struct flow, node),
		.automatic_shrinking = true,    /* halve when flows age out */
	};
	struct rte_rhashtable_rcu_config rcu = {
		.mode = RTE_RHASHTABLE_QSBR_MODE_DQ, /* free later, never block */
		.free_obj = flow_free,
	};
	size_t sz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);

	qsbr = rte_zmalloc("flow_table_qsbr", sz, RTE_CACHE_LINE_SIZE);
	flow_pool = rte_mempool_create("flow_table_flows", MAX_FLOWS, sizeof(struct flow),
				       256, 0, NULL, NULL, NULL, NULL, rte_socket_id(), 0);
	if (qsbr == NULL || flow_pool == NULL || rte_rcu_qsbr_init(qsbr, RTE_MAX_LCORE) != 0)
		return -ENOMEM;
	table = rte_rhashtable_create(&params);
	if (table == NULL)
		return -rte_errno;
	rcu.v = qsbr;
	rcu.free_obj_ctx = flow_pool;
	return rte_rhashtable_rcu_qsbr_add(table, &rcu);
}

/*
 * Step 2: the rehash worker is an rte_service; map it to every service
 * lcore. Returns the number of service lcores (0: the main lcore must call
 * rte_rhashtable_rehash_run() itself).
 */
static int
rehash_service_map(void)
{
	uint32_t lcores[RTE_MAX_LCORE], id;
	int n, i;

	if (rte_rhashtable_service_id_get(table, &id) != 0)
		return 0;
	n = rte_service_lcore_list(lcores, RTE_DIM(lcores));
	for (i = 0; i < n; i++) {
		rte_service_map_lcore_set(id, lcores[i], 1);
		rte_service_lcore_start(lcores[i]);
	}
	return RTE_MAX(n, 0);
}

static int
port_init(uint16_t port, struct rte_mempool *mbufs)
{
	struct rte_eth_conf conf = { 0 };
	int ret;

	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, 1024, rte_eth_dev_socket_id(port), NULL,
					     mbufs);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, 1024, rte_eth_dev_socket_id(port), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

/* The 5-tuple of an untagged IPv4 frame; false for anything else. */
static bool
flow_key_get(struct rte_mbuf *m, struct flow_key *k)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	const uint16_t *ports;

	if (eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    m->data_len < sizeof(*eth) + sizeof(*ip) ||
	    m->data_len < sizeof(*eth) + rte_ipv4_hdr_len(ip) + 4)
		return false;
	memset(k, 0, sizeof(*k));
	k->src = ip->src_addr;
	k->dst = ip->dst_addr;
	k->proto = ip->next_proto_id;
	if (k->proto == IPPROTO_TCP || k->proto == IPPROTO_UDP) {
		ports = (const uint16_t *)((const uint8_t *)ip + rte_ipv4_hdr_len(ip));
		k->sport = ports[0];
		k->dport = ports[1];
	}
	return true;
}

/* A lookup missed: insert a new flow, or use the one a racing insert made. */
static struct flow *
flow_create(const struct flow_key *key, uint64_t now)
{
	struct flow *f;
	void *existing = NULL;
	int ret;

	if (rte_mempool_get(flow_pool, (void **)&f) != 0)
		return NULL;
	memset(f, 0, sizeof(*f));
	f->key = *key;
	f->last_seen = now;
	ret = rte_rhashtable_lookup_get_insert(table, &f->node, &existing);
	if (ret == 0)
		return f;
	rte_mempool_put(flow_pool, f);  /* never published: free it at once */
	return ret == -EEXIST ? existing : NULL;
}

/* Step 3: the worker. It is a QSBR reader of the table. */
static int
worker_main(void *arg)
{
	unsigned int lcore = rte_lcore_id(), i, n, nk;
	struct rte_mbuf *pkts[BURST];
	struct flow_key keys[BURST];
	const void *kp[BURST];
	void *found[BURST];
	uint16_t port = 0, sent;
	uint64_t now;

	RTE_SET_USED(arg);
	rte_rcu_qsbr_thread_register(qsbr, lcore);
	rte_rcu_qsbr_thread_online(qsbr, lcore);
	while (worker_run) {
		n = rte_eth_rx_burst(port, 0, pkts, BURST);
		now = rte_rdtsc();
		for (i = 0, nk = 0; i < n; i++)
			if (flow_key_get(pkts[i], &keys[nk]))
				kp[nk] = &keys[nk], nk++;
		/* one call looks the whole burst up, overlapping the cache misses */
		if (nk > 0)
			rte_rhashtable_lookup_bulk(table, kp, nk, NULL, found);
		for (i = 0; i < nk; i++) {
			struct flow *f = found[i] != NULL ? found[i] : flow_create(&keys[i], now);

			if (f == NULL)
				continue;
			/* one writer per flow: relaxed stores, no locked instruction */
			rte_atomic_store_explicit(&f->pkts, f->pkts + 1, rte_memory_order_relaxed);
			rte_atomic_store_explicit(&f->last_seen, now, rte_memory_order_relaxed);
		}
		sent = n > 0 ? rte_eth_tx_burst(port, 0, pkts, n) : 0;
		if (sent < n)
			rte_pktmbuf_free_bulk(pkts + sent, n - sent);
		/* the flows found above are no longer used: let them be freed */
		rte_rcu_qsbr_quiescent(qsbr, lcore);
	}
	rte_rcu_qsbr_thread_offline(qsbr, lcore);
	rte_rcu_qsbr_thread_unregister(qsbr, lcore);
	return 0;
}

/*
 * Step 4: aging on the main lcore. The walk makes the main lcore a reader,
 * so it registers with the QSBR variable and goes online for each batch.
 * It removes the batch's expired flows after going offline again: a
 * removal may wait for a grace period, which must not include itself.
 */
static unsigned int
flows_age(uint64_t now, uint64_t timeout)
{
	unsigned int lcore = rte_lcore_id(), n, i, aged = 0;
	struct rte_rhashtable_iter it;
	struct flow *batch[256];
	void *obj;
	bool end = false;
	int ret;

	rte_rhashtable_walk_enter(table, &it);
	while (!end) {
		n = 0;
		rte_rcu_qsbr_thread_online(qsbr, lcore);
		rte_rhashtable_walk_start(&it);
		while (n < RTE_DIM(batch)) {
			ret = rte_rhashtable_walk_next(&it, &obj);
			if (ret == -EAGAIN)     /* resized meanwhile: keep walking */
				continue;
			if (ret != 0) {
				end = true;
				break;
			}
			struct flow *f = obj;
			int64_t idle = now - rte_atomic_load_explicit(&f->last_seen, rte_memory_order_relaxed);

			/* picked: a walk resumed after a resize may see f again */
			if (idle > (int64_t)timeout && !f->picked) {
				f->picked = true;
				batch[n++] = f;
			}
		}
		rte_rhashtable_walk_stop(&it);
		rte_rcu_qsbr_thread_offline(qsbr, lcore);
		for (i = 0; i < n; i++)
			aged += rte_rhashtable_remove(table, &batch[i]->node) == 0;
	}
	rte_rhashtable_walk_exit(&it);
	return aged;
}

static int
parse_args(int argc, char **argv, double *duration, double *timeout)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'd')
			*duration = atof(optarg);
		else if (opt == 't')
			*timeout = atof(optarg);
		else
			return -1;
	}
	return 0;
}

/* Step 5: the main lcore's loop: rehash (if needed), age, report. */
static void
main_loop(unsigned int nb_service_lcores, double duration, double timeout_s)
{
	uint64_t hz = rte_get_tsc_hz(), start = rte_rdtsc(), next_report = start + hz;
	uint64_t timeout = timeout_s * hz, now;
	unsigned int aged = 0;

	while (!quit) {
		rte_delay_us_sleep(10000);
		now = rte_rdtsc();
		if (nb_service_lcores == 0)
			rte_rhashtable_rehash_run(table);
		if (now < next_report)
			continue;
		aged += flows_age(now, timeout);
		printf("flows: %u, aged: %u\n", rte_rhashtable_count(table), aged);
		fflush(stdout);
		next_report += hz;
		if (duration > 0 && now - start >= duration * hz)
			break;
	}
}

int
main(int argc, char **argv)
{
	double duration = 0, timeout = 10;
	struct rte_mempool *mbufs;
	unsigned int worker;
	int ret, nb_service;

#ifdef RHT_EAL_MEM
	argv = rht_eal_args_with_memory(&argc, argv, 512);
#endif
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "EAL initialisation failed\n");
	if (parse_args(argc - ret, argv + ret, &duration, &timeout) != 0)
		rte_exit(EXIT_FAILURE, "usage: %s [EAL] -- [--duration SEC] [--timeout SEC]\n",
			 argv[0]);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE || rte_eth_dev_count_avail() == 0)
		rte_exit(EXIT_FAILURE, "need a worker lcore and a port (-l 0-1 --vdev ...)\n");
	mbufs = rte_pktmbuf_pool_create("flow_table_mbufs", 8191, 256, 0,
					RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (mbufs == NULL || port_init(0, mbufs) != 0)
		rte_exit(EXIT_FAILURE, "cannot set port 0 up\n");
	if (table_create() != 0)
		rte_exit(EXIT_FAILURE, "cannot create the flow table\n");
	nb_service = rehash_service_map();
	printf("rehash on %s\n", nb_service > 0 ? "the service lcore(s)" : "the main lcore");

	/* the main lcore reads the table during its walks */
	rte_rcu_qsbr_thread_register(qsbr, rte_lcore_id());
	rte_eal_remote_launch(worker_main, NULL, worker);
	main_loop(nb_service, duration, timeout);

	/* Step 6: shutdown: stop the reader, then free the flows and the table. */
	worker_run = false;
	rte_eal_wait_lcore(worker);
	printf("flow_table: %u flows at exit\n", rte_rhashtable_count(table));
	rte_eth_dev_stop(0);
	rte_eth_dev_close(0);
	/* after the port, which returns the mbufs it held at close */
	rte_mempool_free(mbufs);
	rte_rhashtable_free_and_destroy(table, flow_free, flow_pool);
	rte_mempool_free(flow_pool);
	rte_free(qsbr);
	rte_eal_cleanup();
	return 0;
}
