"""A recorded trace in a Jupyter notebook: an interactive stepper (anywidget), or one static step.

``display(trace)`` (what a cell whose last line is a Trace shows) gives a
:class:`TraceStepper` when ``anywidget`` is installed: the diagram of the current
step, the event in words (short and long form), and buttons and keys that move
as the terminal debugger's do: ``n`` next (over nested passes), ``s`` step into,
``f`` finish the node, ``←``/``→`` back/forward, ``Home``/``End``, ``c`` continue
to the breakpoint typed in its field, and a slider over all steps. Values come
from the trace, never from live tensors, so a trace loaded from a file steps the
same way, and the words of every step travel in the widget's state: a notebook
saved with its outputs still steps through them without a kernel (the diagram
then stays at the step it was saved on), and the widget's display carries that step
as static ``text/html`` too, for a notebook exported to HTML. Without ``anywidget``,
:func:`step_html` is the static view of one step.
"""

from __future__ import annotations

import html
import importlib.util

from ..trace import breakpoints
from ..trace import events as E
from ..trace.breakpoints import Breakpoint, HitCounter
from ..trace.describe import details, headline, step_text

__all__ = ["display_trace", "step_html", "parse_breakpoint", "movement", "MOVES", "MAX_TEXT_STEPS"]

MOVES = ("first", "back", "step", "next", "finish", "continue", "last")
MAX_TEXT_STEPS = 5000  # per-step words kept in the widget's state; longer traces describe steps on demand


def parse_breakpoint(spec: str) -> Breakpoint | None:
    """The breakpoint a text names, as ``minigrad-tui --break`` reads it; None for an empty text."""
    return breakpoints.parse_breakpoint(spec) if spec.strip() else None


def movement(trace, index: int, move: str, breakpoint: Breakpoint | None = None, hits: HitCounter | None = None) -> int:
    """Where ``move`` (one of :data:`MOVES`) goes from step ``index`` in a recorded trace.

    ``next`` is pdb's: the next event at the same pass depth or shallower, so a
    nested pass (grad() inside a closure or hook) is stepped over; ``step`` is the
    very next event; ``finish`` ends the current node; ``continue`` stops at the
    breakpoint (or the last step); ``hits`` counts its hits (a new counter when None).
    """
    events = trace.events
    last = len(events) - 1
    if move not in MOVES:
        raise ValueError(f"unknown move {move!r}: expected one of {', '.join(MOVES)}")
    if last < 0:
        return 0
    index = min(max(index, 0), last)
    if move == "first":
        return 0
    if move == "last":
        return last
    if move == "back":
        return max(index - 1, 0)
    if move == "step":
        return min(index + 1, last)
    depth = events[index].depth
    node = trace.node_in_progress(index)
    current = None if node is None else (events[index].pass_id, node)
    if breakpoint is not None and hits is None:
        hits = HitCounter(trace)
    for j in range(index + 1, last + 1):
        ev = events[j]
        if move == "next" and (depth == 0 or ev.depth <= depth):
            return j
        if move == "finish":
            if current is None and (depth == 0 or ev.depth <= depth):
                return j
            if current is not None and isinstance(ev, E.NodeFinished) and (ev.pass_id, ev.node) == current:
                return j
        if move == "continue" and breakpoint is not None and breakpoint.matches(ev, hits):
            return j
    return last


def _words(trace, index: int) -> tuple[str, str]:
    ev = trace.events[index]
    return headline(ev, trace), "\n".join(details(ev, trace))


def _diagram_svg(trace, index: int) -> str:
    from . import draw

    try:
        return draw(trace, step=index, legend=False).svg()
    except Exception as exc:  # a diagram that cannot be laid out must not break the stepper
        return f"<p>(no diagram: {html.escape(str(exc))})</p>"


def step_html(trace, index: int | None = None) -> str:
    """One step of ``trace`` as static HTML: its number, the event in words and its diagram."""
    total = len(trace.events)
    if total == 0:
        return "<p>minigrad trace: no events recorded</p>"
    index = total - 1 if index is None else min(max(index, 0), total - 1)
    words, more = _words(trace, index)
    return _step_page(index, total, words, more, _diagram_svg(trace, index))


def _step_page(index: int, total: int, words: str, more: str, svg: str) -> str:
    return (
        f"<div class='minigrad-step'><b>{step_text(index, total)}</b>: {html.escape(words)}"
        f"<pre>{html.escape(more)}</pre>{svg}</div>"
    )


