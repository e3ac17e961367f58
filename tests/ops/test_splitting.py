"""tensor_split and meshgrid: torch's pieces, grids, warnings, errors and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from tests.torch_oracle import arr, check, raises_like_torch


@pytest.mark.parametrize(
    "how", [1, 3, 4, 9, [1, 5, 10], [5, 1], [-2], [], (0, 0, 2)], ids=lambda v: repr(v).replace(" ", "")
)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_tensor_split_matches_torch(how, dim):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.tensor_split(x, how, dim), arr(7, 7))
    check(lambda lib, x: x.tensor_split(how, dim=dim), arr(7, 3, 7))


def test_tensor_split_by_a_tensor_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.tensor_split(x, lib.tensor(3)), arr(7))
    check(lambda lib, x: lib.tensor_split(x, lib.tensor([2, 4]), 1), arr(2, 6))


@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid_matches_torch(indexing):
    pytest.importorskip("torch")
    check(lambda lib, a, b: lib.meshgrid(a, b, indexing=indexing), arr(2), arr(3, seed=1))
    check(lambda lib, a, b, c: lib.meshgrid([a, b, c], indexing=indexing), arr(2), arr(3, seed=1), arr(4, seed=2))
    check(lambda lib, a, b: lib.meshgrid(a, b, indexing=indexing), arr(seed=3), arr(3))
    check(lambda lib, a: lib.meshgrid(a, indexing=indexing), arr(3))


def test_meshgrid_without_indexing_warns_as_torch_and_uses_ij():
    with pytest.warns(UserWarning, match="it will be required to pass the indexing argument"):
        x, y = mg.meshgrid(mg.arange(2), mg.arange(3))
    assert tuple(x.shape) == (2, 3) and y.tolist() == [[0, 1, 2], [0, 1, 2]]


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.tensor_split(lib.arange(7), 0),
        lambda lib: lib.tensor_split(lib.tensor(7), 2),
        lambda lib: lib.tensor_split(lib.arange(7), lib.tensor([[1]])),
        lambda lib: lib.tensor_split(lib.arange(7), lib.tensor([1.0])),
        lambda lib: lib.tensor_split(lib.arange(7), 2, 1),
        lambda lib: lib.meshgrid(lib.arange(2), lib.arange(3), indexing="foo"),
        lambda lib: lib.meshgrid(lib.ones(2, 2), indexing="ij"),
        lambda lib: lib.meshgrid(lib.ones(2), lib.ones(2, dtype=lib.float64), indexing="ij"),
        lambda lib: lib.meshgrid(indexing="ij"),
    ],
)
def test_bad_input_raises_like_torch(call):
    raises_like_torch(call)


def test_tensor_split_pieces_are_views_of_the_input():
    x = mg.arange(6.0)
    pieces = mg.tensor_split(x, 4)
    assert [p.tolist() for p in pieces] == [[0.0, 1.0], [2.0, 3.0], [4.0], [5.0]]
    assert np.shares_memory(pieces[1].array, x.array)
