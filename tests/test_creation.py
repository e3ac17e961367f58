"""Factories: zeros, ones, full, empty, arange, linspace, eye, rand, randn, randint, *_like, manual_seed."""

import numpy as np
import pytest

import minigrad as mg


@pytest.mark.parametrize(
    "make, shape, dtype, values",
    [
        (lambda: mg.zeros(2, 3), (2, 3), mg.float32, 0.0),
        (lambda: mg.zeros((2, 3)), (2, 3), mg.float32, 0.0),
        (lambda: mg.zeros([4], dtype=mg.int32), (4,), mg.int32, 0),
        (lambda: mg.zeros(()), (), mg.float32, 0.0),
        (lambda: mg.ones(3, dtype=mg.float64), (3,), mg.float64, 1.0),
        (lambda: mg.ones(2, 2, dtype=mg.bool_), (2, 2), mg.bool_, True),
        (lambda: mg.empty(2, 0), (2, 0), mg.float32, None),
        (lambda: mg.full((2,), 1.5), (2,), mg.float32, 1.5),
        (lambda: mg.full([3], 7), (3,), mg.int64, 7),
        (lambda: mg.full([1, 2], True), (1, 2), mg.bool_, True),
        (lambda: mg.full((2,), 3, dtype=mg.float16), (2,), mg.float16, 3.0),
    ],
)
def test_constant_factories(make, shape, dtype, values):
    t = make()
    assert t.shape == shape and t.dtype == dtype and t.is_leaf and not t.requires_grad and t.device == "cpu"
    if values is not None:
        assert np.all(t.numpy() == values)


def test_arange_like_torch():
    assert mg.arange(5).tolist() == [0, 1, 2, 3, 4] and mg.arange(5).dtype == mg.int64
    assert mg.arange(1, 4).tolist() == [1, 2, 3]
    assert mg.arange(10, 0, -3).tolist() == [10, 7, 4, 1]
    assert mg.arange(0, 1, 0.25).dtype == mg.float32 and mg.arange(0, 1, 0.25).tolist() == [0, 0.25, 0.5, 0.75]
    assert mg.arange(1.0, 4).shape == (3,)
    assert mg.arange(3, dtype=mg.float64).dtype == mg.float64
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        mg.arange(0, 10, 0)
    with pytest.raises(RuntimeError, match="inconsistent with step sign"):
        mg.arange(0, 10, -1)


def test_arange_lengths_match_torch():
    torch = pytest.importorskip("torch")
    for args in [(0, 1, 0.1), (0.5, 3.2, 0.3), (-1, 1, 0.2), (5,), (2, 11, 3)]:
        assert mg.arange(*args).shape == tuple(torch.arange(*args).shape), args
        np.testing.assert_allclose(mg.arange(*args).numpy(), torch.arange(*args).numpy(), rtol=1e-6, atol=1e-6)


def test_linspace_and_eye():
    np.testing.assert_allclose(mg.linspace(0, 1, 5).numpy(), [0, 0.25, 0.5, 0.75, 1])
    assert mg.linspace(0, 10, 3).dtype == mg.float32 and mg.linspace(0, 1, 3, dtype=mg.float64).dtype == mg.float64
    assert mg.linspace(0, 1, 0).shape == (0,)
    with pytest.raises(RuntimeError, match="number of steps must be non-negative"):
        mg.linspace(0, 1, -1)
    np.testing.assert_array_equal(mg.eye(3).numpy(), np.eye(3))
    assert mg.eye(3, 2, dtype=mg.int64).tolist() == [[1, 0], [0, 1], [0, 0]]


def test_random_factories():
    u = mg.rand(1000)
    assert u.dtype == mg.float32 and 0 <= u.numpy().min() and u.numpy().max() < 1
    n = mg.randn(4000, dtype=mg.float64)
    assert n.dtype == mg.float64 and abs(n.numpy().mean()) < 0.1 and abs(n.numpy().std() - 1) < 0.1
    r = mg.randint(3, 5, (2, 2))
    assert r.dtype == mg.int64 and r.shape == (2, 2) and set(np.unique(r.numpy())) <= {3, 4}
    assert mg.randint(5, (3,)).shape == (3,) and mg.randint(0, 5, [3]).shape == (3,)
    assert mg.rand(2, 2, requires_grad=True).requires_grad


