"""torch.linalg's inv, det, slogdet, solve, cholesky, eigh, svd, svdvals, qr, pinv, lstsq, norm,
matrix_norm (and torch.inverse/det/slogdet/logdet/pinverse): torch's values, gradients (gradchecked
in float64), forward-mode tangents and errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.torch_oracle import Arr, check, raises_like_torch

RNG = np.random.default_rng(0)
SQUARE = RNG.normal(size=(3, 3)) + 3 * np.eye(3)
_root = RNG.normal(size=(3, 3))
SPD = _root @ _root.T + np.eye(3)
TALL = RNG.normal(size=(4, 3))
BATCH = RNG.normal(size=(2, 3, 3)) + 3 * np.eye(3)


def _signed_eigh(lib, a):
    w, v = lib.linalg.eigh(a)
    return w, v * v[..., :1, :].sign()  # eigenvectors up to sign: fix the sign by the first row


def _signed_svd(lib, a):
    u, s, vh = lib.linalg.svd(a, full_matrices=False)
    sign = vh[..., :, :1].sign()
    return u * sign.mT, s, vh * sign


CASES = {
    "inv": (lambda lib, a: lib.linalg.inv(a), Arr(SQUARE)),
    "inverse": (lambda lib, a: a.inverse(), Arr(SQUARE)),
    "det": (lambda lib, a: lib.det(a), Arr(SQUARE)),
    "linalg_det": (lambda lib, a: lib.linalg.det(a), Arr(BATCH)),
    "slogdet": (lambda lib, a: lib.linalg.slogdet(a), Arr(SQUARE)),
    "slogdet_top": (lambda lib, a: lib.slogdet(-a), Arr(SQUARE)),
    "logdet": (lambda lib, a: lib.logdet(a), Arr(SPD)),
    "solve": (lambda lib, a, b: lib.linalg.solve(a, b), Arr(SQUARE), Arr(TALL[:3])),
    "solve_vector": (lambda lib, a, b: lib.linalg.solve(a, b), Arr(SQUARE), Arr(TALL[:3, 0])),
    "solve_right": (lambda lib, a, b: lib.linalg.solve(a, b, left=False), Arr(SQUARE), Arr(TALL)),
    "cholesky": (lambda lib, a: lib.linalg.cholesky((a + a.mT) / 2), Arr(SPD)),
    "cholesky_upper": (lambda lib, a: lib.linalg.cholesky((a + a.mT) / 2, upper=True), Arr(SPD)),
    "eigh": (lambda lib, a: _signed_eigh(lib, a + a.mT), Arr(SQUARE)),
    "eigvalsh": (lambda lib, a: lib.linalg.eigvalsh(a + a.mT), Arr(BATCH)),
    "svd": (lambda lib, a: _signed_svd(lib, a), Arr(TALL)),
    "svd_wide": (lambda lib, a: _signed_svd(lib, a.mT), Arr(TALL)),
    "svdvals": (lambda lib, a: lib.linalg.svdvals(a), Arr(TALL)),
    "qr": (lambda lib, a: lib.linalg.qr(a), Arr(TALL)),
    "qr_batch": (lambda lib, a: lib.linalg.qr(a), Arr(BATCH)),
    "pinv": (lambda lib, a: lib.linalg.pinv(a), Arr(TALL)),
    "pinverse": (lambda lib, a: lib.pinverse(a.mT), Arr(TALL)),
    "lstsq": (lambda lib, a, b: lib.linalg.lstsq(a, b).solution, Arr(TALL), Arr(RNG.normal(size=(4, 2)))),
    "norms": (
        lambda lib, a: [
            lib.linalg.norm(a),
            lib.linalg.norm(a, "nuc"),
            lib.linalg.norm(a, 2),
            lib.linalg.norm(a, -2),
            lib.linalg.norm(a, -1),
            lib.linalg.norm(a, float("inf")),
            lib.linalg.norm(a[0], 3),
            lib.linalg.norm(a, dim=1),
            lib.linalg.matrix_norm(a, keepdim=True),
            lib.linalg.matrix_norm(a, 1),
            lib.linalg.vector_norm(a, 1, dim=(0, 1)),
        ],
        Arr(TALL),
    ),
    "batched": (
        lambda lib, a: [lib.linalg.inv(a), lib.det(a), lib.linalg.svdvals(a), lib.linalg.solve(a, a)],
        Arr(BATCH),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    pytest.importorskip("torch")
    fn, *args = CASES[name]
    check(fn, *args, rtol=1e-6, atol=1e-8)


JVP_CASES = {
    "inv": (lambda lib, a: lib.linalg.inv(a), SPD),
    "det": (lambda lib, a: lib.det(a), SPD),
    "slogdet": (lambda lib, a: lib.slogdet(a)[1], SPD),
    "solve": (lambda lib, a: lib.linalg.solve(a, a[:, :2] * 2 + 1), SPD),
    "cholesky": (lambda lib, a: lib.linalg.cholesky(a), SPD),
    "eigh": (_signed_eigh, SPD),
    "svd": (_signed_svd, TALL),
    "svdvals": (lambda lib, a: lib.linalg.svdvals(a), TALL),
    "qr": (lambda lib, a: lib.linalg.qr(a), TALL),
}


@pytest.mark.parametrize("name", sorted(JVP_CASES))
def test_forward_mode_matches_torch(name):
    torch = pytest.importorskip("torch")
    fn, x = JVP_CASES[name]
    tangent = RNG.normal(size=x.shape)
    if x.shape[0] == x.shape[1]:
        tangent = tangent + tangent.T  # symmetric, for the decompositions of symmetric matrices
    _, ours = mg.func.jvp(lambda a: fn(mg, a), (mg.tensor(x),), (mg.tensor(tangent),))
    _, theirs = torch.func.jvp(lambda a: fn(torch, a), (torch.tensor(x),), (torch.tensor(tangent),))
    ours, theirs = (ours, theirs) if isinstance(ours, (tuple, list)) else ((ours,), (theirs,))
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-7, atol=1e-9)


def test_second_derivatives_gradcheck():
    a = mg.tensor(SPD, requires_grad=True)

    def first(t):
        sym = (t + t.mT) / 2  # cholesky reads one triangle: its gradient is the symmetric one
        loss = mg.logdet(sym) + mg.linalg.inv(sym).sum() + mg.linalg.cholesky(sym).sum()
        (g,) = mg.autograd.grad(loss, (t,), create_graph=True)
        return g

    assert gradcheck(first, (a,))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.linalg.inv(lib.zeros(2, 3)),
        lambda lib: lib.linalg.det(lib.zeros(3)),
        lambda lib: lib.linalg.solve(lib.eye(2), lib.zeros(3, 1)),
        lambda lib: lib.linalg.eigh(lib.eye(2), UPLO="X"),
        lambda lib: lib.linalg.qr(lib.eye(2), mode="x"),
        lambda lib: lib.linalg.matrix_norm(lib.eye(2), ord=3),
        lambda lib: lib.linalg.inv(lib.eye(2, dtype=lib.int64)),
    ],
)
def test_errors_are_torchs(call):
    raises_like_torch(call)


def test_error_words():
    with pytest.raises(RuntimeError, match="A must be batches of square matrices, but they are 2 by 3 matrices"):
        mg.linalg.inv(mg.zeros(2, 3))
    with pytest.raises(RuntimeError, match="the input matrix is singular"):
        mg.linalg.inv(mg.zeros(2, 2))
    with pytest.raises(RuntimeError, match="is not positive-definite"):
        mg.linalg.cholesky(-mg.eye(2))
    with pytest.raises(RuntimeError, match=r"Incompatible shapes of A and B for the equation AX = B \(2x2 and 3x1\)"):
        mg.linalg.solve(mg.eye(2), mg.zeros(3, 1))


def test_full_matrices_and_other_qr_modes_give_values():
    torch = pytest.importorskip("torch")
    u, s, vh = mg.linalg.svd(mg.tensor(TALL))
    assert u.shape == (4, 4) and vh.shape == (3, 3)
    np.testing.assert_allclose((u[:, :3] * s) @ vh, TALL, atol=1e-12)
    q, r = mg.linalg.qr(mg.tensor(TALL), mode="complete")
    np.testing.assert_allclose(q.numpy() @ r.numpy(), TALL, atol=1e-12)
    assert mg.linalg.qr(mg.tensor(TALL), mode="r").R.shape == tuple(
        torch.linalg.qr(torch.tensor(TALL), mode="r").R.shape
    )
    assert mg.linalg.lstsq(mg.tensor(TALL), mg.tensor(TALL)).rank.item() == 3


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2**31 - 1))
def test_identities_on_random_matrices(n, seed):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(n, n)) + n * np.eye(n)
    x = mg.tensor(a, requires_grad=True)
    np.testing.assert_allclose((x @ mg.linalg.inv(x)).detach().numpy(), np.eye(n), atol=1e-9)
    np.testing.assert_allclose(mg.det(x).item(), np.linalg.det(a), rtol=1e-9)
    spd = x @ x.mT + mg.eye(n, dtype=mg.float64)
    low = mg.linalg.cholesky(spd)
    np.testing.assert_allclose((low @ low.mT).detach().numpy(), spd.detach().numpy(), atol=1e-9)
    w, v = mg.linalg.eigh(spd)
    np.testing.assert_allclose((v * w[None, :] @ v.mT).detach().numpy(), spd.detach().numpy(), atol=1e-8)
    assert gradcheck(lambda t: (mg.linalg.slogdet(t).logabsdet, mg.linalg.svdvals(t)), (x,))
