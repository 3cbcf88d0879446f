/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _RTE_RHASHTABLE_H_
#define _RTE_RHASHTABLE_H_

/**
 * @file
 *
 * RTE resizable hash table (rhashtable)
 *
 * An intrusive hash table that grows and shrinks online. Objects embed a
 * struct rte_rhash_head; the table keeps them in buckets of one cache line:
 * RTE_RHASHTABLE_BUCKET_SLOTS objects in place, and a chain of those past
 * them (the overflow chain).
 *
 * A table is a chain of bucket tables. Normally there is one; while the table
 * is being resized (or re-seeded) there are two or more, and the rehash worker
 * moves every object from the first bucket table to the last, always
 * attaching an object to its new bucket before detaching it from the old one,
 * so that a lookup running at the same time never misses a present object.
 *
 * The rehash worker is an rte_service ("rhashtable_<name>") that the
 * application maps to a service lcore, or runs itself through
 * rte_rhashtable_rehash_run(). Resizes are triggered at RTE_RHT_GROW_PCT load
 * of the slots (grow, x2) and RTE_RHT_SHRINK_PCT load (shrink, /2, with
 * automatic_shrinking). An insert that finds the table above 100% load, or a
 * bucket whose slots are full and whose overflow chain holds
 * RTE_RHT_MAX_CHAIN_LEN objects, allocates the next bucket table itself.
 * Every new bucket table gets a new random hash seed (the default hash's
 * first step keeps its own seed through grows and shrinks: see
 * rte_rhashtable_default_hash()).
 *
 * Build-time settings, macros of rte_rhashtable_config.h that config/ makes
 * of the options of meson_options.txt (defaults in brackets): loads in
 * percent RTE_RHT_GROW_PCT (70) and RTE_RHT_SHRINK_PCT (30);
 * RTE_RHT_MAX_CHAIN_LEN (16, objects past the slots of a bucket); buckets
 * RTE_RHT_DEFAULT_SIZE (64, for nelem_hint 0) and RTE_RHT_MIN_SIZE (4, the
 * fewest); RTE_RHT_REHASH_BATCH (512, some 2500 objects), buckets the
 * rehash service moves per call.
 * RTE_RHT_DEFAULT_LOCKS_MUL is no longer used (see locks_mul).
 *
 * Concurrency contract (details on each function):
 * - Readers (lookup, lookup_bulk, rhltable lookup, walk_next) take no lock
 *   and never wait. They must run on threads registered with the table's
 *   QSBR variable (see rte_rhashtable_rcu_qsbr_add()) and must not report a
 *   quiescent state while they still use an object or a bucket they found.
 * - Writers (insert, remove, replace, rhltable insert/remove) may run on any
 *   number of threads at once: they serialise on per-bucket locks only. A
 *   table created with single_writer has one writing thread at a time,
 *   which also runs its rehash worker, and takes no lock.
 *   Writers walk bucket tables too: before it frees a bucket table the
 *   rehash worker waits for the write calls in progress to return, so
 *   writers need not be QSBR readers (an object that
 *   rte_rhashtable_lookup_get_insert() returns is protected as a lookup
 *   result is, though). In SYNC mode a writer that removes objects waits
 *   for a grace period, so it must not be an online reader itself.
 * - Without a QSBR variable the table assumes that no reader runs
 *   concurrently with a writer or with the rehash worker: old bucket tables
 *   and removed objects are then freed at once.
 *
 * The same functions work on an rhltable (several objects per key) through
 * rte_rhltable_table(), which returns the table underneath it.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_common.h>
#include <rte_debug.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Longest table name, including the terminating NUL. The rehash service is
 * named "rhashtable_<name>" and must fit in RTE_SERVICE_NAME_MAX.
 */
#define RTE_RHASHTABLE_NAMESIZE 21

/** Most keys one rte_rhashtable_lookup_bulk() call takes. */
#define RTE_RHASHTABLE_LOOKUP_BULK_MAX 64

/** Most objects one rte_rhashtable_lookup_insert_bulk() call takes. */
#define RTE_RHASHTABLE_INSERT_BULK_MAX 64

/**
 * Objects a bucket holds in place: a bucket is one cache line of this many
 * slots and the head of an overflow chain. The load thresholds
 * (RTE_RHT_GROW_PCT, RTE_RHT_SHRINK_PCT) are of the slots.
 */
#define RTE_RHASHTABLE_BUCKET_SLOTS 7

/** Deepest stage rte_rhashtable_prefetch_bulk() takes. */
#define RTE_RHASHTABLE_PREFETCH_DEPTH_MAX 2

/** Objects at which insertion fails with -E2BIG when max_size is 0. */
#define RTE_RHASHTABLE_MAX_ELEMS (1U << 31)

/** Chain link embedded in every object stored in an rte_rhashtable. */
struct rte_rhash_head {
	struct rte_rhash_head *next; /**< Next object in an overflow chain (private). */
};

/** Chain link embedded in every object stored in an rte_rhltable. */
struct rte_rhlist_head {
	struct rte_rhash_head rhead;  /**< Link in the bucket chain (private). */
	struct rte_rhlist_head *next; /**< Next object with the same key, or NULL. */
};

