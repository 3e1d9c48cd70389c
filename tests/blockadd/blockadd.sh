#!/bin/sh
# SPDX-License-Identifier: MIT
# blockadd.sh SRC WORK [CMAKE-ARGS...] - adding a block touches no shared file (issue 23 item 3).
# Copies the tree SRC (without build directories and .git) to WORK/src, adds the throwaway block
# zz_probe from tests/blockadd/block/ (its RTL folder, lint waivers, configs/rtl/zz_probe.ini, C
# reference and testbench: files of its own only), configures WORK/build (full tier, so that every
# list is made) and checks that the block is picked up everywhere: the C-reference registry and
# parameter header, the co-simulation's RTL registry (plain and internal-signal models) and family
# table (family, owner, settings from its [block] keys), the synthesis flow's discovery, the build
# targets (testbench, its ci_configs configuration, mutant testbench, C mutants' memory checker,
# the C reference in hd_tables), the full mutation run's list, and the CTests with their tiers.
# Then that no file of the copy but the added ones changed. Exit 77 (skipped) without Verilator.
set -eu
src=${1:?usage: blockadd.sh SRC WORK [CMAKE-ARGS...]}
work=${2:?usage: blockadd.sh SRC WORK [CMAKE-ARGS...]}
shift 2
command -v verilator >/dev/null || { echo "blockadd: SKIPPED: no verilator"; exit 77; }
fail() { echo "blockadd: FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/src"
tar -C "$src" --exclude='./build*' --exclude=./.git --exclude=./out -cf - . | tar -C "$work/src" -xf -
cd "$work/src"
find . -type f | LC_ALL=C sort | xargs sha1sum >"$work/before.sha1"
blk="$src/tests/blockadd/block"
(cd "$blk" && find . -type f | LC_ALL=C sort) >"$work/added.txt"
(cd "$blk" && tar -cf - .) | tar -xf -
while read -r f; do
    if grep -q "^[0-9a-f]*  $f\$" "$work/before.sha1"; then fail "$f exists already: not a new block"; fi
done <"$work/added.txt"
b="$work/build"
cmake -S "$work/src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DHD_TIER=full "$@" >"$work/configure.log" 2>&1 ||
    { tail -n 30 "$work/configure.log"; fail "configure failed with the new block"; }
n=0
has() { # has FILE REGEX WHAT
    grep -Eq "$2" "$1" || fail "$3: /$2/ not in $1"
    n=$((n + 1))
    echo "blockadd: ok: $3"
}
grep -q "hardware blocks:.*zz_probe" "$work/configure.log" || fail "not in HD_BLOCKS"
has "$b/hw_gen/hd_hw_blocks.c" 'hd_zz_probe_block' "C-reference registry (hd_hw_blocks.c)"
has "$b/hw_gen/hd_rtl_params.h" '^#define ZZ_PROBE_ResetAll \(0\)' "parameter header (hd_rtl_params.h)"
has "$b/cosim/hd_cosim_vl_registry.cpp" 'hd_cosim_rtl_zz_probe\b' "RTL registry (hd_cosim_vl)"
has "$b/cosim/hd_cosim_vl_registry.cpp" 'hd_cosim_rtl_zz_probe_int' "internal-signal models (--fst-internal)"
has "$b/cosim/hd_cosim_vl_fault_registry.cpp" 'hd_cosim_rtl_zz_probe' "fault build registry"
has "$b/cosim/hd_cosim_families.c" '\{"zz_probe", "zz_probe", "blockadd", true, true, false, "", "context.stress_period=1000"\}' \
    "cosim --blocks family table"
has "$b/mutants/blocks.txt" '^zz_probe\|' "full mutation run list (RTL mutants)"
has "$b/mutants/blocks.txt" '^zz_probe\.c\|' "full mutation run list (C mutants)"
cmake --build "$b" --target help >"$work/targets.txt"
for t in tb_zz_probe tb_zz_probe_reset_all tb_zz_probe_mut tb_zz_probe_mut_asan; do
    has "$work/targets.txt" "\\.\\.\\. $t\$" "build target $t"
done
has "$b/tables/CMakeFiles/hd_tables.dir/build.make" 'tables/zz_probe\.c' "C reference in hd_tables"
python3 -c "import sys; sys.path.insert(0, 'synth'); from hdsynth import blocks
print('\n'.join(x.name for x in blocks.discover('.', 'synth/blocks.ini')))" >"$work/synth.txt" ||
    fail "synth/hdsynth discovery failed with the new block"
has "$work/synth.txt" '^zz_probe$' "synthesis flow (synth/hdsynth discovery)"
ctest --test-dir "$b" -N -L '^ci$' >"$work/ci.txt"
ctest --test-dir "$b" -N -L '^full$' >"$work/full.txt"
for t in rtl_config_zz_probe rtl_lint_zz_probe rtl_lint_reset_all_zz_probe tb_zz_probe \
         tb_zz_probe_reset_all mutation_zz_probe mutation_zz_probe.c; do
    has "$work/ci.txt" ": $t\$" "CTest $t (ci tier)"
done
if command -v yosys >/dev/null; then
    has "$work/ci.txt" ": rtl_ports_zz_probe\$" "CTest rtl_ports_zz_probe (ci tier)"
    has "$work/ci.txt" ": rtl_synth_zz_probe\$" "CTest rtl_synth_zz_probe (ci tier)"
    has "$work/full.txt" ": rtl_synth_reset_all_zz_probe\$" "CTest rtl_synth_reset_all_zz_probe (full tier)"
fi
# no shared file changed: the copy differs from SRC by the added files only
find . -type f | LC_ALL=C sort | xargs sha1sum >"$work/after.sha1"
diff "$work/before.sha1" "$work/after.sha1" | sed -n 's/^[<>] [0-9a-f]*  //p' | LC_ALL=C sort -u >"$work/changed.txt"
if ! cmp -s "$work/changed.txt" "$work/added.txt"; then
    diff "$work/added.txt" "$work/changed.txt" || true
    fail "files other than the block's own changed (above: > changed, < added)"
fi
# the block's own checks that need no build pass (R4 configuration check, Verilator lint -Wall)
ctest --test-dir "$b" -R '^rtl_(config|lint)_(reset_all_)?zz_probe$' >"$work/own.txt" 2>&1 ||
    { cat "$work/own.txt"; fail "the new block's configuration check or lint failed"; }
has "$work/own.txt" '100% tests passed, 0 tests failed out of 3' "its configuration check and lint pass"
rm -rf "$work/src" "$b" # (~90 MB of copy and Verilator output)
echo "blockadd: zz_probe picked up in $n places; files touched: $(wc -l <"$work/added.txt") new, 0 shared"
