"""The step model writes each value to fit the inspector's width: an array too big to show is a
one-line summary (shape and range first), so a step's rule, values and results fit an 80×24 screen."""

import minigrad as mg
from minigrad import trace
from minigrad.nn import functional as F
from minigrad_tui.model import StepModel


def _cross_entropy_step():
    mg.manual_seed(0)
    logits = mg.randn(100, 2, requires_grad=True)
    with trace.record() as tr:
        F.cross_entropy(logits, mg.randint(0, 2, (100,))).backward()
    (step,) = [e.seq for e in tr.events if e.kind == "closure_called"]
    return tr, step


def test_values_beside_a_rule_are_one_line_of_the_inspector_at_80_columns():
    tr, step = _cross_entropy_step()
    model = StepModel(tr)
    model.width = 48  # the inspector's text width in an 80-column terminal
    closure = model.step(step).closure
    rows = [("g", closure.incoming), *closure.captured, *((f"→ {r.parent}", r.value) for r in closure.returned)]
    label = max(len(name) for name, _ in rows) + 1
    for name, value in rows:
        assert len(value) <= model.width - label, (name, value)
    returned = closure.returned[0].value
    assert returned.startswith("[100, 2] min=") and " max=" in returned  # the range survives, the dtype goes


def test_a_wide_inspector_keeps_every_statistic():
    tr, step = _cross_entropy_step()
    model = StepModel(tr)
    model.width = 120
    returned = model.step(step).closure.returned[0].value
    assert returned.startswith("float32[100, 2] min=") and " mean=" in returned and " norm=" in returned
