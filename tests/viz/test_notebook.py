"""The notebook stepper: moves over a recorded trace, the widget's state after each move, the static fallback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import minigrad as mg
from minigrad.trace import record
from minigrad.trace.describe import headline
from minigrad.viz.notebook import MOVES, movement, parse_breakpoint, step_html
from tests.notebook_kernel import execute_notebook


def _nested_trace():
    """A backward pass whose closure runs grad() (a nested pass) — pdb's next must step over it."""

    class Square(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            with mg.enable_grad():
                xx = x.detach().requires_grad_()
                (d,) = mg.autograd.grad((xx * xx).sum(), xx)
            return g * d

    with record() as trace:
        a = mg.tensor([1.0, -2.0], requires_grad=True, name="a")
        y = Square.apply(a).sum()
        y.backward()
    return trace


@pytest.fixture(scope="module")
def trace():
    return _nested_trace()


def _first(trace, kind, **fields):
    return next(e.seq for e in trace.events if e.kind == kind and all(getattr(e, k) == v for k, v in fields.items()))


def test_next_steps_over_a_nested_pass_and_step_goes_into_it(trace):
    outer = _first(trace, "pass_started", depth=1)
    inner = _first(trace, "pass_started", depth=2)
    before_inner = inner - 1
    assert trace.events[before_inner].depth == 1
    assert movement(trace, before_inner, "step") == inner
    landed = movement(trace, before_inner, "next")
    assert trace.events[landed].depth == 1 and landed > inner
    assert all(trace.events[k].depth == 2 for k in range(inner, landed))
    assert movement(trace, outer, "first") == 0


def test_finish_ends_the_current_node(trace):
    entered = _first(trace, "node_entered", depth=1)
    node = trace.events[entered].node
    done = movement(trace, entered, "finish")
    assert trace.events[done].kind == "node_finished" and trace.events[done].node == node


def test_continue_stops_at_the_breakpoint_or_the_end(trace):
    bp = parse_breakpoint("pass:grad")
    hit = movement(trace, 0, "continue", bp)
    assert trace.events[hit].kind == "pass_started" and trace.events[hit].pass_kind == "grad"
    assert movement(trace, hit, "continue", bp) == len(trace.events) - 1
    assert movement(trace, 0, "continue", None) == len(trace.events) - 1


def test_moves_stay_inside_the_trace(trace):
    last = len(trace.events) - 1
    assert movement(trace, 0, "back") == 0
    assert movement(trace, last, "step") == last
    assert movement(trace, last, "next") == last
    with pytest.raises(ValueError, match="unknown move 'jump'"):
        movement(trace, 0, "jump")


def test_breakpoint_specs_match_the_debuggers():
    assert parse_breakpoint("") is None
    assert parse_breakpoint("loss").node == "loss"
    assert parse_breakpoint("op:mul").op == "mul"
    assert parse_breakpoint("nonfinite").nonfinite
    with pytest.raises(ValueError, match="invalid breakpoint 'op:'"):
        parse_breakpoint("op:")


def test_static_view_shows_the_step_in_words_and_a_diagram(trace):
    page = step_html(trace, 3)
    assert "step 3 of" in page
    assert headline(trace.events[3], trace).split()[0] in page
    assert "<svg" in page
    assert step_html(trace).count("<svg") == 1  # the last step


def test_the_widget_state_follows_each_move(trace):
    pytest.importorskip("anywidget")
    from minigrad.viz.notebook import TraceStepper

    w = TraceStepper(trace)
    assert (w.step, w.total) == (0, len(trace.events))
    assert len(w.headlines) == w.total and w.headlines[5] == headline(trace.events[5], trace)
    w.move("step")
    assert w.step == 1 and w.headline == headline(trace.events[1], trace)
    first_svg = w.svg
    w.breakpoint = "pass:grad"
    w.move("continue")
    assert trace.events[w.step].pass_kind == "grad"
    assert w.svg != first_svg and "<svg" in w.svg
    w.move("back")
    assert w.step == _first(trace, "pass_started", depth=2) - 1
    w._on_message(w, {"move": "last"}, [])
    assert w.step == w.total - 1
    w.step = 2  # the slider
    assert w.headline == headline(trace.events[2], trace)


def test_the_widget_shows_its_step_as_static_html_where_it_cannot_run(trace):
    """An exported notebook (nbconvert to HTML) has no widget JavaScript: text/html shows the step."""
    pytest.importorskip("anywidget")
    from minigrad.viz.notebook import TraceStepper

    w = TraceStepper(trace, step=4)
    bundle, _metadata = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    page = bundle["text/html"]
    assert "step 4 of" in page and "<svg" in page
    assert headline(trace.events[4], trace) in page.replace("&#x27;", "'")
    w.move("step")
    moved = w._repr_mimebundle_()[0]["text/html"]
    assert "step 5 of" in moved and headline(trace.events[5], trace).split()[0] in moved


def test_the_widget_reports_a_bad_breakpoint_without_moving(trace):
    pytest.importorskip("anywidget")
    from minigrad.viz.notebook import TraceStepper

    w = TraceStepper(trace, step=4)
    w.breakpoint = "pass:"
    assert w.move("continue") == 4
    assert "invalid breakpoint 'pass:'" in w.message
    w.breakpoint = ""
    w.move("continue")
    assert w.step == w.total - 1 and "no breakpoint set" in w.message


def test_a_loaded_trace_steps_the_same(tmp_path, trace):
    pytest.importorskip("anywidget")
    from minigrad.trace import Trace
    from minigrad.viz.notebook import TraceStepper

    path = tmp_path / "run.jsonl"
    trace.save(path)
    loaded = TraceStepper(Trace.load(path))
    live = TraceStepper(trace)
    for move in MOVES:
        assert loaded.move(move) == live.move(move)
        assert loaded.headline == live.headline


FAKE_DOM = r"""
class Node {
  constructor(tag) { this.tag = tag; this.attrs = {}; this.children = []; this.listeners = {};
                     this.textContent = ""; this.innerHTML = ""; this.value = ""; }
  setAttribute(k, v) { this.attrs[k] = v; }
  appendChild(c) { this.children.push(c); }
  append(...cs) { this.children.push(...cs); }
  addEventListener(type, fn) { this.listeners[type] = fn; }
  fire(type, event = {}) { this.listeners[type]({ target: this, preventDefault() {}, ...event }); }
  find(pred) { if (pred(this)) return this;
               for (const c of this.children) { const f = c.find(pred); if (f) return f; } return null; }
}
globalThis.document = { createElement: (tag) => new Node(tag) };
const state = JSON.parse(process.argv[2]);
const handlers = {}, sent = [];
const model = {
  get: (k) => state[k], set: (k, v) => { state[k] = v; }, save_changes() {},
  on: (ev, fn) => { (handlers[ev] ||= []).push(fn); }, send: (m) => sent.push(m),
};
const widget = (await import(process.argv[3])).default;
const root = new Node("div");
widget.render({ model, el: root });
const head = root.find((n) => n.attrs.class === "head");
const report = { first: head.textContent, svg: root.find((n) => n.attrs.class === "diagram").innerHTML };
root.find((n) => n.textContent === "next ▶").fire("click");
root.find((n) => n.attrs.class === "minigrad-stepper").fire("keydown", { key: "f" });
const slider = root.find((n) => n.attrs.type === "range");
slider.value = "2"; slider.fire("input");
report.sent = sent; report.afterSlider = head.textContent; report.step = state.step;
report.details = root.find((n) => n.attrs.class === "details").textContent;
console.log(JSON.stringify(report));
"""


def test_the_widget_front_end_renders_and_sends_moves(tmp_path, trace):
    """The ES module in Node with a minimal DOM: the header, the diagram, buttons and keys send moves,
    and the slider steps the saved words without a kernel."""
    import json
    import shutil
    import subprocess

    pytest.importorskip("anywidget")
    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed")
    from minigrad.viz.notebook import _ESM, TraceStepper

    w = TraceStepper(trace)
    state = {
        k: getattr(w, k)
        for k in ("step", "total", "headline", "details", "headlines", "all_details", "svg", "breakpoint", "message")
    }
    module = tmp_path / "widget.mjs"
    module.write_text(_ESM)
    harness = tmp_path / "harness.mjs"
    harness.write_text(FAKE_DOM)
    run = subprocess.run(
        ["node", str(harness), json.dumps(state), module.as_uri()], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["first"] == f"step 0 of {w.total - 1}: {w.headlines[0]}"
    assert "<svg" in report["svg"]
    assert report["sent"] == [{"move": "next"}, {"move": "finish"}]
    assert report["step"] == 2
    assert report["afterSlider"] == f"step 2 of {w.total - 1}: {w.headlines[2]}"
    assert report["details"] == w.all_details[2]


def test_a_trace_shows_in_ipython_through_viz_without_drawing_itself():
    """The trace draws nothing (no display method of its own): ``import minigrad`` in a running IPython
    registers viz's stepper for it by the type's name, and nothing of trace or viz loads until one is shown."""
    pytest.importorskip("IPython")
    code = (
        "import sys\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "import minigrad as mg\n"
        "assert 'minigrad.trace' not in sys.modules and 'minigrad.viz' not in sys.modules\n"
        "from minigrad.trace import Trace, record\n"
        "assert not hasattr(Trace, '_ipython_display_') and not hasattr(Trace, '_repr_html_')\n"
        "with record() as trace:\n"
        "    a = mg.tensor([2.0, -1.0], requires_grad=True, name='a')\n"
        "    (a * a).sum().backward()\n"
        "import minigrad.viz.notebook as notebook\n"
        "shown = []\n"
        "notebook.display_trace = shown.append\n"
        "assert shell.display_formatter.format(trace) == ({}, {})\n"
        "assert shown == [trace]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


def test_the_stepper_in_a_notebook_run_by_nbclient(tmp_path):
    """A kernel records a trace, displays it, and moves the widget through its traitlets."""
    pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("ipykernel")
    pytest.importorskip("anywidget")
    cells = [
        "import minigrad as mg\nimport minigrad.trace\n"
        "with minigrad.trace.record() as trace:\n"
        "    a = mg.tensor([2.0, -1.0], requires_grad=True, name='a')\n"
        "    (a * a).sum().backward()\n"
        "trace",
        "from minigrad.viz.notebook import TraceStepper\n"
        "w = TraceStepper(trace)\n"
        "w.move('next'); w.move('next'); w.move('back')\n"
        "print(w.step, w.total, '|', w.headline, '|', '<svg' in w.svg)",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    execute_notebook(notebook, timeout=120)  # a kernel on socket files of its own: no TCP port to share
    shown = notebook.cells[0].outputs
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in shown)
    assert any("<svg" in o.get("data", {}).get("text/html", "") for o in shown)  # what nbconvert's HTML shows
    printed = "".join(o.get("text", "") for o in notebook.cells[1].outputs)
    step, rest = printed.split(" ", 1)
    total, headline, has_svg = (part.strip() for part in rest.split("|"))
    assert step == "1" and int(total) > 5 and has_svg == "True"
    assert "mul" in headline  # step 1: the product a * a is made
