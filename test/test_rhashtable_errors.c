/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * rhashtable_errors_autotest: every public function given bad input or used
 * the wrong way. Each call must return its documented error (or NULL with
 * rte_errno), log what the library promises, and leave a populated table
 * exactly as it was: same count, every object still found, a walk sees each
 * object once.
 *
 * Logging contract checked here (one line per misuse, through rte_log):
 * - control-path calls and writers given bad arguments log exactly one line
 *   that names the problem;
 * - outcomes that are normal under concurrency (-ENOENT from remove/replace,
 *   -EEXIST from lookup_insert, -E2BIG, a name not found) log nothing;
 * - the lock-free readers (lookup, rhltable lookup) log nothing: they only
 *   set rte_errno, as their documentation says;
 * - free(NULL), count(NULL), rhltable_table(NULL) are silent no-ops;
 * - a table that needs its worker while nothing runs it logs one notice,
 *   none when the application calls rte_rhashtable_rehash_run() itself.
 *
 * "Does not fit": the offsets are 16-bit, so an object is at most 65535
 * bytes; a key with key_offset + key_len > 65535, or a head with
 * head_offset + sizeof(head) > 65535, is refused with EINVAL.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include <rte_rhashtable.h>

#include "test.h"
#include "test_rhashtable_util.h"

#define ERR_N_OBJS 512
#define ERR_MAX_SIZE 256

static struct rte_rhashtable *ht;
static struct test_obj *objs;
static struct test_obj *outsider;   /* never inserted */
static unsigned int bad_inputs;    /* misuses tried, printed at the end */

/* ---- log capture ---- */

static FILE *log_prev;
static FILE *log_mem;
static char *log_buf;
static size_t log_len;

static void
log_begin(void)
{
	log_prev = rte_log_get_stream();
	log_buf = NULL;
	log_len = 0;
	log_mem = open_memstream(&log_buf, &log_len);
	if (log_mem != NULL)
		rte_openlog_stream(log_mem);
	bad_inputs++;
}

