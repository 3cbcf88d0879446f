/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Observability, one command each:
 * - rhashtable_telemetry_autotest: /rhashtable/list and /rhashtable/info,<name>
 *   asked over the EAL telemetry socket, as dpdk-telemetry.py asks them, and
 *   the answers compared with rte_rhashtable_stats_get(); then the same
 *   through dpdk-telemetry.py itself when it is installed;
 * - rhashtable_trace_autotest: the lib.rhashtable.* trace points, enabled
 *   with EAL --trace=lib\.rhashtable\..* --trace-dir=DIR (meson passes both),
 *   recorded during a grow, a shrink, an -EBUSY and an -ENOMEM, then saved
 *   with rte_trace_save(); the CTF metadata and streams are checked.
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_trace.h>
#include <rte_trace_point.h>

#include <rte_rhashtable.h>
#include <rhashtable_debug.h>

#include "test.h"
#include "test_rhashtable_util.h"

/* Was the EAL option opt (e.g. "--no-telemetry") on our command line? */
static int
eal_option_given(const char *opt)
{
	char buf[4096];
	size_t len, off;
	FILE *f = fopen("/proc/self/cmdline", "r");

	if (f == NULL)
		return 0;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	for (off = 0; off < len; off += strlen(buf + off) + 1)
		if (strcmp(buf + off, opt) == 0)
			return 1;
	return 0;
}

/* ---- telemetry ---- */

#define TEL_BUF_LEN (16 * 1024 + 1) /* the server's max_output_len, plus NUL */
/* past the 448 slots of 64 buckets, then the 896 of 128: grows twice */
#define TEL_N_OBJS 1000
#define TEL_N_LIST_OBJS 5

static char tel_buf[TEL_BUF_LEN];

/* Receive one telemetry message (one SEQPACKET datagram) into tel_buf. */
static int
tel_recv(int fd)
{
	ssize_t n = recv(fd, tel_buf, sizeof(tel_buf) - 1, 0);

	if (n <= 0) {
		printf("telemetry recv: %s\n", n == 0 ? "connection closed" : strerror(errno));
		return -1;
	}
	tel_buf[n] = '\0';
	return 0;
}

/* Send a command and receive its JSON reply into tel_buf. */
static int
tel_query(int fd, const char *cmd)
{
	if (send(fd, cmd, strlen(cmd), 0) < 0) {
		printf("telemetry send '%s': %s\n", cmd, strerror(errno));
		return -1;
	}
	if (tel_recv(fd) != 0)
		return -1;
	printf("  %s -> %.200s%s\n", cmd, tel_buf, strlen(tel_buf) > 200 ? "..." : "");
	return 0;
}

/*
 * Value of the number after "key": in json (flat enough for the replies
 * here: key names are unique in one reply). -1 when absent.
 */
static int
json_u64(const char *json, const char *key, uint64_t *v)
{
	char pat[64];
	const char *p;
	char *end;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	if (p == NULL)
		return -1;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	*v = strtoull(p, &end, 10);
	return end == p ? -1 : 0;
}

/* Does json hold "key":"value"? */
static int
json_has_string(const char *json, const char *key, const char *value)
{
	char pat[128];

	snprintf(pat, sizeof(pat), "\"%s\":\"%s\"", key, value);
	return strstr(json, pat) != NULL;
}

/*
 * Connect to our own process's telemetry socket: <runtime dir>/dpdk_telemetry.v2,
 * or "...v2:N" when another live process held that path at init. The info
 * message the server sends first must name our pid.
 */
static int
tel_connect(void)
{
	struct timeval tv = { .tv_sec = 5 };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	const char *dir = rte_eal_get_runtime_dir();
	uint64_t pid;
	int suffix, fd;

	for (suffix = 0; suffix < 4; suffix++) {
		if (suffix == 0)
			snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2", dir);
		else
			snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2:%d",
				 dir, suffix);
		fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		if (fd < 0)
			return -1;
		/* a broken server fails the test instead of hanging it */
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0 && tel_recv(fd) == 0 &&
		    json_u64(tel_buf, "pid", &pid) == 0 && pid == (uint64_t)getpid()) {
			printf("  connected to %s: %s\n", sun.sun_path, tel_buf);
			return fd;
		}
		close(fd);
	}
	printf("no telemetry socket of pid %d in %s\n", (int)getpid(), dir);
	return -1;
}

