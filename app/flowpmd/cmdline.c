/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Interactive mode: a DPDK cmdline prompt on the main lcore. Input is
 * polled, so the main lcore keeps doing its housekeeping (aging, rehash
 * work, duration) between keystrokes.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_ipaddr.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <cmdline_socket.h>

#include "flowpmd.h"

#define TOP_FLOWS_MAX 1000U

/* ---- start | stop | flush | quit | help ---- */

struct cmd_simple_result {
	cmdline_fixed_string_t word;
};

static void
cmd_help(void)
{
	printf("commands:\n"
	       "  start | stop                      start or stop forwarding\n"
	       "  show port stats                   ethdev counters of every port\n"
	       "  show flow-table                   table size, rehashes, hit rate, aging\n"
	       "  show flow SRC DST PROTO SPORT DPORT   one flow (IPv4 or IPv6 addresses)\n"
	       "  show top-flows N                  the N flows with the most packets\n"
	       "  flush                             remove every flow\n"
	       "  set fwd io|drop|macswap           forwarding mode\n"
	       "  quit                              stop, print the summary and exit\n");
}

static void
cmd_simple_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_simple_result *res = parsed;
	int ret;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (strcmp(res->word, "start") == 0) {
		ret = fwd_start();
		printf(ret == -EALREADY ? "already forwarding\n" : "forwarding started\n");
	} else if (strcmp(res->word, "stop") == 0) {
		fwd_stop();
		printf("forwarding stopped\n");
	} else if (strcmp(res->word, "flush") == 0) {
		printf("flushed %" PRIu64 " flows\n", flow_table_flush(app.ft));
	} else if (strcmp(res->word, "quit") == 0) {
		app.quit = true;
	} else {
		cmd_help();
	}
}

static cmdline_parse_token_string_t cmd_simple_word =
	TOKEN_STRING_INITIALIZER(struct cmd_simple_result, word, "start#stop#flush#quit#help");

static cmdline_parse_inst_t cmd_simple = {
	.f = cmd_simple_parsed,
	.help_str = "start | stop | flush | quit | help",
	.tokens = { (void *)&cmd_simple_word, NULL },
};

/* ---- show port stats | show flow-table ---- */

struct cmd_show_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t what;
	cmdline_fixed_string_t stats;
};

static void
cmd_show_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_show_result *res = parsed;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (strcmp(res->what, "port") == 0)
		stats_print_ports();
	else
		stats_print_table();
}

static cmdline_parse_token_string_t cmd_show_show =
	TOKEN_STRING_INITIALIZER(struct cmd_show_result, show, "show");
static cmdline_parse_token_string_t cmd_show_port =
	TOKEN_STRING_INITIALIZER(struct cmd_show_result, what, "port");
static cmdline_parse_token_string_t cmd_show_stats =
	TOKEN_STRING_INITIALIZER(struct cmd_show_result, stats, "stats");

static cmdline_parse_inst_t cmd_show_port_stats = {
	.f = cmd_show_parsed,
	.help_str = "show port stats",
	.tokens = { (void *)&cmd_show_show, (void *)&cmd_show_port, (void *)&cmd_show_stats, NULL },
};

static cmdline_parse_token_string_t cmd_show_table_word =
	TOKEN_STRING_INITIALIZER(struct cmd_show_result, what, "flow-table");

static cmdline_parse_inst_t cmd_show_table = {
	.f = cmd_show_parsed,
	.help_str = "show flow-table",
	.tokens = { (void *)&cmd_show_show, (void *)&cmd_show_table_word, NULL },
};

/* ---- show flow SRC DST PROTO SPORT DPORT ---- */

struct cmd_show_flow_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t flow;
	cmdline_ipaddr_t src;
	cmdline_ipaddr_t dst;
	uint8_t proto;
	uint16_t sport;
	uint16_t dport;
};

static int
key_from_result(const struct cmd_show_flow_result *r, struct flow_key6 *k6,
		struct flow_key4 *k4)
{
	if (r->src.family != r->dst.family)
		return -EINVAL;
	if (r->src.family == AF_INET) {
		memset(k4, 0, sizeof(*k4));
		k4->src = r->src.addr.ipv4.s_addr;
		k4->dst = r->dst.addr.ipv4.s_addr;
		k4->proto = r->proto;
		k4->sport = htons(r->sport);
		k4->dport = htons(r->dport);
		return FLOW_V4;
	}
	memset(k6, 0, sizeof(*k6));
	memcpy(k6->src, &r->src.addr.ipv6, sizeof(k6->src));
	memcpy(k6->dst, &r->dst.addr.ipv6, sizeof(k6->dst));
	k6->proto = r->proto;
	k6->sport = htons(r->sport);
	k6->dport = htons(r->dport);
	return FLOW_V6;
}

static void
cmd_show_flow_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_show_flow_result *r = parsed;
	struct flow_key4 k4;
	struct flow_key6 k6;
	struct flow_info fi;
	char buf[256];
	int fam;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	fam = key_from_result(r, &k6, &k4);
	if (fam < 0) {
		printf("source and destination must be of the same family\n");
		return;
	}
	if (flow_table_find(app.ft, fam, fam == FLOW_V4 ? (void *)&k4 : (void *)&k6, &fi) != 0) {
		printf("no such flow\n");
		return;
	}
	flow_info_format(&fi, buf, sizeof(buf));
	printf("%s\n", buf);
}

static cmdline_parse_token_string_t cmd_show_flow_word =
	TOKEN_STRING_INITIALIZER(struct cmd_show_flow_result, flow, "flow");
