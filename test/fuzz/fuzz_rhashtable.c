/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * libFuzzer target: random sequences of table operations checked step by
 * step against a reference model (which object is in the table, with which
 * key). The first byte of the input configures the table (rhltable or not,
 * hash function, max_size, shrinking, initial size); every following op
 * byte picks an operation and its operands come from the next bytes.
 *
 * Checked after every operation: the return code is one the model allows
 * (-EBUSY only while a resize is pending, -E2BIG only at the slots of
 * max_size buckets, -ENOMEM only under fault injection), the count agrees,
 * and every key looks up to an object the model holds for it (an rhltable
 * returns all of them). Walks see every object exactly once and nothing
 * else.
 *
 * Runs single-threaded: the rehash worker runs only when an op asks for it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_hash_crc.h>
#include <rte_memory.h>
#include <rte_random.h>
#include <rte_service.h>

#include <rte_rhashtable.h>
#include <rhashtable_debug.h>

#include "rht_eal_runtime.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_SLOTS 64
#define FZ_KEYS 24
#define FZ_MAX_OPS 4096
/* a bucket's slots and its documented overflow chain limit */
#define FZ_CHAIN_LEN (RTE_RHASHTABLE_BUCKET_SLOTS + 16)

struct fz_obj {
	uint32_t key;
	struct rte_rhlist_head node; /* its rhead is the plain table's head */
};

enum fz_hash { FZ_HASH_DEFAULT, FZ_HASH_CRC, FZ_HASH_MOD3, FZ_HASH_CONST };

struct fz_input {
	const uint8_t *p;
	size_t left;
};

struct fz_state {
	struct rte_rhashtable *ht;    /* the table, or the rhltable's */
	struct rte_rhltable *hlt;     /* NULL for a plain table */
	enum fz_hash hash;
	uint32_t max_elems;           /* 0: unlimited */
	bool single_writer;
	bool faults;
	struct fz_obj obj[FZ_SLOTS];
	bool in[FZ_SLOTS];
};

static struct fz_state S;

#define FZ_CHECK(cond, ...) do {						\
	if (!(cond)) {								\
		fprintf(stderr, "fuzz_rhashtable: %s:%d: ", __func__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);					\
		fprintf(stderr, "\n");						\
		abort();							\
	}									\
} while (0)

static uint8_t
next_u8(struct fz_input *in)
{
	if (in->left == 0)
		return 0;
	in->left--;
	return *in->p++;
}

/* ---- hash functions the table may be given ---- */

static uint32_t
hash_crc(const void *key, uint32_t len, uint32_t seed)
{
	return rte_hash_crc(key, len, seed);
}

static uint32_t
hash_mod3(const void *key, uint32_t len, uint32_t seed)
{
	uint32_t k;

	RTE_SET_USED(len);
	RTE_SET_USED(seed);
	memcpy(&k, key, sizeof(k));
	return (k % 3) * 0x9e3779b1U;
}

static uint32_t
hash_const(const void *key, uint32_t len, uint32_t seed)
{
	RTE_SET_USED(key);
	RTE_SET_USED(len);
	RTE_SET_USED(seed);
	return 42;
}

/* ---- the model ---- */

static uint32_t
model_count(void)
{
	uint32_t i, n = 0;

	for (i = 0; i < FZ_SLOTS; i++)
		n += S.in[i];
	return n;
}

static uint32_t
model_key_count(uint32_t key)
{
	uint32_t i, n = 0;

	for (i = 0; i < FZ_SLOTS; i++)
		n += S.in[i] && S.obj[i].key == key;
	return n;
}

/* Chain entries: objects, or distinct keys for an rhltable. */
static uint32_t
model_nelems(void)
{
	uint32_t k, n = 0;

	if (S.hlt == NULL)
		return model_count();
	for (k = 0; k < FZ_KEYS; k++)
		n += model_key_count(k) != 0;
	return n;
}

static int
slot_of(const void *obj)
{
	const struct fz_obj *o = obj;

	if (o < S.obj || o >= S.obj + FZ_SLOTS)
		return -1;
	return (int)(o - S.obj);
}

static uint32_t
ntables(void)
{
	struct rte_rhashtable_stats st;

	FZ_CHECK(rte_rhashtable_stats_get(S.ht, &st) == 0, "stats_get");
	return st.ntables;
}

