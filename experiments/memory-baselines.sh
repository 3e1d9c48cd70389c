#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# memory-baselines.sh - the memory system of each paper configuration, measured with real nvcc
# kernels, beside the figures the papers publish (../shared/reference/papers: Lin's thesis
# Tables 2.1, 3.1 and 4.1 and its ch.3/ch.4 saturation figures; Gong's Kepler tables, which give
# no latency or bandwidth).
#
# For configs/fermi-gtx480.ini, configs/kepler-gk110.ini and configs/maxwell-gpuduet.ini (full
# memory model, the default):
#   - load-to-use latency of an L1 hit, an L2 hit and a DRAM access, in core cycles: the
#     pointer chase of workloads/chase (one thread, one dependent load per hop) over an 8 KiB
#     chain (chase: L1), a 128 KiB chain (chase_l2: beyond every L1, within every L2) and a
#     32 MiB chain walked cold (chase_dram). Per hop = (cycles of the launch at size large -
#     at size medium) / (hops large - hops medium): both runs share the launch overhead and the
#     cold first pass, so the difference holds only hops served by the intended level. The
#     per-launch memory counters check that: the extra hops' L1 hits (chase), L2 hits with no L1
#     hit (chase_l2) and L2 misses (chase_dram) are reported as "served" (1.00 = all of them);
#   - sustained DRAM bandwidth with STREAM (workloads/stream, variant stream_cg: loads around
#     the L1, medium size, 8 MiB per array): per kernel, the launch's DRAM bytes over its time,
#     in GB/s and % of the configured peak (as tests/mem/stream_bandwidth.sh computes it);
#   - the L2->SM crossbar data rate during the same STREAM run (per kernel, its reply flits x flit
#     bytes over its cycles; the busiest kernel) against the crossbar peak as Lin defines it (ports x wire width x clock, ports
#     = L2 slices here).
# Prints a table per configuration (measure, ours, paper, source) and writes them as JSON to
# experiments/results/memory-baselines.json (or $HD_EXP_OUT).
#
#   experiments/memory-baselines.sh [HEDDLE]      (default build/heddle; run from anywhere)
# About 20 s of CPU in all (21 heddle runs). Same binary and sources: the same JSON, byte for byte.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
heddle=${1:-$root/build/heddle}
out=${HD_EXP_OUT:-$root/experiments/results/memory-baselines.json}
if [ ! -x "$heddle" ]; then
    echo "memory-baselines.sh: no heddle binary at $heddle (build it, or pass its path)" >&2
    exit 2
fi
command -v python3 > /dev/null || { echo "memory-baselines.sh: needs python3" >&2; exit 2; }
configs="fermi-gtx480 kepler-gk110 maxwell-gpuduet"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-membase-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# run CONFIG WORKLOAD SIZE: one verified run, its JSON report in $tmp/CONFIG.WORKLOAD.SIZE.json
run() {
    local json="$tmp/$1.$2.$3.json"
    echo "  heddle run $2 --size $3 --config configs/$1.ini --stats ${json##*/}" >&2
    if ! "$heddle" run "$2" --size "$3" --config "$root/configs/$1.ini" --stats "$json" \
        > "$tmp/$1.$2.$3.out" 2>&1; then
        echo "memory-baselines.sh: $2 ($3, $1) failed:" >&2
        cat "$tmp/$1.$2.$3.out" >&2
        exit 1
    fi
}

for c in $configs; do
    echo "measuring $c" >&2
    for w in chase chase_l2 chase_dram; do
        run "$c" "$w" medium
        run "$c" "$w" large
    done
    run "$c" stream_cg medium
done

HD_TMP="$tmp" HD_CONFIGS="$configs" HD_OUT="$out" python3 - <<'PY'
import json, os, re, sys

tmp, out = os.environ["HD_TMP"], os.environ["HD_OUT"]
configs = os.environ["HD_CONFIGS"].split()