@pytest.mark.parametrize(
    "fn, exc, text",
    [
        (lambda: mg.zeros(2, -1), RuntimeError, "negative dimension -1"),
        (lambda: mg.zeros(2.5), TypeError, "zeros(): argument 'size' (position 1) must be tuple of ints, not float"),
        (lambda: mg.ones(2, dtype=mg.int64, requires_grad=True), RuntimeError, "only Tensors of floating point"),
        (lambda: mg.rand(2, dtype=mg.int64), RuntimeError, "rand(): expected a floating point dtype, got int64"),
        (lambda: mg.randn(2, dtype=mg.bool_), RuntimeError, "randn(): expected a floating point dtype, got bool"),
        (lambda: mg.randint(5, 3, (3,)), RuntimeError, "expects 'from' to be less than 'to'"),
        (lambda: mg.zeros(2, dtype="complex64"), TypeError, "unsupported dtype complex64"),
    ],
)
def test_factory_errors(fn, exc, text):
    with pytest.raises(exc) as info:
        fn()
    assert text in str(info.value)


def test_like_factories_follow_the_template():
    t = mg.ones(2, 3, dtype=mg.float64)
    for fn in (mg.zeros_like, mg.ones_like, mg.empty_like, mg.rand_like, mg.randn_like):
        out = fn(t)
        assert out.shape == (2, 3) and out.dtype == mg.float64 and out.device == t.device
        assert fn(t, dtype=mg.float32).dtype == mg.float32
    assert mg.zeros_like(t, dtype=mg.bool_).dtype == mg.bool_
    assert mg.full_like(t, 7).tolist() == [[7.0] * 3] * 2
    assert mg.ones_like(t, requires_grad=True).requires_grad
    r = mg.randint_like(mg.ones(4, dtype=mg.int32), 3, 9)
    assert r.dtype == mg.int32 and r.numpy().min() >= 3 and r.numpy().max() < 9


def test_manual_seed_reproducibility():
    mg.manual_seed(123)
    a = (mg.rand(5).tolist(), mg.randn(3).tolist(), mg.randint(0, 100, (4,)).tolist())
    mg.manual_seed(123)
    b = (mg.rand(5).tolist(), mg.randn(3).tolist(), mg.randint(0, 100, (4,)).tolist())
    assert a == b
    mg.manual_seed(124)
    assert mg.rand(5).tolist() != a[0]