static struct rte_rhashtable *tel_ht;
static struct rte_rhltable *tel_hlt;
static struct test_obj *tel_objs;

static void
tel_teardown(void)
{
	rte_rhashtable_free(tel_ht);
	rte_rhltable_free(tel_hlt);
	rte_free(tel_objs);
	tel_ht = NULL;
	tel_hlt = NULL;
	tel_objs = NULL;
}

/* Tables to report on: one grown past its first bucket table, one rhltable. */
static int
tel_setup(void)
{
	struct rte_rhashtable_params p;
	struct test_list_obj {
		uint32_t key;
		struct rte_rhlist_head node;
	} *lobjs;
	uint32_t i;

	tel_objs = test_objs_alloc(TEL_N_OBJS + TEL_N_LIST_OBJS, 1);
	TEST_ASSERT_NOT_NULL(tel_objs, "no memory for objects");
	test_params_init(&p, "rht_tel_grown");
	tel_ht = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(tel_ht, "create: %s", rte_strerror(rte_errno));
	/* no worker runs: inserts past 100% load allocate the next tables */
	TEST_ASSERT_SUCCESS(test_insert_range(tel_ht, tel_objs, 0, TEL_N_OBJS), "insert");
	/* so telemetry has a stalled worker to report (check_info()) */
	TEST_ASSERT(test_stats(tel_ht).worker_stalls > 0, "tables piled up uncounted");
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(tel_ht), "rehash_run");

	p.name = "rht_tel_list";
	p.key_offset = offsetof(struct test_list_obj, key);
	p.head_offset = offsetof(struct test_list_obj, node);
	/* written by this thread alone: a single-writer table, with no service */
	p.single_writer = true;
	tel_hlt = rte_rhltable_create(&p);
	TEST_ASSERT_NOT_NULL(tel_hlt, "rhltable create: %s", rte_strerror(rte_errno));
	/* the rhltable's objects share the key 7 and live in tel_objs' tail */
	lobjs = (struct test_list_obj *)&tel_objs[TEL_N_OBJS];
	for (i = 0; i < TEL_N_LIST_OBJS; i++) {
		lobjs[i].key = 7;
		TEST_ASSERT_SUCCESS(rte_rhltable_insert(tel_hlt, &lobjs[i].node), "rhl insert");
	}
	return TEST_SUCCESS;
}

/* Every field of s is in the telemetry reply json, with the same value. */
static int
check_fields(const char *json, const struct rte_rhashtable_stats *s)
{
	const struct rht_stat_field *f;
	unsigned int i;
	uint64_t v;

	for (i = 0; i < RTE_DIM(rht_stat_fields); i++) {
		f = &rht_stat_fields[i];
		TEST_ASSERT_SUCCESS(json_u64(json, f->name, &v), "no %s in reply", f->name);
		TEST_ASSERT_EQUAL(v, rht_stat_value(s, f),
				  "%s %" PRIu64 " in telemetry, %" PRIu64 " in stats",
				  f->name, v, rht_stat_value(s, f));
	}
	return TEST_SUCCESS;
}

/* The writer mode in json, and the service of a table that has one. */
static int
check_writer_fields(const char *json, const struct rte_rhashtable *ht, bool single_writer)
{
	uint32_t sid;
	uint64_t v;

	TEST_ASSERT_SUCCESS(json_u64(json, "single_writer", &v), "no single_writer in reply");
	TEST_ASSERT_EQUAL(v, single_writer, "single_writer %" PRIu64 ", created with %d", v,
			  single_writer);
	if (single_writer) {
		TEST_ASSERT(json_u64(json, "service_id", &v) != 0,
			    "a single-writer table reports service %" PRIu64, v);
		return TEST_SUCCESS;
	}
	TEST_ASSERT_SUCCESS(rte_rhashtable_service_id_get(ht, &sid), "service_id_get");
	TEST_ASSERT_SUCCESS(json_u64(json, "service_id", &v), "no service_id in reply");
	TEST_ASSERT_EQUAL(v, sid, "service_id %" PRIu64 " in telemetry, %u", v, sid);
	return TEST_SUCCESS;
}

