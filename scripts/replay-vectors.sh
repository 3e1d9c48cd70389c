#!/bin/sh
# SPDX-License-Identifier: MIT
# replay-vectors.sh BUILD [OUT] - regenerate testbenches/vectors/regpat_replay.txt, the register
# vectors the regpat testbenches replay (tb_regpat_* --replay; issue 16 item 2): recorded from
# several workloads and variants (PAG 8, 16 and 32) by `heddle cosim --record`, dead registers
# included (the co-simulation drives every register that holds a physical register, live_i from
# the liveness); of each workload 250 live and 50 dead vectors, evenly spaced over the
# recording, in recorded order. Deterministic: the same build gives the same file.
set -e
B=${1:?usage: replay-vectors.sh BUILD [OUT]}
OUT=${2:-$(dirname "$0")/../testbenches/vectors/regpat_replay.txt}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
WS="sgemm_t8 dct8x8 sgemm hotspot reduction_tb128 bfs"
for w in $WS; do
    "$B/heddle" cosim --blocks regpat "$w" --sms 0 --record "$T/$w.txt" --record-max 20000 >/dev/null
done
python3 - "$T" "$OUT" $WS <<'PY'
import sys
t, out, ws = sys.argv[1], sys.argv[2], sys.argv[3:]
o = ['# heddle replay vectors for regpat_comp: pag_sel live lane0..lane31 (hex)',
     '# drawn from six workloads and variants (PAG 8, 16 and 32), dead registers included:',
     '#   heddle cosim --blocks regpat W --sms 0 --record W.txt --record-max 20000',
     '# for W in ' + ' '.join(ws) + '; of each: 250 live and 50 dead',
     '# vectors evenly spaced over the recording, in recorded order (scripts/replay-vectors.sh)']
for w in ws:
    L = [l.rstrip('\n') for l in open('%s/%s.txt' % (t, w)) if not l.startswith('#')]
    live = [i for i, l in enumerate(L) if l.split()[1] == '1']
    dead = [i for i, l in enumerate(L) if l.split()[1] == '0']
    pick = lambda idx, n: [idx[(k * len(idx)) // n] for k in range(min(n, len(idx)))]
    o.append('# ' + w)
    o += [L[i] for i in sorted(set(pick(live, 250) + pick(dead, 50)))]
open(out, 'w').write('\n'.join(o) + '\n')
PY
echo "replay-vectors: $(grep -vc '^#' "$OUT") vectors written to $OUT"
