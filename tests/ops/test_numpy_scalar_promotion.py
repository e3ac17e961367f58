"""A NumPy scalar operand promotes as the Python number it holds, as in PyTorch.

NumPy's own rule would make ``float32 tensor * np.float64(2)`` float64, so code that multiplies by a
NumPy scalar (a learning rate from ``np.linspace``, a norm from ``np.sqrt``) would silently run in
double; PyTorch keeps float32.
"""

from __future__ import annotations

import operator

import numpy as np
import pytest

import minigrad as mg

SCALARS = [np.float64(2.0), np.float32(2.0), np.float16(2.0), np.int64(2), np.int32(2), np.int8(2), np.bool_(True)]
OPERATORS = [operator.add, operator.mul, operator.truediv, operator.pow, operator.lt]
# (tensor dtype, scalar kind) -> result dtype, as torch 2.13 gives it for every operator above but `lt`.
EXPECTED = {
    ("float32", "f"): "float32",
    ("float32", "i"): "float32",
    ("float32", "b"): "float32",
    ("float16", "f"): "float16",
    ("int64", "f"): "float32",
    ("int64", "i"): "int64",
    ("int64", "b"): "int64",
    ("int32", "i"): "int32",
}


def _expected(tensor_dtype: str, scalar, op) -> str:
    if op is operator.lt:
        return "bool"
    result = EXPECTED[(tensor_dtype, scalar.dtype.kind)]
    if op is operator.truediv and result.startswith("int"):
        return "float32"
    return result


@pytest.mark.parametrize("scalar", SCALARS, ids=lambda s: type(s).__name__)
@pytest.mark.parametrize("tensor_dtype", ["float32", "float16", "int64", "int32"])
@pytest.mark.parametrize("op", OPERATORS, ids=lambda f: f.__name__)
def test_a_numpy_scalar_keeps_the_tensors_dtype_as_a_python_number_does(op, tensor_dtype, scalar):
    if (tensor_dtype, scalar.dtype.kind) not in EXPECTED:
        pytest.skip("not a case of the table")
    t = mg.ones(3, dtype=getattr(mg, tensor_dtype))
    assert str(op(t, scalar).dtype) == _expected(tensor_dtype, scalar, op)
    if op is not operator.lt:
        assert str(op(scalar, t).dtype) == _expected(tensor_dtype, scalar, op)


@pytest.mark.parametrize("scalar", SCALARS, ids=lambda s: type(s).__name__)
@pytest.mark.parametrize("tensor_dtype", ["float32", "int64"])
@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow])
def test_numpy_scalar_promotion_matches_torch(op, tensor_dtype, scalar):
    torch = pytest.importorskip("torch")
    if op is operator.sub and scalar.dtype.kind == "b":
        pytest.skip("subtracting a bool is refused by both")
    if tensor_dtype == "int64" and scalar.dtype.kind == "b" and op is not operator.truediv:
        pytest.skip("torch 2.13 makes int64 + np.bool_ float32, but int64 + True int64: we follow True")
    ours = op(mg.ones(3, dtype=getattr(mg, tensor_dtype)), scalar)
    theirs = op(torch.ones(3, dtype=getattr(torch, tensor_dtype)), scalar)
    assert str(ours.dtype) == str(theirs.dtype).removeprefix("torch.")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())


def test_a_numpy_scalar_factor_keeps_the_gradient_float32():
    w = mg.ones(3, requires_grad=True)
    (w * np.float64(0.5)).sum().backward()
    assert w.grad.dtype == mg.float32
    np.testing.assert_array_equal(w.grad.numpy(), np.full(3, 0.5, np.float32))