/* /rhashtable/info,<name> matches rte_rhashtable_stats_get() and the parameters. */
static int
check_info(int fd, struct rte_rhashtable *ht, const char *name, const char *type,
	   bool single_writer)
{
	struct rte_rhashtable_stats s;
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "/rhashtable/info,%s", name);
	TEST_ASSERT_SUCCESS(tel_query(fd, cmd), "query %s", cmd);
	TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(ht, &s), "stats_get");
	TEST_ASSERT(strncmp(tel_buf, "{\"/rhashtable/info\":{", 21) == 0,
		    "reply is not a dict: %s", tel_buf);
	TEST_ASSERT(json_has_string(tel_buf, "name", name), "name %s missing", name);
	TEST_ASSERT(json_has_string(tel_buf, "type", type), "type %s missing", type);
	TEST_ASSERT_SUCCESS(check_fields(tel_buf, &s), "fields of %s", name);
	TEST_ASSERT_SUCCESS(check_writer_fields(tel_buf, ht, single_writer), "writers of %s",
			    name);
	return TEST_SUCCESS;
}

static int
test_telemetry_list(int fd)
{
	TEST_ASSERT_SUCCESS(tel_query(fd, "/rhashtable/list"), "query list");
	TEST_ASSERT(strncmp(tel_buf, "{\"/rhashtable/list\":[", 21) == 0,
		    "list reply is not an array: %s", tel_buf);
	TEST_ASSERT(strstr(tel_buf, "\"rht_tel_grown\"") != NULL, "rht_tel_grown not listed");
	TEST_ASSERT(strstr(tel_buf, "\"rht_tel_list\"") != NULL, "rht_tel_list not listed");
	return TEST_SUCCESS;
}

/* Bad parameters: the handler returns -EINVAL, the server answers null. */
static int
test_telemetry_errors(int fd)
{
	TEST_ASSERT_SUCCESS(tel_query(fd, "/rhashtable/info,rht_no_such_table"), "query");
	TEST_ASSERT(strcmp(tel_buf, "{\"/rhashtable/info\":null}") == 0,
		    "unknown table gives %s", tel_buf);
	TEST_ASSERT_SUCCESS(tel_query(fd, "/rhashtable/info"), "query");
	TEST_ASSERT(strcmp(tel_buf, "{\"/rhashtable/info\":null}") == 0,
		    "missing name gives %s", tel_buf);
	return TEST_SUCCESS;
}

#define TEL_CHURN_NAME "rht_tel_churn"
#define TEL_CHURN_QUERIES 2000

static bool tel_churn_stop;
static uint64_t tel_churn_cycles;

/* Create and free a table of one name, as fast as it goes. */
static int
tel_churn(void *arg)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable *ht;

	RTE_SET_USED(arg);
	test_params_init(&p, TEL_CHURN_NAME);
	while (!rte_atomic_load_explicit(&tel_churn_stop, rte_memory_order_relaxed)) {
		ht = rte_rhashtable_create(&p);
		if (ht == NULL)
			return -1;
		rte_rhashtable_free(ht);
		tel_churn_cycles++;
	}
	return 0;
}

/*
 * /rhashtable/info of a table that another lcore creates and frees all the
 * time: every answer is either null (no such table) or the table's whole
 * dict; the handler must hold the table while it reads it.
 */
