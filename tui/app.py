"""Entry point of ``minigrad-tui`` (the debugger is being built; see issue 6)."""

import sys


def main(argv=None) -> int:
    print("minigrad-tui: the debugger is not built yet; run `minigrad demo` for the example.", file=sys.stderr)
    return 2
