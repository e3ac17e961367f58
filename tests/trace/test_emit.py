"""minigrad.trace.emit: an engine of one's own emits the events minigrad's engine does."""

import gc
import math
import weakref

import numpy as np
import pytest

from minigrad.trace import Stepper, emit, record


class Value:
    """A minimal scalar engine in the style of lesson 10, emitting every step."""

    def __init__(self, data, parents=(), op=None, rule=None):
        self.data, self.grad, self.parents, self.rule = float(data), 0.0, tuple(parents), rule
        emit.node(self, parents=self.parents, op=op)

    def __mul__(self, other):
        a, b = self.data, other.data
        return Value(a * b, (self, other), "mul", lambda g: (g * b, g * a))

    def __add__(self, other):
        return Value(self.data + other.data, (self, other), "add", lambda g: (g, g))

    def tanh(self):
        t = math.tanh(self.data)
        return Value(t, (self,), "tanh", lambda g: (g * (1 - t * t),))

    def backward(self, fail_at=None):
        order, seen = [], set()

        def visit(v):
            if id(v) not in seen:
                seen.add(id(v))
                for p in v.parents:
                    visit(p)
                order.append(v)

        visit(self)
        self.grad = 1.0
        with emit.backward_pass(self):
            for v in reversed(order):
                emit.entered(v, v.grad)
                if v is fail_at:
                    raise ValueError("rule failed")
                if v.rule:
                    outs = v.rule(v.grad)
                    emit.rule(v, v.rule, v.grad, outs)
                    for p, c in zip(v.parents, outs):
                        before = p.grad
                        p.grad += c
                        emit.accumulated(v, p, c, before, p.grad)
                emit.finished(v)


def test_a_pass_of_ones_own_engine_records_like_minigrads():
    with record() as trace:
        a = Value(2.0)
        b = Value(-3.0)
        d = a * b
        e = (d + a).tanh()
        e.backward()
    labels = {n.label: n for n in trace.nodes.values()}
    assert {"a", "b", "d", "e"} <= set(labels) and len(labels) == 5  # d + a has no name of its own
    assert labels["d"].op == "mul" and labels["d"].parents == (labels["a"].id, labels["b"].id)
    assert labels["a"].is_leaf and not labels["d"].is_leaf
    assert labels["d"].source.text == "d = a * b"  # the line that uses the engine, not the engine's own
    kinds = [ev.kind for ev in trace.events if ev.pass_id is not None]
    assert kinds[:3] == ["pass_started", "seeded", "node_entered"] and kinds[-1] == "pass_finished"
    (into_a,) = trace.find("node_entered", "a")
    assert float(into_a.grad.values) == pytest.approx(a.grad)
    called = trace.find("closure_called", "d")[0]
    assert "lambda g: (g * b, g * a)" in called.closure.source
    assert {c.name: c.text for c in called.captured} == {"a": "2.0", "b": "-3.0"}
    for ev in trace.find("grad_accumulated"):
        assert float(ev.after.values) == pytest.approx(float(ev.before.values) + float(ev.contribution.values))
    into = [ev for ev in trace.events if ev.kind == "grad_accumulated" and ev.target == labels["a"].id]
    assert len(into) == 2  # a is used twice: both contributions are events
    assert trace.state_at(-1).nodes[labels["a"].id].pass_grad.values == pytest.approx(a.grad)


def test_an_error_in_the_pass_is_an_error_event_and_propagates():
    with record() as trace:
        a = Value(1.0)
        b = a * a
        with pytest.raises(ValueError, match="rule failed"):
            b.backward(fail_at=b)
    assert trace.events[-1].kind == "error" and trace.events[-1].message == "rule failed"


def test_the_stepper_pauses_at_each_event_of_ones_own_engine():
    def script():
        x = Value(0.5)
        (x * x).tanh().backward()

    stepper = Stepper(script)
    stepper.start()
    seen = []
    while stepper.wait(10) == "paused":
        seen.append(stepper.paused_at.kind)
        stepper.step()
    assert stepper.status == "finished", stepper.exception
    assert seen.count("node_entered") == 3 and "closure_called" in seen and seen[-1] == "pass_finished"


def test_values_are_read_at_each_event():
    x = Value(1.0)
    with record() as trace:
        y = x * x
        x.data = 5.0  # an optimizer step between forward and backward
        y.backward()
    (entered,) = trace.find("node_entered", "x")
    assert float(entered.data.values) == 5.0


def test_a_shadow_goes_with_its_node():
    from minigrad.trace import convert

    def make():
        x = Value(1.0)
        return weakref.ref(x), id(x)

    with record():
        ref, key = make()
        assert key in convert.SHADOWS
    gc.collect()
    assert ref() is None and key not in convert.SHADOWS


def test_nothing_recording_costs_no_shadows_and_backward_events_need_a_pass():
    from minigrad.trace import convert

    a = Value(3.0)
    (a * a).backward()  # no listener: nothing recorded, nothing fails
    assert convert.foreign_shadow(a) is None
    with record(), pytest.raises(RuntimeError, match="inside `with emit.backward_pass"):
        emit.entered(a, 1.0)
    with record():
        with pytest.raises(TypeError, match="has no .data"):
            emit.node(object())
        emit.node(object(), data=np.float64(2.0))  # a value given explicitly


def test_a_node_made_before_recording_joins_as_a_leaf():
    a = Value(2.0)
    b = a * a
    with record() as trace:
        b.backward()
    assert [n.is_leaf for n in trace.nodes.values()] == [True, True]
    assert trace.find("closure_called")[0].outputs[0].values == pytest.approx(2.0)  # d(a*a)/da = g * a, twice
