/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Multi-process: a secondary process reads tables its primary built.
 * - rhashtable_mp_autotest (primary, needs hugepages and a shared config):
 *   builds two tables over objects in shared memory (rte_zmalloc), one with
 *   a 4-byte key left mid-resize across several bucket tables, one with a
 *   12-byte key, then runs this binary again as a secondary process on
 *   another lcore and expects it to exit 0.
 * - rhashtable_mp_secondary_autotest (secondary, in no suite): finds both
 *   tables by name and checks lookup, lookup_bulk, count, stats and a walk.
 * The default hash and compare are used: the library keeps no function
 * pointer for them, so nothing in the tables differs between processes.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include <rte_rhashtable.h>

#include "test.h"

#define MP_N_OBJS 2048
#define MP_TABLE4 "rht_mp_key4"
#define MP_TABLE12 "rht_mp_key12"
#define MP_MEMZONE "rht_mp_test"
#define MP_SECONDARY_CMD "rhashtable_mp_secondary_autotest"
#define MP_TIMEOUT_S 30

/* One object, in both tables at once: one head per table. */
struct mp_obj {
	uint32_t key4;              /* present keys are odd */
	uint8_t key12[12];
	uint32_t check;             /* mp_check(index): the secondary verifies it */
	struct rte_rhash_head node4;
	struct rte_rhash_head node12;
};

/* What the secondary learns from the primary, in a memzone. */
struct mp_shared {
	struct mp_obj *objs;
	uint32_t n;
};

static uint32_t
mp_check(uint32_t i)
{
	return i * 2654435761U ^ 0x9e3779b9U;
}

static uint32_t
mp_key4(uint32_t i, bool present)
{
	return 2 * i + (present ? 1 : 0);
}

static void
mp_key12(uint32_t i, bool present, uint8_t key[12])
{
	uint32_t w[3] = { i, present ? 0x5a5a5a5aU : 0xa5a5a5a5U, ~i };

	memcpy(key, w, sizeof(w));
}

/* Key i of either table into key (12 bytes of room). */
static void
mp_key(uint32_t i, bool present, bool key12, uint8_t key[12])
{
	uint32_t k4 = mp_key4(i, present);

	if (key12)
		mp_key12(i, present, key);
	else
		memcpy(key, &k4, sizeof(k4));
}

static void
mp_params(struct rte_rhashtable_params *p, const char *name, bool key12)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->socket_id = SOCKET_ID_ANY;
	p->nelem_hint = 16;
	p->key_len = key12 ? 12 : sizeof(uint32_t);
	p->key_offset = key12 ? offsetof(struct mp_obj, key12) : offsetof(struct mp_obj, key4);
	p->head_offset = key12 ? offsetof(struct mp_obj, node12) : offsetof(struct mp_obj, node4);
}

/* ---- primary ---- */

static struct rte_rhashtable *mp_ht4, *mp_ht12;
static struct mp_obj *mp_objs;
static const struct rte_memzone *mp_mz;

static void
mp_primary_teardown(void)
{
	rte_rhashtable_free(mp_ht4);
	rte_rhashtable_free(mp_ht12);
	rte_memzone_free(mp_mz);
	rte_free(mp_objs);
	mp_ht4 = NULL;
	mp_ht12 = NULL;
	mp_mz = NULL;
	mp_objs = NULL;
}

