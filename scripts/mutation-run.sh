#!/bin/sh
# SPDX-License-Identifier: MIT
# mutation-run.sh BUILD [BLOCK...] - the full mutation run (issue 16 item 1): every mutant of
# every block with a mutant testbench (BUILD/mutants/blocks.txt, written by tests/mutation.cmake;
# build the tb_<b>_mut targets first, and tb_<b>_mut_asan: the C mutants' memory checker) through
# the block's checks; per-block report with every
# survivor in BUILD/mutants/report.txt, the table in BUILD/mutants/summary.tsv
# (block mutants killed survived equivalent ratio not-elaborated). Exit 1 if a block is < 95 %.
set -eu
build=${1:?usage: mutation-run.sh BUILD [BLOCK...]}
shift
here=$(cd "$(dirname "$0")/.." && pwd)
list=$build/mutants/blocks.txt
[ -f "$list" ] || { echo "mutation-run.sh: $list missing (configure with HD_MUTATION=ON)" >&2; exit 2; }
: > "$build/mutants/report.txt"
: > "$build/mutants/summary.tsv"
rc=0
while IFS='|' read -r block tb rest; do
  if [ $# -gt 0 ] && ! echo " $* " | grep -q " $block "; then continue; fi
  [ -x "$tb" ] || { echo "mutation-run.sh: $tb not built (cmake --build $build --target tb_${block}_mut)" >&2; rc=2; continue; }
  # rest: --check|ARGS|--check|ARGS...
  checks=$(echo "$rest" | tr '|' '\n' | grep -v '^--check$')
  args=""
  IFS_SAVE=$IFS; IFS='
'
  for c in $checks; do args="$args
--check
$c"; done
  # a C reference's mutants: tb_<b>_mut_asan (HD_MUT_MEMCHECK) reruns the survivors under ASan/UBSan
  mem=""
  case $block in
    *.c) if [ -x "${tb}_asan" ]; then
           mem="--memcheck-tb
${tb}_asan"
         else
           echo "mutation-run.sh: ${tb}_asan not built: $block without the memory checker" >&2
         fi ;;
  esac
  set -f
  # shellcheck disable=SC2086
  python3 "$here/scripts/mutate.py" run "$block" --tb "$tb" --mutants "$build/mutants/$block.mutants" $mem \
      --equiv "$here/testbenches/mutants/$block.equiv" --jobs "${HD_MUT_JOBS:-2}" \
      --report "$build/mutants/report.txt" --summary "$build/mutants/summary.tsv" \
      --ci-out "$build/mutants/$block.ci" $args < /dev/null || rc=1
  set +f
  IFS=$IFS_SAVE
done < "$list"
column -t "$build/mutants/summary.tsv" 2>/dev/null || cat "$build/mutants/summary.tsv"
exit $rc
