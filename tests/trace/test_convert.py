"""Snapshots shared between the events of a pass, never across the user's writes."""

import numpy as np

import minigrad as mg
from minigrad.trace import record


def _one_step(w, x):
    loss = (x @ w).relu().sum()
    loss.backward()
    return loss


def test_a_gradient_is_snapshotted_once_per_pass():
    w = mg.tensor(np.ones((3, 2)), requires_grad=True)
    x = mg.tensor(np.arange(6.0).reshape(2, 3))
    with record(max_values=4) as tr:
        _one_step(w, x)
    entered = {e.node: e for e in tr.find("node_entered")}
    for called in tr.find("closure_called"):
        assert called.grad is entered[called.node].grad
    for acc in tr.find("grad_accumulated"):
        if acc.into == "pass":  # (into .grad the engine stores a copy: a new array)
            assert acc.before is not None or acc.after is acc.contribution
            assert entered[acc.target].grad is acc.after


def test_another_tensor_on_the_same_array_shares_the_values():
    x = mg.tensor(np.arange(5.0), requires_grad=True)
    with record() as tr:
        y = x.detach()
        (x * y).sum().backward()
    snaps = {c.tensor_id: c.value for e in tr.find("closure_called") for c in e.captured if c.kind == "tensor"}
    assert snaps[x.id].values is snaps[y.id].values


def test_a_parameter_is_snapshotted_once_per_version_and_pass():
    w = mg.tensor(np.ones((3, 2)), requires_grad=True)
    x = mg.tensor(np.arange(6.0).reshape(2, 3))
    with record(max_values=4) as tr:
        for _ in range(2):
            _one_step(w, x)
            w.array -= 0.5 * w.grad.array  # a raw write between passes: no version counter sees it
            w.grad = None
    matmul = next(e for e in tr.find("closure_called") if e.closure and "matmul" in e.closure.name)
    first, second = [e for e in tr.find("node_entered") if e.node == w.id]
    captured = next(c.value for c in matmul.captured if c.tensor_id == w.id)
    assert captured is first.data  # the same snapshot within the pass
    assert first.data is not second.data  # a new one in the next pass
    assert first.data.stats.mean == 1.0 and second.data.stats.mean < 1.0


def test_inplace_op_is_a_node_with_its_version():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with record() as tr:
        h = x * 2
        h += 1
        h.sum().backward()
    infos = {e.info.op: e.info for e in tr.find("node_created")}
    assert infos["mul"].version == 0 and infos["add_"].version == 1
    assert infos["add_"].parents == (infos["mul"].id,)
    assert infos["mul"].data.values.tolist() == [2.0, 4.0]
    assert infos["add_"].data.values.tolist() == [3.0, 5.0]


def test_each_custom_function_shows_its_own_backward():
    from minigrad.autograd import Function

    class Double(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Triple(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with record() as trace:
        Double.apply(x).sum().backward()
        Triple.apply(x).sum().backward()
    names = [e.closure.name for e in trace.find("closure_called") if e.closure.name.endswith(".backward")]
    assert [n.split(".")[-2] for n in names if "Double" in n or "Triple" in n] == ["Double", "Triple"], names


def test_a_kept_snapshot_holds_until_its_own_array_is_written():
    """Within a pass a value is shown once while its version holds: a write elsewhere (the clock of writes
    moves) leaves it kept, a write of its own array does not."""
    from minigrad import _versions
    from minigrad.trace.convert import _keep, _kept
    from minigrad.trace.snapshot import snapshot_record

    shown, elsewhere = np.arange(3.0), np.zeros(3)
    table: dict = {}
    snap = snapshot_record(shown)
    _keep(table, shown, snap)
    assert _kept(table, shown) is snap
    _versions.bump(elsewhere, mg.tensor(0.0).id)  # a stamp is a fresh tensor id
    assert _kept(table, shown) is snap
    assert _kept(table, shown.copy()) is None  # another array object
    _versions.bump(shown, mg.tensor(0.0).id)
    assert _kept(table, shown) is None


def test_a_kept_view_does_not_keep_the_array_it_views_alive():
    import weakref

    from minigrad.trace.convert import _keep, _kept
    from minigrad.trace.snapshot import snapshot_record

    big = np.zeros(100_000)
    view = big[:3]
    table: dict = {}
    snap = snapshot_record(view)
    _keep(table, view, snap)
    assert _kept(table, view) is snap
    gone = weakref.ref(big)
    del big, view
    assert gone() is None