static int
test_telemetry_vs_free(int fd)
{
	static const char null_reply[] = "{\"/rhashtable/info\":null}";
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	uint32_t i, dicts = 0, nulls = 0;
	int ret;

	if (lcore >= RTE_MAX_LCORE) {
		printf("  no worker lcore: telemetry vs free skipped\n");
		return TEST_SUCCESS;
	}
	tel_churn_stop = false;
	tel_churn_cycles = 0;
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(tel_churn, NULL, lcore), "launch");
	for (i = 0; i < TEL_CHURN_QUERIES; i++) {
		if (tel_query(fd, "/rhashtable/info," TEL_CHURN_NAME) != 0)
			break;
		if (strcmp(tel_buf, null_reply) == 0) {
			nulls++;
			continue;
		}
		if (!json_has_string(tel_buf, "name", TEL_CHURN_NAME) ||
		    strstr(tel_buf, "\"key_len\":4") == NULL)
			break;
		dicts++;
	}
	rte_atomic_store_explicit(&tel_churn_stop, true, rte_memory_order_relaxed);
	ret = rte_eal_wait_lcore(lcore);
	printf("  telemetry vs free: %u dicts, %u nulls, %" PRIu64 " tables created and freed\n",
	       dicts, nulls, tel_churn_cycles);
	TEST_ASSERT_SUCCESS(ret, "create failed on the churn lcore");
	TEST_ASSERT_EQUAL(i, TEL_CHURN_QUERIES, "query %u: bad reply %s", i, tel_buf);
	return TEST_SUCCESS;
}

#define TEL_SCRIPT "/usr/bin/dpdk-telemetry.py"

/*
 * The same info as DPDK's own client prints it, when installed (Debian's
 * dpdk package): the script reads commands from its non-terminal stdin.
 */
static int
test_telemetry_script(void)
{
	const char *prefix = strrchr(rte_eal_get_runtime_dir(), '/');
	struct rte_rhashtable_stats s;
	char cmd[PATH_MAX + 128];
	size_t len;
	FILE *p;

	if (access(TEL_SCRIPT, X_OK) != 0 || prefix == NULL) {
		printf("  %s not installed: client check skipped\n", TEL_SCRIPT);
		return TEST_SUCCESS;
	}
	/* the runtime directory is named after the file prefix */
	snprintf(cmd, sizeof(cmd), "echo /rhashtable/info,rht_tel_grown | %s -f '%s' 2>&1",
		 TEL_SCRIPT, prefix + 1);
	p = popen(cmd, "r");
	TEST_ASSERT_NOT_NULL(p, "cannot run %s", TEL_SCRIPT);
	len = fread(tel_buf, 1, sizeof(tel_buf) - 1, p);
	tel_buf[len] = '\0';
	TEST_ASSERT_SUCCESS(pclose(p), "%s failed: %s", TEL_SCRIPT, tel_buf);
	printf("  %s -> %.120s...\n", TEL_SCRIPT, tel_buf);
	TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(tel_ht, &s), "stats_get");
	TEST_ASSERT_SUCCESS(check_fields(tel_buf, &s), "fields in %s", TEL_SCRIPT);
	return TEST_SUCCESS;
}

static int
telemetry_checks(int fd)
{
	struct rte_rhashtable_stats s;

	TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(tel_ht, &s), "stats_get");
	TEST_ASSERT(s.grows > 0 && s.rehashes_done > 0 && s.objs_moved > 0,
		    "setup did not grow the table (grows %" PRIu64 ")", s.grows);
	TEST_ASSERT_SUCCESS(test_telemetry_list(fd), "list");
	TEST_ASSERT_SUCCESS(check_info(fd, tel_ht, "rht_tel_grown", "rhashtable", false),
			    "info");
	TEST_ASSERT_SUCCESS(check_info(fd, rte_rhltable_table(tel_hlt), "rht_tel_list",
				       "rhltable", true), "rhltable info");
	TEST_ASSERT_SUCCESS(test_telemetry_errors(fd), "errors");
	TEST_ASSERT_SUCCESS(test_telemetry_vs_free(fd), "telemetry vs free");
	TEST_ASSERT_SUCCESS(test_telemetry_script(), "dpdk-telemetry.py");
	return TEST_SUCCESS;
}

static int
test_rhashtable_telemetry(void)
{
	int fd, ret;

	if (eal_option_given("--no-telemetry")) {
		printf("EAL runs with --no-telemetry: skipped\n");
		return TEST_SKIPPED;
	}
	ret = tel_setup();
	if (ret == TEST_SUCCESS) {
		fd = tel_connect();
		if (fd < 0) {
			ret = TEST_FAILED;
		} else {
			ret = telemetry_checks(fd);
			close(fd);
		}
	}
	tel_teardown();
	return ret;
}

