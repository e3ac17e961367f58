"""The minigrad terminal debugger (Textual).

:func:`main` is the one public entry (``minigrad-tui`` and ``minigrad lesson debug`` call it);
Textual is imported only when it runs.
"""


def main(argv=None) -> int:
    """Run ``minigrad-tui`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit code
    (130, quietly, for a ctrl+c while it starts, as a shell expects)."""
    try:
        from .app import main as run_app

        return run_app(argv)
    except KeyboardInterrupt:
        return 130