/* The key looks up to what the model holds. */
static void
check_key(uint32_t key)
{
	uint32_t want = model_key_count(key), got = 0;
	struct rte_rhlist_head *l;
	void *o;
	int s;

	if (S.hlt == NULL) {
		o = rte_rhashtable_lookup(S.ht, &key);
		s = o == NULL ? -1 : slot_of(o);
		FZ_CHECK(want == 0 ? o == NULL : (s >= 0 && S.in[s] && S.obj[s].key == key),
			 "key %u: lookup %p, model holds %u objects", key, o, want);
		return;
	}
	for (l = rte_rhltable_lookup(S.hlt, &key); l != NULL; l = l->next) {
		s = slot_of(RTE_PTR_SUB(l, offsetof(struct fz_obj, node)));
		FZ_CHECK(s >= 0 && S.in[s] && S.obj[s].key == key && got < FZ_SLOTS,
			 "key %u: rhltable list holds a wrong object", key);
		got++;
	}
	FZ_CHECK(got == want, "key %u: rhltable list of %u, model %u", key, got, want);
}

static void
check_all(void)
{
	uint32_t k;

	FZ_CHECK(rte_rhashtable_count(S.ht) == model_count(), "count %u, model %u",
		 rte_rhashtable_count(S.ht), model_count());
	for (k = 0; k < FZ_KEYS; k++)
		check_key(k);
}

/* A return code of an insert the model allows; true when inserted. */
static bool
insert_outcome(int ret, uint32_t tables_before, bool key_present)
{
	switch (ret) {
	case 0:
		return true;
	case -EEXIST:
		FZ_CHECK(key_present, "-EEXIST for an absent key");
		return false;
	case -EBUSY:
		FZ_CHECK(tables_before >= 2 && model_nelems() >= FZ_CHAIN_LEN,
			 "-EBUSY with %u table(s), %u entries", tables_before, model_nelems());
		return false;
	case -E2BIG:
		FZ_CHECK(S.max_elems != 0 && model_nelems() == S.max_elems,
			 "-E2BIG at %u entries, limit %u", model_nelems(), S.max_elems);
		return false;
	case -ENOMEM:
		FZ_CHECK(S.faults, "-ENOMEM without fault injection");
		return false;
	default:
		FZ_CHECK(false, "insert returned %d", ret);
	}
	return false;
}

/* ---- operations ---- */

/*
 * lookup_insert_bulk of free slot s and up to three free slots after it,
 * two objects a key from key on (the second of each pair meets the first
 * in the same burst): each outcome as lookup_insert's, in turn. Nothing
 * shrinks the table during the call, so the count of tables after it
 * bounds that of every insert.
 */
static void
op_insert_burst(uint32_t s, uint32_t key)
{
	uint32_t want = 1 + (s >> 1) % 4, n = 0, j, t, tables;
	struct rte_rhash_head *heads[4];
	int rets[4], ret, e, inserted = 0;
	void *existing[4];
	uint32_t slot[4];
	bool present;

	for (j = 0; j < FZ_SLOTS && n < want; j++) {
		t = (s + j) % FZ_SLOTS;
		if (S.in[t])
			continue;
		S.obj[t].key = (key + n / 2) % FZ_KEYS;
		slot[n] = t;
		heads[n++] = &S.obj[t].node.rhead;
	}
	ret = rte_rhashtable_lookup_insert_bulk(S.ht, heads, n, rets, existing);
	tables = ntables();
	for (j = 0; j < n; j++) {
		present = model_key_count(S.obj[slot[j]].key) != 0;
		FZ_CHECK(!present || rets[j] == -EEXIST, "bulk insert of a present key: %d",
			 rets[j]);
		e = slot_of(existing[j]);
		FZ_CHECK(rets[j] == -EEXIST ? e >= 0 && S.in[e] &&
			 S.obj[e].key == S.obj[slot[j]].key : existing[j] == NULL,
			 "bulk insert: wrong existing object for %d", rets[j]);
		S.in[slot[j]] = insert_outcome(rets[j], tables, present);
		inserted += S.in[slot[j]];
	}
	FZ_CHECK(ret == inserted, "bulk insert returned %d, %d objects inserted", ret, inserted);
}

