"""linear for a few rows and many outputs (an LSTM step's shape), which takes its own product order."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import arr, check


@pytest.mark.parametrize("rows", [1, 2, 20, 63, 64])
def test_linear_of_few_rows_matches_torch(rows):
    pytest.importorskip("torch")
    check(lambda lib, x, w, b: lib.nn.functional.linear(x, w, b), arr(rows, 7), arr(70, 7, seed=1), arr(70, seed=2))


def test_linear_of_few_rows_gives_rows_in_float32():
    x = mg.tensor(np.random.default_rng(0).standard_normal((20, 200)), dtype=mg.float32)
    w = mg.tensor(np.random.default_rng(1).standard_normal((800, 200)), dtype=mg.float32)
    out = F.linear(x, w)
    assert out.dtype == mg.float32 and out.array.flags.c_contiguous
    np.testing.assert_allclose(out.array, x.array @ w.array.T, rtol=1e-5, atol=1e-4)
