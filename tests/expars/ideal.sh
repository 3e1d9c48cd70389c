#!/bin/sh
# SPDX-License-Identifier: MIT
# ideal.sh - [expars] ideal, the experiment's bound (docs/expars.md "The bound"): EXPARS's CTAs,
# slots and scratchpad regions with every register of a mix CTA in the register file. The
# register-bound reduction (sm.registers = 16384: mix CTAs exist) with the bound verifies, places
# the same CTAs per SM as EXPARS (the calculator's plan), and reads no operand through the
# operand cache (no "operand locations" line: no policy-port read or fill), where EXPARS reads
# and fills; the bound with [expars] blocks is refused with a message naming both keys.
#   tests/expars/ideal.sh HEDDLE OUTDIR
set -eu
heddle=${1:?usage: ideal.sh HEDDLE OUTDIR}
out=${2:?usage: ideal.sh HEDDLE OUTDIR}
mkdir -p "$out"
for v in true false; do
    "$heddle" run reduction --size small --set sm.allocator=expars --set sm.registers=16384 \
        --set expars.ideal=$v --stats "$out/red-$v.json" > "$out/red-$v.out" 2>&1 ||
        { echo "ideal=$v: run failed"; cat "$out/red-$v.out"; exit 1; }
    grep -q VERIFIED "$out/red-$v.out" || { echo "ideal=$v: not verified"; exit 1; }
done
grep -q "operand locations .* fills [1-9]" "$out/red-false.out" ||
    { echo "ideal: EXPARS itself filled no register line (no mix CTA?)"; exit 1; }
if grep -q "operand locations" "$out/red-true.out"; then
    echo "ideal: the bound read operands through the operand cache"; exit 1
fi
ctas() { # the CTAs/SM column of the kernel table
    awk '/CTAs\/SM/ { getline; print $6; exit }' "$1"
}
ct=$(ctas "$out/red-true.out"); cf=$(ctas "$out/red-false.out")
echo "ideal: CTAs per SM $ct (bound) / $cf (EXPARS)"
[ -n "$ct" ] && [ "$ct" = "$cf" ] || { echo "ideal: the bound placed other CTAs than EXPARS"; exit 1; }
if "$heddle" run reduction --size small --set sm.allocator=expars --set expars.ideal=true \
        --set expars.blocks=true > "$out/blocks.out" 2>&1; then
    echo "ideal: the bound ran with the blocks in the loop"; exit 1
fi
grep -q "ideal = true.*cannot run with \[expars\] blocks" "$out/blocks.out" ||
    { echo "ideal: no clear refusal"; cat "$out/blocks.out"; exit 1; }
echo "ideal: ok"
