"""Issue 14 section 5: bad input gets PyTorch's kind of error, never a wrong value (each class, one by one)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

INF = float("inf")


@pytest.mark.parametrize(
    "call,text",
    [
        (lambda: mg.exp([1.0]), r"exp\(\): argument 'input' \(position 1\) must be Tensor, not list"),
        (lambda: mg.sum(None), r"sum\(\): argument 'input' \(position 1\) must be Tensor, not NoneType"),
        (
            lambda: mg.add(mg.ones(1), "a"),
            r"add\(\): argument 'other' \(position 2\) must be Tensor or Number, not str",
        ),
        (lambda: mg.matmul(mg.ones(2), {}), r"matmul\(\): argument 'other' \(position 2\) must be Tensor, not dict"),
        (lambda: mg.ones(2).add([1.0, 2.0]), r"add\(\): argument 'other' \(position 1\) must be Tensor or Number"),
        (lambda: mg.ones(2, 2).transpose(None, 0), r"transpose\(\): argument 'dim0' \(position 1\) must be int"),
        (lambda: mg.ones(2).sum(dim="a"), r"sum\(\): argument 'dim' must be int or tuple of ints, not str"),
        (lambda: mg.ones(2).sum(0, "yes"), r"sum\(\): argument 'keepdim' \(position 2\) must be bool, not str"),
        (lambda: mg.where([True], mg.ones(1), 0.0), r"where\(\): argument 'condition' \(position 1\) must be Tensor"),
        (
            lambda: mg.gather(mg.ones(3), 0, [0]),
            r"gather\(\): argument 'index' \(position 3\) must be Tensor, not list",
        ),
        (lambda: F.relu([1.0]), r"relu\(\): argument 'input' \(position 1\) must be Tensor, not list"),
        (lambda: F.linear(mg.ones(2), [[1.0, 2.0]]), r"linear\(\): argument 'weight' \(position 2\) must be Tensor"),
        (lambda: F.mse_loss(mg.ones(2), [1.0, 2.0]), r"mse_loss\(\): argument 'target' \(position 2\) must be Tensor"),
        (lambda: F.dropout(mg.ones(2), p="x"), r"dropout\(\): argument 'p' must be Number, not str"),
    ],
)
def test_non_tensor_arguments_are_type_errors_naming_op_argument_and_types(call, text):
    with pytest.raises(TypeError, match=text):
        call()


def test_checked_functions_keep_their_identity_and_docs():
    assert mg.clip is mg.clamp
    assert mg.exp.__name__ == "exp" and mg.exp.__doc__
    assert mg.exp.__wrapped__ is mg.ops.elementwise.exp


@pytest.mark.parametrize(
    "call,exc,text",
    [
        (lambda: mg.gather(mg.zeros(3), 0, mg.tensor([3])), RuntimeError, "index 3 is out of bounds for dimension 0"),
        (lambda: mg.gather(mg.zeros(3), 0, mg.tensor([-1])), RuntimeError, "index -1 is out of bounds"),
        (lambda: mg.index_select(mg.zeros(3), 0, mg.tensor([-1])), IndexError, "index out of range in self"),
        (lambda: mg.index_select(mg.zeros(3), 0, mg.tensor([3])), IndexError, "index out of range in self"),
        (lambda: mg.scatter(mg.zeros(3), 0, mg.tensor([-1]), mg.ones(1)), RuntimeError, "index -1 is out of bounds"),
        (lambda: mg.take(mg.zeros(3), mg.tensor([3])), IndexError, "tried to access index 3 on a tensor of 3"),
    ],
)
def test_out_of_range_indices_are_errors_never_wrapped(call, exc, text):
    with pytest.raises(exc, match=text):
        call()


def test_view_of_non_contiguous_is_torchs_error_not_a_copy():
    x = mg.arange(6.0).reshape(2, 3).t()
    with pytest.raises(RuntimeError, match="view size is not compatible with input tensor's size and stride"):
        x.view(6)
    np.testing.assert_array_equal(x.reshape(6).array, [0, 3, 1, 4, 2, 5])


def test_relu_of_minus_infinity_is_zero_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = mg.relu(mg.tensor([-INF, -1.0, 0.0, 2.0, INF]))
    np.testing.assert_array_equal(out.array, [0.0, 0.0, 0.0, 2.0, INF])
    assert np.isnan(mg.relu(mg.tensor([float("nan")])).array).all()  # NaN propagates, as in torch


def test_masked_fill_backward_is_zero_where_masked_and_infinite_elsewhere():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    value = mg.tensor(5.0, requires_grad=True)
    mask = mg.tensor([True, False, True])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (x.masked_fill(mask, value) * mg.tensor([INF, INF, 2.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.array, [0.0, INF, 0.0])
    assert value.grad.item() == INF


def test_masked_fill_gradients_match_torch_with_broadcasting():
    torch = pytest.importorskip("torch")
    grads = []
    for lib in (mg, torch):
        x = lib.tensor(np.array([[1.0, 2.0, 3.0]]), requires_grad=True)
        v = lib.tensor(0.5, dtype=lib.float64, requires_grad=True)
        m = lib.tensor([[True, False, False], [False, True, True]])
        (x.masked_fill(m, v) * lib.tensor(np.arange(6.0).reshape(2, 3))).sum().backward()
        grads.append((np.asarray(x.grad.array if lib is mg else x.grad.numpy()), float(v.grad)))
    np.testing.assert_array_equal(grads[0][0], grads[1][0])
    assert grads[0][1] == grads[1][1]


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
def test_nan_and_inf_cast_to_integers_like_numpy_without_warnings(dtype):
    values = np.array([float("nan"), INF, -INF, 1.5, -2.5])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = values.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = mg.tensor(values).to(getattr(mg, dtype if dtype != "bool" else "bool_"))
        big = mg.tensor(np.array([1e300])).float()
    np.testing.assert_array_equal(out.array, expected)
    assert big.item() == INF


def test_fill_and_full_refuse_none():
    with pytest.raises(TypeError, match=r"fill_\(\): argument 'value' \(position 1\) must be Number, not NoneType"):
        mg.zeros(2).fill_(None)
    with pytest.raises(TypeError, match=r"full\(\): argument 'fill_value' \(position 2\) must be Number, not NoneType"):
        mg.full((2,), None)
    np.testing.assert_array_equal(mg.zeros(2).fill_(mg.tensor(3.0)).array, [3.0, 3.0])
    with pytest.raises(RuntimeError, match="fill_ only supports 0-dimension value tensor"):
        mg.zeros(2).fill_(mg.ones(2))


def test_pow_errors_name_pow():
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \*\* or pow\(\): 'Tensor' and 'NoneType'"):
        mg.ones(2) ** None
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \*\* or pow\(\): 'NoneType' and 'Tensor'"):
        None ** mg.ones(2)
    with pytest.raises(TypeError, match=r"pow\(\): argument 'other' \(position 2\) must be Tensor or Number, not str"):
        mg.pow(mg.ones(2), "a")
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
        mg.tensor([2]) ** -1
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(3\)"):
        mg.ones(2) ** mg.ones(3)


def test_integer_powers_of_tensors_truncate_like_torch():
    base, exponent = mg.tensor([2, 1, -1, -1, 3, 0]), mg.tensor([-1, -2, -1, -2, 2, 3])
    np.testing.assert_array_equal((base**exponent).array, [0, 1, -1, 1, 9, 0])
    np.testing.assert_array_equal((2 ** mg.tensor([-1, 3])).array, [0, 8])


@pytest.mark.parametrize(
    "call,shapes",
    [
        (lambda: mg.zeros(0, 3).chunk(2), [(0, 3), (0, 3)]),
        (lambda: mg.zeros(2, 0).chunk(3, 1), [(2, 0)] * 3),
        (lambda: mg.zeros(0, 3).split(2), [(0, 3)]),
        (lambda: mg.zeros(0, 3).split(0), [(0, 3)]),
        (lambda: mg.zeros(0, 3).split([0, 0]), [(0, 3), (0, 3)]),
    ],
)
def test_chunk_and_split_of_an_empty_dim_match_torch(call, shapes):
    assert [p.shape for p in call()] == shapes


def test_split_size_zero_of_a_non_empty_dim_is_torchs_error():
    with pytest.raises(
        RuntimeError, match="split_size can only be 0 if dimension size is 0, but got dimension size of 4"
    ):
        mg.zeros(4).split(0)


LIST_OPERANDS = {
    "t + list": lambda t: t + [1.0, 2.0],
    "list + t": lambda t: [1.0, 2.0] + t,
    "t * tuple": lambda t: t * (1.0, 2.0),
    "t - list": lambda t: t - [1.0, 2.0],
    "list / t": lambda t: [1.0, 2.0] / t,
    "t ** list": lambda t: t ** [1.0, 2.0],
    "t < list": lambda t: t < [1.0, 2.0],
    "tuple >= t": lambda t: (1.0, 2.0) >= t,
}


@pytest.mark.parametrize("name", sorted(LIST_OPERANDS))
def test_an_operator_with_a_list_is_refused_as_in_torch(name):
    """A list or tuple operand is refused (it was made a tensor, guessing its dtype and shape)."""
    with pytest.raises(TypeError):
        LIST_OPERANDS[name](mg.ones(2))
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError):
        LIST_OPERANDS[name](torch.ones(2))
