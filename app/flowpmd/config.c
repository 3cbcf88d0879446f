/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/* Application options (after EAL's, behind "--"). */

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_service.h>

#include "flowpmd.h"

#define DEFAULT_MAX_FLOWS (1U << 20)

static const char *const fwd_mode_names[] = {
	[FWD_MODE_IO] = "io",
	[FWD_MODE_DROP] = "drop",
	[FWD_MODE_MACSWAP] = "macswap",
};

const char *
fwd_mode_name(enum fwd_mode m)
{
	return fwd_mode_names[m];
}

int
fwd_mode_parse(const char *s, enum fwd_mode *m)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(fwd_mode_names); i++) {
		if (strcmp(s, fwd_mode_names[i]) == 0) {
			*m = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Also EAL's usage hook: "dpdk-flowpmd --help" prints it after EAL's options. */
void
flowpmd_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [options]\n"
	       "  -i, --interactive        command prompt (flowpmd> ); default: batch mode,\n"
	       "                           forwarding until --duration or SIGINT\n"
	       "  --auto-start             start forwarding at once (implied in batch mode)\n"
	       "  --duration=SEC           stop after SEC seconds of forwarding, print the summary\n"
	       "  --fwd=io|drop|macswap    forwarding mode (default io)\n"
	       "  --flow-table=rhashtable|rte_hash   flow table backend (default rhashtable)\n"
	       "  --max-flows=N            IPv4 flows: flow mempool size and rte_hash entries\n"
	       "                           (K, M, Ki, Mi suffixes; default 1Mi)\n"
	       "  --max-flows6=N           IPv6 flows (default max-flows / 8, at least 4096)\n"
	       "  --flow-timeout=SEC       age flows idle longer than SEC (default 10)\n"
	       "  --stats-period=SEC       stats line period in batch mode (default 1, 0: off)\n"
	       "  --json[=FILE]            stats lines and summary as JSON lines, to FILE\n"
	       "                           (default or \"-\": stdout, replacing the text lines)\n"
	       "  --dump-flows=FILE        at exit, write every flow with its counters as JSON\n"
	       "  --pipeline=N             bursts received ahead of the one looked up, their\n"
	       "                           buckets and objects prefetched meanwhile (0-3,\n"
	       "                           default 1; rhashtable backend only)\n"
	       "  --rxq=N                  RX queues per port (default: one per forwarding lcore)\n"
	       "  --rxd=N, --txd=N         descriptors per queue (default 1024)\n"
	       "  --burst=N                packets per receive burst, 1-%u (default %u)\n"
	       "  --total-num-mbufs=N      mbufs in the pool (default: enough for the\n"
	       "                           descriptors, bursts and caches; a pcap replayed\n"
	       "                           with infinite_rx=1 needs one per packet of the file)\n"
	       "  --mbuf-size=N            data room of an mbuf in bytes, headroom of %u\n"
	       "                           included (default %u)\n"
	       "  --service-lcores=LIST    make these worker lcores service lcores too (for\n"
	       "                           lcores EAL -s refuses: -s takes physical CPUs only)\n",
	       prog, FLOWPMD_MAX_BURST, FLOWPMD_BURST, RTE_PKTMBUF_HEADROOM,
	       RTE_MBUF_DEFAULT_BUF_SIZE);
}

/* A count with an optional K/M/G (x1000) or Ki/Mi/Gi (x1024) suffix. */
static int
parse_count(const char *s, uint32_t *out)
{
	unsigned long long v, mul = 1;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == s)
		return -EINVAL;
	if (*end != '\0') {
		bool bin = end[1] == 'i';

		switch (*end) {
		case 'K': case 'k': mul = bin ? 1ULL << 10 : 1000; break;
		case 'M': case 'm': mul = bin ? 1ULL << 20 : 1000000; break;
		case 'G': case 'g': mul = bin ? 1ULL << 30 : 1000000000; break;
		default: return -EINVAL;
		}
		if (end[1 + bin] != '\0')
			return -EINVAL;
	}
	v *= mul;
	if (v > UINT32_MAX)
		return -ERANGE;
	*out = v;
	return 0;
}

static int
parse_seconds(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return (end == s || *end != '\0' || *out < 0) ? -EINVAL : 0;
}

enum {
	OPT_AUTO_START = 256, OPT_DURATION, OPT_FWD, OPT_FLOW_TABLE, OPT_MAX_FLOWS,
	OPT_MAX_FLOWS6, OPT_FLOW_TIMEOUT, OPT_STATS_PERIOD, OPT_JSON, OPT_DUMP_FLOWS,
	OPT_RXQ, OPT_RXD, OPT_TXD, OPT_SERVICE_LCORES, OPT_PIPELINE, OPT_BURST,
	OPT_TOTAL_NUM_MBUFS, OPT_MBUF_SIZE,
};

