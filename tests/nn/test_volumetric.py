"""Conv3d, ConvTranspose3d, MaxPool3d, AvgPool3d and BatchNorm3d (composed of their 2-D forms): values and
gradients against PyTorch (gradcheck in float64 by the oracle), layers, reprs and refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import arr, check, raises_like_torch


def _f(lib):
    return F if lib is mg else lib.nn.functional


CONVS = [
    dict(),
    dict(stride=2, padding=1),
    dict(stride=(1, 2, 1), padding=(2, 0, 1), dilation=(2, 1, 2), groups=2),
    dict(padding="same"),
]


@pytest.mark.parametrize("kwargs", CONVS)
def test_conv3d_matches_torch(kwargs):
    pytest.importorskip("torch")
    channels = 4 // kwargs.get("groups", 1)
    check(
        lambda lib, x, w, b: _f(lib).conv3d(x, w, b, **kwargs),
        arr(1, 4, 3, 4, 3),
        arr(6, channels, 2, 3, 2, seed=1),
        arr(6, seed=2),
    )


def test_conv3d_unbatched_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, x, w: _f(lib).conv3d(x, w), arr(2, 3, 4, 3), arr(3, 2, 2, 2, 2, seed=1))


TRANSPOSED = [dict(), dict(stride=2), dict(stride=3, dilation=2, padding=(1, 0, 1), output_padding=(2, 1, 0))]


@pytest.mark.parametrize("kwargs", TRANSPOSED)
def test_conv_transpose3d_matches_torch(kwargs):
    pytest.importorskip("torch")
    check(
        lambda lib, x, w, b: _f(lib).conv_transpose3d(x, w, b, **kwargs),
        arr(1, 4, 2, 2, 3),
        arr(4, 3, 3, 2, 2, seed=1),
        arr(3, seed=2),
    )


def test_conv_transpose3d_groups_matches_torch():
    pytest.importorskip("torch")
    check(
        lambda lib, x, w: _f(lib).conv_transpose3d(x, w, groups=2, stride=2),
        arr(1, 4, 2, 3, 2),
        arr(4, 2, 2, 2, 2, seed=1),
    )


POOLS = [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1), dict(kernel_size=(2, 3, 2), stride=1)]


@pytest.mark.parametrize("kwargs", POOLS)
def test_max_pool3d_matches_torch(kwargs):
    pytest.importorskip("torch")
    check(lambda lib, x: _f(lib).max_pool3d(x, **kwargs), arr(1, 2, 4, 5, 4))
    check(lambda lib, x: lib.nn.MaxPool3d(**kwargs)(x), arr(2, 4, 5, 4))


def test_max_pool3d_dilation_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: _f(lib).max_pool3d(x, (2, 3, 2), 1, 0, (2, 1, 1)), arr(1, 2, 5, 5, 4))


@pytest.mark.parametrize(
    "kwargs",
    [
        *POOLS,
        dict(kernel_size=3, stride=2, padding=1, count_include_pad=False),
        dict(kernel_size=2, divisor_override=5),
    ],
)
def test_avg_pool3d_matches_torch(kwargs):
    pytest.importorskip("torch")
    check(lambda lib, x: _f(lib).avg_pool3d(x, **kwargs), arr(1, 2, 4, 5, 4))
    check(lambda lib, x: lib.nn.AvgPool3d(**kwargs)(x), arr(2, 4, 5, 4))


def test_layers_load_torch_weights_and_match():
    torch = pytest.importorskip("torch")
    for name, args, kwargs in [
        ("Conv3d", (2, 4, 3), dict(padding=1, padding_mode="reflect")),
        ("Conv3d", (2, 4, 2), dict(stride=2, bias=False)),
        ("ConvTranspose3d", (2, 3, 2), dict(stride=2)),
    ]:
        theirs = getattr(torch.nn, name)(*args, **kwargs).double()
        ours = getattr(mg.nn, name)(*args, **kwargs).double()
        assert repr(ours) == repr(theirs)
        ours.load_state_dict({k: mg.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})
        x = np.random.default_rng(0).standard_normal((1, 2, 4, 4, 4))
        np.testing.assert_allclose(ours(mg.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy())


def test_batch_norm3d_matches_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = mg.nn.BatchNorm3d(3).double(), torch.nn.BatchNorm3d(3).double()
    x = np.random.default_rng(0).standard_normal((2, 3, 2, 3, 2)) * 2 + 1
    np.testing.assert_allclose(ours(mg.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy())
    np.testing.assert_allclose(ours.running_var.numpy(), theirs.running_var.numpy())
    assert list(ours.state_dict()) == list(theirs.state_dict())
    with pytest.raises(ValueError, match="expected 5D input"):
        ours(mg.zeros(2, 3, 4, 4))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: _f(lib).conv3d(lib.zeros(1, 5, 4, 4, 4), lib.zeros(4, 3, 2, 2, 2)),
        lambda lib: _f(lib).max_pool3d(lib.zeros(1, 1, 4, 4, 4), 2, padding=2),
        lambda lib: _f(lib).conv3d(lib.zeros(1, 3, 4, 4, 4), lib.zeros(4, 3, 2, 2, 2), stride=2, padding="same"),
        lambda lib: _f(lib).conv3d(lib.zeros(4, 4, 4), lib.zeros(4, 3, 2, 2, 2)),
    ],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)


@pytest.mark.parametrize(
    ("shape", "out"), [((2, 2, 5, 7, 6), (2, 3, 4)), ((3, 4, 6, 5), 2), ((1, 2, 4, 4, 4), (None, 2, 3))]
)
@pytest.mark.parametrize("name", ["adaptive_avg_pool3d", "adaptive_max_pool3d"])
def test_adaptive_pools_3d_match_torch(name, shape, out):
    pytest.importorskip("torch")
    check(lambda lib, x: getattr(_f(lib), name)(x, out), arr(*shape))


def test_adaptive_pool_3d_layers_as_torch():
    torch = pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.AdaptiveAvgPool3d(1)(x), arr(2, 3, 3, 4, 5))
    check(lambda lib, x: lib.nn.AdaptiveMaxPool3d((2, 1, 2))(x), arr(2, 3, 3, 4, 5))
    assert repr(mg.nn.AdaptiveAvgPool3d((1, 2, 3))) == repr(torch.nn.AdaptiveAvgPool3d((1, 2, 3)))
    with pytest.raises(RuntimeError, match="Expected 4D or 5D tensor"):
        F.adaptive_avg_pool3d(mg.zeros(2, 3, 4), 1)
