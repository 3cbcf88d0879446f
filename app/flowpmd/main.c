/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * dpdk-flowpmd: EAL and port setup, the main lcore's loop, shutdown.
 * See flowpmd.h for the threads, "dpdk-flowpmd --help" for the options.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_memory.h>

#include "flowpmd.h"
#include "rht_eal_mem.h"

#define HOUSEKEEPING_US 10000   /* main lcore tick in batch mode */
#define AGING_BUDGET 65536      /* flows the aging walk visits per tick */

struct app app;

static void
on_signal(int sig)
{
	RTE_SET_USED(sig);
	app.quit = true;
}

/*
 * Without hugepages (EAL --no-huge), DPDK memory is ordinary anonymous
 * memory in 4 KiB pages, and nearly every flow lookup in a table of a
 * million flows then misses the TLB as well as the cache. Asking for
 * transparent huge pages before the pools and tables touch that memory
 * gets most of the hugepage speed back. Hugepage-backed memory is left alone.
 */
static int
thp_advise(const struct rte_memseg_list *msl, void *arg)
{
	RTE_SET_USED(arg);
	if (!msl->external && msl->len != 0 &&
	    madvise(msl->base_va, msl->len, MADV_HUGEPAGE) == 0)
		app.thp = true;
	return 0;
}

/* ---- lcores and ports ---- */

static int
lcores_setup(void)
{
	unsigned int lcore;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		app.fwd[app.nb_fwd].lcore_id = lcore;
		app.fwd[app.nb_fwd].index = app.nb_fwd;
		app.nb_fwd++;
	}
	if (app.nb_fwd == 0) {
		printf("need at least one forwarding lcore (EAL -l 0-1)\n");
		return -EINVAL;
	}
	/* see flow_account() */
	app.counters_shared = app.nb_fwd > 1;
	return 0;
}

#define MBUF_CACHE 256

/*
 * The default pool: every queue's descriptors, and per lcore its mempool
 * cache and the bursts in flight in its pipeline.
 */
static uint32_t
mbuf_pool_default_size(void)
{
	unsigned int queues = RTE_MAX(app.rxq_per_port, app.nb_fwd);
	uint32_t n;

	n = app.nb_ports * queues * (app.nb_rxd + app.nb_txd) +
		rte_lcore_count() * (MBUF_CACHE + (FWD_MAX_LOOKUP_STAGES + 1) * app.burst);
	return RTE_MAX(n, 8191U);
}

