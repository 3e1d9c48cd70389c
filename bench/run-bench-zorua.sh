#!/bin/sh
# SPDX-License-Identifier: MIT
# run-bench-zorua.sh - simulation speed of the Zorua study's paper-size runs (issue 32,
# experiments/zorua-paper.toml; docs/zorua.md "Session 25: simulation speed on the paper-size
# runs"): Baseline, WLM and Zorua points run as the sweep runs them, each with one or two heddle
# binaries back to back (the same machine state for both), CPU (user) seconds and KIPS (thousand
# warp instructions per user second) per run. With two binaries every run's statistics must be
# the same (scripts/stats-compare.py, host fields excluded): a speed change that changes a cycle
# or a counter fails here.
#
#   bench/run-bench-zorua.sh HEDDLE [OLD_HEDDLE]      (from the repository root)
#
# POINTS=waves3 (default: SSSP r24 x 512 under the three schemes on Kepler at --size waves3, the
# sweep's own size), POINTS=waves (BH, MST, SSSP at --size waves on Fermi and Kepler: cheaper),
# POINTS=all (both). REPEAT=N keeps the fastest of N runs of each binary. Runs with nice -n 5.
# Writes bench/results-zorua.json (or $OUT) and prints a table.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
new=${1:?usage: run-bench-zorua.sh HEDDLE [OLD_HEDDLE]}
old=${2:-}
points=${POINTS:-waves3}
repeat=${REPEAT:-1}
out=${OUT:-$here/results-zorua.json}
cd "$root"
for b in "$new" $old; do
    [ -x "$b" ] || { echo "run-bench-zorua.sh: no heddle at $b" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/heddle-zbench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/old" "$tmp/new"

# The schemes as experiments/zorua-paper.toml passes them (Fermi 64 logical warps, Kepler 96).
scheme() { # GEN SCHEME -> flags
    case $1 in fermi) lw=64 ;; *) lw=96 ;; esac
    case $2 in
        base) echo "--config configs/zorua-$1.ini --set sm.allocator=partitioned" ;;
        *) echo "--config configs/zorua-$1.ini --set sm.allocator=$2 --set sm.logical_warps=$lw --set sm.logical_ctas=16" ;;
    esac
}

list() { # NAME WORKLOAD SIZE GEN SCHEME
    case $points in
        waves3)
            for s in base wlm zorua; do echo "sssp_kepler_$s sssp_z_r24_tb512 waves3 kepler $s"; done ;;
        waves)
            for g in fermi kepler; do
                for s in base wlm zorua; do
                    echo "sssp_${g}_${s}_w sssp_z_r24_tb512 waves $g $s"
                    echo "mst_${g}_${s}_w mst_z_r32_tb512 waves $g $s"
                    echo "bh_${g}_${s}_w barneshut_z_r32_tb512 waves $g $s"
                done
            done ;;
        all) POINTS=waves3 list; POINTS=waves list ;;
        *) echo "run-bench-zorua.sh: POINTS is waves3, waves or all" >&2; exit 2 ;;
    esac
}

# one BIN SIDE NAME ARGS... -> "user_s wall_s maxrss_kb" of the fastest of REPEAT runs; the
# statistics (host fields dropped) in $tmp/SIDE/NAME.json
one() {
    bin=$1 side=$2 name=$3
    shift 3
    best=""
    i=0
    while [ "$i" -lt "$repeat" ]; do
        # shellcheck disable=SC2086
        /usr/bin/time -f '%U %e %M' -o "$tmp/time" nice -n 5 "$bin" run "$@" --quiet \
            --stats "$tmp/raw.json" > "$tmp/out" 2>&1 ||
            { echo "run-bench-zorua.sh: $bin run $* failed" >&2; tail -5 "$tmp/out" >&2; exit 1; }
        grep -q VERIFIED "$tmp/out" "$tmp/raw.json" ||
            { echo "run-bench-zorua.sh: $bin run $*: not verified" >&2; exit 1; }
        t=$(tail -1 "$tmp/time")
        if [ -z "$best" ] || awk -v a="${t%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
            best=$t
        fi
        i=$((i + 1))
    done
    grep -v -E '"(host_|wall|kips|seconds|elapsed|binary|heddle|version|build)' "$tmp/raw.json" \
        > "$tmp/$side/$name.json"
    echo "$best"
}

load0=$(cut -d' ' -f1 /proc/loadavg)
: > "$tmp/runs"
list | while read -r name w size gen s; do
    # shellcheck disable=SC2046
    tn=$(one "$new" new "$name" "$w" --size "$size" $(scheme "$gen" "$s"))
    to="- - -"
    if [ -n "$old" ]; then
        # shellcheck disable=SC2046
        to=$(one "$old" old "$name" "$w" --size "$size" $(scheme "$gen" "$s"))
    fi
    wi=$(sed -n 's/.*"warp_instrs": \([0-9]*\).*/\1/p' "$tmp/new/$name.json" | head -1)
    cy=$(sed -n 's/.*"cycles": \([0-9]*\).*/\1/p' "$tmp/new/$name.json" | head -1)
    echo "$name $w $size $gen $s $wi $cy $tn $to" >> "$tmp/runs"
    echo "$name $w $size $gen $s $wi $cy $tn $to" | awk '{
        printf "  %-20s %9s cycles %9s warp instrs  new %7.2f s %8.1f KIPS", $1, $7, $6, $8, $6 / $8 / 1000
        if ($11 != "-") printf "   old %7.2f s %8.1f KIPS   old/new %5.2fx", $11, $6 / $11 / 1000, $11 / $8
        printf "\n" }' >&2
done
same=null
if [ -n "$old" ]; then
    if python3 scripts/stats-compare.py "$tmp/old" "$tmp/new" > "$tmp/cmp" 2>&1; then same=true; else same=false; fi
    cat "$tmp/cmp" >&2
fi

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    printf '{\n  "benchmark": "heddle simulation speed, Zorua paper-size points",\n'
    printf '  "date": "%s",\n  "commit": "%s",\n  "points": "%s",\n' \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" "$points"
    printf '  "host": {"cpus": %s, "cpu": "%s", "loadavg_before": %s, "loadavg_after": %s},\n' \
        "$(nproc)" "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1 | tr -d '"')" \
        "$load0" "$(cut -d' ' -f1 /proc/loadavg)"
    printf '  "kips": "thousand warp instructions per user (CPU) second; old_* from the second binary, run right after the first",\n'
    printf '  "stats_identical": %s,\n  "runs": [\n' "$same"
    awk '{
        printf "    {\"name\": \"%s\", \"workload\": \"%s\", \"size\": \"%s\", \"gen\": \"%s\", \"scheme\": \"%s\", \"warp_instrs\": %s, \"cycles\": %s, \"user_s\": %s, \"wall_s\": %s, \"maxrss_kb\": %s, \"kips_cpu\": %.1f", \
            $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $6 / $8 / 1000
        if ($11 != "-") printf ", \"old_user_s\": %s, \"old_wall_s\": %s, \"old_kips_cpu\": %.1f, \"speedup\": %.3f", $11, $12, $6 / $11 / 1000, $11 / $8
        printf "}%s\n", (NR < n ? "," : "") }' n="$(wc -l < "$tmp/runs")" "$tmp/runs"
    printf '  ]\n}\n'
} > "$out"
echo "wrote $out" >&2
[ "$same" != false ]
