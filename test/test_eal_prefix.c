/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

/*
 * The --file-prefix that main() hands to EAL (rht_eal_file_prefix() of
 * common/): the run's tag (devtools/test.sh's RHT_EAL_TAG) is added once,
 * and a prefix too long for EAL's socket paths is shortened with the tag
 * kept, also when the prefix held it already: devtools/test.sh finds the
 * runtime directories a run left behind by that tag.
 * test/test_eal_prefix.py checks the same rule in the scripts' helpers.
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rht_eal_runtime.h"
#include "test.h"

#define PREFIX_TAG "r1234abcd5678ef"
#define PREFIX_NAME "flowpmd_vdevs_net_pcap_infinite"
/* with "/dpdk/", the prefix and "/dpdk_telemetry.v2", longer than sun_path */
#define PREFIX_DEEP_BASE "/tmp/dddddddddddddddddddddddddddddddddddddddddddddddddddd"

static bool
ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

/* The prefix rht_eal_file_prefix() makes of name and tag under base. */
static int
prefix_under(const char *base, const char *name, const char *tag, char *buf, size_t size)
{
	if (setenv("RUNTIME_DIRECTORY", base, 1) != 0)
		return -1;
	return rht_eal_file_prefix(buf, size, name, tag);
}

static int
test_eal_prefix(void)
{
	const char *saved = getenv("RUNTIME_DIRECTORY");
	char *restore = saved != NULL ? strdup(saved) : NULL;
	char buf[256];
	int ret = TEST_FAILED;

	if (saved != NULL && restore == NULL)
		return TEST_FAILED;
	/* short base: the name, then the tag once */
	if (prefix_under("/tmp/b", PREFIX_NAME, PREFIX_TAG, buf, sizeof(buf)) != 0 ||
	    strcmp(buf, PREFIX_NAME "_" PREFIX_TAG) != 0) {
		printf("short base, untagged name: %s\n", buf);
		goto out;
	}
	if (prefix_under("/tmp/b", PREFIX_NAME "_" PREFIX_TAG, PREFIX_TAG, buf,
			 sizeof(buf)) != 0 || strcmp(buf, PREFIX_NAME "_" PREFIX_TAG) != 0) {
		printf("short base, tagged name: %s\n", buf);
		goto out;
	}
	if (prefix_under("/tmp/b", PREFIX_NAME, NULL, buf, sizeof(buf)) != 0 ||
	    strcmp(buf, PREFIX_NAME) != 0) {
		printf("short base, no tag: %s\n", buf);
		goto out;
	}
	/* deep base: shortened, the tag kept in both cases */
	if (prefix_under(PREFIX_DEEP_BASE, PREFIX_NAME, PREFIX_TAG, buf, sizeof(buf)) != 0 ||
	    strncmp(buf, PREFIX_NAME, strlen(PREFIX_NAME)) == 0 ||
	    !ends_with(buf, "_" PREFIX_TAG)) {
		printf("deep base, untagged name: %s\n", buf);
		goto out;
	}
	if (prefix_under(PREFIX_DEEP_BASE, PREFIX_NAME "_" PREFIX_TAG, PREFIX_TAG, buf,
			 sizeof(buf)) != 0 || strncmp(buf, PREFIX_NAME, strlen(PREFIX_NAME)) == 0 ||
	    !ends_with(buf, "_" PREFIX_TAG)) {
		printf("deep base, tagged name: %s (the tag must stay)\n", buf);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (restore != NULL)
		setenv("RUNTIME_DIRECTORY", restore, 1);
	else
		unsetenv("RUNTIME_DIRECTORY");
	free(restore);
	return ret;
}

REGISTER_FAST_TEST(eal_prefix_autotest, true, true, test_eal_prefix);
