"""Order statistics (median, nanmedian, kthvalue, mode, quantile, nanquantile, aminmax, searchsorted,
bucketize, histc), running extrema and logcumsumexp, moments (std_mean, var_mean, cov, corrcoef),
type promotion functions and logspace: torch's values, gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.ops.strategies import arrays, shapes, spaced_arrays, to_tensor
from tests.torch_oracle import Arr, check, raises_like_torch

# distinct values, so that which element is picked (and gets the gradient) is not a tie-break
DISTINCT = Arr(np.random.default_rng(0).permutation(20).reshape(4, 5) * 0.37 - 3.0)

CASES = {
    "median": lambda lib, x: lib.median(x),
    "median_dim": lambda lib, x: x.median(1),
    "median_keepdim": lambda lib, x: lib.median(x, 0, keepdim=True),
    "nanmedian": lambda lib, x: lib.nanmedian(x, 1),
    "kthvalue": lambda lib, x: lib.kthvalue(x, 2),
    "kthvalue_dim": lambda lib, x: x.kthvalue(4, 0, True),
    "quantile": lambda lib, x: lib.quantile(x, 0.3),
    "quantile_dim": lambda lib, x: x.quantile(0.75, dim=1, keepdim=True),
    "quantile_many": lambda lib, x: lib.quantile(x, lib.tensor([0.1, 0.5, 1.0], dtype=lib.float64), dim=0),
    "quantile_many_keepdim": lambda lib, x: lib.quantile(x, lib.tensor([0.2, 0.9], dtype=lib.float64), 1, True),
    "nanquantile": lambda lib, x: lib.nanquantile(x, 0.4, dim=1),
    "aminmax": lambda lib, x: lib.aminmax(x, dim=1),
    "cummax": lambda lib, x: lib.cummax(x, 1),
    "cummin": lambda lib, x: x.cummin(0),
    "logcumsumexp": lambda lib, x: lib.logcumsumexp(x, 1),
    "logcumsumexp_0": lambda lib, x: x.logcumsumexp(dim=0),
    "std_mean": lambda lib, x: lib.std_mean(x, 1),
    "var_mean": lambda lib, x: lib.var_mean(x, dim=(0, 1), correction=0, keepdim=True),
    "cov": lambda lib, x: lib.cov(x),
    "cov_correction": lambda lib, x: x.cov(correction=0),
    "cov_vector": lambda lib, x: lib.cov(x[0]),
    "corrcoef": lambda lib, x: lib.corrcoef(x),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    pytest.importorskip("torch")
    check(CASES[name], DISTINCT)


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_interpolations(interpolation):
    pytest.importorskip("torch")
    check(
        lambda lib, x: lib.quantile(
            x, lib.tensor([0.0, 0.33, 0.5, 0.875], dtype=lib.float64), dim=1, interpolation=interpolation
        ),
        DISTINCT,
    )


def test_cov_weights():
    pytest.importorskip("torch")
    fw, aw = np.array([1, 2, 1, 3, 1]), np.random.default_rng(1).uniform(0.1, 1, 5)
    check(lambda lib, x: lib.cov(x, fweights=lib.tensor(fw)), DISTINCT)
    check(lambda lib, x: lib.cov(x, aweights=lib.tensor(aw), correction=2), DISTINCT)
    check(lambda lib, x: lib.cov(x, fweights=lib.tensor(fw), aweights=lib.tensor(aw)), DISTINCT)


def test_nan_handling_matches_torch():
    torch = pytest.importorskip("torch")
    data = np.array([[1.0, np.nan, 3.0, 0.5], [np.nan, np.nan, np.nan, np.nan], [2.0, 1.0, 4.0, 3.0]])
    for call in (
        lambda lib, x: lib.median(x, 1),
        lambda lib, x: (lib.nanmedian(x, 1).values,),  # the index for a row of NaNs only is torch's accident
        lambda lib, x: (lib.quantile(x, 0.5, 1),),
        lambda lib, x: (lib.nanquantile(x, 0.5, 1),),
        lambda lib, x: lib.cummax(x, 1),
        lambda lib, x: lib.cummin(x, 1),
        lambda lib, x: (lib.median(x),),
    ):
        for ours, theirs in zip(call(mg, mg.tensor(data)), call(torch, torch.tensor(data))):
            np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_mode_and_ties_as_torch():
    torch = pytest.importorskip("torch")
    data = [[1.0, 3.0, 3.0, 2.0, 2.0], [5.0, 5.0, 1.0, 1.0, 0.0]]
    for dim in (0, 1):
        ours, theirs = mg.mode(mg.tensor(data), dim), torch.mode(torch.tensor(data), dim)
        np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())
        np.testing.assert_array_equal(ours.indices.numpy(), theirs.indices.numpy())
    x = mg.tensor(data, requires_grad=True)
    x.mode(1).values.sum().backward()
    assert x.grad.numpy().tolist() == [[0, 0, 0, 0, 1], [0, 0, 0, 1, 0]]


def test_search_and_histogram_match_torch():
    torch = pytest.importorskip("torch")
    seq = [1.0, 2.0, 2.0, 3.0]
    values = [[0.5, 2.0, 2.5], [3.0, 3.5, 1.0]]
    for lib_call in (
        lambda lib: lib.searchsorted(lib.tensor(seq), lib.tensor(values)),
        lambda lib: lib.searchsorted(lib.tensor(seq), lib.tensor(values), right=True),
        lambda lib: lib.searchsorted(lib.tensor(seq), lib.tensor(values), side="right", out_int32=True),
        lambda lib: lib.searchsorted(lib.tensor(seq), 2.0),
        lambda lib: lib.searchsorted(lib.tensor([[1.0, 2.0, 3.0], [0.0, 5.0, 6.0]]), lib.tensor([[2.0], [5.5]])),
        lambda lib: lib.bucketize(lib.tensor(values), lib.tensor(seq)),
        lambda lib: lib.bucketize(lib.tensor(values), lib.tensor(seq), right=True),
        lambda lib: lib.histc(lib.tensor(values), bins=4),
        lambda lib: lib.tensor(values).histc(3, min=1, max=3),
        lambda lib: lib.histc(lib.tensor([1.0, 1.0]), bins=4),
    ):
        ours, theirs = lib_call(mg), lib_call(torch)
        assert str(ours.dtype) == str(theirs.dtype).split(".")[-1]
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_promotion_functions_and_logspace():
    torch = pytest.importorskip("torch")
    assert mg.result_type(mg.tensor([1]), 1.0) == mg.float32
    assert mg.result_type(mg.tensor([1], dtype=mg.int32), mg.tensor([1])) == mg.int64
    pairs = [("int32", "float16"), ("bool", "int32"), ("int32", "int64"), ("float32", "float64")]
    for a, b in pairs:
        assert (
            str(mg.promote_types(getattr(mg, a), getattr(mg, b)))
            == str(torch.promote_types(getattr(torch, a), getattr(torch, b))).split(".")[-1]
        )
        for x, y in ((a, b), (b, a)):
            assert mg.can_cast(getattr(mg, x), getattr(mg, y)) == torch.can_cast(getattr(torch, x), getattr(torch, y))
    for args, kwargs in (((0, 2, 3), {}), ((-1, 1, 5), {"base": 2.0}), ((0, 3, 4), {"dtype": "float64"})):
        theirs = torch.logspace(*args, **{k: getattr(torch, v) if k == "dtype" else v for k, v in kwargs.items()})
        np.testing.assert_allclose(mg.logspace(*args, **kwargs).numpy(), theirs.numpy(), rtol=1e-6)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.kthvalue(lib.zeros(2, 5), 6),
        lambda lib: lib.quantile(lib.zeros(2, 5), 1.5),
        lambda lib: lib.quantile(lib.zeros(2, 5), 0.5, interpolation="foo"),
        lambda lib: lib.quantile(lib.zeros(2, 5, dtype=lib.int64), 0.5),
        lambda lib: lib.quantile(lib.zeros(2, 5), lib.tensor([[0.5]])),
        lambda lib: lib.histc(lib.zeros(3), bins=0),
        lambda lib: lib.histc(lib.zeros(3), 3, min=2, max=1),
        lambda lib: lib.searchsorted(lib.tensor([[1.0, 2.0]]), lib.tensor([1.0])),
        lambda lib: lib.bucketize(lib.zeros(3), lib.tensor([[1.0]])),
        lambda lib: lib.cov(lib.zeros(2, 2, 2)),
        lambda lib: lib.cov(lib.zeros(2, 3), fweights=lib.ones(3)),
        lambda lib: lib.cov(lib.zeros(2, 3), aweights=-lib.ones(3)),
        lambda lib: lib.corrcoef(lib.zeros(2, 2, 2)),
    ],
)
def test_errors_are_torchs(call):
    raises_like_torch(call)


def test_error_words():
    with pytest.raises(RuntimeError, match="kthvalue\\(\\): selected number k out of range for dimension 1"):
        mg.kthvalue(mg.zeros(2, 5), 6)
    with pytest.raises(RuntimeError, match="quantile\\(\\) q must be in the range \\[0, 1\\] but got 1.5"):
        mg.quantile(mg.zeros(3), 1.5)
    with pytest.raises(RuntimeError, match="expected fweights to have the same numel as there are observations"):
        mg.cov(mg.zeros(2, 3), fweights=mg.ones(2, dtype=mg.int64))


@settings(max_examples=30, deadline=None)
@given(spaced_arrays(shapes(min_dims=1, max_dims=3)), st.data())
def test_order_statistics_agree_with_numpy_and_gradcheck(a, data):
    x = to_tensor(a)
    dim = data.draw(st.integers(0, a.ndim - 1))
    n = a.shape[dim]
    k = data.draw(st.integers(1, n))
    np.testing.assert_array_equal(
        x.kthvalue(k, dim).values.detach().numpy(), np.sort(a, axis=dim).take(k - 1, axis=dim)
    )
    np.testing.assert_allclose(x.quantile(0.3, dim).detach().numpy(), np.quantile(a, 0.3, axis=dim))
    np.testing.assert_array_equal(x.cummax(dim).values.detach().numpy(), np.maximum.accumulate(a, axis=dim))
    np.testing.assert_allclose(x.logcumsumexp(dim).detach().numpy(), np.logaddexp.accumulate(a, axis=dim))
    assert gradcheck(
        lambda t: (t.median(dim).values, t.quantile(0.3, dim), t.cummin(dim).values, t.logcumsumexp(dim)), (x,)
    )


@settings(max_examples=20, deadline=None)
@given(arrays(shapes(min_dims=2, max_dims=2, min_side=2)))
def test_cov_and_corrcoef_agree_with_numpy(a):
    np.testing.assert_allclose(mg.cov(mg.tensor(a)).numpy(), np.atleast_2d(np.cov(a)), atol=1e-12)
    if (a.std(axis=1) > 1e-3).all():
        np.testing.assert_allclose(mg.corrcoef(mg.tensor(a)).numpy(), np.atleast_2d(np.corrcoef(a)), atol=1e-10)


def test_logcumsumexp_is_stable_and_its_second_derivative_gradchecks():
    out = mg.logcumsumexp(mg.tensor([-1000.0, 0.0, 1000.0], dtype=mg.float64), 0)
    np.testing.assert_allclose(out.numpy(), [-1000.0, 0.0, 1000.0])
    x = mg.tensor([[0.3, -1.2, 2.0], [1.0, 0.5, -0.5]], dtype=mg.float64, requires_grad=True)

    def first(t):
        (g,) = mg.autograd.grad(
            (t.logcumsumexp(1) * mg.tensor([1.0, -2.0, 3.0], dtype=mg.float64)).sum(), (t,), create_graph=True
        )
        return g

    assert gradcheck(first, (x,))
