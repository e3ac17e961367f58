"""division: floor_divide (//), div's rounding modes, remainder (``%``) and fmod: values, signs, gradients (d/da = 1, d/db = -q)
checked by gradcheck in float64, against PyTorch when it is installed, with cases ported from
PyTorch's test_binary_ufuncs (rewritten here)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck
from tests.torch_oracle import Arr, check


def _away_from_jumps(shape_a, shape_b, seed):
    """Dividends and divisors of both signs whose quotients stay 0.1 or more from an integer (the
    remainder jumps there, and a finite difference across a jump is no derivative): every divisor is
    +-1.7, every dividend 1.7 times an integer plus a fraction in [0.1, 0.9]."""
    rng = np.random.default_rng(seed)
    b = 1.7 * rng.choice([-1.0, 1.0], shape_b)
    a = 1.7 * (rng.integers(-4, 4, shape_a) + rng.uniform(0.1, 0.9, shape_a) * rng.choice([-1.0, 1.0], shape_a))
    return a, b


@pytest.mark.parametrize("op", ["remainder", "fmod"])
@pytest.mark.parametrize("shape_a, shape_b", [((4,), (4,)), ((3, 4), (4,)), ((2, 3), (2, 1))])
def test_remainders_gradcheck_to_second_order(op, shape_a, shape_b):
    a, b = _away_from_jumps(shape_a, shape_b, seed=len(shape_a) + len(shape_b))
    fn = getattr(mg, op)
    inputs = (mg.tensor(a, requires_grad=True), mg.tensor(b, requires_grad=True))
    assert gradcheck(fn, inputs) and gradgradcheck(fn, inputs)


@pytest.mark.parametrize("op", ["remainder", "fmod"])
def test_remainders_match_pytorch_values_and_gradients(op):
    pytest.importorskip("torch")
    a, b = _away_from_jumps((3, 4), (4,), seed=7)
    check(lambda lib, x, y: getattr(lib, op)(x, y), Arr(a), Arr(b))
    check(lambda lib, x: getattr(lib, op)(x, -1.5), Arr(a))  # a Python divisor
    check(lambda lib, x: getattr(x, op)(2), Arr(a))


def test_the_operator_and_its_reflection_follow_the_divisor_sign():
    a = mg.tensor([5.0, -5.0, 7.5, -7.5])
    b = mg.tensor([3.0, 3.0, -2.0, -2.0])
    assert (a % b).tolist() == [2.0, 1.0, -0.5, -1.5]
    assert mg.fmod(a, b).tolist() == [2.0, -2.0, 1.5, -1.5]
    assert (7 % b).tolist() == [1.0, 1.0, -1.0, -1.0]
    assert (mg.tensor([7, -7]) % 3).tolist() == [1, 2] and (mg.tensor([7, -7]) % 3).dtype == mg.int64


def test_gradients_are_one_for_the_dividend_and_minus_the_quotient_for_the_divisor():
    a = mg.tensor([5.0, -5.0, 7.5, -7.5], requires_grad=True)
    b = mg.tensor([3.0, 3.0, -2.0, -2.0], requires_grad=True)
    (a % b).sum().backward()
    assert a.grad.tolist() == [1.0] * 4
    assert b.grad.tolist() == [-1.0, 2.0, 4.0, -3.0]  # -floor(a / b)
    a.grad = b.grad = None
    mg.fmod(a, b).sum().backward()
    assert b.grad.tolist() == [-1.0, 1.0, 3.0, -3.0]  # -trunc(a / b)


def test_in_place_remainders_are_recorded_and_refused_on_a_leaf_that_requires_grad():
    x = mg.tensor([5.0, 6.5], requires_grad=True)
    y = x * 1.0
    y %= 4
    y.fmod_(1.5)
    y.sum().backward()
    assert y.tolist() == [1.0, 1.0] and x.grad.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        x.remainder_(2)


# ---------------------------------------------------------------- ported from PyTorch's test_binary_ufuncs
@pytest.mark.parametrize("op", [mg.remainder, mg.fmod])
def test_integral_remainder_by_zero_raises_zero_division(op):  # test_fmod_remainder_by_zero_integral
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        op(mg.tensor([1, -2, 3]), 0)


@pytest.mark.parametrize("op", [mg.remainder, mg.fmod])
def test_float_remainder_by_zero_is_nan(op):  # test_fmod_remainder_by_zero_float
    assert np.isnan(op(mg.tensor([1.0, -2.0, 0.0]), mg.tensor([0.0, 0.0, 0.0])).numpy()).all()


def test_remainder_of_a_large_dividend_keeps_the_divisor_sign():  # test_remainder_fmod_large_dividend
    for value in (1e9, -1e9):
        for divisor in (3.141592653589793, -3.141592653589793):
            a, b = mg.tensor(value, dtype=mg.float64), mg.tensor(divisor, dtype=mg.float64)
            r, f = (a % b).item(), mg.fmod(a, b).item()
            assert r == np.remainder(value, divisor) and (r == 0 or np.sign(r) == np.sign(divisor))
            assert f == np.fmod(value, divisor) and (f == 0 or np.sign(f) == np.sign(value))


def test_remainder_does_not_overflow():  # test_remainder_overflow
    x, q = mg.tensor(23500, dtype=mg.int64), 392486996410368
    assert (x % q).item() == 23500
    assert (-x % q).item() == q - 23500
    assert (x % -q).item() == 23500 - q
    assert (-x % -q).item() == -23500


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=6),
    st.integers(-50, 50).filter(bool),
)
def test_integer_remainders_and_rounded_quotients_are_python_s(values, divisor):
    a = mg.tensor(values, dtype=mg.int64)
    assert (a % divisor).tolist() == [v % divisor for v in values]
    assert mg.div(a, divisor, rounding_mode="floor").tolist() == [v // divisor for v in values]
    assert mg.div(a, divisor, rounding_mode="trunc").tolist() == [int(v / divisor) for v in values]
    assert mg.fmod(a, divisor).tolist() == [int(np.fmod(v, divisor)) for v in values]


def test_div_rounding_modes_and_the_error_for_another():
    a = mg.tensor([7.5, -7.5])
    assert mg.div(a, 2, rounding_mode="trunc").tolist() == [3.0, -3.0]
    assert mg.div(a, 2, rounding_mode="floor").tolist() == [3.0, -4.0]
    with pytest.raises(ValueError, match="one of None, 'trunc', or 'floor' but found 'round'"):
        mg.div(a, 2, rounding_mode="round")


def test_shapes_that_do_not_broadcast_are_named():
    with pytest.raises(RuntimeError, match=r"remainder: shapes \[2\] and \[3\] cannot be broadcast together"):
        mg.tensor([1.0, 2.0]) % mg.tensor([1.0, 2.0, 3.0])


def test_vmap_batches_remainders_without_a_per_example_loop():
    import warnings

    x, y = mg.randn(3, 4), mg.randn(4) + 5

    def f(row, divisor):
        out = row * 1.0
        out %= 1.5
        return mg.fmod(row, divisor) + out + 3 % divisor

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the fallback loop warns
        batched = mg.func.vmap(f, in_dims=(0, None))(x, y)
    np.testing.assert_allclose(batched.numpy(), np.stack([f(r, y).numpy() for r in x]))
