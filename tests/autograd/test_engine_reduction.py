"""The engine's validate step: broadcast contributions are summed to the parent's shape
(a ``grad_reduced`` event), other shapes and devices are PyTorch's errors, dtypes are cast."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import trace
from minigrad.tensor import make
from minigrad.trace import GradReduced, Trace
from minigrad.trace.describe import details, format_event, headline, reduction_text


def passing_through(a, b):
    """``a + b`` whose rule returns the incoming gradient unreduced for both parents."""
    return make(a.array + b.array, (a, b), lambda g: (g, g), "add")


def test_broadcast_contributions_are_summed_to_each_parent():
    a = mg.tensor(np.arange(12.0).reshape(4, 3), requires_grad=True)
    b = mg.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    c = mg.tensor(5.0, requires_grad=True)
    (passing_through(passing_through(a, b), c) * mg.tensor(np.arange(12.0).reshape(4, 3))).sum().backward()
    weights = np.arange(12.0).reshape(4, 3)
    np.testing.assert_allclose(a.grad.numpy(), weights)
    np.testing.assert_allclose(b.grad.numpy(), weights.sum(0, keepdims=True))
    assert c.grad.shape == () and c.grad.item() == weights.sum()


@pytest.mark.parametrize(
    ("parent_shape", "from_shape", "dims"),
    [
        ((1, 3), (4, 3), (0,)),
        ((3,), (4, 3), (0,)),
        ((4, 1), (2, 4, 3), (0, 2)),
        ((), (2, 3), (0, 1)),
        ((1, 1), (1, 5), (1,)),
    ],
)
def test_grad_reduced_event_names_shapes_and_dims(parent_shape, from_shape, dims):
    p = mg.ones(*parent_shape, dtype=mg.float64, requires_grad=True)
    big = mg.ones(*from_shape, dtype=mg.float64)
    with trace.record() as tr:
        passing_through(p, big).sum().backward()
    (ev,) = [e for e in tr.find("grad_reduced") if tr.nodes[e.target].id == p.id]
    assert (ev.from_shape, ev.to_shape, ev.dims) == (from_shape, parent_shape, dims)
    assert ev.contribution.shape == from_shape and ev.reduced.shape == parent_shape
    np.testing.assert_allclose(
        ev.reduced.values, np.ones(from_shape).sum(axis=dims, keepdims=True).reshape(parent_shape)
    )
    kinds = [e.kind for e in tr.events if e.pass_id is not None and getattr(e, "target", None) == p.id]
    assert kinds[:2] == ["grad_reduced", "grad_accumulated"]


def test_no_event_when_shapes_match():
    a = mg.ones(2, 3, requires_grad=True)
    with trace.record() as tr:
        passing_through(a, mg.ones(2, 3)).sum().backward()
    assert list(tr.find("grad_reduced")) == []


def test_reduction_sentence_and_json_round_trip(tmp_path):
    a = mg.tensor([[1.0, 1.0, 1.0]], requires_grad=True, name="a")
    with trace.record() as tr:
        passing_through(a, mg.ones(4, 3)).sum().backward()
    (ev,) = tr.find("grad_reduced")
    assert reduction_text(ev) == "reduced (4, 3) -> (1, 3), summed over dim 0"
    assert "grad_reduced" in format_event(ev, tr) and "-> a: reduced (4, 3) -> (1, 3)" in format_event(ev, tr)
    assert headline(ev, tr).endswith("-> a: reduced (4, 3) -> (1, 3), summed over dim 0")
    assert details(ev, tr)[1].startswith("reduced = [[4, 4, 4]]")
    tr.save(tmp_path / "t.jsonl")
    (loaded,) = Trace.load(tmp_path / "t.jsonl").find("grad_reduced")
    assert isinstance(loaded, GradReduced)
    assert (loaded.from_shape, loaded.to_shape, loaded.dims) == ((4, 3), (1, 3), (0,))


def test_reduction_under_create_graph_is_differentiable():
    a = mg.tensor([[2.0, 3.0]], dtype=mg.float64, requires_grad=True)
    x = mg.tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], dtype=mg.float64, requires_grad=True)
    y = passing_through(a, x * x)
    (ga,) = mg.autograd.grad((y * y).sum(), a, create_graph=True)  # 2 * sum_i (a + x_i^2)
    np.testing.assert_allclose(ga.detach().numpy(), [[2 * (3 * 2 + 14), 2 * (3 * 3 + 14)]])
    (gx,) = mg.autograd.grad(ga.sum(), x)  # d/dx 2 * sum(a + x^2) = 4x
    np.testing.assert_allclose(gx.numpy(), 4 * x.detach().numpy())


def test_rule_that_returns_an_incompatible_shape_gets_pytorchs_error():
    a = mg.ones(2, 3, requires_grad=True)
    bad = make(a.array * 1, (a,), lambda g: (g.sum(0),), "mul")
    with pytest.raises(RuntimeError) as info:
        bad.sum().backward()
    assert str(info.value) == (
        "Function MulBackward returned an invalid gradient at index 0 - got [3] but expected shape compatible with [2, 3]"
    )


def test_rule_that_returns_the_wrong_count_gets_pytorchs_error():
    a = mg.ones(2, requires_grad=True)
    bad = make(a.array * 1, (a,), lambda g: (g, g), "mul")
    with pytest.raises(
        RuntimeError, match=r"^Function MulBackward returned an incorrect number of gradients \(expected 1, got 2\)$"
    ):
        bad.sum().backward()


def test_contribution_of_another_dtype_is_cast():
    a = mg.ones(2, dtype=mg.float32, requires_grad=True)
    make(a.array * 1, (a,), lambda g: (g.to(mg.float64),), "mul").sum().backward()
    assert a.grad.dtype == mg.float32


# ---------------------------------------------------------------- custom Functions against PyTorch
def _function(lib, returned):
    class Odd(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, y):
            return x * y * k

        @staticmethod
        def backward(ctx, g):
            return returned(lib, g)

    return Odd


CASES = {
    "broadcast": lambda lib, g: (g, None, g),
    "too narrow": lambda lib, g: (g.sum(0), None, g),
    "wrong second": lambda lib, g: (g, None, lib.ones(5)),
    "too few": lambda lib, g: (g, None),
    "too many": lambda lib, g: (g, None, g, g),
    "grad for a constant": lambda lib, g: (g, g, g),
    "other dtype": lambda lib, g: (g.double(), None, g.double()),
}


def _run(lib, case):
    x = lib.ones(1, 3, requires_grad=True)
    y = lib.ones(4, 3, requires_grad=True)
    try:
        _function(lib, CASES[case]).apply(x, 2.0, y).sum().backward()
    except RuntimeError as exc:
        return ("error", str(exc).replace("Variable", "Tensor"))  # minigrad says Tensor where PyTorch's text is older
    return ("ok", x.grad.detach().numpy().tolist(), str(x.grad.dtype), y.grad.detach().numpy().tolist())


@pytest.mark.parametrize("case", sorted(CASES))
def test_custom_function_results_are_checked_as_pytorch_does(case):
    torch = pytest.importorskip("torch")
    got = _run(mg, case)
    expected = _run(torch, case)
    if expected[0] == "error":
        assert got == expected
    else:
        assert got[0] == "ok" and got[1] == expected[1] and got[3] == expected[3]
        assert got[2].rsplit(".", 1)[-1] == expected[2].rsplit(".", 1)[-1]
