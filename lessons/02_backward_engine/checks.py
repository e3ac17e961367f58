"""Checks for lesson 2: order properties on random graphs, deep chains, minigrad as oracle, and
predictions against the demo's recorded trace."""

import functools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.course import check
from minigrad.course.recording import as_array, contributions_into, incoming_grads, record_demo


def random_graph(ops: list, seed: int):
    """A graph of 2 leaves and len(ops) op nodes, each op using two earlier nodes (reuse is common)."""
    rng = np.random.default_rng(seed)
    nodes = [mg.tensor(rng.uniform(0.5, 1.5, 3), dtype=mg.float64, requires_grad=True) for _ in range(2)]
    nodes.append(mg.tensor(rng.uniform(0.5, 1.5, 3), dtype=mg.float64))  # a constant: requires no grad
    for op in ops:
        x, y = (nodes[i] for i in rng.integers(0, len(nodes), 2))
        nodes.append(x + y if op == "add" else x * y if op == "mul" else (x - y).tanh())
    return nodes[:2], (nodes[-1] * nodes[-2]).sum() + nodes[0].sum()


graphs = st.tuples(st.lists(st.sampled_from(["add", "mul", "tanh"]), min_size=1, max_size=12), st.integers(0, 2**16))


@check("ex2_topo_sort", "every node once, parents first, root last, on random graphs with reuse")
def _(ex):
    @settings(max_examples=40, deadline=None)
    @given(graphs)
    def prop(case):
        _, root = random_graph(*case)
        order = ex.topo_sort(root)
        ids = [id(n) for n in order]
        assert len(ids) == len(set(ids)), "a node appears twice"
        assert ids[-1] == id(root), "root must come last"
        position = {i: k for k, i in enumerate(ids)}
        expected = {id(n) for n in mg.autograd.engine.topological_order([root])}
        assert set(ids) == expected, "wrong set of nodes (did you skip parents that do not require grad?)"
        for n in order:
            for p in n.parents:
                if p.requires_grad:
                    assert position[id(p)] < position[id(n)], "a parent comes after its child"

    prop()


@check("ex2_topo_sort", "works on a chain 20 000 ops deep (no recursion)")
def _(ex):
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y * 1.0
    order = ex.topo_sort(y)
    assert len(order) == 20_001 and order[0] is x and order[-1] is y


@check("ex3_run_backward", "a reused node: b = a + a; c = b * b gives dc/da = 8a")
def _(ex):
    a = mg.tensor([1.5, -2.0], dtype=mg.float64, requires_grad=True)
    c = ((a + a) * (a + a)).sum()
    grads = ex.run_backward(c)
    np.testing.assert_allclose(grads[id(a)].numpy(), 8 * a.detach().numpy())


@check("ex3_run_backward", "matches minigrad's backward on random graphs")
def _(ex):
    @settings(max_examples=40, deadline=None)
    @given(graphs)
    def prop(case):
        leaves, root = random_graph(*case)
        mine = ex.run_backward(root)
        expected = mg.autograd.grad(root, leaves, allow_unused=True, retain_graph=True)
        for leaf, want in zip(leaves, expected):
            got = mine.get(id(leaf))
            if want is None:
                assert got is None, "a leaf the output does not use must get no gradient"
            else:
                assert got is not None, "a leaf got no gradient"
                np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-10)

    prop()


@check("ex1_count_uses", "b = a + a; c = b * b: two edges into a, two into b, none into c")
def _(ex):
    a = mg.tensor(3.0, requires_grad=True)
    b = a + a
    c = b * b
    got = ex.count_uses(c)
    want = {id(a): 2, id(b): 2, id(c): 0}
    names = {id(a): "a", id(b): "b", id(c): "c"}
    assert set(got) == set(want), f"the nodes counted: expected a, b, c, got {len(got)} entries"
    for key, n in want.items():
        assert got[key] == n, f"edges into {names[key]}: expected {n}, got {got[key]}"


@check("ex1_count_uses", "every node's count is its number of incoming edges, on random graphs with reuse")
def _(ex):
    @settings(max_examples=25, deadline=None)
    @given(graphs)
    def prop(case):
        _, root = random_graph(*case)
        nodes = _graph(root)
        got = ex.count_uses(root)
        assert set(got) == {id(n) for n in nodes}, f"the graph has {len(nodes)} nodes; you counted {len(got)}"
        for node in nodes:
            want = sum(p is node for n in nodes for p in n.parents)
            assert got[id(node)] == want, f"a node with {want} incoming edges: you counted {got[id(node)]}"

    prop()


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
    return record_demo(2)


@check("ex4_predict_trace", "predict_accumulations_into_b() is before/contribution/after of both events into b")
def _(ex):
    def value(snap):
        return None if snap is None else float(as_array(snap))

    events = contributions_into(demo_trace(), "b")
    want = [[value(e.before), value(e.contribution), value(e.after)] for e in events]
    got = [list(x) for x in ex.predict_accumulations_into_b()]
    assert got == want, f"the accumulations into b: expected {want}, got {got}"


@check("ex4_predict_trace", "predict_grad_entering_a() is the gradient the pass brings into a")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "a")
    got = ex.predict_grad_entering_a()
    assert got == float(want), f"the gradient entering a: expected {float(want)}, got {got}"


@check("ex4_predict_trace", "predict_order_finished() is the order of the demo's node_finished events")
def _(ex):
    trace = demo_trace()
    want = [trace.nodes[e.node].label for e in trace.find("node_finished")]
    got = list(ex.predict_order_finished())
    assert got == want, f"the order the pass finishes nodes: expected {want}, got {got}"


@check("ex5_find_the_bug", "buggy_grad_of_a() is what the buggy engine gives on the demo")
def _(ex):
    a = mg.tensor(3.0, requires_grad=True)
    b = a + a
    c = b * b
    want = float(ex.buggy_run_backward(c)[id(a)].item())
    got = ex.buggy_grad_of_a()
    assert got == want, f"the buggy engine's gradient of a: expected {want}, got {got}"


@check("ex5_find_the_bug", "with accumulate() in place of the planted line the engine matches minigrad")
def _(ex):
    def fixed_run_backward(root):
        grads = {id(root): mg.ones_like(root)}
        with mg.no_grad():
            for node in reversed(mg.autograd.engine.topological_order([root])):
                g = grads.get(id(node))
                if g is None or node._backward is None:
                    continue
                for parent, contribution in zip(node.parents, node._backward(g)):
                    if contribution is not None and parent.requires_grad:
                        ex.accumulate(grads, parent, contribution() if callable(contribution) else contribution)
        return grads

    a = mg.tensor(3.0, dtype=mg.float64, requires_grad=True)
    b = a + a
    got = fixed_run_backward(b * b)[id(a)].item()
    assert got == 24.0, f"dc/da for a = 3, b = a + a, c = b * b: expected 24.0, got {got}"
    leaves, root = random_graph(["mul", "add", "tanh", "mul"], 7)
    mine = fixed_run_backward(root)
    for leaf, want in zip(leaves, mg.autograd.grad(root, leaves, retain_graph=True)):
        np.testing.assert_allclose(mine[id(leaf)].numpy(), want.numpy(), rtol=1e-10, err_msg="a leaf's gradient")
