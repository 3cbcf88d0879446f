/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _BENCH_SHIM_H_
#define _BENCH_SHIM_H_

/**
 * @file
 * C interface of the benchmark shim, the only thing bench_main.cc sees.
 *
 * Every measured loop runs inside the shim, on the calling thread (the EAL
 * main lcore): the C++ side only decides what to run and turns the counts
 * into Google Benchmark counters. All systems use the same 16-byte 5-tuple
 * keys, the same key sets and the same lookup streams.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Keys handled per lookup call: one burst, the bulk size of every system. */
#define BENCH_BURST 32

/** The tables compared. */
enum bench_sys {
	BENCH_SYS_RHT = 0,  /**< rte_rhashtable (this project). */
	BENCH_SYS_HASH,     /**< DPDK rte_hash, lock-free RW concurrency + RCU QSBR. */
	BENCH_SYS_LFHT,     /**< liburcu cds_lfht, urcu-qsbr flavour. */
	BENCH_SYS_LINE,     /**< Design probe: buckets of one cache line (--probes). */
	BENCH_SYS_MAX
};

/** Which keys a lookup stream holds. */
enum bench_stream {
	BENCH_HIT_UNIFORM = 0, /**< Keys in the table, uniform choice. */
	BENCH_HIT_ZIPF,        /**< Keys in the table, Zipf(0.99) choice. */
	BENCH_MISS_UNIFORM,    /**< Keys never inserted, uniform choice. */
	BENCH_MISS_ZIPF,       /**< Keys never inserted, Zipf(0.99) choice. */
	BENCH_STREAM_MAX
};

/** How a lookup case calls the table. */
enum bench_lookup_mode {
	BENCH_SINGLE = 0,  /**< One key at a time; a field of each flow found is read. */
	BENCH_BULK,        /**< BENCH_BURST keys per call; a field of each flow found is read. */
	BENCH_SINGLE_BARE, /**< As BENCH_SINGLE, the flow not read (rte_hash's own perf test). */
	BENCH_BULK_BARE,   /**< As BENCH_BULK, the flow not read (rte_hash's own perf test). */
	BENCH_SINGLE_CALL, /**< rte_rhashtable_lookup(), the out-of-line function. */
	BENCH_LOOKUP_MODE_MAX
};

/** How an insert benchmark sizes the table. */
enum bench_sizing {
	BENCH_PRESIZED = 0,  /**< Room for every key before the first insert. */
	BENCH_GROW_INLINE,   /**< Starts at 64 buckets; the inserting thread rehashes. */
	BENCH_GROW_SERVICE,  /**< Starts at 64 buckets; a service lcore rehashes. */
	BENCH_GROW_SOLO,     /**< As BENCH_GROW_INLINE, in a single-writer table. */
};

/** Memory held by one full table. */
struct bench_mem {
	uint64_t table_bytes; /**< Table structures (buckets, key store, locks...). */
	uint64_t obj_bytes;   /**< One user object (key, link, payload). */
	uint64_t entries;     /**< Entries in the table. */
	const char *method;   /**< How table_bytes was measured. */
};

/** Outcome of the lookup-during-resize run. */
struct bench_resize_result {
	uint64_t lookups;      /**< Lookups made while sampling. */
	uint64_t misses;       /**< Lookups of present keys that failed (must be 0). */
	uint32_t windows;      /**< 10 ms windows sampled. */
	double steady_mops;    /**< Median window before the resize started. */
	double min_mops;       /**< Slowest window from resize start to end. */
	double base_min_mops;  /**< Slowest window before it: the machine's own noise. */
	double steady_oncpu_mops; /**< Median of the baseline windows where it ran >= 90%. */
	double min_oncpu_mops; /**< Slowest resize window where the thread ran >= 90% of it. */
	double steady_cpu_mops; /**< Median baseline rate per second of thread CPU time. */
	double min_cpu_mops;   /**< Slowest resize window per second of thread CPU time. */
	double writer_min_mops; /**< Slowest grow/shrink window before its rehash started. */
	double rehash_min_mops; /**< Slowest grow/shrink window from its rehash on. */
	uint32_t preempted_windows; /**< Windows of the resize where it ran < 90%. */
	double grow_ms;        /**< Start of inserts to 2x table settled. */
	double shrink_ms;      /**< Start of removals to 1x table settled. */
	uint32_t buckets_start; /**< Buckets before. */
	uint32_t buckets_peak;  /**< Largest bucket count seen. */
	uint32_t buckets_end;   /**< Buckets after. */
	int timed_out;          /**< A phase did not finish in time. */
};

