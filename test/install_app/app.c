/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Out-of-tree user of the installed librte_rhashtable: built by
 * test/test_install.sh with nothing but pkg-config. Prints
 * "rhashtable install OK: <count> <value>" on success.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include <rte_rhashtable.h>

struct flow {
	uint32_t key;
	uint32_t value;
	struct rte_rhash_head node;
};

static int
use_table(void)
{
	struct rte_rhashtable_params p = {
		.name = "install_app",
		.socket_id = SOCKET_ID_ANY,
		.key_len = sizeof(uint32_t),
		.key_offset = offsetof(struct flow, key),
		.head_offset = offsetof(struct flow, node),
	};
	struct flow f = { .key = 7, .value = 42 };
	struct rte_rhashtable *ht;
	struct flow *found;
	uint32_t key = 7;

	ht = rte_rhashtable_create(&p);
	if (ht == NULL) {
		printf("create failed: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	if (rte_rhashtable_insert(ht, &f.node) != 0) {
		printf("insert failed\n");
		rte_rhashtable_free(ht);
		return -1;
	}
	found = rte_rhashtable_lookup(ht, &key);
	printf("rhashtable install %s: %u %u\n", found == &f ? "OK" : "FAILED",
	       rte_rhashtable_count(ht), found != NULL ? found->value : 0);
	rte_rhashtable_free(ht);
	return found == &f ? 0 : -1;
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
