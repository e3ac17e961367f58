"""The Tensor API: construction, dtype inference, attributes, conversions, repr, in-place rules, pickling."""

import pickle

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.conftest import rand64


# ---------------------------------------------------------------- construction and dtype inference
@pytest.mark.parametrize(
    "data, dtype, shape",
    [
        (3.5, mg.float32, ()),
        (3, mg.int64, ()),
        (True, mg.bool_, ()),
        ([1.0, 2.0], mg.float32, (2,)),
        ([1, 2.5], mg.float32, (2,)),
        ([[1, 2], [3, 4]], mg.int64, (2, 2)),
        ([True, False], mg.bool_, (2,)),
        ([], mg.float32, (0,)),
        (np.arange(3.0), mg.float64, (3,)),
        (np.arange(3, dtype=np.float32), mg.float32, (3,)),
        (np.arange(3, dtype=np.int32), mg.int32, (3,)),
        (np.ones(2, dtype=np.float16), mg.float16, (2,)),
        (np.arange(3, dtype=np.int16), mg.int16, (3,)),
        (np.arange(3, dtype=np.uint8), mg.uint8, (3,)),
        (np.float32(2.0), mg.float32, ()),
    ],
)
def test_dtype_inference(data, dtype, shape):
    t = mg.tensor(data)
    assert t.dtype == dtype and t.shape == shape and t.device == "cpu"


def test_dtype_argument_and_aliases():
    assert mg.tensor([1, 2], dtype=mg.float64).dtype == mg.float64
    assert mg.tensor([1.7, -1.7], dtype=mg.int64).tolist() == [1, -1]  # truncation, as in torch
    assert mg.tensor(1, dtype="float16").dtype == mg.float16
    assert mg.tensor(1, dtype=float).dtype == mg.float32
    assert mg.tensor(1.0, dtype=int).dtype == mg.int64
    assert mg.tensor(1, dtype=bool).dtype == mg.bool_
    assert (mg.double, mg.long, mg.half, mg.bool) == (mg.float64, mg.int64, mg.float16, mg.bool_)


@pytest.mark.parametrize(
    "data,dtype,message",
    [
        (1j, mg.float32, "must be real number, not complex"),
        ([2.0, 1 + 0j], mg.float64, "must be real number, not complex"),
        ([[1j]], mg.int64, "'complex' object cannot be interpreted as an integer"),
    ],
)
def test_a_python_complex_given_a_real_dtype_is_refused(data, dtype, message):
    # mg.tensor(1j, dtype=float32) gave 0.0 (NumPy drops the imaginary part); torch.tensor raises
    with pytest.raises(TypeError, match=message):
        mg.tensor(data, dtype=dtype)
    with pytest.raises(TypeError, match=message):
        mg.as_tensor(data, dtype=dtype)


def test_a_complex_given_bool_is_its_truth_as_in_torch():
    assert mg.tensor([1j, 0j], dtype=mg.bool_).tolist() == [True, False]


def test_tensor_copies_its_input_and_is_contiguous():
    arr = np.arange(6.0).reshape(2, 3)
    t = mg.tensor(arr)
    arr[0, 0] = 99
    assert t.tolist()[0][0] == 0.0
    t2 = mg.tensor(arr.T)
    assert t2.array.flags["C_CONTIGUOUS"]
    src = mg.tensor([1.0, 2.0], requires_grad=True)
    copy = mg.tensor(src)
    assert copy.is_leaf and not copy.requires_grad and copy.array is not src.array


@pytest.mark.filterwarnings("ignore:__array__ implementation doesn.t accept a copy keyword")
def test_tensor_from_tensors_and_torch():
    assert mg.tensor([mg.tensor(1.0), mg.tensor(2.0)]).tolist() == [1.0, 2.0]
    torch = pytest.importorskip("torch")
    t = mg.tensor(torch.tensor([1.0, 2.0]))
    assert t.dtype == mg.float32 and t.tolist() == [1.0, 2.0]


