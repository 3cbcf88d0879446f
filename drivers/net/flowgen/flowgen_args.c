/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/* Devargs values, read into struct flowgen_options by a table of devargs. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_kvargs.h>

#include "flowgen_pvt.h"

const char * const flowgen_proto_names[FLOWGEN_PROTO_NUM] = {
	[FLOWGEN_PROTO_UDP] = "udp",
	[FLOWGEN_PROTO_TCP] = "tcp",
	[FLOWGEN_PROTO_MIX] = "mix",
};

static int
flowgen_val_uint(const char *value, void *field, const struct flowgen_devarg *a)
{
	unsigned long long v;
	uint32_t v32;
	char *end;

	if (*value == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(value, &end, 0);
	if (errno != 0 || *end != '\0' || v < a->min || v > a->max)
		return -EINVAL;
	v32 = v;
	if (a->size == sizeof(v32))
		memcpy(field, &v32, sizeof(v32));
	else
		*(uint64_t *)field = v;
	return 0;
}

static int
flowgen_val_double(const char *value, void *field, const struct flowgen_devarg *a)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno != 0 || *end != '\0' || !(v >= a->min && v <= a->max))
		return -EINVAL;
	*(double *)field = v;
	return 0;
}

/* A zipf exponent: "uniform" (0), "zipf" (1) or "zipf:<s>", 0 < s <= max. */
static int
flowgen_val_dist(const char *value, void *field, const struct flowgen_devarg *a)
{
	double *s = field;

	if (strcmp(value, "uniform") == 0)
		*s = 0.0;
	else if (strcmp(value, "zipf") == 0)
		*s = 1.0;
	else if (strncmp(value, "zipf:", 5) != 0 || value[5] == '\0' ||
			flowgen_val_double(value + 5, s, a) != 0 || *s == 0.0)
		return -EINVAL;
	return 0;
}

static int
flowgen_val_proto(const char *value, void *field, const struct flowgen_devarg *a __rte_unused)
{
	enum flowgen_proto p;

	for (p = 0; p < FLOWGEN_PROTO_NUM; p++) {
		if (strcmp(value, flowgen_proto_names[p]) == 0) {
			*(enum flowgen_proto *)field = p;
			return 0;
		}
	}
	return -EINVAL;
}

static int
flowgen_val_path(const char *value, void *field, const struct flowgen_devarg *a)
{
	if (strlen(value) >= a->size)
		return -EINVAL;
	strcpy(field, value);
	return 0;
}

typedef int (*flowgen_val_parse_t)(const char *value, void *field,
		const struct flowgen_devarg *a);

static const flowgen_val_parse_t flowgen_val_parsers[FLOWGEN_VAL_NUM] = {
	[FLOWGEN_VAL_UINT] = flowgen_val_uint,
	[FLOWGEN_VAL_DOUBLE] = flowgen_val_double,
	[FLOWGEN_VAL_DIST] = flowgen_val_dist,
	[FLOWGEN_VAL_PROTO] = flowgen_val_proto,
	[FLOWGEN_VAL_PATH] = flowgen_val_path,
};

struct flowgen_arg_ctx {
	const struct flowgen_devarg *arg;
	struct flowgen_options *opt;
};

/* rte_kvargs_process() handler: one value of the context's devarg. */
static int
flowgen_arg_handle(const char *key __rte_unused, const char *value, void *opaque)
{
	const struct flowgen_arg_ctx *c = opaque;

	if (value == NULL || *value == '\0')
		return -EINVAL;
	return flowgen_val_parsers[c->arg->type](value, RTE_PTR_ADD(c->opt, c->arg->offset),
		c->arg);
}

/*
 * Parse a device's devargs into o: keys is the NULL-terminated list of the
 * valid ones, args their table, ended by a NULL key.
 */
int
flowgen_args_parse(const char *params, const struct flowgen_devarg *args,
		const char * const *keys, struct flowgen_options *o)
{
	struct flowgen_arg_ctx c = { .opt = o };
	struct rte_kvargs *kvlist;
	int ret = 0;

	if (params == NULL || *params == '\0')
		return 0;
	kvlist = rte_kvargs_parse(params, keys);
	if (kvlist == NULL) {
		FLOWGEN_LOG(ERR, "cannot parse arguments \"%s\"", params);
		return -EINVAL;
	}
	for (c.arg = args; c.arg->key != NULL; c.arg++) {
		if (rte_kvargs_process(kvlist, c.arg->key, flowgen_arg_handle, &c) != 0) {
			FLOWGEN_LOG(ERR, "bad value for %s", c.arg->key);
			ret = -EINVAL;
			break;
		}
	}
	rte_kvargs_free(kvlist);
	return ret;
}
