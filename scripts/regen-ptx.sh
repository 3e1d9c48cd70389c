#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# regen-ptx.sh - regenerate the committed PTX of every workload from its CUDA source.
#
# For each workloads/NAME/ folder holding NAME.cu, this runs nvcc with the fixed flags below and
# writes NAME.ptx, then assembles that PTX with `ptxas -arch=sm_75 -v` and records the resources
# ptxas reports in NAME.ptxas.txt, one line per kernel (entry function):
#     kernel=<name> registers=<n> shared=<bytes> local=<bytes>
# (lines starting with '#' are comments; `local` is the per-thread stack frame). A folder may hold
# a `ptx.flags` file: each non-comment line is `OUTPUT [extra nvcc flags...]` and produces
# OUTPUT.ptx (and OUTPUT.ptxas.txt) from NAME.cu with those flags added, e.g. `sgemm_t8 -DTILE=8`
# for a variant; a line for NAME itself adds flags to the main PTX. Flags are split on blanks.
#
# The output is deterministic: nvcc runs inside the folder on the bare file name (no paths end up
# in the PTX), without -lineinfo/-G, and ptxas's timing lines are not recorded. Rerunning with the
# same toolchain gives identical files; `--check` regenerates into a temporary directory and
# fails if any committed file differs.
#
# Usage: scripts/regen-ptx.sh [--check] [NAME...]   (default: every workload)
# Needs nvcc 13: $HD_NVCC if set, else nvcc on PATH, else /usr/local/cuda/bin/nvcc; exits with
# status 2 and a message when there is none.

set -euo pipefail

# The fixed flags every PTX is generated with (the model targets compute_75, PTX ISA 9.x).
NVCC_FLAGS=(-arch=compute_75 -ptx -O3 -std=c++17)
PTXAS_ARCH=sm_75

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
wl_dir="$root/workloads"

check=0
names=()
for arg in "$@"; do
    case "$arg" in
        --check) check=1 ;;
        -h|--help)
            sed -n '3,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
            exit 0 ;;
        -*) echo "regen-ptx.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
        *) names+=("$arg") ;;
    esac
done

if [[ -n "${HD_NVCC:-}" ]]; then
    nvcc="$(command -v "$HD_NVCC" || true)"
else
    nvcc="$(command -v nvcc || true)"
    if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then
        nvcc=/usr/local/cuda/bin/nvcc
    fi
fi
if [[ -z "$nvcc" ]]; then
    echo "regen-ptx.sh: nvcc not found (looked at \$HD_NVCC, on PATH and in /usr/local/cuda/bin)." >&2
    echo "  The committed workloads/*/*.ptx files are used as they are; install the CUDA" >&2
    echo "  toolkit 13 to regenerate them." >&2
    exit 2
fi
ptxas="$(dirname "$nvcc")/ptxas"
if [[ ! -x "$ptxas" ]]; then
    ptxas="$(command -v ptxas || true)"
fi
if [[ -z "$ptxas" ]]; then
    echo "regen-ptx.sh: ptxas not found next to $nvcc or on PATH" >&2
    exit 2
fi
nvcc_version="$("$nvcc" --version | sed -n 's/^Cuda compilation tools, //p')"
case "$nvcc_version" in
    "release 13."*) ;;
    *) echo "regen-ptx.sh: warning: expected nvcc 13, found '$nvcc_version'" >&2 ;;
esac