/** Outcome of the lookups with a rehash stopped part of the way. */
struct bench_frozen_result {
	uint64_t lookups;     /**< Lookups made in the four measures. */
	uint64_t misses;      /**< Lookups of present keys that failed (must be 0). */
	double steady_mops;   /**< At rest, the stable set alone (1Mi buckets). */
	double full_mops;     /**< One table at the grow threshold, no rehash yet. */
	double frozen_mops;   /**< Two tables, the rehash stopped at pct% of the moves. */
	double after_mops;    /**< One table again, the grow done (2Mi buckets). */
	double moved_pct;     /**< Share of the objects moved when frozen. */
};

/**
 * Initialise EAL (once) and the RCU state of every system.
 *
 * @param argc
 *   EAL argument count, argv[0] included.
 * @param argv
 *   EAL arguments; without a memory option the --no-huge fallback is added.
 * @param mem_mb
 *   Memory the run needs, in MiB.
 * @return
 *   0, or a negative errno (the reason is printed).
 */
int bench_init(int argc, char **argv, unsigned int mem_mb);

/** Free every table and stop EAL. */
void bench_fini(void);

/** Short name of a system, as used in benchmark names ("rhashtable"...). */
const char *bench_sys_name(enum bench_sys sys);

/** One line describing how the system is set up (hash, modes, what a lookup reads). */
const char *bench_sys_note(enum bench_sys sys);

/** Non-zero if sys is a design probe (lookups only, run with --probes). */
int bench_sys_is_probe(enum bench_sys sys);

/** Non-zero if the system has lookup mode m. */
int bench_sys_has_mode(enum bench_sys sys, enum bench_lookup_mode m);

/** Short name of a lookup mode, as used in benchmark names ("bulk32"...). */
const char *bench_mode_name(enum bench_lookup_mode m);

/** Non-zero if the system can run the reader-with-writer case. */
int bench_sys_has_churn(enum bench_sys sys);

/** Non-zero if sizing is meaningful for the system (rte_hash cannot grow). */
int bench_sys_has_sizing(enum bench_sys sys, enum bench_sizing z);

/** Short name of a stream ("hit_uniform"...). */
const char *bench_stream_name(enum bench_stream k);

/** Monotonic time in seconds. */
double bench_now(void);

/** Non-zero when EAL runs without hugepages (--no-huge). */
int bench_no_huge(void);

/** EAL arguments used, as one string (for the report). */
const char *bench_eal_args(void);

/**
 * Make a full table of n entries of sys (reused while n does not change;
 * other systems' tables are freed) and the lookup stream k over it.
 *
 * @return
 *   0 or a negative errno.
 */
int bench_lookup_setup(enum bench_sys sys, uint32_t n, enum bench_stream k);

/**
 * Run bursts bursts of BENCH_BURST lookups from the current stream, each
 * followed by a quiescent-state report, and read a field of every flow found.
 *
 * @param mode
 *   How the table is called (a mode the system has).
 * @param hits
 *   Output: lookups that found their key.
 * @return
 *   Lookups made.
 */
uint64_t bench_lookup_run(enum bench_sys sys, enum bench_lookup_mode mode, uint64_t bursts,
			  uint64_t *hits);

/** Outcome of a reader run, alone or beside a writer. */
struct bench_contend_result {
	uint64_t lookups;   /**< Lookups made by the reader. */
	uint64_t hits;      /**< Of which found (all keys are present ones). */
	double seconds;     /**< Reader time. */
	double cpu_seconds; /**< CPU time of the reader thread in that time. */
	uint64_t writes;    /**< Inserts plus removes made by the writer. */
	double write_seconds; /**< Writer time. */
};

/**
 * Lookups of present keys (hit_uniform stream) on the main lcore for about
 * seconds, on the full table of n entries built by bench_lookup_setup(),
 * with or without a writer on the first worker lcore that inserts and
 * removes other keys at full speed (a window of 1024 of them present at a
 * time, each object re-inserted as soon as it was removed). The writer's
 * keys are gone again when it returns.
 *
 * @return
 *   0, -ENOTSUP (no worker lcore, or sys has no writer) or a negative errno.
 */
int bench_contend_run(enum bench_sys sys, enum bench_lookup_mode mode, uint32_t n,
		      int writer, double seconds, struct bench_contend_result *r);

/**
 * Create an empty table for n entries (untimed part of an insert benchmark).
 *
 * @return
 *   0, -ENOTSUP (sizing not available for sys) or a negative errno.
 */
int bench_insert_setup(enum bench_sys sys, uint32_t n, enum bench_sizing z);

/**
 * Whether rte_rhashtable's insert benchmarks insert BENCH_BURST objects a
 * call (rte_rhashtable_lookup_insert_bulk()) or one (the default); the
 * other systems have no bulk insert.
 */
void bench_rht_insert_bulk(int on);

