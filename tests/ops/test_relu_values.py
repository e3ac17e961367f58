"""ReLU's forward against NumPy's max(x, 0) on C-ordered and strided arrays: NaN kept, inf and -inf, the sign
of zero (-0.0 stays -0.0, as in torch), dtype, and a result that does not share the input's memory."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.conftest import rand64

SPECIAL = [1.5, -2.0, np.nan, -np.inf, np.inf, -0.0, 0.0, -7.25]


@pytest.mark.parametrize("tiles", [(1, 1), (64, 32)], ids=["8 values", "16 384 values"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("strided", [False, True], ids=["C-ordered", "transposed"])
def test_relu_is_numpys_maximum_of_zero_and_the_value(dtype, tiles, strided):
    values = np.tile(np.array(SPECIAL, dtype=dtype).reshape(2, 4), tiles)
    if strided:
        values = values.T
    kept = values.copy()
    out = mg.relu(mg.tensor(values)).array
    expected = np.maximum(0, values)  # where they tie, NumPy returns the second: the value, -0.0 kept
    assert out.dtype == values.dtype and out.shape == values.shape
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(expected))
    assert np.signbit(out[values == 0]).tolist() == np.signbit(values[values == 0]).tolist()  # torch: -0.0 kept
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


@pytest.mark.parametrize("bounds", [{"min": 0.0}, {"max": 0.0}, {"min": 0.0, "max": 0.0}, {"min": -0.0, "max": 1.0}])
def test_clamp_at_a_bound_equal_to_the_value_keeps_the_values_sign_of_zero(bounds):
    values = np.array([-0.0, 0.0, -0.0, 0.0])
    out = mg.tensor(values).clamp(**bounds).array
    assert out.tolist() == [0.0] * 4
    assert np.signbit(out).tolist() == [True, False, True, False]  # PyTorch's clamp keeps the value on a tie
