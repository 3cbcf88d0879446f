#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# The project's test command, on a fresh machine or an old one: install what
# is missing, build, run the fast test suite. CI (.ci/run) calls exactly this.
#
# Usage: devtools/test.sh [SUITE]   (default: fast-tests; also perf-tests,
#                                    stress-tests)

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
suite=${1:-fast-tests}

"$top/devtools/deps.sh"
"$top/devtools/build.sh"
meson test -C "${BUILD_DIR:-$top/build}" --suite "$suite" --print-errorlogs \
	--num-processes 1