static int
mp_primary_setup(void)
{
	struct rte_rhashtable_params p;
	struct mp_shared *sh;
	uint32_t i;

	mp_objs = rte_zmalloc("rht_mp_objs", sizeof(*mp_objs) * MP_N_OBJS, 0);
	TEST_ASSERT_NOT_NULL(mp_objs, "no memory for objects");
	mp_params(&p, MP_TABLE4, false);
	mp_ht4 = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(mp_ht4, "create %s: %s", MP_TABLE4, rte_strerror(rte_errno));
	mp_params(&p, MP_TABLE12, true);
	mp_ht12 = rte_rhashtable_create(&p);
	TEST_ASSERT_NOT_NULL(mp_ht12, "create %s: %s", MP_TABLE12, rte_strerror(rte_errno));

	for (i = 0; i < MP_N_OBJS; i++) {
		mp_objs[i].key4 = mp_key4(i, true);
		mp_key12(i, true, mp_objs[i].key12);
		mp_objs[i].check = mp_check(i);
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(mp_ht4, &mp_objs[i].node4), "insert");
		TEST_ASSERT_SUCCESS(rte_rhashtable_insert(mp_ht12, &mp_objs[i].node12), "insert");
	}
	/* key12: one bucket table; key4: left with the chain inserts grew */
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(mp_ht12), "rehash_run");

	mp_mz = rte_memzone_reserve(MP_MEMZONE, sizeof(*sh), SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(mp_mz, "memzone: %s", rte_strerror(rte_errno));
	sh = mp_mz->addr;
	sh->objs = mp_objs;
	sh->n = MP_N_OBJS;
	return TEST_SUCCESS;
}

/* A secondary needs hugepages and the primary's shared config file. */
static int
mp_supported(void)
{
	char path[PATH_MAX];
	struct stat st;

	if (!rte_eal_has_hugepages()) {
		printf("needs hugepages: EAL runs with --no-huge, skipped\n");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/config", rte_eal_get_runtime_dir());
	if (stat(path, &st) != 0) {
		printf("no shared config %s (--no-shconf or --in-memory): skipped\n", path);
		return 0;
	}
	return 1;
}

/*
 * Our environment (environ: unistd.h with _GNU_SOURCE) with the test
 * variables replaced for the secondary.
 */
static char **
mp_child_env(void)
{
	static char test_var[] = "DPDK_TEST=" MP_SECONDARY_CMD;
	static char huge_var[] = "RHT_TEST_NEEDS_HUGEPAGES=0";
	/* main()'s --no-huge fallback would break a secondary: never take it */
	static char mem_var[] = "RHT_TEST_MEM_MB=1";
	char *const set[] = { test_var, huge_var, mem_var };
	unsigned int n = 0, i, k;
	char **env;

	while (environ[n] != NULL)
		n++;
	env = calloc(n + RTE_DIM(set) + 1, sizeof(*env));
	if (env == NULL)
		return NULL;
	for (i = 0, k = 0; i < n; i++)
		if (strncmp(environ[i], "DPDK_TEST=", 10) != 0 &&
		    strncmp(environ[i], "RHT_TEST_NEEDS_HUGEPAGES=", 25) != 0 &&
		    strncmp(environ[i], "RHT_TEST_MEM_MB=", 16) != 0)
			env[k++] = environ[i];
	for (i = 0; i < RTE_DIM(set); i++)
		env[k++] = set[i];
	return env;
}

/* Start this binary as a secondary of our file prefix on another lcore. */
static pid_t
mp_spawn_secondary(void)
{
	static char exe[PATH_MAX], prefix_arg[PATH_MAX], lcore_arg[16];
	static char proc_arg[] = "--proc-type=secondary", l_arg[] = "-l", pci_arg[] = "--no-pci";
	char *argv[] = { exe, proc_arg, prefix_arg, l_arg, lcore_arg, pci_arg, NULL };
	const char *dir = rte_eal_get_runtime_dir();
	const char *slash = strrchr(dir, '/');
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	char **env;
	ssize_t len;
	pid_t pid;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0 || slash == NULL)
		return -1;
	exe[len] = '\0';
	/* the runtime directory is named after the file prefix */
	snprintf(prefix_arg, sizeof(prefix_arg), "--file-prefix=%s", slash + 1);
	snprintf(lcore_arg, sizeof(lcore_arg), "%u",
		 lcore < RTE_MAX_LCORE ? lcore : rte_get_main_lcore());
	env = mp_child_env();
	if (env == NULL)
		return -1;
	printf("  starting %s %s %s -l %s --no-pci (DPDK_TEST=%s)\n", exe, argv[1],
	       prefix_arg, lcore_arg, MP_SECONDARY_CMD);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execve(exe, argv, env);
		_exit(127);
	}
	free(env);
	return pid;
}