static unsigned int
count_lines(const char *s)
{
	unsigned int n = 0;

	for (; s != NULL && *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

/*
 * Stop capturing; 0 when exactly `lines` lines were logged and, if needle is
 * set, the log mentions it (case-insensitive).
 */
static int
log_end(unsigned int lines, const char *needle)
{
	unsigned int got;
	int ret = 0;

	if (log_mem == NULL) {
		printf("open_memstream failed\n");
		return -1;
	}
	rte_openlog_stream(log_prev == stderr ? NULL : log_prev);
	fclose(log_mem);
	log_mem = NULL;
	got = count_lines(log_buf);
	if (got != lines) {
		printf("expected %u log line(s), got %u: '%s'\n", lines, got,
		       log_buf != NULL ? log_buf : "");
		ret = -1;
	} else if (needle != NULL && strcasestr(log_buf, needle) == NULL) {
		printf("log line does not mention '%s': '%s'\n", needle, log_buf);
		ret = -1;
	}
	free(log_buf);
	log_buf = NULL;
	return ret;
}

/* ---- the reference table ---- */

/* The table holds exactly objs[0..ERR_N_OBJS), each found and walked once. */
static int
table_intact(void)
{
	struct rte_rhashtable_iter it;
	uint32_t walked = 0, i;
	void *o;
	int ret;

	if (rte_rhashtable_count(ht) != ERR_N_OBJS) {
		printf("count %u, expected %u\n", rte_rhashtable_count(ht), ERR_N_OBJS);
		return -1;
	}
	if (test_found(ht, objs, 0, ERR_N_OBJS, true) != 0)
		return -1;
	if (rte_rhashtable_lookup(ht, &outsider->key) != NULL) {
		printf("an object never inserted is found\n");
		return -1;
	}
	test_objs_clear_seen(objs, ERR_N_OBJS);
	rte_rhashtable_walk_enter(ht, &it);
	rte_rhashtable_walk_start(&it);
	while ((ret = rte_rhashtable_walk_next(&it, &o)) != -ENOENT) {
		struct test_obj *t = o;

		if (ret != 0)
			continue;
		if (t < objs || t >= objs + ERR_N_OBJS || t->seen++ != 0) {
			printf("walk returned a foreign or repeated object\n");
			ret = -1;
			break;
		}
		walked++;
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	if (ret == -1)
		return -1;
	for (i = 0; i < ERR_N_OBJS; i++)
		if (objs[i].seen != 1) {
			printf("walk missed key %u (%u objects walked)\n", objs[i].key, walked);
			return -1;
		}
	return 0;
}

static int
errors_setup(void)
{
	outsider = test_objs_alloc(1, 0xdead0000);
	if (test_table_setup(&ht, &objs, "rht_errors", 0, ERR_N_OBJS, 1) != TEST_SUCCESS ||
	    outsider == NULL || test_insert_range(ht, objs, 0, ERR_N_OBJS) != 0 ||
	    rte_rhashtable_rehash_run(ht) != 0) {
		printf("errors setup failed\n");
		return TEST_FAILED;
	}
	return table_intact() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static void
errors_teardown(void)
{
	test_table_teardown(&ht, &objs);
	rte_free(outsider);
	outsider = NULL;
	printf("bad inputs tried: %u\n", bad_inputs);
}

/* ---- create and named objects ---- */

/* create(p) fails with err, logging one line that mentions needle. */
static int
create_refused(const struct rte_rhashtable_params *p, int err, const char *needle)
{
	struct rte_rhashtable *t;
	int ret;

	rte_errno = 0;
	log_begin();
	t = rte_rhashtable_create(p);
	ret = log_end(1, needle);
	if (t != NULL) {
		printf("create succeeded (%s)\n", needle);
		rte_rhashtable_free(t);
		return -1;
	}
	if (rte_errno != err) {
		printf("%s: rte_errno %d, expected %d\n", needle, rte_errno, err);
		return -1;
	}
	return ret;
}

static uint32_t
some_hash(const void *key, uint32_t key_len, uint32_t seed)
{
	return rte_rhashtable_default_hash(key, key_len, seed);
}

static int
test_create_bad_params(void)
{
	struct rte_rhashtable_params p;

	TEST_ASSERT_SUCCESS(create_refused(NULL, EINVAL, "name"), "NULL params");
	test_params_init(&p, NULL);
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "name"), "NULL name");
	test_params_init(&p, "");
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "name"), "empty name");
	test_params_init(&p, "name_of_21_characters");
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "name"), "name too long");

	test_params_init(&p, "rht_err_kl0");
	p.key_len = 0;
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "key_len"), "key_len 0, no functions");
	p.hashfn = some_hash;
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "key_len"), "key_len 0, hashfn only");

	test_params_init(&p, "rht_err_size");
	p.min_size = 256;
	p.max_size = 64;
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "max_size"), "max_size < min_size");
	p.min_size = 0;
	p.max_size = 2; /* below the smallest table the library ever uses */
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "max_size"), "max_size 2");

	test_params_init(&p, "rht_err_sock");
	p.socket_id = RTE_MAX_NUMA_NODES;
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "socket"), "socket out of range");
	p.socket_id = -7;
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "socket"), "negative socket");
	return TEST_SUCCESS;
}

/* Offsets that do not fit in a 65535-byte object. */
static int
test_create_offsets_do_not_fit(void)
{
	struct rte_rhashtable_params p;

	test_params_init(&p, "rht_err_koff");
	p.key_offset = UINT16_MAX - 3;  /* 65532 + 4 = 65536 > 65535 */
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "key"), "key_offset + key_len > 65535");
	p.key_offset = 0;
	p.key_len = UINT16_MAX;
	p.head_offset = UINT16_MAX;
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "head"), "head beyond 65535");
	p.key_len = 8;
	p.key_offset = 1;
	p.head_offset = UINT16_MAX - sizeof(struct rte_rhash_head) + 1;
	TEST_ASSERT_SUCCESS(create_refused(&p, EINVAL, "head"), "head_offset + 8 > 65535");
	return TEST_SUCCESS;
}

