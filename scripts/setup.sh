#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# setup.sh - install the Debian packages Heddle needs (when missing), then configure and build
# everything into build/ (Release, all cores).
#
# Idempotent and quick when nothing is missing: packages are checked with dpkg-query, and the
# build is incremental. Packages are installed with apt-get when running as root (or through
# `sudo -n` when that works without a password); otherwise the missing ones are listed with the
# command to install them, and the build goes on if the required tools are already there.
#
# Required: build-essential cmake (gcc, make); verilator libsystemc-dev yosys zlib1g-dev (the RTL
# blocks: co-simulation, SystemC testbenches, lint, port check, synthesis); opensta
# qflow-tech-osu018 (synth/run.sh: timing, the osu018 standard cells); python3-matplotlib
# (experiments/sweep.py: figures). Optional: clang libclang-rt-14-dev (the libFuzzer
# run in scripts/test.sh). Later issues add verilator, SystemC, yosys, ... to the lists below.
# --with-slurm also installs slurm-wlm and munge (the slurm backend of experiments/sweep.py and
# its test, which starts a private one-node cluster: tests/sweep/slurm-localhost.sh).
#
# Usage: scripts/setup.sh [--install-only | --no-install] [--with-slurm] [--build-dir DIR]
#                         [--build-type TYPE]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
build_type=Release
do_install=1
do_build=1

required_pkgs=(build-essential cmake verilator libsystemc-dev yosys zlib1g-dev opensta qflow-tech-osu018
               python3-matplotlib)
optional_pkgs=(clang libclang-rt-14-dev)

usage() {
    sed -n '3,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --install-only) do_build=0 ;;
        --no-install) do_install=0 ;;
        --with-slurm) required_pkgs+=(slurm-wlm munge) ;;
        --build-dir) shift; build="${1:?--build-dir needs a directory}" ;;
        --build-type) shift; build_type="${1:?--build-type needs a CMake build type}" ;;
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
    local req opt
    req="$(missing_of "${required_pkgs[@]}")"
    opt="$(missing_of "${optional_pkgs[@]}")"
    [ -z "$req$opt" ] && return 0
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

if [ "$do_install" -eq 1 ]; then
    install_packages
fi
if [ "$do_build" -eq 1 ]; then
    jobs="$(nproc 2>/dev/null || echo 2)"
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
    cmake --build "$build" -j"$jobs"
    echo "setup.sh: built $build ($build_type); the tool is $build/heddle"
fi
