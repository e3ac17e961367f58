"""The ops added for PyTorch programs (issue 30: special functions, products, selection, arranging, order
statistics, moments, linalg, in-place variants, random fills, new_* factories) stay on the device:
forward and backward on the strict fake CUDA device, with no host fallback. (SciPy's special functions,
erfinv/lgamma/digamma/polygamma, use cupyx on a real GPU and are not run on the fake one.)"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

CALLS = {
    "hypot": lambda x: mg.hypot(x, x),
    "logit": lambda x: mg.logit(x.sigmoid(), eps=0.1),
    "xlogy": lambda x: mg.xlogy(x, x.abs() + 1),
    "fmax": lambda x: mg.fmax(x, -x),
    "nan_to_num": lambda x: mg.nan_to_num(x),
    "sinc": lambda x: mg.sinc(x),
    "asinh": lambda x: x.asinh() + x.exp2() + x.abs().log2() + x.frac() + x.trunc() + x.sgn(),
    "kron": lambda x: mg.kron(x, x),
    "addmm": lambda x: mg.addmm(x, x, x, beta=0),
    "tensordot": lambda x: mg.tensordot(x, x, 1),
    "renorm": lambda x: x.renorm(2, 0, 1.0),
    "diagonal": lambda x: x.diagonal(1).sum() + mg.diag_embed(x).sum(),
    "block_diag": lambda x: mg.block_diag(x, x),
    "diff": lambda x: x.diff(),
    "rot90": lambda x: x.rot90(),
    "stacks": lambda x: mg.hstack([x, x]).sum() + mg.dstack([x]).sum() + mg.column_stack([x]).sum(),
    "cartesian": lambda x: mg.cartesian_prod(x[0], x[1]),
    "combinations": lambda x: mg.combinations(x[0]),
    "selection": lambda x: mg.count_nonzero(x) + x.all().long() + x.any(1).long().sum() + x.nonzero().sum(),
    "masked": lambda x: x.masked_select(x > 0).sum() + x.masked_scatter(x > 0, x).sum(),
    "index": lambda x: (
        x.index_add(0, mg.tensor([0, 0, 1], device="cuda"), x).sum()
        + x.index_fill(1, mg.tensor([0], device="cuda"), 1.0).sum()
        + x.index_copy(0, mg.tensor([2, 1, 0], device="cuda"), x).sum()
        + x.index_put((mg.tensor([0, 0], device="cuda"),), x[:2], accumulate=True).sum()
    ),
    "median": lambda x: (
        x.median()
        + x.median(0).values.sum()
        + x.kthvalue(2, 1).values.sum()
        + x.quantile(0.3)
        + x.nanquantile(0.5, 1).sum()
    ),
    "mode": lambda x: x.mode(1).values,
    "cummax": lambda x: x.cummax(1).values.sum() + x.cummin(0).values.sum(),
    "logcumsumexp": lambda x: x.logcumsumexp(1),
    "moments": lambda x: mg.cov(x).sum() + mg.corrcoef(x).sum() + mg.std_mean(x, 1)[0].sum(),
    "search": lambda x: (
        mg.searchsorted(mg.tensor([0.0, 1.0], device="cuda"), x).sum()
        + mg.bucketize(x, mg.tensor([0.0], device="cuda")).sum()
        + mg.histc(x, 4).sum()
    ),
    "linalg": lambda x: (
        mg.linalg.inv(x + 3 * mg.eye(3, device="cuda")).sum()
        + mg.det(x)
        + mg.linalg.slogdet(x)[1]
        + mg.linalg.svdvals(x).sum()
        + mg.linalg.eigh(x + x.mT)[0].sum()
        + mg.linalg.qr(x).Q.sum()
        + mg.linalg.solve(x, x).sum()
        + mg.linalg.pinv(x).sum()
        + mg.linalg.norm(x, "nuc")
    ),
    "cholesky": lambda x: mg.linalg.cholesky(x @ x.mT + mg.eye(3, device="cuda")).sum(),
    "inplace": lambda x: (x * 1).exp_().tanh_().clamp_min_(0.1).sum(),
    "new": lambda x: x.new_zeros(2).sum() + x.new_full((2,), 3.0).sum() + x.new_tensor([1.0]).sum(),
    "random": lambda x: (x * 0).uniform_().normal_().bernoulli_(0.5).exponential_().sum(),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_forward_and_backward_stay_on_the_device(strict_cuda, name):
    x = mg.tensor(np.random.default_rng(0).normal(size=(3, 3)), device="cuda", requires_grad=True)
    out = CALLS[name](x)
    assert out.device == "cuda:0"
    if out.requires_grad:
        out.sum().backward()
        assert x.grad.device == "cuda:0"