static int
test_duplicate_name(void)
{
	struct rte_rhashtable_params p;
	struct rte_rhltable *hlt;

	test_params_init(&p, "rht_errors");
	TEST_ASSERT_SUCCESS(create_refused(&p, EEXIST, "rht_errors"), "duplicate name");
	/* rhltables share the name space */
	rte_errno = 0;
	log_begin();
	hlt = rte_rhltable_create(&p);
	TEST_ASSERT_SUCCESS(log_end(1, "exists"), "rhltable duplicate log");
	TEST_ASSERT_NULL(hlt, "an rhltable took the name of a table");
	TEST_ASSERT_EQUAL(rte_errno, EEXIST, "rhltable duplicate: rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_rhashtable_find_existing("rht_errors"), ht,
			  "the name no longer finds the table");
	return table_intact() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
test_find_existing(void)
{
	rte_errno = 0;
	log_begin();
	TEST_ASSERT_NULL(rte_rhashtable_find_existing(NULL), "find_existing(NULL)");
	TEST_ASSERT_SUCCESS(log_end(1, "name"), "find_existing(NULL) log");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "find_existing(NULL): rte_errno %d", rte_errno);

	rte_errno = 0;
	log_begin();
	TEST_ASSERT_NULL(rte_rhashtable_find_existing("rht_no_such"), "unknown name found");
	TEST_ASSERT_SUCCESS(log_end(0, NULL), "unknown name: no log");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "unknown name: rte_errno %d", rte_errno);

	log_begin();
	rte_rhashtable_free(NULL);
	rte_rhltable_free(NULL);
	rte_rhashtable_free_and_destroy(NULL, NULL, NULL);
	TEST_ASSERT_EQUAL(rte_rhashtable_count(NULL), 0, "count(NULL)");
	TEST_ASSERT_NULL(rte_rhltable_table(NULL), "rhltable_table(NULL)");
	TEST_ASSERT_SUCCESS(log_end(0, NULL), "NULL no-ops must stay silent");
	return table_intact() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

/* ---- the object API ---- */

static int
expect_int(int got, int want, unsigned int lines, const char *needle, const char *what)
{
	int ret = log_end(lines, needle);

	if (got != want) {
		printf("%s returned %d, expected %d\n", what, got, want);
		return -1;
	}
	if (ret != 0)
		printf("  (in %s)\n", what);
	return ret == 0 && table_intact() == 0 ? 0 : -1;
}

