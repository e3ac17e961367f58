"""How reductions and the ops along a dim read ``dim``: an empty list reduces every dim, an integer tensor is
the int it holds, and ``max``/``min`` tell a dim from an ``other`` tensor as PyTorch's overloads do."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg

X = np.arange(24.0).reshape(2, 3, 4) - 7.5


def _t(lib=mg):
    return lib.tensor(X.copy())


@pytest.mark.parametrize("op", ["sum", "mean", "nansum", "nanmean", "amax", "amin", "var", "std", "norm"])
@pytest.mark.parametrize("empty", [[], ()])
@pytest.mark.parametrize("keepdim", [False, True])
def test_an_empty_dim_list_reduces_every_dim(op, empty, keepdim):
    # sum(dim=[]) and mean(dim=[]) returned the tensor unchanged; torch reduces every dim
    out = getattr(_t(), op)(dim=empty, keepdim=keepdim)
    whole = getattr(_t(), op)(dim=(0, 1, 2), keepdim=keepdim)
    assert out.shape == ((1, 1, 1) if keepdim else ())
    np.testing.assert_allclose(out.numpy(), whole.numpy())


def test_an_empty_dim_list_reduces_every_dim_of_the_gradient_too():
    x = mg.tensor(X.copy(), requires_grad=True)
    x.mean(dim=[]).backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full(X.shape, 1 / X.size))


def test_max_min_read_a_keyword_tensor_dim_as_that_dim():
    # t.min(dim=mg.tensor(0)) gave an elementwise minimum with 0; t.max(dim=mg.tensor(1)) gave t
    values, indices = _t().min(dim=mg.tensor(0))
    np.testing.assert_array_equal(values.numpy(), X.min(0))
    np.testing.assert_array_equal(indices.numpy(), X.argmin(0))
    np.testing.assert_array_equal(_t().max(dim=mg.tensor(1)).values.numpy(), X.max(1))
    np.testing.assert_array_equal(mg.max(_t(), dim=mg.tensor(-1)).values.numpy(), X.max(-1))
    kept = _t().max(mg.tensor(2), True)  # a tensor followed by keepdim is a dim, as in torch
    assert kept.values.shape == (2, 3, 1)
    assert _t().min(mg.tensor(1), keepdim=True).indices.shape == (2, 1, 4)


def test_max_min_read_a_positional_tensor_alone_as_other():
    np.testing.assert_array_equal(_t().max(mg.tensor(0.0)).numpy(), np.maximum(X, 0))
    np.testing.assert_array_equal(_t().min(mg.tensor(1)).numpy(), np.minimum(X, 1))
    np.testing.assert_array_equal(mg.min(_t(), other=mg.tensor(2.0)).numpy(), np.minimum(X, 2))


def test_a_tensor_dim_that_is_not_one_integer_is_refused():
    with pytest.raises(TypeError, match="argument 'dim' must be int, not Tensor"):
        _t().max(dim=mg.tensor(1.0))
    with pytest.raises(TypeError, match="argument 'dim' must be int or tuple of ints, not Tensor"):
        _t().sum(dim=mg.tensor([0, 1]))
    with pytest.raises(TypeError, match="argument 'dim' must be int, not Tensor"):
        _t().softmax(dim=mg.tensor([0]))  # an int argument takes a 0-d tensor only, as torch's
    with pytest.raises(TypeError, match="'other' and 'dim' given together"):
        _t().max(1, other=mg.tensor(0.0))


@pytest.mark.parametrize(
    "call,expected",
    [
        (lambda t, d: t.sum(dim=d), X.sum(1)),
        (lambda t, d: t.mean(d), X.mean(1)),
        (lambda t, d: t.sum(dim=[d, 2]), X.sum((1, 2))),
        (lambda t, d: t.argmax(dim=d), X.argmax(1)),
        (lambda t, d: t.softmax(d).sum(d), np.ones((2, 4))),
        (lambda t, d: t.cumsum(dim=d), X.cumsum(1)),
        (lambda t, d: t.logsumexp(d), np.log(np.exp(X).sum(1))),
        (lambda t, d: t.var(d), X.var(1, ddof=1)),
        (lambda t, d: t.unsqueeze(d).squeeze(d), X),
    ],
)
def test_other_dim_arguments_take_an_integer_tensor(call, expected):
    np.testing.assert_allclose(call(_t(), mg.tensor(1)).numpy(), expected, rtol=1e-12)


def test_in_vmap_max_reads_a_keyword_tensor_dim_as_that_dim():
    from minigrad import func

    out = func.vmap(lambda x: x.max(dim=mg.tensor(1)).values)(_t())
    np.testing.assert_array_equal(out.numpy(), X.max(2))
    np.testing.assert_array_equal(func.vmap(lambda x: x.max(mg.tensor(0.0)))(_t()).numpy(), np.maximum(X, 0))


# ---------------------------------------------------------------- against torch
REDUCING = [
    "sum",
    "mean",
    "nansum",
    "nanmean",
    "amax",
    "amin",
    "var",
    "std",
    "logsumexp",
]  # not norm: torch's is Python
ALONG_ONE = ["max", "min", "argmax", "argmin", "softmax", "log_softmax", "cumsum"]


@st.composite
def dim_arguments(draw, ndim: int, one: bool):
    """A dim as a user may write it: an int (negative too), a 0-d or one-element integer tensor, a list or
    tuple of them (possibly empty, possibly repeating or out of range), or None."""
    ints = st.integers(-ndim - 1, ndim)
    as_tensor = st.builds(lambda d, shape: ("tensor", d, shape), ints, st.sampled_from([(), (1,), (1, 1)]))
    single = st.one_of(ints, as_tensor)
    if one:
        return draw(st.one_of(st.none(), single))
    many = st.builds(
        lambda kind, items: (kind, items), st.sampled_from(["list", "tuple"]), st.lists(single, max_size=3)
    )
    return draw(st.one_of(st.none(), single, many))


def _as(lib, dim):
    if isinstance(dim, tuple) and dim and dim[0] == "tensor":
        return lib.tensor(dim[1]).reshape(dim[2])
    if isinstance(dim, tuple):
        items = [_as(lib, d) for d in dim[1]]
        return items if dim[0] == "list" else tuple(items)
    return dim


def _outcome(lib, op, x, dim, keepdim):
    try:
        t = lib.tensor(x)
        if op in ("softmax", "log_softmax", "cumsum"):
            out = getattr(t, op)(dim=_as(lib, dim))
        else:
            out = getattr(t, op)(dim=_as(lib, dim), keepdim=keepdim)
    except (TypeError, IndexError, RuntimeError) as e:
        return type(e)
    out = out[0] if isinstance(out, tuple) else out
    return np.asarray(out.detach().numpy() if hasattr(out, "detach") else out.numpy())


def _repeated_and_out_of_range(dim, ndim: int) -> bool:
    if not (isinstance(dim, tuple) and dim[0] in ("list", "tuple")):
        return False
    ints = [d[1] if isinstance(d, tuple) else d for d in dim[1]]
    bound = max(ndim, 1)
    in_range = [d % bound for d in ints if -bound <= d < bound]
    return len(in_range) < len(ints) and len(set(in_range)) < len(in_range)


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::RuntimeWarning")  # var/std of one element
@settings(max_examples=300, deadline=None)
@given(data=st.data(), shape=st.lists(st.integers(1, 3), min_size=0, max_size=3), keepdim=st.booleans())
def test_dims_are_read_as_torch_reads_them(data, shape, keepdim):
    torch = pytest.importorskip("torch")
    op = data.draw(st.sampled_from(REDUCING + ALONG_ONE))
    dim = data.draw(dim_arguments(len(shape), op in ALONG_ONE))
    if op == "logsumexp" and isinstance(dim, tuple) and dim[0] in ("list", "tuple") and not dim[1]:
        return  # torch 2.13's logsumexp(dim=[]) fails on its own output shape; minigrad reduces every dim
    if op in ("max", "min", "logsumexp") and dim is None:
        return  # torch refuses an explicit dim=None here; minigrad reads it as no dim given (every dim)
    x = np.random.default_rng(len(shape)).standard_normal(shape)
    theirs, ours = _outcome(torch, op, x, dim, keepdim), _outcome(mg, op, x, dim, keepdim)
    if isinstance(theirs, type):
        assert isinstance(ours, type), (op, dim, keepdim, ours)
        if not _repeated_and_out_of_range(dim, len(shape)):  # torch's reductions test these in different orders
            assert ours is theirs, (op, dim, keepdim, ours)
    else:
        assert not isinstance(ours, type), (op, dim, keepdim, ours)
        assert ours.shape == theirs.shape, (op, dim, keepdim)
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
