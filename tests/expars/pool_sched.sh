#!/bin/sh
# SPDX-License-Identifier: MIT
# pool_sched.sh - [expars] pool_sched (the warp pool under a two-level scheduler, Yu et al. L93,
# L226; docs/expars.md "Tracing the gap"): a warp held for its prefetch is not schedulable, so
# the two-level refresh exchanges it for a pending warp. The register-bound reduction (mix CTAs
# exist) under two-level with 6 active warps, with and without: both verify with the checker
# on, and the cycles differ (the hook's pooled answer reaches the scheduler; measured 13,218
# with it, 13,815 without). Then [expars] unpin_wait (off by default: a warp that begins a long
# wait inside its bundle unpins its lines and is prefetched again): the same reduction under GTO
# verifies with it and the log counts such unpins (wait_unpins > 0; 0 without).
#   tests/expars/pool_sched.sh HEDDLE OUTDIR
set -eu
heddle=${1:?usage: pool_sched.sh HEDDLE OUTDIR}
out=${2:?usage: pool_sched.sh HEDDLE OUTDIR}
mkdir -p "$out"
for v in true false; do
    "$heddle" run reduction --size small --set sm.allocator=expars --set sm.registers=16384 \
        --set sm.scheduler=two_level --set sm.sched_active_warps=6 --set expars.pool_sched=$v \
        > "$out/red-$v.out" 2>&1 || { echo "pool_sched=$v: run failed"; cat "$out/red-$v.out"; exit 1; }
    grep -q VERIFIED "$out/red-$v.out" || { echo "pool_sched=$v: not verified"; exit 1; }
done
cyc() { awk '$1 == "cycles" { print $2; exit }' "$1"; }
ct=$(cyc "$out/red-true.out"); cf=$(cyc "$out/red-false.out")
echo "pool_sched: cycles $ct (held warps leave the active set) / $cf (they keep their slot)"
[ -n "$ct" ] && [ -n "$cf" ] && [ "$ct" -ne "$cf" ] || { echo "pool_sched: no effect"; exit 1; }
for v in true false; do
    "$heddle" run reduction --size small --set sm.allocator=expars --set sm.registers=16384 \
        --set sm.scheduler=gto --set expars.unpin_wait=$v --set expars.log="$out/unpin-$v.log" \
        > "$out/unpin-$v.out" 2>&1 || { echo "unpin_wait=$v: run failed"; cat "$out/unpin-$v.out"; exit 1; }
    grep -q VERIFIED "$out/unpin-$v.out" || { echo "unpin_wait=$v: not verified"; exit 1; }
done
sum() { # FIELD LOG
    awk -v f="$1" '{ for (i = 1; i < NF; i++) if ($i == f) s += $(i + 1) } END { print s + 0 }' "$2"
}
ut=$(sum wait_unpins "$out/unpin-true.log"); uf=$(sum wait_unpins "$out/unpin-false.log")
echo "pool_sched: unpin_wait: long waits that unpinned lines $ut (on) / $uf (off)"
[ "$ut" -gt 0 ] && [ "$uf" -eq 0 ] || { echo "pool_sched: unpin_wait had no effect"; exit 1; }
echo "pool_sched: ok"
