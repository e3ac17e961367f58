"""minigrad._events: the raw bus sends ``(kind, values)`` to its listeners, in registration order."""

import pytest

import minigrad as mg
from minigrad import _events


def _watched(*listeners):
    for fn in listeners:
        _events.add_listener(fn)
    try:
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward()
        mg.autograd.grad((x * x).sum(), x)
    finally:
        for fn in listeners:
            _events.remove_listener(fn)
    return x


def test_each_event_has_its_kinds_fields_in_order():
    seen = []
    x = _watched(lambda kind, values: seen.append((kind, values)))
    kinds = {kind for kind, _ in seen}
    assert {"node_created", "pass_started", "node_entered", "closure_called", "grad_accumulated"} <= kinds
    assert {"grads_saved", "grads_restored", "pass_finished"} <= kinds
    for kind, values in seen:
        assert type(values) is tuple and len(values) == len(_events.FIELDS[kind]), kind
        assert _events.fields(kind, values)["depth"] == values[1]
    created = _events.fields(*seen[0])
    assert seen[0][0] == "node_created" and created == {"node": x, "depth": 0}
    into_x = [_events.fields(k, v) for k, v in seen if k == "grad_accumulated" and v[3] is x]
    assert {f["into"] for f in into_x} == {"pass", "grad"}  # the pass's buffer, then x.grad
    assert _events.fields("some_future_kind", (1, 2)) == {}


def test_listeners_hear_every_event_in_registration_order_and_nothing_once_removed():
    heard = []
    first = lambda kind, values: heard.append(("first", kind))  # noqa: E731
    second = lambda kind, values: heard.append(("second", kind))  # noqa: E731
    _watched(first, second)
    assert len(heard) > 20 and heard[0::2] == [("first", k) for _, k in heard[1::2]]
    assert [who for who, _ in heard[1::2]] == ["second"] * (len(heard) // 2)
    assert _events.listeners == []
    n = len(heard)
    _watched()
    assert len(heard) == n


def test_a_listener_removed_during_an_event_still_lets_that_event_reach_the_others():
    heard = []

    def leaves(kind, values):
        heard.append(("leaves", kind))
        _events.remove_listener(leaves)

    stays = lambda kind, values: heard.append(("stays", kind))  # noqa: E731
    _events.add_listener(leaves)
    _events.add_listener(stays)
    try:
        mg.tensor([1.0])
        mg.tensor([2.0])
    finally:
        _events.remove_listener(stays)
    assert heard == [("leaves", "node_created"), ("stays", "node_created"), ("stays", "node_created")]


def test_replace_listeners_gives_back_the_ones_it_replaced():
    heard, held = [], []
    mine = lambda kind, values: heard.append(kind)  # noqa: E731
    _events.add_listener(mine)
    try:
        before = _events.replace_listeners([lambda kind, values: held.append(kind)])
        mg.tensor([1.0])
        assert _events.replace_listeners(before) != [] and _events.listeners == [mine]
        mg.tensor([2.0])
    finally:
        _events.remove_listener(mine)
    assert held == ["node_created"] and heard == ["node_created"]
    assert _events.listeners == []


def test_a_listener_appended_past_add_listener_is_refused_not_silently_deaf():
    with pytest.raises(TypeError, match=r"listeners.append\(\): change the listeners through add_listener"):
        _events.listeners.append(lambda kind, values: None)
    with pytest.raises(TypeError, match="through add_listener"):
        _events.listeners[:] = [print]
    assert _events.listeners == []