if [[ ${#names[@]} -eq 0 ]]; then
    for d in "$wl_dir"/*/; do
        n="$(basename "$d")"
        [[ -f "$d/$n.cu" ]] && names+=("$n")
    done
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# ptxas -v output (stderr) -> the recorded resource lines, in the order ptxas reports kernels.
ptxas_summary() {
    awk -v hdr="$1" '
        BEGIN { print hdr }
        /Compiling entry function/ {
            match($0, /\x27[^\x27]*\x27/); kern = substr($0, RSTART + 1, RLENGTH - 2)
            order[++nk] = kern; regs[kern] = 0; smem[kern] = 0; stack[kern] = 0; next
        }
        /Function properties for / { cur = $NF; next }
        /bytes stack frame/ { if (cur in regs) stack[cur] = $1; next }
        /Used [0-9]+ registers/ {
            if (!(cur in regs)) next
            for (i = 1; i <= NF; i++) {
                if ($i ~ /^registers/) regs[cur] = $(i - 1)
                if ($i ~ /^smem/ && $(i - 1) == "bytes") smem[cur] = $(i - 2)
            }
        }
        END {
            for (i = 1; i <= nk; i++) {
                k = order[i]
                printf "kernel=%s registers=%d shared=%d local=%d\n", k, regs[k], smem[k], stack[k]
            }
        }'
}

# Outputs of one folder: "OUTPUT<tab>flags" lines; NAME first.
folder_outputs() {
    local dir="$1" name="$2" main_flags=""
    local -a extra=()
    if [[ -f "$dir/ptx.flags" ]]; then
        while IFS= read -r line || [[ -n "$line" ]]; do
            line="${line%%#*}"
            read -r out flags <<<"$line" || true
            [[ -z "${out:-}" ]] && continue
            if [[ ! "$out" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
                echo "regen-ptx.sh: $dir/ptx.flags: bad output name '$out'" >&2
                exit 1
            fi
            if [[ "$out" == "$name" ]]; then
                main_flags="$flags"
            else
                extra+=("$out"$'\t'"$flags")
            fi
        done <"$dir/ptx.flags"
    fi
    printf '%s\t%s\n' "$name" "$main_flags"
    if [[ ${#extra[@]} -gt 0 ]]; then
        printf '%s\n' "${extra[@]}"
    fi
}

status=0
for name in "${names[@]}"; do
    dir="$wl_dir/$name"
    if [[ ! -f "$dir/$name.cu" ]]; then
        echo "regen-ptx.sh: workloads/$name/$name.cu does not exist" >&2
        exit 1
    fi
    declare -A made=()
    while IFS=$'\t' read -r out flags; do
        made["$out.ptx"]=1
        read -r -a fl <<<"$flags" || true
        ( cd "$dir" && "$nvcc" "${NVCC_FLAGS[@]}" "${fl[@]}" "$name.cu" -o "$tmp/$out.ptx" ) || {
            echo "regen-ptx.sh: nvcc failed on workloads/$name/$name.cu ($out)" >&2
            exit 1
        }
        if ! "$ptxas" -arch="$PTXAS_ARCH" -v "$tmp/$out.ptx" -o "$tmp/$out.cubin" \
                2>"$tmp/$out.ptxas.log"; then
            cat "$tmp/$out.ptxas.log" >&2
            echo "regen-ptx.sh: ptxas failed on $out.ptx" >&2
            exit 1
        fi
        hdr="# ptxas -arch=$PTXAS_ARCH -v on $out.ptx (nvcc ${NVCC_FLAGS[*]}${flags:+ $flags}; $nvcc_version)"
        ptxas_summary "$hdr" <"$tmp/$out.ptxas.log" >"$tmp/$out.ptxas.txt"
        if [[ $(grep -c '^kernel=' "$tmp/$out.ptxas.txt") -eq 0 ]]; then
            echo "regen-ptx.sh: no kernel found in ptxas output for $out.ptx" >&2
            exit 1
        fi
        for f in "$out.ptx" "$out.ptxas.txt"; do
            if [[ $check -eq 1 ]]; then
                if ! cmp -s "$tmp/$f" "$dir/$f"; then
                    echo "out of date: workloads/$name/$f"
                    status=1
                fi
            else
                mv "$tmp/$f" "$dir/$f"
            fi
        done
        [[ $check -eq 1 ]] || echo "regenerated workloads/$name/$out.ptx ($(grep -c '^kernel=' "$dir/$out.ptxas.txt") kernel(s))"
    done < <(folder_outputs "$dir" "$name")
    for p in "$dir"/*.ptx; do
        [[ -e "$p" ]] || continue
        if [[ -z "${made[$(basename "$p")]:-}" ]]; then
            echo "regen-ptx.sh: warning: workloads/$name/$(basename "$p") is not produced by" \
                 "$name.cu/ptx.flags (stale? it is still embedded by the build)" >&2
        fi
    done
    unset made
done
if [[ $check -eq 1 && $status -eq 0 ]]; then
    echo "all PTX up to date"
fi
exit $status
