#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# regen.sh - regenerate the front end's test corpus tests/ptx/good/*.ptx from the .cu files there,
# and tests/ptx/extra/*.ptx (kernels whose PTX the corpus checks cannot take, run by unit tests).
#
# Each NAME.cu gives NAME.ptx with the project's flags (-arch=compute_75 -ptx -O3). Extra
# files exercise debug directives: warp_lineinfo.ptx (-lineinfo: .file/.loc) and
# atomics_debug.ptx, half_debug.ptx, calls_debug.ptx (-G: .loc, .section DWARF blocks,
# unoptimised code with stack frames); their .file lines hold the absolute paths nvcc saw, which
# the parser skips.
# Usage: tests/ptx/regen.sh   (needs nvcc: $HD_NVCC, else nvcc on PATH, else /usr/local/cuda/bin/nvcc)
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/good" && pwd)"
nvcc="${HD_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
[ -x "$nvcc" ] || { echo "regen.sh: nvcc not found (set HD_NVCC)" >&2; exit 2; }
flags=(-arch=compute_75 -ptx -O3)
cd "$dir"
for cu in *.cu; do
    "$nvcc" "${flags[@]}" "$cu" -o "${cu%.cu}.ptx"
done
"$nvcc" "${flags[@]}" -lineinfo warp.cu -o warp_lineinfo.ptx
for cu in atomics half calls; do
    "$nvcc" -arch=compute_75 -ptx -G "$cu.cu" -o "${cu}_debug.ptx"
done
echo "regenerated $(ls *.ptx | wc -l) files in $dir"
cd ../extra
for cu in *.cu; do
    "$nvcc" "${flags[@]}" "$cu" -o "${cu%.cu}.ptx"
done
echo "regenerated $(ls *.ptx | wc -l) files in $(pwd)"
