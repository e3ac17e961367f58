"""One pass: every backward pass runs the engine's one loop, in one order (newest node first), watched or not."""

import contextlib

import numpy as np
import pytest

import minigrad as mg
from minigrad import _events, trace
from minigrad.autograd import engine


@contextlib.contextmanager
def no_op_listener():
    listener = lambda kind, values: None  # noqa: E731
    _events.add_listener(listener)
    try:
        yield
    finally:
        _events.remove_listener(listener)


WATCHES = {
    "no one": contextlib.nullcontext,
    "a listener": no_op_listener,
    "a recording": trace.record,
    "anomaly mode": mg.autograd.detect_anomaly,
}


def lesson_one_graph():
    """f = tanh(a * b + c), lesson 1's demo: made in the order a, b, c, d, e, f."""
    a = mg.tensor(2.0, requires_grad=True, name="a")
    b = mg.tensor(-3.0, requires_grad=True, name="b")
    c = mg.tensor(6.5, requires_grad=True, name="c")
    d = a * b
    e = d + c
    f = e.tanh()
    d.name, e.name, f.name = "d", "e", "f"
    return dict(a=a, b=b, c=c, d=d, e=e, f=f)


def hook_order(nodes: dict, watch) -> list:
    seen = []
    for name, t in nodes.items():
        t.register_hook(lambda g, name=name: seen.append(name))
    with watch():
        nodes["f"].backward()
    return seen


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
@pytest.mark.parametrize("watch", WATCHES.values(), ids=WATCHES.keys())
def test_the_pass_visits_nodes_newest_first_whoever_watches(watch):
    """The reverse of the order the forward pass made them: what the debugger shows is what runs."""
    assert hook_order(lesson_one_graph(), watch) == ["f", "e", "d", "c", "b", "a"]


def test_a_recording_enters_the_nodes_in_the_order_the_hooks_run():
    nodes = lesson_one_graph()
    with trace.record() as recorded:
        order = hook_order(nodes, contextlib.nullcontext)
    entered = [recorded.nodes[e.node].name for e in recorded.find("node_entered")]
    assert entered == order == ["f", "e", "d", "c", "b", "a"]


def test_the_order_of_nodes_with_rules_is_torchs():
    """PyTorch runs a ready node with the highest sequence number first: its hooks on non-leaf tensors
    fire in the order minigrad's do (a leaf's AccumulateGrad runs as soon as it is ready there)."""
    torch = pytest.importorskip("torch")

    def run(lib, make):
        x = make([0.5, -1.0, 2.0])
        y1 = x * 2
        y2 = x + 1
        y3 = y1 * y2
        y4 = y2.exp()
        y5 = y3 + y4
        y6 = y1.tanh()
        z = (y5 * y6).sum() + y4.sum()
        seen = []
        for name, t in dict(y1=y1, y2=y2, y3=y3, y4=y4, y5=y5, y6=y6, z=z).items():
            t.register_hook(lambda g, name=name: seen.append(name))
        z.backward()
        return seen, x.grad

    ours, our_grad = run(mg, lambda v: mg.tensor(v, dtype=mg.float64, requires_grad=True))
    theirs, their_grad = run(torch, lambda v: torch.tensor(v, dtype=torch.float64, requires_grad=True))
    assert ours == theirs
    np.testing.assert_allclose(our_grad.numpy(), their_grad.numpy(), rtol=1e-14)


def test_every_kind_of_pass_runs_the_one_loop(monkeypatch):
    runs = []
    one_pass = engine._run_pass

    def counted(roots, seeds, **kw):
        runs.append(kw["inputs"] is not None)
        return one_pass(roots, seeds, **kw)

    monkeypatch.setattr(engine, "_run_pass", counted)
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()  # loss.backward(), no one watching
    (x * x).sum().backward(inputs=[x])
    (gx,) = mg.autograd.grad((x**3).sum(), x, create_graph=True)
    gx.sum().backward()  # through the graph the create_graph pass recorded
    with trace.record():
        (x * x).sum().backward()
    assert runs == [False, True, True, False, False]


def test_gradients_are_added_in_one_place(monkeypatch):
    """A node's sum in a pass, a seed given twice and a leaf's .grad all go through ``_accumulate``."""
    adds = []
    accumulate = engine._accumulate

    def counted(before, c, create_graph, in_place=False):
        adds.append(in_place)
        return accumulate(before, c, create_graph, in_place)

    monkeypatch.setattr(engine, "_accumulate", counted)
    a = mg.tensor(3.0, requires_grad=True)
    (a * a).backward()  # two contributions into a's pass gradient: one sum
    assert adds == [False] and a.grad.item() == 6.0
    (a * a).backward()  # into the .grad the first pass left: in place
    assert adds == [False, False, True] and a.grad.item() == 12.0
    y = a * 2
    mg.autograd.backward([y, y])  # the same root twice: its seeds are summed
    assert adds == [False, False, True, False, True] and a.grad.item() == 16.0


def test_an_in_place_write_gives_the_same_order_and_gradients_watched_or_not():
    """After an in-place write on a view's base, the view is made again for the edges recorded before it
    (newer than the node that uses it); the one order still finishes every node before its parents."""

    def run(watch):
        x = mg.tensor([1.0, 2.0, 3.0], dtype=mg.float64, requires_grad=True)
        y = x * 2
        v = y[:2]
        z = v.exp()
        y.mul_(3)
        loss = z.sum() + y.sum()
        seen = []
        for name, t in dict(x=x, z=z, loss=loss).items():
            t.register_hook(lambda g, name=name: seen.append(name))
        with watch():
            loss.backward()
        return seen, x.grad.numpy()

    (plain, plain_grad), (watched, watched_grad) = run(contextlib.nullcontext), run(trace.record)
    assert plain == watched == ["loss", "z", "x"]
    np.testing.assert_array_equal(plain_grad, watched_grad)
    np.testing.assert_allclose(plain_grad, [2 * np.exp(2.0) + 6, 2 * np.exp(4.0) + 6, 6], rtol=1e-14)
