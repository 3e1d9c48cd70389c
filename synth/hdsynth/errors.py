# SPDX-License-Identifier: MIT
"""errors - the flow's one exception type: a located, user-facing error.

Every bad input (a liberty file, an INI key, a block's RTL, a tool failure) ends as a FlowError
whose text names the file (and line when known) and says what to do; main.py prints it and
exits 1. Anything else escaping is a bug in the flow.
"""


class FlowError(Exception):
    """A user-facing error; str(err) is the full located message."""

    def __init__(self, where, msg, hint=None):
        text = f"{where}: {msg}" if where else msg
        if hint:
            text += f"; {hint}"
        super().__init__(text)
