"""nn.functional convolutions, pooling, padding, attention, interpolation, one_hot and norms against torch."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import arr, check

pytest.importorskip("torch")


def f(name):
    """``name`` looked up in the library's nn.functional."""
    return lambda lib: getattr(lib.nn.functional, name)


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"stride": 2},
        {"padding": 1},
        {"dilation": 2},
        {"groups": 2},
        {"padding": "same", "dilation": 2},
        {"padding": "valid"},
    ],
)
def test_conv1d(kw):
    check(
        lambda lib, x, w, b: f("conv1d")(lib)(x, w, b, **kw),
        arr(2, 4, 7),
        arr(6, 4 // kw.get("groups", 1), 3, seed=1),
        arr(6, seed=2),
    )


@pytest.mark.parametrize(
    "kw",
    [{"groups": 2}, {"dilation": 2}, {"dilation": (1, 2), "padding": (1, 2)}, {"padding": "same"}, {"stride": (2, 1)}],
)
def test_conv2d_groups_dilation_padding(kw):
    check(
        lambda lib, x, w: f("conv2d")(lib)(x, w, **kw), arr(1, 4, 6, 5), arr(4, 4 // kw.get("groups", 1), 3, 3, seed=1)
    )


@pytest.mark.parametrize(
    "kw", [{}, {"stride": 2}, {"stride": 2, "output_padding": 1}, {"padding": 1, "dilation": 2}, {"groups": 2}]
)
def test_conv_transpose(kw):
    groups = kw.get("groups", 1)
    check(
        lambda lib, x, w, b: f("conv_transpose1d")(lib)(x, w, b, **kw),
        arr(2, 4, 5),
        arr(4, 6 // groups, 3, seed=1),
        arr(6, seed=2),
    )
    check(lambda lib, x, w: f("conv_transpose2d")(lib)(x, w, **kw), arr(1, 4, 3, 4), arr(4, 2 // groups, 3, 2, seed=1))


@pytest.mark.parametrize(
    "kw",
    [
        {"kernel_size": 2},
        {"kernel_size": 3, "stride": 2, "padding": 1},
        {"kernel_size": 3, "stride": 2, "ceil_mode": True},
        {"kernel_size": 3, "padding": 1, "count_include_pad": False},
    ],
)
def test_avg_pools(kw):
    check(lambda lib, x: f("avg_pool1d")(lib)(x, **kw), arr(2, 3, 7))
    check(lambda lib, x: f("avg_pool2d")(lib)(x, **kw), arr(2, 3, 7, 6))


def test_avg_pool2d_divisor_override_and_max_pool1d():
    check(lambda lib, x: f("avg_pool2d")(lib)(x, 2, divisor_override=3), arr(1, 2, 4, 4))
    check(lambda lib, x: f("max_pool1d")(lib)(x, 3, stride=2, padding=1), arr(2, 3, 8))
    check(lambda lib, x: f("max_pool1d")(lib)(x, 2, dilation=2), arr(2, 3, 8))


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad_modes(mode):
    value = {"value": 1.5} if mode == "constant" else {}
    check(lambda lib, x: f("pad")(lib)(x, (1, 2), mode=mode, **value), arr(2, 3, 4))
    check(lambda lib, x: f("pad")(lib)(x, (2, 1, 1, 0), mode=mode, **value), arr(1, 2, 3, 4))


@pytest.mark.parametrize("case", ["plain", "causal", "bool_mask", "float_mask", "scale"])
def test_scaled_dot_product_attention(case):
    mask = np.random.default_rng(3).uniform(size=(3, 4)) > 0.3
    mask[:, 0] = True
    kw = {
        "plain": lambda lib: {},
        "causal": lambda lib: {"is_causal": True},
        "bool_mask": lambda lib: {"attn_mask": lib.tensor(mask)},
        "float_mask": lambda lib: {"attn_mask": lib.tensor(np.where(mask, 0.0, -1.5))},
        "scale": lambda lib: {"scale": 0.3},
    }[case]
    lk = 3 if case == "causal" else 4
    check(
        lambda lib, q, k, v: f("scaled_dot_product_attention")(lib)(q, k, v, **kw(lib)),
        arr(2, 3, 5),
        arr(2, lk, 5, seed=1),
        arr(2, lk, 2, seed=2),
    )


@pytest.mark.parametrize(
    "kw",
    [
        {"scale_factor": 2, "mode": "nearest"},
        {"size": (5, 3), "mode": "nearest"},
        {"scale_factor": 2, "mode": "bilinear"},
        {"size": (5, 7), "mode": "bilinear", "align_corners": True},
        {"size": (3, 2), "mode": "bilinear"},
    ],
)
def test_interpolate_2d(kw):
    check(lambda lib, x: f("interpolate")(lib)(x, **kw), arr(1, 2, 3, 4))


def test_interpolate_1d_linear():
    check(lambda lib, x: f("interpolate")(lib)(x, size=7, mode="linear"), arr(2, 2, 4))


def test_one_hot():
    torch = pytest.importorskip("torch")
    for args in (([0, 2, 1],), ([[0, 3], [1, 1]], 5)):
        ours = F.one_hot(mg.tensor(args[0]), *args[1:])
        theirs = torch.nn.functional.one_hot(torch.tensor(args[0]), *args[1:])
        assert ours.dtype == mg.int64
        np.testing.assert_array_equal(ours.array, theirs.numpy())
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        F.one_hot(mg.tensor([3]), 2)


@pytest.mark.parametrize("groups", [1, 2, 4])
def test_group_norm(groups):
    check(
        lambda lib, x, w, b: f("group_norm")(lib)(x, groups, w, b, eps=1e-3),
        arr(2, 4, 3),
        arr(4, seed=1),
        arr(4, seed=2),
    )
    check(lambda lib, x: f("group_norm")(lib)(x, groups), arr(2, 4, 2, 2))


def test_layer_norm():
    check(
        lambda lib, x, w, b: f("layer_norm")(lib)(x, (3, 4), w, b), arr(2, 3, 4), arr(3, 4, seed=1), arr(3, 4, seed=2)
    )
    check(lambda lib, x: f("layer_norm")(lib)(x, [4], eps=1e-3), arr(2, 3, 4))


@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 2, 2)])
def test_batch_norm_training_and_eval(shape):
    channels = shape[1]
    stats = {}

    def call(lib, x, w, b, training):
        rm, rv = lib.zeros(channels, dtype=lib.float64), lib.ones(channels, dtype=lib.float64)
        out = f("batch_norm")(lib)(x, rm, rv, w, b, training=training, momentum=0.2)
        stats[lib.__name__] = (
            np.asarray(rm.array if lib is mg else rm.numpy()),
            np.asarray(rv.array if lib is mg else rv.numpy()),
        )
        return out

    for training in (True, False):
        check(
            lambda lib, x, w, b, training=training: call(lib, x, w, b, training),
            arr(*shape),
            arr(channels, seed=1),
            arr(channels, seed=2),
        )
        np.testing.assert_allclose(stats["minigrad"][0], stats["torch"][0])
        np.testing.assert_allclose(stats["minigrad"][1], stats["torch"][1])
