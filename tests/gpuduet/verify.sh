#!/bin/sh
# SPDX-License-Identifier: MIT
# verify.sh - workloads verify with GPUDuet, GPUDuet_TB and Virtual Thread (issue 28 acceptance):
# each WORKLOAD at small size on configs/maxwell-gpuduet.ini with [sm] allocator = each of
# ALLOCATORS (comma-separated), 128 logical warps and a fixed ME; prints cycles and switch counts.
# Options before `--` go to every run (e.g. --set sm.max_threads=1024: 32 warp slots, so that
# TBs wait for room at small size and warps are switched).
#   tests/gpuduet/verify.sh HEDDLE ME ALLOCATORS [OPTIONS... --] WORKLOAD...
set -eu
heddle=$1 me=$2 allocs=$3
shift 3
opts=""
case " $* " in
*" -- "*)
    while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    shift ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-gduetv-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
bad=0
for w in "$@"; do
    for a in $(echo "$allocs" | tr ',' ' '); do
        if "$heddle" run "$w" --size small --config configs/maxwell-gpuduet.ini \
                --set sm.allocator="$a" --set sm.logical_warps=128 --set gpuduet.dynamic=false \
                --set gpuduet.me="$me" --set gpuduet.log="$tmp/g.log" $opts > "$tmp/out" 2>&1 &&
            grep -q VERIFIED "$tmp/out"; then
            echo "$w $a VERIFIED $(grep -E '^  cycles' "$tmp/out" | awk '{print $2}') cycles;" \
                 "$(grep '^total' "$tmp/g.log" | cut -d' ' -f4,6,7)"
        else
            echo "$w $a FAILED"; tail -5 "$tmp/out"; bad=1
        fi
    done
done
[ "$bad" -eq 0 ] && echo "verify.sh: all verified"
exit "$bad"
