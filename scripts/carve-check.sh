#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# carve-check.sh - the reference set of a behaviour-preserving refactor (issue 23: the carve of
# model/timing): 13 runs that between them reach every part the carve moved (SM pipeline, memory
# models, CTA scheduling, context lifecycle with every save mode, stress, preemption points,
# every preemption policy, both Shieh-family allocators, Lin's tables, Shieh's tables in the
# loop with the C references and with the RTL). Each run's statistics JSON is written with the
# host-dependent fields removed; a digest of all of them is printed. Two binaries agree when
# their digests agree; across commits that add counters or configuration keys, compare the two
# OUTDIRs with scripts/stats-compare.py (every value present in both must be equal).
# HD_CARVE_KEPLER=FILE replaces configs/kepler-gk110.ini (an older binary, an older file).
#   scripts/carve-check.sh HEDDLE OUTDIR
set -euo pipefail
heddle=${1:?usage: carve-check.sh HEDDLE OUTDIR}
out=${2:?usage: carve-check.sh HEDDLE OUTDIR}
mkdir -p "$out"
n=0
run() { # NAME ARGS...
    local name=$1; shift
    n=$((n + 1))
    local stats=(--stats "$out/$name.raw.json")
    [ "$1" = cosim ] && stats=() # (cosim prints its summary: compared without the wall times)
    if ! "$heddle" "$@" "${stats[@]}" > "$out/$name.out" 2>&1; then
        echo "carve-check.sh: run $name failed: $heddle $*" >&2; tail -5 "$out/$name.out" >&2; exit 1
    fi
    # host time, speed and paths vary between binaries and machines: drop them
    if [ "$1" = cosim ]; then
        grep -v -E 'wall time|instrs/s|[0-9.]+ s$' "$out/$name.out" > "$out/$name.json"
    else
        grep -v -E '"(host_|wall|kips|seconds|elapsed|binary|heddle|version|build)' \
            "$out/$name.raw.json" > "$out/$name.json"
        rm -f "$out/$name.raw.json"
    fi
    awk -v n="$name" '/VERIFIED|cycles/ && k < 2 {print n ": " $0; k++}' "$out/$name.out"
}
run vecadd        run vecadd --size small
run sgemm         run sgemm --size small
run bfs_fixed     run bfs --size small --set mem.model=fixed
run stencil_kep   run stencil2d --size small --config "${HD_CARVE_KEPLER:-configs/kepler-gk110.ini}"
run mix           run --mix persistent+vecadd --arrive vecadd@20000:1
run stress_cmp    run pathfinder --size small --set context.stress_period=3000 --set context.save=compressed
run pp_stress     run bfs --size small --set context.points=selective --set context.stress_period=2000 --set context.stress_fraction=0.25
run inplace       run --mix persistent+vecadd --arrive vecadd@20000:1 --set context.preempt_policy=inplace --set sm.concurrent_kernels=true
run lin_tables    run --mix persistent+vecadd --arrive vecadd@20000:1 --set context.preempt_policy=inplace --set sm.concurrent_kernels=true --set sm.allocator=lin_tables
run shieh         run --mix persistent+vecadd --arrive vecadd@20000:1 --set context.latency_bound=20000 --set context.preempt_policy=shieh --set sm.allocator=aligned --set sm.concurrent_kernels=true
run chimera       run --mix reduction+backprop --arrive backprop@3000:1 --set context.latency_bound=50000 --set context.preempt_policy=chimera
run shieh_loop    cosim --blocks shieh --in-loop --mix pathfinder+preempter --arrive preempter@4000:1 --set context.latency_bound=3000 --set sm.allocator=aligned
run shieh_rtl     cosim --blocks shieh --in-loop --drive rtl --mix pathfinder+preempter --arrive preempter@4000:1 --set context.latency_bound=3000 --set sm.allocator=aligned
echo "carve-check.sh: $n runs; digest $(cat "$out"/*.json | sha256sum | cut -c1-16)"
