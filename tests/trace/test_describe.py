"""The one describer: every event kind has words, short and long, and each viewer uses the same ones."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import viz
from minigrad.trace import EVENT_TYPES, record
from minigrad.trace.describe import DETAILS, HEADLINES, details, format_event, headline, node_label, step_text


@pytest.fixture(scope="module")
def trace():
    a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True, name="a")
    b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True, name="b")
    with record() as tr:
        loss = ((a * b).tanh() + a * a).sum()
        loss.backward(retain_graph=True)
        mg.autograd.grad(loss, [a])
    return tr


def test_every_event_kind_has_a_short_and_a_long_form():
    assert set(HEADLINES) == set(EVENT_TYPES.values())
    assert set(DETAILS) == set(EVENT_TYPES.values())


def test_each_event_in_words(trace):
    for ev in trace.events:
        line = headline(ev, trace)
        assert line and "\n" not in line
        assert all(isinstance(x, str) for x in details(ev, trace))
        assert format_event(ev, trace, with_details=False).split()[0] == str(ev.seq)
    words = [headline(ev, trace) for ev in trace.events]
    assert "create leaf a (requires grad) (made before recording)" in words
    assert any(w.startswith("enter loss with gradient 1") for w in words)
    assert any(w.startswith("backward() pass") and w.endswith("from loss (retain_graph=True)") for w in words)
    assert any(w.startswith("grad() pass") and w.endswith("from loss w.r.t. a") for w in words)
    called = next(ev for ev in trace.events if ev.kind == "closure_called")
    assert any(line.startswith("rule ") for line in details(called, trace))


def test_labels_and_step_numbers(trace):
    mul = next(i for i in trace.nodes.values() if i.op == "mul" and i.name is None)
    assert node_label(trace, mul.id) == f"mul#{mul.id}" == mul.label
    assert node_label(trace, 10**9) == f"#{10**9}" and node_label(trace, None) == "-"
    assert step_text(0, 1) == "step 0 of 0" and step_text(5, 42) == "step 5 of 41"


def test_the_viewers_use_the_same_words(trace):
    from minigrad.viz.notebook import step_html
    from minigrad.viz.player import player_data

    k = next(ev.seq for ev in trace.events if ev.kind == "grad_accumulated")
    words = headline(trace.events[k], trace)
    assert viz.draw(trace, step=k).graph.title.endswith(words)
    assert viz.draw(trace, step=k).graph.title.startswith(step_text(k, len(trace.events)))
    assert player_data(trace, [k])["steps"][0]["text"] == words
    assert step_text(k, len(trace.events)) in step_html(trace, k)


def test_a_custom_functions_rule_shows_what_it_saved_and_its_inputs_by_their_names():
    from minigrad.autograd import Function

    class Swish(Function):
        @staticmethod
        def forward(ctx, x, beta):
            s = (x * beta).sigmoid()
            ctx.save_for_backward(x, s)
            ctx.beta = beta
            return x * s

        @staticmethod
        def backward(ctx, g):
            x, s = ctx.saved_tensors
            return g * (s + x * s * (1 - s)), None

    x = mg.tensor([-2.0, 0.5, 3.0], requires_grad=True, name="x")
    with record() as tr:
        h = Swish.apply(x, 1.0)
        h.sum().backward()
    rule = next(e for e in tr.events if e.kind == "closure_called" and tr.nodes[e.node].op == "Swish")
    assert [(c.name, c.kind) for c in rule.captured] == [
        ("x", "tensor"),
        ("s", "tensor"),
        ("ctx.beta", "value"),
        ("beta", "value"),
    ]
    s = rule.captured[1].value.values
    assert s.tolist() == pytest.approx((1 / (1 + np.exp(-np.array([-2.0, 0.5, 3.0])))).tolist(), rel=1e-6)
    lines = details(rule, tr)
    assert "captured x (x) = [-2, 0.5, 3]" in lines
    assert not any(w in line for line in lines for w in ("FunctionCtx", "captured args", "captured cls"))