/**
 * Hash a key.
 *
 * @param key
 *   The key.
 * @param key_len
 *   Its length in bytes (the table's key_len).
 * @param seed
 *   The bucket table's random seed: the function must mix it in, or a new
 *   bucket table cannot spread out a flood of colliding keys.
 * @return
 *   32-bit hash.
 */
typedef uint32_t (*rte_rhashtable_hashfn_t)(const void *key, uint32_t key_len, uint32_t seed);

/**
 * Hash the key of an object (for keys that are not a plain byte range).
 *
 * Must return the same value as the table's key hash function for the
 * object's key.
 *
 * @param obj
 *   The object (its start, not its rte_rhash_head).
 * @param key_len
 *   The table's key_len.
 * @param seed
 *   The bucket table's random seed.
 * @return
 *   32-bit hash.
 */
typedef uint32_t (*rte_rhashtable_obj_hashfn_t)(const void *obj, uint32_t key_len,
						 uint32_t seed);

/**
 * Compare a key with the key of an object.
 *
 * @param key
 *   The key looked up.
 * @param obj
 *   The object (its start, not its rte_rhash_head).
 * @return
 *   0 when the object has this key, non-zero otherwise.
 */
typedef int (*rte_rhashtable_obj_cmpfn_t)(const void *key, const void *obj);

/** Parameters of rte_rhashtable_create() and rte_rhltable_create(). */
struct rte_rhashtable_params {
	const char *name;
	/**< Unique name (at most RTE_RHASHTABLE_NAMESIZE - 1 characters), used by
	 *   rte_rhashtable_find_existing(), telemetry, logs and the service.
	 */
	int socket_id;
	/**< NUMA socket of the bucket tables, or SOCKET_ID_ANY. */
	uint16_t nelem_hint;
	/**< Expected number of objects: the first bucket table has the
	 *   fewest buckets, a power of two, whose slots
	 *   (RTE_RHASHTABLE_BUCKET_SLOTS a bucket) hold nelem_hint * 4 / 3
	 *   objects (at least RTE_RHT_MIN_SIZE buckets); 0 gives
	 *   RTE_RHT_DEFAULT_SIZE buckets.
	 */
	uint16_t key_len;
	/**< Key length in bytes; 0 for variable-length keys, which then need
	 *   hashfn, obj_hashfn and obj_cmpfn. Either way an object's key starts
	 *   at key_offset: inserts pass that address to hashfn and obj_cmpfn.
	 */
	uint16_t key_offset;
	/**< Offset of the key in the object. */
	uint16_t head_offset;
	/**< Offset of the struct rte_rhash_head (or rte_rhlist_head) in the object. */
	uint32_t max_size;
	/**< Largest bucket table, rounded down to a power of two; the table
	 *   then holds at most as many objects as that table has slots,
	 *   RTE_RHASHTABLE_BUCKET_SLOTS * max_size. 0: no limit but
	 *   RTE_RHASHTABLE_MAX_ELEMS objects.
	 */
	uint16_t min_size;
	/**< Smallest bucket table for automatic shrinking, rounded down to a
	 *   power of two, at least RTE_RHT_MIN_SIZE. Ignored unless
	 *   automatic_shrinking is set.
	 */
	bool automatic_shrinking;
	/**< Halve the bucket table when the load of its slots falls below
	 *   RTE_RHT_SHRINK_PCT, once an object has been removed: a table that
	 *   has only been filled keeps the size nelem_hint gave it.
	 */
	uint8_t locks_mul;
	/**< Ignored, kept so that sources that set it still build: every
	 *   bucket has a lock of its own, a bit of its overflow word, and no
	 *   lock array (it set the size of one).
	 */
	bool single_writer;
	/**< One thread at a time makes every write call (insert, remove,
	 *   replace, rhltable insert and remove) and runs the rehash worker
	 *   through rte_rhashtable_rehash_run() or rte_rhashtable_rehash_lock(),
	 *   as rte_hash's single writer (without
	 *   RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD). The table then takes no
	 *   bucket lock and no locked instruction on buckets: with nothing
	 *   writing beside it, the worker moves objects with plain stores.
	 *   Readers stay lock-free on any number of lcores and still never
	 *   miss a present key. Such a table has no rehash service
	 *   (rte_rhashtable_service_id_get() returns -ENOTSUP): the writer
	 *   resizes it by calling rte_rhashtable_rehash_run() between its
	 *   writes; until it does, inserts grow it by emergency allocations
	 *   only (at 100% load or a full overflow chain).
	 */
	rte_rhashtable_hashfn_t hashfn;
	/**< Key hash; NULL: the library's seeded default,
	 *   rte_rhashtable_default_hash(), inlined in the lookup path.
	 */
	rte_rhashtable_obj_hashfn_t obj_hashfn;
	/**< Object hash; NULL: hashfn over key_len bytes at key_offset. */
	rte_rhashtable_obj_cmpfn_t obj_cmpfn;
	/**< Key compare; NULL: memcmp of key_len bytes at key_offset. */
};

