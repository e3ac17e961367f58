"""Reductions, softmax family and cumsum: gradients over dims/keepdim, tie rules, stability, dtypes, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck
from tests.ops.strategies import arrays, shape_and_dim, shape_and_dims, spaced_arrays, to_tensor, values

FEW = settings(max_examples=10, deadline=None)


def _count(shape, dim) -> int:
    if dim is None:
        return int(np.prod(shape))
    dims = (dim,) if isinstance(dim, int) else dim
    return int(np.prod([shape[d] for d in dims])) if shape else 1


# name -> (call(x, dim, keepdim), element strategy, distinct values needed, twice differentiable)
DIM_REDUCTIONS = {
    "sum": (lambda x, d, k: x.sum(d, keepdim=k), values(), False, True),
    "mean": (lambda x, d, k: x.mean(d, keepdim=k), values(), False, True),
    "var": (lambda x, d, k: x.var(d, keepdim=k, correction=0), values(), True, True),
    "std": (lambda x, d, k: x.std(d, keepdim=k, unbiased=False), values(), True, True),
    "amax": (lambda x, d, k: x.amax(() if d is None else d, keepdim=k), values(), True, True),
    "amin": (lambda x, d, k: x.amin(() if d is None else d, keepdim=k), values(), True, True),
    "prod": (lambda x, d, k: x.prod(d, keepdim=k), values(-2, 2, avoid=(0.0,), margin=0.05), False, True),
    "logsumexp": (lambda x, d, k: x.logsumexp(d, keepdim=k), values(), False, True),
    "norm2": (lambda x, d, k: x.norm(dim=d, keepdim=k), values(avoid=(0.0,), margin=0.1), False, True),
    "norm1": (lambda x, d, k: x.norm(1, dim=d, keepdim=k), values(avoid=(0.0,), margin=0.1), False, True),
    "norm3": (lambda x, d, k: x.norm(3, dim=d, keepdim=k), values(avoid=(0.0,), margin=0.1), False, True),
    "norm_inf": (lambda x, d, k: x.norm(math.inf, dim=d, keepdim=k), values(avoid=(0.0,), margin=0.1), True, True),
    "norm_fro": (lambda x, d, k: x.norm("fro", dim=d, keepdim=k), values(avoid=(0.0,), margin=0.1), False, True),
}


@pytest.mark.parametrize("name", sorted(DIM_REDUCTIONS))
@FEW
@given(data=st.data(), keepdim=st.booleans())
def test_reduction_gradcheck_over_dims(name, data, keepdim):
    call, elements, distinct, smooth = DIM_REDUCTIONS[name]
    shape, dim = data.draw(shape_and_dims())
    x = to_tensor(data.draw(spaced_arrays(shape) if distinct else arrays(shape, elements)))
    if name in ("var", "std"):
        assume(_count(shape, dim) > 1)  # distinct values: no slice has zero spread (std has no gradient there)
    fn = lambda t: call(t, dim, keepdim)  # noqa: E731
    out = fn(x)
    reduced = len(shape) if dim is None else (1 if isinstance(dim, int) else len(dim))
    expected_ndim = len(shape) if keepdim else max(len(shape) - reduced, 0)
    assert out.ndim == expected_ndim
    assert gradcheck(fn, (x,))
    if smooth and name not in ("norm1",):
        assert gradgradcheck(fn, (x,))


@pytest.mark.parametrize("name", ["max", "min"])
@FEW
@given(data=st.data(), keepdim=st.booleans())
def test_max_min_along_dim_gradcheck(name, data, keepdim):
    shape, dim = data.draw(shape_and_dim(min_dims=1))
    x = to_tensor(data.draw(spaced_arrays(shape)))
    fn = lambda t: getattr(t, name)(dim, keepdim=keepdim).values  # noqa: E731
    assert gradcheck(fn, (x,))
    values_, indices = getattr(x, name)(dim, keepdim=keepdim)
    ref = (np.argmax if name == "max" else np.argmin)(x.array, axis=dim)
    np.testing.assert_array_equal(indices.array.reshape(ref.shape), ref)
    assert indices.dtype == mg.int64 and not indices.requires_grad
    assert values_.shape == indices.shape


@pytest.mark.parametrize("name", ["softmax", "log_softmax", "cumsum"])
@FEW
@given(data=st.data())
def test_along_dim_ops_gradcheck(name, data):
    shape, dim = data.draw(shape_and_dim(min_dims=1))
    x = to_tensor(data.draw(arrays(shape)))
    fn = lambda t: getattr(t, name)(dim)  # noqa: E731
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


@pytest.mark.parametrize(
    "fn",
    [
        lambda t: t.sum(-1),
        lambda t: t.mean(0, keepdim=True),
        lambda t: t.var(-2),
        lambda t: t.std(1, keepdim=True),
        lambda t: t.amax(-1),
        lambda t: t.max(0).values,
        lambda t: t.prod(-1),
        lambda t: t.logsumexp(0),
        lambda t: t.norm(dim=-1),
        lambda t: t.softmax(-1),
        lambda t: t.log_softmax(0),
        lambda t: t.cumsum(-1),
    ],
)
def test_non_contiguous_input(fn):
    rng = np.random.default_rng(4)
    x = to_tensor(rng.permutation(12).reshape(3, 4) / 5.0 + 0.1)

    def through_transpose(t):
        tt = t.transpose(0, 1)
        assert not tt.array.flags.c_contiguous
        return fn(tt)

    assert gradcheck(through_transpose, (x,))
    contiguous = to_tensor(np.ascontiguousarray(x.array.T), requires_grad=False)
    np.testing.assert_allclose(through_transpose(x).array, fn(contiguous).array)


# ---------------------------------------------------------------- values
@FEW
@given(shape_dims=shape_and_dims(), keepdim=st.booleans(), data=st.data())
def test_values_match_numpy(shape_dims, keepdim, data):
    shape, dim = shape_dims
    a = data.draw(arrays(shape))
    x = to_tensor(a, requires_grad=False)
    axis = None if not shape else dim  # NumPy has no dim 0 on a 0-d array; torch accepts 0 and -1
    np.testing.assert_allclose(x.sum(dim, keepdim=keepdim).array, a.sum(axis=axis, keepdims=keepdim))
    np.testing.assert_allclose(x.prod(dim, keepdim=keepdim).array, a.prod(axis=axis, keepdims=keepdim))
    np.testing.assert_allclose(
        x.amax(() if dim is None else dim, keepdim=keepdim).array, a.max(axis=axis, keepdims=keepdim)
    )
    np.testing.assert_allclose(
        x.var(dim, keepdim=keepdim, unbiased=False).array, a.var(axis=axis, keepdims=keepdim), atol=1e-12
    )
    np.testing.assert_allclose(
        x.logsumexp(dim, keepdim=keepdim).array,
        np.log(np.exp(a).sum(axis=axis, keepdims=keepdim)),
        rtol=1e-12,
        atol=1e-15,
    )
    np.testing.assert_allclose(
        x.norm(dim=dim, keepdim=keepdim).array, np.sqrt((a * a).sum(axis=axis, keepdims=keepdim)), rtol=1e-12
    )


def test_var_std_defaults_and_correction():
    x = mg.tensor([1.0, 2.0, 3.0, 4.0], dtype=mg.float64)
    assert x.var().item() == pytest.approx(5 / 3)
    assert x.var(unbiased=False).item() == pytest.approx(1.25)
    assert x.var(correction=2).item() == pytest.approx(2.5)
    assert x.var(False).item() == pytest.approx(1.25)
    assert x.std().item() == pytest.approx(math.sqrt(5 / 3))
    assert x.std(0, correction=0).item() == pytest.approx(math.sqrt(1.25))
    single = mg.tensor([3.0]).var()
    assert math.isnan(single.item())
    assert mg.tensor([1.0, 2.0]).var(correction=2).item() == math.inf


def test_var_backward_matches_formula():
    x = mg.tensor([1.0, 2.0, 4.0], dtype=mg.float64, requires_grad=True)
    x.var().backward()
    np.testing.assert_allclose(x.grad.array, 2 * (x.array - x.array.mean()) / 2)


def test_prod_with_zeros_gradients():
    x = mg.tensor(
        [[0.0, 2.0, 3.0], [0.0, 0.0, 4.0], [1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], dtype=mg.float64, requires_grad=True
    )
    x.prod(1).sum().backward()
    np.testing.assert_array_equal(x.grad.array, [[6.0, 0.0, 0.0], [0.0, 0.0, 0.0], [6.0, 3.0, 2.0], [0.0, 0.0, 0.0]])
    for fn in (lambda t: t.prod(1), lambda t: t.prod(0, keepdim=True), lambda t: t.prod()):
        assert gradcheck(fn, (x,))
        assert gradgradcheck(fn, (x,))


def test_prod_integer_gives_int64():
    assert mg.tensor([2, 3, 4], dtype=mg.int32).prod().dtype == mg.int64
    assert mg.tensor([2, 3, 4]).prod().item() == 24


# ---------------------------------------------------------------- tie rules
def test_full_max_splits_gradient_among_ties():
    x = mg.tensor([1.0, 5.0, 5.0, 3.0], requires_grad=True)
    x.max().backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.5, 0.0]


def test_full_min_splits_gradient_among_ties():
    x = mg.tensor([[1.0, 5.0], [1.0, 1.0]], requires_grad=True)
    x.min().backward()
    np.testing.assert_allclose(x.grad.array, [[1 / 3, 0.0], [1 / 3, 1 / 3]])


def test_max_along_dim_routes_gradient_to_returned_index():
    x = mg.tensor([[1.0, 5.0, 5.0], [7.0, 7.0, 0.0]], requires_grad=True)
    values_, indices = x.max(1)
    assert indices.tolist() == [1, 0]
    values_.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]


def test_amax_splits_ties_within_each_slice():
    x = mg.tensor([[1.0, 5.0, 5.0], [7.0, 2.0, 0.0]], requires_grad=True)
    x.amax(1).sum().backward()
    assert x.grad.tolist() == [[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]]


def test_inf_norm_splits_ties():
    x = mg.tensor([1.0, -5.0, 5.0, 3.0], requires_grad=True)
    x.norm(math.inf).backward()
    assert x.grad.tolist() == [0.0, -0.5, 0.5, 0.0]


def test_norm_gradient_at_zero_is_zero():
    x = mg.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
    n = x.norm(dim=1)
    assert n.tolist() == [0.0, 5.0]
    n.sum().backward()
    np.testing.assert_allclose(x.grad.array, [[0.0, 0.0], [0.6, 0.8]])


def test_max_nan_propagates_and_gradient_goes_to_nan():
    x = mg.tensor([1.0, float("nan"), 3.0], requires_grad=True)
    m = x.max()
    assert math.isnan(m.item())
    m.backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0]


# ---------------------------------------------------------------- max/min forms, argmax
def test_max_min_forms():
    x = mg.tensor([[1.0, 4.0], [3.0, 2.0]])
    result = x.max(dim=0, keepdim=True)
    assert result.values.tolist() == [[3.0, 4.0]] and result.indices.tolist() == [[1, 0]]
    assert repr(result).startswith("max(values=tensor(")
    v, i = mg.min(x, -1)
    assert v.tolist() == [1.0, 2.0] and i.tolist() == [0, 1]
    assert mg.max(x, mg.tensor([2.0, 2.0])).tolist() == [[2.0, 4.0], [3.0, 2.0]]
    scalar = mg.tensor(3.0)
    assert scalar.max(0).values.item() == 3.0 and scalar.max(0).indices.item() == 0
    with pytest.raises(TypeError, match="use amax"):
        x.max((0, 1))


def test_argmax_argmin():
    x = mg.tensor([[1.0, 9.0, 9.0], [4.0, 0.0, 4.0]], requires_grad=True)
    assert x.argmax().item() == 1
    assert x.argmin().item() == 4
    assert x.argmax(1).tolist() == [1, 0]
    assert x.argmin(0, keepdim=True).tolist() == [[0, 1, 1]]
    assert x.argmax(keepdim=True).shape == (1, 1)
    assert x.argmax().dtype == mg.int64 and not x.argmax().requires_grad


# ---------------------------------------------------------------- stability and dtypes
def test_softmax_logsumexp_are_stable():
    x = mg.tensor([[1000.0, 1001.0], [-1000.0, -1001.0]], dtype=mg.float64)
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        sm = x.softmax(-1).array
        lsm = x.log_softmax(-1).array
        lse = x.logsumexp(-1).array
    e = 1 / (1 + math.e)
    np.testing.assert_allclose(sm, [[e, 1 - e], [1 - e, e]])
    np.testing.assert_allclose(lsm, np.log(sm))
    np.testing.assert_allclose(lse, [1001 + math.log1p(math.exp(-1)), -1000 + math.log1p(math.exp(-1))])
    assert mg.tensor([-math.inf, -math.inf]).logsumexp(0).item() == -math.inf
    assert mg.tensor([math.inf, 1.0]).logsumexp(0).item() == math.inf


def test_softmax_rows_sum_to_one_and_dtype():
    x = mg.tensor(np.random.default_rng(0).standard_normal((3, 5)))
    np.testing.assert_allclose(x.softmax(1).sum(1).array, np.ones(3), rtol=1e-6)
    with pytest.raises(NotImplementedError, match="\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"):
        mg.tensor([1, 2, 3]).softmax(0)  # as torch: integers need a dtype
    assert mg.tensor([1, 2, 3]).softmax(0, dtype=mg.float32).dtype == mg.float32
    assert mg.tensor([1.0, 2.0]).softmax(0, dtype=mg.float64).dtype == mg.float64


def test_reduction_dtypes():
    ints = mg.tensor([[1, 2], [3, 4]])
    assert ints.sum().dtype == mg.int64
    assert mg.tensor([True, True]).sum().item() == 2
    assert ints.cumsum(0).dtype == mg.int64 and ints.cumsum(1).tolist() == [[1, 3], [3, 7]]
    assert ints.logsumexp(1).dtype == mg.float32
    assert ints.amax(0).dtype == mg.int64
    assert mg.tensor([1.0, 2.0], dtype=mg.float64).norm().dtype == mg.float64


def test_cumsum_backward_is_reversed_cumsum():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.cumsum(0).backward(mg.tensor([1.0, 10.0, 100.0]))
    assert x.grad.tolist() == [111.0, 110.0, 100.0]


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "call",
    [
        lambda x: x.sum(5),
        lambda x: x.mean(5),
        lambda x: x.var(5),
        lambda x: x.std((0, 5)),
        lambda x: x.max(5),
        lambda x: x.amin(5),
        lambda x: x.argmax(5),
        lambda x: x.prod(5),
        lambda x: x.logsumexp(5),
        lambda x: x.norm(dim=5),
        lambda x: x.softmax(5),
        lambda x: x.log_softmax(5),
        lambda x: x.cumsum(5),
    ],
)
def test_bad_dim_names_the_valid_range(call):
    x = mg.ones(2, 3)
    with pytest.raises(
        IndexError, match=r"^Dimension out of range \(expected to be in range of \[-2, 1\], but got 5\)$"
    ):
        call(x)


def test_other_errors():
    with pytest.raises(RuntimeError, match="std and var only support floating point"):
        mg.tensor([1, 2]).var()
    with pytest.raises(TypeError, match="cannot pass both 'unbiased' and 'correction'"):
        mg.ones(3).var(unbiased=True, correction=1)
    with pytest.raises(RuntimeError, match="Expected a floating point or complex tensor as input. Got int64"):
        mg.tensor([1, 2]).norm()
    with pytest.raises(RuntimeError, match="Expected reduction dim to be specified for input.numel\\(\\) == 0"):
        mg.zeros(0).max()
    with pytest.raises(IndexError, match="Expected reduction dim 0 to have non-zero size"):
        mg.zeros(0, 2).max(0)
    with pytest.raises(RuntimeError, match="unsupported order"):
        mg.ones(2).norm("nuc")
    with pytest.raises(TypeError, match=r"log_softmax\(\): argument 'dim' \(position 1\) must be int, not NoneType"):
        mg.ones(2).log_softmax(None)
    with pytest.raises(RuntimeError, match="dim 1 appears multiple times"):
        mg.ones(2, 3).amax((1, -1))


# ---------------------------------------------------------------- parity with PyTorch
TORCH_CASES = [
    ("sum", lambda m, x: x.sum((0, -1), keepdim=True)),
    ("mean", lambda m, x: x.mean(1)),
    ("var", lambda m, x: x.var(1)),
    ("var_corr", lambda m, x: x.var((0, 2), correction=0, keepdim=True)),
    ("std", lambda m, x: x.std(-1, unbiased=True)),
    ("max", lambda m, x: x.max()),
    ("max_dim", lambda m, x: x.max(1).values),
    ("min_dim", lambda m, x: x.min(-1, keepdim=True).values),
    ("amax", lambda m, x: x.amax((0, 1))),
    ("amin", lambda m, x: x.amin(-1)),
    ("prod", lambda m, x: x.prod(1)),
    ("logsumexp", lambda m, x: m.logsumexp(x, 2)),
    ("norm", lambda m, x: x.norm()),
    ("norm1", lambda m, x: x.norm(1, dim=1)),
    ("norm_inf", lambda m, x: x.norm(float("inf"), dim=(0, 1))),
    ("norm3", lambda m, x: x.norm(3, dim=-1, keepdim=True)),
    ("softmax", lambda m, x: x.softmax(1)),
    ("log_softmax", lambda m, x: x.log_softmax(-1)),
    ("cumsum", lambda m, x: x.cumsum(1)),
]


@pytest.mark.parametrize("name, call", TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_torch_parity(name, call):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    data = rng.standard_normal((2, 3, 4))
    if name in ("max", "amax", "amin"):
        data[0, 0, :2] = data.max() + 1  # a tie at the top: both must split the gradient the same way
        data[1, 2, 1] = data[1, 2, 0]
    if name == "prod":
        data[0, 1, 2] = 0.0
        data[1, :2, 0] = 0.0
    tx, mx = torch.tensor(data, requires_grad=True), mg.tensor(data, requires_grad=True)
    ty, my = call(torch, tx), call(mg, mx)
    np.testing.assert_allclose(my.array, ty.detach().numpy(), rtol=1e-10, atol=1e-12)
    seed = rng.standard_normal(ty.shape)
    ty.backward(torch.tensor(seed))
    my.backward(mg.tensor(seed, dtype=mg.float64))
    np.testing.assert_allclose(mx.grad.array, tx.grad.numpy(), rtol=1e-10, atol=1e-12)