@pytest.mark.parametrize(
    "fn, exc, text",
    [
        (lambda: mg.tensor([[1, 2], [3]]), TypeError, "could not convert data of type list to a tensor"),
        (lambda: mg.tensor("abc"), TypeError, "unsupported data type"),
        (lambda: mg.tensor([1, 2], dtype="complex64"), TypeError, "unsupported dtype complex64"),
        (lambda: mg.tensor([1, 2], requires_grad=True), RuntimeError, "only Tensors of floating point"),
        (lambda: mg.tensor([True], requires_grad=True), RuntimeError, "(got dtype bool)"),
        (lambda: mg.tensor(1, device="gpu"), RuntimeError, "Expected one of cpu, cuda device type"),
    ],
)
def test_construction_errors(fn, exc, text):
    with pytest.raises(exc) as info:
        fn()
    assert text in str(info.value)


def test_only_floating_tensors_may_require_grad():
    with pytest.raises(RuntimeError, match=r"only Tensors of floating point and complex dtype can require gradients"):
        mg.tensor([1, 2]).requires_grad_()
    for dt in (mg.float16, mg.float32, mg.float64):
        assert mg.tensor([1, 2], dtype=dt).requires_grad_().requires_grad


# ---------------------------------------------------------------- attributes and methods
def test_attributes():
    x = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True, name="x")
    assert x.shape == (2, 3) and x.ndim == 2 and x.dim() == 2 and x.dtype == mg.float32
    assert x.device == mg.device("cpu") and str(x.device) == "cpu" and not x.is_cuda
    assert x.size() == (2, 3) and x.size(1) == 3 and x.size(-2) == 2 and x.numel() == 6 and len(x) == 2
    assert x.requires_grad and x.is_leaf and x.grad is None and x.grad_fn is None and x.name == "x"
    assert isinstance(x.array, np.ndarray)
    assert x.T.shape == (3, 2)
    y = x * 2
    assert not y.is_leaf and y.requires_grad and repr(y.grad_fn) == "<MulBackward>" and y.op == "mul"
    assert y.parents == (x,)
    with pytest.raises(IndexError, match=r"expected to be in range of \[-2, 1\], but got 2"):
        x.size(2)


def test_item_tolist_numpy():
    assert mg.tensor(5.0).item() == 5.0 and type(mg.tensor(5).item()) is int
    assert type(mg.tensor(True).item()) is bool
    assert mg.tensor([[7.0]]).item() == 7.0
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"):
        mg.tensor([1.0, 2.0]).item()
    assert mg.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]] and mg.tensor(2).tolist() == 2
    t = mg.tensor([1.0, 2.0])
    arr = t.numpy()
    arr[0] = 10.0
    assert t.tolist() == [10.0, 2.0]  # numpy() shares memory, as in torch
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        mg.tensor([1.0], requires_grad=True).numpy()


def test_python_number_protocols():
    assert float(mg.tensor([2.5])) == 2.5 and int(mg.tensor(3)) == 3 and bool(mg.tensor(1))
    assert [0, 1, 2][mg.tensor(1)] == 1
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        bool(mg.tensor([1, 2]))
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(mg.tensor(1.0))
    assert [r.tolist() for r in mg.tensor([[1, 2], [3, 4]])] == [[1, 2], [3, 4]]


def test_numpy_array_protocol():
    t = mg.tensor([1.0, 2.0])
    arr = np.asarray(t)
    assert isinstance(arr, np.ndarray) and arr.dtype == np.float32 and arr.tolist() == [1.0, 2.0]
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    np.testing.assert_allclose(np.exp(t), np.exp([1.0, 2.0]), rtol=1e-6)
    out = np.ones(2, dtype=np.float32) + t  # ndarray <op> Tensor defers to the tensor
    assert isinstance(out, mg.Tensor)


def test_detach_clone_requires_grad_():
    x = rand64(3, seed=1)
    y = x * 2
    d = y.detach()
    assert d.is_leaf and not d.requires_grad and d.array is y.array  # detach shares data
    c = x.clone()
    assert not c.is_leaf and repr(c.grad_fn) == "<CloneBackward>" and c.array is not x.array
    assert gradcheck(lambda t: t.clone() * t, (x,))
    leaf = mg.zeros(2)
    assert leaf.requires_grad_() is leaf and leaf.requires_grad
    leaf.requires_grad = False
    assert not leaf.requires_grad
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad_(False)