REGISTER_FAST_TEST(rhashtable_telemetry_autotest, true, true, test_rhashtable_telemetry);

/* ---- trace ---- */

static const char *const trace_names[] = {
	"lib.rhashtable.resize",
	"lib.rhashtable.rehash_done",
	"lib.rhashtable.ebusy",
	"lib.rhashtable.enomem",
};
#define TRACE_N RTE_DIM(trace_names)
enum { TR_RESIZE, TR_REHASH_DONE, TR_EBUSY, TR_ENOMEM };

#define TRACE_TABLE "rht_trace"
#define TRACE_CHAIN_TABLE "rht_trace_chain"
#define TRACE_N_OBJS 1000 /* past the 448 slots of 64 buckets: emergency grows */
/* Event record: 8-byte header (id in bits 63:48), then the fields. */
#define TRACE_EV_HDR 8
#define TRACE_NAME_LEN 32 /* rte_trace_point_emit_string() writes 32 bytes */
/* CTF stream header of each channel file: magic, uuid, lcore, thread name */
#define TRACE_STREAM_HDR (4 + 16 + 4 + 32)

struct trace_found {
	int id[TRACE_N];         /* event ids, from the metadata */
	uint32_t count[TRACE_N]; /* events of our tables in the streams */
	uint32_t grows;          /* resize events with new == 2 * old */
	uint32_t shrinks;        /* resize events with new == old / 2 */
	uint32_t emergency;      /* resize events with the emergency flag */
	uint32_t stream_files;
};

static uint32_t
trace_const_hash(const void *key __rte_unused, uint32_t key_len __rte_unused,
		 uint32_t seed __rte_unused)
{
	return 0x2468ace;
}

static int
trace_points_enabled(void)
{
	unsigned int i;

	/*
	 * dpdk-test's fast suite runs it without --trace: the library's trace
	 * points are then enabled here, and saved to EAL's default directory.
	 */
	if (!rte_trace_is_enabled())
		TEST_ASSERT(rte_trace_pattern("lib.rhashtable.*", true) > 0,
			    "enabling the lib.rhashtable.* trace points");
	TEST_ASSERT(rte_trace_is_enabled(), "tracing is off");
	for (i = 0; i < TRACE_N; i++) {
		rte_trace_point_t *tp = rte_trace_point_lookup(trace_names[i]);

		TEST_ASSERT_NOT_NULL(tp, "trace point %s not registered", trace_names[i]);
		TEST_ASSERT(rte_trace_point_is_enabled(tp), "trace point %s not enabled",
			    trace_names[i]);
	}
	return TEST_SUCCESS;
}

/* Grow (emergency, then worker), shrink, and an -ENOMEM on TRACE_TABLE. */
static int
trace_resizes(struct test_obj *objs)
{
	struct rhashtable_fault fail_all = { .fail_after = 0 };
	struct rte_rhashtable_params p;
	struct rte_rhashtable *ht;
	uint32_t i;
	int ret;

	test_params_init(&p, TRACE_TABLE);
	p.automatic_shrinking = true;
	ht = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(ht, "create: %s", rte_strerror(rte_errno));
	ret = test_insert_range(ht, objs, 0, TRACE_N_OBJS);
	if (ret == 0)
		ret = rte_rhashtable_rehash_run(ht);
	for (i = 0; ret == 0 && i < TRACE_N_OBJS; i++)
		ret = rte_rhashtable_remove(ht, &objs[i].node);
	if (ret == 0)
		ret = rte_rhashtable_rehash_run(ht);
	if (ret == 0) {
		/* a re-seed whose bucket table cannot be allocated */
		__rte_rhashtable_fault_inject(&fail_all);
		rte_rhashtable_reseed(ht);
		ret = rte_rhashtable_rehash_run(ht) == -ENOMEM ? 0 : -1;
		__rte_rhashtable_fault_inject(NULL);
	}
	rte_rhashtable_free(ht);
	TEST_ASSERT_SUCCESS(ret, "grow, shrink and -ENOMEM sequence failed");
	return TEST_SUCCESS;
}

