#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""measure-classes.py HEDDLE [--size S] [--out FILE] [--max-cycles N] [--check] [WORKLOAD...]

Issue 26 item 5: the kernel classes the papers use, measured by Heddle's timing model on each
paper's configuration and recorded in workloads/classes.ini (which `heddle list --classes`
shows); nothing is typed in. Every base workload (not the resource variants: same kernels) runs
once per configuration with `heddle run W --size S --config C --stats F.json`; the classes come
from that JSON report:

- GPUDuet (Lin thesis ch.3, Fig 3.4; configs/maxwell-gpuduet.ini, the same run as CCBP): any of
  compute (scheduler utilisation = issued / scheduler cycles > 60 %), l2sm (L2->SM interconnect
  > 60 % of its sustainable bandwidth, which Lin puts at 60 % of peak: > 36 % of peak), sml2
  (SM->L2, likewise), dram (DRAM > 50 % of peak), joined by '+'; underutilized if none.
- CCBP (Lin thesis ch.4, §2.15 of the digest; configs/maxwell-gpuduet.ini, the GPGPU-Sim Maxwell
  model of Lin's ch.3-4): throughput = IPC / (SMs x schedulers x issue width), NoC = the busier
  direction's interconnect utilisation, DRAM = DRAM bus utilisation, L2 miss rate. Lin picks the
  top 4 kernels by NoC and by DRAM bandwidth of 42 and names the rest LS; as an absolute rule we
  use the saturation points Lin quotes (NoC saturates at 50-60 % of peak, DRAM at 60-70 %) and
  the Table 4.2 values (every DBI kernel >= 59 % DRAM, every NBI >= 52 % NoC, every LS <= 39 %
  DRAM and <= 28 % NoC): DBI if DRAM >= 50 %, else NBI if NoC >= 50 %, else LS.
- Gong (thesis Fig 1.2, ch.5; configs/kepler-gk110.ini, its Kepler baseline): memory-intensive
  (M) when long-latency stalls are >= 25 % of the cycles (Gong's memory-intensive benchmarks are
  at or above about 25 %, the non-memory-intensive ones below 10 %), else N. Our long-latency
  stall share is the schedulers' `stall_memory` cycles (no warp could issue and one waits for a
  load or fence) over their cycles with resident warps.

--check measures the named workloads (default: all) and compares their classes (ccbp, gong)
with those recorded in workloads/classes.ini instead of writing a file: exit 1 on a difference
(the record is stale: rerun without --check).