#define EXPECT(call, want, lines, needle) do {					\
	int _r;									\
	log_begin();								\
	_r = (call);								\
	TEST_ASSERT_SUCCESS(expect_int(_r, want, lines, needle, #call), #call);	\
} while (0)

static int
test_writers_bad_args(void)
{
	struct rte_rhash_head *outh = &outsider->node;
	struct rte_rhash_head *burst[2];
	struct test_obj twin = objs[3];
	void *existing = NULL;
	int rets[2];

	EXPECT(rte_rhashtable_insert(NULL, outh), -EINVAL, 1, "table");
	EXPECT(rte_rhashtable_insert(ht, NULL), -EINVAL, 1, "object");
	EXPECT(rte_rhashtable_lookup_insert(NULL, outh), -EINVAL, 1, "table");
	EXPECT(rte_rhashtable_lookup_insert(ht, NULL), -EINVAL, 1, "object");
	EXPECT(rte_rhashtable_lookup_get_insert(NULL, outh, &existing), -EINVAL, 1, "table");
	EXPECT(rte_rhashtable_lookup_get_insert(ht, NULL, &existing), -EINVAL, 1, "object");
	EXPECT(rte_rhashtable_remove(NULL, &objs[0].node), -EINVAL, 1, "table");
	EXPECT(rte_rhashtable_remove(ht, NULL), -EINVAL, 1, "object");

	/* an object that is not in the table: a normal outcome, not logged */
	EXPECT(rte_rhashtable_remove(ht, outh), -ENOENT, 0, NULL);
	/* a copy of a present object, same key, other address: not in the table */
	twin.node.next = NULL;
	EXPECT(rte_rhashtable_remove(ht, &twin.node), -ENOENT, 0, NULL);

	/* bulk: bad arguments are logged once; in a burst, a NULL object is
	 * logged and refused alone, a present key refused silently
	 */
	burst[0] = &twin.node;
	burst[1] = NULL;
	EXPECT(rte_rhashtable_lookup_insert_bulk(NULL, burst, 1, rets, NULL), -EINVAL, 1, "num_objs");
	EXPECT(rte_rhashtable_lookup_insert_bulk(ht, burst, 0, rets, NULL), -EINVAL, 1, "num_objs");
	EXPECT(rte_rhashtable_lookup_insert_bulk(ht, burst, 1, NULL, NULL), -EINVAL, 1, "num_objs");
	EXPECT(rte_rhashtable_lookup_insert_bulk(ht, burst, 2, rets, NULL), 0, 1, "object");
	TEST_ASSERT(rets[0] == -EEXIST && rets[1] == -EINVAL, "burst rets %d %d", rets[0],
		    rets[1]);

	/* the key is present: refused, existing points to the object in the table */
	EXPECT(rte_rhashtable_lookup_insert(ht, &twin.node), -EEXIST, 0, NULL);
	EXPECT(rte_rhashtable_lookup_get_insert(ht, &twin.node, &existing), -EEXIST, 0, NULL);
	TEST_ASSERT_EQUAL(existing, &objs[3], "existing is not the object in the table");
	return TEST_SUCCESS;
}

static int
test_replace_bad_args(void)
{
	struct test_obj twin = objs[5], other = objs[6];

	EXPECT(rte_rhashtable_replace(NULL, &objs[5].node, &twin.node), -EINVAL, 1, NULL);
	EXPECT(rte_rhashtable_replace(ht, NULL, &twin.node), -EINVAL, 1, NULL);
	EXPECT(rte_rhashtable_replace(ht, &objs[5].node, NULL), -EINVAL, 1, NULL);
	/* the keys differ */
	EXPECT(rte_rhashtable_replace(ht, &objs[5].node, &other.node), -EINVAL, 1, "key");
	/* keys differ, and old is not in the table either */
	EXPECT(rte_rhashtable_replace(ht, &twin.node, &other.node), -EINVAL, 1, "key");
	/* old object not in the table, same key as a present one and as new */
	other.key = twin.key;
	EXPECT(rte_rhashtable_replace(ht, &twin.node, &other.node), -ENOENT, 0, NULL);
	other.key = outsider->key;
	EXPECT(rte_rhashtable_replace(ht, &outsider->node, &other.node), -ENOENT, 0, NULL);
	return TEST_SUCCESS;
}

static int
test_readers_bad_args(void)
{
	const void *keys[RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1];
	void *res[RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1];
	uint64_t hits = 0;
	uint32_t i;

	for (i = 0; i < RTE_DIM(keys); i++)
		keys[i] = &objs[i].key;

	rte_errno = 0;
	log_begin();
	TEST_ASSERT_NULL(rte_rhashtable_lookup(NULL, keys[0]), "lookup(NULL table)");
	TEST_ASSERT_SUCCESS(expect_int(rte_errno, EINVAL, 0, NULL, "lookup(NULL)"), "lookup");
	rte_errno = 0;
	log_begin();
	TEST_ASSERT_NULL(rte_rhashtable_lookup(ht, NULL), "lookup(NULL key)");
	TEST_ASSERT_SUCCESS(expect_int(rte_errno, EINVAL, 0, NULL, "lookup(key NULL)"),
			    "lookup");

	EXPECT(rte_rhashtable_lookup_bulk(NULL, keys, 4, &hits, res), -EINVAL, 1, NULL);
	EXPECT(rte_rhashtable_lookup_bulk(ht, NULL, 4, &hits, res), -EINVAL, 1, NULL);
	EXPECT(rte_rhashtable_lookup_bulk(ht, keys, 4, &hits, NULL), -EINVAL, 1, NULL);
	EXPECT(rte_rhashtable_lookup_bulk(ht, keys, 0, &hits, res), -EINVAL, 1, "num_keys");
	EXPECT(rte_rhashtable_lookup_bulk(ht, keys, RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1,
					  &hits, res), -EINVAL, 1, "num_keys");
	/* the largest burst and a NULL hit mask are fine */
	EXPECT(rte_rhashtable_lookup_bulk(ht, keys, RTE_RHASHTABLE_LOOKUP_BULK_MAX, NULL, res),
	       RTE_RHASHTABLE_LOOKUP_BULK_MAX, 0, NULL);
	bad_inputs--; /* that one was a valid call */
	return TEST_SUCCESS;
}

static int
test_table_calls_bad_args(void)
{
	struct rte_rhashtable_table_info info;
	struct rte_rhashtable_stats st;
	uint32_t sid;

	EXPECT(rte_rhashtable_stats_get(NULL, &st), -EINVAL, 1, "table");
	EXPECT(rte_rhashtable_stats_get(ht, NULL), -EINVAL, 1, "stats");
	EXPECT(rte_rhashtable_table_info_get(NULL, 0, &info), -EINVAL, 1, "table");
	EXPECT(rte_rhashtable_table_info_get(ht, 0, NULL), -EINVAL, 1, "info");
	EXPECT(rte_rhashtable_table_info_get(ht, 7, &info), -ENOENT, 0, NULL);
	EXPECT(rte_rhashtable_service_id_get(NULL, &sid), -EINVAL, 1, "table");
	EXPECT(rte_rhashtable_service_id_get(ht, NULL), -EINVAL, 1, "service");
	EXPECT(rte_rhashtable_rehash_run(NULL), -EINVAL, 1, "table");
	EXPECT(rte_rhashtable_reseed(NULL), -EINVAL, 1, "table");

	log_begin();
	rte_rhashtable_rehash_lock(NULL);
	TEST_ASSERT_SUCCESS(log_end(1, "table"), "rehash_lock(NULL)");
	log_begin();
	rte_rhashtable_rehash_unlock(NULL);
	TEST_ASSERT_SUCCESS(log_end(1, "table"), "rehash_unlock(NULL)");
	/* the lock is still free: rehash_run would spin forever otherwise */
	TEST_ASSERT_SUCCESS(rte_rhashtable_rehash_run(ht), "rehash_run after NULL lock calls");
	return table_intact() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
test_rcu_bad_args(void)
{
	struct rte_rhashtable_rcu_config cfg = { 0 };
	struct rte_rcu_qsbr *v = test_qsbr_create();
	int ret;

	TEST_ASSERT_NOT_NULL(v, "no memory for a QSBR variable");

	EXPECT(rte_rhashtable_rcu_qsbr_add(NULL, &cfg), -EINVAL, 1, NULL);
	EXPECT(rte_rhashtable_rcu_qsbr_add(ht, NULL), -EINVAL, 1, NULL);
	EXPECT(rte_rhashtable_rcu_qsbr_add(ht, &cfg), -EINVAL, 1, "QSBR");
	cfg.v = v;
	cfg.mode = (enum rte_rhashtable_qsbr_mode)42;
	EXPECT(rte_rhashtable_rcu_qsbr_add(ht, &cfg), -EINVAL, 1, "mode");
	cfg.mode = RTE_RHASHTABLE_QSBR_MODE_SYNC;
	ret = rte_rhashtable_rcu_qsbr_add(ht, &cfg);
	if (ret == 0)
		EXPECT(rte_rhashtable_rcu_qsbr_add(ht, &cfg), -EEXIST, 1, "already");
	/* the table keeps v: it is freed with the table in the teardown */
	TEST_ASSERT_SUCCESS(ret, "a valid rcu_qsbr_add failed");
	return TEST_SUCCESS;
}

/* ---- walkers ---- */

static int
test_walker_misuse(void)
{
	struct rte_rhashtable_iter it;
	void *o = NULL;

	log_begin();
	rte_rhashtable_walk_enter(NULL, &it);
	TEST_ASSERT_SUCCESS(log_end(1, "table"), "walk_enter(NULL table)");
	log_begin();
	rte_rhashtable_walk_enter(ht, NULL);
	TEST_ASSERT_SUCCESS(log_end(1, "iterator"), "walk_enter(NULL iterator)");
	EXPECT(rte_rhashtable_walk_start_check(NULL), -EINVAL, 1, "iterator");
	EXPECT(rte_rhashtable_walk_next(NULL, &o), -EINVAL, 1, "iterator");

	/* entered, not started */
	rte_rhashtable_walk_enter(ht, &it);
	EXPECT(rte_rhashtable_walk_next(&it, &o), -EINVAL, 1, "started");
	log_begin();
	rte_rhashtable_walk_stop(&it);
	TEST_ASSERT_SUCCESS(log_end(1, "started"), "walk_stop before start");

	/* started: NULL output */
	rte_rhashtable_walk_start(&it);
	EXPECT(rte_rhashtable_walk_next(&it, NULL), -EINVAL, 1, NULL);
	TEST_ASSERT_SUCCESS(rte_rhashtable_walk_next(&it, &o), "walk_next after a bad call");
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);

	/* used after exit */
	EXPECT(rte_rhashtable_walk_next(&it, &o), -EINVAL, 1, "iterator");
	EXPECT(rte_rhashtable_walk_start_check(&it), -EINVAL, 1, "entered");
	log_begin();
	rte_rhashtable_walk_start(&it);
	TEST_ASSERT_SUCCESS(log_end(1, "entered"), "walk_start after exit");
	log_begin();
	rte_rhashtable_walk_stop(&it);
	TEST_ASSERT_SUCCESS(log_end(1, "iterator"), "walk_stop after exit");
	log_begin();
	rte_rhashtable_walk_exit(&it);
	TEST_ASSERT_SUCCESS(log_end(1, "entered"), "second walk_exit");
	log_begin();
	rte_rhashtable_walk_exit(NULL);
	TEST_ASSERT_SUCCESS(log_end(1, "iterator"), "walk_exit(NULL)");

	/* a new walk on the same iterator still works after all that */
	return table_intact() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

/* ---- rhltable ---- */

struct err_list_obj {
	uint32_t key;
	struct rte_rhlist_head node;
};

static int
test_rhltable_bad_args(void)
{
	struct rte_rhashtable_params p;
	struct err_list_obj a = { .key = 7 }, b = { .key = 7 }, c = { .key = 8 };
	struct rte_rhltable *hlt;
	struct rte_rhlist_head *l;

	test_params_set(&p, "rht_err_rhl", sizeof(uint32_t), offsetof(struct err_list_obj, key),
		offsetof(struct err_list_obj, node));
	hlt = rte_rhltable_create(&p);
	TEST_ASSERT_NOT_NULL(hlt, "rhltable create: %s", rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_rhltable_insert(hlt, &a.node), "insert a");
	TEST_ASSERT_SUCCESS(rte_rhltable_insert(hlt, &b.node), "insert b");

	log_begin();
	TEST_ASSERT_EQUAL(rte_rhltable_insert(NULL, &c.node), -EINVAL, "insert NULL table");
	TEST_ASSERT_SUCCESS(log_end(1, "table"), "rhltable_insert(NULL)");
	log_begin();
	TEST_ASSERT_EQUAL(rte_rhltable_insert(hlt, NULL), -EINVAL, "insert NULL object");
	TEST_ASSERT_SUCCESS(log_end(1, "object"), "rhltable_insert(obj NULL)");
	log_begin();
	TEST_ASSERT_EQUAL(rte_rhltable_remove(NULL, &a.node), -EINVAL, "remove NULL table");
	TEST_ASSERT_SUCCESS(log_end(1, "table"), "rhltable_remove(NULL)");
	log_begin();
	TEST_ASSERT_EQUAL(rte_rhltable_remove(hlt, NULL), -EINVAL, "remove NULL object");
	TEST_ASSERT_SUCCESS(log_end(1, "object"), "rhltable_remove(obj NULL)");
	log_begin();
	TEST_ASSERT_EQUAL(rte_rhltable_remove(hlt, &c.node), -ENOENT, "remove absent");
	TEST_ASSERT_SUCCESS(log_end(0, NULL), "rhltable_remove(absent)");
	rte_errno = 0;
	log_begin();
	TEST_ASSERT_NULL(rte_rhltable_lookup(NULL, &a.key), "lookup NULL table");
	TEST_ASSERT_SUCCESS(log_end(0, NULL), "rhltable_lookup(NULL)");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rhltable_lookup(NULL): rte_errno %d", rte_errno);
	/* replace is for plain tables only */
	log_begin();
	TEST_ASSERT_EQUAL(rte_rhashtable_replace(rte_rhltable_table(hlt), &a.node.rhead,
						 &c.node.rhead), -EINVAL, "replace on rhltable");
	TEST_ASSERT_SUCCESS(log_end(1, "rhltable"), "replace on an rhltable");

	/* both objects of key 7 are still there, nothing else */
	l = rte_rhltable_lookup(hlt, &a.key);
	TEST_ASSERT(l != NULL && l->next != NULL && l->next->next == NULL,
		    "key 7 does not list exactly two objects");
	TEST_ASSERT_NULL(rte_rhltable_lookup(hlt, &c.key), "key 8 found");
	TEST_ASSERT_EQUAL(rte_rhashtable_count(rte_rhltable_table(hlt)), 2, "rhltable count");
	rte_rhltable_free(hlt);
	bad_inputs += 7;
	return TEST_SUCCESS;
}

/* ---- capacity ---- */

/*
 * A table of max_size buckets holds exactly 7 * max_size objects, its
 * slots. The seedless hash spreads the keys evenly, 7 a bucket: with a
 * random one, some three buckets in a million at this load hold their
 * seven slots and an overflow chain of RTE_RHT_MAX_CHAIN_LEN, and the
 * insert that finds one full gets -EBUSY, which is not what this case is
 * about.
 */
static int
e2big_fill(struct rte_rhashtable *t, struct test_obj *o, uint32_t limit, bool run_worker)
{
	uint32_t i;
	int ret;

	for (i = 0; i < limit; i++) {
		ret = rte_rhashtable_insert(t, &o[i].node);
		if (ret != 0) {
			printf("insert %u of %u failed: %d\n", i, limit, ret);
			return -1;
		}
		if (run_worker && (i & 15) == 0 && rte_rhashtable_rehash_run(t) != 0)
			return -1;
	}
	for (i = limit; i < limit + 3; i++) {
		log_begin();
		ret = rte_rhashtable_lookup_insert(t, &o[i].node);
		if (log_end(0, NULL) != 0 || ret != -E2BIG) {
			printf("insert %u past the limit returned %d, not -E2BIG\n", i, ret);
			return -1;
		}
	}
	if (rte_rhashtable_count(t) != limit || test_found(t, o, 0, limit, true) != 0 ||
	    test_found(t, o, limit, limit + 3, false) != 0)
		return -1;
	/* one out, one in: the freed slot is usable again */
	if (rte_rhashtable_remove(t, &o[0].node) != 0 ||
	    rte_rhashtable_insert(t, &o[limit].node) != 0 ||
	    rte_rhashtable_insert(t, &o[0].node) != -E2BIG)
		return -1;
	return 0;
}

static int
test_e2big_exact(void)
{
	const uint32_t limit = TEST_SLOTS(ERR_MAX_SIZE);
	struct rte_rhashtable_params p;
	struct rte_rhashtable_stats st;
	struct rte_rhashtable *t;
	struct test_obj *o;
	int pass, ret;

	o = test_objs_alloc(limit + 3, 1);
	TEST_ASSERT_NOT_NULL(o, "no memory");
	for (pass = 0; pass < 3; pass++) {
		test_params_init(&p, "rht_err_e2big");
		p.hashfn = test_seedless_hash;
		/* not a power of two: rounded down to ERR_MAX_SIZE */
		p.max_size = ERR_MAX_SIZE + ERR_MAX_SIZE / 2;
		p.nelem_hint = pass == 2 ? 1000 : 0; /* starts at max_size */
		t = rte_rhashtable_create(&p);
		TEST_ASSERT_NOT_NULL(t, "create: %s", rte_strerror(rte_errno));
		ret = e2big_fill(t, o, limit, pass == 1);
		rte_rhashtable_stats_get(t, &st);
		rte_rhashtable_free(t);
		TEST_ASSERT_SUCCESS(ret, "E2BIG limit, pass %d", pass);
		TEST_ASSERT_EQUAL(st.buckets, ERR_MAX_SIZE, "table grew past max_size: %u",
				  st.buckets);
		TEST_ASSERT_EQUAL(st.refused_e2big, 4, "refused_e2big %" PRIu64,
				  st.refused_e2big);
	}
	rte_free(o);
	printf("-E2BIG at exactly %u objects (max_size %u), 3 passes\n", limit,
	       ERR_MAX_SIZE + ERR_MAX_SIZE / 2);
	return TEST_SUCCESS;
}

/* Insert o[from..to) into t, logging exactly `lines` lines that mention needle. */
static int
inserts_logging(struct rte_rhashtable *t, struct test_obj *o, uint32_t from, uint32_t to,
		unsigned int lines, const char *needle)
{
	int ret;

	log_begin();
	ret = test_insert_range(t, o, from, to);
	return log_end(lines, needle) != 0 || ret != 0 ? -1 : 0;
}

/*
 * A table that needs its worker while no service lcore runs it: the insert
 * that crosses the grow threshold logs one notice, later ones nothing; an
 * application that calls rte_rhashtable_rehash_run() itself, once or at
 * every burst, gets no notice. A table of 4 buckets: there, below 32
 * buckets, writers count in batches of one (rhashtable_count.h), so the
 * insert that crosses the threshold is the one that sees it crossed.
 */
static int
no_worker_notices(bool app_runs_worker, unsigned int expected)
{
	struct rte_rhashtable_params p;
	struct rte_rhashtable *t;
	struct test_obj *o;
	int ret = -1;

	o = test_objs_alloc(26, 1);
	test_params_init(&p, "rht_err_noworker");
	p.nelem_hint = 1;
	t = rte_rhashtable_create(&p);
	if (o == NULL || t == NULL || (app_runs_worker && rte_rhashtable_rehash_run(t) != 0))
		goto out;
	/* 19 in the 28 slots: 68%, below the grow threshold; the 20th crosses 70% */
	if (inserts_logging(t, o, 0, 19, 0, NULL) != 0 ||
	    inserts_logging(t, o, 19, 20, expected,
			    expected != 0 ? "rte_rhashtable_rehash_run" : NULL) != 0)
		goto out;
	if (app_runs_worker && rte_rhashtable_rehash_run(t) != 0)
		goto out;
	/* once: no notice for the next inserts, up to 26 (93%: no emergency growth) */
	if (inserts_logging(t, o, 20, 26, 0, NULL) != 0)
		goto out;
	ret = test_found(t, o, 0, 26, true);
out:
	rte_rhashtable_free(t);
	rte_free(o);
	return ret;
}

static int
test_no_worker_notice(void)
{
	TEST_ASSERT_SUCCESS(no_worker_notices(false, 1), "table without a worker");
	TEST_ASSERT_SUCCESS(no_worker_notices(true, 0), "application runs the worker");
	return TEST_SUCCESS;
}

static struct unit_test_suite errors_suite = {
	.suite_name = "rhashtable errors",
	.setup = errors_setup,
	.teardown = errors_teardown,
	.unit_test_cases = {
		TEST_CASE(test_create_bad_params),
		TEST_CASE(test_create_offsets_do_not_fit),
		TEST_CASE(test_duplicate_name),
		TEST_CASE(test_find_existing),
		TEST_CASE(test_writers_bad_args),
		TEST_CASE(test_replace_bad_args),
		TEST_CASE(test_readers_bad_args),
		TEST_CASE(test_table_calls_bad_args),
		TEST_CASE(test_walker_misuse),
		TEST_CASE(test_rhltable_bad_args),
		TEST_CASE(test_e2big_exact),
		TEST_CASE(test_no_worker_notice),
		TEST_CASE(test_rcu_bad_args),
		TEST_CASES_END()
	}
};

static int
test_rhashtable_errors(void)
{
	return unit_test_suite_runner(&errors_suite);
}

REGISTER_FAST_TEST(rhashtable_errors_autotest, true, true, test_rhashtable_errors);
