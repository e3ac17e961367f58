"""Softmax2d, RReLU, gumbel_softmax, ChannelShuffle, LocalResponseNorm, LPPool1d/2d,
MultiLabelSoftMarginLoss and TripletMarginWithDistanceLoss: values and gradients against PyTorch
(gradcheck in float64 by the oracle), the random ones by their properties, and PyTorch's refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import Arr, arr, check, raises_like_torch


def _f(lib):
    return F if lib is mg else lib.nn.functional


def test_softmax2d_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.Softmax2d()(x), arr(2, 3, 4, 2))
    check(lambda lib, x: lib.nn.Softmax2d()(x), arr(3, 4, 2))


def test_rrelu_eval_matches_torch_and_training_draws_slopes_in_range():
    pytest.importorskip("torch")
    check(lambda lib, x: _f(lib).rrelu(x, 0.1, 0.3), arr(4, 5))
    check(lambda lib, x: lib.nn.RReLU().eval()(x), arr(4, 5))
    mg.manual_seed(0)
    x = mg.tensor(-np.ones(10_000))
    slopes = -F.rrelu(x, 0.1, 0.3, training=True).numpy()
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and len(np.unique(slopes)) > 100
    np.testing.assert_array_equal(F.rrelu(mg.tensor([2.0, 0.0]), training=True).numpy(), [2.0, 0.0])


def test_gumbel_softmax_soft_and_hard():
    mg.manual_seed(0)
    logits = mg.tensor(np.log(np.array([[0.7, 0.2, 0.1]] * 4000)), requires_grad=True)
    soft = F.gumbel_softmax(logits, tau=0.5)
    np.testing.assert_allclose(soft.detach().numpy().sum(1), 1.0)
    hard = F.gumbel_softmax(logits, hard=True)
    values = hard.detach().numpy()
    assert set(np.unique(values)) == {0.0, 1.0} and np.all(values.sum(1) == 1)
    np.testing.assert_allclose(values.mean(0), [0.7, 0.2, 0.1], atol=0.03)  # Gumbel-max draws the categorical
    (hard * mg.tensor(np.arange(3.0))).sum().backward()  # straight through: the soft sample's gradient
    assert np.abs(logits.grad.numpy()).sum() > 0


@pytest.mark.parametrize(("shape", "groups"), [((2, 6, 3, 3), 3), ((1, 4, 5), 2)])
def test_channel_shuffle_matches_torch(shape, groups):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.ChannelShuffle(groups)(x), arr(*shape), gradcheck_=True)


@pytest.mark.parametrize(("shape", "size"), [((2, 5, 4), 3), ((2, 6, 3, 3), 2), ((1, 4, 2, 2, 2), 5)])
def test_local_response_norm_matches_torch(shape, size):
    pytest.importorskip("torch")
    check(lambda lib, x: _f(lib).local_response_norm(x, size, alpha=0.1, beta=0.7, k=2.0), arr(*shape))
    check(lambda lib, x: lib.nn.LocalResponseNorm(size)(x), arr(*shape))


@pytest.mark.parametrize("norm_type", [1.0, 2.0, 3.0])
def test_lp_pools_match_torch(norm_type):
    pytest.importorskip("torch")
    check(lambda lib, x: _f(lib).lp_pool1d(x, norm_type, 3, 2), arr(2, 3, 7, low=0.1, high=2.0))
    check(lambda lib, x: lib.nn.LPPool2d(norm_type, (2, 3))(x), arr(2, 3, 4, 6, low=0.1, high=2.0))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_multilabel_soft_margin_loss_matches_torch(reduction):
    pytest.importorskip("torch")
    target = Arr(np.random.default_rng(3).integers(0, 2, (4, 5)).astype(float), grad=False)
    check(lambda lib, x, t: _f(lib).multilabel_soft_margin_loss(x, t, reduction=reduction), arr(4, 5), target)
    weight = Arr(np.linspace(0.5, 1.5, 5), grad=False)
    check(lambda lib, x, t, w: lib.nn.MultiLabelSoftMarginLoss(w, reduction=reduction)(x, t), arr(4, 5), target, weight)


@pytest.mark.parametrize("swap", [False, True])
def test_triplet_margin_with_distance_loss_matches_torch(swap):
    pytest.importorskip("torch")
    inputs = (arr(5, 3), arr(5, 3, seed=1), arr(5, 3, seed=2))
    check(lambda lib, a, p, n: _f(lib).triplet_margin_with_distance_loss(a, p, n, swap=swap, margin=2.0), *inputs)

    def cosine_distance(lib):
        return lambda a, b: 1 - _f(lib).cosine_similarity(a, b)

    check(
        lambda lib, a, p, n: lib.nn.TripletMarginWithDistanceLoss(distance_function=cosine_distance(lib), swap=swap)(
            a, p, n
        ),
        *inputs,
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.Softmax2d()(lib.zeros(2, 3)),
        lambda lib: _f(lib).channel_shuffle(lib.zeros(1, 5, 2, 2), 2),
        lambda lib: _f(lib).local_response_norm(lib.zeros(2, 3), 2),
        lambda lib: lib.nn.TripletMarginWithDistanceLoss(margin=0.0),
        lambda lib: _f(lib).triplet_margin_with_distance_loss(lib.zeros(2, 3), lib.zeros(3), lib.zeros(2, 3)),
    ],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)


def test_reprs_as_torch():
    torch = pytest.importorskip("torch")
    for name, args in [("RReLU", ()), ("ChannelShuffle", (2,)), ("LocalResponseNorm", (3,)), ("LPPool2d", (2, 3))]:
        assert repr(getattr(mg.nn, name)(*args)) == repr(getattr(torch.nn, name)(*args))