static void
op_insert(struct fz_input *in, int how)
{
	uint32_t s = next_u8(in) % FZ_SLOTS, tables = ntables();
	bool present;
	void *existing = NULL;
	int ret;

	if (S.in[s])
		return; /* inserting an object twice is misuse the API cannot catch */
	S.obj[s].key = next_u8(in) % FZ_KEYS;
	present = model_key_count(S.obj[s].key) != 0;
	if (S.hlt != NULL) {
		ret = rte_rhltable_insert(S.hlt, &S.obj[s].node);
		/* joining an existing key's list needs no chain slot */
		FZ_CHECK(!present || ret == 0, "rhltable insert to a present key: %d", ret);
	} else if (how == 0) {
		ret = rte_rhashtable_insert(S.ht, &S.obj[s].node.rhead);
		present = false; /* duplicates allowed */
	} else if (how == 1 && (s & 1) != 0) {
		op_insert_burst(s, S.obj[s].key);
		return;
	} else if (how == 1) {
		ret = rte_rhashtable_lookup_insert(S.ht, &S.obj[s].node.rhead);
		FZ_CHECK(!present || ret == -EEXIST, "lookup_insert of a present key: %d", ret);
	} else {
		ret = rte_rhashtable_lookup_get_insert(S.ht, &S.obj[s].node.rhead, &existing);
		FZ_CHECK(!present || ret == -EEXIST, "lookup_get_insert present key: %d", ret);
		if (ret == -EEXIST) {
			int e = slot_of(existing);

			FZ_CHECK(e >= 0 && S.in[e] && S.obj[e].key == S.obj[s].key,
				 "lookup_get_insert: wrong existing object");
		}
	}
	S.in[s] = insert_outcome(ret, tables, present);
}

static void
op_remove(struct fz_input *in)
{
	uint32_t s = next_u8(in) % FZ_SLOTS;
	bool via_table = next_u8(in) & 1;
	int ret;

	if (S.hlt != NULL && !via_table)
		ret = rte_rhltable_remove(S.hlt, &S.obj[s].node);
	else
		ret = rte_rhashtable_remove(S.ht, &S.obj[s].node.rhead);
	FZ_CHECK(ret == (S.in[s] ? 0 : -ENOENT), "remove slot %u (in %d): %d", s, S.in[s], ret);
	S.in[s] = false;
}

static void
op_replace(struct fz_input *in)
{
	uint32_t o = next_u8(in) % FZ_SLOTS, n = next_u8(in) % FZ_SLOTS;
	bool same_key = next_u8(in) & 1;
	int ret, want;

	if (S.hlt != NULL || S.in[n] || o == n)
		return;
	if (same_key)
		S.obj[n].key = S.obj[o].key;
	else
		S.obj[n].key = (S.obj[o].key + 1) % FZ_KEYS;
	ret = rte_rhashtable_replace(S.ht, &S.obj[o].node.rhead, &S.obj[n].node.rhead);
	want = !same_key ? -EINVAL : S.in[o] ? 0 : -ENOENT;
	FZ_CHECK(ret == want, "replace %u by %u: %d, expected %d", o, n, ret, want);
	if (ret == 0) {
		S.in[o] = false;
		S.in[n] = true;
	}
}

