"""FractionalMaxPool2d / fractional_max_pool2d: torch's windows from the same _random_samples (values,
indices, gradients, gradchecked in float64), the module's checks, and torch's errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import Arr, arr, check, raises_like_torch

RNG = np.random.default_rng(0)
SAMPLES = RNG.uniform(size=(2, 3, 2))


@pytest.mark.parametrize(
    ("kernel", "sizes"),
    [
        (3, {"output_size": (5, 4)}),
        ((2, 3), {"output_ratio": (0.5, 0.5)}),
        (2, {"output_size": (8, 7)}),
        (2, {"output_size": 1}),
    ],
)
def test_matches_torch_with_the_same_samples(kernel, sizes):
    pytest.importorskip("torch")

    def pool(lib, x, u):
        return lib.nn.functional.fractional_max_pool2d(x, kernel, return_indices=True, _random_samples=u, **sizes)

    check(pool, arr(2, 3, 9, 8), Arr(SAMPLES, grad=False))


def test_float32_windows_are_torchs_and_a_single_image_works():
    torch = pytest.importorskip("torch")
    x = RNG.normal(size=(2, 3, 11, 10)).astype(np.float32)
    u = RNG.uniform(size=(2, 3, 2)).astype(np.float32)
    ours = F.fractional_max_pool2d(mg.tensor(x), 2, (6, 7), return_indices=True, _random_samples=mg.tensor(u))
    theirs = torch.nn.functional.fractional_max_pool2d(
        torch.tensor(x), 2, (6, 7), return_indices=True, _random_samples=torch.tensor(u)
    )
    for o, t in zip(ours, theirs):
        np.testing.assert_array_equal(o.numpy(), t.numpy())
    single = F.fractional_max_pool2d(mg.tensor(x[0]), 2, (6, 7), _random_samples=mg.tensor(u[:1]))
    np.testing.assert_array_equal(single.numpy(), ours[0].numpy()[0])


def test_the_module_draws_windows_and_keeps_given_samples_as_a_buffer():
    torch = pytest.importorskip("torch")
    pool = mg.nn.FractionalMaxPool2d(3, output_ratio=0.5)
    assert repr(pool) == repr(torch.nn.FractionalMaxPool2d(3, output_ratio=0.5)) == "FractionalMaxPool2d()"
    out = pool(mg.randn(2, 3, 9, 8))
    assert tuple(out.shape) == (2, 3, 4, 4)
    fixed = mg.nn.FractionalMaxPool2d(2, output_size=(4, 4), return_indices=True, _random_samples=mg.tensor(SAMPLES))
    assert "_random_samples" in dict(fixed.named_buffers())
    x = mg.randn(2, 3, 8, 8, dtype=mg.float64)
    first, again = fixed(x), fixed(x)
    np.testing.assert_array_equal(first[1].numpy(), again[1].numpy())


def test_vmap_equals_the_loop_with_fixed_samples():
    x = mg.tensor(RNG.normal(size=(4, 1, 3, 9, 8)))
    u = mg.tensor(SAMPLES[:1])

    def pool(a):
        return F.fractional_max_pool2d(a, 3, output_size=(4, 3), _random_samples=u)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the loop fallback's notice
        batched = mg.func.vmap(pool)(x)
    np.testing.assert_array_equal(batched.numpy(), mg.stack([pool(x[i]) for i in range(4)]).numpy())


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.FractionalMaxPool2d(3),
        lambda lib: lib.nn.FractionalMaxPool2d(3, output_size=4, output_ratio=0.5),
        lambda lib: lib.nn.FractionalMaxPool2d(3, output_ratio=1.5),
        lambda lib: lib.nn.functional.fractional_max_pool2d(lib.zeros(2, 3, 9, 8), 3, output_size=(8, 6)),
        lambda lib: lib.nn.functional.fractional_max_pool2d(lib.zeros(2, 3, 9, 8), 3, output_size=(5, 7)),
        lambda lib: lib.nn.functional.fractional_max_pool2d(lib.zeros(9, 8), 3, output_size=(2, 2)),
        lambda lib: lib.nn.functional.fractional_max_pool2d(
            lib.zeros(2, 3, 9, 8), 3, output_size=(2, 2), _random_samples=lib.zeros(1, 3, 2)
        ),
        lambda lib: lib.nn.functional.fractional_max_pool2d(lib.zeros(2, 3, 9, 8, dtype=lib.int64), 3, output_size=2),
    ],
)
def test_errors_are_torchs(call):
    ours, theirs = raises_like_torch(call)
    assert str(ours) == str(theirs)
