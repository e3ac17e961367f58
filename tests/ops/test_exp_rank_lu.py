"""linalg.matrix_exp, matrix_rank, lu and lu_factor: torch's values, gradients (gradchecked in float64),
forward-mode rules, errors and behaviour under vmap."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.torch_oracle import Arr, check, raises_like_torch

RNG = np.random.default_rng(7)
SQUARE = RNG.normal(size=(4, 4))
BATCH = RNG.normal(size=(2, 3, 3))
TALL = RNG.normal(size=(5, 3))

CASES = {
    "matrix_exp": (lambda lib, a: lib.linalg.matrix_exp(a), Arr(SQUARE)),
    "matrix_exp_large": (lambda lib, a: lib.linalg.matrix_exp(a * 6), Arr(SQUARE)),  # squarings
    "matrix_exp_batch": (lambda lib, a: lib.matrix_exp(a), Arr(BATCH)),
    "matrix_exp_method": (lambda lib, a: a.matrix_exp(), Arr(BATCH)),
    "lu": (lambda lib, a: lib.linalg.lu(a), Arr(SQUARE)),
    "lu_batch": (lambda lib, a: lib.linalg.lu(a), Arr(BATCH)),
    "lu_factor": (lambda lib, a: lib.linalg.lu_factor(a), Arr(BATCH)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    pytest.importorskip("torch")
    fn, *args = CASES[name]
    check(fn, *args, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5)])
def test_lu_of_a_rectangular_matrix_matches_torch(shape):
    pytest.importorskip("torch")
    check(lambda lib, a: lib.linalg.lu(a), Arr(RNG.normal(size=shape), grad=False), grads=False)


def test_lu_reassembles_and_pivots_are_one_based_int32():
    a = mg.tensor(BATCH)
    p, low, up = mg.linalg.lu(a)
    np.testing.assert_allclose((p @ low @ up).numpy(), BATCH, atol=1e-12)
    factor = mg.linalg.lu_factor(a)
    assert factor.pivots.dtype == mg.int32 and factor.pivots.numpy().min() >= 1
    np.testing.assert_array_equal(factor.LU.tril(-1).numpy(), low.tril(-1).numpy())


def test_matrix_exp_identities():
    a = mg.tensor(SQUARE)
    np.testing.assert_allclose((a.matrix_exp() @ (-a).matrix_exp()).numpy(), np.eye(4), atol=1e-12)
    diagonal = mg.tensor(np.diag([1.0, -2.0, 30.0]))
    np.testing.assert_allclose(mg.linalg.matrix_exp(diagonal).numpy(), np.diag(np.exp([1.0, -2.0, 30.0])), rtol=1e-13)
    assert mg.linalg.matrix_exp(mg.tensor(SQUARE, dtype=mg.float32)).dtype == mg.float32


@pytest.mark.parametrize(
    "fn",
    [lambda a: mg.linalg.matrix_exp(a), lambda a: mg.linalg.lu(a).L, lambda a: mg.linalg.lu(a).U],
)
def test_second_derivatives_gradcheck(fn):
    a = mg.tensor(SQUARE[:3, :3] * 0.5, requires_grad=True)

    def first(t):
        (g,) = mg.autograd.grad((fn(t) ** 2).sum(), (t,), create_graph=True)
        return g

    assert gradcheck(first, (a,))


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, a: lib.linalg.matrix_exp(a),
        lambda lib, a: lib.linalg.lu(a),
        lambda lib, a: lib.linalg.lu_factor(a).LU,
    ],
)
def test_forward_mode_matches_torch(fn):
    torch = pytest.importorskip("torch")
    tangent = RNG.normal(size=SQUARE.shape)
    _, ours = mg.func.jvp(lambda a: fn(mg, a), (mg.tensor(SQUARE),), (mg.tensor(tangent),))
    _, theirs = torch.func.jvp(lambda a: fn(torch, a), (torch.tensor(SQUARE),), (torch.tensor(tangent),))
    ours, theirs = (ours, theirs) if isinstance(ours, (tuple, list)) else ((ours,), (theirs,))
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-7, atol=1e-9)


def test_lu_gradient_of_a_rectangular_matrix_is_refused_clearly():
    a = mg.tensor(TALL, requires_grad=True)
    with pytest.raises(NotImplementedError, match="square matrices only"):
        mg.linalg.lu(a).U.sum().backward()


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.linalg.matrix_rank(lib.ones(3, 3)),
        lambda lib: lib.linalg.matrix_rank(lib.tensor(BATCH)),
        lambda lib: lib.linalg.matrix_rank(lib.tensor(TALL)),
        lambda lib: lib.linalg.matrix_rank(lib.ones(2, 3, 3, dtype=lib.float64), tol=0.5),
        lambda lib: lib.linalg.matrix_rank(lib.ones(2, 3, 3, dtype=lib.float64), 5.0),
        lambda lib: lib.linalg.matrix_rank(lib.tensor(SQUARE), atol=1.0),
        lambda lib: lib.linalg.matrix_rank(lib.tensor(SQUARE), atol=0.5, rtol=0.3),
        lambda lib: lib.linalg.matrix_rank(lib.tensor(SQUARE), rtol=0.2),
        lambda lib: lib.linalg.matrix_rank(lib.tensor(SQUARE + SQUARE.T), hermitian=True, rtol=0.2),
        lambda lib: lib.linalg.matrix_rank(lib.zeros(0, 3)),
    ],
)
def test_matrix_rank_matches_torch(call):
    torch = pytest.importorskip("torch")
    ours, theirs = call(mg), call(torch)
    assert ours.dtype == mg.int64 and tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_matrix_rank_has_no_gradient():
    assert not mg.linalg.matrix_rank(mg.tensor(SQUARE, requires_grad=True)).requires_grad


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.linalg.matrix_rank(lib.ones(3)),
        lambda lib: lib.linalg.matrix_rank(lib.ones(3, 3, dtype=lib.int64)),
        lambda lib: lib.linalg.matrix_exp(lib.ones(2, 3)),
        lambda lib: lib.linalg.matrix_exp(lib.ones(2, 2, dtype=lib.int64)),
        lambda lib: lib.linalg.lu_factor(lib.ones(3, dtype=lib.float64)),
        lambda lib: lib.linalg.lu_factor(lib.ones(3, 3, dtype=lib.int64)),
        lambda lib: lib.linalg.lu_factor(lib.ones(3, 3, dtype=lib.float64)),
        lambda lib: lib.linalg.lu_factor(lib.ones(2, 3, 3, dtype=lib.float64)),
        lambda lib: lib.linalg.lu(lib.ones(3, dtype=lib.float64)),
        lambda lib: lib.linalg.lu_factor(lib.ones(2, 2, dtype=lib.float64), pivot=False),
        lambda lib: lib.linalg.lu(lib.ones(2, 2, dtype=lib.float64), pivot=False),
    ],
)
def test_errors_are_torchs(call):
    ours, theirs = raises_like_torch(call)
    assert str(ours) == str(theirs)


def test_lu_without_scipy_says_what_it_needs(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "scipy.linalg", None)
    with pytest.raises(RuntimeError, match=r"needs SciPy \(pip install scipy\)"):
        mg.linalg.lu(mg.tensor(SQUARE))


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: mg.linalg.matrix_exp(a),
        lambda a: mg.linalg.matrix_rank(a),
        lambda a: mg.linalg.lu(a).U,
        lambda a: mg.linalg.lu_factor(a).pivots,
    ],
)
def test_vmap_batches_without_the_loop(fn):
    x = mg.tensor(RNG.normal(size=(4, 3, 3)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a batching rule, not the loop fallback's notice
        batched = mg.func.vmap(fn)(x)
    np.testing.assert_array_equal(batched.numpy(), mg.stack([fn(x[i]) for i in range(4)]).numpy())
