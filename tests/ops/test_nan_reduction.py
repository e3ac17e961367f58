"""nansum and nanmean: torch's values, dtypes and gradients (0 at a NaN)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from tests.torch_oracle import Arr, arr, check

WITH_NAN = Arr(np.array([[1.0, np.nan, -2.0], [np.nan, np.nan, np.nan], [0.5, 2.0, 3.0]]))


@pytest.mark.parametrize("dim", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_nansum_nanmean_match_torch(dim, keepdim):
    pytest.importorskip("torch")
    for name in ("nansum", "nanmean"):
        check(lambda lib, x, name=name: getattr(lib, name)(x, dim, keepdim), arr(3, 4))
        check(lambda lib, x, name=name: getattr(x, name)(dim=dim, keepdim=keepdim), WITH_NAN, gradcheck_=False)


def test_gradcheck_around_nans():
    from minigrad.autograd import gradcheck

    mask = mg.tensor([[False, True, False], [False, False, True]])
    x = mg.tensor(np.random.default_rng(0).standard_normal((2, 3)), requires_grad=True)
    assert gradcheck(lambda t: mg.nansum(mg.where(mask, float("nan"), t), 1), (x,))
    assert gradcheck(lambda t: mg.nanmean(mg.where(mask, float("nan"), t), 0), (x,))


def test_dtypes_match_torch():
    torch = pytest.importorskip("torch")
    assert mg.nansum(mg.tensor([1, 2])).dtype == mg.int64
    assert str(torch.nansum(torch.tensor([1, 2])).dtype) == "torch.int64"
    assert mg.nanmean(mg.tensor([1, 2]), dtype=mg.float64).item() == 1.5
    with pytest.raises(RuntimeError, match="nanmean\\(\\): expected input to have floating point"):
        mg.nanmean(mg.tensor([1, 2]))
    with pytest.raises(RuntimeError):
        torch.nanmean(torch.tensor([1, 2]))
