"""``minigrad render``: diagrams of a recorded trace (one step, every step, or an HTML player)."""

from __future__ import annotations

import argparse
import sys

_EXAMPLES = """\
examples:
  minigrad render run.jsonl --step 12 -o step.svg     one step (format from the suffix: svg, png, pdf, dot)
  minigrad render run.jsonl --frames frames/           one SVG per step
  minigrad render run.jsonl --html run.html            a self-contained page stepping through every step
"""


def register(sub) -> None:
    p = sub.add_parser(
        "render",
        help="draw a recorded trace: one step, every step, or an HTML player",
        description="Draw the graph of a recorded trace at one step, as one file per step,\n"
        "or as a single self-contained HTML page that steps through them.",
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("trace", help="trace file (JSON Lines, from `minigrad trace -o` or Trace.save)")
    p.add_argument(
        "--step",
        type=int,
        help="the step to draw with -o, numbered from 0 as every viewer shows it (default: the last; negative counts from the end)",
    )
    p.add_argument(
        "-o", "--output", help="write the diagram of --step here (format from the suffix); '-' for SVG on stdout"
    )
    p.add_argument("--frames", metavar="DIR", help="write one diagram per step into DIR")
    p.add_argument("--format", default="svg", help="file format of --frames: svg (default), png, pdf, dot")
    p.add_argument("--html", metavar="FILE", help="write one self-contained HTML player with every step")
    p.add_argument("--steps", metavar="START:STOP", help="only these steps for --frames/--html (Python slice)")
    p.add_argument("--rankdir", default="LR", help="LR (left to right, default) or TB (top to bottom)")
    p.add_argument(
        "--fields",
        default="name,op,shape,data,grad",
        help="comma-separated fields: name,op,shape,dtype,device,data,grad",
    )
    p.add_argument("--captured", action="store_true", help="show the values each backward closure captured")
    p.add_argument("--max-nodes", type=int, default=500, help="draw at most this many tensors (default 500; 0: all)")
    p.add_argument("--precision", type=int, default=4, help="significant digits of numbers (default 4)")
    p.add_argument("--merge-ops", action="store_true", help="put each op inside its output's box")
    p.add_argument("--no-legend", action="store_true", help="leave the colour legend out")
    p.add_argument("--title", help="title of the HTML page")
    p.set_defaults(func=run)


def _fail(message: str, code: int = 1) -> int:
    print(f"minigrad render: error: {message}", file=sys.stderr)
    return code


def run(args) -> int:
    from minigrad.trace import Trace, TraceFormatError
    from minigrad.viz import Options, draw
    from minigrad.viz.frames import parse_steps, write_frames
    from minigrad.viz.player import write_html

    if not (args.output or args.frames or args.html):
        return _fail("nothing to write: give -o FILE (one step), --frames DIR or --html FILE", 2)
    try:
        options = Options(
            rankdir=args.rankdir,
            fields=tuple(f.strip() for f in args.fields.split(",") if f.strip()),
            captured=args.captured,
            max_nodes=args.max_nodes or None,
            precision=args.precision,
            op_nodes=not args.merge_ops,
            legend=not args.no_legend,
        )
    except ValueError as exc:
        return _fail(str(exc).replace("draw(): ", ""), 2)
    try:
        trace = Trace.load(args.trace)
    except FileNotFoundError:
        return _fail(f"no such trace file: {args.trace}")
    except (TraceFormatError, OSError) as exc:
        return _fail(str(exc))
    n = len(trace.events)
    if n == 0:
        return _fail(f"{args.trace} holds no events")
    try:
        steps = parse_steps(args.steps, n)
        if args.output:
            step = n - 1 if args.step is None else args.step
            diagram = draw(trace, step, options=options)
            if args.output == "-":
                sys.stdout.write(diagram.svg())
            else:
                diagram.save(args.output)
                print(f"wrote step {step % n} to {args.output}")
        if args.frames:
            paths = write_frames(trace, args.frames, steps, options, args.format.lower().lstrip("."))
            print(f"wrote {len(paths)} frames to {args.frames}")
        if args.html:
            write_html(trace, args.html, steps, options, args.title)
            print(f"wrote {len(steps)} steps to {args.html}")
    except (ValueError, IndexError, OSError) as exc:
        return _fail(str(exc))
    return 0
