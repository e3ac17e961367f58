"""The ops added for PyTorch programs (special functions, products, selection, arranging, order
statistics, linear algebra, in-place variants) under vmap: each gives what a loop over the batch gives
(by a batching rule, or by the loop fallback with its warning)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg

EYE = mg.eye(3, dtype=mg.float64)

CALLS = {
    "hypot": lambda t: mg.hypot(t, t.sum()),
    "lgamma": lambda t: t.abs().lgamma(),
    "xlogy": lambda t: mg.xlogy(t, t.abs() + 1),
    "kron": lambda t: mg.kron(t, t),
    "addmm": lambda t: mg.addmm(t, t, t, beta=0.5),
    "tensordot": lambda t: mg.tensordot(t, t, 1),
    "quantile": lambda t: mg.quantile(t, 0.3, 1),
    "median": lambda t: t.median(0).values,
    "diagonal": lambda t: t.diagonal(1),
    "diag_embed": lambda t: mg.diag_embed(t),
    "hstack": lambda t: mg.hstack([t, t]),
    "diff": lambda t: t.diff(dim=0),
    "logcumsumexp": lambda t: t.logcumsumexp(0),
    "cummax": lambda t: t.cummax(1).values,
    "index_add": lambda t: t.index_add(0, mg.tensor([0, 0, 1]), t),
    "masked_fill_like": lambda t: t.index_fill(1, mg.tensor([2]), 0.5),
    "cov": lambda t: mg.cov(t),
    "exp_": lambda t: (t * 1).exp_(),
    "inv": lambda t: mg.linalg.inv(t + 3 * EYE),
    "eigh": lambda t: mg.linalg.eigh(t + t.mT).eigenvalues,
    "svdvals": lambda t: mg.linalg.svdvals(t),
    "det": lambda t: mg.det(t),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_vmap_equals_the_loop(name):
    x = mg.tensor(np.random.default_rng(0).normal(size=(4, 3, 3)))
    call = CALLS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the loop fallback's performance notice
        batched = mg.func.vmap(call)(x)
    looped = mg.stack([call(x[i]) for i in range(4)])
    np.testing.assert_allclose(batched.numpy(), looped.numpy(), rtol=1e-12, atol=1e-12)