/** Counters of one table, read by rte_rhashtable_stats_get(). */
struct rte_rhashtable_stats {
	uint64_t nelems;           /**< Objects (rhltable: keys) in the table. */
	uint64_t nobjs;            /**< Objects, counting every object of an rhltable list. */
	uint32_t buckets;          /**< Buckets of the newest bucket table. */
	uint32_t ntables;          /**< Bucket tables in the chain (1 when idle). */
	uint64_t grows;            /**< Bucket tables allocated at twice the size. */
	uint64_t shrinks;          /**< Bucket tables allocated at half the size. */
	uint64_t reseeds;          /**< Bucket tables allocated at the same size. */
	uint64_t emergency_allocs; /**< Of those, allocated by an insert itself. */
	uint64_t rehashes_done;    /**< Bucket tables emptied and retired. */
	uint64_t objs_moved;       /**< Objects moved by the rehash worker. */
	uint64_t tables_freed;     /**< Retired bucket tables freed. */
	uint64_t objs_freed;       /**< Removed objects handed to free_obj. */
	uint64_t alloc_failures;   /**< Bucket-table allocations that failed. */
	uint64_t nested_tables;    /**< Bucket tables built of page-sized pieces. */
	uint64_t refused_eexist;   /**< Inserts refused with -EEXIST. */
	uint64_t refused_enomem;   /**< Inserts refused with -ENOMEM. */
	uint64_t refused_ebusy;    /**< Inserts refused with -EBUSY. */
	uint64_t refused_e2big;    /**< Inserts refused with -E2BIG. */
	uint64_t worker_stalls;
	/**< Bucket tables that inserts attached while the rehash worker had not
	 *   started on the first one and its service had not run for a second:
	 *   it does not run (see the log).
	 */
	uint64_t bytes;            /**< Memory held: table struct, bucket tables. */
	uint32_t reclaim_pending;  /**< Entries waiting in the RCU defer queue. */
	int socket_id;             /**< Socket the bucket tables come from. */
	int numa_node;
	/**< NUMA node that the kernel reports for the buckets of the newest
	 *   bucket table (compare with socket_id), -1 when unknown.
	 */
};

/**
 * Table iterator for the walk functions. It lives wherever the caller wants
 * (the stack, typically); its members are private.
 */
struct rte_rhashtable_iter {
	struct rte_rhashtable *ht;   /**< Table walked. */
	void *tbl;                   /**< Bucket table walked, NULL after a rehash. */
	struct rte_rhashtable_iter *walker_next; /**< Walker list link. */
	struct rte_rhashtable_iter **walker_pprev; /**< Walker list link. */
	uint32_t slot;               /**< Bucket walked. */
	struct rte_rhash_head *p;    /**< Entry returned last in that bucket. */
	struct rte_rhlist_head *list; /**< rhltable: list member returned last. */
	bool end_of_table;           /**< The last bucket table is done. */
	bool started;                /**< Between walk_start and walk_stop. */
	uint8_t pos;                 /**< Where in that bucket (private). */
};

/** RCU reclamation modes of rte_rhashtable_rcu_qsbr_add(). */
enum rte_rhashtable_qsbr_mode {
	/** Defer queue: freed later by the rehash service or by writers. */
	RTE_RHASHTABLE_QSBR_MODE_DQ = 0,
	/** Blocking: the writer waits for a grace period, then frees. */
	RTE_RHASHTABLE_QSBR_MODE_SYNC,
};

/**
 * Free a removed object once no reader can hold it.
 *
 * @param ctx
 *   rte_rhashtable_rcu_config::free_obj_ctx.
 * @param obj
 *   The object (its start, not its rte_rhash_head).
 */
typedef void (*rte_rhashtable_free_obj_t)(void *ctx, void *obj);

/** RCU QSBR configuration, as struct rte_hash_rcu_config. */
struct rte_rhashtable_rcu_config {
	struct rte_rcu_qsbr *v;
	/**< RCU QSBR variable on which the table's readers report. */
	enum rte_rhashtable_qsbr_mode mode;
	/**< RTE_RHASHTABLE_QSBR_MODE_DQ (default) or _SYNC. */
	uint32_t dq_size;
	/**< Defer queue entries; 0: 65536. When the queue is full, entries go
	 *   to an overflow array (rte_realloc) that is reclaimed with the queue,
	 *   so a writer never waits for readers in DQ mode; only if that array
	 *   cannot grow does the writer wait for a grace period.
	 */
	uint32_t trigger_reclaim_limit;
	/**< Queue length that triggers reclamation in a writer; 0: dq_size / 8. */
	uint32_t max_reclaim_size;
	/**< Most entries reclaimed in one go; 0: 64. */
	void *free_obj_ctx;
	/**< First argument of free_obj. */
	rte_rhashtable_free_obj_t free_obj;
	/**< Called for each removed or replaced object once no reader can hold
	 *   it; NULL: removed objects stay the application's business.
	 */
};

