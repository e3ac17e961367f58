"""tril, triu, diag, trace, cross, outer, norm and vector_norm: torch's values and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from tests.torch_oracle import arr, check


@pytest.mark.parametrize("k", [0, 1, -1, 5])
def test_tril_triu_match_torch(k):
    pytest.importorskip("torch")
    for name in ("tril", "triu"):
        check(lambda lib, x, name=name: getattr(lib, name)(x, k), arr(3, 4))
        check(lambda lib, x, name=name: getattr(x, name)(diagonal=k), arr(2, 3, 3))


def test_tril_needs_a_matrix():
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        mg.tril(mg.zeros(3))
    with pytest.raises(TypeError, match="tril.*diagonal.*int"):
        mg.tril(mg.zeros(2, 2), 0.5)


@pytest.mark.parametrize("k", [0, 1, -2])
def test_diag_both_ways(k):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.diag(x, k), arr(3))
    check(lambda lib, x: x.diag(diagonal=k), arr(3, 4))


def test_diag_refuses_3d():
    with pytest.raises(RuntimeError, match="1D or 2D"):
        mg.diag(mg.zeros(2, 2, 2))


def test_trace_matches_torch():
    torch = pytest.importorskip("torch")
    check(lambda lib, x: x.trace(), arr(3, 3))
    check(lambda lib, x: x.trace(), arr(2, 4))
    assert str(mg.tensor([[1, 2], [3, 4]]).trace().dtype) == str(torch.tensor([[1, 2], [3, 4]]).trace().dtype)[6:]
    with pytest.raises(RuntimeError, match="expected a matrix"):
        mg.zeros(3).trace()


def test_cross_and_outer_match_torch():
    pytest.importorskip("torch")
    check(lambda lib, a, b: lib.cross(a, b, dim=1), arr(2, 3), arr(2, 3, seed=1))
    check(lambda lib, a, b: a.cross(b, dim=0), arr(3, 2), arr(3, 1, seed=1))
    check(lambda lib, a, b: lib.outer(a, b), arr(3), arr(4, seed=1))
    with pytest.raises(RuntimeError, match="must have length 3"):
        mg.cross(mg.zeros(2, 4), mg.zeros(2, 4), dim=1)


@pytest.mark.parametrize("p", [2, 1, 3, float("inf"), -float("inf")])
@pytest.mark.parametrize("dim", [None, 1, (0, 1)])
def test_norm_matches_torch(p, dim):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.norm(x, p, dim), arr(3, 4))
    check(lambda lib, x: x.norm(p=p, dim=dim, keepdim=True), arr(3, 4))
    check(lambda lib, x: lib.linalg.vector_norm(x, ord=p, dim=dim), arr(3, 4))


def test_vector_norm_keyword_arguments():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.linalg.vector_norm(x, 2, -1, True, dtype=lib.float64), arr(2, 3))
    out = mg.linalg.vector_norm(mg.tensor([3.0, 4.0]))
    np.testing.assert_allclose(out.array, 5.0)


def test_norm_gradient_at_zero_is_zero_like_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.norm(x), arr(3, low=0, high=1e-300), gradcheck_=False)
