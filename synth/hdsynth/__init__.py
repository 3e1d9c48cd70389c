# SPDX-License-Identifier: MIT
"""hdsynth - Heddle's synthesis flow: area and critical path of every RTL block (Yosys, OpenSTA),
an SRAM model for storage arrays, scaling to 40 nm and comparison with the papers' claims.

Entry point: synth/run.sh (python3 -m hdsynth). Design notes: docs/synth.md. Reports are
written by pylib/hdout.py (shared with experiments/) through outfile.py.
"""

import os
import sys

# pylib/ (hdout: how the tools write their outputs), beside this package's folder
_PYLIB = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "pylib")
if _PYLIB not in sys.path:
    sys.path.append(_PYLIB)
