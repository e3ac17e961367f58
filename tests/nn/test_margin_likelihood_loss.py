"""Margin, embedding and likelihood losses and pairwise_distance: values and gradients against PyTorch
(gradcheck in float64 by the oracle), the layers, and PyTorch's refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import Arr, arr, check, raises_like_torch

REDUCTIONS = ["mean", "sum", "none"]


def _f(lib):
    return F if lib is mg else lib.nn.functional


def _signs(*shape, seed=3):
    return Arr(np.random.default_rng(seed).choice([-1.0, 1.0], shape), grad=False)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cosine_embedding_loss_matches_torch(reduction):
    pytest.importorskip("torch")
    call = lambda lib, a, b, t: _f(lib).cosine_embedding_loss(a, b, t, margin=0.2, reduction=reduction)  # noqa: E731
    check(call, arr(5, 4), arr(5, 4, seed=1), _signs(5))
    check(call, arr(4), arr(4, seed=1), Arr(np.array(-1.0), grad=False))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_margin_ranking_loss_matches_torch(reduction):
    pytest.importorskip("torch")
    check(
        lambda lib, a, b, t: _f(lib).margin_ranking_loss(a, b, t, margin=0.3, reduction=reduction),
        arr(7),
        arr(7, seed=1),
        _signs(7),
    )


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_hinge_embedding_and_soft_margin_losses_match_torch(reduction):
    pytest.importorskip("torch")
    check(lambda lib, x, t: _f(lib).hinge_embedding_loss(x, t, 1.5, reduction=reduction), arr(4, 5), _signs(4, 5))
    check(lambda lib, x, t: _f(lib).soft_margin_loss(x, t, reduction=reduction), arr(4, 5), _signs(4, 5))


@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multi_margin_loss_matches_torch(p, reduction):
    pytest.importorskip("torch")
    target = Arr(np.array([0, 3, 2, 3, 1]), grad=False)
    check(lambda lib, x, t: _f(lib).multi_margin_loss(x, t, p=p, reduction=reduction), arr(5, 4), target)
    check(
        lambda lib, x, t, w: _f(lib).multi_margin_loss(x, t, p, 0.7, w, reduction=reduction),
        arr(5, 4),
        target,
        arr(4, seed=2, low=0.1, high=1.0, grad=False),
    )


def test_multi_margin_loss_of_one_sample_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, x, t: _f(lib).multi_margin_loss(x, t), arr(4), Arr(np.array(2), grad=False))


@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("p", [1.0, 2.0, 3.0])
def test_triplet_margin_loss_matches_torch(swap, p):
    pytest.importorskip("torch")
    check(
        lambda lib, a, pos, neg: _f(lib).triplet_margin_loss(a, pos, neg, margin=2.0, p=p, swap=swap),
        arr(6, 3),
        arr(6, 3, seed=1),
        arr(6, 3, seed=2),
    )


def test_pairwise_distance_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, a, b: _f(lib).pairwise_distance(a, b), arr(4, 3), arr(4, 3, seed=1))
    check(lambda lib, a, b: _f(lib).pairwise_distance(a, b, 1.0, 1e-3, True), arr(2, 4, 3), arr(3, seed=1))
    check(lambda lib, a, b: lib.nn.PairwiseDistance(p=3.0)(a, b), arr(4, 3), arr(4, 3, seed=1))


@pytest.mark.parametrize("log_input", [True, False])
@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_poisson_nll_loss_matches_torch(log_input, full, reduction):
    pytest.importorskip("torch")
    low = -1.0 if log_input else 0.1
    target = Arr(np.array([[0.0, 1.0, 2.0, 5.0], [3.0, 0.5, 7.0, 1.5]]), grad=False)
    check(
        lambda lib, x, t: _f(lib).poisson_nll_loss(x, t, log_input=log_input, full=full, reduction=reduction),
        arr(2, 4, low=low, high=2.0),
        target,
    )


@pytest.mark.parametrize("var_shape", [(4, 3), (4,), (4, 1)])
@pytest.mark.parametrize("full", [False, True])
def test_gaussian_nll_loss_matches_torch(var_shape, full):
    pytest.importorskip("torch")
    check(
        lambda lib, x, t, v: _f(lib).gaussian_nll_loss(x, t, v, full=full),
        arr(4, 3),
        arr(4, 3, seed=1),
        arr(*var_shape, seed=2, low=0.2, high=2.0),
    )


def test_gaussian_nll_loss_float_var_and_clamp_match_torch():
    pytest.importorskip("torch")
    check(lambda lib, x, t: _f(lib).gaussian_nll_loss(x, t, 0.5, reduction="sum"), arr(4, 3), arr(4, 3, seed=1))
    var = Arr(np.array([1e-9, 0.5, 2.0]))  # the first is clamped to eps for the value only
    check(lambda lib, x, t, v: _f(lib).gaussian_nll_loss(x, t, v), arr(3), arr(3, seed=1), var, gradcheck_=False)


LAYERS = [
    ("CosineEmbeddingLoss", dict(margin=0.1), lambda: (arr(3, 4), arr(3, 4, seed=1), _signs(3))),
    ("MarginRankingLoss", dict(margin=0.1), lambda: (arr(3), arr(3, seed=1), _signs(3))),
    ("HingeEmbeddingLoss", dict(reduction="sum"), lambda: (arr(3, 2), _signs(3, 2))),
    ("SoftMarginLoss", {}, lambda: (arr(3, 2), _signs(3, 2))),
    ("MultiMarginLoss", dict(p=2), lambda: (arr(3, 4), Arr(np.array([1, 0, 3]), grad=False))),
    ("TripletMarginLoss", dict(swap=True), lambda: (arr(3, 4), arr(3, 4, seed=1), arr(3, 4, seed=2))),
    (
        "PoissonNLLLoss",
        dict(full=True),
        lambda: (arr(3, 2), Arr(np.array([[0.0, 2.0], [3.0, 1.0], [4.0, 9.0]]), False)),
    ),
    ("GaussianNLLLoss", dict(full=True), lambda: (arr(3, 2), arr(3, 2, seed=1), arr(3, 1, low=0.1, high=1.0))),
]


@pytest.mark.parametrize(("name", "kwargs", "inputs"), LAYERS, ids=[case[0] for case in LAYERS])
def test_layers_match_torch(name, kwargs, inputs):
    pytest.importorskip("torch")
    check(lambda lib, *xs: getattr(lib.nn, name)(**kwargs)(*xs), *inputs())


def test_multi_margin_weight_is_a_buffer_as_torch():
    layer = mg.nn.MultiMarginLoss(weight=mg.ones(3))
    assert list(layer.state_dict()) == ["weight"]
    assert list(layer.parameters()) == []


def test_legacy_flags_warn_and_set_the_reduction():
    with pytest.warns(UserWarning, match="reduction='sum'"):
        layer = mg.nn.SoftMarginLoss(size_average=False)
    assert layer.reduction == "sum"


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: _f(lib).triplet_margin_loss(lib.zeros(2, 3), lib.zeros(2, 3), lib.zeros(2, 3), margin=0),
        lambda lib: _f(lib).triplet_margin_loss(lib.zeros(2, 3), lib.zeros(3), lib.zeros(2, 3)),
        lambda lib: _f(lib).multi_margin_loss(lib.zeros(2, 3), lib.tensor([0, 3])),
        lambda lib: _f(lib).multi_margin_loss(lib.zeros(2, 3), lib.tensor([0, 1, 1])),
        lambda lib: _f(lib).multi_margin_loss(lib.zeros(2, 3), lib.tensor([0, 1]), p=3),
        lambda lib: _f(lib).multi_margin_loss(lib.zeros(2, 3), lib.tensor([0, 1]), weight=lib.ones(2)),
        lambda lib: _f(lib).multi_margin_loss(lib.zeros(2, 3, 4), lib.tensor([0, 1])),
        lambda lib: _f(lib).cosine_embedding_loss(lib.zeros(2, 3), lib.zeros(2, 3), lib.zeros(2, 2)),
        lambda lib: _f(lib).cosine_embedding_loss(lib.zeros(2, 3), lib.zeros(2, 3), lib.zeros(())),
        lambda lib: _f(lib).margin_ranking_loss(lib.zeros(2, 3), lib.zeros(2, 3), lib.zeros(2)),
        lambda lib: _f(lib).gaussian_nll_loss(lib.zeros(2, 3), lib.zeros(2, 3), lib.ones(3, 2)),
        lambda lib: _f(lib).gaussian_nll_loss(lib.zeros(2, 3), lib.zeros(2, 3), -lib.ones(2, 3)),
        lambda lib: _f(lib).gaussian_nll_loss(lib.zeros(2, 3), lib.zeros(2, 3), -1.0),
        lambda lib: _f(lib).soft_margin_loss(lib.zeros(2), lib.zeros(2), reduction="avg"),
        lambda lib: lib.nn.TripletMarginLoss(margin=-1.0),
        lambda lib: lib.nn.MultiMarginLoss(p=3),
    ],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)


def test_refusal_words():
    with pytest.raises(RuntimeError, match="1D target tensor expects 2D input tensors, but found inputs with sizes"):
        F.cosine_embedding_loss(mg.zeros(3), mg.zeros(3), mg.zeros(3))
    with pytest.raises(RuntimeError, match="target out of range"):
        F.multi_margin_loss(mg.zeros(2, 3), mg.tensor([0, 3]))
    with pytest.raises(ValueError, match="var is of incorrect size"):
        F.gaussian_nll_loss(mg.zeros(2, 3), mg.zeros(2, 3), mg.ones(3, 2))


MULTILABEL_TARGET = np.array([[3, 0, -1, 1], [1, 1, 2, -1], [2, 0, 1, 3], [-1, 2, 0, 0]])


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_margin_loss_matches_torch(reduction):
    pytest.importorskip("torch")
    target = Arr(MULTILABEL_TARGET, grad=False)
    check(lambda lib, x, t: _f(lib).multilabel_margin_loss(x, t, reduction=reduction), arr(4, 4), target)
    check(lambda lib, x, t: lib.nn.MultiLabelMarginLoss(reduction=reduction)(x, t), arr(4, 4, seed=2), target)
    check(
        lambda lib, x, t: _f(lib).multilabel_margin_loss(x, t, reduction=reduction),
        arr(4),
        Arr(MULTILABEL_TARGET[0], grad=False),
    )


def test_multilabel_margin_loss_legacy_flags_and_repr():
    torch = pytest.importorskip("torch")
    assert repr(mg.nn.MultiLabelMarginLoss()) == repr(torch.nn.MultiLabelMarginLoss()) == "MultiLabelMarginLoss()"
    x, t = mg.tensor(np.random.default_rng(0).normal(size=(4, 4))), mg.tensor(MULTILABEL_TARGET)
    summed = F.multilabel_margin_loss(x, t, size_average=False)
    np.testing.assert_allclose(summed.numpy(), F.multilabel_margin_loss(x, t, reduction="sum").numpy())


def test_multilabel_margin_loss_under_vmap_equals_the_loop():
    import warnings

    x = mg.tensor(np.random.default_rng(1).normal(size=(3, 4, 4)))
    t = mg.tensor(np.stack([MULTILABEL_TARGET, MULTILABEL_TARGET[::-1], MULTILABEL_TARGET[:, ::-1].copy()]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the loop fallback's notice: the labels are checked per entry
        batched = mg.func.vmap(F.multilabel_margin_loss)(x, t)
    looped = mg.stack([F.multilabel_margin_loss(x[i], t[i]) for i in range(3)])
    np.testing.assert_allclose(batched.numpy(), looped.numpy(), rtol=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.functional.multilabel_margin_loss(lib.zeros(2, 4), lib.zeros(2, 3, dtype=lib.int64)),
        lambda lib: lib.nn.functional.multilabel_margin_loss(lib.zeros(2, 4), lib.full((2, 4), 4)),
        lambda lib: lib.nn.functional.multilabel_margin_loss(lib.zeros(2, 4), lib.full((2, 4), -2)),
        lambda lib: lib.nn.functional.multilabel_margin_loss(lib.zeros(2, 2, 2), lib.zeros(2, 2, 2, dtype=lib.int64)),
        lambda lib: lib.nn.functional.multilabel_margin_loss(lib.zeros(2, 4), lib.zeros(2, 4)),
        lambda lib: lib.nn.functional.multilabel_margin_loss(lib.zeros(2, 4), lib.zeros(2, 4, dtype=lib.int32)),
        lambda lib: lib.nn.functional.multilabel_margin_loss(
            lib.zeros(2, 4), lib.zeros(2, 4, dtype=lib.int64), reduction="x"
        ),
        lambda lib: lib.nn.functional.multilabel_margin_loss(
            lib.zeros(2, 4, dtype=lib.int32), lib.zeros(2, 4, dtype=lib.int64)
        ),
    ],
)
def test_multilabel_margin_loss_errors_are_torchs(call):
    ours, theirs = raises_like_torch(call)
    assert str(ours) == str(theirs)
