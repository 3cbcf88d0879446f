/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <rte_malloc.h>

#include "flowgen_model.h"
#include "flowgen_rss.h"

/*
 * The first generation, from gen on, whose flow RSS steers to this queue, so
 * that a queue generates only its own flows. With one queue, gen itself.
 */
static uint32_t
flowgen_gen_find(const struct flowgen_rxq *q, uint32_t slot, uint32_t gen)
{
	while (flowgen_rss_queue(flowgen_rss(q->rss_tab, flowgen_slot_bits(q, slot, gen)),
			q->nb_queues) != q->queue_id)
		gen++;
	return gen;
}

/* Build the alias table of a zipf(s) popularity over ranks 0..n-1 (Vose). */
static int
flowgen_alias_build(struct flowgen_alias *tab, uint32_t n, double s)
{
	double *p = malloc(sizeof(*p) * n);
	uint32_t *small = malloc(sizeof(*small) * n);
	uint32_t *large = malloc(sizeof(*large) * n);
	uint32_t k, ns = 0, nl = 0;
	double sum = 0.0;
	int ret = -ENOMEM;

	if (p == NULL || small == NULL || large == NULL)
		goto out;
	for (k = 0; k < n; k++) {
		p[k] = pow((double)k + 1.0, -s);
		sum += p[k];
	}
	/* scale so that the mean is 1: a slot keeps its own mass p, lends 1 - p */
	for (k = 0; k < n; k++) {
		p[k] = p[k] * n / sum;
		if (p[k] < 1.0)
			small[ns++] = k;
		else
			large[nl++] = k;
	}
	while (ns > 0 && nl > 0) {
		uint32_t l = small[--ns];
		uint32_t g = large[nl - 1];

		tab[l].thresh = (uint32_t)(p[l] * 4294967296.0);
		tab[l].alias = g;
		p[g] -= 1.0 - p[l];
		if (p[g] < 1.0) {
			nl--;
			small[ns++] = g;
		}
	}
	/* what is left has mass 1 up to rounding: always keep the slot */
	while (nl > 0 || ns > 0) {
		k = nl > 0 ? large[--nl] : small[--ns];
		tab[k].thresh = UINT32_MAX;
		tab[k].alias = k;
	}
	ret = 0;
out:
	free(p);
	free(small);
	free(large);
	return ret;
}

void
flowgen_rxq_free(struct flowgen_rxq *q)
{
	if (q == NULL)
		return;
	rte_free(q->gen);
	rte_free(q->alias);
	rte_free(q);
}

/*
 * A generation table is needed with several queues: generation 0 of a slot
 * may hash to another queue, and so may the next one of a renewed slot.
 */
static int
flowgen_gen_create(struct flowgen_rxq *q, int socket_id)
{
	uint32_t s;

	if (q->nb_queues == 1)
		return 0;
	q->gen = rte_malloc_socket("flowgen_gen", sizeof(*q->gen) * q->nb_flows,
			RTE_CACHE_LINE_SIZE, socket_id);
	if (q->gen == NULL)
		return -ENOMEM;
	for (s = 0; s < q->nb_flows; s++)
		q->gen[s] = flowgen_gen_find(q, s, 0);
	return 0;
}

/* The queue's tables: its slots' generations, and the alias table. */
static int
flowgen_tables_create(struct flowgen_rxq *q, uint32_t nb_flows, int socket_id)
{
	const struct pmd_internals *pi = q->pi;
	int ret;

	q->nb_flows = nb_flows;
	if (nb_flows == 0)
		return 0;
	ret = flowgen_gen_create(q, socket_id);
	if (ret != 0 || pi->opt.zipf_s == 0.0)
		return ret;
	q->alias = rte_malloc_socket("flowgen_alias", sizeof(*q->alias) * nb_flows,
			RTE_CACHE_LINE_SIZE, socket_id);
	if (q->alias == NULL)
		return -ENOMEM;
	return flowgen_alias_build(q->alias, nb_flows, pi->opt.zipf_s);
}

/* Inverse of an odd number modulo 2^64 (Newton: each step doubles the good bits). */
static uint64_t
flowgen_odd_inverse(uint64_t a)
{
	uint64_t x = a;	/* right modulo 2^3 */
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

/*
 * One queue with churn renews its slots in a sweep: position p of the sweep
 * (over a power of two covering the slots) renews slot p * mul, modulo that
 * power of two, positions of no slot being skipped. Multiplying by an odd
 * number permutes the positions, and its inverse gives a slot's position
 * back, so a slot's generation is a function of the sweep's progress.
 */
static void
flowgen_sweep_init(struct flowgen_rxq *q)
{
	q->sweep_bits = 0;
	while ((UINT64_C(1) << q->sweep_bits) < q->nb_flows)
		q->sweep_bits++;
	q->sweep_mask = (UINT64_C(1) << q->sweep_bits) - 1;
	/* a seeded odd multiplier: each seed renews in another order */
	q->sweep_mul = flowgen_mix64(q->id_salt + 1) | 1;
	q->sweep_inv = flowgen_odd_inverse(q->sweep_mul);
	q->sweep = 0;
}

/* Packets until the next new flow: geometric with mean 1 / new_flow_rate. */
uint64_t
flowgen_churn_gap(struct flowgen_rxq *q)
{
	double u = (double)(flowgen_rand(&q->rng) >> 11) * 0x1.0p-53;
	double gap = log1p(-u) * q->churn_inv_log;

	if (gap > (double)(UINT64_C(1) << 62))
		return UINT64_C(1) << 62;
	return 1 + (uint64_t)gap;
}

/*
 * The slot a new flow takes. One queue: the slot the sweep renews next, the
 * sweep moving past it. Several queues: a uniformly chosen slot, taken to
 * its next generation of this queue's own.
 */
uint32_t
flowgen_renew(struct flowgen_rxq *q)
{
	uint64_t s;

	if (q->gen != NULL) {
		s = flowgen_below((uint32_t)flowgen_rand(&q->rng), q->nb_flows);
		q->gen[s] = flowgen_gen_find(q, s, q->gen[s] + 1);
		return s;
	}
	do {
		s = (q->sweep++ * q->sweep_mul) & q->sweep_mask;
	} while (s >= q->nb_flows);
	return (uint32_t)s;
}

/* Fill the pick pipeline before the first burst. */
static void
flowgen_pick_init(struct flowgen_rxq *q)
{
	uint32_t unused[FLOWGEN_AHEAD];
	unsigned int pos;

	/* a chunk must not use a ring position twice */
	RTE_BUILD_BUG_ON(FLOWGEN_AHEAD < FLOWGEN_CHUNK);
	if (q->alias != NULL)
		for (pos = 0; pos < FLOWGEN_AHEAD; pos++)
			flowgen_zipf_draw(q, pos);
	/* one turn moves the draws into ahead[], the hand-outs are dropped */
	if (q->gen != NULL)
		flowgen_pick(q, unused, FLOWGEN_AHEAD);
}

/* A queue's population of nb_flows slots, ready to generate from. */
int
flowgen_population_create(struct flowgen_rxq *q, uint32_t nb_flows, int socket_id)
{
	int ret = flowgen_tables_create(q, nb_flows, socket_id);

	if (ret != 0)
		return ret;
	if (nb_flows != 0)
		flowgen_pick_init(q);
	if (q->churn) {
		flowgen_sweep_init(q);
		q->churn_left = flowgen_churn_gap(q) - 1;
	}
	return 0;
}
