#!/bin/sh
# SPDX-License-Identifier: MIT
# run-bench.sh - simulation speed of Heddle on fermi-gtx480 (issue 3's and issue 2's benchmarks).
#
#   bench/run-bench.sh [PATH/TO/bench_sim]        (default: build/bench/bench_sim)
#
# Timing mode (the cycle-level model): sgemm, bfs, stencil2d at $TIMING_SIZE (default medium);
# functional mode at the same size (for the timing/functional ratio) and sgemm, bfs at
# $FUNC_SIZE (default large: issue 2's functional benchmark). Each run is its own process (so
# its peak RSS is its own); with REPEAT=N the fastest of N runs is kept. KIPS = thousand warp
# instructions per second of simulation time (wall clock; CPU time beside it, since this
# machine may be shared). Prints a table and writes bench/results.json (or $OUT).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${1:-$root/build/bench/bench_sim}
cfg=${CONFIG:-configs/fermi-gtx480.ini}
tsize=${TIMING_SIZE:-medium}
fsize=${FUNC_SIZE:-large}
repeat=${REPEAT:-1}
out=${OUT:-$here/results.json}
cd "$root"
[ -x "$bin" ] || { echo "run-bench.sh: no bench_sim at $bin (build the bench_sim target)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/heddle-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

field() { # field NAME JSONLINE -> value
    printf '%s\n' "$2" | sed -n "s/.*\"$1\": \"\\{0,1\\}\\([^,\"}]*\\).*/\\1/p"
}

# run WORKLOAD SIZE MODE -> the fastest run's JSON line appended to $tmp/runs
run() {
    best=""
    i=0
    while [ "$i" -lt "$repeat" ]; do
        line=$("$bin" "$1" "$2" "$cfg" "$3") || { echo "run-bench.sh: $1 $2 $3 failed" >&2; exit 1; }
        if [ -z "$best" ] || awk -v a="$(field sim_wall_s "$line")" -v b="$(field sim_wall_s "$best")" \
                'BEGIN { exit !(a < b) }'; then
            best=$line
        fi
        i=$((i + 1))
    done
    printf '%s\n' "$best" >> "$tmp/runs"
    printf '  %-10s %-7s %-10s %12s warp instrs  %8.3f s  %9.1f KIPS\n' "$1" "$2" "$3" \
        "$(field warp_instrs "$best")" "$(field sim_wall_s "$best")" "$(field kips_wall "$best")" >&2
}

load0=$(cut -d' ' -f1 /proc/loadavg)
echo "Heddle simulation speed on $cfg ($(nproc) CPUs: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1))" >&2
for w in sgemm bfs stencil2d; do run "$w" "$tsize" cycle; done
for w in sgemm bfs stencil2d; do run "$w" "$tsize" functional; done
for w in sgemm bfs; do run "$w" "$fsize" functional; done

# the table
awk -v tsize="$tsize" '
function f(name,   re, v) {
    re = "\"" name "\": \"?[^,\"}]*"
    if (!match($0, re)) return ""
    v = substr($0, RSTART, RLENGTH); sub(/^[^:]*: "?/, "", v); return v
}
{
    k = f("workload") "/" f("size") "/" f("mode")
    wi[k] = f("warp_instrs"); wall[k] = f("sim_wall_s"); cpu[k] = f("sim_cpu_s")
    kw[k] = f("kips_wall"); kc[k] = f("kips_cpu"); rss[k] = f("maxrss_kb"); cyc[k] = f("cycles")
    order[n++] = k
}
END {
    printf "\n%-28s %12s %12s %9s %9s %10s %10s %9s\n", "run", "warp instrs", "cycles", \
        "sim s", "cpu s", "KIPS", "KIPS(cpu)", "peak MB"
    for (i = 0; i < n; i++) {
        k = order[i]
        printf "%-28s %12d %12s %9.3f %9.3f %10.1f %10.1f %9.1f\n", k, wi[k], \
            (cyc[k] > 0 ? cyc[k] : "-"), wall[k], cpu[k], kw[k], kc[k], rss[k] / 1024
    }
    printf "\nratios (timing mode; wall clock, and CPU time in brackets, which is what one core gives\n"
    printf "when the machine is shared; GPGPU-Sim 4.2: 5-8 KIPS, its best case 8 is used):\n"
    split("sgemm bfs stencil2d", ws, " ")
    for (j = 1; j <= 3; j++) {
        t = ws[j] "/" tsize "/cycle"; u = ws[j] "/" tsize "/functional"
        if (kw[t] > 0 && kw[u] > 0)
            printf "  %-10s %7.1f KIPS [%7.1f] = %5.2fx [%5.2fx] the 200 KIPS target = %6.1fx [%6.1fx] GPGPU-Sim; functional/timing %5.1fx [%5.1fx]\n", \
                ws[j], kw[t], kc[t], kw[t] / 200, kc[t] / 200, kw[t] / 8, kc[t] / 8, kw[u] / kw[t], kc[u] / kc[t]
    }
}' "$tmp/runs"

# results.json: metadata and every run
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    printf '{\n  "benchmark": "heddle simulation speed",\n'
    printf '  "date": "%s",\n  "commit": "%s",\n  "config": "%s",\n' \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" "$cfg"
    printf '  "host": {"cpus": %s, "cpu": "%s", "loadavg_before": %s, "loadavg_after": %s},\n' \
        "$(nproc)" "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1 | tr -d '"')" \
        "$load0" "$(cut -d' ' -f1 /proc/loadavg)"
    printf '  "kips": "thousand warp instructions per second of simulation time (kips_wall: wall clock, kips_cpu: process CPU time)",\n'
    printf '  "runs": [\n'
    sed 's/^/    /; $!s/$/,/' "$tmp/runs"
    printf '  ]\n}\n'
} > "$out"
echo "wrote $out" >&2