struct rte_rhashtable;
struct rte_rhltable;
struct rte_rcu_qsbr;

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Create a resizable hash table and register its rehash service.
 *
 * Control path; may block. Not multi-thread safe against another create or
 * free of a table of the same name (the tailq lock makes names unique).
 *
 * @param p
 *   Parameters; copied, except that name is copied into the table.
 * @return
 *   The table, or NULL with rte_errno set to:
 *   - EINVAL: p or p->name NULL, name too long, key_len 0 without all three
 *     functions, head or key beyond 65535, max_size below min_size.
 *   - EEXIST: a table of that name exists.
 *   - ENOMEM: no memory for the table, its first bucket table or its service.
 *   - ENOSPC: no service slot left (RTE_SERVICE_NUM_MAX).
 */
__rte_experimental
struct rte_rhashtable *
rte_rhashtable_create(const struct rte_rhashtable_params *p);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find a table by name (rhltables too: pass the result to the table-level
 * functions).
 *
 * @param name
 *   Name given at create.
 * @return
 *   The table, or NULL with rte_errno ENOENT (no such table) or EINVAL (name NULL).
 */
__rte_experimental
struct rte_rhashtable *
rte_rhashtable_find_existing(const char *name);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Free a table, its bucket tables and its service. The objects still in it
 * are not touched. NULL is a no-op.
 *
 * Control path; waits for the rehash service to stop and, with QSBR, for a
 * grace period. No other call on the table may run or follow.
 *
 * @param ht
 *   The table.
 */
__rte_experimental
void
rte_rhashtable_free(struct rte_rhashtable *ht);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Call free_fn on every object in the table, then free the table as
 * rte_rhashtable_free() does. For an rhltable every object of every list is
 * passed. NULL is a no-op.
 *
 * free_fn has the type and the argument order of the RCU free_obj callback
 * (context first, then the object), so one function can serve both. It
 * used to take (obj, arg): a callback written for that order still
 * compiles, with its arguments swapped, and must be changed.
 *
 * @param ht
 *   The table.
 * @param free_fn
 *   Called as free_fn(ctx, obj) with each object (its start); NULL: as
 *   rte_rhashtable_free().
 * @param ctx
 *   First argument of free_fn.
 */
__rte_experimental
void
rte_rhashtable_free_and_destroy(struct rte_rhashtable *ht,
				rte_rhashtable_free_obj_t free_fn, void *ctx);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Look up a key.
 *
 * Reader: lock-free. It takes no lock and never waits for a writer or the
 * rehash worker; it is not wait-free: a lookup whose chain a concurrent
 * move or re-insert changes walks the chain again, so its cost is bounded
 * by the rate of rehashes (under a storm of re-seeds of a tiny table, one
 * lookup was seen to compare thousands of keys). Call from a thread
 * registered with the table's QSBR variable and use the object only until
 * that thread's next quiescent state.
 *
 * @param ht
 *   The table.
 * @param key
 *   The key (key_len bytes).
 * @return
 *   The object (its start), or NULL if no object has this key (or ht or key
 *   is NULL; rte_errno is then EINVAL).
 */
__rte_experimental
void *
rte_rhashtable_lookup(const struct rte_rhashtable *ht, const void *key);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Look up a burst of keys, overlapping their memory accesses.
 *
 * Reader, as rte_rhashtable_lookup().
 *
 * @param ht
 *   The table.
 * @param keys
 *   num_keys keys.
 * @param num_keys
 *   1 to RTE_RHASHTABLE_LOOKUP_BULK_MAX.
 * @param hit_mask
 *   Output: bit i set when keys[i] was found; may be NULL.
 * @param objs
 *   Output: objs[i] is the object of keys[i], or NULL.
 * @return
 *   The number of keys found, or -EINVAL (NULL argument, num_keys 0 or
 *   above RTE_RHASHTABLE_LOOKUP_BULK_MAX).
 */
