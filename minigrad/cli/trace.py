"""``minigrad trace``: record a script's execution events, or print a recorded trace as text."""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback

from ..compat import torch_imports
from .run import add_torch_option

DESCRIPTION = """\
Record every execution event of a script (tensors created, each backward()/grad()
pass node by node, gradients flowing along each edge) into a JSON Lines trace,
or print a recorded trace as readable text.

  minigrad trace script.py [ARGS...] -o run.jsonl     record (the script runs headless)
  minigrad trace --torch train.py -o run.jsonl        ... a PyTorch script, its `import torch` on minigrad
  minigrad trace show run.jsonl [--from K] [--to M]   print steps K..M
  minigrad trace show run.jsonl --values              ... with every recorded value in full

Options for recording go before the script, or "-o FILE" as the last two
arguments; everything else after the script is passed to it (sys.argv).
"""

SHOW_DESCRIPTION = """\
Print a recorded trace as text: one line per step (step number, pass, event,
node) followed by indented values (gradients, contributions, closure outputs,
captured values, source lines). Meant for logs, screen readers and CI.
"""


def register(sub) -> None:
    p = sub.add_parser(
        "trace",
        help="record a script's execution events (trace SCRIPT) or print a trace (trace show FILE)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="minigrad trace [-o FILE] [--torch] [--max-values N] [--max-bytes N] [--no-sources] [--no-names] "
        "SCRIPT [ARGS...]\n"
        "       minigrad trace show FILE [--from K] [--to M] [--kind KIND] [--node NODE] [--brief] [--values]",
    )
    p.add_argument("script", metavar="SCRIPT", help='the Python script to run, or "show" to print a trace')
    p.add_argument("script_args", nargs=argparse.REMAINDER, metavar="ARGS", help="arguments for the script")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write the trace (default: SCRIPT.trace.jsonl; a name ending .gz is gzip-compressed)",
    )
    p.add_argument(
        "--max-values",
        type=int,
        default=None,
        metavar="N",
        help="tensors with more than N elements are stored as summaries (default 1024)",
    )
    p.add_argument(
        "--max-bytes",
        type=int,
        default=None,
        metavar="N",
        help="memory budget of the recorded values in bytes (default 256 MB): beyond it values become "
        "summaries, then the oldest passes outlines without values",
    )
    add_torch_option(p)
    p.add_argument("--no-sources", action="store_true", help="do not record the source line that made each tensor")
    p.add_argument("--no-names", action="store_true", help="do not learn tensor names from variable names")
    p.set_defaults(func=run)


def _show_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="minigrad trace show", description=SHOW_DESCRIPTION)
    p.add_argument("file", metavar="FILE", help="a trace written by 'minigrad trace' or Trace.save()")
    p.add_argument("--from", dest="start", type=int, default=0, metavar="K", help="first step to print (default 0)")
    p.add_argument("--to", dest="stop", type=int, default=None, metavar="M", help="last step to print (inclusive)")
    p.add_argument("--kind", action="append", metavar="KIND", help="only events of this kind (repeatable)")
    p.add_argument("--node", metavar="NODE", help="only events about this node (id or name)")
    p.add_argument("--brief", action="store_true", help="one line per step, without values")
    p.add_argument("--width", type=int, default=70, metavar="W", help="values wider than W are summarised")
    p.add_argument(
        "--values",
        action="store_true",
        help="after each step, every value it recorded in full, each line led by its indices",
    )
    return p


def run(args) -> int:
    if args.script == "show":
        return show(_show_parser().parse_args(args.script_args))
    return record_script(args)


