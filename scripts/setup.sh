#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# setup.sh - install the Debian packages Heddle needs (when missing), then configure and build
# into build/ (Release, all cores) what running and co-simulating need: heddle with the Verilated
# RTL of every block (the `run` tier; docs/testing.md). scripts/test.sh builds the tests on top
# (--tier ci), scripts/test.sh --full everything (--tier full). Prints its steps with counts and
# the build's progress; the compiler's output goes to BUILD/setup-build.log (shown on a failure).
#
# Idempotent and quick when nothing is missing: packages are checked with dpkg-query, and the
# build is incremental; a build/ configured for a larger tier keeps it unless --tier says. Packages are installed with apt-get when running as root (or through
# `sudo -n` when that works without a password); otherwise the missing ones are listed with the
# command to install them, and the build goes on if the required tools are already there.
#
# Required: build-essential cmake ninja-build (gcc, make; a new build tree uses Ninja:
# scripts/cmake-generator.sh); verilator libsystemc-dev yosys zlib1g-dev (the RTL
# blocks: co-simulation, SystemC testbenches, lint, port check, synthesis); opensta
# qflow-tech-osu018 (synth/run.sh: timing, the osu018 standard cells); python3-matplotlib
# (experiments/sweep.py: figures). Optional: clang libclang-rt-14-dev (the libFuzzer
# run in scripts/test.sh). Later issues add verilator, SystemC, yosys, ... to the lists below.
# --with-slurm also installs slurm-wlm and munge (the slurm backend of experiments/sweep.py and
# its test, which starts a private one-node cluster: tests/sweep/slurm-localhost.sh).
#
# Usage: scripts/setup.sh [--install-only | --no-install] [--with-slurm] [--build-dir DIR]
#                         [--build-type TYPE] [--tier run|ci|full]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
build_type=Release
do_install=1
do_build=1
tier=""

required_pkgs=(build-essential cmake ninja-build verilator libsystemc-dev yosys zlib1g-dev opensta
               qflow-tech-osu018 python3-matplotlib)
optional_pkgs=(clang libclang-rt-14-dev)

usage() {
    sed -n '3,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --install-only) do_build=0 ;;
        --no-install) do_install=0 ;;
        --with-slurm) required_pkgs+=(slurm-wlm munge) ;;
        --build-dir) shift; build="${1:?--build-dir needs a directory}" ;;
        --build-type) shift; build_type="${1:?--build-type needs a CMake build type}" ;;
        --tier) shift; tier="${1:?--tier needs run, ci or full}"
                case "$tier" in run|ci|full) ;; *) echo "setup.sh: --tier $tier: want run, ci or full" >&2; exit 2 ;; esac ;;
        -h|--help) usage; exit 0 ;;
        *) echo "setup.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

# {==== Packages ====
is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing_of() {
    local p out=()
    for p in "$@"; do is_installed "$p" || out+=("$p"); done
    echo "${out[@]:-}"
}

apt_install() {
    local runner=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            runner=(sudo -n)
        else
            return 1
        fi
    fi
    echo "setup.sh: installing $*"
    "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends "$@" >/dev/null
}

install_packages() {
    if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
        echo "setup.sh: not a Debian system; install ${required_pkgs[*]} ${optional_pkgs[*]}" \
             "(or equivalents) yourself" >&2
        return 0
    fi
    local req opt n
    req="$(missing_of "${required_pkgs[@]}")"
    opt="$(missing_of "${optional_pkgs[@]}")"
    # shellcheck disable=SC2086 # word splitting of the package lists is intended
    n=$(echo $req $opt | wc -w)
    if [ "$n" -eq 0 ]; then
        echo "setup.sh: [1/3] packages: all ${#required_pkgs[@]} required and ${#optional_pkgs[@]} optional installed"
        return 0
    fi
    echo "setup.sh: [1/3] packages: installing $n of $(( ${#required_pkgs[@]} + ${#optional_pkgs[@]} )) (apt-get)"
    # shellcheck disable=SC2086 # word splitting of the package lists is intended
    if apt_install $req $opt; then
        return 0
    fi
    # shellcheck disable=SC2086
    if [ -n "$opt" ] && [ -n "$req" ] && apt_install $req; then
        echo "setup.sh: warning: could not install $opt (only needed for fuzzing)" >&2
        return 0
    fi
    echo "setup.sh: cannot install packages (not root, no password-less sudo). Run:" >&2
    echo "    sudo apt-get install $req $opt" >&2
    if [ -n "$req" ]; then
        for tool in gcc make cmake; do
            command -v "$tool" >/dev/null ||
                { echo "setup.sh: $tool is required" >&2; exit 1; }
        done
    fi
    return 0
}
# }====