/**
 * What growth cost rte_rhashtable's last insert run, read before the table
 * is released: the objects the rehash worker moved since the table was
 * created (or presized), and the seconds the inserting thread spent in
 * rte_rhashtable_rehash_run() (0 with the worker on a service lcore).
 *
 * @return
 *   0, or a negative errno (no rte_rhashtable table).
 */
int bench_rht_growth(uint64_t *moved, double *rehash_s);

/**
 * Insert the n objects and, for growing tables, wait until the table has
 * settled (one bucket table, load below the grow threshold).
 *
 * @param budget_s
 *   Give up after this many seconds (a table whose growth stalled).
 * @param done
 *   Output: objects inserted.
 * @return
 *   0, -ETIMEDOUT (budget exceeded) or a negative errno.
 */
int bench_insert_run(enum bench_sys sys, double budget_s, uint32_t *done);

/** Make a full table of n entries (untimed part of a remove benchmark). */
int bench_remove_setup(enum bench_sys sys, uint32_t n);

/** Remove every object; returns 0 or a negative errno. */
int bench_remove_run(enum bench_sys sys);

/** Memory of the full table of n entries (built by bench_lookup_setup()). */
int bench_memory(enum bench_sys sys, uint32_t n, struct bench_mem *m);

/**
 * Prepare the memory-limit probe: a buffer as large as rte_rhashtable's
 * working set at n entries (bucket table + objects).
 *
 * @param bytes
 *   Output: buffer size.
 */
int bench_limit_setup(uint32_t n, uint64_t *bytes);

/**
 * Prepare the memory-limit probe with a buffer of bytes (rounded up to a
 * cache line), from the tables' heap: the latency of one dependent read
 * (bench_limit_chase_run()) by working-set size shows where the caches end.
 */
int bench_limit_setup_bytes(uint64_t bytes);

/** The page size the probe assumes for bench_limit_setup_pages(). */
#define BENCH_PAGE_BYTES 4096

/**
 * Prepare the probe as bench_limit_setup_bytes() does, but with the chase
 * cycle through one random line of each BENCH_PAGE_BYTES of the buffer:
 * the data read is a 64th of the buffer, the pages touched all of it, so
 * the latency by buffer size shows what the translation of addresses
 * costs, apart from the caches.
 */
int bench_limit_setup_pages(uint64_t bytes);

/**
 * Random cache-line reads in batches of BENCH_BURST: all lines of a batch
 * are prefetched, then read; the next batch's addresses depend on the data
 * read. Returns the lines read.
 */
uint64_t bench_limit_batch_run(uint64_t batches);

/**
 * Two dependent random cache-line reads per item, BENCH_BURST items per
 * batch, as a bulk lookup reads a bucket then the object it points to: the
 * first lines of the batch are prefetched, read, then the second lines they
 * point to are prefetched and read. Returns the items (line pairs) read.
 */
uint64_t bench_limit_dep2_run(uint64_t batches);

/** One dependent random cache-line read at a time; returns the lines read. */
uint64_t bench_limit_chase_run(uint64_t steps);

/** The widest batch of bench_limit_window_run(). */
#define BENCH_WINDOW_MAX 64

/**
 * As bench_limit_batch_run(), with batches of width lines (1 to
 * BENCH_WINDOW_MAX): how the time of a batch grows with the reads in
 * flight, a latency plus a cost per read. Returns the lines read.
 */
uint64_t bench_limit_window_run(uint64_t batches, uint32_t width);

/**
 * Lookups on the main lcore, sampled every 10 ms, while a service lcore
 * grows an rte_rhashtable from 1Mi to 2Mi buckets and shrinks it back.
 *
 * @param bulk
 *   0: single lookups; 1: bulk lookups.
 * @param trace_path
 *   CSV file to write the windows to (appended), or NULL.
 * @return
 *   0, -ENOTSUP (no worker lcore for the service) or a negative errno.
 */
int bench_resize_run(int bulk, const char *trace_path, struct bench_resize_result *r);

/**
 * The lookups of the resize case, each state held still and measured for
 * ms milliseconds on the main lcore, with no other thread: at rest; with
 * the extra keys inserted (the grow threshold passed, the rehash not
 * started); with the rehash service run on the main lcore
 * (rte_service_run_iter_on_app_lcore()) until pct% of the objects have
 * moved, then stopped; and once the grow is done. What the lookups' own
 * path and footprint cost in the middle of a rehash, apart from the
 * writer's and the mover's traffic.
 *
 * @return
 *   0 or a negative errno.
 */
int bench_resize_frozen(int bulk, uint32_t pct, uint32_t ms, struct bench_frozen_result *r);

#ifdef __cplusplus
}
#endif

#endif /* _BENCH_SHIM_H_ */