/* Exit status of pid, or -1 (and the child killed) after MP_TIMEOUT_S. */
static int
mp_wait(pid_t pid)
{
	struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	unsigned int ticks;
	int status;

	for (ticks = 0; ticks < MP_TIMEOUT_S * 100; ticks++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (r < 0)
			return -1;
		nanosleep(&tick, NULL);
	}
	printf("secondary %d still running after %d s: killed\n", (int)pid, MP_TIMEOUT_S);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static int
mp_primary_checks(void)
{
	struct rte_rhashtable_stats s;
	pid_t pid;
	int status;

	TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(mp_ht4, &s), "stats");
	printf("  %s: %u bucket tables, %" PRIu64 " grows\n", MP_TABLE4, s.ntables, s.grows);
	TEST_ASSERT(s.ntables > 1, "%s was meant to stay mid-resize", MP_TABLE4);
	pid = mp_spawn_secondary();
	TEST_ASSERT(pid > 0, "cannot start the secondary process: %s", strerror(errno));
	status = mp_wait(pid);
	TEST_ASSERT_EQUAL(status, 0, "secondary process exited with %d", status);
	/* the secondary only read: the tables are as we left them */
	TEST_ASSERT_EQUAL(rte_rhashtable_count(mp_ht4), MP_N_OBJS, "count after");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(mp_ht12), MP_N_OBJS, "count after");
	return TEST_SUCCESS;
}

static int
test_rhashtable_mp(void)
{
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		printf("run this in a primary process\n");
		return TEST_FAILED;
	}
	if (!mp_supported())
		return TEST_SKIPPED;
	ret = mp_primary_setup();
	if (ret == TEST_SUCCESS)
		ret = mp_primary_checks();
	mp_primary_teardown();
	return ret;
}

REGISTER_FAST_TEST(rhashtable_mp_autotest, false, true, test_rhashtable_mp);

/* ---- secondary ---- */

static const void *
mp_obj_key(const struct mp_obj *o, bool key12)
{
	return key12 ? (const void *)o->key12 : (const void *)&o->key4;
}

/* Every present key finds its very object, intact; no absent key is found. */
static int
mp_check_lookups(const struct rte_rhashtable *ht, const struct mp_shared *sh, bool key12)
{
	uint8_t key[12];
	struct mp_obj *o;
	uint32_t i;

	for (i = 0; i < sh->n; i++) {
		mp_key(i, true, key12, key);
		o = rte_rhashtable_lookup(ht, key);
		TEST_ASSERT_EQUAL(o, &sh->objs[i], "key %u: object %p, expected %p", i,
				  (void *)o, (void *)&sh->objs[i]);
		TEST_ASSERT_EQUAL(o->check, mp_check(i), "object %u corrupt", i);
		mp_key(i, false, key12, key);
		TEST_ASSERT_NULL(rte_rhashtable_lookup(ht, key), "absent key %u found", i);
	}
	return TEST_SUCCESS;
}

