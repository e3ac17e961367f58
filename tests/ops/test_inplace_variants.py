"""torch's in-place variants derived from the out-of-place ops (``exp_``, ``clamp_min_``, ``index_add_``...)
and the random fills: values, versions, recorded gradients and refusals as torch's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import minigrad as mg
from minigrad.ops.inplace_variants import INPLACE_VARIANTS
from tests.ops.strategies import arrays, shapes, values
from tests.torch_oracle import raises_like_torch

# torch's in-place methods that are not "the op, written into self" or "the view, in place"
NOT_DERIVED = {"as_strided_", "resize_"}

# name -> (input range, extra arguments); every one is run on x and on torch's x, then through a recorded write
CASES = {
    "abs": ((-2, 2), ()),
    "acosh": ((1.2, 3), ()),
    "asinh": ((-2, 2), ()),
    "atanh": ((-0.8, 0.8), ()),
    "ceil": ((-2, 2), ()),
    "clamp_min": ((-2, 2), (0.3,)),
    "clamp_max": ((-2, 2), (0.3,)),
    "clip": ((-2, 2), (-0.5, 0.5)),
    "cos": ((-2, 2), ()),
    "digamma": ((0.5, 3), ()),
    "erf": ((-2, 2), ()),
    "erfinv": ((-0.9, 0.9), ()),
    "exp": ((-2, 2), ()),
    "exp2": ((-2, 2), ()),
    "expm1": ((-2, 2), ()),
    "floor": ((-2, 2), ()),
    "frac": ((-2, 2), ()),
    "lgamma": ((0.5, 3), ()),
    "log": ((0.2, 3), ()),
    "log10": ((0.2, 3), ()),
    "log1p": ((0.2, 3), ()),
    "log2": ((0.2, 3), ()),
    "logit": ((0.1, 0.9), ()),
    "neg": ((-2, 2), ()),
    "negative": ((-2, 2), ()),
    "reciprocal": ((0.5, 2), ()),
    "relu": ((-2, 2), ()),
    "round": ((-2, 2), ()),
    "rsqrt": ((0.5, 2), ()),
    "sigmoid": ((-2, 2), ()),
    "sign": ((-2, 2), ()),
    "sin": ((-2, 2), ()),
    "sinc": ((-2, 2), ()),
    "sinh": ((-2, 2), ()),
    "sqrt": ((0.5, 2), ()),
    "square": ((-2, 2), ()),
    "tan": ((-1, 1), ()),
    "tanh": ((-2, 2), ()),
    "trunc": ((-2, 2), ()),
    "cumsum": ((-2, 2), (1,)),
    "cumprod": ((-2, 2), (0,)),
    "tril": ((-2, 2), ()),
    "triu": ((-2, 2), (1,)),
    "nan_to_num": ((-2, 2), ()),
    "multiply": ((-2, 2), (1.5,)),
    "subtract": ((-2, 2), (1.5,)),
    "true_divide": ((-2, 2), (1.5,)),
    "lerp": ((-2, 2), ("other", 0.3)),
    "hypot": ((-2, 2), ("other",)),
    "atan2": ((-2, 2), ("other",)),
    "xlogy": ((-2, 2), ("positive",)),
}


# torch has no derivative for these written in place: its gradient is taken from the out-of-place op
TORCH_HAS_NO_INPLACE_RULE = {"acosh", "asinh", "atanh"}


def _operand(lib, a, rng_seed: int):
    rng = np.random.default_rng(rng_seed)
    if a == "other":
        return lib.tensor(rng.uniform(-2, 2, (3, 4)))
    if a == "positive":
        return lib.tensor(rng.uniform(0.5, 2, (3, 4)))
    return a


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_versions_and_recorded_gradient_match_torch(name):
    torch = pytest.importorskip("torch")
    (low, high), extra = CASES[name]
    data = np.random.default_rng(0).uniform(low, high, (3, 4))
    results = []
    for lib in (mg, torch):
        x = lib.tensor(data.copy())
        args = [_operand(lib, a, 1) for a in extra]
        out = getattr(x, name + "_")(*args)
        assert out is x and x._version == 1
        w = lib.tensor(data.copy(), requires_grad=True)
        y = w * 1
        if lib is torch and name in TORCH_HAS_NO_INPLACE_RULE:
            y = getattr(y, name)(*args)
        else:
            getattr(y, name + "_")(*args)
        assert y.grad_fn is not None
        (y * lib.tensor(np.arange(12.0).reshape(3, 4))).sum().backward()
        results.append((x.detach().numpy(), w.grad.numpy()))
    (ours, our_grad), (theirs, their_grad) = results
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(our_grad, their_grad, rtol=1e-8, atol=1e-12)  # SciPy's trigamma vs torch's


def test_every_torch_inplace_method_of_an_op_minigrad_has_exists():
    torch = pytest.importorskip("torch")
    names = [n for n in dir(torch.Tensor) if n.endswith("_") and not n.startswith("_") and n not in NOT_DERIVED]
    missing = [n for n in names if hasattr(mg.Tensor, n[:-1]) and not hasattr(mg.Tensor, n)]
    assert missing == []
    assert all(hasattr(mg.Tensor, n + "_") for n in INPLACE_VARIANTS if hasattr(mg.Tensor, n))


def test_an_operand_that_requires_grad_is_recorded():
    torch = pytest.importorskip("torch")
    grads = []
    for lib in (mg, torch):
        x = lib.zeros(4, dtype=lib.float64)
        src = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
        x.index_add_(0, lib.tensor([0, 0, 3]), src, alpha=2.0)
        (x * lib.tensor([1.0, 2.0, 3.0, 4.0], dtype=lib.float64)).sum().backward()
        grads.append((x.detach().numpy(), src.grad.numpy()))
    np.testing.assert_array_equal(grads[0][0], grads[1][0])
    np.testing.assert_array_equal(grads[0][1], grads[1][1])


def test_self_as_operand_uses_the_old_value():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.hypot_(y)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [np.sqrt(2)] * 2)


def test_a_saved_value_written_later_is_refused_and_a_leaf_refuses():
    w = mg.tensor([0.5, 1.0], requires_grad=True)
    a = w * 1
    b = a.sin()
    a.exp_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        b.sum().backward()
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        w.sigmoid_()


def test_a_result_the_dtype_cannot_hold_is_refused():
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        mg.tensor([1, 2]).exp_()


def test_comparisons_write_zeros_and_ones_in_the_tensors_dtype():
    torch = pytest.importorskip("torch")
    for name in ("lt_", "ge_", "ne_"):
        x, t = mg.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.0, 3.0])
        getattr(x, name)(2.0)
        getattr(t, name)(2.0)
        np.testing.assert_array_equal(x.numpy(), t.numpy())
        assert x.dtype == mg.float32


def test_random_fills_are_seeded_in_range_and_bump_the_version():
    x = mg.empty(1000, dtype=mg.float64)
    mg.manual_seed(0)
    x.uniform_(-2, 3)
    first = x.numpy().copy()
    assert x._version == 1 and first.min() >= -2 and first.max() < 3
    mg.manual_seed(0)
    x.uniform_(-2, 3)
    np.testing.assert_array_equal(first, x.numpy())
    x.normal_(5.0, 0.01)
    assert abs(x.numpy().mean() - 5.0) < 0.01
    x.exponential_(2.0)
    assert x.numpy().min() >= 0 and abs(x.numpy().mean() - 0.5) < 0.1
    x.bernoulli_(0.25)
    assert set(np.unique(x.numpy())) <= {0.0, 1.0}
    x.uniform_(**{"from": 1.0, "to": 2.0})
    assert x.numpy().min() >= 1.0
    assert x._version == 6


def test_random_fills_refuse_like_torch():
    with pytest.raises(RuntimeError, match="uniform_ expects to return a \\[from, to\\) range"):
        mg.zeros(2).uniform_(2, 1)
    with pytest.raises(RuntimeError, match="normal expects std >= 0.0"):
        mg.zeros(2).normal_(0, -1)
    with pytest.raises(NotImplementedError, match="not implemented for 'Int64'"):
        mg.zeros(2, dtype=mg.int64).normal_()
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        mg.zeros(2, requires_grad=True).normal_()
    with mg.no_grad():
        w = mg.zeros(2, requires_grad=True)
        w.normal_()  # initialising a parameter, as nn.init does


def test_a_random_fill_of_a_graph_tensor_cuts_the_gradient():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    y = w * 2
    y.uniform_()
    (y * 3).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 0.0])


@settings(max_examples=25, deadline=None)
@given(arrays(shapes(max_dims=3), values(-3, 3)))
def test_inplace_equals_out_of_place(a):
    for name in ("exp", "tanh", "sigmoid", "relu", "frac", "asinh"):
        x = mg.tensor(a.copy())
        getattr(x, name + "_")()
        np.testing.assert_array_equal(x.numpy(), getattr(mg.tensor(a), name)().numpy())


@pytest.mark.parametrize(
    "steps",
    [
        [("t_",)],
        [("unsqueeze_", 0), ("transpose_", 0, 2), ("squeeze_",)],
        [("swapaxes_", 0, 1), ("swapdims_", 1, 0), ("unsqueeze_", -1), ("squeeze_", 2)],
    ],
)
def test_view_ops_in_place_change_the_shape_as_torch(steps):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (mg, torch):
        w = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
        y = w * 1
        earlier = y[0]
        for name, *args in steps:
            assert getattr(y, name)(*args) is y
        weights = lib.tensor(np.arange(float(y.numel())).reshape(tuple(y.shape)))
        (y * weights).sum().backward()
        plain = lib.zeros(2, 3)
        first_row = plain[0]
        for name, *args in steps:
            getattr(plain, name)(*args)
        plain[(0,) * plain.dim()] = 7.0
        shown = first_row.numpy().tolist()  # the same memory: the write shows through a view made before
        facts = (tuple(y.shape), y._version, earlier._version, w.grad.numpy(), tuple(plain.shape), plain._version)
        results.append((*facts, shown))
    (ours, theirs) = results
    assert ours[:3] == theirs[:3] and ours[4:] == theirs[4:]
    np.testing.assert_array_equal(ours[3], theirs[3])


def test_view_ops_in_place_refuse_a_leaf_that_requires_grad():
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        mg.zeros(2, requires_grad=True).unsqueeze_(0)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "int64", "bool"])
def test_random_fill_draws_integers_in_the_dtypes_exact_range(dtype):
    x = mg.empty(2000, dtype=getattr(mg, dtype))
    x.random_()
    values = x.numpy().astype(np.float64)
    high = {"float16": 2**11, "float32": 2**24, "float64": 2**53, "int32": 2**31 - 1, "int64": 2**63 - 1, "bool": 1}
    assert values.min() >= 0 and values.max() <= high[dtype] and (values == np.floor(values)).all()
    assert values.max() > high[dtype] / 2  # the whole range, not [0, 1)
    assert x._version == 1


def test_random_fill_bounds_and_seeding():
    x = mg.empty(1000, dtype=mg.float64)
    mg.manual_seed(3)
    x.random_(2, 6)
    first = x.numpy().copy()
    assert set(np.unique(first)) == {2.0, 3.0, 4.0, 5.0}
    mg.manual_seed(3)
    np.testing.assert_array_equal(x.random_(2, 6).numpy(), first)
    assert set(np.unique(x.random_(3).numpy())) == {0.0, 1.0, 2.0}
    assert set(np.unique(x.random_(to=2).numpy())) == {0.0, 1.0}
    assert set(np.unique(x.random_(**{"from": -3, "to": -1}).numpy())) == {-3.0, -2.0}
    g = mg.Generator().manual_seed(5)
    a = x.random_(0, 100, generator=g).numpy().copy()
    g.manual_seed(5)
    np.testing.assert_array_equal(x.random_(0, 100, generator=g).numpy(), a)
    assert x._version == 7


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.zeros(2).random_(5, 3),
        lambda lib: lib.zeros(2).random_(3, 3),
        lambda lib: lib.zeros(2, dtype=lib.int32).random_(0, 2**40),
        lambda lib: lib.zeros(2, dtype=lib.int32).random_(-(2**40), 2),
        lambda lib: lib.zeros(2, dtype=lib.bool).random_(0, 3),
        lambda lib: lib.zeros(2, dtype=lib.float16).random_(0, 2**30),
        lambda lib: lib.zeros(2).random_(1.5),
        lambda lib: lib.zeros(2, requires_grad=True).random_(),
    ],
)
def test_random_fill_refuses_as_torch(call):
    ours, theirs = raises_like_torch(call)
    assert str(ours).splitlines()[0] == str(theirs).splitlines()[0]


def test_random_fill_past_a_floats_mantissa_warns_as_torch():
    with pytest.warns(UserWarning, match=r"to - 1 is out of bounds \[-\(2\^24\), 2\^24\]"):
        mg.zeros(2).random_(0, 2**25)


def test_a_random_fill_of_a_graph_tensor_is_a_node_with_zero_gradient():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    y = w * 2
    y.random_(3)
    assert y.op == "random_"
    (y * 3).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 0.0])


def test_apply_replaces_each_element_as_torch():
    torch = pytest.importorskip("torch")
    for data, fn in [([1.0, -2.0, 3.5], lambda v: v * v + 1), ([1, 2, 3], lambda v: v / 2), ([[1, 2], [3, 4]], abs)]:
        ours, theirs = mg.tensor(data), torch.tensor(data)
        assert ours.apply_(fn) is ours
        theirs.apply_(fn)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
        assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]


def test_apply_writes_through_a_view_and_bumps_the_version():
    base = mg.zeros(2, 3)
    row = base[1]
    row.apply_(lambda v: v + 7)
    np.testing.assert_array_equal(base.numpy(), [[0, 0, 0], [7, 7, 7]])
    assert base._version == 1 and row._version == 1


def test_apply_after_a_save_makes_backward_raise():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    c = mg.tensor([3.0, 4.0])
    y = (w * c).sum()
    c.apply_(lambda v: 0.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.ones(2, requires_grad=True).apply_(lambda v: v),
        lambda lib: (lib.ones(2, requires_grad=True) * 2).apply_(lambda v: v),
        lambda lib: lib.ones(2).apply_(3),
        lambda lib: lib.ones(2).apply_(lambda v: "a"),
        lambda lib: lib.ones(2).apply_(lambda v: None),
    ],
)
def test_apply_refuses_as_torch(call):
    ours, theirs = raises_like_torch(call)
    assert str(theirs) in str(ours)
