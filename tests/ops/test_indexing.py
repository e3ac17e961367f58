"""Indexing: t[key] against NumPy, gradients (repeated indices accumulate), t[key] = v, gather and friends."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck
from tests.conftest import rand64

A = np.arange(60.0).reshape(3, 4, 5)
MASK = A[:, :, 0] % 3 == 0

KEYS = {
    "int": 1,
    "neg_int": -1,
    "ints": (2, -3, 4),
    "slice": slice(1, None),
    "slice_step": (slice(None), slice(None, None, 2)),
    "slice_out_of_range": slice(1, 100),
    "none": (None, 1, None),
    "ellipsis": (Ellipsis, 2),
    "ellipsis_none": (0, Ellipsis, None),
    "list": [0, 2, 2],
    "nested_list": [[0, 1], [2, 0]],
    "neg_list": [-1, 0],
    "empty_list": [],
    "array_pair": ([0, 2, 1], [3, 3, 0]),
    "array_slice_array": ([0, 2], slice(None), [4, 1]),
    "broadcast_arrays": (np.array([[0], [2]]), np.array([1, 3, 3])),
    "array_after_slice": (slice(None), [1, 1, 0]),
    "mask_full_dims": MASK,
    "mask_then_int": (MASK, 2),
    "mask_1d": (slice(None), np.array([True, False, True, True])),
    "mask_and_array": (np.array([True, False, True]), slice(1, 3), [0, 4]),
    "bool_scalar": True,
    "int_and_array_and_none": (1, None, [0, 3]),
    "int_slice_array": (1, slice(1, None), [4, 4]),
}

# PyTorch applies integer indices before array indices; NumPy does not when a slice or None separates them.
TORCH_EXPECTED = {
    "int_and_array_and_none": A[1][None, [0, 3]],
    "int_slice_array": A[1][1:, [4, 4]],
}


def _as_minigrad_key(key):
    """Use minigrad tensors for NumPy index arrays, to check that tensors work as indices."""
    if isinstance(key, tuple):
        return tuple(_as_minigrad_key(k) for k in key)
    if isinstance(key, np.ndarray):
        return mg.tensor(key)
    return key


@pytest.mark.parametrize("name", list(KEYS))
def test_forward_matches_numpy(name):
    key = KEYS[name]
    expected = TORCH_EXPECTED[name] if name in TORCH_EXPECTED else A[key]
    x = mg.tensor(A)
    np.testing.assert_array_equal(x[key].numpy(), expected)
    np.testing.assert_array_equal(x[_as_minigrad_key(key)].numpy(), expected)


@pytest.mark.parametrize("name", list(KEYS))
def test_gradcheck(name):
    key = KEYS[name]
    x = rand64(3, 4, 5, seed=0)
    assert gradcheck(lambda t: t[_as_minigrad_key(key)] * 2.0, (x,))


@pytest.mark.parametrize("name", ["list", "array_pair", "mask_then_int", "slice_step"])
def test_second_derivative(name):
    key = KEYS[name]
    assert gradgradcheck(lambda t: t[key] ** 2, (rand64(3, 4, 5, seed=0),))


def test_repeated_indices_accumulate():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x[[0, 0, 1]].sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 1.0, 0.0])

    y = mg.tensor(np.ones((2, 3)), requires_grad=True)
    w = mg.tensor([[1.0, 2.0, 3.0, 4.0]], dtype=mg.float64)
    (y[[1, 1, 1, 0], [2, 2, 0, 2]] * w).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [[0, 0, 4], [3, 0, 3]])


def test_index_on_non_contiguous_input():
    x = rand64(4, 3, seed=2)
    assert gradcheck(lambda t: t.T[[0, 2, 2], 1:], (x,))
    assert gradcheck(lambda t: t.T[:, ::2][t.array.T[:, ::2] > 0], (x,))


def test_grad_fn_names_follow_torch():
    x = mg.ones(3, 4, requires_grad=True)
    assert repr(x[0].grad_fn) == "<SelectBackward>"
    assert repr(x[1:].grad_fn) == "<SliceBackward>"
    assert repr(x[[0, 1]].grad_fn) == "<IndexBackward>"


def test_basic_index_is_a_view_like_torch():
    x = mg.zeros(2, 3)
    x[1][2] = 5.0
    assert x[1, 2].item() == 5.0


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "key, exc, text",
    [
        (5, IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
        ((0, -6), IndexError, "index -6 is out of bounds for dimension 1 with size 4"),
        ([0, 5], IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
        ((slice(None), mg.tensor([1, 7])), IndexError, "index 7 is out of bounds for dimension 1 with size 4"),
        ((Ellipsis, 9), IndexError, "index 9 is out of bounds for dimension 2 with size 5"),
        ((0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
        ((Ellipsis, Ellipsis), IndexError, "an index can only have a single ellipsis"),
        (1.0, IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables"),
        ("a", IndexError, "valid indices (got str)"),
        (mg.tensor([0.0, 1.0]), IndexError, "tensors used as indices must be long, int, byte or bool tensors"),
        (slice(None, None, -1), ValueError, "step must be greater than zero"),
        (np.ones((3, 3), dtype=bool), IndexError, "The shape of the mask [3, 3] at index 1 does not match"),
    ],
)
def test_index_errors(key, exc, text):
    with pytest.raises(exc) as info:
        mg.zeros(3, 4, 5)[key]
    assert text in str(info.value)


# ---------------------------------------------------------------- assignment
def test_setitem_values():
    x = mg.zeros(3, 4)
    x[0] = 1.0
    x[1, [0, 2]] = mg.tensor([5.0, 6.0])
    x[x > 5] = -1.0
    x[2, 1:3] = np.array([7.0, 8.0])
    x[..., 3] = mg.tensor([[9.0], [9.0], [9.0]]).squeeze(1)
    np.testing.assert_array_equal(x.numpy(), [[1, 1, 1, 9], [5, 0, -1, 9], [0, 7, 8, 9]])
    x[2] = [0.5, 1.5, 2.5, 3.5]
    x[:, 0] = mg.tensor([4, 4, 4])  # cast to the target's dtype, as in torch
    np.testing.assert_array_equal(x.numpy()[:, 0], [4, 4, 4])
    np.testing.assert_array_equal(x.numpy()[2], [4, 1.5, 2.5, 3.5])


def test_indexing_a_0d_tensor():
    x = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
    assert x[None].shape == (1,) and x[...].shape == () and x[()].item() == 2.0
    assert gradcheck(lambda t: t[None, None] * t, (x,))
    with pytest.raises(IndexError, match=r"invalid index of a 0-dim tensor. Use `tensor.item\(\)`"):
        x[0]


def test_setitem_on_leaf_that_requires_grad_is_a_torch_error():
    x = mg.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        x[0] = 1.0
    with mg.no_grad():
        x[0] = 1.0
    np.testing.assert_array_equal(x.detach().numpy(), [1, 0, 0])


def test_setitem_errors():
    x = mg.zeros(3, 4)
    with pytest.raises(
        RuntimeError, match=r"value tensor of shape \[3\] cannot be broadcast to indexing result of shape \[4\]"
    ):
        x[0] = mg.ones(3)
    with pytest.raises(RuntimeError, match="clone"):
        mg.ones(3).expand(2, 3)[0] = 2.0
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        x[3] = 1.0


@pytest.mark.parametrize(
    "value,words",
    [
        (None, "can't assign a NoneType to a FloatTensor"),
        ("a", "can't assign a str to a FloatTensor"),
        (object(), "can't assign a object to a FloatTensor"),
        ([None, 1.0, 2.0, 3.0], "can't assign a list holding non-numbers to a FloatTensor"),
        (("a", "b", "c", "d"), "can't assign a tuple holding non-numbers to a FloatTensor"),
    ],
)
@pytest.mark.parametrize("in_graph", [False, True])
def test_setitem_refuses_a_value_that_is_not_a_number(value, words, in_graph):
    # u[0] = None filled the row with NaN (NumPy's reading of None); torch refuses it
    x = mg.zeros(3, 4, requires_grad=in_graph) * 1
    with pytest.raises(TypeError, match=words):
        x[0] = value
    np.testing.assert_array_equal(x.detach().numpy(), np.zeros((3, 4)))


# ---------------------------------------------------------------- gather, index_select, take_along_dim, masked_fill
def test_gather_values_and_grad():
    x = rand64(3, 4, seed=4)
    idx = mg.tensor([[0, 0], [3, 1], [2, 2]])
    np.testing.assert_array_equal(x.gather(1, idx).detach().numpy(), np.take_along_axis(x.array, idx.numpy(), 1))
    assert gradcheck(lambda t: t.gather(1, idx), (x,))
    idx0 = mg.tensor([[2, 0, 2, 2]])
    assert gradcheck(lambda t: mg.gather(t, -2, idx0), (x,))
    x.gather(1, idx).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[2, 0, 0, 0], [0, 1, 0, 1], [0, 0, 2, 0]])


def test_index_select_and_take_along_dim():
    x = rand64(3, 4, seed=5)
    idx = mg.tensor([3, 0, 3])
    np.testing.assert_array_equal(x.index_select(1, idx).detach().numpy(), x.array[:, [3, 0, 3]])
    assert gradcheck(lambda t: t.index_select(-1, idx), (x,))
    order = mg.tensor(np.argsort(x.array, axis=1))
    np.testing.assert_array_equal(mg.take_along_dim(x, order, 1).detach().numpy(), np.sort(x.array, axis=1))
    assert gradcheck(lambda t: mg.take_along_dim(t, order, 1), (x,))
    assert gradcheck(lambda t: mg.take_along_dim(t, mg.tensor([[1], [0], [3]]), dim=1), (x,))
    assert gradcheck(lambda t: mg.take_along_dim(t, mg.tensor([11, 0, 11])), (x,))


def test_masked_fill():
    x = rand64(2, 3, seed=6)
    mask = mg.tensor([True, False, True])
    out = x.masked_fill(mask, -1.0)
    np.testing.assert_array_equal(out.detach().numpy(), np.where([True, False, True], -1.0, x.array))
    assert gradcheck(lambda t: t.masked_fill(mask, 0.5) * t, (x,))
    value = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
    assert gradcheck(lambda t, v: t.masked_fill(mask, v) * 3.0, (x, value))
    big = mg.zeros(3).masked_fill(mg.ones(2, 3, dtype=mg.bool), 1.0)
    assert big.shape == (2, 3)
    y = mg.zeros(2, 3)
    y.masked_fill_(mask, 4.0)
    np.testing.assert_array_equal(y.numpy(), [[4, 0, 4], [4, 0, 4]])


@pytest.mark.parametrize(
    "fn, exc, text",
    [
        (lambda x: x.gather(1, mg.tensor([0, 1])), RuntimeError, "same number of dimensions as input"),
        (lambda x: x.gather(1, mg.tensor([[0.0]])), RuntimeError, "Expected dtype int32/int64 for index"),
        (lambda x: x.gather(0, mg.tensor([[5]])), RuntimeError, "index 5 is out of bounds for dimension 0 with size 3"),
        (lambda x: x.gather(0, mg.zeros(1, 5, dtype=mg.int64)), RuntimeError, "Size does not match at dimension 1"),
        (lambda x: x.index_select(0, mg.tensor([[0]])), IndexError, "Index is supposed to be a vector"),
        (lambda x: x.index_select(1, mg.tensor([4])), RuntimeError, "INDICES element is out of DATA bounds, id=4"),
        (lambda x: x[0].index_select(0, mg.tensor([-1])), IndexError, "index out of range in self"),
        (lambda x: x.masked_fill(mg.ones(4), 1.0), RuntimeError, "only supports boolean masks"),
        (lambda x: x.masked_fill(mg.ones(4, dtype=mg.bool), mg.ones(2)), RuntimeError, "0-dimensional value tensor"),
        (lambda x: x.masked_fill(mg.ones(3, dtype=mg.bool), 1.0), RuntimeError, "does not broadcast"),
    ],
)
def test_gather_family_errors(fn, exc, text):
    with pytest.raises(exc) as info:
        fn(mg.zeros(3, 4))
    assert text in str(info.value)


# ---------------------------------------------------------------- hypothesis
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_random_integer_indices_accumulate(data):
    n = data.draw(st.integers(1, 5))
    idx = data.draw(st.lists(st.integers(-n, n - 1), min_size=0, max_size=8))
    weights = np.arange(1.0, len(idx) + 1)
    x = mg.zeros(n, dtype=mg.float64, requires_grad=True)
    (x[idx] * mg.tensor(weights)).sum().backward()
    expected = np.zeros(n)
    for i, w in zip(idx, weights):
        expected[i] += w
    np.testing.assert_allclose(x.grad.numpy(), expected)


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_random_basic_keys_match_numpy(data):
    shape = (3, 4, 2)
    parts = []
    for n in shape:
        kind = data.draw(st.sampled_from(["int", "slice", "none"]))
        if kind == "int":
            parts.append(data.draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            parts.append(
                slice(data.draw(st.integers(-n, n)), data.draw(st.integers(-n, n)), data.draw(st.integers(1, 3)))
            )
        else:
            parts.extend([None, slice(None)])
    key = tuple(parts)
    x = rand64(*shape, seed=7)
    np.testing.assert_array_equal(x[key].detach().numpy(), x.array[key])
    assert gradcheck(lambda t: t[key], (x,))


# ---------------------------------------------------------------- PyTorch parity
def test_torch_parity_index_grads():
    torch = pytest.importorskip("torch")
    keys = [
        ([0, 0, 2, 1],),
        (slice(None), [3, 3, 0]),
        ([[0, 1], [1, 1]], [2, 2]),
        (MASK,),
        (1, slice(None, None, 2), [4, 4]),
        (1, slice(1, None), [4, 4]),
        (None, [0, 1], None, 1),
    ]
    for key in keys:
        x, tx = mg.tensor(A, requires_grad=True), torch.tensor(A, requires_grad=True)
        tkey = tuple(torch.tensor(k) if isinstance(k, (list, np.ndarray)) else k for k in key)
        y, ty = x[key], tx[tkey]
        w = np.random.default_rng(0).standard_normal(y.shape)
        (y * mg.tensor(w)).sum().backward()
        (ty * torch.tensor(w)).sum().backward()
        np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy())
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())
    x, tx = mg.tensor(A, requires_grad=True), torch.tensor(A, requires_grad=True)
    idx = np.random.default_rng(1).integers(0, 4, (3, 6, 5))
    (x.gather(1, mg.tensor(idx)) ** 2).sum().backward()
    (tx.gather(1, torch.tensor(idx)) ** 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())


@pytest.mark.cuda
def test_cuda_index_backward_accumulates():
    x = mg.tensor([1.0, 2.0, 3.0], device="cuda", requires_grad=True)
    x[[0, 0, 1]].sum().backward()
    np.testing.assert_array_equal(x.grad.cpu().numpy(), [2.0, 1.0, 0.0])


@pytest.mark.parametrize(
    "rows",
    [
        [0, 1, 2],  # arange rows: each element once
        [1, 2],
        [-3, 0, 2],  # -3 is row 0 again: accumulates
        [2, 1, 1],  # repeats: accumulates
        [],
    ],
)
def test_index_backward_with_unique_or_repeated_rows(rows):
    x = mg.tensor(A[:, :, 0].copy(), requires_grad=True)
    cols = [3] * len(rows)
    x[mg.tensor(rows, dtype=mg.int64), mg.tensor(cols, dtype=mg.int64)].sum().backward()
    expected = np.zeros_like(A[:, :, 0])
    np.add.at(expected, (np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64)), 1.0)
    np.testing.assert_array_equal(x.grad.numpy(), expected)