# The papers' published figures (../shared/reference/papers/*.md), with where they come from.
# None: the paper gives no counterpart.
LIN21 = "Lin thesis Table 2.1 (GPGPU-Sim 3.2.2 GTX480)"
LIN31 = "Lin thesis Table 3.1 (GPUDuet, Maxwell-like, 1000 MHz core)"
LIN41 = "Lin thesis Table 4.1 (CCBP, 1800 MHz core, not this config)"
SUST = "Lin thesis ch.4 L2875-2888: DRAM saturates at ~60-70% of peak [MC16]"
XBAR = "Lin thesis ch.3/ch.4 L2875-2879: crossbar sustainable ~60% of peak [Kar87]"
WON10 = "Lin thesis ch.3 L1852-1858: global memory 400-800 cycles [Won10, measured GT200]"
M2S = "Multi2Sim Kepler public defaults (digest [X], not in Gong's thesis)"
PAPER = {
    "fermi-gtx480": {
        "l1_hit_cycles": [], "l2_hit_cycles": [],
        "dram_cycles": [("400-800", WON10)],
        "dram_peak_gbs": [("177", LIN21)],
        "stream_best_gbs": [("106-124", "60-70% of 177 GB/s: " + SUST)],
        "stream_pct_peak": [("60-70", SUST)],
        "xbar_pct_peak": [("~60", XBAR)],
    },
    "kepler-gk110": {
        "l1_hit_cycles": [("6", M2S)], "l2_hit_cycles": [("26", M2S + ": L1 6 + L2 20")],
        "dram_cycles": [("326", M2S + ": L1 6 + L2 20 + DRAM 300")],
        "dram_peak_gbs": [], "stream_best_gbs": [], "stream_pct_peak": [],
        "xbar_pct_peak": [],
    },
    "maxwell-gpuduet": {
        "l1_hit_cycles": [],
        "l2_hit_cycles": [("200", LIN31), ("200", LIN41)],
        "dram_cycles": [("450", LIN31), ("380", LIN41 + ", per [MC16]")],
        "dram_peak_gbs": [("307", LIN31), ("319", LIN41)],
        "stream_best_gbs": [("184-215", "60-70% of 307 GB/s: " + SUST)],
        "stream_pct_peak": [("60-70", SUST)],
        "xbar_pct_peak": [("~60 (of 614 GB/s)", XBAR + "; peak 614 GB/s " + LIN31)],
    },
}
LABEL = {
    "l1_hit_cycles": "L1 hit, load-to-use (core cycles)",
    "l2_hit_cycles": "L2 hit, load-to-use (core cycles)",
    "dram_cycles": "DRAM access, load-to-use (core cycles)",
    "dram_peak_gbs": "DRAM peak (GB/s)",
    "stream_best_gbs": "STREAM sustained DRAM BW, best kernel (GB/s)",
    "stream_pct_peak": "STREAM % of DRAM peak (copy/scale/add/triad/dot)",
    "xbar_pct_peak": "crossbar L2->SM data rate in STREAM, % of peak",
}

def load(c, w, s):
    with open(f"{tmp}/{c}.{w}.{s}.json") as f:
        return json.load(f)["timing"]

# The driver logs the hop count it ran ("chase: N nodes, ... H hops (W warm-up)"): read it back
# rather than repeat workloads/chase/chase.c's schedule here.
def hops(c, w, s):
    txt = re.findall(r"^chase: .* (\d+) hops ", open(f"{tmp}/{c}.{w}.{s}.out").read(), re.M)
    if len(txt) != 1:
        sys.exit(f"memory-baselines.sh: no hop count in the {w} {s} log on {c}")
    return int(txt[0])

def one_launch(j, what):
    L, K = j["launches"], j["memory"]["per_kernel"]
    if len(L) != 1 or len(K) != 1:
        sys.exit(f"memory-baselines.sh: {what}: expected one launch, got {len(L)}")
    return L[0], K[0]

