#!/bin/sh
# SPDX-License-Identifier: MIT
# loop.sh - CCBP's blocks in the timing loop (model/mech/ccbp/ccbp_loop.h; issue 29 item 6;
# docs/blocks/ccbp.md "In the loop"): each MIX (a CCBP pair of workloads/mixes.ini) at small size
# on configs/maxwell-ccbp.ini with Algorithm 1 from the pair's profile
# (experiments/results/ccbp/profiles/, else tests/ccbp/loop_prof.txt), re-run every 5,000 cycles (quotas on the IRCs, the firmware reading the monitor's snapshot), under
# `heddle cosim --blocks ccbp --in-loop`.
#   full  once with the C references driving (the RTL in lockstep beside them) and once with
#         --drive rtl: each must verify with 0 mismatches (the loop compares every IRC edge and
#         every snapshot read with the model), step blocks against the RTL, and have checked
#         selections, snapshot reads and controller reads ([ccbp] log's `blocks` line); both must give the cycles of the
#         run without the blocks (heddle run --mix, [ccbp] blocks = false).
#   ci    the --drive rtl run only, its cycles against the run without the blocks, and the
#         fault: [ccbp] blocks_fault makes the IRC blocks see wrong queue positions, which
#         must be reported as a located mismatch.
#   tests/ccbp/loop.sh HEDDLE MODE [OPTIONS... --] MIX...
set -eu
heddle=$1 mode=$2
shift 2
opts=""
case " $* " in
*" -- "*)
    while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    shift ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-ccbpl-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
case "$mode" in
full) drives="ref rtl" ;;
ci) drives="rtl" ;;
*) echo "loop.sh: mode full or ci, not '$mode'"; exit 2 ;;
esac
bad=0
for m in "$@"; do
    # the pair's profile from the experiment where there is one, else the test's hand-made one
    prof=experiments/results/ccbp/profiles/$(echo "$m" | tr + _).txt
    [ -f "$prof" ] || prof=tests/ccbp/loop_prof.txt
    common="--size small --config configs/maxwell-ccbp.ini --set ccbp.enable=true
            --set ccbp.profile=$prof --set ccbp.period=5000"
    # shellcheck disable=SC2086
    if ! "$heddle" run --mix "$m" $common --set ccbp.log="$tmp/plain.log" $opts \
            > "$tmp/plain" 2>&1; then
        echo "$m (no blocks) FAILED:"; tail -5 "$tmp/plain"; bad=1; continue
    fi
    plain=$(sed -n 's/^ *cycles  *\([0-9,]*\)$/\1/p' "$tmp/plain" | tr -d , | tail -1)
    runs=$(sed -n 's/^alg1_runs \([0-9]*\)/\1/p' "$tmp/plain.log")
    echo "$m without the blocks: ${plain:-?} cycles, Algorithm 1 ran ${runs:-?} times"
    for d in $drives; do
        # shellcheck disable=SC2086
        if ! "$heddle" cosim --blocks ccbp --in-loop --mix "$m" $common \
                --set ccbp.log="$tmp/c.log" --drive "$d" $opts > "$tmp/out.$d" 2>&1; then
            echo "$m --drive $d FAILED:"; tail -5 "$tmp/out.$d"; bad=1; continue
        fi
        sum=$(grep "^$m: verified .* 0 mismatches" "$tmp/out.$d" || true)
        if [ -z "$sum" ]; then
            echo "$m --drive $d: no verified, 0-mismatch summary:"; cat "$tmp/out.$d"
            bad=1; continue
        fi
        rtl=$(echo "$sum" | sed -n 's/.* block steps (\([0-9]*\) against RTL).*/\1/p')
        if [ "${rtl:-0}" -eq 0 ]; then
            echo "$m --drive $d: no block step against the RTL"; bad=1
        fi
        cyc=$(echo "$sum" | sed -n 's/.*verified ([a-z]*), \([0-9]*\) cycles.*/\1/p')
        blk=$(grep '^blocks ' "$tmp/c.log" || true)
        echo "$m --drive $d: $cyc cycles, $rtl block steps against the RTL; $blk"
        if [ "$cyc" != "$plain" ]; then
            echo "$m --drive $d: $cyc cycles, without the blocks $plain"; bad=1
        fi
        for k in irc_selects irc_grants monitor_reads ctrl_reads; do
            v=$(echo "$blk" | sed -n "s/.* $k \([0-9]*\).*/\1/p")
            if [ "${v:-0}" -eq 0 ]; then
                echo "$m --drive $d: the loop checked no $k"; bad=1
            fi
        done
    done
    if [ "$mode" = ci ]; then
        # shellcheck disable=SC2086
        "$heddle" run --mix "$m" $common --set ccbp.blocks=true --set ccbp.blocks_fault=2000 \
            $opts > "$tmp/fault" 2>&1 || true
        f=$(grep -o "ccbp blocks: MISMATCH at cycle [0-9]*, SM [0-9]*, block ccbp_irc, signal [a-z_]*: the block gives [0-9]*, the model's issue-rate controller [0-9]*" "$tmp/fault" | head -1)
        if [ -z "$f" ]; then
            echo "$m: the fault was not reported:"; tail -5 "$tmp/fault"; bad=1
        else
            echo "$m fault: $f"
        fi
    fi
done
[ "$bad" -eq 0 ] && echo "loop.sh: 0 mismatches, same cycles with --drive rtl"
exit "$bad"