static const struct option long_opts[] = {
	{ "interactive", no_argument, NULL, 'i' },
	{ "help", no_argument, NULL, 'h' },
	{ "auto-start", no_argument, NULL, OPT_AUTO_START },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "fwd", required_argument, NULL, OPT_FWD },
	{ "flow-table", required_argument, NULL, OPT_FLOW_TABLE },
	{ "max-flows", required_argument, NULL, OPT_MAX_FLOWS },
	{ "max-flows6", required_argument, NULL, OPT_MAX_FLOWS6 },
	{ "flow-timeout", required_argument, NULL, OPT_FLOW_TIMEOUT },
	{ "stats-period", required_argument, NULL, OPT_STATS_PERIOD },
	{ "json", optional_argument, NULL, OPT_JSON },
	{ "dump-flows", required_argument, NULL, OPT_DUMP_FLOWS },
	{ "pipeline", required_argument, NULL, OPT_PIPELINE },
	{ "rxq", required_argument, NULL, OPT_RXQ },
	{ "rxd", required_argument, NULL, OPT_RXD },
	{ "txd", required_argument, NULL, OPT_TXD },
	{ "service-lcores", required_argument, NULL, OPT_SERVICE_LCORES },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "total-num-mbufs", required_argument, NULL, OPT_TOTAL_NUM_MBUFS },
	{ "mbuf-size", required_argument, NULL, OPT_MBUF_SIZE },
	{ NULL, 0, NULL, 0 },
};

