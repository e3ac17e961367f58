"""affine_grid and grid_sample: torch's values and gradients (input, grid, theta; gradchecked in float64),
every mode and padding mode, torch's warnings and errors, and vmap."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import Arr, arr, check, raises_like_torch

RNG = np.random.default_rng(0)
THETA = Arr(RNG.normal(size=(2, 2, 3)) * 0.6 + np.array([[1.0, 0, 0], [0, 1.0, 0]]))


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("size", [(2, 3, 4, 5), (2, 1, 1, 3)])
def test_affine_grid_matches_torch(align_corners, size):
    pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the unit-size grid notice, from both
        check(lambda lib, t: lib.nn.functional.affine_grid(t, size, align_corners=align_corners), THETA)


def test_affine_grid_in_three_dimensions_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, t: lib.nn.functional.affine_grid(t, (1, 2, 3, 2, 4), align_corners=False), arr(1, 3, 4))


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_matches_torch(mode, padding_mode, align_corners):
    pytest.importorskip("torch")
    # grid points kept off pixel centres and cell edges, where the rules have kinks
    grid = RNG.uniform(-1.3, 1.3, size=(2, 4, 3, 2))

    def sample(lib, x, g):
        return lib.nn.functional.grid_sample(x, g, mode, padding_mode, align_corners)

    check(sample, arr(2, 3, 5, 6), Arr(grid, grad=mode == "bilinear"), rtol=1e-6)


def test_a_spatial_transformer_trains_theta_as_torch():
    pytest.importorskip("torch")

    def transform(lib, x, theta):
        grid = lib.nn.functional.affine_grid(theta, (2, 3, 4, 4), align_corners=False)
        return lib.nn.functional.grid_sample(x, grid, align_corners=False)

    check(transform, arr(2, 3, 5, 5), THETA, rtol=1e-6)


def test_default_align_corners_warns_as_torch():
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior has changed"):
        grid = F.affine_grid(mg.eye(2, 3).unsqueeze(0), (1, 1, 2, 2))
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior has changed"):
        F.grid_sample(mg.ones(1, 1, 2, 2), grid)


def test_vmap_runs_the_composite_without_the_loop():
    x = mg.tensor(RNG.normal(size=(3, 2, 1, 4, 4)))
    grid = mg.tensor(RNG.uniform(-1, 1, size=(3, 2, 3, 3, 2)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")

        def sample(a, g):
            return F.grid_sample(a, g, align_corners=True)

        batched = mg.func.vmap(sample)(x, grid)
    np.testing.assert_allclose(batched.numpy(), mg.stack([sample(x[i], grid[i]) for i in range(3)]).numpy(), rtol=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.functional.affine_grid(lib.zeros(1, 3, 3), (1, 1, 4, 4), align_corners=False),
        lambda lib: lib.nn.functional.affine_grid(lib.zeros(1, 2, 3), (1, 1, 4), align_corners=False),
        lambda lib: lib.nn.functional.affine_grid(lib.zeros(1, 2, 3), (2, 1, 4, 4), align_corners=False),
        lambda lib: lib.nn.functional.grid_sample(lib.zeros(1, 1, 3, 4), lib.zeros(1, 3, 4, 2), mode="x"),
        lambda lib: lib.nn.functional.grid_sample(lib.zeros(1, 1, 3, 4), lib.zeros(1, 3, 4, 2), padding_mode="x"),
        lambda lib: lib.nn.functional.grid_sample(lib.zeros(1, 1, 3, 4), lib.zeros(1, 3, 4, 1), align_corners=False),
        lambda lib: lib.nn.functional.grid_sample(lib.zeros(2, 1, 3, 4), lib.zeros(1, 3, 4, 2), align_corners=False),
        lambda lib: lib.nn.functional.grid_sample(
            lib.zeros(1, 1, 3, 4), lib.zeros(1, 3, 4, 2, dtype=lib.float64), align_corners=False
        ),
        lambda lib: lib.nn.functional.grid_sample(
            lib.zeros(1, 1, 3, 4, dtype=lib.int64), lib.zeros(1, 3, 4, 2, dtype=lib.int64), align_corners=False
        ),
    ],
)
def test_errors_are_torchs(call):
    ours, theirs = raises_like_torch(call)
    assert str(ours) == re.sub(r"torch\.Size\((\[[^]]*\])\)", r"\1", str(theirs))  # shapes as [1, 3, 3]


def test_what_minigrad_lacks_says_so():
    with pytest.raises(NotImplementedError, match="mode='bicubic'"):
        F.grid_sample(mg.ones(1, 1, 2, 2), mg.zeros(1, 1, 1, 2), mode="bicubic", align_corners=False)
    with pytest.raises(NotImplementedError, match="5-D input"):
        F.grid_sample(mg.ones(1, 1, 2, 2, 2), mg.zeros(1, 1, 1, 1, 3), align_corners=False)
