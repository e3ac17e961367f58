"""``vmap(vjp_fn)``: a vjp made outside a vmap, pulled back with a batch of cotangents (was zeros, silently)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import func
from tests.custom_functions import NumpyExp

X = np.array([0.5, -1.0, 2.0])


def _t(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def test_each_cotangent_gets_its_own_pull_back():
    _, pull = func.vjp(lambda x: x.sin() * x, _t(X))
    (rows,) = func.vmap(pull)(_t(np.eye(3)))
    np.testing.assert_allclose(rows.numpy(), np.diag(np.cos(X) * X + np.sin(X)))
    (same,) = func.vmap(lambda c: pull(_t(np.ones(3))))(_t(np.eye(3)))  # an unbatched cotangent
    np.testing.assert_allclose(same.numpy(), np.tile(np.cos(X) * X + np.sin(X), (3, 1)))


def test_per_example_vmap_of_vjp_fn_nests():
    xs = _t(np.stack([X, 2 * X]))

    def jacobian(x):
        _, pull = func.vjp(lambda x: x.exp(), x)
        return func.vmap(pull)(_t(np.eye(3)))[0]

    np.testing.assert_allclose(func.vmap(jacobian)(xs).numpy(), np.stack([np.diag(np.exp(r)) for r in xs.numpy()]))


def test_a_custom_function_pulled_back_under_vmap():
    _, pull = func.vjp(NumpyExp.apply, _t(X))
    np.testing.assert_allclose(func.vmap(pull)(_t(np.eye(3)))[0].numpy(), np.diag(np.exp(X)))


def test_as_torch_func():
    torch = pytest.importorskip("torch")
    cotangents = np.random.default_rng(0).normal(size=(4, 2, 3))

    def run(lib, F):
        x = lib.tensor(X, dtype=lib.float64)
        _, pull = F.vjp(lambda x: (x.tanh().unsqueeze(0) * x.unsqueeze(1)).sum(0)[:2].unsqueeze(1) * x, x)
        return F.vmap(pull)(lib.tensor(cotangents, dtype=lib.float64))[0].detach().numpy()

    np.testing.assert_allclose(run(mg, func), run(torch, torch.func), rtol=1e-12)
