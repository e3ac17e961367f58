"""Comparisons, logical/bitwise ops and value tests: values against NumPy, bool results, no graph, errors."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from tests.ops.strategies import arrays, broadcastable_shapes, to_tensor, values

FEW = settings(max_examples=10, deadline=None)

COMPARISONS = [
    (mg.eq, operator.eq),
    (mg.ne, operator.ne),
    (mg.lt, operator.lt),
    (mg.le, operator.le),
    (mg.gt, operator.gt),
    (mg.ge, operator.ge),
]

# coarse values so that equal elements actually occur
COARSE = st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0])


@pytest.mark.parametrize("fn, op", COMPARISONS, ids=[c[1].__name__ for c in COMPARISONS])
@FEW
@given(data=st.data())
def test_comparisons_broadcast_like_numpy(fn, op, data):
    sa, sb = data.draw(broadcastable_shapes(2))
    a, b = data.draw(arrays(sa, COARSE)), data.draw(arrays(sb, COARSE))
    ta, tb = to_tensor(a), to_tensor(b)
    for out in (fn(ta, tb), op(ta, tb)):
        assert out.dtype == mg.bool
        assert not out.requires_grad and out.is_leaf
        np.testing.assert_array_equal(out.array, op(a, b))


@pytest.mark.parametrize("fn, op", COMPARISONS, ids=[c[1].__name__ for c in COMPARISONS])
def test_comparisons_with_scalars_on_either_side(fn, op):
    x = mg.tensor([0.0, 1.0, 2.0])
    np.testing.assert_array_equal(op(x, 1).array, op(x.array, 1))
    np.testing.assert_array_equal(op(1.0, x).array, op(1.0, x.array))
    np.testing.assert_array_equal(fn(x, 1.0).array, op(x.array, 1.0))


def test_mixed_dtypes_compare_after_promotion():
    assert (mg.tensor([1, 2, 3]) == mg.tensor([1.0, 2.5, 3.0])).tolist() == [True, False, True]
    assert (mg.tensor([1, 2]) < 1.5).tolist() == [True, False]
    assert (mg.tensor([True, False]) == 1).tolist() == [True, False]


def test_comparing_with_other_objects_is_identity_based():
    x = mg.tensor([1.0, 2.0])
    assert (x == None) is False  # noqa: E711  (the operator itself is under test)
    assert (x != "a") is True
    assert x in {x: 1}  # tensors stay hashable by identity
    assert len({x, mg.tensor([1.0, 2.0])}) == 2


def test_comparison_broadcast_error_names_shapes():
    with pytest.raises(RuntimeError, match=r"lt: shapes \[2\] and \[3\] cannot be broadcast together"):
        _ = mg.tensor([1.0, 2.0]) < mg.tensor([1.0, 2.0, 3.0])


def test_comparison_results_do_not_join_the_graph():
    x = mg.tensor([1.0, -1.0], requires_grad=True)
    mask = x > 0
    assert not mask.requires_grad
    (x * mask).sum().backward()
    assert x.grad.tolist() == [1.0, 0.0]


# ---------------------------------------------------------------- logical and bitwise
@FEW
@given(data=st.data())
def test_logical_ops_use_truthiness(data):
    sa, sb = data.draw(broadcastable_shapes(2))
    a, b = data.draw(arrays(sa, COARSE)), data.draw(arrays(sb, COARSE))
    ta, tb = to_tensor(a, requires_grad=False), to_tensor(b, requires_grad=False)
    for fn, ref in (
        (mg.logical_and, np.logical_and),
        (mg.logical_or, np.logical_or),
        (mg.logical_xor, np.logical_xor),
    ):
        out = fn(ta, tb)
        assert out.dtype == mg.bool
        np.testing.assert_array_equal(out.array, ref(a, b))
    np.testing.assert_array_equal(mg.logical_not(ta).array, np.logical_not(a))


def test_mask_operators():
    x = mg.tensor([-1.0, 0.5, 2.0])
    both = (x > 0) & (x < 1)
    assert both.tolist() == [False, True, False] and both.dtype == mg.bool
    assert ((x < 0) | (x > 1)).tolist() == [True, False, True]
    assert ((x > 0) ^ (x > 1)).tolist() == [False, True, False]
    assert (~(x > 0)).tolist() == [True, False, False]
    assert (True & (x > 0)).tolist() == [False, True, True]


def test_bitwise_on_integers():
    a, b = mg.tensor([12, 10]), mg.tensor([10, 6])
    assert (a & b).tolist() == [8, 2]
    assert (a | b).tolist() == [14, 14]
    assert (a ^ b).tolist() == [6, 12]
    assert (~mg.tensor([1, 2])).tolist() == [-2, -3]
    assert (a & 4).tolist() == [4, 0]


@pytest.mark.parametrize(
    "call, symbol",
    [
        (lambda x: ~x, "~"),
        (lambda x: x & x, "&"),
        (lambda x: x | (x > 0), r"\|"),
        (lambda x: mg.tensor([1, 2]) ^ 1.5, r"\^"),
    ],
)
def test_bitwise_rejects_floats(call, symbol):
    with pytest.raises(
        TypeError, match=rf"{symbol} \(operator\.\w+\) is only implemented on integer and Boolean-type tensors"
    ):
        call(mg.tensor([1.0, 2.0]))


# ---------------------------------------------------------------- value tests
def test_isnan_isinf_isfinite():
    x = mg.tensor([1.0, float("nan"), float("inf"), -float("inf")])
    assert mg.isnan(x).tolist() == [False, True, False, False]
    assert x.isinf().tolist() == [False, False, True, True]
    assert x.isfinite().tolist() == [True, False, False, False]
    assert mg.isfinite(mg.tensor([1, 2])).tolist() == [True, True]


def test_isclose_allclose_equal():
    a = mg.tensor([1.0, 2.0, float("nan")], dtype=mg.float64)
    b = mg.tensor([1.0 + 1e-9, 2.1, float("nan")], dtype=mg.float64)
    assert mg.isclose(a, b).tolist() == [True, False, False]
    assert a.isclose(b, equal_nan=True).tolist() == [True, False, True]
    assert not mg.allclose(a, b, equal_nan=True)
    assert mg.allclose(a, b, atol=0.2, equal_nan=True)
    assert isinstance(mg.allclose(a, a), bool)
    assert mg.allclose(mg.tensor([[1.0, 1.0]]), 1.0)
    assert mg.equal(mg.tensor([1, 2]), mg.tensor([1.0, 2.0]))
    assert not mg.equal(mg.tensor([1, 2]), mg.tensor([[1, 2]]))
    assert not mg.tensor([1.0]).equal(mg.tensor([2.0]))
    with pytest.raises(TypeError, match=r"argument 'other' \(position 2\) must be Tensor"):
        mg.equal(mg.tensor([1.0]), [1.0])


@FEW
@given(data=st.data())
def test_isclose_matches_numpy(data):
    sa, sb = data.draw(broadcastable_shapes(2))
    a = data.draw(arrays(sa, values(-2, 2)))
    b = data.draw(arrays(sb, values(-2, 2)))
    np.testing.assert_array_equal(mg.isclose(to_tensor(a), to_tensor(b), atol=0.5).array, np.isclose(a, b, atol=0.5))


def test_methods_and_aliases_are_bound():
    x = mg.tensor([1.0, 2.0])
    assert x.greater(1).tolist() == [False, True]
    assert x.less_equal(1).tolist() == [True, False]
    assert x.not_equal(1).tolist() == [False, True]
    assert x.logical_not().tolist() == [False, False]


def test_torch_parity_comparisons():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(6)
    a = rng.integers(-2, 3, (3, 4)).astype(np.float64)
    b = rng.integers(-2, 3, (4,)).astype(np.float64)
    for name in ("eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor"):
        mine = getattr(mg, name)(mg.tensor(a), mg.tensor(b)).array
        theirs = getattr(torch, name)(torch.tensor(a), torch.tensor(b)).numpy()
        np.testing.assert_array_equal(mine, theirs, err_msg=name)