static void
op_lookup_bulk(struct fz_input *in)
{
	uint32_t keys[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	const void *kp[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	void *objs[RTE_RHASHTABLE_LOOKUP_BULK_MAX];
	uint32_t n = next_u8(in) % RTE_RHASHTABLE_LOOKUP_BULK_MAX + 1, i, hits = 0;
	uint64_t mask = 0;
	int ret, s;

	if (S.hlt != NULL)
		return;
	for (i = 0; i < n; i++) {
		keys[i] = next_u8(in) % (FZ_KEYS + 4); /* a few keys never used */
		kp[i] = &keys[i];
	}
	ret = rte_rhashtable_lookup_bulk(S.ht, kp, n, &mask, objs);
	for (i = 0; i < n; i++) {
		bool want = model_key_count(keys[i]) != 0;

		s = objs[i] == NULL ? -1 : slot_of(objs[i]);
		FZ_CHECK(want == (objs[i] != NULL) && want == ((mask >> i) & 1),
			 "bulk key %u: found %p, model %d", keys[i], objs[i], want);
		FZ_CHECK(!want || (s >= 0 && S.in[s] && S.obj[s].key == keys[i]),
			 "bulk key %u: wrong object", keys[i]);
		hits += want;
	}
	FZ_CHECK(ret == (int)hits, "bulk returned %d, model %u hits", ret, hits);
}

/*
 * Walk, pausing after `pause` objects to run op (rehash or re-seed) if
 * asked. Every object is seen at least once, and exactly once when the
 * walk was not restarted; nothing else is seen.
 */
static void
walk_check(uint32_t pause, int op_in_pause)
{
	uint8_t seen[FZ_SLOTS] = { 0 };
	struct rte_rhashtable_iter it;
	bool restarted = false;
	uint32_t got = 0, i;
	void *o;
	int ret, s;

	rte_rhashtable_walk_enter(S.ht, &it);
	rte_rhashtable_walk_start(&it);
	for (;;) {
		ret = rte_rhashtable_walk_next(&it, &o);
		if (ret == -ENOENT)
			break;
		if (ret == -EAGAIN) {
			/* the next bucket table may hold objects seen already */
			restarted = true;
			continue;
		}
		FZ_CHECK(ret == 0, "walk_next %d", ret);
		s = slot_of(o);
		FZ_CHECK(s >= 0 && S.in[s], "walk returned an object not in the table");
		seen[s]++;
		if (++got != pause || op_in_pause < 0)
			continue;
		rte_rhashtable_walk_stop(&it);
		if (op_in_pause == 1)
			rte_rhashtable_reseed(S.ht);
		ret = rte_rhashtable_rehash_run(S.ht);
		FZ_CHECK(ret == 0 || (ret == -ENOMEM && S.faults), "rehash_run %d", ret);
		ret = rte_rhashtable_walk_start_check(&it);
		FZ_CHECK(ret == 0 || ret == -EAGAIN, "walk_start_check %d", ret);
		restarted |= ret == -EAGAIN;
	}
	rte_rhashtable_walk_stop(&it);
	rte_rhashtable_walk_exit(&it);
	for (i = 0; i < FZ_SLOTS; i++) {
		FZ_CHECK(!S.in[i] || seen[i] >= 1, "walk missed slot %u", i);
		FZ_CHECK(restarted || seen[i] <= 1, "walk saw slot %u %u times", i, seen[i]);
	}
}

static void
op_worker(struct fz_input *in)
{
	uint8_t what = next_u8(in) % 4;
	uint32_t sid;
	int ret = 0;

	if (what == 0) {
		ret = rte_rhashtable_rehash_run(S.ht);
	} else if (what == 1) {
		FZ_CHECK(rte_rhashtable_reseed(S.ht) == 0, "reseed");
	} else if (what == 2 && S.single_writer) {
		/* no service: the writer (us) runs the worker */
		FZ_CHECK(rte_rhashtable_service_id_get(S.ht, &sid) == -ENOTSUP,
			 "a single-writer table has a service");
		ret = rte_rhashtable_rehash_run(S.ht);
	} else if (what == 2) {
		FZ_CHECK(rte_rhashtable_service_id_get(S.ht, &sid) == 0, "service id");
		rte_service_run_iter_on_app_lcore(sid, 1);
	} else {
		rte_rhashtable_rehash_lock(S.ht);
		FZ_CHECK(ntables() == 1, "tables left after rehash_lock");
		rte_rhashtable_rehash_unlock(S.ht);
	}
	FZ_CHECK(ret == 0 || (ret == -ENOMEM && S.faults), "rehash_run %d", ret);
}

static void
op_faults(struct fz_input *in)
{
	static const size_t min_bytes[] = { 0, 4097, 64 };
	struct rhashtable_fault f;
	uint8_t b = next_u8(in);

	if ((b & 3) == 0) {
		__rte_rhashtable_fault_inject(NULL);
		S.faults = false;
		return;
	}
	f.fail_after = (b >> 2) & 3;
	f.one_in = (b >> 4) & 3;
	f.min_bytes = min_bytes[(b >> 6) % RTE_DIM(min_bytes)];
	/* the input picks the failing attempts too: a crash replays */
	f.seed = (uint64_t)b + 1;
	__rte_rhashtable_fault_inject(&f);
	S.faults = true;
}

static void
op_stats(void)
{
	struct rte_rhashtable_table_info info;
	struct rte_rhashtable_stats st;
	uint32_t t;

	FZ_CHECK(rte_rhashtable_stats_get(S.ht, &st) == 0, "stats_get");
	FZ_CHECK(st.nelems == model_nelems() && st.nobjs == model_count(),
		 "stats: %" PRIu64 " entries / %" PRIu64 " objects, model %u / %u", st.nelems,
		 st.nobjs, model_nelems(), model_count());
	FZ_CHECK(st.ntables >= 1, "no bucket table");
	for (t = 0; t < st.ntables; t++) {
		FZ_CHECK(rte_rhashtable_table_info_get(S.ht, t, &info) == 0, "table_info %u", t);
		FZ_CHECK(info.buckets >= 4 && rte_is_power_of_2(info.buckets), "%u buckets",
			 info.buckets);
		FZ_CHECK(S.max_elems == 0 ||
			 info.buckets <= S.max_elems / RTE_RHASHTABLE_BUCKET_SLOTS,
			 "%u buckets above max_size", info.buckets);
	}
}

/* ---- table lifetime ---- */

static void
table_free(void)
{
	__rte_rhashtable_fault_inject(NULL);
	S.faults = false;
	if (S.hlt != NULL)
		rte_rhltable_free(S.hlt);
	else
		rte_rhashtable_free(S.ht);
	S.ht = NULL;
	S.hlt = NULL;
	memset(S.in, 0, sizeof(S.in));
}

static void
table_create(uint8_t cfg)
{
	static const rte_rhashtable_hashfn_t fns[] = { NULL, hash_crc, hash_mod3, hash_const };
	static const uint32_t max_sizes[] = { 0, 4, 8, 32 };
	static const uint16_t hints[] = { 0, 3, 100, 1000 };
	struct rte_rhashtable_params p = {
		.name = "fuzz_rht",
		.socket_id = SOCKET_ID_ANY,
		.key_len = sizeof(uint32_t),
		.key_offset = offsetof(struct fz_obj, key),
		.head_offset = offsetof(struct fz_obj, node),
	};

	S.hash = (enum fz_hash)((cfg >> 1) & 3);
	p.hashfn = fns[S.hash];
	p.max_size = max_sizes[(cfg >> 3) & 3];
	p.automatic_shrinking = (cfg >> 5) & 1;
	p.nelem_hint = hints[(cfg >> 6) & 3];
	/* the fuzzer is the one writer: tables that start at 4 buckets, and
	 * resize most, take no lock (the corpus keeps its meaning)
	 */
	p.single_writer = p.nelem_hint == 3;
	S.single_writer = p.single_writer;
	S.max_elems = RTE_RHASHTABLE_BUCKET_SLOTS * p.max_size;
	if (cfg & 1) {
		S.hlt = rte_rhltable_create(&p);
		S.ht = rte_rhltable_table(S.hlt);
	} else {
		S.hlt = NULL;
		S.ht = rte_rhashtable_create(&p);
	}
	FZ_CHECK(S.ht != NULL, "create: %s", rte_strerror(rte_errno));
}

static void
run_op(struct fz_input *in, uint8_t op)
{
	switch (op % 14) {
	case 0: case 1: case 2:
		op_insert(in, 0);
		break;
	case 3:
		op_insert(in, 1);
		break;
	case 4:
		op_insert(in, 2);
		break;
	case 5: case 6:
		op_remove(in);
		break;
	case 7:
		op_replace(in);
		break;
	case 8:
		op_lookup_bulk(in);
		break;
	case 9:
		walk_check(next_u8(in) % FZ_SLOTS, (int)(next_u8(in) % 3) - 1);
		break;
	case 10:
		op_worker(in);
		break;
	case 11:
		op_faults(in);
		break;
	case 12:
		op_stats();
		break;
	case 13:
		table_free();
		table_create(next_u8(in));
		break;
	}
}

static void
remove_runtime_dir_at_exit(void)
{
	rht_eal_remove_runtime_dir();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* writable copies: rte_eal_init() takes char ** */
	static char a0[] = "fuzz_rhashtable", a1[] = "--no-huge", a2[] = "-m", a3[] = "512",
		a4[] = "--no-shconf", a5[] = "--no-pci", a6[] = "-l", a7[] = "0",
		a8[] = "--log-level=lib.eal:error", a9[] = "--log-level=lib.rhashtable:error";
	/* a prefix of its own, as fuzzing jobs and other runs come and go,
	 * tagged for the leftover check of devtools/test.sh
	 */
	const char *tag = getenv("RHT_EAL_TAG");
	static char a10[128];
	static char *eal_args[] = { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, NULL };

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	snprintf(a10, sizeof(a10), "--file-prefix=fuzz_rhashtable_%s_%d",
		tag != NULL ? tag : "", (int)getpid());
	if (rte_eal_init(RTE_DIM(eal_args) - 1, eal_args) < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		abort();
	}
	/* libFuzzer ends with exit(): EAL's runtime directory goes then */
	atexit(remove_runtime_dir_at_exit);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_input in = { .p = data, .left = size };
	unsigned int ops;

	/* the bucket tables' seeds come from rte_rand: make runs reproducible */
	rte_srand(0x5eed);
	table_create(next_u8(&in));
	for (ops = 0; in.left > 0 && ops < FZ_MAX_OPS; ops++) {
		run_op(&in, next_u8(&in));
		check_all();
	}
	walk_check(0, -1);
	table_free();
	return 0;
}
