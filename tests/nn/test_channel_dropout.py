"""Dropout1d/2d/3d (whole channels) and AlphaDropout/FeatureAlphaDropout: which elements are dropped,
the scaling (the alpha forms keep a SELU network's mean and variance), gradients, eval mode, and
PyTorch's warnings and refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import raises_like_torch


def _channels_whole(out: np.ndarray, x: np.ndarray, p: float) -> None:
    """Every [n, c] channel of ``out`` is all zero or ``x / (1 - p)`` throughout."""
    kept = out.reshape(out.shape[0], out.shape[1], -1)
    src = x.reshape(kept.shape) / (1 - p)
    for n in range(kept.shape[0]):
        for c in range(kept.shape[1]):
            assert np.all(kept[n, c] == 0) or np.allclose(kept[n, c], src[n, c])


@pytest.mark.parametrize(
    ("fn", "shape"), [(F.dropout1d, (4, 8, 5)), (F.dropout2d, (4, 8, 3, 3)), (F.dropout3d, (4, 8, 2, 2, 2))]
)
def test_whole_channels_dropped_and_the_rest_scaled(fn, shape):
    mg.manual_seed(0)
    x = np.random.default_rng(0).uniform(1, 2, shape)
    t = mg.tensor(x, requires_grad=True)
    out = fn(t, 0.5)
    _channels_whole(out.detach().numpy(), x, 0.5)
    dropped = (out.detach().numpy() == 0).reshape(shape[0], shape[1], -1).all(-1)
    assert 0 < dropped.sum() < dropped.size
    out.sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), (out.detach().numpy() != 0) * 2.0)


@pytest.mark.parametrize(
    ("layer", "shape"),
    [
        (mg.nn.Dropout1d, (2, 3, 4)),
        (mg.nn.Dropout2d, (2, 3, 4, 4)),
        (mg.nn.Dropout3d, (2, 3, 2, 2, 2)),
        (mg.nn.AlphaDropout, (2, 3)),
        (mg.nn.FeatureAlphaDropout, (2, 3, 4)),
    ],
)
def test_eval_mode_is_identity_and_repr(layer, shape):
    m = layer(0.3)
    assert repr(m) == f"{layer.__name__}(p=0.3, inplace=False)"
    m.eval()
    x = mg.tensor(np.ones(shape))
    assert m(x) is x


def test_unbatched_dropout1d_and_3d_keep_shape():
    mg.manual_seed(1)
    assert F.dropout1d(mg.ones(3, 5)).shape == (3, 5)
    assert F.dropout3d(mg.ones(3, 2, 2, 2)).shape == (3, 2, 2, 2)


def test_alpha_dropout_keeps_mean_and_variance_of_standard_input():
    mg.manual_seed(0)
    x = mg.tensor(np.random.default_rng(0).standard_normal(200_000))
    out = F.alpha_dropout(x, 0.2, training=True).numpy()
    assert abs(out.mean()) < 0.02
    assert abs(out.std() - 1.0) < 0.02
    dropped_value = -1.7580993408473766
    a = 1 / np.sqrt((dropped_value**2 * 0.2 + 1) * 0.8)
    assert np.isclose(out, a * dropped_value + -a * dropped_value * 0.2).mean() == pytest.approx(0.2, abs=0.01)


def test_feature_alpha_dropout_drops_whole_channels():
    mg.manual_seed(0)
    out = F.feature_alpha_dropout(mg.zeros(6, 10, 4), 0.5, training=True).numpy()
    assert np.all(out == out[..., :1])  # one value per channel
    assert len(np.unique(out)) == 2


def test_alpha_dropout_defaults_to_not_training():
    x = mg.ones(5)
    assert F.alpha_dropout(x, 0.5) is x


def test_p_one_zeroes_everything():
    np.testing.assert_array_equal(F.dropout2d(mg.ones(2, 3, 2, 2), 1.0).numpy(), np.zeros((2, 3, 2, 2)))


def test_dropout2d_warns_as_torch_on_3d_input():
    with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
        F.dropout2d(mg.ones(2, 3, 4))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.functional.dropout1d(lib.zeros(2, 3, 4, 5)),
        lambda lib: lib.nn.functional.alpha_dropout(lib.zeros(3), 1.5),
        lambda lib: lib.nn.Dropout2d(-0.1),
    ],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)


@pytest.mark.parametrize(
    ("fn", "shape"),
    [(F.dropout2d, (2, 3, 4, 4)), (F.dropout1d, (3, 4)), (F.dropout3d, (2, 2, 2, 2)), (F.alpha_dropout, (6,))],
)
def test_inplace_writes_the_input_and_backward_runs(fn, shape):
    mg.manual_seed(0)
    w = mg.ones(*shape, requires_grad=True)
    y = w * 2
    out = fn(y, 0.5, True, True)
    assert out is y
    out.sum().backward()
    mg.manual_seed(0)
    expected = fn(mg.ones(*shape) * 2, 0.5, True).numpy()
    np.testing.assert_allclose(y.detach().numpy(), expected)
    assert w.grad.shape == shape
