"""Checks for lesson 2: order properties on random graphs, deep chains, and minigrad as oracle."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.course import check


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


@check("ex1_topo_sort", "every node once, parents first, root last, on random graphs with reuse")
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


@check("ex1_topo_sort", "works on a chain 20 000 ops deep (no recursion)")
def _(ex):
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y * 1.0
    order = ex.topo_sort(y)
    assert len(order) == 20_001 and order[0] is x and order[-1] is y


@check("ex2_run_backward", "a reused node: b = a + a; c = b * b gives dc/da = 8a")
def _(ex):
    a = mg.tensor([1.5, -2.0], dtype=mg.float64, requires_grad=True)
    c = ((a + a) * (a + a)).sum()
    grads = ex.run_backward(c)
    np.testing.assert_allclose(grads[id(a)].numpy(), 8 * a.detach().numpy())


@check("ex2_run_backward", "matches minigrad's backward on random graphs")
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
