# SPDX-License-Identifier: MIT
# case_lib.sh - the harness the CLI regression scripts share (tests/cli/robust.sh,
# tests/cli/robust_surfaces.sh), sourced after they set case_, heddle, root and NAME:
# a scratch directory removed at exit (the case runs in it), fail, and expect.
wl="$root/workloads"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/heddle-$NAME.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

fail() { echo "FAIL ($case_): $*" >&2; exit 1; }
# expect RC REGEX CMD...: run CMD, check its exit status and that stdout+stderr (lines joined by
# spaces) match REGEX
expect() {
    local want="$1" re="$2" got
    shift 2
    "$@" >out.txt 2>&1
    got=$?
    cat out.txt
    [ "$got" = "$want" ] || fail "exit status $got, expected $want: $*"
    tr '\n' ' ' <out.txt | grep -Eq -- "$re" || fail "output does not match '$re': $*"
}
