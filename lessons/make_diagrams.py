"""(Re)generate the lessons' diagrams with minigrad.viz: lessons/NN_topic/diagrams/NAME.{dot,svg}.

    python lessons/make_diagrams.py            write every diagram
    python lessons/make_diagrams.py --check    list the stale ones (exit 1 if any)
    python lessons/make_diagrams.py --dot KEY  print one diagram's normalised DOT

Each diagram is drawn in a fresh Python process, and its DOT text is normalised
(node ids such as ``t12``/``o12`` and labels such as ``mul#12`` are renumbered in
order of appearance), so the output does not depend on what ran before. The
``.dot`` file beside each ``.svg`` is what ``--check`` (and tests/course) compare.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

LESSONS = Path(__file__).resolve().parent
DIAGRAMS: dict = {}


def diagram(key: str):
    """Register a function returning a minigrad.viz Diagram as ``lessons/<lesson>/diagrams/<name>``."""

    def register(fn):
        DIAGRAMS[key] = fn
        return fn

    return register


def step_of(trace, kind: str, node: str, nth: int = 0) -> int:
    """The step (event index) of the ``nth`` ``kind`` event about ``node``."""
    return trace.find(kind, node)[nth].seq


@diagram("01_chain_rule/graph")
def _():
    import minigrad as mg
    from minigrad import viz

    a = mg.tensor(2.0, requires_grad=True, name="a")
    b = mg.tensor(-3.0, requires_grad=True, name="b")
    c = mg.tensor(6.5, requires_grad=True, name="c")
    d = a * b
    d.name = "d"
    e = d + c
    e.name = "e"
    f = e.tanh()
    f.name = "f"
    f.backward(retain_graph=True)
    return viz.draw(f, title="f = tanh(a * b + c) after f.backward(): data and gradient of every node")


@diagram("02_backward_engine/accumulation")
def _():
    import minigrad as mg
    from minigrad import viz
    from minigrad.trace import record

    with record() as trace:
        a = mg.tensor(3.0, requires_grad=True, name="a")
        b = a + a
        c = b * b
        c.backward()
    return viz.draw(trace, step=step_of(trace, "grad_accumulated", "b", 1))


@diagram("03_broadcasting/unbroadcast")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo(3)
    return viz.draw(trace, step=step_of(trace, "grad_reduced", "h"))


@diagram("04_autograd_grad/grads_saved")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo(4)
    return viz.draw(trace, step=trace.find("grads_saved")[0].seq)


@diagram("05_higher_order/create_graph")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo(5)
    return viz.draw(trace, step=trace.find("pass_finished")[0].seq)


@diagram("06_custom_functions/closure_at_h")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo(6)
    return viz.draw(trace, step=step_of(trace, "closure_called", "h"), captured=True)


@diagram("07_training/mlp_graph")
def _():
    import minigrad as mg
    from minigrad import nn, viz
    from minigrad.nn import functional as F

    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 2))
    X, y = mg.data.make_moons(4, seed=0)
    loss = F.cross_entropy(model(mg.tensor(X)), mg.tensor(y))
    loss.name = "loss"
    return viz.draw(loss, fields=("name", "op", "shape"), title="cross_entropy(model(x), target) for a 2-3-2 MLP")


@diagram("08_debugging_gradients/nan_at_sqrt")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        trace = record_demo(8)
    return viz.draw(trace, step=step_of(trace, "closure_called", "root"))


@diagram("09_gpu/demo_graph")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo(9)
    return viz.draw(trace, step=trace.find("pass_finished")[-1].seq, fields=("name", "op", "shape", "device"))


@diagram("10_your_own_micrograd/second_into_a")
def _():
    from minigrad import viz
    from minigrad.course.recording import contributions_into, record_demo

    trace = record_demo(10, argv=("reference",))
    first_pass = trace.find("pass_started")[0].pass_id
    return viz.draw(trace, step=contributions_into(trace, "a", pass_id=first_pass)[1].seq)


@diagram("11_forward_mode/tangent_of_t")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo(11)
    return viz.draw(trace, step=next(e.seq for e in trace.find("tangent_computed") if e.op == "tanh"))


@diagram("11_forward_mode/both_ways")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo(11)
    xr = trace.node("xr").id
    into_xr = [e for e in trace.find("grad_accumulated") if e.target == xr and e.into == "grad"]
    return viz.draw(trace, step=into_xr[0].seq)


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_ID = re.compile(r"\b([to])(\d+)\b")


def normalise(dot: str) -> str:
    """Renumber Graphviz's node ids (``t12``, ``o12``) in order of appearance, and drop object addresses
    (``<... object at 0x7f...>``). Labels (``mul#12``) keep their numbers: each diagram is drawn in a
    fresh process, as each transcript is, so a figure names a node as the transcript beside it does."""
    numbers: dict = {}

    def renumber(m):
        k = numbers.setdefault(m.group(2), len(numbers) + 1)
        return f"{m.group(1)}{k}"

    return _ID.sub(renumber, _ADDRESS.sub(" at 0x…", dot))


def paths(key: str) -> tuple[Path, Path]:
    lesson, name = key.split("/")
    folder = LESSONS / lesson / "diagrams"
    return folder / f"{name}.dot", folder / f"{name}.svg"


def fresh_dot(key: str) -> str:
    """The normalised DOT of one diagram, drawn in a fresh process."""
    proc = subprocess.run(
        [sys.executable, __file__, "--dot", key], capture_output=True, text=True, timeout=120, check=False
    )
    if proc.returncode:
        raise RuntimeError(f"drawing {key} failed:\n{proc.stderr}")
    return proc.stdout


def write(key: str) -> None:
    from minigrad.viz import Diagram

    dot_path, svg_path = paths(key)
    dot_path.parent.mkdir(exist_ok=True)
    source = fresh_dot(key)
    dot_path.write_text(source)
    Diagram(source).save(svg_path)
    print(f"wrote {svg_path.relative_to(LESSONS)}")


def stale() -> list[str]:
    """The diagrams whose committed .dot differs from a fresh drawing (or that are missing)."""
    out = []
    for key in DIAGRAMS:
        dot_path, svg_path = paths(key)
        if not (dot_path.exists() and svg_path.exists()) or dot_path.read_text() != fresh_dot(key):
            out.append(key)
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--dot"]:
        sys.stdout.write(normalise(DIAGRAMS[argv[1]]().source))
        return 0
    if argv[:1] == ["--check"]:
        found = stale()
        for key in found:
            print(f"stale: {key} (run python lessons/make_diagrams.py)")
        return 1 if found else 0
    for key in argv or list(DIAGRAMS):
        write(key)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
