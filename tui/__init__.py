"""The minigrad terminal debugger (Textual).

:func:`main` is the one public entry (``minigrad-tui`` and ``minigrad lesson debug`` call it);
Textual is imported only when it runs.
"""


def main(argv=None) -> int:
    """Run ``minigrad-tui`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    from .app import main as run_app

    return run_app(argv)
