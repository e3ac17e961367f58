"""A custom Function's backward keeps PyTorch's contract: one full-shape gradient (or None) per
forward argument, checked by the engine with PyTorch's exception classes and texts."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import Function

# Each case: what ``backward(ctx, g)`` returns for ``forward(ctx, x, k) = x * k`` with ``x`` of shape
# [2] and ``k`` a Python float, written once for both libraries (``lib`` is minigrad or torch).
CASES = {
    "too_few": lambda lib, g: (g,),
    "too_many": lambda lib, g: (g, None, g),
    "bare_tensor_for_two_inputs": lambda lib, g: g,
    "gradient_for_a_non_tensor": lambda lib, g: (g, g),
    "wrong_shape": lambda lib, g: (lib.ones(3, dtype=lib.float64), None),
    "scalar_for_a_vector": lambda lib, g: (lib.ones((), dtype=lib.float64), None),
    "int": lambda lib, g: (5, None),
    "str": lambda lib, g: ("x", None),
    "broadcast_is_summed": lambda lib, g: (lib.ones(3, 2, dtype=lib.float64), None),
    "other_dtype_is_cast": lambda lib, g: (g.to(lib.float32), None),
    "integer_dtype_is_cast": lambda lib, g: (lib.ones(2, dtype=lib.int64), None),
    "trailing_nones": lambda lib, g: (g * 2, None, None),
}


def _run(lib, returned):
    class Bad(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return returned(lib, g)

    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    try:
        Bad.apply(x, 2.0).sum().backward()
    except Exception as exc:  # noqa: BLE001  (the test compares whatever each library raises)
        return type(exc), str(exc)
    return None, x.grad.tolist(), str(x.grad.dtype).replace("torch.", "")


@pytest.mark.parametrize("case", sorted(CASES))
def test_backward_results_are_checked_as_pytorch_does(case):
    torch = pytest.importorskip("torch")
    assert _run(mg, CASES[case]) == _run(torch, CASES[case])


@pytest.mark.parametrize(
    ("case", "error", "message"),
    [
        ("too_few", RuntimeError, "function BadBackward returned an incorrect number of gradients (expected 2, got 1)"),
        (
            "too_many",
            RuntimeError,
            "function BadBackward returned an incorrect number of gradients (expected 2, got 3)",
        ),
        (
            "wrong_shape",
            RuntimeError,
            "Function BadBackward returned an invalid gradient at index 0 - got [3] but expected shape compatible "
            "with [2]",
        ),
        ("int", RuntimeError, "expected Variable or None (got int)"),
    ],
)
def test_error_texts_without_torch(case, error, message):
    assert _run(mg, CASES[case]) == (error, message)


def test_full_shape_gradients_pass_unchanged():
    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = mg.tensor([[1.0, -2.0], [3.0, 0.5]], dtype=mg.float64, requires_grad=True)
    Square.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy())


def test_a_returned_saved_tensor_is_copied_into_grad():
    """The engine keeps a Function's gradient as ``.grad`` only as a copy: backward may return a tensor it holds."""

    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return held

    held = mg.ones(2, dtype=mg.float64)
    x = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    Identity.apply(x).sum().backward()
    x.grad.zero_()
    assert held.tolist() == [1.0, 1.0]