static int
parse_u16(const char *s, uint16_t *out)
{
	uint32_t v;

	if (parse_count(s, &v) != 0 || v == 0 || v > UINT16_MAX)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A count in [min, max]. */
static int
parse_range(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint32_t v;

	if (parse_count(s, &v) != 0 || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int
parse_burst(const char *s)
{
	uint32_t v;
	int ret = parse_range(s, 1, FLOWPMD_MAX_BURST, &v);

	if (ret == 0)
		app.burst = v;
	return ret;
}

/* A data room must hold the headroom and at least one byte of frame. */
static int
parse_mbuf_size(const char *s)
{
	uint32_t v;
	int ret = parse_range(s, RTE_PKTMBUF_HEADROOM + 1, UINT16_MAX, &v);

	if (ret == 0)
		app.mbuf_size = v;
	return ret;
}

static int
parse_stages(const char *s, unsigned int *out)
{
	uint32_t v;

	if (parse_count(s, &v) != 0 || v > FWD_MAX_LOOKUP_STAGES)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Turn worker lcores into service lcores (rte_service_lcore_add). */
static int
parse_service_lcores(const char *arg)
{
	char *end;
	unsigned long id;
	int ret;

	while (*arg != '\0') {
		id = strtoul(arg, &end, 10);
		if (end == arg || id >= RTE_MAX_LCORE || id == rte_get_main_lcore())
			return -EINVAL;
		ret = rte_service_lcore_add(id);
		if (ret != 0 && ret != -EALREADY)
			return ret;
		arg = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\0')
			return -EINVAL;
	}
	return 0;
}

static int
parse_one(int opt, const char *arg, uint32_t *max6)
{
	switch (opt) {
	case 'i': app.interactive = true; return 0;
	case OPT_AUTO_START: app.auto_start = true; return 0;
	case OPT_DURATION: return parse_seconds(arg, &app.duration_s);
	case OPT_FWD: return fwd_mode_parse(arg, &app.fwd_mode);
	case OPT_FLOW_TABLE:
		if (strcmp(arg, "rhashtable") == 0)
			app.ft_cfg.kind = FT_KIND_RHASHTABLE;
		else if (strcmp(arg, "rte_hash") == 0)
			app.ft_cfg.kind = FT_KIND_RTE_HASH;
		else
			return -EINVAL;
		return 0;
	case OPT_MAX_FLOWS: return parse_count(arg, &app.ft_cfg.max_flows);
	case OPT_MAX_FLOWS6: return parse_count(arg, max6);
	case OPT_FLOW_TIMEOUT: return parse_seconds(arg, &app.ft_cfg.timeout_s);
	case OPT_STATS_PERIOD: return parse_seconds(arg, &app.stats_period_s);
	case OPT_JSON: app.json_path = arg == NULL ? "-" : arg; return 0;
	case OPT_DUMP_FLOWS: app.dump_flows_path = arg; return 0;
	case OPT_PIPELINE: return parse_stages(arg, &app.lookup_stages);
	case OPT_RXQ: return parse_u16(arg, &app.rxq_per_port);
	case OPT_RXD: return parse_u16(arg, &app.nb_rxd);
	case OPT_TXD: return parse_u16(arg, &app.nb_txd);
	case OPT_SERVICE_LCORES: return parse_service_lcores(arg);
	case OPT_BURST: return parse_burst(arg);
	case OPT_TOTAL_NUM_MBUFS: return parse_range(arg, 1, UINT32_MAX, &app.total_num_mbufs);
	case OPT_MBUF_SIZE: return parse_mbuf_size(arg);
	default: return -EINVAL;
	}
}

int
flowpmd_parse_args(int argc, char **argv)
{
	const char *prog = argv[0];
	uint32_t max6 = 0;
	int opt, ret;

	app.ft_cfg.kind = FT_KIND_RHASHTABLE;
	app.ft_cfg.max_flows = DEFAULT_MAX_FLOWS;
	app.ft_cfg.timeout_s = 10;
	app.fwd_mode = FWD_MODE_IO;
	app.stats_period_s = 1;
	app.nb_rxd = 1024;
	app.nb_txd = 1024;
	app.lookup_stages = FWD_DEFAULT_LOOKUP_STAGES;
	app.burst = FLOWPMD_BURST;
	app.mbuf_size = RTE_MBUF_DEFAULT_BUF_SIZE;
	while ((opt = getopt_long(argc, argv, "ih", long_opts, NULL)) != -1) {
		if (opt == 'h' || opt == '?') {
			flowpmd_usage(prog);
			return -1;
		}
		ret = parse_one(opt, optarg, &max6);
		if (ret != 0) {
			printf("invalid value for option %s: %s\n", argv[optind - 1],
			       optarg != NULL ? optarg : "");
			flowpmd_usage(prog);
			return -1;
		}
	}
	if (optind < argc) {
		printf("unexpected argument: %s\n", argv[optind]);
		flowpmd_usage(prog);
		return -1;
	}
	app.ft_cfg.max_flows = RTE_MAX(app.ft_cfg.max_flows, 1024U);
	app.ft_cfg.max_flows6 = max6 != 0 ? max6 : RTE_MAX(app.ft_cfg.max_flows / 8, 4096U);
	return 0;
}

/*
 * Whether the application's options (after "--") ask for help: then the
 * usage is printed before EAL starts, as for "dpdk-flowpmd --help" (EAL's
 * usage hook), so that no hugepage is mapped and no device probed for it.
 */
bool
flowpmd_help_wanted(int argc, char **argv)
{
	bool app_opts = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!app_opts) {
			app_opts = strcmp(argv[i], "--") == 0;
			continue;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	}
	return false;
}

static uint32_t
find_count_opt(int argc, char **argv, const char *name, uint32_t def)
{
	size_t len = strlen(name);
	uint32_t v = def;
	int i;

	for (i = 1; i < argc; i++) {
		if (strncmp(argv[i], name, len) != 0)
			continue;
		if (argv[i][len] == '=')
			parse_count(argv[i] + len + 1, &v);
		else if (argv[i][len] == '\0' && i + 1 < argc)
			parse_count(argv[i + 1], &v);
	}
	return v;
}

/*
 * Memory (MiB) to ask EAL for, before EAL or the options are parsed: the
 * flow mempools (128 and 192 bytes a flow with the mempool header), the
 * tables (about 64 bytes a flow, twice that while a bucket table is
 * replaced) and the mbufs (the default pool fits in the 256 MiB base; a
 * --total-num-mbufs pool is counted with its data room, the mbuf header
 * and the mempool's own header).
 */
unsigned int
flowpmd_mem_estimate(int argc, char **argv)
{
	uint64_t v4 = find_count_opt(argc, argv, "--max-flows", DEFAULT_MAX_FLOWS);
	uint64_t v6 = find_count_opt(argc, argv, "--max-flows6", RTE_MAX(v4 / 8, 4096U));

	uint64_t mbufs = find_count_opt(argc, argv, "--total-num-mbufs", 0);
	uint64_t mbuf_size = find_count_opt(argc, argv, "--mbuf-size", RTE_MBUF_DEFAULT_BUF_SIZE);
	uint64_t bytes;

	bytes = (v4 * 5 / 4 + 65536) * 128 + (v6 * 5 / 4 + 65536) * 192 + (v4 + v6) * 128;
	bytes += mbufs * (mbuf_size + sizeof(struct rte_mbuf) + 64);
	return 256 + bytes / (1 << 20);
}
