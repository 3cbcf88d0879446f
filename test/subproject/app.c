/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * A user program of rte_rhashtable, built against it as a meson subproject
 * (test_subproject.sh), installed (test_install.sh) and packaged
 * (test_debian_pkg.sh); prints "rhashtable app OK: <count> <found>
 * <version>" when a table works. Run with EAL arguments, e.g.
 * --no-huge -m 64 --no-pci --no-shconf: it has no --no-huge fallback.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include <rte_rhashtable.h>
#include <rte_rhashtable_config.h>

#define APP_N_FLOWS 1000

struct flow {
	uint64_t key;
	uint32_t value;
	struct rte_rhash_head node;
};

static struct flow flows[APP_N_FLOWS];

/* Insert every flow, then find each one; the count of flows found. */
static uint32_t
fill_and_find(struct rte_rhashtable *ht)
{
	uint32_t i, found = 0;

	for (i = 0; i < APP_N_FLOWS; i++) {
		flows[i].key = UINT64_C(0x1000000000) + i;
		flows[i].value = i * 3;
		if (rte_rhashtable_insert(ht, &flows[i].node) != 0)
			return 0;
	}
	for (i = 0; i < APP_N_FLOWS; i++) {
		const struct flow *f = rte_rhashtable_lookup(ht, &flows[i].key);

		found += f == &flows[i] && f->value == i * 3;
	}
	return found;
}

static int
use_table(void)
{
	struct rte_rhashtable_params p = {
		.name = "subproject_app",
		.socket_id = SOCKET_ID_ANY,
		.key_len = sizeof(uint64_t),
		.key_offset = offsetof(struct flow, key),
		.head_offset = offsetof(struct flow, node),
	};
	struct rte_rhashtable *ht;
	uint32_t found;

	ht = rte_rhashtable_create(&p);
	if (ht == NULL) {
		printf("create failed: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	found = fill_and_find(ht);
	printf("rhashtable app %s: %u %u %s\n",
	       found == APP_N_FLOWS ? "OK" : "FAILED", rte_rhashtable_count(ht),
	       found, RTE_RHT_VERSION);
	rte_rhashtable_free(ht);
	return found == APP_N_FLOWS ? 0 : -1;
}

int
main(int argc, char **argv)
{
	int ret;

	if (rte_eal_init(argc, argv) < 0) {
		printf("rte_eal_init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	ret = use_table();
	rte_eal_cleanup();
	return ret == 0 ? 0 : 1;
}
