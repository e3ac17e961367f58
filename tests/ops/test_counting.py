"""unique and bincount: torch's values, dtypes, tuples and errors (neither is differentiable)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as mg
from tests.ops import strategies
from tests.torch_oracle import Arr, check, raises_like_torch

VALUES = Arr(np.array([[3, 1, 3], [0, 1, 7]]))


@pytest.mark.parametrize("return_inverse", [False, True])
@pytest.mark.parametrize("return_counts", [False, True])
def test_unique_matches_torch(return_inverse, return_counts):
    pytest.importorskip("torch")
    for data in (VALUES, Arr(np.array([2.5, -1.0, 2.5, 0.0])), Arr(np.array(3))):
        check(lambda lib, x: lib.unique(x, True, return_inverse, return_counts), data, grads=False)
    check(
        lambda lib, x: x.unique(return_inverse=return_inverse, return_counts=return_counts, dim=0),
        Arr(np.array([[3, 1], [0, 0], [3, 1]])),
        grads=False,
    )
    check(lambda lib, x: lib.unique(x, sorted=True, return_inverse=return_inverse, dim=1), VALUES, grads=False)


def test_unique_of_a_float_tensor_is_not_differentiable():
    out = mg.unique(mg.tensor([2.0, 1.0, 2.0], requires_grad=True))
    assert out.tolist() == [1.0, 2.0] and not out.requires_grad


def test_bincount_matches_torch():
    pytest.importorskip("torch")
    idx = Arr(np.array([1, 2, 2, 5]))
    check(lambda lib, x: lib.bincount(x), idx, grads=False)
    check(lambda lib, x: x.bincount(minlength=8), idx, grads=False)
    check(lambda lib, x: lib.bincount(x), Arr(np.array([], dtype=np.int64)), grads=False)
    for weights in (np.array([0.5, 1.0, 2.0, -1.0]), np.array([1, 2, 3, 4]), np.array([1, 2, 3, 4], np.float32)):
        check(lambda lib, x, w: lib.bincount(x, w), idx, Arr(weights, grad=False), grads=False)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.bincount(lib.tensor([1, -2])),
        lambda lib: lib.bincount(lib.tensor([[1, 2]])),
        lambda lib: lib.bincount(lib.tensor([1, 2]), minlength=-1),
        lambda lib: lib.bincount(lib.tensor([1, 2]), lib.tensor([1.0])),
        lambda lib: lib.bincount([1, 2]),
        lambda lib: lib.unique(lib.tensor([1, 2]), dim=3),
        lambda lib: lib.unique("ab"),
    ],
)
def test_bad_input_raises_like_torch(call):
    raises_like_torch(call)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_unique_matches_torch_on_any_shape(data):
    torch = pytest.importorskip("torch")
    shape = data.draw(strategies.shapes(min_dims=0, max_dims=3, max_side=5), label="shape")
    values = data.draw(hnp.arrays(np.int64, shape, elements=st.integers(-2, 2)), label="values")
    dim = data.draw(st.none() | strategies.dims(len(shape)) if shape else st.none(), label="dim")
    ours = mg.unique(mg.tensor(values), return_inverse=True, return_counts=True, dim=dim)
    theirs = torch.unique(torch.tensor(values), return_inverse=True, return_counts=True, dim=dim)
    for o, t in zip(ours, theirs):
        np.testing.assert_array_equal(o.numpy(), t.numpy())


def test_unique_consecutive_keeps_each_run_once_in_order():
    x = mg.tensor([1, 1, 2, 2, 3, 1, 1])
    assert mg.unique_consecutive(x).tolist() == [1, 2, 3, 1]
    values, inverse, counts = x.unique_consecutive(return_inverse=True, return_counts=True)
    assert (
        values.tolist() == [1, 2, 3, 1]
        and inverse.tolist() == [0, 0, 1, 1, 2, 3, 3]
        and counts.tolist() == [2, 2, 1, 2]
    )
    rows = mg.tensor([[1, 2], [1, 2], [3, 4]])
    values, inverse, counts = mg.unique_consecutive(rows, return_inverse=True, return_counts=True, dim=0)
    assert values.tolist() == [[1, 2], [3, 4]] and inverse.tolist() == [0, 0, 1] and counts.tolist() == [2, 1]
    assert mg.unique_consecutive(rows, return_inverse=True)[1].tolist() == [[0, 1], [2, 3], [4, 5]]
    assert mg.unique_consecutive(mg.tensor([], dtype=mg.int64), return_counts=True)[1].tolist() == []
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        mg.unique_consecutive(mg.tensor(5), dim=0)


@pytest.mark.parametrize("dim", [None, 0, 1, -1])
def test_unique_consecutive_matches_torch(dim):
    torch = pytest.importorskip("torch")
    data = np.random.default_rng(3).integers(0, 2, (12, 3)).repeat(2, axis=0)
    ours = mg.unique_consecutive(mg.tensor(data), return_inverse=True, return_counts=True, dim=dim)
    theirs = torch.unique_consecutive(torch.tensor(data), return_inverse=True, return_counts=True, dim=dim)
    for m, t in zip(ours, theirs):
        np.testing.assert_array_equal(m.numpy(), t.numpy())
