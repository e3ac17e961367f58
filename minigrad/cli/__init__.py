"""The ``minigrad`` command: one subcommand per module listed in SUBCOMMANDS.

Each subcommand module defines ``register(subparsers)``, which adds its parser
and sets ``func`` to a callable taking the parsed arguments and returning an
exit code. Viewer code is imported inside the subcommand, never at start-up.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .. import __version__

SUBCOMMANDS = ["demo", "lesson", "run", "trace", "render"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="minigrad",
        description="minigrad: a tensor autograd engine whose backward pass you can watch.",
    )
    parser.add_argument("--version", action="version", version=f"minigrad {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"minigrad.cli.{name}").register(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
