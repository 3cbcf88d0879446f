/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <arpa/inet.h>

#include "flowgen_model.h"
#include "flowgen_pkt.h"

/*
 * Population export (devargs em_rules and pcap): at port start, the flows
 * the RX queues are about to generate are written out, as l3fwd exact-match
 * rules and as a capture of one frame per flow, so that other programs run
 * on exactly this traffic (devtools/l3fwd-bench.sh). Both are computed by
 * the generator's own code: the same slots, generations and frame builder.
 */

/* The 64 bits of every flow of the population, queue after queue. */
static uint64_t *
flowgen_population_bits(struct rte_eth_dev *dev, uint64_t *nb)
{
	const struct flowgen_rxq *q;
	uint64_t *bits, n = 0;
	uint32_t s, gen;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++)
		n += ((const struct flowgen_rxq *)dev->data->rx_queues[i])->nb_flows;
	bits = malloc(sizeof(*bits) * RTE_MAX(n, UINT64_C(1)));
	if (bits == NULL)
		return NULL;
	*nb = 0;
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		q = dev->data->rx_queues[i];
		for (s = 0; s < q->nb_flows; s++) {
			flowgen_gens(q, &s, &gen, 1);
			bits[(*nb)++] = flowgen_slot_bits(q, s, gen);
		}
	}
	return bits;
}

/* One l3fwd EM rule: R<dst> <src> <dport> <sport> <proto> <out port>. */
static int
flowgen_em_rule_write(FILE *f, const struct pmd_internals *pi, uint64_t v, uint16_t port)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	struct flowgen_tuple t;
	rte_be32_t a4;
	int proto;

	flowgen_tuple_make(pi->opt.ipv6, v, &t);
	proto = flowgen_flow_tmpl(pi->opt.proto, v) == FLOWGEN_TMPL_TCP ? IPPROTO_TCP :
		IPPROTO_UDP;
	if (pi->opt.ipv6) {
		inet_ntop(AF_INET6, t.src6, src, sizeof(src));
		inet_ntop(AF_INET6, t.dst6, dst, sizeof(dst));
	} else {
		a4 = rte_cpu_to_be_32(t.src4);
		inet_ntop(AF_INET, &a4, src, sizeof(src));
		a4 = rte_cpu_to_be_32(t.dst4);
		inet_ntop(AF_INET, &a4, dst, sizeof(dst));
	}
	return fprintf(f, "R%s %s %u %u %d %u\n", dst, src, t.dport, t.sport, proto, port) < 0 ?
		-EIO : 0;
}

/* Seeded Fisher-Yates shuffle: a capture replays its flows in random order. */
static void
flowgen_shuffle(uint64_t *bits, uint64_t n, uint64_t seed)
{
	uint64_t rng = flowgen_mix64(seed ^ 0x70636170) | 1, i, j, tmp;

	for (i = n; i > 1; i--) {
		j = flowgen_rand(&rng) % i;
		tmp = bits[i - 1];
		bits[i - 1] = bits[j];
		bits[j] = tmp;
	}
}

/* pcap file and record headers (libpcap format 2.4, Ethernet, microseconds) */
struct flowgen_pcap_hdr {
	uint32_t magic;
	uint16_t major;
	uint16_t minor;
	int32_t zone;
	uint32_t sigfigs;
	uint32_t snaplen;
	uint32_t linktype;
};

struct flowgen_pcap_rec {
	uint32_t sec;
	uint32_t usec;
	uint32_t caplen;
	uint32_t len;
};

/* Every frame built by the RX path itself, into one mbuf of queue 0's pool. */
static int
flowgen_pcap_frames_write(FILE *f, struct flowgen_rxq *q, const uint64_t *bits, uint64_t n)
{
	struct flowgen_pcap_rec rec = { .caplen = q->pkt_size, .len = q->pkt_size };
	struct rte_mbuf *m = rte_pktmbuf_alloc(q->mp);
	uint64_t i;
	int ret = 0;

	if (m == NULL)
		return -ENOMEM;
	for (i = 0; i < n && ret == 0; i++) {
		flowgen_build(q, m, bits[i], q->pi->opt.ipv6);
		rec.sec = i / 1000000;
		rec.usec = i % 1000000;
		if (fwrite(&rec, sizeof(rec), 1, f) != 1 ||
		    fwrite(rte_pktmbuf_mtod(m, void *), q->pkt_size, 1, f) != 1)
			ret = -EIO;
	}
	rte_pktmbuf_free(m);
	return ret;
}

static int
flowgen_pcap_write(FILE *f, struct rte_eth_dev *dev, uint64_t *bits, uint64_t n)
{
	const struct pmd_internals *pi = dev->data->dev_private;
	const struct flowgen_pcap_hdr hdr = {
		.magic = 0xa1b2c3d4, .major = 2, .minor = 4,
		.snaplen = FLOWGEN_PKT_SIZE_MAX, .linktype = 1,
	};

	if (fwrite(&hdr, sizeof(hdr), 1, f) != 1)
		return -EIO;
	flowgen_shuffle(bits, n, pi->opt.seed);
	return flowgen_pcap_frames_write(f, dev->data->rx_queues[0], bits, n);
}

static int
flowgen_em_rules_write(FILE *f, struct rte_eth_dev *dev, uint64_t *bits, uint64_t n)
{
	uint64_t i;
	int ret = 0;

	for (i = 0; i < n && ret == 0; i++)
		ret = flowgen_em_rule_write(f, dev->data->dev_private, bits[i],
					    dev->data->port_id);
	return ret;
}

typedef int (*flowgen_export_fn)(FILE *f, struct rte_eth_dev *dev, uint64_t *bits,
		uint64_t n);

static int
flowgen_export_one(struct rte_eth_dev *dev, const char *path, flowgen_export_fn fn,
		const char *what)
{
	uint64_t *bits, n = 0;
	FILE *f;
	int ret;

	if (path[0] == '\0')
		return 0;
	bits = flowgen_population_bits(dev, &n);
	if (bits == NULL)
		return -ENOMEM;
	f = fopen(path, "w");
	if (f == NULL) {
		ret = -errno;
		FLOWGEN_LOG(ERR, "cannot write %s %s: %s", what, path, strerror(errno));
		free(bits);
		return ret;
	}
	ret = fn(f, dev, bits, n);
	if (fclose(f) != 0 && ret == 0)
		ret = -EIO;
	free(bits);
	if (ret != 0)
		FLOWGEN_LOG(ERR, "writing %s %s: %s", what, path, strerror(-ret));
	else
		FLOWGEN_LOG(INFO, "wrote the %" PRIu64 " flows of port %u to %s %s", n,
			dev->data->port_id, what, path);
	return ret;
}

/* The population of the configured queues, as the devargs ask. */
int
flowgen_export(struct rte_eth_dev *dev)
{
	const struct pmd_internals *pi = dev->data->dev_private;
	int ret;

	if (dev->data->nb_rx_queues == 0 || dev->data->rx_queues[0] == NULL)
		return 0;
	ret = flowgen_export_one(dev, pi->opt.em_rules, flowgen_em_rules_write,
			"l3fwd EM rules");
	if (ret == 0)
		ret = flowgen_export_one(dev, pi->opt.pcap, flowgen_pcap_write, "pcap");
	return ret;
}