def record_script(args) -> int:
    import warnings

    from minigrad.trace import DEFAULT_MAX_VALUES, TraceBudgetWarning, record
    from minigrad.trace.budget import DEFAULT_MAX_BYTES

    script_args = list(args.script_args)
    output = args.output
    if output is None and len(script_args) >= 2 and script_args[-2] in ("-o", "--output"):
        output = script_args[-1]
        del script_args[-2:]
    if not os.path.isfile(args.script):
        print(f"minigrad trace: no such script: {args.script!r}", file=sys.stderr)
        return 2
    if output is None:
        output = os.path.splitext(os.path.basename(args.script))[0] + ".trace.jsonl"
    max_values = DEFAULT_MAX_VALUES if args.max_values is None else args.max_values
    if max_values < 0:
        print("minigrad trace: --max-values must be >= 0", file=sys.stderr)
        return 2
    max_bytes = DEFAULT_MAX_BYTES if args.max_bytes is None else args.max_bytes
    if max_bytes <= 0:
        print("minigrad trace: --max-bytes must be > 0", file=sys.stderr)
        return 2
    path = os.path.abspath(args.script)
    saved_argv, sys.argv = sys.argv, [path, *script_args]
    sys.path.insert(0, os.path.dirname(path))
    code = 0
    meta = {"script": args.script, "argv": script_args}
    options = {"max_values": max_values, "max_bytes": max_bytes, "sources": not args.no_sources}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TraceBudgetWarning)  # said once below, without a source line
            with torch_imports(args.torch), record(**options, names=not args.no_names, meta=meta) as tr:
                try:
                    runpy.run_path(path, run_name="__main__")
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                    if not isinstance(exc.code, (int, type(None))):
                        print(exc.code, file=sys.stderr)
                except Exception:
                    traceback.print_exc()
                    code = 1
    finally:
        sys.argv = saved_argv
        sys.path.remove(os.path.dirname(path))
    tr.meta["exit_code"] = code
    if tr.budget_message is not None:
        print(f"minigrad trace: {tr.budget_message}", file=sys.stderr)
    tr.save(output)
    passes = sum(1 for e in tr.events if e.kind == "pass_started")
    print(
        f"minigrad trace: {len(tr.events)} events, {len(tr.nodes)} nodes, {passes} passes -> {output}",
        file=sys.stderr,
    )
    return code


def show(args) -> int:
    from minigrad.trace import Trace, TraceFormatError

    try:
        trace = Trace.load(args.file)
    except (OSError, TraceFormatError) as exc:
        print(f"minigrad trace show: {exc}", file=sys.stderr)
        return 1
    node = None
    if args.node is not None:
        key = int(args.node) if args.node.isdigit() else args.node
        try:
            node = trace.node(key).id
        except KeyError as exc:
            print(f"minigrad trace show: {exc.args[0]}", file=sys.stderr)
            return 1
    try:
        _print_events(trace, args, node)
    except BrokenPipeError:  # `minigrad trace show run.jsonl | head`: the reader left, which is fine
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


def _print_events(trace, args, node) -> None:
    from minigrad.trace.describe import format_event

    stop = len(trace.events) - 1 if args.stop is None else args.stop
    script = trace.meta.get("script")
    if script:
        print(f"# {script} {' '.join(trace.meta.get('argv', []))}".rstrip())
    print(f"# {len(trace.events)} events, {len(trace.nodes)} nodes; steps {args.start}..{stop}")
    if trace.dropped is not None:
        print(f"# {trace.dropped}: step 0 is the first event kept")
    for ev in trace.events[max(args.start, 0) : stop + 1]:
        if args.kind and ev.kind not in args.kind:
            continue
        if node is not None and node not in (ev.node_id, getattr(ev, "target", None)):
            continue
        print(format_event(ev, trace, with_details=not args.brief, width=args.width))
        if args.values:
            _print_values(ev, trace, " " * 11 + "  " * max(ev.depth - 1, 0) + " " * 18)


def _print_values(ev, trace, pad: str) -> None:
    """Each value ``ev`` recorded, whole (the recorder kept at most ``--max-values`` elements of each)."""
    from minigrad.tensor import shape_str
    from minigrad.trace.describe import event_values
    from minigrad.trace.values import indexed_lines

    for what, snap in event_values(ev, trace):
        try:
            lines = indexed_lines(snap.array(), width=100)
        except ValueError as exc:  # only a summary (or nothing) was kept: say so and why
            lines = [str(exc)]
        head = f"{pad}{what}, {snap.dtype}{shape_str(snap.shape)}"
        if snap.values is not None and snap.values.ndim == 0:
            print(f"{head} = {lines[0]}")
            continue
        print(f"{head}:")
        for line in lines:
            print(f"{pad}  {line}")
