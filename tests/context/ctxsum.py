#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# ctxsum.py - sum the per-SM context counters (ctx_*) of a `heddle run --stats FILE.json` report
# and print them as NAME VALUE lines (tests/context/*.sh read them).
import json
import sys

timing = json.load(open(sys.argv[1]))["timing"]
total = {}
for sm in timing["sms"]:
    for key, value in sm.items():
        if key.startswith("ctx_"):
            total[key] = total.get(key, 0) + value
for key in sorted(total):
    print(key, total[key])
