/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Common part of the benchmark shim: EAL and RCU set-up, the key sets and
 * lookup streams shared by every system, and the table life cycle (one
 * system holds a table at a time, so a 16Mi run needs one table's memory).
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>
#include <rte_service.h>

#include "rht_eal_mem.h"
#include "rht_eal_runtime.h"
#include "bench_peer.h"
#include "../test_rhashtable_util.h"

/* Keys per lookup stream: 64 MiB of keys read in order, so the stream itself
 * costs a prefetched sequential read and not a cache miss per lookup.
 */
#define STREAM_LEN (4u << 20)
#define ZIPF_THETA 0.99

struct rte_rcu_qsbr *bench_qsbr;
unsigned int bench_qsbr_tid;

static const struct bench_peer *const peers[BENCH_SYS_MAX] = {
	[BENCH_SYS_RHT] = &bench_peer_rht,
	[BENCH_SYS_HASH] = &bench_peer_hash,
	[BENCH_SYS_LFHT] = &bench_peer_lfht,
	[BENCH_SYS_LINE] = &bench_peer_line,
};

static const char *const stream_names[BENCH_STREAM_MAX] = {
	[BENCH_HIT_UNIFORM] = "hit_uniform",
	[BENCH_HIT_ZIPF] = "hit_zipf",
	[BENCH_MISS_UNIFORM] = "miss_uniform",
	[BENCH_MISS_ZIPF] = "miss_zipf",
};

enum table_state { TABLE_NONE, TABLE_EMPTY, TABLE_FULL };

/* The one system that holds objects (and maybe a table) right now. */
static int active_sys = -1;
static uint32_t active_n;
static enum table_state active_state;

/* Memory measured when each system last built a full table. */
static struct bench_mem mem_cache[BENCH_SYS_MAX];

/* Lookup streams over the key set of stream_n entries. */
static struct bench_key *streams[BENCH_STREAM_MAX];
static uint32_t stream_n[BENCH_STREAM_MAX];
static const struct bench_key *cur_stream;
static uint32_t cur_pos;

static char eal_args_str[1024];
static int eal_done;
static volatile uint64_t bench_sink;

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
bench_key_make(struct bench_key *k, uint64_t idx, int miss)
{
	/* mix64 is a bijection, so distinct inputs give distinct addresses */
	uint64_t addr = mix64(idx + (miss ? 1ULL << 62 : 0) + 0x5bd1e995ULL);
	uint64_t ports = mix64(addr);

	k->src_ip = (uint32_t)(addr >> 32);
	k->dst_ip = (uint32_t)addr;
	k->src_port = (uint16_t)ports;
	k->dst_port = (uint16_t)(ports >> 16);
	k->proto = (ports >> 32) & 1 ? 17 : 6;
	memset(k->pad, 0, sizeof(k->pad));
}

double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double
bench_thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

const char *
bench_sys_name(enum bench_sys sys)
{
	return sys < BENCH_SYS_MAX ? peers[sys]->name : "?";
}

const char *
bench_sys_note(enum bench_sys sys)
{
	return sys < BENCH_SYS_MAX ? peers[sys]->note : "?";
}

static const char *const mode_names[BENCH_LOOKUP_MODE_MAX] = {
	[BENCH_SINGLE] = "single",
	[BENCH_BULK] = "bulk32",
	[BENCH_SINGLE_BARE] = "single_bare",
	[BENCH_BULK_BARE] = "bulk32_bare",
	[BENCH_SINGLE_CALL] = "single_call",
};

const struct bench_peer *
bench_peer_of(enum bench_sys sys)
{
	return sys < BENCH_SYS_MAX ? peers[sys] : NULL;
}

int
bench_sys_has_mode(enum bench_sys sys, enum bench_lookup_mode m)
{
	return sys < BENCH_SYS_MAX && m < BENCH_LOOKUP_MODE_MAX && peers[sys]->lookup[m] != NULL;
}

const char *
bench_mode_name(enum bench_lookup_mode m)
{
	return m < BENCH_LOOKUP_MODE_MAX ? mode_names[m] : "?";
}

int
bench_sys_has_churn(enum bench_sys sys)
{
	return sys < BENCH_SYS_MAX && peers[sys]->churn_op != NULL;
}

int
bench_sys_is_probe(enum bench_sys sys)
{
	return sys < BENCH_SYS_MAX && peers[sys]->probe;
}

int
bench_sys_has_sizing(enum bench_sys sys, enum bench_sizing z)
{
	if (sys == BENCH_SYS_HASH || sys == BENCH_SYS_LINE)
		return z == BENCH_PRESIZED;
	if (sys == BENCH_SYS_LFHT)
		return z == BENCH_PRESIZED || z == BENCH_GROW_INLINE;
	return sys < BENCH_SYS_MAX;
}

const char *
bench_stream_name(enum bench_stream k)
{
	return k < BENCH_STREAM_MAX ? stream_names[k] : "?";
}

int
bench_no_huge(void)
{
	return !rte_eal_has_hugepages();
}

const char *
bench_eal_args(void)
{
	return eal_args_str;
}

void
bench_reader_online(void)
{
	rte_rcu_qsbr_thread_online(bench_qsbr, bench_qsbr_tid);
}

void
bench_reader_offline(void)
{
	rte_rcu_qsbr_thread_offline(bench_qsbr, bench_qsbr_tid);
}

void
bench_unique_name(char *buf, size_t len, const char *prefix)
{
	static unsigned int counter;

	snprintf(buf, len, "%s%u", prefix, counter++);
}

void *
bench_objs_alloc(uint32_t n, size_t obj_size)
{
	return rte_zmalloc_socket("bench_objs", (size_t)n * obj_size,
				  RTE_CACHE_LINE_SIZE, rte_socket_id());
}

void
bench_objs_release(void *objs, uint32_t *objs_n)
{
	rte_free(objs);
	*objs_n = 0;
}

void *
bench_objs_keyed(void *objs, uint32_t *objs_n, uint32_t n, size_t obj_size,
		 size_t key_offset)
{
	uint32_t i;

	if (objs != NULL && *objs_n == n)
		return objs;
	bench_objs_release(objs, objs_n);
	objs = bench_objs_alloc(n, obj_size);
	if (objs == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		bench_key_make((struct bench_key *)((char *)objs + i * obj_size + key_offset),
			       i, 0);
	*objs_n = n;
	return objs;
}

void *
bench_churn_objs(uint32_t n, uint32_t w, size_t obj_size, size_t key_offset)
{
	char *objs;
	uint32_t j;

	objs = bench_objs_alloc(w, obj_size);
	if (objs == NULL)
		return NULL;
	/* indices from n on: beyond every key a stream of n entries draws */
	for (j = 0; j < w; j++)
		bench_key_make((struct bench_key *)(objs + (size_t)j * obj_size + key_offset),
			       (uint64_t)n + j, 1);
	return objs;
}

uint64_t
bench_rss_bytes(void)
{
	unsigned long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Chosen once: after rte_service_lcore_add() the lcore is no longer a
 * plain worker, and rte_get_next_lcore() would skip it.
 */
static unsigned int service_lcore = RTE_MAX_LCORE;

unsigned int
bench_service_lcore(void)
{
	return service_lcore;
}

int
bench_service_start(uint32_t service_id)
{
	unsigned int lc = bench_service_lcore();
	int rc;

	if (lc >= RTE_MAX_LCORE)
		return -ENOTSUP;
	rc = rte_service_lcore_add(lc);
	if (rc != 0 && rc != -EALREADY)
		return rc;
	rc = rte_service_map_lcore_set(service_id, lc, 1);
	if (rc == 0)
		rc = rte_service_runstate_set(service_id, 1);
	if (rc != 0)
		return rc;
	rc = rte_service_lcore_start(lc);
	return rc == -EALREADY ? 0 : rc;
}

void
bench_service_stop(uint32_t service_id)
{
	unsigned int lc = bench_service_lcore();

	if (lc >= RTE_MAX_LCORE)
		return;
	rte_service_map_lcore_set(service_id, lc, 0);
	if (rte_service_lcore_count_services(lc) > 0)
		return;
	/* the service lcore spins while started: stop it, and wait for its
	 * thread to return so that a later start can launch it again
	 */
	if (rte_service_lcore_stop(lc) == 0)
		rte_eal_wait_lcore(lc);
}

static void
record_eal_args(int argc, char **argv)
{
	size_t off = 0;
	int i;

	for (i = 1; i < argc && off < sizeof(eal_args_str); i++)
		off += snprintf(eal_args_str + off, sizeof(eal_args_str) - off, "%s%s",
				i > 1 ? " " : "", argv[i]);
}

static int
qsbr_setup(void)
{
	bench_qsbr = test_qsbr_create();
	if (bench_qsbr == NULL)
		return -ENOMEM;
	bench_qsbr_tid = rte_lcore_id();
	return rte_rcu_qsbr_thread_register(bench_qsbr, bench_qsbr_tid);
}

int
bench_init(int argc, char **argv, unsigned int mem_mb)
{
	char **eal_argv;
	unsigned int s;
	int rc;

	if (eal_done)
		return 0;
	/* devtools/test.sh finds the hugepage files of a bench that did not free its memory */
	if (rht_eal_tag_file_prefix(argc, argv) != 0)
		return -EINVAL;
	eal_argv = rht_eal_args_with_memory(&argc, argv, mem_mb);
	record_eal_args(argc, eal_argv);
	rc = rte_eal_init(argc, eal_argv);
	if (rc < 0) {
		fprintf(stderr, "bench: rte_eal_init(%s) failed: %s\n", eal_args_str,
			rte_strerror(rte_errno));
		return -rte_errno;
	}
	eal_done = 1;
	service_lcore = rte_get_next_lcore(-1, 1, 0);
	rc = qsbr_setup();
	if (rc != 0) {
		fprintf(stderr, "bench: QSBR set-up failed: %d\n", rc);
		return rc;
	}
	for (s = 0; s < BENCH_SYS_MAX; s++) {
		rc = peers[s]->init();
		if (rc != 0) {
			fprintf(stderr, "bench: %s init failed: %d\n", peers[s]->name, rc);
			return rc;
		}
	}
	return 0;
}

static void
release_active(void)
{
	const struct bench_peer *p;

	if (active_sys < 0)
		return;
	p = peers[active_sys];
	if (active_state != TABLE_NONE)
		p->destroy();
	p->objs_free();
	active_sys = -1;
	active_state = TABLE_NONE;
}

void
bench_fini(void)
{
	unsigned int s;

	if (!eal_done)
		return;
	release_active();
	/* else its hugepages stay reserved after the process: EAL reclaims
	 * them only for a later run of the same file prefix
	 */
	bench_limit_release();
	for (s = 0; s < BENCH_STREAM_MAX; s++) {
		free(streams[s]);
		streams[s] = NULL;
	}
	for (s = 0; s < BENCH_SYS_MAX; s++)
		peers[s]->fini();
	rte_free(bench_qsbr);
	rht_eal_cleanup_runtime();
	eal_done = 0;
}

/* Make sys hold the objects for n entries and no table. */
static int
objs_for(enum bench_sys sys, uint32_t n)
{
	int rc;

	if (active_sys == (int)sys && active_n == n) {
		if (active_state != TABLE_NONE)
			peers[sys]->destroy();
		active_state = TABLE_NONE;
		return 0;
	}
	release_active();
	rc = peers[sys]->objs_prepare(n);
	if (rc != 0)
		return rc;
	active_sys = sys;
	active_n = n;
	return 0;
}

static int
table_create(enum bench_sys sys, uint32_t n, enum bench_sizing z)
{
	int rc = objs_for(sys, n);

	if (rc != 0)
		return rc;
	rc = peers[sys]->create(n, z);
	if (rc != 0)
		return rc;
	active_state = TABLE_EMPTY;
	return 0;
}

/* Insert every object of the active table in chunks, watching the clock. */
static int
table_fill(double budget_s, uint32_t *done)
{
	const struct bench_peer *p = peers[active_sys];
	double deadline = bench_now() + budget_s;
	uint32_t lo, hi;
	int rc = 0;

	for (lo = 0; lo < active_n && rc == 0; lo = hi) {
		hi = RTE_MIN(active_n, lo + 4096);
		rc = p->insert(lo, hi);
		if (rc == 0 && bench_now() > deadline)
			rc = -ETIMEDOUT;
	}
	*done = rc == 0 ? active_n : lo;
	if (rc == 0)
		rc = p->settle();
	if (rc == 0)
		active_state = TABLE_FULL;
	return rc;
}

static void
record_memory(enum bench_sys sys, uint32_t n)
{
	struct bench_mem *m = &mem_cache[sys];

	m->entries = 0;
	if (peers[sys]->table_bytes(&m->table_bytes, &m->method) != 0)
		return;
	m->obj_bytes = peers[sys]->obj_size;
	m->entries = n;
}

static int
table_ensure_full(enum bench_sys sys, uint32_t n)
{
	uint32_t done;
	int rc;

	if (active_sys == (int)sys && active_n == n && active_state == TABLE_FULL)
		return 0;
	rc = table_create(sys, n, peers[sys]->lookup_sizing);
	if (rc == 0)
		rc = table_fill(600.0, &done);
	if (rc != 0) {
		fprintf(stderr, "bench: building %s with %u entries failed: %d\n",
			peers[sys]->name, n, rc);
		return rc;
	}
	record_memory(sys, n);
	return 0;
}

/* Zipf(theta) over [0, n) by the rejection-free inversion of Gray et al.
 * ("Quickly generating billion-record synthetic databases", SIGMOD 1994).
 */
struct zipf {
	double n, theta, alpha, zetan, eta, two_limit;
};

static double
zeta(uint64_t n, double theta)
{
	double sum = 0;
	uint64_t i;

	for (i = 1; i <= n; i++)
		sum += 1.0 / pow((double)i, theta);
	return sum;
}

static void
zipf_init(struct zipf *z, uint64_t n, double theta)
{
	static uint64_t cached_n;
	static double cached_zetan;
	double zeta2 = 1.0 + pow(0.5, theta);

	if (cached_n != n) {
		cached_zetan = zeta(n, theta);
		cached_n = n;
	}
	z->n = (double)n;
	z->theta = theta;
	z->alpha = 1.0 / (1.0 - theta);
	z->zetan = cached_zetan;
	z->eta = (1.0 - pow(2.0 / n, 1.0 - theta)) / (1.0 - zeta2 / z->zetan);
	z->two_limit = zeta2;
}

static uint64_t
zipf_rank(const struct zipf *z, double u)
{
	double uz = u * z->zetan;
	uint64_t r;

	if (uz < 1.0)
		return 0;
	if (uz < z->two_limit)
		return 1;
	r = (uint64_t)(z->n * pow(z->eta * u - z->eta + 1.0, z->alpha));
	return r < (uint64_t)z->n ? r : (uint64_t)z->n - 1;
}

/* Key index of draw i: uniform, or Zipf with ranks scattered over the keys
 * so that the hot keys are not neighbours in the object array.
 */
static int
stream_fill(struct bench_key *s, uint32_t n, enum bench_stream k)
{
	int zipfian = k == BENCH_HIT_ZIPF || k == BENCH_MISS_ZIPF;
	int miss = k == BENCH_MISS_UNIFORM || k == BENCH_MISS_ZIPF;
	uint64_t rng = 0x243f6a8885a308d3ULL + k, idx;
	struct zipf z = { 0 };
	uint32_t i;

	if (zipfian)
		zipf_init(&z, n, ZIPF_THETA);
	for (i = 0; i < STREAM_LEN; i++) {
		uint64_t r = bench_rand64(&rng);

		if (zipfian)
			idx = mix64(zipf_rank(&z, (r >> 11) * 0x1.0p-53)) % n;
		else
			idx = r % n;
		bench_key_make(&s[i], idx, miss);
	}
	return 0;
}

static int
stream_select(uint32_t n, enum bench_stream k)
{
	if (streams[k] == NULL) {
		streams[k] = malloc(sizeof(struct bench_key) * STREAM_LEN);
		if (streams[k] == NULL)
			return -ENOMEM;
		stream_n[k] = 0;
	}
	if (stream_n[k] != n) {
		stream_fill(streams[k], n, k);
		stream_n[k] = n;
	}
	cur_stream = streams[k];
	cur_pos = 0;
	return 0;
}

int
bench_lookup_setup(enum bench_sys sys, uint32_t n, enum bench_stream k)
{
	int rc;

	if (sys >= BENCH_SYS_MAX || k >= BENCH_STREAM_MAX || n == 0)
		return -EINVAL;
	rc = table_ensure_full(sys, n);
	if (rc == 0)
		rc = stream_select(n, k);
	return rc;
}

uint64_t
bench_lookup_run(enum bench_sys sys, enum bench_lookup_mode mode, uint64_t bursts,
		 uint64_t *hits)
{
	const struct bench_peer *p = peers[sys];
	uint32_t (*fn)(const struct bench_key *, uint64_t *);
	uint64_t acc = 0, found = 0, b;
	uint32_t pos = cur_pos;

	fn = p->lookup[mode];
	bench_reader_online();
	for (b = 0; b < bursts; b++) {
		found += fn(cur_stream + pos, &acc);
		pos = (pos + BENCH_BURST) & (STREAM_LEN - 1);
		/* once per burst, as a packet-processing loop would */
		p->quiescent();
	}
	bench_reader_offline();
	cur_pos = pos;
	bench_sink += acc;
	*hits = found;
	return bursts * BENCH_BURST;
}

int
bench_insert_setup(enum bench_sys sys, uint32_t n, enum bench_sizing z)
{
	if (sys >= BENCH_SYS_MAX || n == 0)
		return -EINVAL;
	if (!bench_sys_has_sizing(sys, z))
		return -ENOTSUP;
	return table_create(sys, n, z);
}

int
bench_insert_run(enum bench_sys sys, double budget_s, uint32_t *done)
{
	if (active_sys != (int)sys || active_state != TABLE_EMPTY)
		return -EINVAL;
	return table_fill(budget_s, done);
}

int
bench_remove_setup(enum bench_sys sys, uint32_t n)
{
	if (sys >= BENCH_SYS_MAX || n == 0)
		return -EINVAL;
	return table_ensure_full(sys, n);
}

int
bench_remove_run(enum bench_sys sys)
{
	int rc;

	if (active_sys != (int)sys || active_state != TABLE_FULL)
		return -EINVAL;
	rc = peers[sys]->remove(0, active_n);
	active_state = TABLE_EMPTY;
	return rc;
}

int
bench_memory(enum bench_sys sys, uint32_t n, struct bench_mem *m)
{
	int rc;

	if (sys >= BENCH_SYS_MAX || m == NULL)
		return -EINVAL;
	if (mem_cache[sys].entries != n) {
		rc = table_ensure_full(sys, n);
		if (rc != 0)
			return rc;
		if (mem_cache[sys].entries != n)
			return -EIO;
	}
	*m = mem_cache[sys];
	return 0;
}

uint64_t
bench_rht_working_set(uint32_t n)
{
	const struct bench_mem *m = &mem_cache[BENCH_SYS_RHT];

	if (m->entries == n)
		return m->table_bytes + (uint64_t)n * m->obj_bytes;
	return bench_pow2_ceil((uint64_t)n * 10 / 7 + 1) * sizeof(void *) +
		(uint64_t)n * bench_peer_rht.obj_size;
}

void
bench_release(void)
{
	release_active();
}
