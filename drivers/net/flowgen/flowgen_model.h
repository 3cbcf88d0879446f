/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#ifndef _FLOWGEN_MODEL_H_
#define _FLOWGEN_MODEL_H_

/*
 * The traffic model: which flow each packet belongs to.
 *  - Flow id -> 64 bits by a bijective mix (distinct ids, distinct tuples);
 *    flowgen_pkt.h turns the bits into header fields.
 *  - Each queue owns slots, one flow per slot. Slot s of queue q holds flow
 *    id s * nb_queues + q + g * lines in its generation g; a new flow (churn)
 *    is the next generation of a slot. With several queues a slot skips the
 *    generations whose RSS hash lands on another queue, so the queue keeps a
 *    table of generations. One queue keeps none: without churn every slot is
 *    in generation 0, and with churn the slots are renewed in the order of a
 *    fixed permutation, so a slot's generation is computed from the number
 *    of renewals so far. Either way no per-flow memory is read.
 *  - Popularity picks a slot: uniformly (one random number, a multiply-high
 *    reduction), or by zipf rank with an alias table (rank = slot).
 * Table entries (alias, generation) are random reads: they are prefetched a
 * burst ahead of use.
 */

#include <string.h>

#include <rte_prefetch.h>

#include "flowgen_pvt.h"

/* Uniform value below n from 32 random bits (multiply-shift, no division). */
static inline uint32_t
flowgen_below(uint32_t r, uint32_t n)
{
	return (uint32_t)(((uint64_t)r * n) >> 32);
}

/* The seed's term of a flow's mix: each seed gives another population. */
static inline uint64_t
flowgen_id_salt(uint64_t seed)
{
	return seed * 0x9e3779b97f4a7c15ULL;
}

/*
 * A flow's 64 bits, from which its header fields are taken, from the flow id
 * of a slot in its generation: slot s of queue q owns the ids
 * s * nb_queues + q + g * lines, lines being nb_queues times the largest
 * share, so that no two slots of the port share an id.
 */
static inline uint64_t
flowgen_slot_bits(const struct flowgen_rxq *q, uint32_t slot, uint32_t gen)
{
	uint64_t id = (uint64_t)slot * q->nb_queues + q->queue_id + gen * q->lines;

	return flowgen_mix64(id + q->id_salt);
}

/* Zipf: draw a slot and its alias decision bits; the entry is read a ring turn later. */
static inline void
flowgen_zipf_draw(struct flowgen_rxq *q, unsigned int pos)
{
	uint64_t r = flowgen_rand(&q->rng);

	q->pre_slot[pos] = flowgen_below((uint32_t)r, q->nb_flows);
	q->pre_hi[pos] = (uint32_t)(r >> 32);
	rte_prefetch0(&q->alias[q->pre_slot[pos]]);
}

/* Zipf: resolve the draw of a ring position, then draw anew there. */
static inline uint32_t
flowgen_zipf_next(struct flowgen_rxq *q, unsigned int pos)
{
	const struct flowgen_alias *a = &q->alias[q->pre_slot[pos]];
	uint32_t slot = q->pre_hi[pos] < a->thresh ? q->pre_slot[pos] : a->alias;

	flowgen_zipf_draw(q, pos);
	return slot;
}

/*
 * Choose the slot of each packet of a chunk. Table reads are pipelined over
 * bursts on a ring of positions: with zipf a position resolves the alias
 * entry it prefetched a turn ago; with a generation table it hands out the
 * slot it chose (and whose entry it prefetched) a turn ago.
 */
static inline void
flowgen_pick(struct flowgen_rxq *q, uint32_t *slot, unsigned int n)
{
	unsigned int i, pos;
	uint32_t s;

	for (i = 0; i < n; i++) {
		pos = (q->ring_head + i) % FLOWGEN_AHEAD;
		if (q->alias != NULL)
			s = flowgen_zipf_next(q, pos);
		else
			s = flowgen_below((uint32_t)flowgen_rand(&q->rng), q->nb_flows);
		if (q->gen == NULL) {
			slot[i] = s;
			continue;
		}
		slot[i] = q->ahead[pos];
		q->ahead[pos] = s;
		rte_prefetch0(&q->gen[s]);
	}
	q->ring_head = (q->ring_head + n) % FLOWGEN_AHEAD;
}

/*
 * One queue: a slot's generation is the number of sweeps completed, plus
 * one when the current sweep has passed the slot's position.
 */
static inline uint32_t
flowgen_sweep_gen(const struct flowgen_rxq *q, uint32_t slot)
{
	uint64_t pos = ((uint64_t)slot * q->sweep_inv) & q->sweep_mask;

	return (uint32_t)((q->sweep >> q->sweep_bits) + (pos < (q->sweep & q->sweep_mask)));
}

uint32_t flowgen_renew(struct flowgen_rxq *q);
uint64_t flowgen_churn_gap(struct flowgen_rxq *q);

/*
 * New flows due in this chunk each take a slot to its next generation, and
 * the packet is the new flow's first.
 */
static inline void
flowgen_churn(struct flowgen_rxq *q, uint32_t *slot, unsigned int n)
{
	if (!q->churn)
		return;
	while (q->churn_left < n) {
		slot[q->churn_left] = flowgen_renew(q);
		q->churn_left += flowgen_churn_gap(q);
	}
	q->churn_left -= n;
}

/*
 * The generations of the chunk's slots, in a loop of their own. From a table
 * the loads are independent, so those the prefetch did not cover in time
 * overlap instead of each stalling a frame build. One queue computes them
 * and reads no table at all.
 */
static inline void
flowgen_gens(const struct flowgen_rxq *q, const uint32_t *slot, uint32_t *gen,
		unsigned int n)
{
	unsigned int i;

	if (q->gen != NULL) {
		for (i = 0; i < n; i++)
			gen[i] = q->gen[slot[i]];
	} else if (q->churn) {
		for (i = 0; i < n; i++)
			gen[i] = flowgen_sweep_gen(q, slot[i]);
	} else {
		memset(gen, 0, sizeof(*gen) * n);
	}
}

int flowgen_population_create(struct flowgen_rxq *q, uint32_t nb_flows, int socket_id);
void flowgen_rxq_free(struct flowgen_rxq *q);

#endif /* _FLOWGEN_MODEL_H_ */