_ESM = """
function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}
const BUTTONS = [["first", "|◀", "Home"], ["back", "◀ back", "←"], ["step", "step into", "s"],
                 ["next", "next ▶", "n"], ["finish", "finish", "f"], ["continue", "continue", "c"],
                 ["last", "▶|", "End"]];
const KEYS = {n: "next", s: "step", f: "finish", c: "continue", ArrowLeft: "back", ArrowRight: "step",
              Home: "first", End: "last"};
function render({ model, el: root }) {
  const box = el("div", { class: "minigrad-stepper", tabindex: "0" });
  const bar = el("div", { class: "bar" });
  for (const [move, label, key] of BUTTONS) {
    const b = el("button", { title: `${move} (${key})` }, label);
    b.addEventListener("click", () => model.send({ move }));
    bar.appendChild(b);
  }
  const bp = el("input", { type: "text", placeholder: "breakpoint: name, op:mul, nonfinite, pass:grad" });
  bp.value = model.get("breakpoint");
  bp.addEventListener("change", () => { model.set("breakpoint", bp.value); model.save_changes(); });
  bar.appendChild(bp);
  const slider = el("input", { type: "range", min: "0" });
  slider.addEventListener("input", () => { model.set("step", Number(slider.value)); model.save_changes(); show(); });
  const head = el("div", { class: "head" });
  const message = el("div", { class: "message" });
  const details = el("pre", { class: "details" });
  const svg = el("div", { class: "diagram" });
  box.append(bar, slider, head, message, details, svg);
  box.addEventListener("keydown", (e) => {
    if (e.target === bp) return;
    const move = KEYS[e.key];
    if (move) { e.preventDefault(); model.send({ move }); }
  });
  function show() {
    const step = model.get("step"), total = model.get("total");
    const heads = model.get("headlines"), all = model.get("all_details");
    slider.max = String(Math.max(total - 1, 0));
    slider.value = String(step);
    const words = heads.length ? heads[step] : model.get("headline");
    head.textContent = `step ${step} of ${Math.max(total - 1, 0)}: ${words}`;
    details.textContent = all.length ? all[step] : model.get("details");
    message.textContent = model.get("message");
  }
  function showDiagram() { svg.innerHTML = model.get("svg"); }
  model.on("change:step", show);
  model.on("change:headline", show);
  model.on("change:message", show);
  model.on("change:svg", showDiagram);
  show(); showDiagram();
  root.appendChild(box);
}
export default { render };
"""

_CSS = """
.minigrad-stepper { font-family: var(--jp-code-font-family, monospace); }
.minigrad-stepper .bar { display: flex; gap: 4px; flex-wrap: wrap; align-items: center; }
.minigrad-stepper input[type=range] { width: 100%; }
.minigrad-stepper .head { font-weight: bold; margin: 4px 0; }
.minigrad-stepper .message { color: #b35900; }
.minigrad-stepper .details { margin: 4px 0; white-space: pre-wrap; }
.minigrad-stepper .diagram svg { max-width: 100%; height: auto; }
"""


def _widget_class():
    import anywidget
    import traitlets

    class TraceStepper(anywidget.AnyWidget):
        """Step through a recorded trace in a notebook (see the module docstring)."""

        _esm = _ESM
        _css = _CSS
        step = traitlets.Int(0).tag(sync=True)
        total = traitlets.Int(0).tag(sync=True)
        headline = traitlets.Unicode("").tag(sync=True)
        details = traitlets.Unicode("").tag(sync=True)
        headlines = traitlets.List(traitlets.Unicode()).tag(sync=True)
        all_details = traitlets.List(traitlets.Unicode()).tag(sync=True)
        svg = traitlets.Unicode("").tag(sync=True)
        breakpoint = traitlets.Unicode("").tag(sync=True)
        message = traitlets.Unicode("").tag(sync=True)

        def __init__(self, trace, step: int = 0, **kwargs):
            self.trace = trace
            self.hits = HitCounter(trace)
            total = len(trace.events)
            words = [_words(trace, k) for k in range(total)] if total <= MAX_TEXT_STEPS else []
            super().__init__(
                total=total,
                headlines=[w[0] for w in words],
                all_details=[w[1] for w in words],
                **kwargs,
            )
            self.observe(self._show_step, names="step")
            self.on_msg(self._on_message)
            self.step = min(max(step, 0), max(total - 1, 0))
            self._show_step()

        def move(self, move: str) -> int:
            """Apply one of :data:`MOVES` (what the buttons and keys send); returns the new step."""
            try:
                breakpoint = parse_breakpoint(self.breakpoint)
            except ValueError as exc:
                self.message = str(exc)
                return self.step
            if move == "continue" and breakpoint is None:
                self.message = "no breakpoint set: continue runs to the last step"
            else:
                self.message = ""
            self.step = movement(self.trace, self.step, move, breakpoint, self.hits)
            return self.step

        def _repr_mimebundle_(self, **kwargs):
            """The widget, and beside it the current step as static HTML (its words and diagram) for
            a viewer without the widget's JavaScript: a notebook exported by nbconvert, or on GitHub."""
            bundle = super()._repr_mimebundle_(**kwargs)  # anywidget: (data, metadata); ipywidgets: data
            data = bundle[0] if isinstance(bundle, tuple) else bundle
            if data is not None:
                data["text/html"] = (
                    _step_page(self.step, self.total, self.headline, self.details, self.svg)
                    if self.total
                    else step_html(self.trace)
                )
            return bundle

        def _on_message(self, _widget, content, _buffers):
            if isinstance(content, dict) and content.get("move") in MOVES:
                self.move(content["move"])

        def _show_step(self, _change=None):
            if not self.total:
                self.headline, self.details, self.svg = "no events recorded", "", ""
                return
            self.headline, self.details = _words(self.trace, self.step)
            self.svg = _diagram_svg(self.trace, self.step)

    return TraceStepper


def __getattr__(name):
    if name == "TraceStepper":
        cls = _widget_class()
        globals()["TraceStepper"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def display_trace(trace) -> None:
    """Show ``trace`` in the running notebook: the stepper widget, else the static last step."""
    from IPython.display import HTML, display

    if importlib.util.find_spec("anywidget") is not None:
        display(__getattr__("TraceStepper")(trace))
    else:
        display(HTML(step_html(trace)))
