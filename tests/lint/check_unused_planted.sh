#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_unused_planted.sh - scripts/check-unused.sh on a planted tree (CTest unused_symbols_planted):
# a model folder whose a.c defines shared() (called from b.c: fine), local_only() (called only in
# a.c: "make it static") and dead() (called nowhere, named in a comment: "remove it"), a variable
# used only in a.c and a table used nowhere, and a tests/ file calling tested() and b.c's user()
# (fine: a test is a caller), compiled into a build tree laid out as CMake lays it out. The check
# must name exactly the four planted symbols and fail; with them fixed it must pass; a tree
# without objects is a usage error (exit 2).
# Usage: tests/lint/check_unused_planted.sh SOURCE_ROOT
set -euo pipefail
check="$1/scripts/check-unused.sh"
cc="${CC:-cc}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
src="$tmp/src" bld="$tmp/build"
mkdir -p "$src/model/x" "$src/tests" "$bld/model/x/CMakeFiles/hd_x.dir" "$bld/tests/CMakeFiles/t.dir"
cat >"$src/model/x/a.h" <<'H'
int shared(void);
int local_only(void);
int dead(void);
int tested(void);
int counted(void);
H
cat >"$src/model/x/a.c" <<'C'
#include "a.h"
/* dead() is mentioned in this comment only */
int local_only(void) { return 1; }
int shared(void) { return local_only() + 1; }
int dead(void) { return 3; }
int tested(void) { return 4; }
int calls;
const int unused_table[2] = {1, 2};
int counted(void) { return ++calls; }
C
printf '#include "a.h"\nint user(void) { return shared(); }\n' >"$src/model/x/b.c"
printf '#include "a.h"\nint user(void);\nint main(void) { return tested() != 4 || user() != 2 || counted() != 1; }\n' \
    >"$src/tests/t.c"
build() {
    "$cc" -c -I"$src/model/x" "$src/model/x/a.c" -o "$bld/model/x/CMakeFiles/hd_x.dir/a.c.o"
    "$cc" -c -I"$src/model/x" "$src/model/x/b.c" -o "$bld/model/x/CMakeFiles/hd_x.dir/b.c.o"
    "$cc" -c -I"$src/model/x" "$src/tests/t.c" -o "$bld/tests/CMakeFiles/t.dir/t.c.o"
}
build
set +e
out="$(bash "$check" "$bld" "$src" 2>&1)"
rc=$?
set -e
echo "$out"
want="model/x/a.c:3: local_only: used only in this file (make it static)
model/x/a.c:5: dead: never called (remove it)
model/x/a.c:7: calls: used only in this file (make it static)
model/x/a.c:8: unused_table: never used (remove it)"
got="$(echo "$out" | grep -E '^model/' | sort -t: -k2,2n)"
if [ "$rc" -ne 1 ] || [ "$got" != "$want" ]; then
    echo "FAIL: want exit 1 and exactly:"; echo "$want"; echo "got exit $rc and:"; echo "$got"
    exit 1
fi
# fixed as the check says: the check passes
sed -i 's/^int local_only/static int local_only/; s/^int calls/static int calls/; /^int dead/d; /unused_table/d' \
    "$src/model/x/a.c"
sed -i '/local_only\|dead/d' "$src/model/x/a.h"
build
bash "$check" "$bld" "$src"
# no objects: a usage error (exit 2), not a pass
set +e
bash "$check" "$tmp/src" "$src" >/dev/null 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "FAIL: a tree without objects gave exit $rc, not 2"; exit 1; }
echo "check_unused_planted.sh: the four planted symbols found, the fixed tree passes"
