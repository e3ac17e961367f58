"""take, scatter, scatter_add: torch's values and gradients; indices checked as torch checks them."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.conftest import rand64
from tests.torch_oracle import Arr, arr, check


def _index(lib, data):
    return lib.tensor(np.asarray(data))


def test_take_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.take(x, _index(lib, [[0, 5], [-1, 5]])), arr(2, 3))
    check(lambda lib, x: x.take(_index(lib, [2])), arr(3))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_scatter_and_scatter_add_match_torch(dim):
    pytest.importorskip("torch")
    index = [[0, 2, 1], [2, 0, 0]] if dim == 0 else [[1, 0], [0, 2], [2, 1]]
    distinct = [[0, 2, 1], [2, 0, 0]] if dim == 0 else [[1, 0], [0, 2], [2, 1]]
    src_shape = (2, 3) if dim == 0 else (3, 2)
    check(lambda lib, x, s: lib.scatter_add(x, dim, _index(lib, index), s), arr(3, 3), arr(*src_shape, seed=1))
    check(lambda lib, x, s: x.scatter(dim, _index(lib, distinct), s), arr(3, 3), arr(*src_shape, seed=1))
    check(lambda lib, x: lib.scatter(x, dim, _index(lib, distinct), value=2.5), arr(3, 3))


def test_scatter_src_larger_than_index():
    """torch's values; its backward refuses this case, so the gradient is checked by gradcheck alone."""
    pytest.importorskip("torch")
    add = lambda lib, x, s: lib.scatter_add(x, 0, _index(lib, [[1, 0]]), s)  # noqa: E731
    put = lambda lib, x, s: lib.scatter(x, 1, _index(lib, [[2], [0]]), s)  # noqa: E731
    check(add, arr(2, 3), arr(3, 4, seed=1), grads=False)
    check(put, arr(2, 3), arr(2, 2, seed=1), grads=False)
    x, s = rand64(2, 3), rand64(3, 4)
    assert gradcheck(lambda x, s: add(mg, x, s), (x, s))
    assert gradcheck(lambda x, s: put(mg, x, s[:2, :2]), (x, s))


def test_repeated_indices_add_up_in_scatter_add():
    out = mg.scatter_add(mg.zeros(3), 0, mg.tensor([1, 1, 1]), mg.ones(3))
    np.testing.assert_array_equal(out.array, [0, 3, 0])


@pytest.mark.parametrize("bad", [3, -1])
def test_out_of_range_indices_are_refused_like_torch(bad):
    torch = pytest.importorskip("torch")
    calls = {
        "gather": lambda lib: lib.gather(lib.zeros(3), 0, lib.tensor([bad])),
        "scatter": lambda lib: lib.scatter(lib.zeros(3), 0, lib.tensor([bad]), lib.ones(1)),
        "scatter_add": lambda lib: lib.scatter_add(lib.zeros(3), 0, lib.tensor([bad]), lib.ones(1)),
        "index_select": lambda lib: lib.index_select(lib.zeros(3), 0, lib.tensor([bad])),
    }
    for call in calls.values():
        with pytest.raises(Exception) as theirs:
            call(torch)
        with pytest.raises(type(theirs.value), match=str(theirs.value).split("\n")[0][:40].replace("(", r"\(")):
            call(mg)


def test_take_wraps_negatives_but_refuses_out_of_range():
    np.testing.assert_array_equal(mg.take(mg.tensor([1.0, 2.0, 3.0]), mg.tensor([-1, -3])).array, [3.0, 1.0])
    with pytest.raises(IndexError, match="out of range: tried to access index -4 on a tensor of 3 elements"):
        mg.take(mg.tensor([1.0, 2.0, 3.0]), mg.tensor([-4]))


def test_scatter_shape_and_dtype_errors():
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        mg.scatter(mg.zeros(2, 2), 0, mg.tensor([0]), mg.ones(1))
    with pytest.raises(RuntimeError, match="to be smaller than self"):
        mg.scatter(mg.zeros(2, 2), 0, mg.tensor([[0, 1, 0]]), mg.ones(1, 3))
    with pytest.raises(RuntimeError, match="self.dtype to be equal to src.dtype"):
        mg.scatter_add(mg.zeros(3), 0, mg.tensor([0]), mg.ones(1, dtype=mg.float64))
    with pytest.raises(TypeError, match="scatter.*index.*Tensor.*list"):
        mg.scatter(mg.zeros(3), 0, [0], mg.ones(1))


def test_scalar_input():
    pytest.importorskip("torch")
    check(lambda lib, x, s: lib.scatter_add(x, 0, _index(lib, 0), s), Arr(np.array(1.5)), Arr(np.array(2.0)))
