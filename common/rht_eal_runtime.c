/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_rhashtable authors
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
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

/* eal_create_runtime_dir(): systemd's RUNTIME_DIRECTORY, else by privilege */
static const char *
eal_runtime_base(void)
{
	const char *dir = getenv("RUNTIME_DIRECTORY");

	if (dir != NULL)
		return dir;
	if (getuid() == 0)
		return "/var/run";
	dir = getenv("XDG_RUNTIME_DIR");
	return dir != NULL ? dir : "/tmp";
}

/* the longest path EAL puts in its runtime directory is a socket's */
static int
socket_path_fits(const char *prefix)
{
	size_t len = strlen(eal_runtime_base()) + strlen("/dpdk/") + strlen(prefix) +
		strlen("/dpdk_telemetry.v2");

	return len < sizeof(((struct sockaddr_un *)0)->sun_path);
}

/*
 * FNV-1a over the bytes: the name is a string at any address, and
 * rte_jhash() reads it by 32-bit words, which UBSan rejects when unaligned.
 */
static uint32_t
name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	while (*name != '\0')
		h = (h ^ (uint8_t)*name++) * 16777619u;
	return h;
}

int
rht_eal_file_prefix(char *buf, size_t size, const char *prefix, const char *tag)
{
	bool tagged = tag == NULL || tag[0] == '\0' || strstr(prefix, tag) != NULL;
	const char *sep = tag != NULL && tag[0] != '\0' ? "_" : "";
	int n;

	if (tag == NULL)
		tag = "";
	n = snprintf(buf, size, "%s%s%s", prefix, tagged ? "" : sep, tagged ? "" : tag);
	if (n >= 0 && (size_t)n < size && socket_path_fits(buf))
		return 0;
	/* the tag goes on, also when it was inside the prefix just dropped */
	n = snprintf(buf, size, "t%08x%s%s", name_hash(prefix), sep, tag);
	if (n >= 0 && (size_t)n < size && socket_path_fits(buf))
		return 0;
	fprintf(stderr, "EAL runtime directory %s/dpdk/%s too long for its sockets\n",
		eal_runtime_base(), buf);
	return -1;
}

int
rht_eal_tag_file_prefix(int argc, char **argv)
{
	static const char opt[] = "--file-prefix=";
	/* static: EAL keeps pointers into argv, and LeakSanitizer stays quiet */
	static char tagged[PATH_MAX];
	int i, last = -1;

	/* EAL takes the last --file-prefix; what follows "--" is not EAL's */
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strncmp(argv[i], opt, strlen(opt)) == 0)
			last = i;
	if (last < 0)
		return 0;
	memcpy(tagged, opt, strlen(opt));
	if (rht_eal_file_prefix(tagged + strlen(opt), sizeof(tagged) - strlen(opt),
			argv[last] + strlen(opt), getenv("RHT_EAL_TAG")) != 0)
		return -1;
	argv[last] = tagged;
	return 0;
}