static cmdline_parse_token_ipaddr_t cmd_show_flow_src =
	TOKEN_IPADDR_INITIALIZER(struct cmd_show_flow_result, src);
static cmdline_parse_token_ipaddr_t cmd_show_flow_dst =
	TOKEN_IPADDR_INITIALIZER(struct cmd_show_flow_result, dst);
static cmdline_parse_token_num_t cmd_show_flow_proto =
	TOKEN_NUM_INITIALIZER(struct cmd_show_flow_result, proto, RTE_UINT8);
static cmdline_parse_token_num_t cmd_show_flow_sport =
	TOKEN_NUM_INITIALIZER(struct cmd_show_flow_result, sport, RTE_UINT16);
static cmdline_parse_token_num_t cmd_show_flow_dport =
	TOKEN_NUM_INITIALIZER(struct cmd_show_flow_result, dport, RTE_UINT16);

static cmdline_parse_inst_t cmd_show_flow = {
	.f = cmd_show_flow_parsed,
	.help_str = "show flow <src> <dst> <proto> <sport> <dport>",
	.tokens = {
		(void *)&cmd_show_show, (void *)&cmd_show_flow_word,
		(void *)&cmd_show_flow_src, (void *)&cmd_show_flow_dst,
		(void *)&cmd_show_flow_proto, (void *)&cmd_show_flow_sport,
		(void *)&cmd_show_flow_dport, NULL,
	},
};

/* ---- show top-flows N ---- */

struct cmd_top_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t top;
	uint32_t n;
};

static void
cmd_top_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_top_result *r = parsed;
	struct flow_info *top;
	unsigned int i, n;
	char buf[256];

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	n = RTE_MIN(r->n, TOP_FLOWS_MAX);
	top = calloc(RTE_MAX(n, 1U), sizeof(*top));
	if (top == NULL)
		return;
	n = flow_table_top(app.ft, top, n);
	for (i = 0; i < n; i++) {
		flow_info_format(&top[i], buf, sizeof(buf));
		printf("%4u %s\n", i + 1, buf);
	}
	free(top);
}

static cmdline_parse_token_string_t cmd_top_show =
	TOKEN_STRING_INITIALIZER(struct cmd_top_result, show, "show");
static cmdline_parse_token_string_t cmd_top_word =
	TOKEN_STRING_INITIALIZER(struct cmd_top_result, top, "top-flows");
static cmdline_parse_token_num_t cmd_top_n =
	TOKEN_NUM_INITIALIZER(struct cmd_top_result, n, RTE_UINT32);

static cmdline_parse_inst_t cmd_top = {
	.f = cmd_top_parsed,
	.help_str = "show top-flows <n> (at most 1000)",
	.tokens = { (void *)&cmd_top_show, (void *)&cmd_top_word, (void *)&cmd_top_n, NULL },
};

/* ---- set fwd MODE ---- */

struct cmd_set_fwd_result {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t fwd;
	cmdline_fixed_string_t mode;
};

static void
cmd_set_fwd_parsed(void *parsed, struct cmdline *cl, void *data)
{
	struct cmd_set_fwd_result *r = parsed;
	enum fwd_mode m;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (fwd_mode_parse(r->mode, &m) != 0)
		return;
	/* forwarding lcores pick it up at their next burst */
	rte_atomic_store_explicit(&app.fwd_mode, m, rte_memory_order_relaxed);
	printf("fwd mode: %s\n", fwd_mode_name(m));
}

static cmdline_parse_token_string_t cmd_set_fwd_set =
	TOKEN_STRING_INITIALIZER(struct cmd_set_fwd_result, set, "set");
static cmdline_parse_token_string_t cmd_set_fwd_fwd =
	TOKEN_STRING_INITIALIZER(struct cmd_set_fwd_result, fwd, "fwd");
static cmdline_parse_token_string_t cmd_set_fwd_mode =
	TOKEN_STRING_INITIALIZER(struct cmd_set_fwd_result, mode, "io#drop#macswap");

static cmdline_parse_inst_t cmd_set_fwd = {
	.f = cmd_set_fwd_parsed,
	.help_str = "set fwd io|drop|macswap",
	.tokens = {
		(void *)&cmd_set_fwd_set, (void *)&cmd_set_fwd_fwd, (void *)&cmd_set_fwd_mode, NULL,
	},
};

static cmdline_parse_ctx_t main_ctx[] = {
	(cmdline_parse_inst_t *)&cmd_simple,
	(cmdline_parse_inst_t *)&cmd_show_port_stats,
	(cmdline_parse_inst_t *)&cmd_show_table,
	(cmdline_parse_inst_t *)&cmd_show_flow,
	(cmdline_parse_inst_t *)&cmd_top,
	(cmdline_parse_inst_t *)&cmd_set_fwd,
	NULL,
};

/*
 * Read what stdin has, feed it to the command line, and call tick (the main
 * lcore's housekeeping) at least every 10 ms. Returns once tick returns
 * false (quit, end of --duration), on EOF or Ctrl-D.
 */
int
flowpmd_cmdline_run(bool (*tick)(void))
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	struct cmdline *cl;
	char buf[256];
	ssize_t n;

	cl = cmdline_stdin_new(main_ctx, "flowpmd> ");
	if (cl == NULL)
		return -ENOMEM;
	while (tick()) {
		if (poll(&pfd, 1, 10) <= 0)
			continue;
		n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n <= 0 || cmdline_in(cl, buf, n) < 0)
			break;
	}
	cmdline_stdin_exit(cl);
	printf("\n");
	return 0;
}
