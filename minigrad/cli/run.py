"""``minigrad run``: run a Python script, with ``--torch`` its ``import torch`` resolved to minigrad."""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback

from ..compat import torch_imports

DESCRIPTION = """\
Run a Python script as `python SCRIPT ARGS...` would, in this process.

With --torch, `import torch` (and torch.nn, torch.nn.functional, torch.optim,
torch.utils.data, ...) gives minigrad for this run only, so an unmodified PyTorch
script trains on minigrad. A torch name minigrad lacks raises when first used:
"minigrad has no torch.fft.rfft (not implemented); see README 'PyTorch coverage'".

  minigrad run --torch train.py --epochs 3
"""


def register(sub) -> None:
    p = sub.add_parser(
        "run",
        help="run a script (with --torch: an unmodified PyTorch script, on minigrad)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="minigrad run [--torch] SCRIPT [ARGS...]",
    )
    add_torch_option(p)
    p.add_argument("script", metavar="SCRIPT", help="the Python script to run")
    p.add_argument("script_args", nargs=argparse.REMAINDER, metavar="ARGS", help="arguments for the script")
    p.set_defaults(func=run)


def add_torch_option(parser: argparse.ArgumentParser) -> None:
    """The ``--torch`` flag, worded the same for every command that runs a script."""
    parser.add_argument(
        "--torch",
        action="store_true",
        help="resolve the script's `import torch` (and torch.*) to minigrad, for this run only",
    )


def run(args) -> int:
    if not os.path.isfile(args.script):
        print(f"minigrad run: can't open file {args.script!r}: [Errno 2] No such file or directory", file=sys.stderr)
        return 2
    with torch_imports(args.torch):
        return run_script(args.script, args.script_args)


def run_script(script: str, script_args) -> int:
    """Run ``script`` as ``__main__`` with ``sys.argv = [script, *script_args]`` and its folder first on
    ``sys.path``, as ``python script`` does; returns its exit code (1 after printing an uncaught error)."""
    path = os.path.abspath(script)
    folder = os.path.dirname(path)
    saved_argv, sys.argv = sys.argv, [script, *script_args]
    sys.path.insert(0, folder)
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1
    except Exception as exc:
        _print_from_script(exc, path)
        return 1
    finally:
        sys.argv = saved_argv
        sys.path.remove(folder)
    return 0


def _print_from_script(exc: BaseException, path: str) -> None:
    """The traceback as ``python script`` prints it: from the script's frame on, without this runner's."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != path:
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb or exc.__traceback__)
