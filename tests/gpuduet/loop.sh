#!/bin/sh
# SPDX-License-Identifier: MIT
# loop.sh - GPUDuet's blocks in the timing loop (model/mech/gpuduet/gpuduet_loop.h; issue 28
# item 4; docs/blocks/gpuduet.md "In the GPU"): each WORKLOAD at small size on
# configs/maxwell-gpuduet.ini with [sm] allocator = ALLOC, 128 logical warps and a fixed ME, under
# `heddle cosim --blocks gpuduet --in-loop`, once with the C references driving (the RTL in
# lockstep beside them) and once with --drive rtl. Each run must verify with 0 mismatches (the
# loop checks every table read and bitmap answer against the model), step blocks against the
# RTL, and have checked reads and bitmap operations ([gpuduet] log's `blocks` line); the two
# runs must give the same cycles and block steps. The CSL's data-mover blocks move the switched
# warps (gpuduet_mover.h): the log's `csl` line must show jobs when the CSL switched a warp out
# (a workload that never switches has none), each of ceil(bytes / PW) beats
# (beats = beats_want), none left at the end, and every switch-out and switch-in of the CSL
# (`total` outs + ins) a job or a fixed-latency move, a swap job (kind 2) being one switch-out
# and one switch-in (jobs + swaps + fixed); every swap moved as one move of both warps (`total`
# swap_jobs) is one kind-2 job of the blocks (`csl` swaps), and a run whose CSL swapped warps
# at warp level (allocator gpuduet, `total` swaps > 0) has some; a job takes at least its
# command's edge, its beats, the cycles it waited for the pipeline and its registered done, so
# the summed latency must be at least 2 x jobs + beats + waits. Options before `--` go to every run (they come
# after the fixed ME: `--set gpuduet.dynamic=true` makes the monitor blocks' ME the SMs', and a
# run must then show a monitor update). The log's tmon and queue_block lines are printed.
#   tests/gpuduet/loop.sh HEDDLE ME ALLOC [OPTIONS... --] WORKLOAD...
set -eu
heddle=$1 me=$2 alloc=$3
shift 3
opts=""
case " $* " in
*" -- "*)
    while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    shift ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gduetl-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
bad=0
for w in "$@"; do
    for d in ref rtl; do
        if ! "$heddle" cosim --blocks gpuduet --in-loop "$w" --size small \
                --config configs/maxwell-gpuduet.ini --set sm.allocator="$alloc" \
                --set sm.logical_warps=128 --set gpuduet.dynamic=false --set gpuduet.me="$me" \
                --set gpuduet.log="$tmp/g.log" --drive "$d" $opts > "$tmp/out.$d" 2>&1; then
            echo "$w $alloc --drive $d FAILED:"; tail -5 "$tmp/out.$d"; bad=1; continue
        fi
        sum=$(grep "^$w: verified .* 0 mismatches" "$tmp/out.$d" || true)
        if [ -z "$sum" ]; then
            echo "$w $alloc --drive $d: no verified, 0-mismatch summary:"; cat "$tmp/out.$d"
            bad=1; continue
        fi
        rtl=$(echo "$sum" | sed -n 's/.* block steps (\([0-9]*\) against RTL).*/\1/p')
        if [ "${rtl:-0}" -eq 0 ]; then
            echo "$w $alloc --drive $d: no block step against the RTL"; bad=1
        fi
        echo "$sum" | sed -n 's/.*verified ([a-z]*), \([0-9]* cycles\).*, \([0-9]* block steps\).*/\1, \2/p' \
            > "$tmp/key.$d"
        blk=$(grep '^blocks ' "$tmp/g.log" || true)
        tmon=$(grep '^tmon steps' "$tmp/g.log" || true)
        qb=$(grep '^queue_block ' "$tmp/g.log" || true)
        csl=$(grep '^csl ' "$tmp/g.log" || true)
        echo "$w $alloc --drive $d: $(cat "$tmp/key.$d"); $blk; $tmon; $qb; $csl"
        cj=$(echo "$csl" | sed -n 's/.* jobs=\([0-9]*\).*/\1/p')
        cb=$(echo "$csl" | sed -n 's/.* beats=\([0-9]*\).*/\1/p')
        cw=$(echo "$csl" | sed -n 's/.* beats_want=\([0-9]*\).*/\1/p')
        cl=$(echo "$csl" | sed -n 's/.* left=\([0-9]*\).*/\1/p')
        cf=$(echo "$csl" | sed -n 's/.* fixed=\([0-9]*\).*/\1/p')
        ct=$(echo "$csl" | sed -n 's/.* latency=\([0-9]*\).*/\1/p')
        cx=$(echo "$csl" | sed -n 's/.* waits=\([0-9]*\).*/\1/p')
        cs=$(echo "$csl" | sed -n 's/.* swaps=\([0-9]*\).*/\1/p')
        tot=$(grep '^total' "$tmp/g.log" || true)
        to=$(echo "$tot" | sed -n 's/.* outs=\([0-9]*\).*/\1/p')
        ti=$(echo "$tot" | sed -n 's/.* ins=\([0-9]*\).*/\1/p')
        ts=$(echo "$tot" | sed -n 's/.* swaps=\([0-9]*\).*/\1/p')
        tj=$(echo "$tot" | sed -n 's/.* swap_jobs=\([0-9]*\).*/\1/p')
        if { [ "${to:-0}" -gt 0 ] && [ "${cj:-0}" -eq 0 ]; } || [ "${cb:-x}" != "${cw:-y}" ] ||
           [ "${cl:-1}" -ne 0 ] ||
           [ $((${cj:-0} + ${cs:-x} + ${cf:-0})) -ne $((${to:-0} + ${ti:-0})) ] ||
           [ "${cs:-x}" != "${tj:-y}" ] ||
           { [ "$alloc" = gpuduet ] && [ "${ts:-0}" -gt 0 ] && [ "${cs:-0}" -eq 0 ]; } ||
           [ "${ct:-0}" -lt $((2 * ${cj:-0} + ${cb:-0} + ${cx:-0})) ]; then
            echo "$w $alloc --drive $d: the CSL switched warps but its blocks moved none, not ceil(bytes / PW) beats per job, left jobs, jobs + swaps + fixed != outs + ins ($to + $ti), swap jobs != the CSL's one-move swaps ($tj), no swap job though the CSL swapped ($ts), or latency < 2 x jobs + beats + waits: $csl"
            bad=1
        fi
        case "$opts" in
        *gpuduet.dynamic=true*)
            v=$(echo "$tmon" | sed -n 's/.* updates=\([0-9]*\).*/\1/p')
            if [ "${v:-0}" -eq 0 ]; then
                echo "$w $alloc --drive $d: dynamic ME, but no monitor block updated"; bad=1
            fi ;;
        esac
        for k in wct_reads tbct_reads bitmap_ops; do
            v=$(echo "$blk" | sed -n "s/.* $k=\([0-9]*\).*/\1/p")
            if [ "${v:-0}" -eq 0 ]; then
                echo "$w $alloc --drive $d: the loop checked no $k"; bad=1
            fi
        done
    done
    if [ -s "$tmp/key.ref" ] && ! cmp -s "$tmp/key.ref" "$tmp/key.rtl"; then
        echo "$w $alloc: --drive ref gives $(cat "$tmp/key.ref"), --drive rtl $(cat "$tmp/key.rtl")"
        bad=1
    fi
    rm -f "$tmp/key.ref" "$tmp/key.rtl"
done
[ "$bad" -eq 0 ] && echo "loop.sh: 0 mismatches, same cycles with --drive rtl"
exit "$bad"
