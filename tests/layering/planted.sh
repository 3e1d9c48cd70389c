#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# planted.sh - scripts/check-layering.sh must catch each rule of the core/mechanism split: a copy
# of the source tree's model/ gets one planted violation at a time, and the checker must fail
# naming the file and the rule; the unplanted copy must pass. The tree is copied once; each
# planted line is taken out again (the file restored) before the next is planted.
#   tests/layering/planted.sh SOURCE_ROOT
set -euo pipefail
src=${1:?usage: planted.sh SOURCE_ROOT}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hd-layering-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fresh() {
    rm -rf "$tmp/t"
    mkdir -p "$tmp/t"
    cp -r "$src/model" "$src/compressors" "$src/tables" "$src/cosim" "$src/testbenches" \
          "$src/workloads" "$tmp/t/"
    mkdir -p "$tmp/t/model/mech/zz_other"
    printf '/* a second mechanism */\n#ifndef ZZ_H\n#define ZZ_H\n#endif\n' > "$tmp/t/model/mech/zz_other/zz_other.h"
}
expect() { # NAME FILE LINE-TO-ADD PATTERN
    local name=$1 file=$2 line=$3 pat=$4 out
    cp "$tmp/t/$file" "$tmp/unplanted"
    printf '%s\n' "$line" >> "$tmp/t/$file"
    if out=$(bash "$src/scripts/check-layering.sh" "$tmp/t" 2>&1); then
        echo "planted.sh: $name: not caught"; echo "$out"; exit 1
    fi
    cp "$tmp/unplanted" "$tmp/t/$file"
    if ! grep -q -- "$pat" <<<"$out"; then
        echo "planted.sh: $name: caught without the expected message /$pat/:"; echo "$out"; exit 1
    fi
    echo "planted.sh: $name: caught: $(grep -- "$pat" <<<"$out" | head -1)"
}
fresh
bash "$src/scripts/check-layering.sh" "$tmp/t" >/dev/null || { echo "planted.sh: the clean copy fails"; exit 1; }
mech=$(cd "$src/model/mech" && ls -d */ | head -1 | tr -d /)
mh=$(cd "$src/model/mech/$mech" && ls *.h | head -1)
expect "core includes a mechanism header" model/timing/sm.c "#include \"$mh\"" \
       "the core (model/timing) must not include $mh"
expect "context engine includes a mechanism header" model/ctx/ctx_engine.c "#include \"$mh\"" \
       "the core (model/ctx) must not include $mh"
expect "policy includes a mechanism header" model/policy/sm_alloc.c "#include \"$mh\"" \
       "the core (model/policy) must not include $mh"
expect "mechanism includes a core internal" "model/mech/$mech/${mech}_mech.c" '#include "sm_impl.h"' \
       "must not include sm_impl.h (a core internal"
expect "mechanism includes an *_impl.h of its own" "model/mech/$mech/${mech}_mech.c" '#include "my_impl.h"' \
       "must not include my_impl.h"
expect "mechanism includes a core header" "model/mech/$mech/${mech}_mech.c" '#include "sm.h"' \
       "layer model/mech/$mech must not include sm.h (from model/timing)"
expect "mechanism includes another mechanism" "model/mech/$mech/${mech}_mech.c" '#include "zz_other.h"' \
       "must not include zz_other.h (from model/mech/zz_other)"
expect "policy includes a core header" model/policy/sm_sched.c '#include "gpu_impl.h"' \
       "layer model/policy must not include gpu_impl.h"
echo "planted.sh: every planted violation caught"
