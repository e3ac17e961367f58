"""Checks for lesson 2: order properties on random graphs, deep chains, minigrad as oracle, and
predictions against the demo's recorded trace."""

import functools

import numpy as np

import minigrad as mg
from minigrad.autograd.engine import topological_order
from minigrad.course import check
from minigrad.course.cases import rng
from minigrad.course.checking import load_reference
from minigrad.course.expect import expect, expect_close, expect_equal, expect_prediction
from minigrad.course.handwritten import accumulation, report_result, traced_engine
from minigrad.course.recording import as_array, contributions_into, incoming_grads, record_demo
from minigrad.course.tracediff import explained_by_trace


def random_graph(ops: list, seed: int):
    """A graph of 2 leaves and len(ops) op nodes, each op using two earlier nodes (reuse is common)."""
    rng = np.random.default_rng(seed)
    nodes = [mg.tensor(rng.uniform(0.5, 1.5, 3), dtype=mg.float64, requires_grad=True) for _ in range(2)]
    nodes.append(mg.tensor(rng.uniform(0.5, 1.5, 3), dtype=mg.float64))  # a constant: requires no grad
    for op in ops:
        x, y = (nodes[i] for i in rng.integers(0, len(nodes), 2))
        nodes.append(x + y if op == "add" else x * y if op == "mul" else (x - y).tanh())
    return nodes[:2], (nodes[-1] * nodes[-2]).sum() + nodes[0].sum()


def graphs(n: int, seed: int) -> list:
    """``n`` (ops, seed) cases for random_graph: one to twelve ops each."""
    draw = rng(seed)
    return [
        (
            [str(op) for op in draw.choice(["add", "mul", "tanh"], int(draw.integers(1, 13)))],
            int(draw.integers(0, 2**16)),
        )
        for _ in range(n)
    ]


@check("ex2_topo_sort", "every node once, parents first, root last, on random graphs with reuse")
def _(ex):
    for ops, seed in graphs(40, seed=21):
        _, root = random_graph(ops, seed)
        order = ex.topo_sort(root)
        where = f"topo_sort on a random graph of ops {ops}"
        ids = [id(n) for n in order]
        expect_equal(len(set(ids)), len(ids), f"{where}: distinct nodes in your order (a node appears twice)")
        expect(ids[-1] == id(root), f"{where}: the last node", "root", order[-1].op or "a leaf")
        position = {i: k for k, i in enumerate(ids)}
        expected = {id(n) for n in mg.autograd.engine.topological_order([root])}
        expect(
            set(ids) == expected,
            f"{where}: the nodes in your order",
            f"the {len(expected)} nodes that require grad",
            f"{len(set(ids))} nodes (did you keep nodes that need no grad, or skip some?)",
        )
        for n in order:
            for p in n.parents:
                if p.requires_grad:
                    expect(
                        position[id(p)] < position[id(n)],
                        f"{where}: the position of a {p.op or 'leaf'} node, parent of the {n.op} node at {position[id(n)]}",
                        "before its child",
                        position[id(p)],
                    )


@check("ex2_topo_sort", "works on a chain 20 000 ops deep (no recursion)")
def _(ex):
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y * 1.0
    order = ex.topo_sort(y)
    expect_equal(len(order), 20_001, "the number of nodes in a chain of 20 000 ops")
    expect(order[0] is x and order[-1] is y, "the chain's order", "x first and the last op last", "another order")


LEAF_NAMES = ("first_leaf", "second_leaf")  # how a random graph's leaves are named in a recorded run


def engine_run(engine, root, leaves, names=None):
    """A run of ``engine`` (a function root -> {id(node): gradient}) on root's graph, its rule calls
    and its result for ``leaves`` recorded (for the first difference from the reference's engine)."""

    def run():
        with traced_engine(root, names) as watch:
            report_result(watch, leaves, engine(root))

    return run


def engine_runs(ex, root, leaves, names=None):
    """The learner's run_backward and the reference's on the same graph (see explained_by_trace)."""
    reference = load_reference("ex3_run_backward").run_backward
    return engine_run(ex.run_backward, root, leaves, names), engine_run(reference, root, leaves, names)


@check("ex3_run_backward", "a reused node: b = a + a; c = b * b gives dc/da = 8a")
def _(ex):
    a = mg.tensor([1.5, -2.0], dtype=mg.float64, requires_grad=True)
    b = a + a
    c = (b * b).sum()
    with explained_by_trace(*engine_runs(ex, c, [a], {"a": a, "b": b, "c": c})):
        grads = ex.run_backward(c)
        expect(id(a) in grads, "run_backward's dict", "an entry for a", sorted(grads))
        expect_close(grads[id(a)], 8 * a.detach().numpy(), "dc/da for a = [1.5, -2], b = a + a, c = sum(b * b)")


@check("ex3_run_backward", "matches minigrad's backward on random graphs")
def _(ex):
    for ops, seed in graphs(40, seed=23):
        leaves, root = random_graph(ops, seed)
        with explained_by_trace(*engine_runs(ex, root, leaves, dict(zip(LEAF_NAMES, leaves)))):
            mine = ex.run_backward(root)
            expected = mg.autograd.grad(root, leaves, allow_unused=True, retain_graph=True)
            for name, leaf, want in zip(("first", "second"), leaves, expected):
                got = mine.get(id(leaf))
                what = f"the {name} leaf's gradient, on a random graph of ops {ops}"
                if want is None:
                    expect(got is None, what, "none (the output does not use this leaf)", got)
                else:
                    expect(got is not None, what, "a gradient", "no entry")
                    expect_close(got, want, what, rtol=1e-10, atol=1e-12)


