/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * dpdk-rhashtable-bench: registers the benchmark cases and turns what the C
 * shim (bench_shim.h) counted into Google Benchmark counters. No table code
 * here: every measured loop runs in the shim.
 *
 * Usage:
 *   dpdk-rhashtable-bench [--short|--long] [--trace_out=FILE] [--probes]
 *                         [--benchmark_* flags] [-- EAL args]
 * RHT_BENCH_MODE=short|long does the same as --short/--long. Without EAL
 * args: --no-pci -l 0-1 --file-prefix=rht-bench-<pid>; the --no-huge
 * fallback is added when hugepages are missing. Lcore 1 (the first worker)
 * becomes the service lcore of the cases that need one.
 *
 * Every rate is a counter: Mops (million operations per second, wall clock)
 * and ns_per_op; ratios between systems are computed by
 * devtools/bench_report.py from the JSON output.
 */

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_shim.h"

namespace {

enum class Mode { Short, Normal, Long };

struct Options {
	Mode mode = Mode::Normal;
	std::string trace_out;
	bool probes = false;
};

Options opt;

/* A correctness failure seen by a case: the exit status reports it. */
std::string failure;

void
record_failure(const std::string &what)
{
	std::fprintf(stderr, "dpdk-rhashtable-bench: FAILURE: %s\n", what.c_str());
	if (failure.empty())
		failure = what;
}

constexpr uint32_t Ki = 1u << 10;
constexpr uint32_t Mi = 1u << 20;
/* Bursts of BENCH_BURST lookups per benchmark iteration. */
constexpr uint64_t kBurstsPerIter = 64;

const char *
mode_name()
{
	switch (opt.mode) {
	case Mode::Short: return "short";
	case Mode::Long: return "long";
	default: return "normal";
	}
}

double
min_time()
{
	switch (opt.mode) {
	case Mode::Short: return 0.05;
	case Mode::Long: return 1.0;
	default: return 0.4;
	}
}

std::vector<uint32_t>
table_sizes()
{
	switch (opt.mode) {
	case Mode::Short: return {64 * Ki, Mi};
	case Mode::Long: return {64 * Ki, Mi, 16 * Mi, 64 * Mi};
	default: return {64 * Ki, Mi, 16 * Mi};
	}
}

unsigned int
eal_mem_mb()
{
	switch (opt.mode) {
	case Mode::Short: return 1024;
	case Mode::Long: return 12288;
	/* 16Mi: rte_hash with its objects peaks near 2 GiB, one table at a time */
	default: return 2560;
	}
}

/* Repetitions of the rate cases (lookups, limits); the report takes the median. */
int
repetitions()
{
	return opt.mode == Mode::Short ? 1 : 3;
}

/* Runs of a whole-table case (insert, remove) at size n. */
int
table_iterations(uint32_t n)
{
	if (opt.mode == Mode::Short || n >= 16 * Mi)
		return 1;
	return n >= Mi ? 2 : 8;
}

/* Longest an insert run may take before the table is declared stalled. */
double
insert_budget_s(uint32_t n)
{
	return 10.0 + 5.0 * n / 1e6;
}

void
fail(benchmark::State &st, const char *what, int rc)
{
	std::string msg = std::string(what) + ": " + std::strerror(rc < 0 ? -rc : rc);

	st.SkipWithError(msg.c_str());
}

void
set_rate(benchmark::State &st, double ops, double seconds, uint32_t n)
{
	st.counters["Mops"] = seconds > 0 ? ops / seconds / 1e6 : 0;
	st.counters["ns_per_op"] = ops > 0 ? seconds * 1e9 / ops : 0;
	st.counters["entries"] = n;
	st.SetItemsProcessed(static_cast<int64_t>(ops));
}

void
BM_lookup(benchmark::State &st, bench_sys sys, bench_lookup_mode mode, bench_stream k,
	  uint32_t n)
{
	uint64_t ops = 0, hits = 0, h;
	int rc = bench_lookup_setup(sys, n, k);

	if (rc != 0) {
		fail(st, "table or stream set-up", rc);
		return;
	}
	double t0 = bench_now();
	for (auto _ : st) {
		ops += bench_lookup_run(sys, mode, kBurstsPerIter, &h);
		hits += h;
	}
	set_rate(st, ops, bench_now() - t0, n);
	st.counters["hit_pct"] = ops > 0 ? 100.0 * hits / ops : 0;
	bool want_hits = k == BENCH_HIT_UNIFORM || k == BENCH_HIT_ZIPF;
	if (hits != (want_hits ? ops : 0))
		record_failure(std::string("lookup ") + bench_sys_name(sys) + " " +
			       bench_mode_name(mode) + " " + bench_stream_name(k) + " " +
			       std::to_string(n) + ": " + std::to_string(hits) + " hits in " +
			       std::to_string(ops) + " lookups");
}

/* Seconds of lookups per contention run. */
double
contend_seconds()
{
	return opt.mode == Mode::Short ? 0.1 : 0.5;
}

void
BM_contend(benchmark::State &st, bench_sys sys, bench_lookup_mode mode, int writer,
	   uint32_t n)
{
	bench_contend_result r{};
	uint64_t ops = 0, hits = 0, writes = 0;
	double secs = 0, wsecs = 0, csecs = 0;

	for (auto _ : st) {
		int rc = bench_contend_run(sys, mode, n, writer, contend_seconds(), &r);

		if (rc != 0) {
			fail(st, rc == -ENOTSUP ? "needs a worker lcore for the writer" :
				 "reader/writer run", rc);
			return;
		}
		ops += r.lookups;
		hits += r.hits;
		secs += r.seconds;
		csecs += r.cpu_seconds;
		writes += r.writes;
		wsecs += r.write_seconds;
	}
	set_rate(st, static_cast<double>(ops), secs, n);
	st.counters["writer_Mops"] = wsecs > 0 ? writes / wsecs / 1e6 : 0;
	st.counters["cpu_Mops"] = csecs > 0 ? ops / csecs / 1e6 : 0;
	st.counters["on_cpu"] = secs > 0 ? csecs / secs : 0;
	st.counters["hit_pct"] = ops > 0 ? 100.0 * hits / ops : 0;
	if (hits != ops)
		record_failure(std::string("contend ") + bench_sys_name(sys) + " " +
			       bench_mode_name(mode) + (writer ? " writer " : " alone ") +
			       std::to_string(n) + ": " + std::to_string(ops - hits) +
			       " lookups of present keys missed");
}

/* The growth of the run just done: moves and time in the inserting thread's worker. */
static void
add_growth(benchmark::State &st, uint64_t *moved, double *rehash_s)
{
	uint64_t m;
	double s;
	int rc = bench_rht_growth(&m, &s);

	if (rc != 0) {
		fail(st, "growth stats", rc);
		return;
	}
	*moved += m;
	*rehash_s += s;
}

/*
 * What growth cost: objects moved per insert (about 1.4 for a table grown
 * from 64 buckets: each doubling moves the 70% of the old size it holds),
 * and, where the inserting thread runs the worker, its time per move and
 * its share of the run.
 */
static void
set_growth(benchmark::State &st, uint64_t moved, double rehash_s, uint64_t ops, double secs)
{
	st.counters["moves_per_insert"] = ops > 0 ? static_cast<double>(moved) / ops : 0;
	st.counters["ns_per_move"] = moved > 0 ? rehash_s * 1e9 / moved : 0;
	st.counters["rehash_share"] = secs > 0 ? rehash_s / secs : 0;
}

void
BM_insert(benchmark::State &st, bench_sys sys, bench_sizing z, uint32_t n, bool bulk)
{
	double total = 0, rehash_s = 0;
	uint64_t ops = 0, moved = 0;
	bool stalled = false;

	bench_rht_insert_bulk(bulk);

	for (auto _ : st) {
		uint32_t done = 0;
		int rc = stalled ? 0 : bench_insert_setup(sys, n, z);

		if (rc != 0) {
			fail(st, "table create", rc);
			break;
		}
		if (stalled) {
			/* the rate is already known: finish the fixed iterations */
			st.SetIterationTime(1e-9);
			continue;
		}
		double t0 = bench_now();
		rc = bench_insert_run(sys, insert_budget_s(n), &done);
		double dt = bench_now() - t0;
		st.SetIterationTime(dt);
		total += dt;
		ops += done;
		if (rc == -ETIMEDOUT) {
			stalled = true;
		} else if (rc != 0) {
			fail(st, "insert", rc);
			break;
		}
		if (sys == BENCH_SYS_RHT)
			add_growth(st, &moved, &rehash_s);
	}
	bench_rht_insert_bulk(0);
	set_rate(st, static_cast<double>(ops), total, n);
	if (sys == BENCH_SYS_RHT)
		set_growth(st, moved, rehash_s, ops, total);
	st.counters["stalled"] = stalled;
	if (stalled)
		st.SetLabel("STALLED: growth did not keep up, " + std::to_string(ops) +
			    " inserts in the time budget");
}

void
BM_remove(benchmark::State &st, bench_sys sys, uint32_t n)
{
	double total = 0;
	uint64_t ops = 0;

	for (auto _ : st) {
		int rc = bench_remove_setup(sys, n);

		if (rc != 0) {
			fail(st, "table build", rc);
			break;
		}
		double t0 = bench_now();
		rc = bench_remove_run(sys);
		double dt = bench_now() - t0;
		st.SetIterationTime(dt);
		if (rc != 0) {
			fail(st, "remove", rc);
			break;
		}
		total += dt;
		ops += n;
	}
	set_rate(st, static_cast<double>(ops), total, n);
}

void
BM_memory(benchmark::State &st, bench_sys sys, uint32_t n)
{
	bench_mem m;
	int rc = bench_memory(sys, n, &m);

	if (rc != 0) {
		fail(st, "memory", rc);
		return;
	}
	for (auto _ : st)
		benchmark::DoNotOptimize(m);
	st.counters["entries"] = n;
	st.counters["table_bytes"] = static_cast<double>(m.table_bytes);
	st.counters["obj_bytes"] = static_cast<double>(m.obj_bytes);
	st.counters["table_bytes_per_entry"] = static_cast<double>(m.table_bytes) / n;
	st.counters["bytes_per_entry"] = static_cast<double>(m.table_bytes) / n + m.obj_bytes;
	st.SetLabel(m.method);
}

void
BM_limit(benchmark::State &st, int batch, uint32_t n)
{
	uint64_t bytes, ops = 0;
	int rc = bench_limit_setup(n, &bytes);

	if (rc != 0) {
		fail(st, "probe buffer", rc);
		return;
	}
	double t0 = bench_now();
	for (auto _ : st)
		ops += batch == 2 ? bench_limit_dep2_run(kBurstsPerIter) :
		       batch == 1 ? bench_limit_batch_run(kBurstsPerIter) :
				    bench_limit_chase_run(kBurstsPerIter * BENCH_BURST);
	set_rate(st, static_cast<double>(ops), bench_now() - t0, n);
	st.counters["buffer_MiB"] = bytes / 1048576.0;
}

/*
 * One dependent random read at a time over a buffer of mib MiB: the
 * latency a lookup pays for each line it cannot prefetch, by how much
 * memory its table spans (a bucket array of 1Mi buckets is 8 MiB, of
 * 2Mi 16 MiB: the sizes of the resize case). With pages, one line of
 * each 4 KiB page only: the same pages for a 64th of the data (1 MiB of
 * a 64 MiB buffer, which the caches hold); what still grows with the
 * buffer is the cost of translating its addresses.
 */
void
BM_latency(benchmark::State &st, uint32_t mib, bool pages)
{
	uint64_t steps = 0, bytes = static_cast<uint64_t>(mib) << 20;
	int rc = pages ? bench_limit_setup_pages(bytes) : bench_limit_setup_bytes(bytes);

	if (rc != 0) {
		fail(st, "probe buffer", rc);
		return;
	}
	double t0 = bench_now();
	for (auto _ : st)
		steps += bench_limit_chase_run(kBurstsPerIter * BENCH_BURST);
	double dt = bench_now() - t0;
	st.counters["ns_per_read"] = steps > 0 ? dt * 1e9 / steps : 0;
	st.counters["buffer_MiB"] = mib;
	st.counters["data_MiB"] = pages ? mib / 64.0 : mib;
}

/*
 * Batches of width random reads, all prefetched before any is read, the
 * next batch depending on the data, over mib MiB: the time of a batch by
 * its width, which a bulk lookup's rounds of reads pay one after the other.
 */
void
BM_window(benchmark::State &st, uint32_t mib, uint32_t width)
{
	uint64_t reads = 0;
	int rc = bench_limit_setup_bytes(static_cast<uint64_t>(mib) << 20);

	if (rc != 0) {
		fail(st, "probe buffer", rc);
		return;
	}
	double t0 = bench_now();
	for (auto _ : st)
		reads += bench_limit_window_run(kBurstsPerIter * BENCH_BURST / width, width);
	double dt = bench_now() - t0;
	st.counters["ns_per_batch"] = reads > 0 ? dt * 1e9 * width / reads : 0;
	st.counters["ns_per_read"] = reads > 0 ? dt * 1e9 / reads : 0;
	st.counters["buffer_MiB"] = mib;
}

/* a / b, 0 when b is not positive (a rate that was never measured) */
double
over(double a, double b)
{
	return b > 0 ? a / b : 0;
}

void
BM_resize(benchmark::State &st, int bulk)
{
	static int traced[2];
	bench_resize_result r{};
	/* the timeline plot shows the first run of each mode */
	const char *trace = opt.trace_out.empty() || traced[bulk]++ ? nullptr :
			    opt.trace_out.c_str();
	int rc = 0;

	for (auto _ : st) {
		rc = bench_resize_run(bulk, trace, &r);
		if (rc != 0) {
			fail(st, rc == -ENOTSUP ? "needs a worker lcore for the service" :
				 "resize run", rc);
			break;
		}
	}
	if (rc != 0)
		return;
	st.counters["steady_Mops"] = r.steady_mops;
	st.counters["min_window_Mops"] = r.min_mops;
	st.counters["min_over_steady"] = over(r.min_mops, r.steady_mops);
	st.counters["writer_only_min_over_steady"] = over(r.writer_min_mops, r.steady_mops);
	st.counters["rehash_min_over_steady"] = over(r.rehash_min_mops, r.steady_mops);
	st.counters["baseline_min_Mops"] = r.base_min_mops;
	st.counters["baseline_min_over_steady"] = over(r.base_min_mops, r.steady_mops);
	st.counters["steady_oncpu_Mops"] = r.steady_oncpu_mops;
	st.counters["min_oncpu_window_Mops"] = r.min_oncpu_mops;
	st.counters["min_oncpu_over_steady"] = over(r.min_oncpu_mops, r.steady_oncpu_mops);
	st.counters["steady_cpu_Mops"] = r.steady_cpu_mops;
	st.counters["min_cpu_window_Mops"] = r.min_cpu_mops;
	st.counters["min_cpu_over_steady"] = over(r.min_cpu_mops, r.steady_cpu_mops);
	st.counters["preempted_windows"] = r.preempted_windows;
	st.counters["misses"] = static_cast<double>(r.misses);
	st.counters["lookups"] = static_cast<double>(r.lookups);
	st.counters["windows"] = r.windows;
	st.counters["grow_ms"] = r.grow_ms;
	st.counters["shrink_ms"] = r.shrink_ms;
	st.counters["buckets_start"] = r.buckets_start;
	st.counters["buckets_peak"] = r.buckets_peak;
	st.counters["buckets_end"] = r.buckets_end;
	st.counters["timed_out"] = r.timed_out;
	if (r.misses != 0) {
		st.SetLabel("LOOKUP MISSES DURING RESIZE: library bug");
		record_failure(std::string("resize ") + (bulk ? "bulk32: " : "single: ") +
			       std::to_string(r.misses) +
			       " lookups of present keys missed during the resize");
	}
	else if (r.timed_out)
		st.SetLabel("resize did not complete in time");
}

/* How long each state of a frozen case is measured. */
uint32_t
frozen_ms()
{
	return static_cast<uint32_t>(min_time() * 750);
}

/*
 * The resize case's lookups with each state held still (bench_resize_frozen()):
 * rates at rest, at the grow threshold, with the rehash stopped at pct% of
 * its moves, and after the grow, each over the rate at rest.
 */
void
BM_frozen(benchmark::State &st, int bulk, uint32_t pct)
{
	bench_frozen_result r{};
	int rc = 0;

	for (auto _ : st) {
		rc = bench_resize_frozen(bulk, pct, frozen_ms(), &r);
		if (rc != 0) {
			fail(st, "frozen rehash", rc);
			return;
		}
	}
	st.counters["steady_Mops"] = r.steady_mops;
	st.counters["full_over_steady"] = over(r.full_mops, r.steady_mops);
	st.counters["frozen_over_steady"] = over(r.frozen_mops, r.steady_mops);
	st.counters["after_over_steady"] = over(r.after_mops, r.steady_mops);
	st.counters["moved_pct"] = r.moved_pct;
	st.counters["lookups"] = static_cast<double>(r.lookups);
	st.counters["misses"] = static_cast<double>(r.misses);
	if (r.misses != 0) {
		st.SetLabel("LOOKUP MISSES WITH A REHASH UNDER WAY: library bug");
		record_failure(std::string("frozen ") + (bulk ? "bulk32 " : "single ") +
			       std::to_string(pct) + "%: " + std::to_string(r.misses) +
			       " lookups of present keys missed");
	}
}

const char *
sizing_name(bench_sizing z)
{
	switch (z) {
	case BENCH_PRESIZED: return "presized";
	case BENCH_GROW_INLINE: return "grow";
	case BENCH_GROW_SOLO: return "grow_1w";
	default: return "grow_service";
	}
}

std::string
case_name(std::vector<std::string> parts, uint32_t n)
{
	std::string s;

	for (const auto &p : parts)
		s += p + "/";
	return s + std::to_string(n);
}

void
register_lookups(bench_sys sys, uint32_t n)
{
	static const bench_stream streams[] = {
		BENCH_HIT_UNIFORM, BENCH_HIT_ZIPF, BENCH_MISS_UNIFORM, BENCH_MISS_ZIPF,
	};

	for (int m = 0; m < BENCH_LOOKUP_MODE_MAX; m++) {
		auto mode = static_cast<bench_lookup_mode>(m);

		if (!bench_sys_has_mode(sys, mode))
			continue;
		for (bench_stream k : streams) {
			std::string name = case_name({"lookup", bench_sys_name(sys),
						      bench_mode_name(mode),
						      bench_stream_name(k)}, n);

			benchmark::RegisterBenchmark(name.c_str(), BM_lookup, sys, mode, k, n)
				->UseRealTime()->MinTime(min_time())->Repetitions(repetitions())
				->Unit(benchmark::kMillisecond);
		}
	}
}

/* Readers alone, then beside a writer on the other lcore, on the table the
 * lookup cases just used.
 */
void
register_contend(bench_sys sys, uint32_t n)
{
	/* the goals concern large tables; at 64Ki rte_hash's defer queue
	 * cannot keep up with the writer (-ENOSPC)
	 */
	if (!bench_sys_has_churn(sys) || n < Mi)
		return;
	for (int m = 0; m < BENCH_LOOKUP_MODE_MAX; m++) {
		auto mode = static_cast<bench_lookup_mode>(m);

		if (!bench_sys_has_mode(sys, mode) || mode == BENCH_SINGLE_CALL)
			continue;
		for (int writer = 0; writer <= 1; writer++)
			benchmark::RegisterBenchmark(
				case_name({"contend", bench_sys_name(sys), bench_mode_name(mode),
					   writer ? "writer" : "alone"}, n).c_str(),
				BM_contend, sys, mode, writer, n)
				->Iterations(1)->Repetitions(repetitions())
				->Unit(benchmark::kMillisecond);
	}
}

void
register_writes(bench_sys sys, uint32_t n)
{
	static const bench_sizing sizings[] = {
		BENCH_PRESIZED, BENCH_GROW_INLINE, BENCH_GROW_SOLO, BENCH_GROW_SERVICE,
	};

	benchmark::RegisterBenchmark(case_name({"memory", bench_sys_name(sys)}, n).c_str(),
				     BM_memory, sys, n)->Iterations(1);
	benchmark::RegisterBenchmark(case_name({"remove", bench_sys_name(sys)}, n).c_str(),
				     BM_remove, sys, n)
		->UseManualTime()->Iterations(table_iterations(n))->Unit(benchmark::kMillisecond);
	for (int bulk = 0; bulk <= 1; bulk++) {
		/* only rte_rhashtable has a bulk insert */
		if (bulk && sys != BENCH_SYS_RHT)
			continue;
		for (bench_sizing z : sizings) {
			if (!bench_sys_has_sizing(sys, z))
				continue;
			std::string sizing = std::string(sizing_name(z)) + (bulk ? "_bulk32" : "");

			benchmark::RegisterBenchmark(
				case_name({"insert", bench_sys_name(sys), sizing}, n).c_str(),
				BM_insert, sys, z, n, bulk != 0)
				->UseManualTime()->Iterations(table_iterations(n))
				->Unit(benchmark::kMillisecond);
		}
	}
}

/* Size by size, system by system, so that one table is alive at a time and
 * each is built once for all its lookup cases.
 */
void
register_all()
{
	for (uint32_t n : table_sizes()) {
		for (int s = 0; s < BENCH_SYS_MAX; s++) {
			auto sys = static_cast<bench_sys>(s);

			/* design probes: lookups only, when asked */
			if (bench_sys_is_probe(sys)) {
				if (opt.probes)
					register_lookups(sys, n);
				continue;
			}
			register_lookups(sys, n);
			register_contend(sys, n);
			register_writes(sys, n);
		}
		benchmark::RegisterBenchmark(case_name({"limit", "batch32"}, n).c_str(),
					     BM_limit, 1, n)
			->UseRealTime()->MinTime(min_time())->Repetitions(repetitions())
			->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(case_name({"limit", "dep2"}, n).c_str(),
					     BM_limit, 2, n)
			->UseRealTime()->MinTime(min_time())->Repetitions(repetitions())
			->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(case_name({"limit", "chase"}, n).c_str(),
					     BM_limit, 0, n)
			->UseRealTime()->MinTime(min_time())->Repetitions(repetitions())
			->Unit(benchmark::kMillisecond);
	}
	for (int bulk = 0; bulk <= 1; bulk++)
		for (uint32_t pct : {1u, 50u, 99u})
			benchmark::RegisterBenchmark(
				case_name({"frozen", "rhashtable", bulk ? "bulk32" : "single"},
					  pct).c_str(), BM_frozen, bulk, pct)
				->Iterations(1)->Repetitions(repetitions())
				->Unit(benchmark::kMillisecond);
	for (uint32_t mib : {1u, 2u, 4u, 8u, 16u, 32u, 64u})
		benchmark::RegisterBenchmark(("latency/chase/" + std::to_string(mib)).c_str(),
					     BM_latency, mib, false)
			->UseRealTime()->MinTime(min_time())->Repetitions(repetitions())
			->Unit(benchmark::kMillisecond);
	for (uint32_t mib : {4u, 16u, 32u, 64u, 256u})
		benchmark::RegisterBenchmark(("latency/pages/" + std::to_string(mib)).c_str(),
					     BM_latency, mib, true)
			->UseRealTime()->MinTime(min_time())->Repetitions(repetitions())
			->Unit(benchmark::kMillisecond);
	for (uint32_t mib : {16u, 64u})
		for (uint32_t width : {1u, 4u, 8u, 16u, 32u, 64u})
			benchmark::RegisterBenchmark(("latency/window/w" + std::to_string(width) + "/" +
						      std::to_string(mib)).c_str(),
						     BM_window, mib, width)
				->UseRealTime()->MinTime(min_time())->Repetitions(repetitions())
				->Unit(benchmark::kMillisecond);
	for (int bulk = 0; bulk <= 1; bulk++)
		benchmark::RegisterBenchmark(
			case_name({"resize", "rhashtable", bulk ? "bulk32" : "single"}, Mi).c_str(),
			BM_resize, bulk)
			->Iterations(1)->Repetitions(repetitions())
			->Unit(benchmark::kMillisecond);
}

/* Our own flags are removed from args; EAL args are what follows "--". */
void
split_args(int argc, char **argv, std::vector<char *> &bench_args,
	   std::vector<char *> &eal_args)
{
	const char *env = std::getenv("RHT_BENCH_MODE");
	int i;

	if (env != nullptr && std::strcmp(env, "short") == 0)
		opt.mode = Mode::Short;
	else if (env != nullptr && std::strcmp(env, "long") == 0)
		opt.mode = Mode::Long;
	bench_args.push_back(argv[0]);
	eal_args.push_back(argv[0]);
	for (i = 1; i < argc && std::strcmp(argv[i], "--") != 0; i++) {
		if (std::strcmp(argv[i], "--short") == 0)
			opt.mode = Mode::Short;
		else if (std::strcmp(argv[i], "--long") == 0)
			opt.mode = Mode::Long;
		else if (std::strncmp(argv[i], "--trace_out=", 12) == 0)
			opt.trace_out = argv[i] + 12;
		else if (std::strcmp(argv[i], "--probes") == 0)
			opt.probes = true;
		else
			bench_args.push_back(argv[i]);
	}
	for (i++; i < argc; i++)
		eal_args.push_back(argv[i]);
}

void
default_eal_args(std::vector<char *> &eal_args)
{
	static std::string prefix = "--file-prefix=rht-bench-" + std::to_string(getpid());
	static char no_pci[] = "--no-pci", l[] = "-l", cores[] = "0-1";

	eal_args.push_back(no_pci);
	eal_args.push_back(l);
	eal_args.push_back(cores);
	eal_args.push_back(&prefix[0]);
}

void
add_context()
{
	benchmark::AddCustomContext("rht_mode", mode_name());
	benchmark::AddCustomContext("rht_eal_args", bench_eal_args());
	benchmark::AddCustomContext("rht_hugepages", bench_no_huge() ? "no (--no-huge)" : "yes");
	for (int s = 0; s < BENCH_SYS_MAX; s++) {
		auto sys = static_cast<bench_sys>(s);

		if (!bench_sys_is_probe(sys) || opt.probes)
			benchmark::AddCustomContext(std::string("rht_note_") + bench_sys_name(sys),
						    bench_sys_note(sys));
	}
	benchmark::AddCustomContext("rht_note_lookup",
		"each lookup case: bursts of 32 keys from a 4Mi-key stream, a quiescent "
		"state reported after every burst, a field of every flow found read");
	benchmark::AddCustomContext("rht_note_limit",
		"limit/batch32: random 64 B line reads, 32 prefetched then read per batch, "
		"the next batch depending on the data; limit/dep2: the same with two dependent "
		"reads per item (a first line, then the line it points to), as a bulk hit reads "
		"a bucket then its object; limit/chase: one dependent read at a "
		"time; buffer = rte_rhashtable working set at that size");
}

} /* namespace */

int
main(int argc, char **argv)
{
	std::vector<char *> bench_args, eal_args;

	split_args(argc, argv, bench_args, eal_args);
	if (eal_args.size() == 1)
		default_eal_args(eal_args);
	int bench_argc = static_cast<int>(bench_args.size());
	bench_args.push_back(nullptr);
	benchmark::Initialize(&bench_argc, bench_args.data());
	if (benchmark::ReportUnrecognizedArguments(bench_argc, bench_args.data()))
		return 1;

	int eal_argc = static_cast<int>(eal_args.size());
	eal_args.push_back(nullptr);
	if (bench_init(eal_argc, eal_args.data(), eal_mem_mb()) != 0)
		return 1;
	add_context();
	register_all();
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	bench_fini();
	if (!failure.empty()) {
		std::fprintf(stderr, "dpdk-rhashtable-bench: failed: %s\n", failure.c_str());
		return 1;
	}
	return 0;
}