# Bad arguments get PyTorch's error class and words, naming the factory and the argument (NumPy's
# AxisError, AttributeError or a silent wrap-around before).
@pytest.mark.parametrize(
    "fn, exc, text",
    [
        (
            lambda: mg.zeros(2, "a"),
            TypeError,
            "zeros(): argument 'size' (position 1) must be tuple of ints, but found element of type str at pos 1",
        ),
        (
            lambda: mg.ones([2, 3.0]),
            TypeError,
            "ones(): argument 'size' (position 1) must be tuple of ints, but found element of type float at pos 1",
        ),
        (lambda: mg.empty(True), TypeError, "empty(): argument 'size' (position 1) must be tuple of ints, not bool"),
        (lambda: mg.zeros(2**63), TypeError, "(9223372036854775808) does not fit in int64"),
        (lambda: mg.zeros(2, requires_grad=1), TypeError, "zeros(): argument 'requires_grad' must be bool, not int"),
        (lambda: mg.rand(2, requires_grad="yes"), TypeError, "rand(): argument 'requires_grad' must be bool, not str"),
        (lambda: mg.full(2, 1.0), TypeError, "full(): argument 'size' (position 1) must be tuple of ints, not int"),
        (lambda: mg.full((2,), [1]), TypeError, "full(): argument 'fill_value' (position 2) must be Number, not list"),
        (lambda: mg.full((2,), 2**63), RuntimeError, "value cannot be converted to type int64 without overflow"),
        (
            lambda: mg.full((2,), 2**40, dtype=mg.int32),
            RuntimeError,
            "value cannot be converted to type int32 without overflow",
        ),
        (lambda: mg.full((2,), float("nan"), dtype=mg.int64), RuntimeError, "value cannot be converted to type int64"),
        (lambda: mg.full((2,), 1e6, dtype=mg.float16), RuntimeError, "value cannot be converted to type float16"),
        (lambda: mg.arange("a"), TypeError, "arange(): argument 'end' (position 1) must be Number, not str"),
        (lambda: mg.arange([1, 2]), TypeError, "arange(): argument 'end' (position 1) must be Number, not list"),
        (
            lambda: mg.arange(1, "b", 2),
            TypeError,
            "arange(): argument 'end' (position 2) must be Number, not str",
        ),
        (
            lambda: mg.arange(1, 5, step=None),
            TypeError,
            "arange(): argument 'step' (position 3) must be Number, not NoneType",
        ),
        (lambda: mg.arange(2**63), RuntimeError, "value cannot be converted to type int64 without overflow"),
        (lambda: mg.arange(0, float("nan")), RuntimeError, "unsupported range: 0 -> nan"),
        (lambda: mg.arange(0, float("inf")), RuntimeError, "unsupported range: 0 -> inf"),
        (lambda: mg.eye(2.5), TypeError, "eye(): argument 'n' (position 1) must be int, not float"),
        (lambda: mg.eye(True), TypeError, "eye(): argument 'n' (position 1) must be int, not bool"),
        (lambda: mg.eye(2, 3.0), TypeError, "eye(): argument 'm' (position 2) must be int, not float"),
        (lambda: mg.eye(-1), RuntimeError, "n must be greater or equal to 0, got -1"),
        (lambda: mg.eye(2, -1), RuntimeError, "m must be greater or equal to 0, got -1"),
        (
            lambda: mg.eye(2**63),
            ValueError,
            "eye(): argument 'n' (position 1) is 9223372036854775808, which does not fit in int64",
        ),
        (lambda: mg.linspace(0, 1, 2.5), TypeError, "linspace(): argument 'steps' (position 3) must be int, not float"),
        (
            lambda: mg.linspace([0], 1, 3),
            TypeError,
            "linspace(): argument 'start' (position 1) must be Number, not list",
        ),
        (lambda: mg.linspace(0, "a", 3), TypeError, "linspace(): argument 'end' (position 2) must be Number, not str"),
        (lambda: mg.randint(2.5, (2,)), TypeError, "randint(): argument 'high' (position 1) must be int, not float"),
        (lambda: mg.randint(5, 2), TypeError, "randint(): argument 'size' (position 2) must be tuple of ints, not int"),
        (
            lambda: mg.randint(0, 5, 3),
            TypeError,
            "randint(): argument 'size' (position 3) must be tuple of ints, not int",
        ),
        (lambda: mg.randint(5), TypeError, "randint(): missing the argument 'size'"),
        (lambda: mg.randint(0, 2**63, (2,)), ValueError, "argument 'high' (position 2) is 9223372036854775808"),
        (lambda: mg.randint(0, 5, (2,), dtype=mg.bool_), RuntimeError, "to - 1 is out of bounds for bool"),
        (lambda: mg.randint(-1, 1, (2,), dtype=mg.bool_), RuntimeError, "from is out of bounds for bool"),
        (lambda: mg.randperm(2.5), TypeError, "randperm(): argument 'n' (position 1) must be int, not float"),
        (lambda: mg.randperm(None), TypeError, "randperm(): argument 'n' (position 1) must be int, not NoneType"),
        (lambda: mg.randperm(2050, dtype=mg.float16), RuntimeError, "n cannot be greater than 2049 for float16"),
        (lambda: mg.zeros_like(3), TypeError, "zeros_like(): argument 'input' (position 1) must be Tensor, not int"),
        (
            lambda: mg.ones_like([1, 2]),
            TypeError,
            "ones_like(): argument 'input' (position 1) must be Tensor, not list",
        ),
        (
            lambda: mg.full_like(None, 1),
            TypeError,
            "full_like(): argument 'input' (position 1) must be Tensor, not NoneType",
        ),
        (
            lambda: mg.zeros_like(mg.ones(2), requires_grad=2),
            TypeError,
            "zeros_like(): argument 'requires_grad' must be bool, not int",
        ),
        (lambda: mg.full_like(mg.ones(2, dtype=mg.int64), 2**63), RuntimeError, "cannot be converted to type int64"),
    ],
)
def test_bad_arguments_are_named_as_torch_names_them(fn, exc, text):
    with pytest.raises(exc) as info:
        fn()
    assert text in str(info.value)


