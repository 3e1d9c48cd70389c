# SPDX-License-Identifier: MIT
"""python3 -m hdsynth: run the synthesis flow (see main.py)."""

import sys

from .main import main

sys.exit(main(sys.argv[1:]))
