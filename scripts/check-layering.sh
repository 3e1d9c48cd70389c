#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-layering.sh - enforce the one-way layering of the C model (style rule C10) and the
# separation of the core from the mechanisms (docs/architecture.md "Layers", docs/mechanisms.md).
#
# Every `#include "x.h"` of a layer must name a header of that layer or of a layer it may use:
#   ptx      -> ptx
#   compiler -> ptx, compiler
#   config   -> config
#   func     -> ptx, compiler, func            (never runtime, cli, config: it gets plain params)
#   hw       -> hw        (the neutral layer: memory port, block port tables, block instances)
#   compressors, tables -> hw and themselves   (C references of the hardware blocks)
#   mem      -> config, hw, mem                 (never timing: the memory port is in hw)
#   policy   -> ptx, compiler, config, func, hw, compressors, tables, mem, policy, and of the
#               core only the parameter header timing_params.h (generic policies and the
#               contracts, e.g. mech.h: the hook interface and the mechanism registry)
#   mech/X   -> ptx, compiler, config, func, hw, compressors, tables, mem, policy, mech/X, and of
#               the core only timing_params.h and timing_stats.h; never another mechanism's
#               folder, never a header named *_impl.h (a mechanism reaches the core only
#               through the policy contracts and the hooks)
#   timing, ctx (the core: SM pipeline, GPU top, context engine)
#            -> ptx, compiler, config, func, hw, compressors, tables, mem, policy, timing, ctx;
#               never a mechanism's header (the core reaches mechanisms only through mech.h)
#   power    -> config, hw, mem, timing, power  (reads the statistics, after the run)
#   runtime  -> everything below it, mechanisms included (e.g. the Oracle's profile writer)
#   cosim    -> ptx, compiler, func, hw, compressors, tables, cosim (never timing or runtime:
#               it reaches the model through the block factory and the observer)
#   testbenches -> hw, compressors, tables, cosim, testbenches
#   workloads-> runtime's public heddle.h, workloads (drivers use only the public API)
#   cli      -> anything
# Headers are found by name in the layer directories (top level); a name that is in none of
# them (generated or system headers) is ignored. Prints each violation as file:line and exits 1
# if any.
# Usage: scripts/check-layering.sh [SOURCE_ROOT]
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$root"

low="model/ptx model/compiler model/config model/func model/hw compressors tables model/mem"
mechs=()
for d in model/mech/*/; do
    [ -d "$d" ] && mechs+=("${d%/}")
done
declare -A allowed=(
    [model/ptx]="model/ptx"
    [model/compiler]="model/ptx model/compiler"
    [model/config]="model/config"
    [model/func]="model/ptx model/compiler model/func"
    [model/hw]="model/hw"
    [compressors]="model/hw compressors"
    [tables]="model/hw tables"
    [model/mem]="model/config model/hw model/mem"
    [model/policy]="$low model/policy"
    [model/timing]="$low model/policy model/timing model/ctx"
    [model/ctx]="$low model/policy model/timing model/ctx"
    [model/power]="model/config model/hw model/mem model/timing model/power"
    [model/runtime]="$low model/policy model/timing model/ctx ${mechs[*]} model/power model/runtime"
    [cosim]="model/ptx model/compiler model/func model/hw compressors tables cosim"
    [testbenches]="model/hw compressors tables cosim testbenches"
)
# the core headers a policy / a mechanism may include (the parameters; the statistics records)
declare -A core_ok=(
    [model/policy]="timing_params.h"
)
for m in "${mechs[@]}"; do
    allowed[$m]="$low model/policy $m"
    core_ok[$m]="timing_params.h timing_stats.h"
done
layers=(model/ptx model/compiler model/config model/func model/hw compressors tables model/mem
        model/policy model/timing model/ctx "${mechs[@]}" model/power model/runtime cosim testbenches model/cli
        workloads)

# Which layer owns each header (by file name; the first layer in `layers` order wins)?
declare -A owner=()
for l in "${layers[@]}"; do
    [ -d "$l" ] || continue
    while IFS= read -r -d '' h; do
        h="${h##*/}"
        [ -n "${owner[$h]:-}" ] || owner[$h]="$l"
    done < <(find "$l" -maxdepth 1 -name '*.h' -print0)
done

bad=0
check_include() { # layer file line header
    local layer="$1" file="$2" n="$3" hdr="${4##*/}" own
    if [[ "$layer" == model/mech/* && "$hdr" == *_impl.h ]]; then
        echo "$file:$n: mechanism $layer must not include $hdr (a core internal: use the hooks of mech.h)"
        bad=1
        return
    fi
    own="${owner[$hdr]:-}"
    [ -z "$own" ] && return
    if [ "$layer" = workloads ]; then
        [ "$own" = workloads ] || [ "$hdr" = heddle.h ] && return
    elif [[ " ${allowed[$layer]} " == *" $own "* ]]; then
        return
    elif [[ ( "$own" == model/timing || "$own" == model/ctx ) &&
            " ${core_ok[$layer]:-} " == *" $hdr "* ]]; then
        return
    fi
    if [[ "$own" == model/mech/* && ( "$layer" == model/timing || "$layer" == model/ctx ||
                                      "$layer" == model/policy ) ]]; then
        echo "$file:$n: the core ($layer) must not include $hdr (mechanism $own): reach it through the hooks and registry of mech.h"
    else
        echo "$file:$n: layer $layer must not include $hdr (from $own)"
    fi
    bad=1
}

re='^([^:]+):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)"'
for layer in "${layers[@]}"; do
    [ "$layer" = model/cli ] && continue
    [ -d "$layer" ] || continue
    while IFS= read -r line; do
        [[ "$line" =~ $re ]] || continue
        check_include "$layer" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}"
    done < <(grep -rnE --include='*.[ch]' --include='*.cpp' \
                  '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$layer" | sort -t: -k1,1 -k2,2n)
done
if [ "$bad" -ne 0 ]; then
    echo "check-layering.sh: FAILED (see docs/architecture.md, Layers; docs/mechanisms.md)" >&2
    exit 1
fi
echo "check-layering.sh: layering OK"
