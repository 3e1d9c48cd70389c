#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test-times.py JUNIT.xml BUILD [--top N] - seconds per CTest label of one run (scripts/test.sh).

Reads the run's JUnit file (ctest --output-junit: every test's time) and the tests' labels
(ctest --show-only=json-v1 in BUILD), and prints for each label the tests run, the sum of their
times and the share of the whole, largest first; then the N slowest tests (default 10). A test
counts once under each of its labels (a tier label and a topic label: the tier rows sum to the
total). Exit 2 on a missing or unreadable file.
"""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET


def labels_of(build):
    out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"],
                         check=True, capture_output=True, text=True).stdout
    labels = {}
    for t in json.loads(out).get("tests", []):
        ls = []
        for p in t.get("properties", []):
            if p.get("name") == "LABELS":
                ls = list(p.get("value", []))
        labels[t["name"]] = ls
    return labels


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    junit, build = argv[1], argv[2]
    top = int(argv[4]) if len(argv) > 4 and argv[3] == "--top" else 10
    try:
        root = ET.parse(junit).getroot()
        labels = labels_of(build)
    except (OSError, ET.ParseError, subprocess.CalledProcessError, json.JSONDecodeError) as e:
        print(f"test-times.py: {e}", file=sys.stderr)
        return 2
    times = {}
    for case in root.iter("testcase"):
        times[case.get("name")] = float(case.get("time") or 0.0)
    total = sum(times.values())
    per, count = {}, {}
    for name, secs in times.items():
        for lab in labels.get(name, ["(unlabelled)"]):
            per[lab] = per.get(lab, 0.0) + secs
            count[lab] = count.get(lab, 0) + 1
    print(f"  {'label':<16} {'tests':>5} {'seconds':>9} {'share':>6}")
    for lab in sorted(per, key=lambda k: -per[k]):
        share = 100.0 * per[lab] / total if total else 0.0
        print(f"  {lab:<16} {count[lab]:>5} {per[lab]:>9.1f} {share:>5.1f}%")
    print(f"  {'all':<16} {len(times):>5} {total:>9.1f}")
    print(f"  slowest {top}:")
    for name in sorted(times, key=lambda k: -times[k])[:top]:
        print(f"    {times[name]:7.1f} s  {name} ({';'.join(labels.get(name, []))})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