results = {"experiment": "memory-baselines", "configs": {}}
for c in configs:
    rows, raw = {}, {}
    for w, key, served in (("chase", "l1_hit_cycles", "l1"), ("chase_l2", "l2_hit_cycles", "l2"),
                           ("chase_dram", "dram_cycles", "dram")):
        (lm, km), (ll, kl) = one_launch(load(c, w, "medium"), w), one_launch(load(c, w, "large"), w)
        hm, hl = hops(c, w, "medium"), hops(c, w, "large")
        dh = hl - hm
        per_hop = (ll["cycles"] - lm["cycles"]) / dh
        d = lambda k: kl[k] - km[k]
        if served == "l1":
            frac = d("l1d_read_hits") / dh
        elif served == "l2":
            frac = (d("l2_read_hits") - d("l1d_read_hits")) / dh
        else:
            frac = (d("l2_reads") - d("l2_read_hits") - d("l1d_read_hits")) / dh
        if frac < 0.95:
            print(f"WARNING {c}: only {frac:.2f} of {w}'s measured hops were served by the "
                  f"{served.upper()}: its latency mixes levels", file=sys.stderr)
        rows[key] = {"ours": round(per_hop, 1), "served": round(frac, 3)}
        raw[w] = {"hops": [hm, hl], "launch_cycles": [lm["cycles"], ll["cycles"]]}
    j = load(c, "stream_cg", "medium")
    # the clock section (core_mhz, dram_mhz) may sit anywhere in the report's config
    def find(o, k):
        if isinstance(o, dict):
            if k in o:
                return o
            for v in o.values():
                r = find(v, k)
                if r is not None:
                    return r
        elif isinstance(o, list):
            for v in o:
                r = find(v, k)
                if r is not None:
                    return r
        return None
    ck = find(j, "dram_mhz")
    core, dram, icnt = ck["core_mhz"], ck["dram_mhz"], ck["icnt_mhz"]
    mem = j["memory"]
    peak_b = mem["derived"]["dram_peak_bytes_per_dram_cycle"]
    peak_gbs = peak_b * dram * 1e6 / 1e9
    pct, gbs = [], []
    for L, K in zip(j["launches"], mem["per_kernel"]):
        t = L["cycles"] / (core * 1e6)
        by = K["dram_read_bytes"] + K["dram_write_bytes"]
        gbs.append(by / t / 1e9)
        pct.append(100.0 * by / (L["cycles"] * dram / core) / peak_b)
    flit = find(j, "flit_bytes")["flit_bytes"]
    port = find(j, "port_bytes")["port_bytes"]
    slices = len(mem["l2_slices"])
    # per kernel (its reply flits over its own cycles), the busiest kernel reported
    xbar_gbs = max(K["icnt_rep_flits"] * flit / (L["cycles"] / (core * 1e6)) / 1e9
                   for L, K in zip(j["launches"], mem["per_kernel"]))
    xbar_peak = slices * port * icnt * 1e6 / 1e9
    rows["dram_peak_gbs"] = {"ours": round(peak_gbs, 1)}
    best = max(range(len(gbs)), key=lambda i: gbs[i])
    rows["stream_best_gbs"] = {"ours": round(gbs[best], 1), "kernel": j["launches"][best]["kernel"]}
    rows["stream_pct_peak"] = {"ours": "/".join(f"{p:.0f}" for p in pct),
                               "per_kernel": {L["kernel"]: round(p, 1) for L, p in zip(j["launches"], pct)}}
    rows["xbar_pct_peak"] = {"ours": round(100.0 * xbar_gbs / xbar_peak, 1),
                             "gbs": round(xbar_gbs, 1), "peak_gbs": round(xbar_peak, 1)}
    for k, r in rows.items():
        r["measure"] = LABEL[k]
        r["paper"] = [{"value": v, "source": s} for v, s in PAPER[c][k]]
    results["configs"][c] = {"rows": rows, "raw": raw,
                             "clock_mhz": {"core": core, "icnt": icnt, "dram": dram}}

    print(f"\n== {c} (core {core:g} MHz, DRAM {dram:g} MHz)")
    print(f"  {'measure':<50} {'ours':>16}  {'paper':>18}  source")
    for k in LABEL:
        r = rows[k]
        o = str(r["ours"])
        if "served" in r:
            o += f" [{r['served']:.2f}]"
        if k == "xbar_pct_peak":
            o += f" ({r['gbs']:g}/{r['peak_gbs']:g})"
        ps = PAPER[c][k] or [("-", "no counterpart in the papers")]
        for i, (v, s) in enumerate(ps):
            print(f"  {LABEL[k] if i == 0 else '':<50} {o if i == 0 else '':>16}  {v:>18}  {s}")
print("\n[x.xx] after a latency: share of the measured hops served by that level (1.00 = all)")
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
    f.write("\n")
print(f"written {out}")
PY
