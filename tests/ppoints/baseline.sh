#!/bin/sh
# SPDX-License-Identifier: MIT
# baseline.sh - the mechanism off costs nothing: [context] points = any gives exactly the cycles
# of a run that does not name it; points = selective without any preemption costs only the
# points' pp + dummy fetch cycles and issue slots: identical where every point is a bar.pp
# (reduction: its loop's barrier). (Elsewhere the cycles may move either way: a later fetch
# reorders the warps, and bfs's data races then even change its instruction count; small:
# 145,879 -> 146,272.)
#   tests/ppoints/baseline.sh HEDDLE
set -eu
heddle=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-ppbase-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cyc() { sed -n 's/.*"totals": {"cycles": \([0-9]*\).*/\1/p' "$1"; }
for w in reduction bfs sgemm; do
    "$heddle" run $w --size small --quiet --stats "$tmp/d.json" > /dev/null
    "$heddle" run $w --size small --quiet --set context.points=any --stats "$tmp/a.json" > /dev/null
    "$heddle" run $w --size small --quiet --set context.points=selective --stats "$tmp/s.json" > /dev/null
    d=$(cyc "$tmp/d.json") a=$(cyc "$tmp/a.json") s=$(cyc "$tmp/s.json")
    echo "baseline.sh: $w: default $d, any $a, selective $s cycles"
    [ -n "$d" ] && [ "$d" = "$a" ] || { echo "baseline.sh: $w: points=any changed the cycles"; exit 1; }
    if [ $w = reduction ] && [ "$s" != "$a" ]; then
        echo "baseline.sh: reduction's points are bar.pp: no fetch cost expected"; exit 1
    fi
done
echo "baseline.sh: ok"
