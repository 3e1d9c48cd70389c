#!/bin/sh
# SPDX-License-Identifier: MIT
# save_latency.sh - the save latency of a one-CTA context equals the hand computation: the
# context engine sends n = ceil(bytes / 128) stores; each is a packet of f = ceil((header + 128)
# / flit) flits that the SM's crossbar port injects at one flit per interconnect cycle (the save
# path's bottleneck: the engine could send one request per core cycle, at the same clock), so
# the last store leaves (n - 1) x f cycles after the first, and its acknowledgement comes back
# after one store's memory latency. A 128-byte store to the L2 and back (5 flits out, 1 back)
# takes what a 128-byte L2 hit takes (1 flit out, 5 back): the memory system's mean L2 read
# latency of the pointer chase through the L2 (chase_l2). The prediction
# (n - 1) x f + L2 latency must match the measured mean save latency within 5 %.
#   tests/context/save_latency.sh HEDDLE
set -eu
heddle=$1
here=$(dirname "$0")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-ctxlat-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
measure() { # segment -> "bytes_per_save cycles_per_save"
    "$heddle" run chase --size small --set context.stress_period=2000 \
        --set context.stress_fraction=1 --set context.segment_bytes="$1" --quiet \
        --stats "$tmp/$1.json" > "$tmp/$1.out" 2>&1 || { cat "$tmp/$1.out"; exit 1; }
    python3 "$here/ctxsum.py" "$tmp/$1.json" |
        awk '/^ctx_saves /{n=$2} /^ctx_save_bytes /{b=$2} /^ctx_save_cycles /{c=$2}
             END {if (n == 0) exit 1; printf "%d %.3f\n", b / n, c / n}'
}
flit=32 header=8 # [icnt] flit_bytes, header_bytes of fermi-gtx480
l2=$("$heddle" run chase_l2 --size small 2>&1 | sed -n 's/.*mean read latency.* L2 \([0-9.]*\),.*/\1/p')
[ -n "$l2" ] || { echo "save_latency.sh: no L2 latency from chase_l2"; exit 1; }
set -- $(measure 128); bytes=$1 t=$2
awk -v B="$bytes" -v T="$t" -v L="$l2" -v fl="$flit" -v h="$header" 'BEGIN {
    n = int((B + 127) / 128); f = int((h + 128 + fl - 1) / fl)
    pred = (n - 1) * f + L; err = (T - pred) / pred
    printf "context %d bytes: (%d stores - 1) x %d flits + one store %.1f (L2 latency) = %.1f cycles predicted, %.1f measured (%+.1f%%)\n", B, n, f, L, pred, T, 100 * err
    exit (err < -0.05 || err > 0.05) }'
