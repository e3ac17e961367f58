"""addmm, addmv, addbmm, baddbmm, addcmul, addcdiv, kron, tensordot, dist, renorm: torch's values,
gradients and errors; composed of the ops their definitions name."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.ops.strategies import arrays, shapes, to_tensor
from tests.torch_oracle import arr, check, raises_like_torch

CASES = {
    "addmm": (lambda lib, i, a, b: lib.addmm(i, a, b), (arr(2, 4), arr(2, 3, seed=1), arr(3, 4, seed=2))),
    "addmm_scaled": (
        lambda lib, i, a, b: i.addmm(a, b, beta=0.5, alpha=-2),
        (arr(4), arr(2, 3, seed=1), arr(3, 4, seed=2)),
    ),
    "addmv": (lambda lib, i, a, b: lib.addmv(i, a, b, alpha=3), (arr(2), arr(2, 3, seed=1), arr(3, seed=2))),
    "baddbmm": (
        lambda lib, i, a, b: lib.baddbmm(i, a, b, beta=2),
        (arr(5, 2, 4), arr(5, 2, 3, seed=1), arr(5, 3, 4, seed=2)),
    ),
    "addbmm": (lambda lib, i, a, b: i.addbmm(a, b, alpha=0.5), (arr(2, 4), arr(5, 2, 3, seed=1), arr(5, 3, 4, seed=2))),
    "addcmul": (lambda lib, i, a, b: lib.addcmul(i, a, b, value=0.3), (arr(2, 3), arr(3, seed=1), arr(2, 1, seed=2))),
    "addcdiv": (
        lambda lib, i, a, b: i.addcdiv(a, b, value=-2),
        (arr(2, 3), arr(2, 3, seed=1), arr(3, seed=2, low=0.5)),
    ),
    "kron": (lambda lib, a, b: lib.kron(a, b), (arr(2, 3), arr(3, 2, seed=1))),
    "kron_ranks": (lambda lib, a, b: a.kron(b), (arr(3), arr(2, 2, seed=1))),
    "tensordot": (lambda lib, a, b: lib.tensordot(a, b), (arr(2, 3, 4), arr(3, 4, 2, seed=1))),
    "tensordot_lists": (
        lambda lib, a, b: lib.tensordot(a, b, dims=([0, 2], [1, 0])),
        (arr(2, 3, 4), arr(4, 2, 5, seed=1)),
    ),
    "tensordot_zero": (lambda lib, a, b: lib.tensordot(a, b, 0), (arr(2), arr(3, seed=1))),
    "dist": (lambda lib, a, b: lib.dist(a, b), (arr(2, 3), arr(3, seed=1))),
    "dist_p": (lambda lib, a, b: a.dist(b, 3), (arr(2, 3), arr(2, 3, seed=1))),
    "renorm": (lambda lib, a: lib.renorm(a, 2, 0, 1.5), (arr(3, 4, low=-3, high=3),)),
    "renorm_p1": (lambda lib, a: a.renorm(1, 1, 2.0), (arr(3, 4, 2, low=-3, high=3),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    pytest.importorskip("torch")
    fn, args = CASES[name]
    check(fn, *args)


def test_beta_zero_does_not_read_input():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (mg, torch):
        i = lib.tensor([[np.nan, np.inf]], requires_grad=True)
        a, b = lib.ones(1, 2), lib.ones(2, 2)
        out = lib.addmm(i, a, b, beta=0)
        out.sum().backward()
        results.append((out.detach().numpy(), i.grad.numpy()))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])


def test_in_place_forms_match_torch():
    torch = pytest.importorskip("torch")
    outs = []
    for lib in (mg, torch):
        x = lib.ones(2, 2, dtype=lib.float64)
        x.addmm_(lib.eye(2, dtype=lib.float64), lib.full((2, 2), 2.0, dtype=lib.float64), alpha=2)
        x.addcmul_(x, x, value=0.5)
        x.addcdiv_(lib.ones(2, 2, dtype=lib.float64), x)
        outs.append(x.numpy())
    np.testing.assert_allclose(outs[0], outs[1])


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.addmm(lib.zeros(2, 2), lib.zeros(2), lib.zeros(2, 2)),
        lambda lib: lib.addmm(lib.zeros(2, 2), lib.zeros(2, 3), lib.zeros(2, 2)),
        lambda lib: lib.addmv(lib.zeros(2), lib.zeros(2, 2), lib.zeros(2, 2)),
        lambda lib: lib.addcdiv(lib.zeros(2), lib.ones(2, dtype=lib.int64), lib.ones(2, dtype=lib.int64)),
        lambda lib: lib.tensordot(lib.zeros(2, 3), lib.zeros(3, 2), dims=3),
        lambda lib: lib.tensordot(lib.zeros(2, 3), lib.zeros(2, 3), dims=([0], [1])),
        lambda lib: lib.renorm(lib.zeros(2, 2), 0, 0, 1.0),
        lambda lib: lib.renorm(lib.zeros(2), 2, 0, 1.0),
    ],
)
def test_errors_are_torchs(call):
    raises_like_torch(call)


def test_error_words():
    with pytest.raises(RuntimeError, match="mat1 must be a matrix, got 1-D tensor"):
        mg.addmm(mg.zeros(2, 2), mg.zeros(2), mg.zeros(2, 2))
    with pytest.raises(RuntimeError, match="vector \\+ matrix @ vector expected, got 1, 2, 2"):
        mg.addmv(mg.zeros(2), mg.zeros(2, 2), mg.zeros(2, 2))


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_kron_blocks_and_tensordot_as_einsum(data):
    sa, sb = data.draw(shapes(min_dims=1, max_dims=2)), data.draw(shapes(min_dims=1, max_dims=2))
    a, b = to_tensor(data.draw(arrays(sa))), to_tensor(data.draw(arrays(sb)))
    np.testing.assert_allclose(mg.kron(a, b).detach().numpy(), np.kron(a.detach().numpy(), b.detach().numpy()))
    assert gradcheck(lambda x, y: mg.kron(x, y), (a, b))
    c = to_tensor(data.draw(arrays(sa[-1:] + (2,))))
    np.testing.assert_allclose(
        mg.tensordot(a, c, dims=1).detach().numpy(), np.tensordot(a.detach().numpy(), c.detach().numpy(), axes=1)
    )


@settings(max_examples=25, deadline=None)
@given(arrays(shapes(min_dims=2, max_dims=3)), st.floats(0.1, 3.0))
def test_renorm_caps_every_slice_norm(a, maxnorm):
    out = mg.renorm(mg.tensor(a), 2, 0, maxnorm).numpy()
    norms = np.sqrt((out.reshape(out.shape[0], -1) ** 2).sum(1))
    assert (norms <= maxnorm + 1e-6).all()
