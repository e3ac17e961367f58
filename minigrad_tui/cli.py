"""Command-line arguments of ``minigrad-tui``."""

from __future__ import annotations

import argparse
import ipaddress
from dataclasses import dataclass, field

from minigrad import __version__
from minigrad.trace.breakpoints import Breakpoint, parse_breakpoint

DESCRIPTION = """\
Step through a minigrad script's backward pass, event by event, forwards and backwards.

The script runs in a worker thread and stops at every execution event (a node
created, a pass started, a node entered, a gradient accumulated, ...). With no
script, the built-in example opens (the one `minigrad demo` runs).
"""

EPILOG = """\
breakpoints (--break, repeatable; also toggled with b / B in the debugger):
  NAME        a node's name, e.g. --break a or --break loss
  op:OP       every node made by an op, e.g. --break op:tanh
  nonfinite   any gradient that holds NaN or Inf
  pass:KIND   the start of a backward() or grad() pass, e.g. --break pass:grad
  ... hit N   stop from the Nth hit on, e.g. --break "op:mul hit 3"
  ... if COND only where the gradient g meets COND, e.g. --break "loss if |g| > 10"; COND takes
              numbers, g, arithmetic, comparisons, and/or/not, |x| (norm) and abs all any isfinite
              isinf isnan max mean min norm sum -- nothing else (it is never run as Python)

keys: n next event (steps over nested passes), s step into, N next node, f finish node,
r run to the end of the pass, left/right back/forward, home/end first/last, c continue,
b/B breakpoint on node/op, t run to node, g go to step/pass, / search a node, w watch,
a this pass's nodes/all nodes, v graph/tree, u/d pass stack, p pause, e export SVG,
? help, q quit.

examples:
  minigrad-tui                         open the built-in example
  minigrad-tui train.py --lr 0.1       run train.py with its own arguments
  minigrad-tui --break nonfinite x.py  stop when a gradient goes NaN/Inf
  minigrad-tui --replay run.jsonl      open a trace recorded by `minigrad trace`
  minigrad-tui --torch train.py        step through an unmodified PyTorch script (its torch is minigrad)
  minigrad-tui --web train.py          serve the debugger at http://127.0.0.1:8000/?token=... (browser)
  minigrad-tui --web --host 0.0.0.0 --port 9000 train.py   ... reachable from other machines

--web: whoever opens the page runs the script with your permissions. The server prints a URL
with a random token; a request without it gets 403 Forbidden. --no-token only on 127.0.0.1.
"""


@dataclass
class Options:
    """What the command line asked for."""

    script: str | None = None
    script_args: list[str] = field(default_factory=list)
    replay: str | None = None
    device: str | None = None
    breakpoints: list[Breakpoint] = field(default_factory=list)
    export_dir: str | None = None  # None: asked at the first export (minigrad-exports/ offered)
    web: bool = False
    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None
    no_token: bool = False
    max_sessions: int = 4
    break_specs: list[str] = field(default_factory=list)
    torch: bool = False
    web_token: bool = False  # a --web tab whose browser presented the server's token (set by .web, not typed)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="minigrad-tui",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("script", nargs="?", help="the Python script to debug (default: the built-in example)")
    parser.add_argument("script_args", nargs=argparse.REMAINDER, help="arguments passed to the script as sys.argv[1:]")
    parser.add_argument("--replay", metavar="RUN.jsonl", help="open a recorded trace instead of running code")
    parser.add_argument("--version", action="version", version=f"minigrad-tui {__version__}")
    parser.add_argument("--device", choices=["cpu", "cuda"], help="default device for the script's tensors")
    parser.add_argument(
        "--torch",
        action="store_true",
        help="resolve the script's `import torch` (and torch.*) to minigrad, for this run only",
    )
    parser.add_argument(
        "--break",
        dest="breaks",
        action="append",
        default=[],
        metavar="SPEC",
        help="add a breakpoint: a node name, op:OP, nonfinite or pass:KIND, then optionally 'hit N' and 'if COND' (repeatable)",
    )
    parser.add_argument(
        "--export-dir",
        default=None,
        metavar="DIR",
        help="where e writes step SVGs and the palette's Screenshot the screen's (default: asked at the first "
        "export, ./minigrad-exports/ offered)",
    )
    parser.add_argument(
        "--web",
        action="store_true",
        help="serve the debugger in a web browser instead of this terminal (needs textual-serve)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="with --web: the address to listen on (default: 127.0.0.1)")
    parser.add_argument(
        "--port",
        type=int,
        default=8000,
        help="with --web: the port to listen on (default: 8000; 0: a free one, named in the printed URL)",
    )
    parser.add_argument(
        "--token", help="with --web: the token a browser must present (default: a new random one, printed in the URL)"
    )
    parser.add_argument(
        "--no-token",
        action="store_true",
        help="with --web on 127.0.0.1: ask no token (anyone on this machine can connect)",
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=4,
        metavar="N",
        help="with --web: debugger processes (browser tabs) running at once; the next is refused (default: 4)",
    )
    parser.add_argument("--web-token", action="store_true", help=argparse.SUPPRESS)
    return parser


def parse_args(argv=None) -> Options:
    """Parse ``argv``; exits with a usage message on bad arguments like any argparse tool."""
    parser = build_parser()
    ns = parser.parse_args(argv)
    if not ns.web and (ns.host, ns.port) != ("127.0.0.1", 8000):
        parser.error("--host and --port only apply with --web")
    if not ns.web and (ns.token is not None or ns.no_token or ns.max_sessions != 4):
        parser.error("--token, --no-token and --max-sessions only apply with --web")
    if not 0 <= ns.port < 65536:
        parser.error(f"--port must be between 0 (a free port) and 65535, got {ns.port}")
    if ns.token is not None and ns.no_token:
        parser.error("give either --token or --no-token, not both")
    if ns.token == "":
        parser.error("--token must not be empty (use --no-token on 127.0.0.1 for no token)")
    if ns.no_token and not is_loopback(ns.host):
        parser.error(
            f"--no-token is refused with --host {ns.host}: anyone who can reach it could run the script; use a token"
        )
    if ns.max_sessions < 1:
        parser.error(f"--max-sessions must be at least 1, got {ns.max_sessions}")
    if ns.replay and ns.script:
        parser.error("give either a script or --replay RUN.jsonl, not both")
    try:
        breakpoints = [parse_breakpoint(spec) for spec in ns.breaks]
    except ValueError as exc:
        parser.error(str(exc))
    return Options(
        script=ns.script,
        script_args=list(ns.script_args),
        replay=ns.replay,
        device=ns.device,
        breakpoints=breakpoints,
        export_dir=ns.export_dir,
        web=ns.web,
        host=ns.host,
        port=ns.port,
        token=ns.token,
        no_token=ns.no_token,
        max_sessions=ns.max_sessions,
        break_specs=list(ns.breaks),
        torch=ns.torch,
        web_token=ns.web_token,
    )


def is_loopback(host: str) -> bool:
    """``host`` is a loopback address (127.0.0.1, ::1), which only this machine can reach."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