__rte_experimental
int
rte_rhashtable_lookup_bulk(const struct rte_rhashtable *ht, const void **keys,
			   uint32_t num_keys, uint64_t *hit_mask, void *objs[]);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * One early stage of a bulk lookup pipelined across bursts: start the
 * memory accesses of a later rte_rhashtable_lookup_bulk() of the same keys,
 * so that they run while the caller works on other bursts.
 *
 * A bulk lookup overlaps the memory accesses of its burst, but it still
 * waits for the round trips that depend on each other: the bucket, then
 * the object whose tag is the key's, then for the few keys that need it
 * another object (a tag or summary of another key, an overflow chain). A
 * caller with bursts in flight can start them earlier, behind its other
 * work: at each step it receives burst k and calls this function with
 * depth 0 on it (and depth 1 on burst k-1, ...), then looks up burst k-1
 * (or k-2, ...). Prefetch a few keys at a time, between other work: a core
 * keeps only a dozen or so misses in flight and a prefetch beyond that
 * waits. Each stage hashes the keys again; whether the deeper stages pay
 * for that depends on the machine (the programmer's guide has figures).
 *
 * - depth 0: hash each key and prefetch its bucket;
 * - depth d > 0: read the key's bucket and the first d-1 objects that may
 *   hold the key (the slots of its tag, then the overflow chain when its
 *   summary may hold the key), prefetched by the earlier stages, stop at
 *   the key's object, and prefetch the d-th.
 *
 * Reader, as rte_rhashtable_lookup(), but it returns nothing to use: the
 * caller may report quiescent states between the stages of a burst, and a
 * stage that ran before the table changed only wastes a prefetch.
 *
 * @param ht
 *   The table.
 * @param keys
 *   num_keys keys.
 * @param num_keys
 *   0 to RTE_RHASHTABLE_LOOKUP_BULK_MAX.
 * @param depth
 *   0 to RTE_RHASHTABLE_PREFETCH_DEPTH_MAX.
 * @return
 *   0, or -EINVAL (NULL argument, num_keys above
 *   RTE_RHASHTABLE_LOOKUP_BULK_MAX or depth above
 *   RTE_RHASHTABLE_PREFETCH_DEPTH_MAX).
 */
__rte_experimental
int
rte_rhashtable_prefetch_bulk(const struct rte_rhashtable *ht, const void **keys,
			     uint32_t num_keys, uint32_t depth);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Insert an object without checking whether its key is already present
 * (a caller that knows it is not saves the comparisons).
 *
 * Writer: takes one bucket lock at a time; never waits for readers. May
 * allocate a bucket table (emergency growth) without blocking.
 *
 * @param ht
 *   The table.
 * @param obj
 *   The object's head.
 * @return
 *   - 0: inserted.
 *   - -EINVAL: ht or obj NULL, or ht is an rhltable's table.
 *   - -E2BIG: the table holds its maximum number of objects.
 *   - -ENOMEM: the table needed a new bucket table and none could be allocated.
 *   - -EBUSY: the bucket's slots are full and its overflow chain holds
 *     RTE_RHT_MAX_CHAIN_LEN objects while a resize is already pending.
 */
__rte_experimental
int
rte_rhashtable_insert(struct rte_rhashtable *ht, struct rte_rhash_head *obj);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Insert an object unless an object with the same key is present.
 *
 * Writer, as rte_rhashtable_insert().
 *
 * @param ht
 *   The table.
 * @param obj
 *   The object's head.
 * @return
 *   0, -EEXIST (the key is present; the table is unchanged), or an error of
 *   rte_rhashtable_insert().
 */
__rte_experimental
int
rte_rhashtable_lookup_insert(struct rte_rhashtable *ht, struct rte_rhash_head *obj);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Insert a burst of objects, each unless an object with its key is present,
 * overlapping their memory accesses: the buckets of the whole burst are
 * fetched before the first insert, so that the inserts do not wait for
 * their buckets one after the other (a flow table that creates the new
 * flows of a received burst together).
 *
 * Writer, as rte_rhashtable_insert(). The objects go in one after the other,
 * in array order, each as rte_rhashtable_lookup_get_insert() would take it:
 * an object whose key an earlier object of the burst has is refused with
 * -EEXIST (and that object is its existing one: two packets of a new flow
 * in one burst share the flow the first created), and an object refused
 * leaves the table as it was. The call is one write call for the rehash
 * worker, which waits for it to return before it frees a bucket table.
 *
 * @param ht
 *   The table.
 * @param objs
 *   num_objs object heads.
 * @param num_objs
 *   1 to RTE_RHASHTABLE_INSERT_BULK_MAX.
 * @param rets
 *   Output: rets[i] is what rte_rhashtable_lookup_get_insert() returns for
 *   objs[i]: 0, -EEXIST, -EINVAL (NULL or unaligned object), -E2BIG,
 *   -ENOMEM or -EBUSY.
 * @param existing
 *   Output, may be NULL: existing[i] is the object already present with the
 *   key of objs[i] when rets[i] is -EEXIST (protected as a lookup result
 *   is), NULL otherwise.
 * @return
 *   The number of objects inserted, or -EINVAL (ht, objs or rets NULL, ht an
 *   rhltable's table, num_objs 0 or above RTE_RHASHTABLE_INSERT_BULK_MAX);
 *   the table is then unchanged.
 */
__rte_experimental
int
rte_rhashtable_lookup_insert_bulk(struct rte_rhashtable *ht, struct rte_rhash_head *objs[],
				  uint32_t num_objs, int rets[], void *existing[]);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Insert an object unless an object with the same key is present, and return
 * that object. Racing callers with the same key agree on one object.
 *
 * Writer, as rte_rhashtable_insert(); the returned object is protected as a
 * lookup result is, so the caller should be a QSBR reader too.
 *
 * @param ht
 *   The table.
 * @param obj
 *   The object's head.
 * @param existing
 *   Output, may be NULL: with -EEXIST, the object (its start) already present.
 * @return
 *   0 (obj inserted), -EEXIST (*existing set), or an error of rte_rhashtable_insert().
 */
__rte_experimental
int
rte_rhashtable_lookup_get_insert(struct rte_rhashtable *ht, struct rte_rhash_head *obj,
				 void **existing);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Remove an object. With a QSBR free_obj callback, the object is freed once
 * no reader can hold it.
 *
 * Without free_obj the caller owns the removed object at once, with one
 * limit: readers that were looking at it may still read it (its key and
 * its head) until a grace period has passed (rte_rcu_qsbr_synchronize()
 * on the table's QSBR variable, or the equivalent). Until then the caller
 * may insert the object again, into this table with its key unchanged,
 * at any time, even while a rehash is under way (lookups and walkers
 * stay correct); it must not free it, change its key or insert it into
 * another table.
 *
 * Writer, as rte_rhashtable_insert(); in QSBR SYNC mode with free_obj it
 * waits for a grace period.
 *
 * @param ht
 *   The table.
 * @param obj
 *   The object's head.
 * @return
 *   0, -EINVAL (NULL argument) or -ENOENT (the object is not in the table).
 */
__rte_experimental
int
rte_rhashtable_remove(struct rte_rhashtable *ht, struct rte_rhash_head *obj);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Replace an object by another with the same key, atomically for readers:
 * a lookup finds one or the other. old_obj is then handled as a removed object.
 *
 * Writer, as rte_rhashtable_remove().
 *
 * @param ht
 *   The table.
 * @param old_obj
 *   Head of the object in the table.
 * @param new_obj
 *   Head of its replacement, not in any table.
 * @return
 *   0, -EINVAL (NULL argument, or the keys differ) or -ENOENT (old_obj is not
 *   in the table).
 */
__rte_experimental
int
rte_rhashtable_replace(struct rte_rhashtable *ht, struct rte_rhash_head *old_obj,
		       struct rte_rhash_head *new_obj);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Number of objects in the table (rhltable: every object of every list).
 * Exact once writers have stopped; any thread may call it.
 *
 * @param ht
 *   The table.
 * @return
 *   The count; 0 if ht is NULL.
 */
__rte_experimental
uint32_t
rte_rhashtable_count(const struct rte_rhashtable *ht);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Read the table's counters. Any thread; the bucket-table fields are read
 * under QSBR protection only if the caller is a registered reader.
 *
 * @param ht
 *   The table.
 * @param s
 *   Output.
 * @return
 *   0 or -EINVAL (NULL argument).
 */
__rte_experimental
int
rte_rhashtable_stats_get(const struct rte_rhashtable *ht, struct rte_rhashtable_stats *s);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Prepare an iterator to walk the table. Pair with rte_rhashtable_walk_exit().
 *
 * Any thread; takes the table's walker lock briefly.
 *
 * @param ht
 *   The table (for an rhltable, rte_rhltable_table()).
 * @param it
 *   The iterator.
 */
__rte_experimental
void
rte_rhashtable_walk_enter(struct rte_rhashtable *ht, struct rte_rhashtable_iter *it);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Start (or resume) a walk and report whether the bucket table walked was
 * retired since walk_stop. From here to walk_stop the caller is an RCU
 * reader: it must not report a quiescent state. A walk goes on from the
 * object it returned last; if that object left its slot or overflow chain
 * during the pause, the walk reads that slot or chain again, so objects may
 * be seen twice but a present object is never skipped.
 *
 * @param it
 *   The iterator.
 * @return
 *   0, -EINVAL (it NULL or not entered) or -EAGAIN: the walk restarts on the
 *   current bucket table, so objects already seen may be seen again.
 */
__rte_experimental
int
rte_rhashtable_walk_start_check(struct rte_rhashtable_iter *it);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * As rte_rhashtable_walk_start_check(), for callers that do not mind
 * seeing objects twice.
 *
 * @param it
 *   The iterator.
 */
__rte_experimental
void
rte_rhashtable_walk_start(struct rte_rhashtable_iter *it);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Next object of the walk. For an rhltable, every object of every list.
 *
 * Reader, between walk_start and walk_stop.
 *
 * @param it
 *   The iterator.
 * @param obj
 *   Output: the object (its start) when 0 is returned.
 * @return
 *   - 0: *obj set.
 *   - -ENOENT: the walk is complete.
 *   - -EAGAIN: a rehash is under way; the walk goes on in the next bucket
 *     table, where it may see objects again (and sees every object that
 *     stayed in the table). A walk ends once the table stops re-seeding
 *     and resizing: under a continuous storm of re-seeds it may keep
 *     reporting -EAGAIN (a walk of a tiny table re-seeded 45 thousand times
 *     a second saw thousands).
 *   - -EINVAL: NULL argument or walk not started.
 */
__rte_experimental
int
rte_rhashtable_walk_next(struct rte_rhashtable_iter *it, void **obj);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Pause a walk: the caller may report quiescent states again. The position
 * is kept; if the bucket table is retired meanwhile, walk_start_check
 * reports -EAGAIN.
 *
 * @param it
 *   The iterator.
 */
__rte_experimental
void
rte_rhashtable_walk_stop(struct rte_rhashtable_iter *it);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Release an iterator (after walk_stop, or before any walk_start).
 *
 * @param it
 *   The iterator.
 */
__rte_experimental
void
rte_rhashtable_walk_exit(struct rte_rhashtable_iter *it);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Stop rehashing: finish the rehash under way (if any) and keep the worker
 * from starting another until rte_rhashtable_rehash_unlock(). Objects then
 * stay in their bucket table, so a walk sees each exactly once. Inserts may
 * still allocate a new bucket table when the load passes 100%.
 *
 * Control path; blocks. In a single_writer table, it may finish a rehash:
 * call it from the writing thread, as rte_rhashtable_rehash_run().
 *
 * @param ht
 *   The table.
 */
__rte_experimental
void
rte_rhashtable_rehash_lock(struct rte_rhashtable *ht);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Let the rehash worker run again.
 *
 * @param ht
 *   The table.
 */
__rte_experimental
void
rte_rhashtable_rehash_unlock(struct rte_rhashtable *ht);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Id of the table's rehash service, to map it to a service lcore with
 * rte_service_map_lcore_set(). The library has already set the service's
 * component and application run states to running, so mapping it to a
 * started service lcore is enough (rte_service_runstate_get() reports 1
 * from then on, as it does for any DPDK service once mapped).
 *
 * @param ht
 *   The table.
 * @param service_id
 *   Output.
 * @return
 *   0, -EINVAL (NULL argument) or -ENOTSUP (a single_writer table, which
 *   has no service: its writer calls rte_rhashtable_rehash_run()).
 */
__rte_experimental
int
rte_rhashtable_service_id_get(const struct rte_rhashtable *ht, uint32_t *service_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Do the pending resize work now, on the calling thread: finish moving
 * objects, then grow, shrink or re-seed until the table is within its
 * thresholds, and reclaim what the RCU defer queue allows.
 *
 * Control path; blocks while another thread holds the rehash lock. In a
 * single_writer table it moves objects without locks: call it from the
 * writing thread, between its writes.
 *
 * @param ht
 *   The table.
 * @return
 *   0, -EINVAL (ht NULL) or -ENOMEM (a bucket table could not be allocated;
 *   the table keeps using the old one).
 */
__rte_experimental
int
rte_rhashtable_rehash_run(struct rte_rhashtable *ht);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Ask for a bucket table of the same size with a new seed (and, with the
 * default hash, a new key seed): the rehash worker (or the next
 * rte_rhashtable_rehash_run()) moves every object there.
 *
 * Any thread; does not block.
 *
 * @param ht
 *   The table.
 * @return
 *   0 or -EINVAL (ht NULL).
 */
__rte_experimental
int
rte_rhashtable_reseed(struct rte_rhashtable *ht);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Attach an RCU QSBR variable: old bucket tables and (with free_obj) removed
 * objects are then freed only after a grace period. Call once, right after
 * create, before readers start.
 *
 * Control path.
 *
 * @param ht
 *   The table.
 * @param cfg
 *   Configuration.
 * @return
 *   0, -EINVAL (NULL argument, NULL cfg->v, unknown mode), -EEXIST (a QSBR
 *   variable is already attached) or -ENOMEM (no memory for the defer queue).
 */
__rte_experimental
int
rte_rhashtable_rcu_qsbr_add(struct rte_rhashtable *ht,
			    const struct rte_rhashtable_rcu_config *cfg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Create an rhltable: a resizable hash table in which several objects may
 * share a key. Objects embed a struct rte_rhlist_head at head_offset.
 *
 * @param p
 *   Parameters, as rte_rhashtable_create().
 * @return
 *   The table, or NULL with rte_errno as rte_rhashtable_create().
 */
__rte_experimental
struct rte_rhltable *
rte_rhltable_create(const struct rte_rhashtable_params *p);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The table underneath an rhltable, for the table-level functions (count,
 * stats, walk, rcu, service, rehash lock and run, free_and_destroy).
 *
 * @param hlt
 *   The rhltable.
 * @return
 *   The table, or NULL if hlt is NULL.
 */
__rte_experimental
struct rte_rhashtable *
rte_rhltable_table(struct rte_rhltable *hlt);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Free an rhltable, as rte_rhashtable_free(). NULL is a no-op.
 *
 * @param hlt
 *   The rhltable.
 */
__rte_experimental
void
rte_rhltable_free(struct rte_rhltable *hlt);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Insert an object; an object with the same key may already be present.
 *
 * Writer, as rte_rhashtable_insert().
 *
 * @param hlt
 *   The rhltable.
 * @param list
 *   The object's head.
 * @return
 *   0, or -EINVAL, -E2BIG, -ENOMEM, -EBUSY as rte_rhashtable_insert().
 */
__rte_experimental
int
rte_rhltable_insert(struct rte_rhltable *hlt, struct rte_rhlist_head *list);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Remove one object.
 *
 * Writer, as rte_rhashtable_remove().
 *
 * @param hlt
 *   The rhltable.
 * @param list
 *   The object's head.
 * @return
 *   0, -EINVAL (NULL argument) or -ENOENT (not in the table).
 */
__rte_experimental
int
rte_rhltable_remove(struct rte_rhltable *hlt, struct rte_rhlist_head *list);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Look up a key: the first object with it; follow ->next for the others.
 *
 * Reader, as rte_rhashtable_lookup().
 *
 * @param hlt
 *   The rhltable.
 * @param key
 *   The key.
 * @return
 *   The head of the first object with this key, or NULL.
 */
__rte_experimental
struct rte_rhlist_head *
rte_rhltable_lookup(const struct rte_rhltable *hlt, const void *key);

/** One bucket table of the chain, read by rte_rhashtable_table_info_get(). */
struct rte_rhashtable_table_info {
	uint32_t buckets;       /**< Buckets (a power of two). */
	uint32_t seed;          /**< Random hash seed of this bucket table. */
	uint32_t nlocks;        /**< Bucket locks: one a bucket, in its overflow word. */
	bool nested;            /**< Built of page-sized pieces (large allocation failed). */
	uint64_t bytes;         /**< Memory of the bucket table. */
	const void *bucket_mem; /**< First bucket (NUMA checks, debugging). */
	int numa_node;          /**< NUMA node of bucket_mem's page, -1 when unknown. */
	/**
	 * Seed of the default hash's first step, which reduces a key to 64
	 * bits; seed enters the last. Equal to seed in a table that
	 * rte_rhashtable_create() or a re-seed made, where
	 * rte_rhashtable_default_hash(key, key_len, seed) is a key's hash; the
	 * tables of a grow or shrink keep their predecessor's, so that a
	 * lookup during the rehash reduces the key once for both tables.
	 */
	uint32_t key_seed;
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Describe bucket table idx of the chain (0: the oldest, the one lookups try
 * first). For debugging, tests and telemetry.
 *
 * Any thread; reads the chain under the rehash lock, so it may block.
 *
 * @param ht
 *   The table.
 * @param idx
 *   Position in the chain.
 * @param info
 *   Output.
 * @return
 *   0, -EINVAL (NULL argument) or -ENOENT (fewer than idx + 1 tables).
 */
__rte_experimental
int
rte_rhashtable_table_info_get(struct rte_rhashtable *ht, uint32_t idx,
			      struct rte_rhashtable_table_info *info);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The library's default key hash: a multiply-mix of the key 8 bytes at a
 * time (64x64->128-bit products folded by xor) under a key seed, then one
 * more product with the bucket table's seed; this function takes seed for
 * both. Seeded and not linear (unlike CRC32C), so colliding keys cannot be
 * precomputed without the seed, and a new bucket table spreads a flood of
 * colliding keys out again. In a table, the tables of a grow or shrink keep
 * the key seed (rte_rhashtable_table_info.key_seed), so that a lookup during
 * the rehash reduces the key once for both; a re-seed, and the table of an
 * insert's emergency (a chain at the limit, or 100% load), draw both seeds.
 * About 5 ns for a 16-byte key
 * (rhashtable_hash_perf_autotest compares it with rte_jhash and rte_hash_crc).
 * The table also uses bits 48-63 of the 64-bit mix internally, so a
 * table given this function as hashfn behaves as one given NULL.
 *
 * @param key
 *   The key.
 * @param key_len
 *   Its length.
 * @param seed
 *   The seed.
 * @return
 *   32-bit hash.
 */
__rte_experimental
uint32_t
rte_rhashtable_default_hash(const void *key, uint32_t key_len, uint32_t seed);

#ifdef __cplusplus
}
#endif

#include <rte_rhashtable_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * rte_rhashtable_lookup() inlined into the caller, for a key length known
 * at compile time (as the kernel's rhashtable_lookup_fast() takes constant
 * parameters): the hash and the key compare then compile to a few
 * instructions, and nothing is called while the table is at rest, nor for
 * a key found while a grow or shrink is under way. When key_len is not the
 * table's key_len, or the table has its own hash or compare functions, or
 * a key is not found during a rehash, or the table is being re-seeded, it
 * calls rte_rhashtable_lookup(), with the same result.
 *
 * Reader, as rte_rhashtable_lookup().
 *
 * @param ht
 *   The table.
 * @param key
 *   The key, key_len bytes.
 * @param key_len
 *   A compile-time constant: the table's key_len (the lengths listed by
 *   RHT_FAST_KEY_LEN_SELECT() in rhashtable_pvt.h get the inline path).
 * @return
 *   The object, or NULL (not found, or bad argument with rte_errno EINVAL).
 */
__rte_experimental
static __rte_always_inline void *
rte_rhashtable_lookup_fast(const struct rte_rhashtable *ht, const void *key,
			   const uint32_t key_len)
{
#ifdef ALLOW_EXPERIMENTAL_API
	const struct __rte_rht_core *c = (const struct __rte_rht_core *)ht;
	struct rte_rhash_head *he;
	bool slow = false;

	if (unlikely(ht == NULL || key == NULL || c->fast_key_len != key_len))
		return rte_rhashtable_lookup(ht, key);
	he = __rte_rht_lookup_common(c, key, key_len, &slow);
	if (unlikely(slow))
		return rte_rhashtable_lookup(ht, key);
	return he == NULL ? NULL : (char *)he - c->head_offset;
#else
	/*
	 * Experimental like the lookup it falls back on: a program built
	 * without ALLOW_EXPERIMENTAL_API cannot call it, but still compiles
	 * this header (as DPDK's rte_pmu_read() does).
	 */
	RTE_SET_USED(ht);
	RTE_SET_USED(key);
	RTE_SET_USED(key_len);
	RTE_VERIFY(false);
	return NULL;
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* _RTE_RHASHTABLE_H_ */
