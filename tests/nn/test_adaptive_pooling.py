"""Adaptive pooling: PyTorch's bins (overlapping where the output size does not divide the input's),
values and gradients against PyTorch, gradcheck in float64, the layers, and PyTorch's refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck, gradgradcheck
from tests.torch_oracle import arr, check, raises_like_torch

CASES_2D = [
    ((2, 3, 8, 8), 1),
    ((2, 3, 7, 5), (3, 2)),
    ((3, 5, 4), (5, 3)),
    ((2, 2, 6, 9), (4, None)),
    ((1, 2, 4, 4), 4),
]
CASES_1D = [((2, 3, 7), 3), ((3, 10), 4), ((2, 3, 5), 7), ((2, 3, 6), 1)]


def _lib_f(lib):
    return F if lib is mg else lib.nn.functional


@pytest.mark.parametrize(("shape", "out"), CASES_2D)
@pytest.mark.parametrize("name", ["adaptive_avg_pool2d", "adaptive_max_pool2d"])
def test_2d_matches_torch(name, shape, out):
    pytest.importorskip("torch")
    check(lambda lib, x: getattr(_lib_f(lib), name)(x, out), arr(*shape))


@pytest.mark.parametrize(("shape", "out"), CASES_1D)
@pytest.mark.parametrize("name", ["adaptive_avg_pool1d", "adaptive_max_pool1d"])
def test_1d_matches_torch(name, shape, out):
    pytest.importorskip("torch")
    check(lambda lib, x: getattr(_lib_f(lib), name)(x, out), arr(*shape))


@pytest.mark.parametrize(
    ("fn", "shape", "out"), [(F.adaptive_max_pool2d, (2, 3, 7, 5), (3, 2)), (F.adaptive_max_pool1d, (2, 3, 7), 3)]
)
def test_max_indices_match_torch(fn, shape, out):
    torch = pytest.importorskip("torch")
    a = np.random.default_rng(3).standard_normal(shape)
    a[..., 0] = a[..., 1]  # ties: the first largest element wins, as in PyTorch
    values, indices = fn(mg.tensor(a), out, return_indices=True)
    theirs, their_indices = getattr(torch.nn.functional, fn.__name__)(torch.tensor(a), out, return_indices=True)
    np.testing.assert_array_equal(indices.numpy(), their_indices.numpy())
    np.testing.assert_array_equal(values.numpy(), theirs.numpy())
    assert indices.dtype == mg.int64


def test_bins_overlap_as_torch():
    # L=5 into 3 bins: [0, 2), [1, 4), [3, 5)
    x = mg.tensor([[[1.0, 2.0, 3.0, 4.0, 5.0]]])
    np.testing.assert_allclose(F.adaptive_avg_pool1d(x, 3).numpy(), [[[1.5, 3.0, 4.5]]])
    np.testing.assert_allclose(F.adaptive_max_pool1d(x, 3).numpy(), [[[2.0, 4.0, 5.0]]])


def test_max_gradient_goes_to_the_first_largest_element_only():
    x = mg.tensor([[[0.0, 0.0, 0.0, 0.0]]], requires_grad=True)
    F.adaptive_max_pool1d(x, 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[[1.0, 0.0, 1.0, 0.0]]])


@pytest.mark.parametrize("fn", [F.adaptive_avg_pool2d, F.adaptive_max_pool2d], ids=["avg", "max"])
def test_gradcheck_float64_second_order(fn):
    x = mg.tensor(np.random.default_rng(0).standard_normal((1, 2, 5, 7)), requires_grad=True)
    assert gradcheck(lambda t: fn(t, (3, 4)), (x,))
    assert gradgradcheck(lambda t: fn(t, (3, 4)), (x,))


def test_layers_and_reprs():
    x = mg.tensor(np.random.default_rng(1).standard_normal((2, 3, 6, 6)).astype(np.float32))
    assert mg.nn.AdaptiveAvgPool2d(1)(x).shape == (2, 3, 1, 1)
    assert mg.nn.AdaptiveMaxPool2d((2, 3))(x).shape == (2, 3, 2, 3)
    values, indices = mg.nn.AdaptiveMaxPool2d(2, return_indices=True)(x)
    assert values.shape == indices.shape == (2, 3, 2, 2)
    assert mg.nn.AdaptiveAvgPool1d(2)(x[0]).shape == (3, 6, 2)
    assert mg.nn.AdaptiveMaxPool1d(3)(x[0]).shape == (3, 6, 3)
    assert repr(mg.nn.AdaptiveAvgPool2d(1)) == "AdaptiveAvgPool2d(output_size=1)"
    assert repr(mg.nn.AdaptiveMaxPool2d((2, 3))) == "AdaptiveMaxPool2d(output_size=(2, 3))"
    assert mg.nn.AdaptiveAvgPool2d(1).state_dict() == {}


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: _lib_f(lib).adaptive_max_pool2d(lib.zeros(2, 3), 1),
        lambda lib: _lib_f(lib).adaptive_avg_pool1d(lib.zeros(2, 3, 4, 5), 1),
        lambda lib: _lib_f(lib).adaptive_avg_pool2d(lib.zeros(1, 2, 3, 3), (1, 2, 3)),
        lambda lib: _lib_f(lib).adaptive_avg_pool2d(lib.zeros(1, 2, 3, 3, dtype=lib.int64), 1),
    ],
    ids=["max2d-rank", "avg1d-rank", "output-size-length", "integer-input"],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)


@pytest.mark.parametrize(
    ("fn", "shape", "out"),
    [
        (F.adaptive_avg_pool2d, (3, 2, 3, 5, 7), (2, 3)),
        (F.adaptive_max_pool2d, (3, 2, 5, 7), (2, 3)),
        (F.adaptive_avg_pool1d, (3, 2, 7), 3),
        (F.adaptive_max_pool1d, (3, 2, 2, 7), 3),
    ],
)
def test_vmap_batches_each_sample_without_a_loop(fn, shape, out):
    import warnings

    from minigrad.func import vmap

    x = mg.tensor(np.random.default_rng(2).standard_normal(shape))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the loop fallback warns of its performance drop
        batched = vmap(lambda t: fn(t, out))(x)
    np.testing.assert_array_equal(batched.numpy(), mg.stack([fn(x[i], out) for i in range(shape[0])]).numpy())
