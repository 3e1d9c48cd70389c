#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fixture_tb.sh WORKDIR - lint and simulate the alloc_bitmap flow fixture (CTest synth_fixture):
# verilator --lint-only -Wall for several parameter sets, then its self-checking testbench
# (alloc_bitmap_tb.sv, Verilator --binary --timing) at 5 and 300 units. Exits 77 (skipped)
# when Verilator is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/alloc_bitmap"
work="${1:?usage: fixture_tb.sh WORKDIR}"
mkdir -p "$work"
if ! command -v verilator >/dev/null; then
    echo "synth_fixture SKIPPED: verilator is not installed"
    exit 77
fi
for p in "-GUnits=4" "-GUnits=300" "-GUnits=3072" "-GResetAll=0"; do
    verilator --lint-only -Wall "$here/alloc_bitmap.vlt" "$here/alloc_bitmap.sv" "$p"
done
for units in 5 300; do
    rm -rf "$work/u$units"
    verilator --binary --timing -Wno-fatal -Wno-lint -Wno-style --Mdir "$work/u$units" \
        -GUnits="$units" --top-module alloc_bitmap_tb -o tb \
        "$here/alloc_bitmap_tb.sv" "$here/alloc_bitmap.sv" >"$work/u$units.log" 2>&1 ||
        { cat "$work/u$units.log"; exit 1; }
    out="$("$work/u$units/tb")"
    echo "Units=$units: $out" | head -1
    grep -q "^PASS" <<<"$out" || { echo "$out"; exit 1; }
done
