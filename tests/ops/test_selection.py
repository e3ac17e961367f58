"""all/any, count_nonzero, nonzero, masked_select, masked_scatter, index_add/index_fill/index_copy
(and their in-place forms): torch's values, gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.ops.strategies import arrays, shapes
from tests.torch_oracle import arr, check, raises_like_torch

DATA = np.array([[1.0, 0.0, 3.0], [0.0, 0.0, -2.0]])


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: lib.all(x),
        lambda lib, x: x.all(1),
        lambda lib, x: x.any(dim=0, keepdim=True),
        lambda lib, x: lib.any(x, (0, 1)),
        lambda lib, x: lib.count_nonzero(x),
        lambda lib, x: x.count_nonzero(dim=1),
        lambda lib, x: lib.nonzero(x),
        lambda lib, x: x.nonzero(as_tuple=True),
        lambda lib, x: lib.nonzero(x[0, 0]),
        lambda lib, x: x[0, 0].nonzero(as_tuple=True),
    ],
)
def test_truth_and_counting_match_torch(call):
    torch = pytest.importorskip("torch")
    ours, theirs = call(mg, mg.tensor(DATA)), call(torch, torch.tensor(DATA))
    ours, theirs = (ours, theirs) if isinstance(ours, tuple) else ((ours,), (theirs,))
    for o, t in zip(ours, theirs):
        assert str(o.dtype).split(".")[-1] == str(t.dtype).split(".")[-1]
        np.testing.assert_array_equal(o.numpy(), t.numpy())


def test_masked_select_and_scatter_match_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: x.masked_select(lib.tensor(DATA != 0)), arr(2, 3))
    check(lambda lib, x: lib.masked_select(x, lib.tensor([True, False, True])), arr(2, 3))
    check(lambda lib, x, s: x.masked_scatter(lib.tensor(DATA != 0), s), arr(2, 3), arr(5, seed=1))
    check(lambda lib, x, s: lib.masked_scatter(x, lib.tensor([[False], [True]]), s), arr(2, 3), arr(2, 3, seed=1))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x, s: x.index_add(0, lib.tensor([1, 1, 0]), s),
        lambda lib, x, s: lib.index_add(x, 0, lib.tensor([2, 0, 0]), s, alpha=-0.5),
        lambda lib, x, s: x.index_copy(0, lib.tensor([2, 0, 1]), s),
        lambda lib, x, s: x.index_fill(1, lib.tensor([0, 3]), 2.5) + s.sum(),
        lambda lib, x, s: x.index_fill(1, lib.tensor([1]), s[0, 0]),
    ],
)
def test_index_ops_match_torch(call):
    pytest.importorskip("torch")
    check(call, arr(3, 4), arr(3, 4, seed=1))


def test_in_place_index_ops_record_their_source():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (mg, torch):
        x = lib.zeros(3, 2, dtype=lib.float64)
        s = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
        x.index_add_(0, lib.tensor([2, 2]), s)
        x.index_copy_(0, lib.tensor([0, 1]), s * 2)
        x.index_fill_(1, lib.tensor([1]), -1.0)
        (x * lib.arange(6.0, dtype=lib.float64).reshape(3, 2)).sum().backward()
        results.append((x.detach().numpy(), s.grad.numpy(), x._version))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])
    assert results[0][2] == results[1][2]


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.zeros(3, 2).index_add(0, lib.tensor([0, 1]), lib.ones(3, 2)),
        lambda lib: lib.zeros(3, 2).index_add(0, lib.tensor([0.0, 1.0]), lib.ones(2, 2)),
        lambda lib: lib.zeros(3, 2).index_add(0, lib.tensor([5, 1]), lib.ones(2, 2)),
        lambda lib: lib.zeros(3, 2).index_copy(0, lib.tensor([0, 1]), lib.ones(3, 2)),
        lambda lib: lib.zeros(3, 2).index_fill(0, lib.tensor([0.0]), 1),
        lambda lib: lib.zeros(3, 2).masked_scatter(lib.ones(3, 2, dtype=lib.bool), lib.ones(2)),
        lambda lib: lib.zeros(3, 2).masked_select(lib.ones(3, dtype=lib.bool)),
        lambda lib: lib.zeros(3, 2).masked_select(lib.ones(3, 2)),
    ],
)
def test_errors_are_torchs(call):
    raises_like_torch(call)


def test_error_words():
    with pytest.raises(RuntimeError, match=r"Number of indices \(2\) should be equal to source.size\(dim\): \(3\)"):
        mg.zeros(3, 2).index_add(0, mg.tensor([0, 1]), mg.ones(3, 2))
    with pytest.raises(RuntimeError, match="Number of elements of source < number of ones in mask"):
        mg.zeros(2).masked_scatter(mg.tensor([True, True]), mg.ones(1))
    with pytest.raises(RuntimeError, match="expected BoolTensor for mask"):
        mg.zeros(2).masked_select(mg.ones(2))


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_masked_select_then_scatter_restores_the_selection(data):
    shape = data.draw(shapes(min_dims=1, max_dims=3))
    a = data.draw(arrays(shape))
    mask = data.draw(arrays(shape).map(lambda m: m > 0))
    x = mg.tensor(a, requires_grad=True)
    m = mg.tensor(mask)
    picked = x.masked_select(m)
    assert picked.shape == (int(mask.sum()),)
    np.testing.assert_array_equal(x.masked_scatter(m, picked).detach().numpy(), a)
    assert gradcheck(lambda t: t.masked_select(m), (x,))
    assert mg.count_nonzero(m).item() == len(m.nonzero()) == int(mask.sum())


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_index_add_is_a_sum_of_rows(data):
    rows = data.draw(st.integers(1, 4))
    index = data.draw(st.lists(st.integers(0, rows - 1), min_size=1, max_size=5))
    x = mg.tensor(data.draw(arrays((rows, 2))), requires_grad=True)
    s = mg.tensor(data.draw(arrays((len(index), 2))), requires_grad=True)
    out = x.index_add(0, mg.tensor(index), s)
    expected = x.detach().numpy().copy()
    for k, i in enumerate(index):
        expected[i] += s.detach().numpy()[k]
    np.testing.assert_allclose(out.detach().numpy(), expected)
    assert gradcheck(lambda a, b: a.index_add(0, mg.tensor(index), b, alpha=3), (x, s))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x, v: x.index_put((lib.tensor([0, 0, 2]),), v, accumulate=True),
        lambda lib, x, v: lib.index_put(x, (lib.tensor([1, 1, -1]), lib.tensor([0, 0, 3])), v[:, 0], accumulate=True),
        lambda lib, x, v: x.index_put((lib.tensor([2, 0, 1]),), v),
        lambda lib, x, v: x.index_put([lib.tensor([True, False, True])], v[0, 0], accumulate=True),
    ],
)
def test_index_put_matches_torch(call):
    pytest.importorskip("torch")
    check(call, arr(3, 4), arr(3, 4, seed=1))


def test_index_put_in_place_and_out_of_range():
    torch = pytest.importorskip("torch")
    ours, theirs = mg.zeros(3, 2), torch.zeros(3, 2)
    for x, lib in ((ours, mg), (theirs, torch)):
        x.index_put_((lib.tensor([1, 1]),), lib.tensor([1.0, 2.0]), accumulate=True)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert ours._version == theirs._version
    raises_like_torch(lambda lib: lib.zeros(3).index_put((lib.tensor([0, 5]),), lib.ones(2), accumulate=True))