def test_numbers_a_factory_takes_as_torch_does():
    # a 0-d tensor or a NumPy scalar where a number is expected; a bool is a number but not an int
    assert mg.arange(mg.tensor(3)).tolist() == [0, 1, 2] and mg.arange(mg.tensor(3)).dtype == mg.int64
    assert mg.arange(True).tolist() == [0]
    assert mg.eye(np.int64(2)).shape == (2, 2) and mg.eye(mg.tensor(2)).shape == (2, 2)
    assert mg.linspace(mg.tensor(0.0), 1, np.int64(3)).tolist() == [0.0, 0.5, 1.0]
    assert mg.full((2,), mg.tensor(1)).dtype == mg.int64 and mg.full((2,), np.float64(1.5)).tolist() == [1.5, 1.5]
    assert mg.full((2,), 2**63, dtype=mg.float32).dtype == mg.float32  # past int64, but a float holds it
    assert mg.zeros(np.int64(2), mg.tensor(3)).shape == (2, 3)
    assert mg.randint(mg.tensor(3), [4]).shape == (4,) and mg.randperm(np.int64(3)).shape == (3,)


def test_requires_grad_must_be_a_bool():
    t = mg.zeros(2)
    with pytest.raises(
        TypeError, match=r"requires_grad_\(\): argument 'requires_grad' \(position 1\) must be bool, not int"
    ):
        t.requires_grad_(1)
    with pytest.raises(RuntimeError, match="requires_grad must be a bool"):
        t.requires_grad = "yes"
    with pytest.raises(TypeError, match=r"tensor\(\): argument 'requires_grad' must be bool, not int"):
        mg.tensor(1.0, requires_grad=1)
    with pytest.raises(TypeError, match="must be bool, not numpy.bool"):  # NumPy's bool is not one, as in PyTorch
        mg.tensor(1.0, requires_grad=np.True_)
    assert mg.zeros(2, requires_grad=None).requires_grad is False  # a factory's None is its default
    assert not t.requires_grad_(False).requires_grad


def test_arange_and_linspace_count_and_space_as_torch():
    assert mg.arange(0.5, dtype=mg.int64).tolist() == []  # int64 truncates the bounds first
    assert mg.arange(0.5, 5, dtype=mg.int64).tolist() == [0, 1, 2, 3, 4]
    assert mg.arange(-3.7, 4.2, 1.3, dtype=mg.int64).tolist() == [-3, -2, -1, 0, 1, 2, 3]
    assert mg.arange(-1, 0, float("inf")).tolist() == []  # NumPy gives [-1.0]
    with pytest.raises(RuntimeError, match="inconsistent with step sign"):
        mg.arange(2.5, 2, dtype=mg.int64)  # the sign is checked on the bounds as given
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        mg.arange(0, 10, 0.5, dtype=mg.int64)  # the step truncates to 0
    assert mg.linspace(-2.5, 7, 4, dtype=mg.int32).tolist() == [-2, 1, 4, 7]  # the ends as ints, then spaced
    assert mg.linspace(0, 1, 3, dtype=mg.int64).tolist() == [0, 0, 1]
    ends = mg.linspace(float("inf"), 1, 3).tolist()
    assert np.isnan(ends[0]) and ends[1] == float("inf") and np.isnan(ends[2])  # NumPy gives [nan, nan, 1]
    with pytest.raises(RuntimeError, match="value cannot be converted to type float16 without overflow"):
        mg.linspace(0, 1e6, 2, dtype=mg.float16)
    with pytest.raises(RuntimeError, match="linspace only supports 0-dimensional start and end tensors"):
        mg.linspace(mg.zeros(2), 1, 3)


