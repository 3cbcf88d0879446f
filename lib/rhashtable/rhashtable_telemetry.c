/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * Telemetry: /rhashtable/list gives the table names, /rhashtable/info,<name>
 * the counters of rte_rhashtable_stats_get() (dpdk-telemetry.py shows them).
 */

#include <errno.h>
#include <string.h>

#include <rte_telemetry.h>

#include "rhashtable_compat.h"
#include "rhashtable_debug.h"
#include "rhashtable_pvt.h"

static void
add_name(const struct rte_rhashtable *ht, void *arg)
{
	rte_tel_data_add_array_string(arg, ht->name);
}

static int
telemetry_list(const char *cmd __rte_unused, const char *params __rte_unused,
	       struct rte_tel_data *d)
{
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	__rte_rht_foreach_table(add_name, d);
	return 0;
}

static void
add_stats(struct rte_tel_data *d, const struct rte_rhashtable *ht,
	  const struct rte_rhashtable_stats *s)
{
	const struct rht_stat_field *f;
	unsigned int i;

	rte_tel_data_add_dict_string(d, "name", ht->name);
	rte_tel_data_add_dict_string(d, "type", ht->rhlist ? "rhltable" : "rhashtable");
	for (i = 0; i < RTE_DIM(rht_stat_fields); i++) {
		f = &rht_stat_fields[i];
		if (f->kind == RHT_STAT_INT)
			rte_tel_data_add_dict_int(d, f->name, (int)rht_stat_value(s, f));
		else
			rte_tel_data_add_dict_uint(d, f->name, rht_stat_value(s, f));
	}
	rte_tel_data_add_dict_uint(d, "key_len", ht->core.key_len);
	rte_tel_data_add_dict_uint(d, "max_size", ht->max_size);
	rte_tel_data_add_dict_uint(d, "min_size", ht->min_size);
	rte_tel_data_add_dict_int(d, "automatic_shrinking", ht->automatic_shrinking);
	rte_tel_data_add_dict_int(d, "rcu", ht->rcu.v != NULL);
	rte_tel_data_add_dict_int(d, "single_writer", ht->single_writer);
	/* a single-writer table has no service */
	if (!ht->single_writer)
		rte_tel_data_add_dict_uint(d, "service_id", ht->service_id);
}

/* Runs under the tailq read lock: see __rte_rht_with_table(). */
static int
info_of(const struct rte_rhashtable *ht, void *d)
{
	struct rte_rhashtable_stats s;

	if (rte_rhashtable_stats_get(ht, &s) != 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	add_stats(d, ht, &s);
	return 0;
}

static int
telemetry_info(const char *cmd __rte_unused, const char *params, struct rte_tel_data *d)
{
	if (params == NULL || params[0] == '\0')
		return -EINVAL;
	/* the table must not be freed while we read it */
	return __rte_rht_with_table(params, info_of, d) == 0 ? 0 : -EINVAL;
}

RTE_INIT(rhashtable_telemetry_init)
{
	rte_telemetry_register_cmd("/rhashtable/list", telemetry_list,
		"Returns the names of the rte_rhashtable tables. Takes no parameters");
	rte_telemetry_register_cmd("/rhashtable/info", telemetry_info,
		"Returns the counters of one table. Parameters: table name");
}
