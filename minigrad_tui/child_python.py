"""The command line of a Python child of the debugger, with the import path ``python script.py`` gives.

``python -c`` and ``python -m`` put the working directory first on ``sys.path``; run from a folder
that holds a folder named ``minigrad`` (a clone's parent, say), the script's ``import minigrad``
found that folder instead of the package ("'module' object is not callable"). The child drops that
entry at once; the Stepper then puts the script's own folder first, as Python does for a script.
"""

from __future__ import annotations

import sys


def python_running(code: str) -> list[str]:
    """``python -c code`` without the working directory on ``sys.path``."""
    return [sys.executable, "-c", f"import sys; del sys.path[0]; {code}"]
