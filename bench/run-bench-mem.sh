#!/bin/sh
# SPDX-License-Identifier: MIT
# run-bench-mem.sh - simulation speed with the full memory system (issue 5's benchmark).
#
#   bench/run-bench-mem.sh [PATH/TO/bench_sim]        (default: build/bench/bench_sim)
#
# sgemm, bfs, stencil2d at $SIZE (default medium) in timing mode on fermi-gtx480, once with the
# fixed-latency memory (the same file with [mem] model = fixed) and once with the full memory
# system (model = full, the default and the configuration file as committed). With REPEAT=N the fastest of N runs
# is kept. KIPS = thousand warp instructions per second of simulation time (wall clock, and
# process CPU time since the machine may be shared); target: 150 KIPS with the full memory
# system. Prints a table and writes bench/results-mem.json (or $OUT).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${1:-$root/build/bench/bench_sim}
base=${CONFIG:-configs/fermi-gtx480.ini}
size=${SIZE:-medium}
repeat=${REPEAT:-1}
out=${OUT:-$here/results-mem.json}
cd "$root"
[ -x "$bin" ] || { echo "run-bench-mem.sh: no bench_sim at $bin (build the bench_sim target)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/heddle-bench-mem-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
full=$tmp/full.ini
fixed=$tmp/fixed.ini
sed 's/^model = [a-z]*/model = full/' "$base" > "$full"
sed 's/^model = [a-z]*/model = fixed/' "$base" > "$fixed"
grep -q '^model = full' "$full" || { echo "run-bench-mem.sh: no '[mem] model' line in $base" >&2; exit 2; }

field() { # field NAME JSONLINE -> value
    printf '%s\n' "$2" | sed -n "s/.*\"$1\": \"\\{0,1\\}\\([^,\"}]*\\).*/\\1/p"
}

# run WORKLOAD CONFIG LABEL -> the fastest run's JSON line (with "memory": LABEL) in $tmp/runs
run() {
    best=""
    i=0
    while [ "$i" -lt "$repeat" ]; do
        line=$("$bin" "$1" "$size" "$2" cycle) || { echo "run-bench-mem.sh: $1 $3 failed" >&2; exit 1; }
        if [ -z "$best" ] || awk -v a="$(field sim_wall_s "$line")" -v b="$(field sim_wall_s "$best")" \
                'BEGIN { exit !(a < b) }'; then
            best=$line
        fi
        i=$((i + 1))
    done
    printf '%s\n' "$best" | sed "s/^{/{\"memory\": \"$3\", /" >> "$tmp/runs"
    printf '  %-10s %-6s %12s warp instrs %10s cycles %8.3f s (cpu %7.3f s) %8.1f KIPS (cpu %8.1f)\n' \
        "$1" "$3" "$(field warp_instrs "$best")" "$(field cycles "$best")" "$(field sim_wall_s "$best")" \
        "$(field sim_cpu_s "$best")" "$(field kips_wall "$best")" "$(field kips_cpu "$best")" >&2
}

load0=$(cut -d' ' -f1 /proc/loadavg)
echo "Heddle simulation speed, fixed against full memory system, $base, $size ($(nproc) CPUs)" >&2
for w in sgemm bfs stencil2d; do
    run "$w" "$fixed" fixed
    run "$w" "$full" full
done

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    printf '{\n  "benchmark": "heddle simulation speed with the full memory system",\n'
    printf '  "date": "%s",\n  "commit": "%s",\n  "config": "%s",\n  "size": "%s",\n' \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" "$base" "$size"
    printf '  "host": {"cpus": %s, "cpu": "%s", "loadavg_before": %s, "loadavg_after": %s},\n' \
        "$(nproc)" "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1 | tr -d '"')" \
        "$load0" "$(cut -d' ' -f1 /proc/loadavg)"
    printf '  "kips": "thousand warp instructions per second of simulation time (kips_wall: wall clock, kips_cpu: process CPU time)",\n'
    printf '  "target_kips": 150,\n  "runs": [\n'
    sed 's/^/    /; $!s/$/,/' "$tmp/runs"
    printf '  ]\n}\n'
} > "$out"
echo "wrote $out" >&2
