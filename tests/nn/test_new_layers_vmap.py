"""vmap over the layers composed of ops (issue 30's nn items): each is batched by its ops' rules, with no
loop warning, and equals the per-entry results; those that read values run by the loop, with its warning."""

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.func import vmap

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4, 6))
SIGNS = np.sign(RNG.standard_normal((3, 4, 6)))

CASES = {
    "selu": (F.selu, X),
    "celu": (lambda t: F.celu(t, 0.5), X),
    "glu": (F.glu, X),
    "softmin": (lambda t: F.softmin(t, 1), X),
    "hardshrink": (F.hardshrink, X),
    "softshrink": (F.softshrink, X),
    "tanhshrink": (F.tanhshrink, X),
    "threshold": (lambda t: F.threshold(t, 0.1, 2.0), X),
    "prelu": (F.prelu, RNG.standard_normal((3, 2, 4, 6)), RNG.standard_normal((3, 4))),
    "rms_norm": (lambda t, w: F.rms_norm(t, (6,), w), X, RNG.standard_normal((3, 6))),
    "instance_norm": (F.instance_norm, RNG.standard_normal((3, 2, 4, 5))),
    "pixel_shuffle": (lambda t: F.pixel_shuffle(t, 2), RNG.standard_normal((3, 2, 8, 3, 3))),
    "pixel_unshuffle": (lambda t: F.pixel_unshuffle(t, 2), RNG.standard_normal((3, 2, 2, 4, 4))),
    "bilinear": (
        F.bilinear,
        RNG.standard_normal((3, 5, 2)),
        RNG.standard_normal((3, 5, 3)),
        RNG.standard_normal((3, 4, 2, 3)),
    ),
    "pairwise_distance": (F.pairwise_distance, X, 2 * X),
    "cosine_embedding_loss": (F.cosine_embedding_loss, X, 2 * X, SIGNS[:, :, 0]),
    "margin_ranking_loss": (F.margin_ranking_loss, X, 2 * X, SIGNS),
    "hinge_embedding_loss": (F.hinge_embedding_loss, X, SIGNS),
    "soft_margin_loss": (F.soft_margin_loss, X, SIGNS),
    "triplet_margin_loss": (lambda a, p, n: F.triplet_margin_loss(a, p, n, swap=True), X, 2 * X, 3 * X),
    "poisson_nll_loss": (lambda a, t: F.poisson_nll_loss(a, t, full=True), X, 3 * np.abs(X)),
    "multilabel_soft_margin_loss": (F.multilabel_soft_margin_loss, X, (SIGNS > 0).astype(float)),
    "triplet_margin_with_distance_loss": (F.triplet_margin_with_distance_loss, X, 2 * X, 3 * X),
    "channel_shuffle": (lambda t: F.channel_shuffle(t, 2), RNG.standard_normal((3, 2, 4, 3))),
    "local_response_norm": (lambda t: F.local_response_norm(t, 3), RNG.standard_normal((3, 2, 5, 4))),
}


def _per_entry(fn, arrays):
    return mg.stack([fn(*(mg.tensor(a[i]) for a in arrays)) for i in range(arrays[0].shape[0])])


@pytest.mark.parametrize("name", list(CASES))
def test_vmap_by_the_ops_rules_equals_the_loop(name):
    fn, *arrays = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "performance drop" loop warning
        out = vmap(fn)(*(mg.tensor(a) for a in arrays))
    np.testing.assert_allclose(out.numpy(), _per_entry(fn, arrays).numpy(), rtol=1e-12, atol=1e-12)


def test_value_checking_losses_run_by_the_loop():
    labels = RNG.integers(0, 6, (3, 4))
    with pytest.warns(UserWarning, match="batching rule for multi_margin_loss"):
        out = vmap(F.multi_margin_loss)(mg.tensor(X), mg.tensor(labels))
    np.testing.assert_allclose(out.numpy(), _per_entry(F.multi_margin_loss, (X, labels)).numpy())
