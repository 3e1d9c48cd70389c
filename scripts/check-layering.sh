#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-layering.sh - enforce the one-way layering of the C model (style rule C10).
#
# Every `#include "x.h"` of a layer must name a header of that layer or of a layer below it:
#   ptx      -> ptx
#   compiler -> ptx, compiler
#   config   -> config
#   func     -> ptx, compiler, func            (never runtime, cli, config: it gets plain params)
#   hw       -> hw        (the neutral layer: memory port, block port tables, block instances)
#   compressors, tables -> hw and themselves   (C references of the hardware blocks)
#   mem      -> config, hw, mem                 (never timing: the memory port is in hw)
#   timing   -> ptx, compiler, config, func, hw, compressors, tables, mem, timing
#   power    -> config, hw, mem, timing, power  (reads the statistics, after the run)
#   runtime  -> ptx, compiler, config, func, hw, compressors, tables, mem, timing, power, runtime
#   cosim    -> ptx, compiler, func, hw, compressors, tables, cosim (never timing or runtime:
#               it reaches the model through the block factory and the observer)
#   testbenches -> hw, compressors, tables, cosim, testbenches
#   workloads-> runtime's public heddle.h, workloads (drivers use only the public API)
#   cli      -> anything
# (cli may include anything.) Headers are found by name in the layer directories (top level); a name that is in none of them (generated
# or system headers) is ignored. Prints each violation as file:line and exits 1 if any.
# Usage: scripts/check-layering.sh [SOURCE_ROOT]
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$root"

declare -A allowed=(
    [model/ptx]="model/ptx"
    [model/compiler]="model/ptx model/compiler"
    [model/config]="model/config"
    [model/func]="model/ptx model/compiler model/func"
    [model/hw]="model/hw"
    [compressors]="model/hw compressors"
    [tables]="model/hw tables"
    [model/mem]="model/config model/hw model/mem"
    [model/timing]="model/ptx model/compiler model/config model/func model/hw compressors tables model/mem model/timing"
    [model/power]="model/config model/hw model/mem model/timing model/power"
    [model/runtime]="model/ptx model/compiler model/config model/func model/hw compressors tables model/mem model/timing model/power model/runtime"
    [cosim]="model/ptx model/compiler model/func model/hw compressors tables cosim"
    [testbenches]="model/hw compressors tables cosim testbenches"
)
layers=(model/ptx model/compiler model/config model/func model/hw compressors tables model/mem model/timing model/power model/runtime cosim testbenches model/cli workloads)

# Which layer owns header $1 (by file name)?
owner_of() {
    local l
    for l in "${layers[@]}"; do
        [ -f "$l/$1" ] && { echo "$l"; return; }
    done
    echo ""
}

bad=0
check_file() { # layer file
    local layer="$1" file="$2" n=0 line hdr own
    while IFS= read -r line; do
        n=$((n + 1))
        [[ "$line" =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        hdr="${BASH_REMATCH[1]##*/}"
        own="$(owner_of "$hdr")"
        [ -z "$own" ] && continue
        if [ "$layer" = workloads ]; then
            [ "$own" = workloads ] || [ "$hdr" = heddle.h ] && continue
        elif [[ " ${allowed[$layer]} " == *" $own "* ]]; then
            continue
        fi
        echo "$file:$n: layer $layer must not include $hdr (from $own)"
        bad=1
    done <"$file"
}

for layer in model/ptx model/compiler model/config model/func model/hw compressors tables model/mem model/timing model/runtime cosim testbenches workloads; do
    while IFS= read -r -d '' f; do
        check_file "$layer" "$f"
    done < <(find "$layer" \( -name '*.[ch]' -o -name '*.cpp' \) -print0 | sort -z)
done
if [ "$bad" -ne 0 ]; then
    echo "check-layering.sh: FAILED (see docs/architecture.md, Layers)" >&2
    exit 1
fi
echo "check-layering.sh: layering OK"