/*
 * Fill one bucket (constant hash), its 7 slots and an overflow chain of 16,
 * in two tables (the second a re-seed), until an insert is refused with
 * -EBUSY: the 47th.
 */
static int
trace_ebusy(struct test_obj *objs)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable *ht;
	uint32_t i;
	int ret = 0;

	test_params_init(&p, TRACE_CHAIN_TABLE);
	p.hashfn = trace_const_hash;
	ht = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(ht, "create: %s", rte_strerror(rte_errno));
	for (i = 0; i < 64 && ret == 0; i++)
		ret = rte_rhashtable_insert(ht, &objs[i].node);
	rte_rhashtable_free(ht);
	TEST_ASSERT_EQUAL(ret, -EBUSY, "a full bucket gave %d, not -EBUSY", ret);
	return TEST_SUCCESS;
}

/* The session directory rte_trace_save() wrote to, from rte_trace_dump(). */
static int
trace_dir_get(char *dir, size_t len)
{
	char *dump = NULL, *p, *nl;
	size_t dump_len = 0;
	FILE *f = open_memstream(&dump, &dump_len);

	if (f == NULL)
		return -1;
	rte_trace_dump(f);
	fclose(f);
	p = strstr(dump, "\ndir = ");
	if (p != NULL) {
		p += strlen("\ndir = ");
		nl = strchr(p, '\n');
		if (nl != NULL)
			*nl = '\0';
		snprintf(dir, len, "%s", p);
	}
	free(dump);
	return p == NULL ? -1 : 0;
}

