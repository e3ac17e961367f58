"""sort, argsort, msort, topk: torch's values, indices, named tuples, errors and gradients."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as mg
from tests.ops import strategies
from tests.torch_oracle import Arr, arr, check, raises_like_torch

TIES = Arr(np.array([[3.0, 1.0, 2.0, 1.0, 3.0], [0.5, 0.5, -1.0, 2.0, 0.5]]))
NANS = Arr(np.array([2.0, np.nan, -1.0, np.nan, 5.0]), grad=False)


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_matches_torch(dim, descending):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.sort(x, stable=True, dim=dim, descending=descending), arr(3, 4))
    check(lambda lib, x: x.sort(dim=dim, descending=descending, stable=True), TIES, gradcheck_=False)


@pytest.mark.parametrize("descending", [False, True])
def test_sort_is_stable_and_puts_nan_last_ascending_first_descending(descending):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.sort(x, descending=descending, stable=True), TIES, gradcheck_=False)
    check(lambda lib, x: lib.sort(x, descending=descending, stable=True), NANS)
    check(lambda lib, x: lib.argsort(x, descending=descending, stable=True), TIES, gradcheck_=False)


def test_sort_returns_torchs_named_tuple():
    values, indices = mg.sort(mg.tensor([2.0, 1.0]))
    result = mg.tensor([2.0, 1.0]).sort()
    assert type(result).__name__ == "sort" and result.values is not None and result.indices.dtype == mg.int64
    assert values.tolist() == [1.0, 2.0] and indices.tolist() == [1, 0]
    assert type(mg.topk(mg.tensor([2.0, 1.0]), 1)).__name__ == "topk"


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("k", [0, 1, 3])
def test_topk_matches_torch(k, largest):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.topk(x, k, dim=1, largest=largest, sorted=True), arr(3, 4))
    check(lambda lib, x: x.topk(k, 0, largest), arr(4, 2))


def test_msort_and_scalar_inputs_match_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.msort(x), arr(4, 3))
    check(lambda lib, x: lib.sort(x, 0), Arr(np.array(2.5)))
    check(lambda lib, x: lib.topk(x, 1), Arr(np.array(2.5)))
    check(lambda lib, x: lib.argsort(x), Arr(np.array(2.5)), grads=False)


def test_sort_of_integers_and_bools_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.sort(x, descending=True, stable=True), Arr(np.array([3, 1, 3, 0])))
    check(lambda lib, x: lib.sort(x, stable=True), Arr(np.array([True, False, True])))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.topk(lib.tensor([1.0, 2.0]), 3),
        lambda lib: lib.topk(lib.tensor([1.0, 2.0]), -1),
        lambda lib: lib.sort(lib.tensor([1.0, 2.0]), 1),
        lambda lib: lib.argsort(lib.tensor([1.0, 2.0]), 0, True, True),
        lambda lib: lib.sort([1.0, 2.0]),
        lambda lib: lib.topk(lib.tensor([1.0, 2.0]), 1.5),
        lambda lib: lib.topk(lib.tensor([True, False]), 1),
    ],
)
def test_bad_input_raises_like_torch(call):
    raises_like_torch(call)


def test_sort_gradient_second_order():
    from minigrad.autograd import gradgradcheck

    x = mg.tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)
    assert gradgradcheck(lambda t: mg.sort(t, 1, True).values ** 2, (x,))
    assert gradgradcheck(lambda t: mg.topk(t, 2).values ** 2, (x,))


@pytest.mark.parametrize("largest", [True, False])
def test_topk_of_a_few_among_many_keeps_torchs_order_with_nan_and_ties(largest):
    torch = pytest.importorskip("torch")
    data = np.random.default_rng(0).standard_normal((3, 40))
    data[0, 17] = np.nan
    data[1, [5, 9, 30]] = 7.0  # a tie among the largest, kept in index order
    data[2, [1, 2]] = -7.0
    for k in (1, 3, 5):
        ours = mg.topk(mg.tensor(data), k, largest=largest)
        theirs = torch.topk(torch.tensor(data), k, largest=largest)
        np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())
        np.testing.assert_array_equal(ours.indices.numpy(), theirs.indices.numpy())
    check(lambda lib, x: lib.topk(x, 3, dim=0), arr(20, 3))


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_stable_sort_and_topk_match_torch_on_any_shape_with_ties_and_nan(data):
    torch = pytest.importorskip("torch")
    shape = data.draw(strategies.shapes(min_dims=1, max_dims=3, max_side=6), label="shape")
    values = data.draw(
        hnp.arrays(np.float64, shape, elements=st.sampled_from([-1.0, 0.0, 0.5, 2.0, np.nan])), label="values"
    )
    dim = data.draw(strategies.dims(len(shape)), label="dim")
    descending = data.draw(st.booleans(), label="descending")
    ours = mg.sort(mg.tensor(values), dim, descending, stable=True)
    theirs = torch.sort(torch.tensor(values), stable=True, dim=dim, descending=descending)
    np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())
    np.testing.assert_array_equal(ours.indices.numpy(), theirs.indices.numpy())
    k = data.draw(st.integers(0, shape[dim]), label="k")
    top = mg.topk(mg.tensor(values), k, dim, largest=descending)
    expected = torch.topk(torch.tensor(values), k, dim, largest=descending)
    np.testing.assert_array_equal(top.values.numpy(), expected.values.numpy())  # ties may pick other indices
    np.testing.assert_array_equal(np.take_along_axis(values, top.indices.numpy(), dim), top.values.numpy())
