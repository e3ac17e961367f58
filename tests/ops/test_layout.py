"""view refuses what needs a copy (PyTorch's error); contiguous makes the copy; t transposes matrices."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import minigrad as mg
from minigrad.ops.layout import view_strides
from tests.torch_oracle import arr, check


def test_view_of_a_transpose_is_refused_like_torch():
    with pytest.raises(RuntimeError, match="view size is not compatible with input tensor's size and stride"):
        mg.zeros(2, 3).t().view(6)
    assert mg.zeros(2, 3).t().view(3, 2).shape == (3, 2)
    assert mg.zeros(2, 3).t().contiguous().view(6).shape == (6,)


def test_contiguous_keeps_the_graph():
    pytest.importorskip("torch")
    check(lambda lib, x: x.t().contiguous().view(-1), arr(2, 3))
    x = mg.zeros(2, 2)
    assert x.contiguous() is x and x.is_contiguous() and not x.t().is_contiguous()


def test_view_agrees_with_torch_on_permuted_and_strided_tensors():
    torch = pytest.importorskip("torch")
    for shape in [(2, 3), (2, 3, 4), (1, 4, 1, 3)]:
        base = np.arange(np.prod(shape), dtype=float).reshape(shape)
        for perm in itertools.permutations(range(len(shape))):
            for step in (1, 2):
                ours, theirs = mg.tensor(base).permute(*perm)[::step], torch.tensor(base).permute(*perm)[::step]
                for target in [(-1,), (ours.shape[0], -1), (-1, ours.shape[-1]), (*ours.shape, 1)]:
                    try:
                        expected = theirs.view(*target).numpy()
                    except RuntimeError:
                        with pytest.raises(RuntimeError, match="view size is not compatible"):
                            ours.view(*target)
                        continue
                    np.testing.assert_array_equal(ours.view(*target).array, expected)


def test_view_strides_is_torchs_compute_stride():
    assert view_strides((2, 3), (3, 1), (6,)) == (1,)
    assert view_strides((3, 2), (1, 3), (6,)) is None
    assert view_strides((3, 2), (1, 3), (3, 2, 1)) == (1, 3, 3)


def test_t_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.t(x), arr(2, 3))
    check(lambda lib, x: x.t(), arr(3))
    with pytest.raises(RuntimeError, match=r"t\(\) expects a tensor with <= 2 dimensions, but self is 3D"):
        mg.zeros(1, 2, 3).t()
