"""gradcheck and gradgradcheck catch wrong gradients and say where."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import Function, GradcheckError, gradcheck, gradgradcheck
from tests.conftest import rand64


class WrongSquare(Function):
    """Claims d(x^2)/dx = 2x + 1 on the element at index 1 of the input."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        bump = np.zeros(x.shape)
        bump.reshape(-1)[1] = 1
        return g * (2 * x + mg.tensor(bump, dtype=x.dtype))


class NoisyIdentity(Function):
    calls = 0

    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, g):
        NoisyIdentity.calls += 1
        return g * (1 + 1e-9 * NoisyIdentity.calls)


class DataBackward(Function):
    """A correct first derivative written on raw arrays, so it is not differentiable again."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * mg.tensor(3 * x.array**2)


def test_correct_functions_pass():
    a, b = rand64(2, 3, seed=1), rand64(3, seed=2)
    assert gradcheck(lambda x, y: (x * y).tanh(), (a, b))
    assert gradgradcheck(lambda x, y: (x * y).tanh(), (a, b))


def test_failure_reports_input_element_and_both_values():
    x = rand64(2, 2, seed=3)
    y = rand64(3, seed=4)
    with pytest.raises(GradcheckError) as info:
        gradcheck(lambda c, t: c * 2 + WrongSquare.apply(t).sum(), (x, y))
    msg = str(info.value)
    first = msg.splitlines()[:4]
    assert first[0] == "Jacobian mismatch for output 0 with respect to input 1,"
    assert first[1] == "at input element (1,) and output element (0, 0):"
    t = y.detach().numpy()
    numerical = float(first[2].removeprefix("numerical:"))
    analytical = float(first[3].removeprefix("analytical:"))
    assert np.isclose(numerical, 2 * t[1], atol=1e-6)
    assert np.isclose(analytical, 2 * t[1] + 1)
    assert "Numerical Jacobian" in msg and "Analytical Jacobian" in msg


def test_raise_exception_false_returns_false():
    assert gradcheck(WrongSquare.apply, (rand64(3, seed=5),), raise_exception=False) is False


def test_nondeterministic_backward_and_nondet_tol():
    x = rand64(3, seed=6)
    with pytest.raises(GradcheckError, match="Backward is not reentrant"):
        gradcheck(NoisyIdentity.apply, (x,))
    assert gradcheck(NoisyIdentity.apply, (x,), nondet_tol=1e-6)


def test_gradgradcheck_catches_a_backward_that_is_not_differentiable():
    x = rand64(3, seed=7)
    assert gradcheck(DataBackward.apply, (x,))
    with pytest.raises(GradcheckError, match="Jacobian mismatch"):
        gradgradcheck(DataBackward.apply, (x,))


def test_non_contiguous_input_is_perturbed_in_place():
    base = rand64(3, 4, seed=8, requires_grad=False)
    x = mg.tensor(base.numpy(), dtype=mg.float64)
    x.array = x.array.T  # a non-contiguous view
    x.requires_grad_()
    before = x.array.copy()
    assert gradcheck(lambda t: (t * t).sum(0), (x,))
    np.testing.assert_array_equal(x.array, before)


def test_non_differentiable_arguments_are_skipped():
    x = rand64(3, seed=9)
    assert gradcheck(lambda t, k, idx: t * k, (x, 2.0, mg.tensor([1, 2])))


def test_errors_and_warnings_about_inputs():
    with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
        gradcheck(lambda t: t * 2, (mg.ones(2),))
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double precision"):
        gradcheck(lambda t: t * 2, (mg.ones(2, requires_grad=True),), atol=1e-2, rtol=1e-2, eps=1e-2)


@pytest.mark.parametrize(
    "fn,where",
    [
        (lambda t: "a", "the given outputs have type <class 'str'>"),
        (lambda t: None, "the given outputs have type <class 'NoneType'>"),
        (lambda t: 3.0, "the given outputs have type <class 'float'>"),
        (lambda t: (t * 2, None), "the value at index 1 has type <class 'NoneType'>"),
        (lambda t: [t * 2, "a"], "the value at index 1 has type <class 'str'>"),
    ],
)
def test_an_output_that_is_not_a_tensor_is_refused(fn, where):
    # such outputs were skipped: gradcheck(lambda z: 'a', (x,)) and a function returning None passed
    x = rand64(3, seed=2)
    for check in (gradcheck, gradgradcheck):
        with pytest.raises(TypeError, match=f"must be either a Tensor or a tuple of Tensors but {where}"):
            check(fn, (x,))


def test_integer_outputs_beside_floating_ones_are_still_skipped():
    x = rand64(3, seed=3)
    assert gradcheck(lambda t: (t * 2, t.argmax()), (x,))
