#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors
#
# dpdk-flowpmd on net_flowgen, one forwarding lcore, 64-byte frames, uniform
# traffic, --fwd=io (net_flowgen's TX frees the mbufs):
#   - 1Mi and 16Mi flows, --flow-table=rhashtable and rte_hash;
#   - 1Mi flows with churn (new_flow_rate=0.01, flows aged after 5 s), rhashtable;
#   - 1Mi flows, rhashtable with --pipeline=0 (no burst in flight: the gain of
#     the default pipeline, which prefetches a burst's buckets a burst ahead).
# Prints Mpps per case (mean of the per-second rates once the flows are all
# in the table: hit rate >= 99%), rhashtable/rte_hash and churn/no-churn.
#
# Usage: devtools/flowpmd-bench.sh [BUILD_DIR]
#   env: DURATION (s, 1Mi cases, default 12), DURATION_BIG (16Mi, default 30),
#        BIG=0 to skip the 16Mi cases, LCORES (default 0@0,1@1,2@0: main and
#        the rehash service lcore share CPU 0, forwarding on CPU 1),
#        OUT (directory for the JSON lines, default a temporary one).
# The rehash service runs on lcore 2 (--service-lcores=2): EAL -s only takes
# lcores that are physical CPUs.

set -eu

build=${1:-build}
app=$build/app/flowpmd/dpdk-flowpmd
duration=${DURATION:-12}
duration_big=${DURATION_BIG:-30}
big=${BIG:-1}
lcores=${LCORES:-0@0,1@1,2@0}
out=${OUT:-$(mktemp -d /tmp/flowpmd-bench.XXXXXX)}
mi=1048576

[ -x "$app" ] || { echo "no $app: build first (ninja -C $build)" >&2; exit 1; }
mkdir -p "$out"
# shellcheck source=test/eal_runtime.sh
. "$(dirname "$0")/../test/eal_runtime.sh"

# run NAME FLOWS BACKEND DURATION MAX_FLOWS [DEVARGS_EXTRA [APP_EXTRA]]
run()
{
	name=$1 flows=$2 backend=$3 dur=$4 max=$5 devx=${6:-} appx=${7:-}
	echo "== $name: $flows flows, $backend, ${dur}s" >&2
	"$app" --no-pci --lcores "$lcores" --file-prefix="flowpmd_bench_$name" \
		--vdev "net_flowgen0,flows=$flows,dist=uniform,pkt_size=64$devx" -- \
		--flow-table="$backend" --max-flows="$max" --max-flows6=4096 \
		--fwd=io --duration="$dur" --service-lcores=2 --flow-timeout=60 \
		--json="$out/$name.json" $appx > "$out/$name.log" 2>&1 ||
		{ echo "$name failed, see $out/$name.log" >&2; tail -5 "$out/$name.log" >&2; }
	remove_eal_runtime_dir "flowpmd_bench_$name"
}

run rht_1m $mi rhashtable "$duration" $((mi * 5 / 4))
run hash_1m $mi rte_hash "$duration" $((mi * 5 / 4))
# the same without the lookup pipeline (no burst in flight, no prefetch stage)
run rht_1m_pipe0 $mi rhashtable "$duration" $((mi * 5 / 4)) "" "--pipeline=0"
run rht_1m_churn $mi rhashtable "$duration" $((mi * 4)) ",new_flow_rate=0.01" \
	"--flow-timeout=5"
if [ "$big" = 1 ]; then
	run rht_16m $((mi * 16)) rhashtable "$duration_big" $((mi * 20))
	run hash_16m $((mi * 16)) rte_hash "$duration_big" $((mi * 20))
fi

python3 - "$out" <<'EOF'
import json, os, sys

out = sys.argv[1]

def load(name):
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        return None
    lines = [json.loads(l) for l in open(path) if l.startswith("{")]
    stats = [l for l in lines if l["type"] == "stats"]
    summ = [l for l in lines if l["type"] == "summary"]
    steady = [l for l in stats if l["hit_pct"] >= 98.5][1:]  # first may be partial
    if not steady:
        steady = stats[len(stats) // 2:]
    if not steady:
        return None
    mpps = sum(l["rx_mpps"] for l in steady) / len(steady)
    return {"mpps": mpps, "hit": sum(l["hit_pct"] for l in steady) / len(steady),
            "secs": len(steady), "flows": steady[-1]["flows"],
            "refused": summ[0]["refused_full"] + summ[0]["refused_other"] if summ else -1,
            "alloc_fail": summ[0]["alloc_fail"] if summ else -1}

cases = [("rht_1m", "1Mi", "rhashtable", "no"), ("hash_1m", "1Mi", "rte_hash", "no"),
         ("rht_1m_pipe0", "1Mi", "rht pipe0", "no"),
         ("rht_1m_churn", "1Mi", "rhashtable", "1%"),
         ("rht_16m", "16Mi", "rhashtable", "no"), ("hash_16m", "16Mi", "rte_hash", "no")]
res = {}
print("\n%-14s %-5s %-11s %-6s %8s %7s %6s %10s %8s" % ("case", "flows", "backend", "churn",
      "Mpps", "hit%", "secs", "flows_end", "refused"))
for name, flows, backend, churn in cases:
    r = load(name)
    res[name] = r
    if r is None:
        continue
    print("%-14s %-5s %-11s %-6s %8.2f %7.2f %6d %10d %8d" % (name, flows, backend, churn,
          r["mpps"], r["hit"], r["secs"], r["flows"], r["refused"]))

def ratio(a, b, label):
    if res.get(a) and res.get(b):
        print("%-34s %6.2f" % (label, res[a]["mpps"] / res[b]["mpps"]))

print()
ratio("rht_1m", "hash_1m", "rhashtable / rte_hash, 1Mi flows")
ratio("rht_16m", "hash_16m", "rhashtable / rte_hash, 16Mi flows")
ratio("rht_1m", "rht_1m_pipe0", "pipeline 1 / pipeline 0, 1Mi")
ratio("rht_1m_churn", "rht_1m", "churn / no churn, 1Mi, rhashtable")
print("(JSON lines and logs in %s)" % out)
EOF