def test_to_and_cpu():
    x = mg.tensor([1.5, 2.5], requires_grad=True)
    assert x.to("cpu") is x and x.cpu() is x and x.to(mg.float32) is x
    d = x.to(mg.float64)
    assert d.dtype == mg.float64 and repr(d.grad_fn) == "<ToBackward>"
    (d * d).sum().backward()
    assert x.grad.dtype == mg.float32 and x.grad.tolist() == [3.0, 5.0]
    assert x.to(dtype=mg.int64).tolist() == [1, 2] and not x.to(mg.int64).requires_grad
    assert x.to(mg.zeros(1, dtype=mg.float16)).dtype == mg.float16
    assert x.detach().to("cpu", mg.float64, copy=True).array is not x.array
    assert (x.double().dtype, x.float().dtype, x.half().dtype, x.long().dtype, x.int().dtype, x.bool().dtype) == (
        mg.float64,
        mg.float32,
        mg.float16,
        mg.int64,
        mg.int32,
        mg.bool_,
    )


def test_cuda_without_cupy_is_a_clear_error():
    if mg.cuda_is_available():
        pytest.skip("CUDA is available here")
    for fn in (lambda: mg.ones(2).cuda(), lambda: mg.tensor([1.0], device="cuda"), lambda: mg.ones(2).to("cuda:0")):
        with pytest.raises(RuntimeError) as info:
            fn()
        msg = str(info.value)
        assert "CUDA" in msg and ("CuPy" in msg or "cuda" in msg)


def test_mixing_devices_names_both():
    fake = mg.ones(2)
    fake.device = mg.Device("cuda", 1)  # a second device, faked: the device check runs before any array work
    for op in (lambda a, b: a + b, lambda a, b: a * b, lambda a, b: mg.stack([a, b])):
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device.*cpu and cuda:1"):
            op(mg.ones(2), fake)


# ---------------------------------------------------------------- type promotion in ops
@pytest.mark.parametrize(
    "a, b, expected",
    [
        (mg.tensor([1, 2]), 1.5, mg.float32),
        (mg.tensor([1, 2], dtype=mg.int32), 1, mg.int32),
        (mg.tensor([1.0], dtype=mg.float16), 2.5, mg.float16),
        (mg.tensor([1.0], dtype=mg.float16), mg.tensor(1.0, dtype=mg.float64), mg.float16),
        (mg.tensor([1], dtype=mg.int32), mg.tensor(1.0, dtype=mg.float64), mg.float64),
        (mg.tensor([1], dtype=mg.int32), mg.tensor([1], dtype=mg.int64), mg.int64),
        (mg.tensor([1.0]), mg.tensor([1], dtype=mg.int64), mg.float32),
        (mg.tensor([True]), 1, mg.int64),
        (mg.tensor([True]), True, mg.bool_),
        (mg.tensor(1, dtype=mg.int32), mg.tensor([1], dtype=mg.int64), mg.int64),
        (mg.tensor([1], dtype=mg.int32), mg.tensor(1, dtype=mg.int64), mg.int32),
    ],
)
def test_type_promotion(a, b, expected):
    assert (a + b).dtype == expected
    assert (b + a).dtype == expected
    assert (a * b).dtype == expected


def test_int_division_gives_default_float():
    assert (mg.tensor([1, 2]) / 2).dtype == mg.float32
    assert (mg.tensor([1, 2]) / mg.tensor([2, 2])).tolist() == [0.5, 1.0]


# ---------------------------------------------------------------- in place
def test_inplace_rules():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    for fn in (lambda t: t.__iadd__(1), lambda t: t.zero_(), lambda t: t.mul_(2), lambda t: t.fill_(0)):
        with pytest.raises(
            RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"
        ):
            fn(x)
    with mg.no_grad():
        x += 1
        x *= 2
    assert x.tolist() == [4.0, 6.0] and x.requires_grad and x.is_leaf
    y = mg.tensor([1.0, 2.0])
    y += mg.tensor([1.0, 1.0])
    y -= 0.5
    assert y.tolist() == [1.5, 2.5]
    assert y.zero_() is y and y.tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError, match=r"output with shape \[2\] doesn't match the broadcast shape \[2, 2\]"):
        y += mg.ones(2, 2)


