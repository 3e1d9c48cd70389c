#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# smoke.sh OUTDIR - the CI run of the synthesis flow (CTest synth_smoke): every block with its
# smoke parameter set (synth/blocks.ini), two at a time. Exits 77 (CTest: skipped) with a clear
# message only when Yosys or OpenSTA is missing (scripts/setup.sh installs both); otherwise the
# flow must succeed for every block and write its text and JSON report.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: smoke.sh OUTDIR}"
for tool in python3 yosys sta; do
    if ! command -v "$tool" >/dev/null; then
        echo "synth_smoke SKIPPED: $tool is not installed (scripts/setup.sh installs yosys, opensta, qflow-tech-osu018)"
        exit 77
    fi
done
"$root/synth/run.sh" --smoke -j 2 --out "$out"
for f in synth.txt synth.json; do
    [ -s "$out/$f" ] || { echo "synth_smoke: $out/$f is missing" >&2; exit 1; }
done
python3 - "$out/synth.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
built = [b for b in data["blocks"] if b.get("ok")]
if not built:
    sys.exit("synth_smoke: no block was synthesized")
for b in built:
    n = b["numbers"]
    assert n["mapped"]["cells"] > 0 and n["mapped"]["area_um2"] > 0, b["block"]
    assert n["timing"]["crit_ps"] and n["timing"]["crit_ps"] > 0, b["block"]
print(f"synth_smoke: {len(built)} blocks synthesized and timed")
PY