@check("ex1_count_uses", "b = a + a; c = b * b: two edges into a, two into b, none into c")
def _(ex):
    a = mg.tensor(3.0, requires_grad=True)
    b = a + a
    c = b * b
    got = ex.count_uses(c)
    want = {id(a): 2, id(b): 2, id(c): 0}
    names = {id(a): "a", id(b): "b", id(c): "c"}
    expect(set(got) == set(want), "the nodes counted", "a, b and c", f"{len(got)} entries")
    for key, n in want.items():
        expect_equal(got[key], n, f"edges into {names[key]}")


@check("ex1_count_uses", "every node's count is its number of incoming edges, on random graphs with reuse")
def _(ex):
    for ops, seed in graphs(25, seed=22):
        _, root = random_graph(ops, seed)
        nodes = _graph(root)
        got = ex.count_uses(root)
        where = f"on a random graph of ops {ops}"
        expect(set(got) == {id(n) for n in nodes}, f"the nodes counted {where}", f"{len(nodes)} nodes", len(got))
        for node in nodes:
            want = sum(p is node for n in nodes for p in n.parents)
            expect_equal(got[id(node)], want, f"the edges into a {node.op or 'leaf'} node {where}")


def _graph(root) -> list:
    seen, stack, out = {id(root)}, [root], []
    while stack:
        node = stack.pop()
        out.append(node)
        for p in node.parents:
            if id(p) not in seen:
                seen.add(id(p))
                stack.append(p)
    return out


@functools.cache
def demo_trace():
    return record_demo()


@check("ex4_predict_trace", "predict_accumulations_into_b() is before/contribution/after of both events into b")
def _(ex):
    def value(snap):
        return None if snap is None else float(as_array(snap))

    events = contributions_into(demo_trace(), "b")
    want = [[value(e.before), value(e.contribution), value(e.after)] for e in events]
    got = [list(x) for x in ex.predict_accumulations_into_b()]
    expect_prediction(got, want, "the accumulations into b (before, contribution, after)")


@check("ex4_predict_trace", "predict_grad_entering_a() is the gradient the pass brings into a")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "a")
    expect_prediction(ex.predict_grad_entering_a(), float(want), "the gradient entering a")


@check("ex4_predict_trace", "predict_order_finished() is the order of the demo's node_finished events")
def _(ex):
    trace = demo_trace()
    want = [trace.nodes[e.node].label for e in trace.find("node_finished")]
    expect_prediction(list(ex.predict_order_finished()), want, "the order the pass finishes nodes")


@check("ex5_find_the_bug", "buggy_grad_of_a() is what the buggy engine gives on the demo")
def _(ex):
    a = mg.tensor(3.0, requires_grad=True)
    b = a + a
    c = b * b
    want = float(ex.buggy_run_backward(c)[id(a)].item())
    expect_prediction(ex.buggy_grad_of_a(), want, "the buggy engine's gradient of a")


def fixed_run_backward(accumulate, root, watch=None):
    """Exercise 2.3's engine with ``accumulate`` in place of the planted line (each accumulation
    recorded when ``watch`` is given)."""
    grads = {id(root): mg.ones_like(root)}
    with mg.no_grad():
        for node in reversed(topological_order([root])):
            g = grads.get(id(node))
            if g is None or node._backward is None:
                continue
            for parent, contribution in zip(node.parents, node._backward(g)):
                if contribution is not None and parent.requires_grad:
                    c = contribution() if callable(contribution) else contribution
                    before = grads.get(id(parent))
                    before = None if before is None else before.numpy().copy()  # an in-place += changes it
                    accumulate(grads, parent, c)
                    if watch is not None:
                        accumulation(watch, node, parent, c, before, grads.get(id(parent)))
    return grads


def accumulate_runs(ex, root, leaves, names=None):
    """The engine with the learner's accumulate and with the reference's, recorded on root's graph."""

    def run(accumulate):
        def go():
            with traced_engine(root, names) as watch:
                report_result(watch, leaves, fixed_run_backward(accumulate, root, watch))

        return go

    return run(ex.accumulate), run(load_reference("ex5_find_the_bug").accumulate)


@check("ex5_find_the_bug", "with accumulate() in place of the planted line the engine matches minigrad")
def _(ex):
    a = mg.tensor(3.0, dtype=mg.float64, requires_grad=True)
    b = a + a
    c = b * b
    with explained_by_trace(*accumulate_runs(ex, c, [a], {"a": a, "b": b, "c": c})):
        got = fixed_run_backward(ex.accumulate, c)[id(a)]
        expect_close(got, 24.0, "dc/da for a = 3, b = a + a, c = b * b, with your accumulate")
    leaves, root = random_graph(["mul", "add", "tanh", "mul"], 7)
    with explained_by_trace(*accumulate_runs(ex, root, leaves, dict(zip(LEAF_NAMES, leaves)))):
        mine = fixed_run_backward(ex.accumulate, root)
        for name, leaf, want in zip(("first", "second"), leaves, mg.autograd.grad(root, leaves, retain_graph=True)):
            expect_close(mine[id(leaf)], want, f"the {name} leaf's gradient on a graph with reuse", rtol=1e-10)
