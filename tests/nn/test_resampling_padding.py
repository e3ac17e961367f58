"""Upsample, PixelShuffle/PixelUnshuffle, Unflatten and the padding layers: values and gradients against
PyTorch (gradcheck in float64 by the oracle), reprs, and PyTorch's refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import arr, check, raises_like_torch

UPSAMPLES = [
    dict(scale_factor=2),
    dict(size=(5, 7)),
    dict(scale_factor=2, mode="bilinear"),
    dict(scale_factor=1.5, mode="bilinear", align_corners=True),
    dict(size=(3, 9), mode="bilinear", align_corners=False),
]


@pytest.mark.parametrize("kwargs", UPSAMPLES)
def test_upsample_matches_torch(kwargs):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.Upsample(**kwargs)(x), arr(2, 3, 4, 5))


def test_upsampling_nearest_and_bilinear_2d_match_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.UpsamplingNearest2d(scale_factor=3)(x), arr(1, 2, 3, 4))
    check(lambda lib, x: lib.nn.UpsamplingBilinear2d(size=(5, 6))(x), arr(1, 2, 3, 4))


def test_upsample_reprs_as_torch():
    assert repr(mg.nn.Upsample(scale_factor=2)) == "Upsample(scale_factor=2.0, mode='nearest')"
    assert repr(mg.nn.Upsample(size=(3, 4), mode="bilinear")) == "Upsample(size=(3, 4), mode='bilinear')"
    assert repr(mg.nn.UpsamplingBilinear2d(scale_factor=2)) == "UpsamplingBilinear2d(scale_factor=2.0, mode='bilinear')"


@pytest.mark.parametrize("shape", [(2, 8, 3, 2), (8, 2, 3), (2, 1, 12, 2, 2)])
def test_pixel_shuffle_matches_torch(shape):
    pytest.importorskip("torch")
    r = 2
    check(lambda lib, x: lib.nn.functional.pixel_shuffle(x, r), arr(*shape))
    check(lambda lib, x: lib.nn.PixelShuffle(r)(x), arr(*shape))


@pytest.mark.parametrize(("shape", "r"), [((2, 3, 4, 6), 2), ((3, 6, 9), 3), ((2, 1, 2, 4, 4), 4)])
def test_pixel_unshuffle_matches_torch_and_inverts_shuffle(shape, r):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.PixelUnshuffle(r)(x), arr(*shape))
    x = mg.tensor(np.random.default_rng(0).standard_normal(shape))
    np.testing.assert_array_equal(F.pixel_shuffle(F.pixel_unshuffle(x, r), r).numpy(), x.numpy())


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.functional.pixel_shuffle(lib.zeros(2, 3), 2),
        lambda lib: lib.nn.functional.pixel_shuffle(lib.zeros(1, 5, 2, 3), 2),
        lambda lib: lib.nn.functional.pixel_shuffle(lib.zeros(1, 4, 2, 3), 0),
        lambda lib: lib.nn.functional.pixel_unshuffle(lib.zeros(1, 4, 3, 4), 2),
        lambda lib: lib.nn.functional.pixel_unshuffle(lib.zeros(1, 4, 4, 3), 2),
        lambda lib: lib.nn.Unflatten(1, (2, 2))(lib.zeros(3, 5)),
        lambda lib: lib.nn.ReflectionPad1d(3)(lib.zeros(1, 3, 3)),
        lambda lib: lib.nn.ZeroPad2d(1)(lib.zeros(3)),
    ],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)


def test_pixel_shuffle_words():
    with pytest.raises(RuntimeError, match=r"input.size\(-3\)=5 is not divisible by 4"):
        F.pixel_shuffle(mg.zeros(1, 5, 2, 3), 2)
    with pytest.raises(
        RuntimeError, match=r"expects width to be divisible by downscale_factor, but input.size\(-1\)=3"
    ):
        F.pixel_unshuffle(mg.zeros(1, 4, 4, 3), 2)


def test_unflatten_matches_torch():
    torch = pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.Unflatten(1, (2, -1))(x), arr(3, 6))
    assert repr(mg.nn.Unflatten(1, (2, 3))) == repr(torch.nn.Unflatten(1, (2, 3)))
    assert repr(mg.nn.Unflatten(-1, [2, 3])) == repr(torch.nn.Unflatten(-1, [2, 3]))


PADS = [
    ("ZeroPad1d", (2,), (2, 3, 5)),
    ("ZeroPad2d", ((1, 2, 0, 3),), (2, 3, 4, 5)),
    ("ConstantPad1d", ((1, 2), 3.5), (3, 5)),
    ("ConstantPad2d", (1, -1.0), (2, 3, 4, 5)),
    ("ConstantPad3d", (1, 2.0), (1, 2, 3, 4, 5)),
    ("ReflectionPad1d", (2,), (2, 3, 5)),
    ("ReflectionPad2d", ((1, 2, 2, 1),), (2, 3, 4, 5)),
    ("ReplicationPad1d", ((3, 1),), (2, 3, 5)),
    ("ReplicationPad2d", (2,), (3, 4, 5)),
    ("ReplicationPad3d", (1,), (1, 2, 3, 4, 5)),
    ("CircularPad1d", (2,), (2, 3, 5)),
    ("CircularPad2d", ((1, 2, 2, 1),), (2, 3, 4, 5)),
]


@pytest.mark.parametrize(("name", "args", "shape"), PADS)
def test_padding_layers_match_torch(name, args, shape):
    torch = pytest.importorskip("torch")
    check(lambda lib, x: getattr(lib.nn, name)(*args)(x), arr(*shape))
    assert repr(getattr(mg.nn, name)(*args)) == repr(getattr(torch.nn, name)(*args))


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("upsample", dict(scale_factor=2, mode="bilinear")),
        ("upsample_nearest", dict(size=(5, 3))),
        ("upsample_bilinear", dict(scale_factor=2)),
    ],
)
def test_deprecated_upsample_functions_warn_and_match_torch(name, kwargs):
    pytest.importorskip("torch")
    with pytest.warns(UserWarning, match=f"`nn.functional.{name}` is deprecated"):
        check(lambda lib, x: getattr(lib.nn.functional, name)(x, **kwargs), arr(1, 2, 3, 4))