@pytest.mark.parametrize(
    "data, dtype, exc, text",
    [
        (2**63, None, ValueError, "9223372036854775808 does not fit in int64"),  # NumPy wrapped it to -2**63
        ([1, 2**63], None, ValueError, "does not fit in int64"),  # NumPy made a float tensor of it
        ([[1], [2**64]], None, ValueError, "does not fit in int64"),
        (-(2**63) - 1, None, ValueError, "does not fit in int64"),
        ([1.5, -(2**63) - 1], mg.int64, ValueError, "does not fit in int64"),
        (float("nan"), mg.int64, RuntimeError, "value cannot be converted to type int64 without overflow"),
        (2**40, mg.int32, RuntimeError, "value cannot be converted to type int32 without overflow"),
        ([1.5, float("inf")], mg.int32, RuntimeError, "value cannot be converted to type int32 without overflow"),
        ("a", mg.float32, TypeError, "unsupported data type <U1 for a tensor"),
    ],
)
def test_tensor_refuses_numbers_its_dtype_cannot_hold(data, dtype, exc, text):
    with pytest.raises(exc, match=text):
        mg.tensor(data, dtype=dtype)


def test_tensor_takes_wide_ints_as_floats_where_torch_does():
    assert mg.tensor([1, 2**63], dtype=mg.float32).tolist() == [1.0, 2.0**63]
    assert mg.tensor([2**64, 1.5]).dtype == mg.float32 and mg.tensor(2**64, dtype=mg.float64).item() == 2.0**64
    assert mg.tensor([2**63], dtype=mg.bool_).tolist() == [True]
    assert mg.tensor(-(2**63)).item() == -(2**63) and mg.tensor(-1.7, dtype=mg.int64).item() == -1


def test_manual_seed_takes_any_64_bit_seed_as_torch():
    mg.manual_seed(-1)  # kept as 2**64 - 1, as PyTorch keeps it (the next draw raised NumPy's ValueError)
    first = mg.rand(3).tolist()
    mg.manual_seed(2**64 - 1)
    assert mg.rand(3).tolist() == first
    assert mg.Generator().manual_seed(-1).initial_seed() == 2**64 - 1
    with pytest.raises(ValueError, match="the seed 18446744073709551616 does not fit in 64 bits"):
        mg.manual_seed(2**64)


def test_like_factories_name_themselves_and_take_input_by_keyword():
    t = mg.ones(2)
    assert mg.zeros_like(input=t).tolist() == [0.0, 0.0] and mg.full_like(input=t, fill_value=3).tolist() == [3.0] * 2
    with pytest.raises(TypeError, match=r"rand_like\(\): argument 'input' \(position 1\) must be Tensor, not int"):
        mg.rand_like(3)
    with pytest.raises(TypeError, match=r"randn_like\(\): argument 'requires_grad' must be bool, not int"):
        mg.randn_like(t, requires_grad=1)
    with pytest.raises(TypeError, match=r"randint_like\(\): argument 'high' \(position 2\) must be int, not float"):
        mg.randint_like(t, 2.5)
    with pytest.raises(RuntimeError, match=r"randn_like\(\): expected a floating point dtype, got int64"):
        mg.randn_like(mg.ones(2, dtype=mg.int64))
