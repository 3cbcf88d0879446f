/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * What memory allows: random cache-line reads over a buffer as large as
 * rte_rhashtable's working set, (a) in batches of BENCH_BURST lines all
 * prefetched before any is read, like a bulk lookup that reads one line a
 * key (a miss), (b) the same with two dependent reads a key, a first line
 * then the line it points to, like a bulk hit (bucket, then object), and
 * (c) one dependent read at a time (pointer chasing over a single random
 * cycle), like a chain of misses no prefetch can hide. Every table rate can then be shown as a
 * fraction of these.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_prefetch.h>

#include "bench_peer.h"

#define LINE 64

/* Each line starts with the index of the next line of the chase cycle. */
struct probe_line {
	uint64_t next;
	uint64_t pad[LINE / 8 - 1];
};

static struct probe_line *lines;
static uint64_t nlines;
static uint64_t chase_pos;
static uint64_t batch_state = 0x13198a2e03707344ULL;

/* Uniform index below nlines without a division. */
static inline uint64_t
line_index(uint64_t r)
{
	return (uint64_t)(((unsigned __int128)r * nlines) >> 64);
}

/*
 * Sattolo's shuffle: i -> perm[i] is one cycle through every item, so the
 * chase never settles into a short, cache-resident loop. Item i is line
 * i * stride, or, with stride > 1, a random line of the stride lines from
 * there (so that the lines used spread over every cache set).
 */
static int
build_cycle(uint64_t stride)
{
	uint64_t items = nlines / stride;
	uint32_t *perm = malloc(sizeof(*perm) * items);
	uint64_t *line = malloc(sizeof(*line) * items);
	uint64_t i, j, rng = 0xa4093822299f31d0ULL;
	uint32_t t;
	int rc = 0;

	if (perm == NULL || line == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < items; i++) {
		perm[i] = (uint32_t)i;
		line[i] = i * stride + (stride > 1 ? bench_rand64(&rng) % stride : 0);
	}
	for (i = items - 1; i > 0; i--) {
		j = (uint64_t)(((unsigned __int128)bench_rand64(&rng) * i) >> 64);
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < items; i++)
		lines[line[i]].next = line[perm[i]];
	chase_pos = line[0];
out:
	free(perm);
	free(line);
	return rc;
}

int
bench_limit_setup(uint32_t n, uint64_t *bytes)
{
	*bytes = RTE_ALIGN_CEIL(bench_rht_working_set(n), LINE);
	return bench_limit_setup_bytes(*bytes);
}

void
bench_limit_release(void)
{
	rte_free(lines);
	lines = NULL;
	nlines = 0;
}

/* The probe buffer, want bytes, its chase cycle through one line of every stride. */
static int
limit_setup(uint64_t want, uint64_t stride)
{
	static uint64_t cycle_stride;
	int rc;

	want = RTE_ALIGN_CEIL(want, LINE);
	if (lines != NULL && nlines * LINE == want && cycle_stride == stride)
		return 0;
	/* the tables' memory is needed here */
	bench_release();
	bench_limit_release();
	nlines = want / LINE;
	if (nlines < 2 * stride || nlines > UINT32_MAX)
		return -EINVAL;
	/* the same heap as the tables, so the same page size */
	lines = rte_malloc("bench_limit", want, LINE);
	if (lines == NULL)
		return -ENOMEM;
	rc = build_cycle(stride);
	cycle_stride = rc == 0 ? stride : 0;
	return rc;
}

int
bench_limit_setup_bytes(uint64_t want)
{
	return limit_setup(want, 1);
}

int
bench_limit_setup_pages(uint64_t want)
{
	return limit_setup(want, BENCH_PAGE_BYTES / LINE);
}

/* Pick a batch of width random lines and prefetch them all. */
static inline void
batch_pick(uint64_t *s, const struct probe_line *l[], uint32_t width)
{
	uint32_t j;

	for (j = 0; j < width; j++) {
		l[j] = &lines[line_index(bench_rand64(s))];
		rte_prefetch0(l[j]);
	}
}

/* Read every line of a batch; the sum feeds the next batch's addresses. */
static inline uint64_t
batch_read(const struct probe_line *const l[], uint32_t width)
{
	uint64_t acc = 0;
	uint32_t j;

	for (j = 0; j < width; j++)
		acc += l[j]->next;
	return acc;
}

uint64_t
bench_limit_batch_run(uint64_t batches)
{
	const struct probe_line *l[BENCH_BURST];
	uint64_t s = batch_state, b;

	for (b = 0; b < batches; b++) {
		batch_pick(&s, l, BENCH_BURST);
		/* the next batch depends on this one's data, as the next burst
		 * of lookups depends on the previous one finishing
		 */
		s ^= batch_read(l, BENCH_BURST) & 1;
	}
	batch_state = s;
	return batches * BENCH_BURST;
}

uint64_t
bench_limit_dep2_run(uint64_t batches)
{
	const struct probe_line *l[BENCH_BURST];
	uint64_t s = batch_state, b;
	unsigned int j;

	for (b = 0; b < batches; b++) {
		batch_pick(&s, l, BENCH_BURST);
		/* the second line's address comes from the first line, as an
		 * object's address comes from its bucket
		 */
		for (j = 0; j < BENCH_BURST; j++) {
			l[j] = &lines[l[j]->next];
			rte_prefetch0(l[j]);
		}
		s ^= batch_read(l, BENCH_BURST) & 1;
	}
	batch_state = s;
	return batches * BENCH_BURST;
}

uint64_t
bench_limit_window_run(uint64_t batches, uint32_t width)
{
	const struct probe_line *l[BENCH_WINDOW_MAX];
	uint64_t s = batch_state, b;

	width = RTE_MIN(RTE_MAX(width, 1U), (uint32_t)BENCH_WINDOW_MAX);
	for (b = 0; b < batches; b++) {
		batch_pick(&s, l, width);
		s ^= batch_read(l, width) & 1;
	}
	batch_state = s;
	return batches * width;
}

uint64_t
bench_limit_chase_run(uint64_t steps)
{
	uint64_t pos = chase_pos, i;

	for (i = 0; i < steps; i++)
		pos = lines[pos].next;
	chase_pos = pos;
	return steps;
}
