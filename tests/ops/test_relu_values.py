"""ReLU's forward against NumPy's max(x, 0) on C-ordered and strided arrays: NaN kept, inf and -inf, the sign
of zero (+0.0 for -0.0, where torch keeps -0.0), dtype, and a result that does not share the input's memory."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.conftest import rand64

SPECIAL = [1.5, -2.0, np.nan, -np.inf, np.inf, -0.0, 0.0, -7.25]


@pytest.mark.parametrize("tiles", [(1, 1), (64, 32)], ids=["8 values", "16 384 values"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("strided", [False, True], ids=["C-ordered", "transposed"])
def test_relu_is_numpys_maximum_with_zero(dtype, tiles, strided):
    values = np.tile(np.array(SPECIAL, dtype=dtype).reshape(2, 4), tiles)
    if strided:
        values = values.T
    kept = values.copy()
    out = mg.relu(mg.tensor(values)).array
    expected = np.maximum(values, 0)
    assert out.dtype == values.dtype and out.shape == values.shape
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(expected))  # -0.0 comes out +0.0, as before
    assert not np.shares_memory(out, values)
    np.testing.assert_array_equal(values, kept)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_relu_of_integers_keeps_the_dtype(dtype):
    out = mg.relu(mg.tensor(np.array([-3, 0, 5], dtype=dtype))).array
    assert out.dtype == dtype
    assert out.tolist() == [0, 0, 5]


def test_relu_of_a_zero_dim_tensor():
    assert mg.relu(mg.tensor(-2.0)).item() == 0.0
    assert mg.relu(mg.tensor(3.0)).item() == 3.0


@pytest.mark.parametrize("shape", [(3, 4), (4, 8, 9, 9)])
def test_relu_differentiates(shape):
    x = rand64(*shape)
    assert gradcheck(mg.relu, (x,))
