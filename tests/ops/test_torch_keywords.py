"""Section-4 ops accept PyTorch's keyword arguments: the same call, all by keyword, in both libraries."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")

X = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
V = np.array([0.5, -1.0, 2.0])
IMG = np.linspace(-1.0, 1.0, 2 * 2 * 4 * 4).reshape(2, 2, 4, 4)


def _t(lib, a):
    return lib.tensor(a.copy())


CALLS = {
    "tril": lambda lib: lib.tril(input=_t(lib, X), diagonal=1),
    "triu": lambda lib: lib.triu(input=_t(lib, X), diagonal=-1),
    "cumsum": lambda lib: lib.cumsum(input=_t(lib, X), dim=1, dtype=lib.float64),
    "cumprod": lambda lib: lib.cumprod(input=_t(lib, X), dim=0, dtype=lib.float64),
    "flip": lambda lib: lib.flip(input=_t(lib, X), dims=(0, 1)),
    "roll": lambda lib: lib.roll(input=_t(lib, X), shifts=(1, -1), dims=(0, 1)),
    "repeat_interleave": lambda lib: lib.repeat_interleave(input=_t(lib, V), repeats=2, dim=0, output_size=6),
    "diag": lambda lib: lib.diag(input=_t(lib, V), diagonal=1),
    "norm": lambda lib: lib.norm(input=_t(lib, X), p=1, dim=1, keepdim=True),
    "vector_norm": lambda lib: lib.linalg.vector_norm(_t(lib, X), ord=3, dim=(0, 1), keepdim=False),
    "outer": lambda lib: lib.outer(_t(lib, V), _t(lib, V)),
    "cross": lambda lib: lib.cross(input=_t(lib, X[:, :3]), other=_t(lib, X[:, 1:]), dim=1),
    "lerp": lambda lib: lib.lerp(input=_t(lib, V), end=_t(lib, V * 2), weight=0.3),
    "atan2": lambda lib: lib.atan2(input=_t(lib, V), other=_t(lib, V + 1)),
    "logaddexp": lambda lib: lib.logaddexp(input=_t(lib, V), other=_t(lib, V)),
    "erf": lambda lib: lib.erf(input=_t(lib, V)),
    "log1p": lambda lib: lib.log1p(input=_t(lib, V + 1.5)),
    "expm1": lambda lib: lib.expm1(input=_t(lib, V)),
    "one_hot": lambda lib: lib.nn.functional.one_hot(lib.tensor([0, 2]), num_classes=4),
    "hardtanh": lambda lib: lib.nn.functional.hardtanh(input=_t(lib, X), min_val=-0.5, max_val=0.5),
    "avg_pool2d": lambda lib: lib.nn.functional.avg_pool2d(
        input=_t(lib, IMG), kernel_size=2, stride=1, padding=1, ceil_mode=True, count_include_pad=False
    ),
    "max_pool2d": lambda lib: lib.nn.functional.max_pool2d(input=_t(lib, IMG), kernel_size=2, stride=2, dilation=1),
    "pad": lambda lib: lib.nn.functional.pad(input=_t(lib, X), pad=(1, 1), mode="constant", value=2.0),
    "interpolate": lambda lib: lib.nn.functional.interpolate(
        input=_t(lib, IMG), scale_factor=2, mode="bilinear", align_corners=False
    ),
    "group_norm": lambda lib: lib.nn.functional.group_norm(input=_t(lib, IMG), num_groups=2, eps=1e-3),
    "layer_norm": lambda lib: lib.nn.functional.layer_norm(input=_t(lib, X), normalized_shape=(4,), eps=1e-3),
    "sdpa": lambda lib: lib.nn.functional.scaled_dot_product_attention(
        query=_t(lib, X), key=_t(lib, X), value=_t(lib, X), attn_mask=None, dropout_p=0.0, is_causal=True, scale=0.5
    ),
    "sort": lambda lib: lib.sort(input=_t(lib, X), dim=0, descending=True, stable=True).indices,
    "argsort": lambda lib: lib.argsort(input=_t(lib, X), dim=1, descending=True, stable=True),
    "topk": lambda lib: lib.topk(input=_t(lib, X), k=2, dim=1, largest=False, sorted=True).values,
    "tensor_split_sections": lambda lib: lib.tensor_split(input=_t(lib, X), sections=3, dim=1)[0],
    "msort": lambda lib: lib.msort(input=_t(lib, X)),
    "tensor_split": lambda lib: lib.tensor_split(input=_t(lib, X), indices=[1, 3], dim=1)[1],
    "meshgrid": lambda lib: lib.meshgrid(_t(lib, V), _t(lib, V[:2]), indexing="xy")[1],
    "nansum": lambda lib: lib.nansum(input=_t(lib, X), dim=1, keepdim=True, dtype=lib.float64),
    "nanmean": lambda lib: lib.nanmean(input=_t(lib, X), dim=0, keepdim=False, dtype=lib.float64),
    "unique": lambda lib: lib.unique(
        input=lib.tensor([3, 1, 3]), sorted=True, return_inverse=True, return_counts=False, dim=None
    )[1],
    "bincount": lambda lib: lib.bincount(input=lib.tensor([0, 2, 2]), weights=_t(lib, V), minlength=4),
    "multinomial_shape": lambda lib: lib.tensor(
        lib.multinomial(input=_t(lib, np.abs(X)), num_samples=2, replacement=True).shape
    ),
    "cdist": lambda lib: lib.cdist(
        x1=_t(lib, X), x2=_t(lib, X[:2]), p=1.5, compute_mode="donot_use_mm_for_euclid_dist"
    ),
    "huber_loss": lambda lib: lib.nn.functional.huber_loss(
        input=_t(lib, X), target=_t(lib, X * 3), reduction="sum", delta=0.5
    ),
    "smooth_l1_loss": lambda lib: lib.nn.functional.smooth_l1_loss(
        input=_t(lib, X), target=_t(lib, X * 3), reduction="none", beta=0.5
    ),
    "kl_div": lambda lib: lib.nn.functional.kl_div(
        input=_t(lib, X), target=_t(lib, X), reduction="batchmean", log_target=True
    ),
    "cosine_similarity": lambda lib: lib.nn.functional.cosine_similarity(
        x1=_t(lib, X), x2=_t(lib, X + 1), dim=0, eps=1e-6
    ),
    "normalize": lambda lib: lib.nn.functional.normalize(input=_t(lib, X), p=1.0, dim=0, eps=1e-6),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_keyword_call_matches_torch(name):
    ours, theirs = CALLS[name](mg), CALLS[name](torch)
    np.testing.assert_allclose(np.asarray(ours.array), theirs.numpy(), rtol=1e-6, atol=1e-9)
