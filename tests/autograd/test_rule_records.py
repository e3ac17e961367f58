"""A declared op's rule kept as a record (``minigrad._rule_records``): fewer objects for Python's cyclic
garbage collector per node, the same rule for whatever calls or reads it."""

import gc
import inspect

import numpy as np
import pytest

import minigrad as mg
from minigrad import _rule_records


def _tracked_alive(make_graph) -> int:
    """How many objects the collector tracks while the graph ``make_graph()`` returns is alive."""
    gc.collect()
    graph = make_graph()
    gc.collect()  # a tuple of numbers is untracked by the collection that first looks at it
    count = len(gc.get_objects())
    del graph
    return count


def _tracked_per_node(make_chain) -> float:
    """Tracked objects per node of ``make_chain(n)``'s graph (the difference between two lengths)."""
    return (_tracked_alive(lambda: make_chain(1001)) - _tracked_alive(lambda: make_chain(1))) / 1000


def _chain_of_muls(n: int):
    x = mg.tensor(1.0, dtype=mg.float64, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0001
    return x, y


def _chain_of_muls_and_adds(n: int):
    x = mg.tensor(1.0, dtype=mg.float64, requires_grad=True)
    y = x
    for i in range(n):
        y = y * 1.0001 if i % 2 == 0 else y + 0.0001
    return x, y


def test_a_scalar_mul_node_is_two_tracked_objects():
    # the tensor and its parents tuple: the rule's record holds only a float, where a closure would add
    # its function, closure tuple and cell
    assert _tracked_per_node(_chain_of_muls) == 2
    assert _tracked_per_node(_chain_of_muls_and_adds) == 2


def test_the_rule_read_from_a_kept_node_is_its_ops_closure():
    x = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
    y = x * 3.0
    assert type(y._rule) is tuple
    rule = y._backward
    assert inspect.isfunction(rule)
    assert rule.__qualname__ == "mul.<locals>.backward_scalar"
    assert [c.cell_contents for c in rule.__closure__] == [3.0]
    assert "return (g * b,)" in inspect.getsource(rule)
    assert y._backward is rule  # read once, the node keeps the function


def test_a_kept_rule_gives_the_same_gradients():
    x, y = _chain_of_muls(50)
    y.backward()
    assert x.grad.item() == pytest.approx(1.0001**50)
    x2 = mg.tensor(np.linspace(-1, 1, 6), requires_grad=True)
    z = ((x2 * 2.5).sin() * 0.5).exp().sum()
    z.backward()
    u = np.linspace(-1, 1, 6)
    expected = np.exp(0.5 * np.sin(2.5 * u)) * 0.5 * np.cos(2.5 * u) * 2.5
    np.testing.assert_allclose(x2.grad.array, expected)


def test_a_graph_of_kept_rules_that_saved_no_tensor_runs_again():
    x, y = _chain_of_muls(3)
    y.backward()
    y.backward()  # as in PyTorch: a graph that saved nothing is not freed
    assert x.grad.item() == pytest.approx(2 * 1.0001**3)


def test_a_kept_rule_that_saved_a_tensor_is_freed_and_checks_versions():
    x = mg.tensor([0.5, 1.0], dtype=mg.float64, requires_grad=True)
    a = x * 1.0
    y = a.sin()  # sin's rule saves its input
    assert type(y._rule) is tuple
    a.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
    z = (x * 1.0).sin().sum()
    z.backward()
    assert z.is_freed or any(n.is_freed for n in (z, *z.parents))
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        z.backward()


def test_a_rule_reading_its_output_assigned_after_make_stays_a_closure():
    x = mg.tensor([0.5, 1.0], dtype=mg.float64, requires_grad=True)
    y = x.tanh()  # tanh's rule reads out_ref, assigned once the node exists
    assert inspect.isfunction(y._rule)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.array, 1 - np.tanh([0.5, 1.0]) ** 2)


def test_rules_whose_cells_may_change_are_not_kept():
    def maker_later_assignment(a):
        def backward(g):
            return (g * a,)

        a = a + 1
        return backward

    def maker_in_loop(xs):
        rules = []
        for a in xs:

            def backward(g):
                return (g * a,)  # noqa: B023  (the late binding is what is looked for)

            rules.append(backward)
        return rules

    def maker_nonlocal(a):
        def backward(g):
            return (g * a,)

        def bump():
            nonlocal a
            a += 1

        return backward, bump

    def maker_fixed(a):
        def backward(g):
            return (g * a,)

        return backward

    for maker in (maker_later_assignment, maker_in_loop, maker_nonlocal, maker_fixed):
        _rule_records.declare_rules(maker)
    assert _rule_records.first_sight(maker_later_assignment(1.0).__code__) == 0
    assert _rule_records.first_sight(maker_in_loop([1.0])[0].__code__) == 0
    assert _rule_records.first_sight(maker_nonlocal(1.0)[0].__code__) == 0
    assert _rule_records.first_sight(maker_fixed(1.0).__code__) > 0


def test_a_kept_rule_shows_its_captured_values_while_recorded():
    from minigrad import trace

    x = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
    with trace.record() as rec:
        y = x * 3.0
        y.backward()
    called = [e for e in rec.events if type(e).__name__ == "ClosureCalled"]
    assert called and called[0].closure.name == "mul.<locals>.backward_scalar"
    assert "return (g * b,)" in called[0].closure.source
    assert [c.name for c in called[0].captured] == ["b"]


def test_a_record_whose_codes_function_is_in_a_call_runs_with_fresh_cells():
    x = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
    y = x * 3.0
    free = _rule_records._free[y._rule[0]]
    held = free.pop()  # as while another thread's pass runs a rule of the same code
    try:
        y.backward()
    finally:
        free.append(held)
    assert x.grad.item() == 3.0
    assert [c.cell_contents for c in held[1]] == [None]
