#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-unused.sh - no dead or needlessly global C functions (or variables) in the model (issue 23
# item 7; lint).
#
# Reads the objects a build made of the model's libraries and tool (BUILD/model/**, BUILD/tables,
# BUILD/compressors: every folder there, so a new one is read without a change here) with `nm`:
# a function (nm type T) or variable (D, B, R) with external linkage that no object of the build
# refers to (no undefined reference `U` to it in any *.o under BUILD: tool, tests, workloads,
# co-simulation, testbenches) is then looked up in the sources, comments left out:
#   unused   its name occurs nowhere but its own definition: remove it;
#   static   its name occurs in its own .c file only (calls, its address taken): make it static
#            and drop its prototype (extern declaration) from the header.
# A name that some other source file of the tree mentions (a .c/.cc/.cpp file, or a header
# outside the function's own folder) is not reported: that file is code this build did not
# compile (a testbench, a co-simulation model with its option off), or reaches the function
# through a macro or an inline function. Exempt: main, the public API (every name declared in
# model/runtime/heddle.h), libFuzzer's entry points and a block's C-reference entry points
# hd_<b>_ref_reset/step/idle for every rtl/<b>/ (the generated registry calls them, and a build
# with -DHD_BLOCKS_ONLY leaves some blocks out of it). Prints one `file:line: name: what to do`
# per finding and exits 1 if any; 2 when BUILD holds no model objects (build first: `cmake
# --build BUILD`; the more targets are built, the fewer names need the source look-up).
# Usage: scripts/check-unused.sh BUILD [SOURCE_ROOT]
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: scripts/check-unused.sh BUILD [SOURCE_ROOT]" >&2
    exit 2
fi
build="$(cd "$1" && pwd -P)" || { echo "check-unused.sh: $1: no such build directory" >&2; exit 2; }
root="${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
root="$(cd "$root" && pwd -P)"
command -v nm >/dev/null || { echo "check-unused.sh: nm (binutils) is required" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The objects of the model: BUILD/<dir>/CMakeFiles/<target>.dir/<rel>.o built from <dir>/<rel>.
find "$build" \( -path "$build/model/*" -o -path "$build/tables/*" -o -path "$build/compressors/*" \) \
    -path '*/CMakeFiles/*.dir/*' -name '*.o' -print | sort >"$tmp/objs"
if [ ! -s "$tmp/objs" ]; then
    echo "check-unused.sh: $build holds no objects of the model; build it first (cmake --build $1)" >&2
    exit 2
fi
# Every name any object of the build refers to.
find "$build" -name '*.o' -not -path '*/CMakeScratch/*' -print0 |
    xargs -0 nm -u -P 2>/dev/null | awk '{ print $1 }' | sort -u >"$tmp/refs"
# The public API and other names that must stay global.
{
    printf '%s\n' main LLVMFuzzerTestOneInput LLVMFuzzerInitialize
    for d in "$root"/rtl/*/; do
        [ -d "$d" ] || continue
        b="$(basename "$d")"
        printf 'hd_%s_ref_reset\nhd_%s_ref_step\nhd_%s_ref_idle\n' "$b" "$b" "$b"
    done
    if [ -f "$root/model/runtime/heddle.h" ]; then
        grep -ohE '\b[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' "$root/model/runtime/heddle.h" | tr -d '( \t'
    fi
} | sort -u >"$tmp/exempt"

# source file of object $1, not normalised (empty when it is generated in BUILD); no process
source_of() {
    local o="$1" dir rel
    dir="${o%%/CMakeFiles/*}"
    rel="${o#*/CMakeFiles/*.dir/}"
    rel="${rel%.o}"
    rel="${rel//__/..}"
    dir="$root/${dir#"$build"/}"
    src=""
    [ ! -f "$dir/$rel" ] || src="$dir/$rel"
}

# a file's text without comments (GCC's preprocessor removes them, no includes expanded; without
# GCC the comments stay, which can only turn a "remove it" into a "make it static")
if command -v gcc >/dev/null; then
    code_of() { gcc -fpreprocessed -dD -E -P -x c "$1" 2>/dev/null; }
else
    code_of() { cat "$1"; }
fi

# The C/C++ sources and headers of the tree (build trees left out).
git -C "$root" ls-files -co --exclude-standard -- '*.c' '*.cc' '*.cpp' '*.h' '*.hpp' 2>/dev/null |
    sed "s|^|$root/|" >"$tmp/sources" || true
[ -s "$tmp/sources" ] || find "$root" -path "$build" -prune -o \( -name '*.c' -o -name '*.cc' -o \
    -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) -print >"$tmp/sources"

# the referenced and exempt names as a set (one look-up per symbol, no process per symbol: the
# build defines about 1,500 of them)
declare -A known=()
while IFS= read -r name; do
    known[$name]=1
done < <(cat "$tmp/refs" "$tmp/exempt")

# Every object's external definitions in one nm (one nm per object cost 20 ms of CPU each):
# "OBJECT: NAME TYPE VALUE SIZE" lines, an object's lines together.
bad=0 checked=0 obj="" src=""
while IFS= read -r entry; do
    o="${entry%%: *}"
    if [ "$o" != "$obj" ]; then
        obj="$o"
        source_of "$obj"
    fi
    [ -n "$src" ] || continue
    sym="${entry#*: }"
    name="${sym%% *}"
    type="${sym#* }"
    type="${type%% *}"
    case "$type" in
    T) kind=function ;;
    D | B | R) kind=variable ;;
    *) continue ;;
    esac
    checked=$((checked + 1))
    [ -z "${known[$name]+x}" ] || continue
    src="$(realpath "$src")" # the sources list's spelling, for the look-ups below
    # mentioned by another source file: code not built here, or a macro's use
    # (its own folder's headers hold its prototype)
    others="$(grep -v -xF "$src" "$tmp/sources" | grep -vE "^${src%/*}/[^/]*\.h(pp)?$" | tr '\n' '\0' |
        xargs -0 grep -lw -- "$name" 2>/dev/null | head -1 || true)"
    [ -z "$others" ] || continue
    uses="$(code_of "$src" | grep -ow -- "$name" | wc -l)"
    line="$(grep -nE "^[A-Za-z_].*\\b$name\\b" "$src" | head -1 | cut -d: -f1)"
    rel="${src#"$root"/}"
    if [ "$uses" -le 1 ]; then
        if [ "$kind" = function ]; then
            echo "$rel:${line:-1}: $name: never called (remove it)"
        else
            echo "$rel:${line:-1}: $name: never used (remove it)"
        fi
    else
        echo "$rel:${line:-1}: $name: used only in this file (make it static)"
    fi
    bad=1
done < <(tr '\n' '\0' <"$tmp/objs" | xargs -0 nm -A -g --defined-only -P 2>/dev/null)

if [ "$bad" -ne 0 ]; then
    echo "check-unused.sh: FAILED (functions or variables with external linkage that nothing else uses)" >&2
    exit 1
fi
echo "check-unused.sh: $checked external functions and variables in $(wc -l <"$tmp/objs") objects, each used by another file"
