/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_string_fns.h>

#include "rht_eal_runtime.h"

/* EAL puts only files and sockets in its runtime directory. */
static int
remove_runtime_dir(const char *path)
{
	struct dirent *e;
	int ret = 0;
	DIR *dir;

	dir = opendir(path);
	if (dir == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(dir), e->d_name, 0) < 0 && errno != ENOENT) {
			fprintf(stderr, "cannot remove %s/%s: %s\n", path, e->d_name,
				strerror(errno));
			ret = -1;
		}
	}
	closedir(dir);
	if (rmdir(path) < 0 && errno != ENOENT) {
		fprintf(stderr, "cannot remove %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	return ret;
}

int
rht_eal_remove_runtime_dir(void)
{
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	return remove_runtime_dir(rte_eal_get_runtime_dir());
}

int
rht_eal_cleanup_runtime(void)
{
	int primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	char path[PATH_MAX];
	int ret;

	/* the path lives in EAL's configuration, gone after cleanup */
	rte_strlcpy(path, rte_eal_get_runtime_dir(), sizeof(path));
	ret = rte_eal_cleanup();
	if (primary && path[0] != '\0' && remove_runtime_dir(path) < 0)
		ret = -1;
	return ret;
}
