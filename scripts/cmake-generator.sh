#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cmake-generator.sh - print the CMake generator option for a build tree: nothing when DIR is
# configured already (its generator stays; CMake refuses to change it), else `-G Ninja` when ninja
# is installed (Debian: ninja-build; setup.sh installs it), else nothing (Unix Makefiles). Ninja
# schedules a tree of this size with far less per-target work than make's recursive Makefiles:
# the sanitizer subset's clean build took 116 s wall and 185 CPU-seconds with Ninja against 294 s
# and 358 with make on the same 2-core machine (docs/testing.md, session 28).
#
# Usage: gen=($(scripts/cmake-generator.sh DIR)); cmake "${gen[@]}" -S SRC -B DIR ...
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
if [ -f "$1/CMakeCache.txt" ]; then
    exit 0
fi
if command -v ninja >/dev/null 2>&1; then
    echo "-G Ninja"
fi
