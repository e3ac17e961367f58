"""cumsum, cumprod, flip, roll, repeat_interleave: torch's values, dtypes and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from tests.torch_oracle import Arr, arr, check


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumsum_and_cumprod_match_torch(dim):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.cumsum(x, dim), arr(3, 4))
    check(lambda lib, x: x.cumsum(dim=dim), arr(3, 4))
    check(lambda lib, x: lib.cumprod(x, dim), arr(3, 4))
    check(lambda lib, x: x.cumprod(dim=dim), arr(3, 4))


def test_cumprod_gradient_is_exact_at_zeros():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.cumprod(x, 0), Arr(np.array([2.0, 0.0, 3.0, 0.0, 1.5])))
    check(lambda lib, x: lib.cumprod(x, 1), Arr(np.array([[0.0, 2.0, 3.0], [1.0, 0.0, 0.0]])))


def test_cumsum_cumprod_dtypes():
    torch = pytest.importorskip("torch")
    for name in ("cumsum", "cumprod"):
        for data in ([1, 2, 3], [True, False, True]):
            ours, theirs = getattr(mg, name)(mg.tensor(data), 0), getattr(torch, name)(torch.tensor(data), 0)
            assert str(ours.dtype) == str(theirs.dtype).split(".")[-1]
            np.testing.assert_array_equal(ours.array, theirs.numpy())
        ours = getattr(mg, name)(mg.tensor([1, 2]), 0, dtype=mg.float64)
        assert ours.dtype == mg.float64


def test_cumsum_of_scalar_and_empty():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.cumprod(x, 0), Arr(np.array(2.5)))
    check(lambda lib, x: lib.cumsum(x, 0), Arr(np.array(2.5)))
    check(lambda lib, x: lib.cumprod(x, 1), Arr(np.zeros((2, 0))), gradcheck_=False)


@pytest.mark.parametrize("dims", [(0,), (1,), (0, 1), (-1,)])
def test_flip_matches_torch(dims):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.flip(x, dims), arr(2, 3))
    check(lambda lib, x: x.flip(*dims), arr(2, 3))


@pytest.mark.parametrize("shifts,dims", [(1, 0), (-2, 1), ((1, 2), (0, 1)), (3, None), (5, -1)])
def test_roll_matches_torch(shifts, dims):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.roll(x, shifts, dims), arr(3, 4))
    check(lambda lib, x: x.roll(shifts=shifts, dims=dims), arr(3, 4))


def test_roll_errors():
    with pytest.raises(RuntimeError, match="shifts and dimensions must align"):
        mg.roll(mg.zeros(2, 2), (1, 2), 0)
    with pytest.raises(TypeError, match="roll.*shifts"):
        mg.roll(mg.zeros(2), "a", 0)


def test_repeat_interleave_matches_torch():
    torch = pytest.importorskip("torch")
    check(lambda lib, x: lib.repeat_interleave(x, 2), arr(2, 3))
    check(lambda lib, x: x.repeat_interleave(3, dim=1), arr(2, 3))
    check(lambda lib, x: lib.repeat_interleave(x, lib.tensor([1, 0, 2]), dim=1), arr(2, 3))
    check(lambda lib, x: lib.repeat_interleave(x, 2, dim=0, output_size=4), arr(2, 3))
    np.testing.assert_array_equal(
        mg.repeat_interleave(mg.tensor([2, 0, 1])).array, torch.repeat_interleave(torch.tensor([2, 0, 1])).numpy()
    )


def test_repeat_interleave_errors():
    with pytest.raises(RuntimeError, match="negative"):
        mg.repeat_interleave(mg.zeros(2), -1)
    with pytest.raises(RuntimeError, match="same size"):
        mg.repeat_interleave(mg.zeros(3), mg.tensor([1, 2]), dim=0)