static int
mbuf_pool_create(void)
{
	uint32_t n = app.total_num_mbufs != 0 ? app.total_num_mbufs : mbuf_pool_default_size();
	/* a cache may hold at most n / 1.5 mbufs (rte_mempool_create) */
	unsigned int cache = n >= MBUF_CACHE * 3 / 2 ? MBUF_CACHE : 0;

	app.mbuf_pool = rte_pktmbuf_pool_create("flowpmd_mbufs", n, cache, 0, app.mbuf_size,
						rte_socket_id());
	if (app.mbuf_pool == NULL) {
		printf("cannot create the mbuf pool (%u mbufs of %u bytes): %s; "
		       "--total-num-mbufs and --mbuf-size change them\n", n, app.mbuf_size,
		       rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

/*
 * Some drivers fill a receive queue at setup: net_pcap with infinite_rx=1
 * reads the whole file into mbufs, one per packet. When that empties the
 * pool, the setup fails with a bare -EINVAL; the driver logs how many mbufs
 * it wanted, and the port counts the failed allocation (rx_nombuf). The
 * setup's log lines are captured, so that the advice can name the number.
 */
struct rxq_setup_trace {
	FILE *prev_log;
	char *log;
	size_t log_len;
	FILE *mem;
	uint64_t nombuf;       /**< Port's rx_nombuf before the setup. */
	unsigned int avail;    /**< Free mbufs before the setup. */
};

static uint64_t
port_nombuf(uint16_t port)
{
	struct rte_eth_stats st;

	return rte_eth_stats_get(port, &st) == 0 ? st.rx_nombuf : 0;
}

static void
rxq_setup_trace_begin(uint16_t port, struct rxq_setup_trace *t)
{
	memset(t, 0, sizeof(*t));
	t->nombuf = port_nombuf(port);
	t->avail = rte_mempool_avail_count(app.mbuf_pool);
	t->prev_log = rte_log_get_stream();
	t->mem = open_memstream(&t->log, &t->log_len);
	if (t->mem != NULL)
		rte_openlog_stream(t->mem);
}

/* Restore the log stream and pass on what the setup logged. */
static void
rxq_setup_trace_end(struct rxq_setup_trace *t)
{
	if (t->mem == NULL)
		return;
	rte_openlog_stream(t->prev_log);
	fclose(t->mem);
	if (t->log_len > 0) {
		fputs(t->log, t->prev_log);
		fflush(t->prev_log);
	}
}

/* "At least N mbufs" in the driver's log (net_pcap's words), else 0. */
static uint64_t
logged_mbufs_wanted(const char *log)
{
	const char *p = log != NULL ? strstr(log, "At least ") : NULL;
	uint64_t n;

	if (p == NULL || sscanf(p, "At least %" SCNu64 " mbufs", &n) != 1)
		return 0;
	return n;
}

static void
rxq_setup_explain(uint16_t port, uint16_t q, int ret, const struct rxq_setup_trace *t)
{
	uint32_t size = app.mbuf_pool->size;
	uint64_t wanted = logged_mbufs_wanted(t->log);
	uint64_t need;

	if (port_nombuf(port) == t->nombuf) {
		printf("port %u: RX queue %u setup failed: %s (mbufs: %u of %u bytes, "
		       "--total-num-mbufs and --mbuf-size change them)\n", port, q,
		       strerror(-ret), size, app.mbuf_size);
		return;
	}
	/* the queue needs wanted, the rest of the application the default pool */
	if (wanted != 0) {
		need = (uint64_t)size - t->avail + wanted + mbuf_pool_default_size();
		printf("port %u: RX queue %u setup failed: the mbuf pool ran out: the driver "
		       "wants %" PRIu64 " mbufs for the queue, %u were free; raise "
		       "--total-num-mbufs from %u to at least %" PRIu64 "\n", port, q, wanted,
		       t->avail, size, need);
	} else {
		printf("port %u: RX queue %u setup failed: the mbuf pool ran out (%u of %u "
		       "mbufs were free); raise --total-num-mbufs above %u, for instance to %"
		       PRIu64 "\n", port, q, t->avail, size, size, (uint64_t)size * 2);
	}
	if ((uint64_t)size * (app.mbuf_size + sizeof(struct rte_mbuf)) > (1ULL << 30))
		printf("  (a smaller --mbuf-size, now %u bytes, saves memory when the frames "
		       "are short)\n", app.mbuf_size);
}

static int
rxq_setup(uint16_t port, uint16_t q, uint16_t nb_rxd, int socket)
{
	struct rxq_setup_trace t;
	int ret;

	rxq_setup_trace_begin(port, &t);
	ret = rte_eth_rx_queue_setup(port, q, nb_rxd, socket, NULL, app.mbuf_pool);
	rxq_setup_trace_end(&t);
	if (ret != 0)
		rxq_setup_explain(port, q, ret, &t);
	free(t.log);
	return ret;
}

static void
port_conf_fill(const struct rte_eth_dev_info *info, uint16_t nb_rxq, struct rte_eth_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	if (nb_rxq > 1 && info->flow_type_rss_offloads != 0) {
		/* RSS keeps a flow on one queue, hence on one lcore */
		conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf->rx_adv_conf.rss_conf.rss_hf = (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP |
			RTE_ETH_RSS_UDP) & info->flow_type_rss_offloads;
	}
	if (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
}

static int
port_queues_setup(uint16_t port, const struct port_info *pi)
{
	int socket = rte_eth_dev_socket_id(port);
	uint16_t nb_rxd = app.nb_rxd, nb_txd = app.nb_txd, q;
	int ret;

	if (socket < 0)
		socket = SOCKET_ID_ANY;
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (ret != 0)
		return ret;
	for (q = 0; q < pi->nb_rxq; q++) {
		ret = rxq_setup(port, q, nb_rxd, socket);
		if (ret != 0)
			return ret;
	}
	for (q = 0; q < pi->nb_txq; q++) {
		ret = rte_eth_tx_queue_setup(port, q, nb_txd, socket, NULL);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/*
 * After a failed queue setup, give the port no RX queue before it is closed:
 * net_pcap (infinite_rx, DPDK 22.11 to 25.11) frees its packet ring when
 * the RX queue setup fails but keeps the pointer, and its close, for every
 * RX queue the port has, frees the ring again: the process crashed at exit.
 */
static void
port_queues_drop(uint16_t port, const struct port_info *pi, const struct rte_eth_conf *conf)
{
	if (rte_eth_dev_configure(port, 0, pi->nb_txq, conf) != 0)
		printf("port %u: could not drop its RX queues after the failed setup\n", port);
}

static int
port_init(uint16_t port)
{
	struct port_info *pi = &app.port[port];
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	unsigned int i;
	int ret;

	ret = rte_eth_dev_info_get(port, &info);
	if (ret != 0)
		return ret;
	pi->nb_rxq = RTE_MIN(app.rxq_per_port ? app.rxq_per_port : app.nb_fwd,
			     info.max_rx_queues);
	pi->nb_txq = RTE_MIN(app.nb_fwd, info.max_tx_queues);
	pi->tx_shared = pi->nb_txq < app.nb_fwd;
	for (i = 0; i < RTE_DIM(pi->txq_lock); i++)
		rte_spinlock_init(&pi->txq_lock[i]);
	port_conf_fill(&info, pi->nb_rxq, &conf);
	ret = rte_eth_dev_configure(port, pi->nb_rxq, pi->nb_txq, &conf);
	if (ret != 0)
		return ret;
	ret = port_queues_setup(port, pi);
	if (ret != 0) {
		port_queues_drop(port, pi, &conf);
		return ret;
	}
	ret = rte_eth_dev_start(port);
	if (ret != 0)
		return ret;
	rte_eth_promiscuous_enable(port);	/* not every vdev has it */
	printf("port %u (%s): %u RX queue(s), %u TX queue(s)%s\n", port, info.driver_name,
	       pi->nb_rxq, pi->nb_txq, pi->tx_shared ? ", shared TX queues" : "");
	return 0;
}

/* Spread every port's RX queues over the forwarding lcores, round robin. */
static void
queues_assign(void)
{
	unsigned int k = 0, i;
	struct fwd_lcore *fl;
	uint16_t p, q, port;

	for (p = 0; p < app.nb_ports; p++) {
		port = app.ports[p];
		for (q = 0; q < app.port[port].nb_rxq; q++, k++) {
			fl = &app.fwd[k % app.nb_fwd];
			if (fl->nb_rxq == FLOWPMD_MAX_LCORE_RXQ)
				continue;
			fl->rxq[fl->nb_rxq].port = port;
			fl->rxq[fl->nb_rxq].queue = q;
			fl->nb_rxq++;
		}
	}
	for (i = 0; i < app.nb_fwd; i++)
		printf("lcore %u polls %u RX queue(s)\n", app.fwd[i].lcore_id, app.fwd[i].nb_rxq);
}

static int
ports_setup(void)
{
	uint16_t port, i;
	int ret;

	RTE_ETH_FOREACH_DEV(port) {
		if (app.nb_ports == FLOWPMD_MAX_PORTS)
			break;
		app.ports[app.nb_ports++] = port;
	}
	if (app.nb_ports == 0) {
		printf("no port: give a device or --vdev (net_flowgen0, net_pcap0,...)\n");
		return -ENODEV;
	}
	ret = mbuf_pool_create();
	if (ret != 0)
		return ret;
	for (i = 0; i < app.nb_ports; i++) {
		port = app.ports[i];
		/* ports pair up (0<->1, 2<->3); an odd last port sends to itself */
		app.port[port].peer = (i ^ 1) < app.nb_ports ? app.ports[i ^ 1] : port;
		ret = port_init(port);
		if (ret != 0) {
			printf("port %u: setup failed: %s\n", port, strerror(-ret));
			return ret;
		}
	}
	queues_assign();
	return 0;
}

static void
ports_close(void)
{
	uint16_t i;

	for (i = 0; i < app.nb_ports; i++) {
		rte_eth_dev_stop(app.ports[i]);
		rte_eth_dev_close(app.ports[i]);
	}
}

/* ---- main loop ---- */

/*
 * The main lcore's periodic work; false once the application should exit.
 * Called every 10 ms (batch mode) or between keystrokes (interactive).
 */
static bool
flowpmd_housekeeping(void)
{
	static struct app_totals prev;
	static uint64_t next_stats;
	uint64_t now = rte_rdtsc(), hz = rte_get_tsc_hz();
	/* telemetry reports the period's rates even when no line is printed */
	double period_s = app.stats_period_s > 0 ? app.stats_period_s : 1.0;
	struct stats_period p;
	struct app_totals cur;

	flow_table_housekeeping(app.ft, now, AGING_BUDGET);
	if (app.fwd_started) {
		if (next_stats == 0) {
			stats_collect(&prev);
			next_stats = now + period_s * hz;
		} else if (now >= next_stats) {
			stats_collect(&cur);
			stats_period_compute(&prev, &cur, &p);
			telemetry_period_publish(&p);
			if (!app.interactive && app.stats_period_s > 0)
				stats_print_period(&prev, &cur);
			prev = cur;
			next_stats += period_s * hz;
			if (next_stats <= now)	/* forwarding was stopped meanwhile */
				next_stats = now + period_s * hz;
		}
	}
	if (app.duration_s > 0 && app.fwd_started &&
	    (double)(now - app.start_tsc) >= app.duration_s * hz)
		return false;
	return !app.quit;
}

static void
batch_run(void)
{
	if (fwd_start() != 0)
		return;
	while (flowpmd_housekeeping())
		rte_delay_us_sleep(HOUSEKEEPING_US);
}

static int
flows_dump(void)
{
	FILE *f = fopen(app.dump_flows_path, "w");

	if (f == NULL) {
		printf("cannot write %s: %s\n", app.dump_flows_path, strerror(errno));
		return -errno;
	}
	flow_table_dump_json(app.ft, f);
	fclose(f);
	return 0;
}

static int
json_open(void)
{
	if (app.json_path == NULL)
		return 0;
	if (strcmp(app.json_path, "-") == 0) {
		app.json = stdout;
		return 0;
	}
	app.json = fopen(app.json_path, "w");
	if (app.json == NULL) {
		printf("cannot write %s: %s\n", app.json_path, strerror(errno));
		return -errno;
	}
	return 0;
}

static void
finish(void)
{
	struct app_totals tot;

	fwd_stop();
	stats_collect(&tot);
	stats_print_summary(&tot);
	if (app.dump_flows_path != NULL)
		flows_dump();
	if (app.json != NULL && app.json != stdout)
		fclose(app.json);
}

static int
app_setup(void)
{
	int ret;

	ret = lcores_setup();
	if (ret == 0)
		ret = json_open();
	if (ret == 0)
		ret = ports_setup();
	if (ret != 0)
		return ret;
	app.ft = flow_table_create(&app.ft_cfg);
	if (app.ft == NULL)
		return -ENOMEM;
	telemetry_start();
	printf("flow table: %s, up to %u IPv4 and %u IPv6 flows, timeout %.1f s, fwd %s\n",
	       app.ft->ops->name, app.ft_cfg.max_flows, app.ft_cfg.max_flows6,
	       app.ft_cfg.timeout_s, fwd_mode_name(app.fwd_mode));
	return flow_table_map_services(app.ft);
}

int
main(int argc, char **argv)
{
	char **eal_argv;
	int ret;

	/* "dpdk-flowpmd --help": EAL prints its options, then ours, and exits */
	rte_set_application_usage_hook(flowpmd_usage);
	if (flowpmd_help_wanted(argc, argv)) {
		flowpmd_usage(argv[0]);
		return EXIT_SUCCESS;
	}
	eal_argv = rht_eal_args_with_memory(&argc, argv, flowpmd_mem_estimate(argc, argv));
	ret = rte_eal_init(argc, eal_argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "EAL initialisation failed\n");
	argc -= ret;
	eal_argv += ret;
	optind = 1;
	if (flowpmd_parse_args(argc, eal_argv) != 0) {
		rte_eal_cleanup();
		return EXIT_FAILURE;
	}
	if (!rte_eal_has_hugepages())
		rte_memseg_list_walk(thp_advise, NULL);
	if (app.thp)
		printf("no hugepages: asked for transparent huge pages (madvise)\n");
	/* keep our lines in order with the command line's direct writes */
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	ret = app_setup();
	if (ret == 0) {
		if (app.interactive) {
			if (app.auto_start)
				fwd_start();
			flowpmd_cmdline_run(flowpmd_housekeeping);
		} else {
			batch_run();
		}
		finish();
	}
	ports_close();
	if (app.ft != NULL)
		telemetry_stop();
	flow_table_free(app.ft);
	/* after the ports, which return the mbufs they held at close */
	rte_mempool_free(app.mbuf_pool);
	rte_eal_cleanup();
	return ret == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