Runs longer than --max-cycles (default 2,000,000) stop there and are classified on that prefix
(recorded as `truncated = yes`). Deterministic: the same build gives the same file. Exit 1 if a
run fails (other than by the cycle cap). About 30-60 CPU-minutes for all workloads at medium."""
import json
import os
import subprocess
import sys
import tempfile

CONFIGS = {'ccbp': 'configs/maxwell-gpuduet.ini', 'gong': 'configs/kepler-gk110.ini'}


def usage():
    sys.exit(__doc__)


def measure(heddle, root, wl, size, config, max_cycles):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'stats.json')
        cmd = [heddle, 'run', wl, '--size', size, '--config', os.path.join(root, config),
               '--quiet', '--stats', out, '--max-cycles', str(max_cycles)]
        p = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
        if not os.path.exists(out):
            tail = p.stdout[-400:] + p.stderr[-400:]
            raise RuntimeError('%s: no statistics (exit %d): %s' % (' '.join(cmd), p.returncode,
                                                                     tail))
        d = json.load(open(out))
    tm = d['timing']
    truncated = tm['totals']['cycles'] >= max_cycles
    if p.returncode != 0 and not truncated:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(cmd), p.returncode,
                                                p.stdout[-400:] + p.stderr[-400:]))
    cfg = tm['config']
    peak_ipc = cfg['gpu']['num_sms'] * cfg['sm']['num_schedulers'] * cfg['pipeline']['issue_width']
    der = tm['memory']['derived']
    s = tm['schedulers_total']
    busy = (s['issue_cycles'] + s['stall_pipeline'] + s['stall_memory'] + s['stall_scoreboard'] +
            s['stall_barrier'] + s['stall_ibuffer'])
    total = busy + s['stall_idle']
    return {
        'cycles': tm['totals']['cycles'],
        'truncated': truncated,
        'throughput': tm['totals']['ipc'] / peak_ipc,
        'noc': max(der['icnt_request_utilization'], der['icnt_reply_utilization']),
        'noc_sm_to_l2': der['icnt_request_utilization'],
        'noc_l2_to_sm': der['icnt_reply_utilization'],
        'sched_util': s['issue_cycles'] / total if total else 0.0,
        'dram': der['dram_bus_utilization'],
        'l2_miss': 1.0 - der['l2_hit_rate'] if tm['memory']['total']['l2_reads'] else 0.0,
        'long_latency_stall': s['stall_memory'] / busy if busy else 0.0,
    }


def gpuduet_categories(m):
    cats = [name for name, hit in (('compute', m['sched_util'] > 0.60),
                                   ('l2sm', m['noc_l2_to_sm'] > 0.36),
                                   ('sml2', m['noc_sm_to_l2'] > 0.36),
                                   ('dram', m['dram'] > 0.50)) if hit]
    return '+'.join(cats) if cats else 'underutilized'


def ccbp_class(m):
    if m['dram'] >= 0.50:
        return 'DBI'
    if m['noc'] >= 0.50:
        return 'NBI'
    return 'LS'


def main(argv):
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        usage()
    heddle = os.path.abspath(argv[1])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    size, max_cycles, names = 'medium', 2000000, []
    out = os.path.join(root, 'workloads', 'classes.ini')
    check = False
    i = 2
    while i < len(argv):
        a = argv[i]
        if a in ('--size', '--out', '--max-cycles') and i + 1 < len(argv):
            if a == '--size':
                size = argv[i + 1]
            elif a == '--out':
                out = argv[i + 1]
            else:
                max_cycles = int(argv[i + 1])
            i += 2
        elif a == '--check':
            check = True
            i += 1
        elif a.startswith('-'):
            usage()
        else:
            names.append(a)
            i += 1
    if not names:  # every base workload (`heddle list --variants --names` are the variants)
        lst = subprocess.run([heddle, 'list', '--names'], capture_output=True, text=True,
                             check=True).stdout.split()
        variants = set(subprocess.run([heddle, 'list', '--variants', '--names'],
                                      capture_output=True, text=True, check=True).stdout.split())
        names = [w for w in lst if w not in variants]
    rev = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=root, capture_output=True,
                         text=True).stdout.strip() or 'unknown'
    lines = ['# workloads/classes.ini - kernel classes of the papers, MEASURED by',
             '# scripts/measure-classes.py (do not edit; rerun it: see its header for the rules).',
             '# Source tree %s, size %s, cycle cap %d; CCBP on %s, Gong on %s.' %
             (rev, size, max_cycles, CONFIGS['ccbp'], CONFIGS['gong']),
             '# gpuduet: compute, l2sm, sml2, dram joined by + or underutilized '
             '(Lin ch.3 Fig 3.4);',
             '# ccbp: LS | NBI | DBI (Lin ch.4); gong: M (memory-intensive) | N (Gong ch.5).', '']
    bad = 0
    recorded = {}
    if check:
        sec = None
        for ln in open(os.path.join(root, 'workloads', 'classes.ini')):
            ln = ln.strip()
            if ln.startswith('['):
                sec = ln[1:-1]
                recorded[sec] = {}
            elif sec and ' = ' in ln:
                k, v = ln.split(' = ', 1)
                recorded[sec][k] = v
    for wl in names:
        try:
            c = measure(heddle, root, wl, size, CONFIGS['ccbp'], max_cycles)
            g = measure(heddle, root, wl, size, CONFIGS['gong'], max_cycles)
        except RuntimeError as e:
            print('measure-classes: %s' % e, file=sys.stderr)
            bad += 1
            continue
        got = {'ccbp': ccbp_class(c), 'gong': 'M' if g['long_latency_stall'] >= 0.25 else 'N',
               'gpuduet': gpuduet_categories(c)}
        if check:
            rec = recorded.get(wl, {})
            for k, v in got.items():
                if rec.get(k) != v:
                    print('measure-classes: %s: %s measured %s, recorded %s' %
                          (wl, k, v, rec.get(k, '(none)')), file=sys.stderr)
                    bad += 1
        lines += ['[%s]' % wl,
                  'gpuduet = %s' % gpuduet_categories(c),
                  'gpuduet_scheduler = %.3f' % c['sched_util'],
                  'gpuduet_noc_l2_to_sm = %.3f' % c['noc_l2_to_sm'],
                  'gpuduet_noc_sm_to_l2 = %.3f' % c['noc_sm_to_l2'],
                  'ccbp = %s' % ccbp_class(c),
                  'ccbp_throughput = %.3f' % c['throughput'],
                  'ccbp_noc = %.3f' % c['noc'],
                  'ccbp_dram = %.3f' % c['dram'],
                  'ccbp_l2_miss = %.3f' % c['l2_miss'],
                  'ccbp_cycles = %d%s' % (c['cycles'], ' (truncated)' if c['truncated'] else ''),
                  'gong = %s' % ('M' if g['long_latency_stall'] >= 0.25 else 'N'),
                  'gong_long_latency_stall = %.3f' % g['long_latency_stall'],
                  'gong_cycles = %d%s' % (g['cycles'], ' (truncated)' if g['truncated'] else ''),
                  '']
        print('%-16s gpuduet %-14s ccbp %-3s (noc %.2f dram %.2f)  gong %s (%.2f)' %
              (wl, gpuduet_categories(c), ccbp_class(c), c['noc'], c['dram'],
               'M' if g['long_latency_stall'] >= 0.25 else 'N', g['long_latency_stall']),
              flush=True)
    if not check:
        with open(out, 'w') as f:
            f.write('\n'.join(lines))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
