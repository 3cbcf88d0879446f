#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# The subjects of the commits after BASE follow the headline rules of
# DPDK's devtools/check-git-log.sh: a `component: ` prefix (no capital, no
# space before the colon, one after it), 60 characters at most, and, for
# the commits after FULL_BASE, its format rules too: no punctuation among
# , ; ! ? & |, no code (an underscore after the colon), no period, tab or
# space at either end. The commits up to BASE (FULL_BASE) predate the
# rules and stay as they are; merge commits are not checked (DPDK takes
# patches, not merges). Skipped (77) when SOURCE_ROOT is not a git
# checkout (a release tarball) or a base is not in the history of its
# HEAD (a shallow clone).
#
# Usage: check_commit_subjects.sh SOURCE_ROOT BASE [FULL_BASE]

set -eu
export LC_ALL=C

# The subjects on stdin that break a rule, each after the rule it breaks.
bad_subjects() {
	awk 'length($0) > 60 { print "longer than 60 characters: " $0; next }
		!/^[^ :A-Z]+: [^ ]/ { print "no \"component: \" prefix: " $0 }'
}

# The subjects on stdin that break a format rule of check-git-log.sh (the
# commits after FULL_BASE are after BASE: bad_subjects() sees them too).
bad_format() {
	awk '/[,;!?&|]/ { print "punctuation (, ; ! ? & |): " $0; next }
		/:.*_/ { print "code (an underscore) after the colon: " $0; next }
		/[.\t ]$/ || /\t/ { print "a period, tab or trailing space: " $0 }'
}

# The rules first: five bad subjects must be refused and the good one kept.
refused=$(printf '%s\n' 'a subject without a prefix' 'Test: capital in the prefix' \
	'test:no space after the colon' 'test : space before the colon' \
	'test: sixty-one characters, one more than DPDK allows it: bad' \
	'test: exactly sixty characters, as many as DPDK allows: good' | bad_subjects)
if [ "$(echo "$refused" | wc -l)" -ne 5 ] || echo "$refused" | grep -q 'exactly sixty'; then
	printf 'FAIL: the rules refused other subjects than the 5 bad ones:\n%s\n' "$refused"
	exit 1
fi

# The format rules: four bad subjects refused, the good one kept.
refused=$(printf '%s\n' 'test: a comma, which DPDK refuses' 'test: rte_hash named as code' \
	'test: a period at the end.' 'test: a trailing space ' \
	'test: exactly sixty characters and nothing DPDK refuses here' | bad_format)
if [ "$(echo "$refused" | wc -l)" -ne 4 ] || echo "$refused" | grep -q 'exactly sixty'; then
	printf 'FAIL: the format rules refused other subjects than the 4 bad ones:\n%s\n' \
		"$refused"
	exit 1
fi

src=$(cd "$1" && pwd -P)
base=$2
full_base=${3:-}
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" != "$src" ]; then
	echo "SKIP: $src is not a git checkout"
	exit 77
fi
if ! git -C "$src" merge-base --is-ancestor "$base" HEAD 2>/dev/null; then
	echo "SKIP: $base is not in the history of HEAD (a shallow clone?)"
	exit 77
fi
bad=$(git -C "$src" log --no-merges --format=%s "$base..HEAD" | bad_subjects)
count=$(git -C "$src" rev-list --no-merges --count "$base..HEAD")
full_bad=
if [ -n "$full_base" ]; then
	if ! git -C "$src" merge-base --is-ancestor "$full_base" HEAD 2>/dev/null; then
		echo "SKIP: $full_base is not in the history of HEAD (a shallow clone?)"
		exit 77
	fi
	full_bad=$(git -C "$src" log --no-merges --format=%s "$full_base..HEAD" |
		bad_format)
fi
if [ -n "$bad$full_bad" ]; then
	[ -z "$bad" ] || printf '%s\n' "$bad"
	[ -z "$full_bad" ] || printf '%s\n' "$full_bad"
	echo "FAIL: commit subjects after $base break DPDK's headline rules"
	exit 1
fi
echo "PASS: the $count commit subjects after $base have a prefix and at most 60 characters"
[ -z "$full_base" ] ||
	echo "PASS: those after $full_base follow DPDK's headline format rules too"