def test_inplace_refuses_to_downcast_like_torch():
    i = mg.tensor([1, 2])
    with pytest.raises(RuntimeError, match="result type float32 can't be cast to the desired output type int64"):
        i += 0.5


def test_inplace_on_leaf_that_requires_grad_is_refused():
    w = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        w += 1


# ---------------------------------------------------------------- repr
@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: mg.tensor([1.0, 2.0], requires_grad=True), "tensor([1., 2.], requires_grad=True)"),
        (lambda: mg.tensor([1.0, 2.0], requires_grad=True) * 2, "tensor([2., 4.], grad_fn=<MulBackward>)"),
        (lambda: mg.tensor([1.0], name="w"), "tensor([1.], name='w')"),
        (lambda: mg.tensor(3.5), "tensor(3.5000)"),
        (lambda: mg.tensor([1, 2]), "tensor([1, 2])"),
        (lambda: mg.tensor([1, 2], dtype=mg.int32), "tensor([1, 2], dtype=int32)"),
        (lambda: mg.tensor([0.5], dtype=mg.float64), "tensor([0.5000], dtype=float64)"),
        (lambda: mg.tensor([True, False]), "tensor([ True, False])"),
        (lambda: mg.tensor([True]), "tensor([True])"),
        (lambda: mg.tensor([1e-5, -2.0]), "tensor([ 1.0000e-05, -2.0000e+00])"),
        (lambda: mg.tensor([1.5, float("nan"), -2.0]), "tensor([ 1.5000,     nan, -2.0000])"),
        (lambda: mg.tensor([1.0, float("inf")]), "tensor([1., inf])"),
        (lambda: mg.tensor([[1.0, -2.5], [3.0, 4.0]]), "tensor([[ 1.0000, -2.5000],\n        [ 3.0000,  4.0000]])"),
        (lambda: mg.zeros(2, 0), "tensor([], size=(2, 0))"),
    ],
)
def test_repr_like_torch(make, expected):
    assert repr(make()) == expected


def test_repr_matches_torch_for_random_values():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    for arr in (
        rng.standard_normal((3, 4)),
        rng.standard_normal(5) * 1e5,
        np.arange(5.0) * 1e-6,
        rng.integers(-9, 9, 6),
    ):
        assert repr(mg.tensor(arr, dtype=mg.float32)) == repr(torch.tensor(arr, dtype=torch.float32))


def test_long_tensors_are_summarised():
    text = repr(mg.arange(5000))
    assert "..." in text and len(text) < 200


# ---------------------------------------------------------------- pickling
def test_pickle_round_trip():
    x = mg.tensor([[1.0, 2.0]], dtype=mg.float64, requires_grad=True, name="w")
    back = pickle.loads(pickle.dumps(x))
    assert back.tolist() == x.tolist() and back.dtype == mg.float64 and back.requires_grad and back.name == "w"
    assert back.is_leaf and back.device == "cpu"
    y = pickle.loads(pickle.dumps(mg.tensor([1, 2], dtype=mg.int32)))
    assert y.dtype == mg.int32 and not y.requires_grad


def test_copy_takes_tensors_arrays_lists_and_scalars():
    t = mg.zeros(2, 2)
    t.copy_(mg.ones(2, 2))
    assert t.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    t.copy_(np.array([2.0, 3.0]))
    assert t.tolist() == [[2.0, 3.0], [2.0, 3.0]]
    t.copy_([[4.0, 5.0], [6.0, 7.0]])
    assert t.tolist() == [[4.0, 5.0], [6.0, 7.0]]
    t.copy_(0.5)
    assert t.tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_is_freed_after_a_backward_without_retain_graph():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    loss = y.sum()
    assert not y.is_freed and not loss.is_freed
    loss.backward(retain_graph=True)
    assert not y.is_freed
    loss.backward()
    # mul saved its operands, so its node is freed; sum saved nothing and stays usable, as in PyTorch.
    assert y.is_freed and not loss.is_freed and not x.is_freed