/* lookup_bulk over bursts of present keys, each followed by an absent one. */
static int
mp_check_bulk(const struct rte_rhashtable *ht, const struct mp_shared *sh, bool key12)
{
	const void *keys[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	uint8_t absent[RTE_RHASHTABLE_LOOKUP_BULK_MAX / 2][12];
	void *objs[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	const uint32_t half = RTE_RHASHTABLE_LOOKUP_BULK_MAX / 2;
	uint64_t mask;
	uint32_t base, i;
	int ret;

	for (base = 0; base + half <= sh->n; base += half) {
		for (i = 0; i < half; i++) {
			keys[2 * i] = mp_obj_key(&sh->objs[base + i], key12);
			mp_key(base + i, false, key12, absent[i]);
			keys[2 * i + 1] = absent[i];
		}
		ret = rte_rhashtable_lookup_bulk(ht, keys, 2 * half, &mask, objs);
		TEST_ASSERT_EQUAL(ret, (int)half, "bulk at %u: %d hits", base, ret);
		for (i = 0; i < half; i++) {
			TEST_ASSERT_EQUAL(objs[2 * i], (void *)&sh->objs[base + i],
					  "bulk key %u", base + i);
			TEST_ASSERT_NULL(objs[2 * i + 1], "bulk absent key %u", base + i);
		}
		TEST_ASSERT_EQUAL(mask, UINT64_C(0x5555555555555555), "hit_mask %#" PRIx64,
				  mask);
	}
	return TEST_SUCCESS;
}

/*
 * A read-only walk sees every object once. The iterator is in shared memory:
 * while it is parked the primary's rehash worker may write to it.
 */
static int
mp_check_walk(struct rte_rhashtable *ht, const struct mp_shared *sh)
{
	struct rte_rhashtable_iter *it = rte_zmalloc("rht_mp_iter", sizeof(*it), 0);
	uint8_t *seen = calloc(sh->n, 1);
	uint32_t total = 0, dup = 0, stray = 0;
	void *obj;
	int ret;

	if (it == NULL || seen == NULL) {
		rte_free(it);
		free(seen);
		printf("no memory for the walk\n");
		return TEST_FAILED;
	}
	rte_rhashtable_walk_enter(ht, it);
	rte_rhashtable_walk_start(it);
	while ((ret = rte_rhashtable_walk_next(it, &obj)) != -ENOENT) {
		size_t idx = (struct mp_obj *)obj - sh->objs;

		if (ret == -EAGAIN)
			continue;
		if (obj < (void *)sh->objs || idx >= sh->n)
			stray++;
		else
			dup += seen[idx]++ != 0;
		total++;
	}
	rte_rhashtable_walk_stop(it);
	rte_rhashtable_walk_exit(it);
	rte_free(it);
	free(seen);
	TEST_ASSERT(total == sh->n && dup == 0 && stray == 0,
		    "walk: %u objects (%u twice, %u unknown), expected %u", total, dup, stray,
		    sh->n);
	return TEST_SUCCESS;
}

static int
mp_check_table(const char *name, const struct mp_shared *sh, bool key12)
{
	struct rte_rhashtable *ht = rte_rhashtable_find_existing(name);
	struct rte_rhashtable_stats s;

	TEST_ASSERT_NOT_NULL(ht, "%s not found: %s", name, rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(rte_rhashtable_count(ht), sh->n, "%s: count", name);
	TEST_ASSERT_SUCCESS(rte_rhashtable_stats_get(ht, &s), "%s: stats", name);
	TEST_ASSERT_EQUAL(s.nelems, sh->n, "%s: stats.nelems %" PRIu64, name, s.nelems);
	TEST_ASSERT_SUCCESS(mp_check_lookups(ht, sh, key12), "%s: lookups", name);
	TEST_ASSERT_SUCCESS(mp_check_bulk(ht, sh, key12), "%s: bulk lookups", name);
	/* the 4-byte table's walk crosses its chain of bucket tables */
	TEST_ASSERT_SUCCESS(mp_check_walk(ht, sh), "%s: walk", name);
	printf("  secondary: %s: %u objects found over %u bucket tables, %u absent keys "
	       "not found\n", name, sh->n, s.ntables, sh->n);
	return TEST_SUCCESS;
}

static int
test_rhashtable_mp_secondary(void)
{
	const struct rte_memzone *mz;
	const struct mp_shared *sh;

	if (rte_eal_process_type() != RTE_PROC_SECONDARY) {
		printf("%s runs in the secondary process that rhashtable_mp_autotest starts\n",
		       MP_SECONDARY_CMD);
		return TEST_FAILED;
	}
	mz = rte_memzone_lookup(MP_MEMZONE);
	TEST_ASSERT_NOT_NULL(mz, "memzone %s not found", MP_MEMZONE);
	sh = mz->addr;
	TEST_ASSERT_SUCCESS(mp_check_table(MP_TABLE4, sh, false), MP_TABLE4);
	TEST_ASSERT_SUCCESS(mp_check_table(MP_TABLE12, sh, true), MP_TABLE12);
	return TEST_SUCCESS;
}

REGISTER_TEST_COMMAND(rhashtable_mp_secondary_autotest, test_rhashtable_mp_secondary);