/* dir/name into path; -1 if it does not fit. */
static int
path_join(char *path, size_t len, const char *dir, const char *name)
{
	int n = snprintf(path, len, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Whole file into a malloc'd buffer (NUL added); NULL on error. */
static char *
file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long size;

	if (f == NULL)
		return NULL;
	size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (size >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc(size + 1);
		if (buf != NULL && fread(buf, 1, size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		if (buf != NULL) {
			buf[size] = '\0';
			*len = size;
		}
	}
	fclose(f);
	return buf;
}

/* Event ids from the CTF metadata: "id = N;\n    name = \"...\";". */
static int
trace_metadata_check(const char *dir, struct trace_found *tf)
{
	char path[PATH_MAX], pat[96];
	unsigned int i;
	size_t len;
	char *meta;
	const char *p, *id;

	meta = path_join(path, sizeof(path), dir, "metadata") == 0 ? file_read(path, &len) : NULL;
	TEST_ASSERT_NOT_NULL(meta, "cannot read %s", path);
	for (i = 0; i < TRACE_N; i++) {
		snprintf(pat, sizeof(pat), "name = \"%s\";", trace_names[i]);
		p = strstr(meta, pat);
		tf->id[i] = -1;
		/* the id line comes right before the name line */
		for (id = p; id != NULL && id > meta && strncmp(id, "id = ", 5) != 0; id--)
			;
		if (p != NULL && id != NULL && id > meta)
			tf->id[i] = atoi(id + 5);
	}
	free(meta);
	for (i = 0; i < TRACE_N; i++)
		TEST_ASSERT(tf->id[i] >= 0, "%s not in %s/metadata", trace_names[i], dir);
	return TEST_SUCCESS;
}

static void
trace_resize_fields(const uint8_t *ev, struct trace_found *tf)
{
	uint32_t old_size, new_size;
	const uint8_t *f = ev + TRACE_EV_HDR + TRACE_NAME_LEN;

	memcpy(&old_size, f, sizeof(old_size));
	memcpy(&new_size, f + 4, sizeof(new_size));
	tf->grows += new_size == 2 * old_size;
	tf->shrinks += 2 * new_size == old_size;
	tf->emergency += f[8] != 0;
}

/*
 * Count our events in one stream: records start 8-byte aligned after the
 * stream header; one of ours has our event id in the header's top 16 bits
 * and one of our table names as its first field.
 */
static void
trace_stream_scan(const uint8_t *buf, size_t len, struct trace_found *tf)
{
	size_t off;
	unsigned int i;

	for (off = TRACE_STREAM_HDR; off + TRACE_EV_HDR + TRACE_NAME_LEN <= len;
	     off += TRACE_EV_HDR) {
		const char *name = (const char *)buf + off + TRACE_EV_HDR;
		uint64_t hdr;

		memcpy(&hdr, buf + off, sizeof(hdr));
		if (strncmp(name, TRACE_TABLE, TRACE_NAME_LEN) != 0 &&
		    strncmp(name, TRACE_CHAIN_TABLE, TRACE_NAME_LEN) != 0)
			continue;
		for (i = 0; i < TRACE_N; i++) {
			if ((int)(hdr >> 48) != tf->id[i])
				continue;
			tf->count[i]++;
			if (i == TR_RESIZE && off + TRACE_EV_HDR + TRACE_NAME_LEN + 9 <= len)
				trace_resize_fields(buf + off, tf);
		}
	}
}

/* Every channel0_N file is non-empty; count the events in them. */
static int
trace_streams_check(const char *dir, struct trace_found *tf)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t len;
	uint8_t *buf;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_NOT_NULL(d, "cannot open %s", dir);
	while (ret == TEST_SUCCESS && (de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "channel", 7) != 0)
			continue;
		len = 0;
		buf = NULL;
		if (path_join(path, sizeof(path), dir, de->d_name) == 0)
			buf = (uint8_t *)file_read(path, &len);
		if (buf == NULL || len < TRACE_STREAM_HDR) {
			printf("stream %s missing or empty (%zu bytes)\n", path, len);
			ret = TEST_FAILED;
		} else {
			tf->stream_files++;
			trace_stream_scan(buf, len, tf);
		}
		free(buf);
	}
	closedir(d);
	return ret;
}

/* Remove the session directory (flat: metadata and channel files). */
static void
trace_dir_remove(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (path_join(path, sizeof(path), dir, de->d_name) == 0)
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

static int
trace_output_check(const char *dir)
{
	struct trace_found tf;
	unsigned int i;

	memset(&tf, 0, sizeof(tf));
	TEST_ASSERT_SUCCESS(trace_metadata_check(dir, &tf), "metadata");
	TEST_ASSERT_SUCCESS(trace_streams_check(dir, &tf), "streams");
	TEST_ASSERT(tf.stream_files > 0, "no stream file in %s", dir);
	for (i = 0; i < TRACE_N; i++) {
		printf("  %s (id %d): %u events\n", trace_names[i], tf.id[i], tf.count[i]);
		TEST_ASSERT(tf.count[i] > 0, "no %s event recorded", trace_names[i]);
	}
	printf("  resizes: %u grows, %u shrinks, %u emergency\n", tf.grows, tf.shrinks,
	       tf.emergency);
	TEST_ASSERT(tf.grows > 0 && tf.shrinks > 0 && tf.emergency > 0,
		    "resize events lack a grow, a shrink or an emergency allocation");
	return TEST_SUCCESS;
}

static int
test_rhashtable_trace(void)
{
	char dir[PATH_MAX];
	struct test_obj *objs;
	int ret;

	TEST_ASSERT_SUCCESS(trace_points_enabled(), "trace points");
	objs = test_objs_alloc(TRACE_N_OBJS, 1);
	TEST_ASSERT_NOT_NULL(objs, "no memory for objects");
	ret = trace_resizes(objs);
	if (ret == TEST_SUCCESS)
		ret = trace_ebusy(objs);
	rte_free(objs);
	TEST_ASSERT_SUCCESS(ret, "generating events");

	TEST_ASSERT_SUCCESS(rte_trace_save(), "rte_trace_save");
	TEST_ASSERT_SUCCESS(trace_dir_get(dir, sizeof(dir)), "trace directory unknown");
	printf("  trace saved in %s\n", dir);
	ret = trace_output_check(dir);
	/* keep a failed run's output for babeltrace; drop a good one */
	if (ret == TEST_SUCCESS)
		trace_dir_remove(dir);
	return ret;
}

REGISTER_FAST_TEST(rhashtable_trace_autotest, true, true, test_rhashtable_trace);
