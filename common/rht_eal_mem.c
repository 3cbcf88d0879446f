/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "rht_eal_mem.h"

static int
hugetlbfs_mounted(void)
{
	char line[512];
	int found = 0;
	FILE *f = fopen("/proc/mounts", "r");

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strstr(line, " hugetlbfs ") != NULL;
	fclose(f);
	return found;
}

/* MiB of the hugepages that /proc/meminfo counts in field (a HugePages_ line). */
static unsigned long
hugepage_mb(const char *field)
{
	unsigned long pages = 0, page_kb = 0, v;
	char line[256], name[64];
	FILE *f;

	if (!hugetlbfs_mounted())
		return 0;
	f = fopen("/proc/meminfo", "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%63[^:]: %lu", name, &v) != 2)
			continue;
		if (strcmp(name, field) == 0)
			pages = v;
		else if (strcmp(name, "Hugepagesize") == 0)
			page_kb = v;
	}
	fclose(f);
	return pages * page_kb / 1024;
}

unsigned long
rht_hugepage_free_mb(void)
{
	return hugepage_mb("HugePages_Free");
}

unsigned long
rht_hugepage_total_mb(void)
{
	return hugepage_mb("HugePages_Total");
}

static int
names_memory_mode(int argc, char **argv)
{
	static const char *const modes[] = {
		"--no-huge", "--in-memory", "-m", "--socket-mem", "--legacy-mem",
	};
	int i;
	unsigned int m;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
			if (strncmp(argv[i], modes[m], strlen(modes[m])) == 0)
				return 1;
	return 0;
}

char **
rht_eal_args_with_memory(int *argc, char **argv, unsigned int mem_mb)
{
	static char mem_arg[16];
	char **out;
	int n = *argc, i, pos;

	if (names_memory_mode(n, argv) || rht_hugepage_free_mb() >= mem_mb)
		return argv;

	fprintf(stderr, "note: fewer than %u MiB of free hugepages, "
		"running with --no-huge -m %u --no-shconf\n", mem_mb, mem_mb);
	snprintf(mem_arg, sizeof(mem_arg), "%u", mem_mb);
	out = calloc(n + 5, sizeof(*out));
	if (out == NULL)
		return argv;
	/* insert after argv[0] so the options stay before any "--" */
	out[0] = argv[0];
	out[1] = (char *)(uintptr_t)"--no-huge";
	out[2] = (char *)(uintptr_t)"-m";
	out[3] = mem_arg;
	out[4] = (char *)(uintptr_t)"--no-shconf";
	for (i = 1, pos = 5; i < n; i++)
		out[pos++] = argv[i];
	*argc = pos;
	return out;
}