step_start=$SECONDS
if [ "$do_install" -eq 1 ]; then
    install_packages
    echo "setup.sh: [1/3] packages: done in $((SECONDS - step_start)) s"
else
    echo "setup.sh: [1/3] packages: skipped (--no-install)"
fi

# The build's progress: a line at every tenth of the build's percentage (make's "[ 42%]", Ninja's
# "[N/M]"), with files compiled and time.
progress() {
    local t0=$SECONDS last=-1 n=0 line pct steps total=""
    while IFS= read -r line; do
        printf '%s\n' "$line" >>"$log"
        case "$line" in *"Building "*) n=$((n + 1)) ;; esac
        pct=""
        steps=""
        if [[ "$line" =~ ^\[\ *([0-9]+)%\] ]]; then
            pct=${BASH_REMATCH[1]}
        elif [[ "$line" =~ ^\[([0-9]+)/([0-9]+)\] ]] && [ "${BASH_REMATCH[2]}" -gt 0 ]; then
            # Ninja's count of steps grows while the Verilator runs add the models' sources
            pct=$((BASH_REMATCH[1] * 100 / BASH_REMATCH[2]))
            steps=", step ${BASH_REMATCH[1]} of ${BASH_REMATCH[2]} known"
            if [ "${BASH_REMATCH[2]}" != "${total:-}" ]; then
                total=${BASH_REMATCH[2]}
                last=$((pct / 10 - 1))
            fi
        fi
        if [ -n "$pct" ] && [ $((pct / 10)) -gt "$last" ]; then
            last=$((pct / 10))
            echo "setup.sh: [3/3] build: ${pct} % ($n files compiled$steps, $((SECONDS - t0)) s)"
        fi
    done
}

if [ "$do_build" -eq 1 ]; then
    jobs="$(nproc 2>/dev/null || echo 2)"
    if [ -z "$tier" ]; then # keep a larger tier build/ was configured with
        tier="$(sed -n 's/^HD_TIER:STRING=//p' "$build/CMakeCache.txt" 2>/dev/null || true)"
        tier="${tier:-run}"
    fi
    nblocks=$(find "$root"/rtl -mindepth 2 -maxdepth 2 -name '*_ports.def' | wc -l)
    case "$tier" in
        run) what="heddle with the Verilated RTL of its $nblocks blocks" ;;
        ci) what="heddle, its $nblocks blocks' RTL, the tests and the CI tier's testbenches" ;;
        full) what="everything: tests, every testbench, mutant, internal-signal model and RTL configuration" ;;
    esac
    step_start=$SECONDS
    echo "setup.sh: [2/3] configure $build (tier $tier: $what)"
    # the tier's switches follow HD_TIER (auto) whatever an earlier configure chose
    read -r -a generator <<<"$("$root/scripts/cmake-generator.sh" "$build")"
    cmake "${generator[@]}" -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="$build_type" -DHD_TIER="$tier" \
        -DHD_TESTS=auto -DHD_COSIM_INTERNAL=auto -DHD_COSIM_FAULT=auto -DHD_MUTATION=auto \
        -DHD_RTL_ALL_CONFIGS=auto -DHD_VL_OPT_FAST=auto >"$build.configure.log" 2>&1 ||
        { cat "$build.configure.log" >&2; echo "setup.sh: configure failed" >&2; exit 1; }
    mv "$build.configure.log" "$build/setup-configure.log"
    echo "setup.sh: [2/3] configure: done in $((SECONDS - step_start)) s" \
         "($(grep -c 'Executing Verilator' "$build/setup-configure.log") Verilator runs)"
    step_start=$SECONDS
    log="$build/setup-build.log"
    : >"$log"
    echo "setup.sh: [3/3] build with $jobs jobs (compiler output: $log)"
    set +e
    cmake --build "$build" -j"$jobs" 2>&1 | progress
    rc=${PIPESTATUS[0]}
    set -e
    if [ "$rc" -ne 0 ]; then
        grep -E -B2 -A6 'error|Error' "$log" | tail -n 60 >&2
        echo "setup.sh: build failed (exit $rc); the whole output is in $log" >&2
        exit 1
    fi
    echo "setup.sh: [3/3] build: done in $((SECONDS - step_start)) s; the tool is $build/heddle (tier $tier, $build_type)"
fi
