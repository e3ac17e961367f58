"""huber_loss, smooth_l1_loss, kl_div, cosine_similarity, normalize and their modules against torch."""

from __future__ import annotations

import numpy as np
import pytest

from tests.torch_oracle import Arr, arr, check, raises_like_torch

REDUCTIONS = ["mean", "sum", "none"]
PRED = arr(4, 3, low=-3.0, high=3.0)
TARGET = arr(4, 3, seed=1)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("delta", [0.5, 1.0, 2.5])
def test_huber_loss_matches_torch(reduction, delta):
    pytest.importorskip("torch")
    check(lambda lib, x, t: lib.nn.functional.huber_loss(x, t, reduction=reduction, delta=delta), PRED, TARGET)
    check(lambda lib, x, t: lib.nn.HuberLoss(reduction, delta)(x, t), PRED, TARGET)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0, 2.0])
def test_smooth_l1_loss_matches_torch(reduction, beta):
    pytest.importorskip("torch")
    check(
        lambda lib, x, t: lib.nn.functional.smooth_l1_loss(x, t, reduction=reduction, beta=beta),
        PRED,
        TARGET,
        gradcheck_=beta > 0,  # beta 0 is the L1 loss: not differentiable where x == t, fine elsewhere
    )
    check(lambda lib, x, t: lib.nn.SmoothL1Loss(reduction=reduction, beta=beta)(x, t), PRED, TARGET, gradcheck_=False)


def _log_probs(seed):
    logits = np.random.default_rng(seed).standard_normal((3, 4))
    return logits - np.log(np.exp(logits).sum(1, keepdims=True))


@pytest.mark.parametrize("reduction", ["batchmean", "sum", "none", "mean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div_matches_torch(reduction, log_target):
    pytest.importorskip("torch")
    target = _log_probs(1) if log_target else np.exp(_log_probs(1))
    with pytest.warns(UserWarning) if reduction == "mean" else _no_warning():
        check(
            lambda lib, x, t: lib.nn.functional.kl_div(x, t, reduction=reduction, log_target=log_target),
            Arr(_log_probs(0)),
            Arr(target),
        )
    check(
        lambda lib, x, t: lib.nn.KLDivLoss(reduction="batchmean", log_target=log_target)(x, t),
        Arr(_log_probs(0)),
        Arr(target),
    )


def test_kl_div_with_zero_targets_matches_torch():
    pytest.importorskip("torch")
    target = np.array([[0.0, 0.5, 0.5, 0.0], [1.0, 0.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25]])
    check(
        lambda lib, x, t: lib.nn.functional.kl_div(x, t, reduction="sum"), Arr(_log_probs(0)), Arr(target, grad=False)
    )


class _no_warning:
    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("error")

    def __exit__(self, *exc):
        self._catch.__exit__(*exc)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cosine_similarity_and_normalize_match_torch(dim):
    pytest.importorskip("torch")
    check(lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b, dim=dim), arr(3, 4), arr(3, 4, seed=1))
    check(lambda lib, a, b: lib.nn.CosineSimilarity(dim)(a, b), arr(3, 4), arr(3, 4, seed=1))
    check(lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b, dim), arr(2, 1, 4), arr(3, 4, seed=1))
    for p in (1.0, 2.0, 3.0):
        check(lambda lib, a, p=p: lib.nn.functional.normalize(a, p=p, dim=dim), arr(3, 4))


def test_short_vectors_follow_torchs_eps():
    pytest.importorskip("torch")
    a = Arr(np.array([[1e-5, 0.0], [3.0, 4.0]]))
    b = Arr(np.array([[2e-5, 0.0], [1.0, 1.0]]))
    check(lambda lib, x, y: lib.nn.functional.cosine_similarity(x, y, eps=1e-4), a, b, gradcheck_=False)
    check(lambda lib, x: lib.nn.functional.normalize(x, eps=1e-4), a, gradcheck_=False)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.functional.smooth_l1_loss(lib.ones(2), lib.ones(2), beta=-1.0),
        lambda lib: lib.nn.functional.huber_loss(lib.ones(2), lib.ones(2), delta=0.0),
        lambda lib: lib.nn.functional.kl_div(lib.ones(2), lib.ones(2), reduction="foo"),
        lambda lib: lib.nn.functional.cosine_similarity(lib.ones(2, 3), lib.ones(2, 3), dim=2),
        lambda lib: lib.nn.functional.cosine_similarity(lib.ones(2, 3), lib.ones(2, 4)),
        lambda lib: lib.nn.functional.normalize(lib.ones(3, dtype=lib.long), dim=0),
        lambda lib: lib.nn.functional.huber_loss(lib.ones(3), lib.ones(2)),
    ],
)
def test_bad_input_raises_like_torch(call):
    raises_like_torch(call)
