"""MultiheadAttention, GroupNorm, LayerNorm, BatchNorm1d/2d and the dtype aliases against torch."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn as nn

torch = pytest.importorskip("torch")


def _twins(make_ours, make_theirs):
    """The same layer in both libraries, with torch's (random) parameters copied into ours, in float64."""
    theirs = make_theirs().double()
    ours = make_ours()
    params = dict(ours.named_parameters())
    for name, p in theirs.named_parameters():
        params[name].array = p.detach().numpy().copy()
    assert set(params) == {n for n, _ in theirs.named_parameters()}
    return ours, theirs


def _compare(ours, theirs, inputs, out_index=None):
    """Outputs, input gradients and parameter gradients of both layers on the same inputs."""
    mins = [mg.tensor(x, requires_grad=x.dtype.kind == "f") if isinstance(x, np.ndarray) else x for x in inputs]
    tins = [torch.tensor(x, requires_grad=x.dtype.kind == "f") if isinstance(x, np.ndarray) else x for x in inputs]
    mo, to = ours(*mins), theirs(*tins)
    if out_index is not None:
        mo, to = mo[out_index], to[out_index]
    np.testing.assert_allclose(mo.array, to.detach().numpy(), rtol=1e-7, atol=1e-10)
    w = np.random.default_rng(5).standard_normal(tuple(to.shape))
    (mo * mg.tensor(w)).sum().backward()
    (to * torch.tensor(w)).sum().backward()
    for m, t in zip(mins, tins):
        if isinstance(t, torch.Tensor) and t.requires_grad:
            _same_grad(m, t)
    theirs_params = dict(theirs.named_parameters())
    for name, p in ours.named_parameters():
        _same_grad(p, theirs_params[name])


def _same_grad(m, t):
    """The same gradient; an input that did not reach the output may have None on one side and zeros on the other."""
    ours = np.zeros(m.shape) if m.grad is None else m.grad.array
    theirs = np.zeros(tuple(t.shape)) if t.grad is None else t.grad.numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-7, atol=1e-10)


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("kw", [{}, {"batch_first": True}, {"bias": False}, {"kdim": 3, "vdim": 5}])
def test_multihead_attention(kw):
    torch.manual_seed(0)
    ours, theirs = _twins(
        lambda: nn.MultiheadAttention(8, 2, dtype=mg.float64, **kw), lambda: torch.nn.MultiheadAttention(8, 2, **kw)
    )
    kdim, vdim = kw.get("kdim", 8), kw.get("vdim", 8)
    q, k, v = _x(4, 2, 8), _x(3, 2, kdim, seed=1), _x(3, 2, vdim, seed=2)
    if kw.get("batch_first"):
        q, k, v = (a.swapaxes(0, 1).copy() for a in (q, k, v))
    _compare(ours, theirs, [q, k, v], out_index=0)
    ours.zero_grad()
    theirs.zero_grad()
    _compare(ours, theirs, [q, k, v], out_index=1)


def test_multihead_attention_masks_and_per_head_weights():
    torch.manual_seed(0)
    ours, theirs = _twins(
        lambda: nn.MultiheadAttention(4, 2, dtype=mg.float64), lambda: torch.nn.MultiheadAttention(4, 2)
    )
    x = _x(3, 2, 4)
    pad = np.array([[False, False, True], [False, True, False]])
    causal = np.triu(np.ones((3, 3), dtype=bool), 1)
    ours_out = ours(
        *(mg.tensor(x),) * 3, key_padding_mask=mg.tensor(pad), attn_mask=mg.tensor(causal), average_attn_weights=False
    )
    theirs_out = theirs(
        *(torch.tensor(x),) * 3,
        key_padding_mask=torch.tensor(pad),
        attn_mask=torch.tensor(causal),
        average_attn_weights=False,
    )
    for o, t in zip(ours_out, theirs_out):
        np.testing.assert_allclose(o.array, t.detach().numpy(), rtol=1e-7, atol=1e-10)
    assert ours(mg.tensor(x), mg.tensor(x), mg.tensor(x), need_weights=False)[1] is None


def test_multihead_attention_refuses_bias_kv():
    with pytest.raises(NotImplementedError, match="add_bias_kv"):
        nn.MultiheadAttention(4, 2, add_bias_kv=True)


@pytest.mark.parametrize("affine", [True, False])
def test_group_norm_module(affine):
    torch.manual_seed(0)
    ours, theirs = _twins(
        lambda: nn.GroupNorm(2, 4, affine=affine, dtype=mg.float64), lambda: torch.nn.GroupNorm(2, 4, affine=affine)
    )
    for (_, p), (_, t) in zip(ours.named_parameters(), theirs.named_parameters()):
        with torch.no_grad():
            t.normal_()
        p.array = t.detach().numpy().copy()
    _compare(ours, theirs, [_x(2, 4, 3)])


@pytest.mark.parametrize("kw", [{}, {"elementwise_affine": False}, {"bias": False}])
def test_layer_norm_module(kw):
    ours, theirs = _twins(
        lambda: nn.LayerNorm((3, 4), dtype=mg.float64, **kw), lambda: torch.nn.LayerNorm((3, 4), **kw)
    )
    _compare(ours, theirs, [_x(2, 3, 4)])


@pytest.mark.parametrize(
    "cls,shape", [("BatchNorm1d", (5, 3)), ("BatchNorm1d", (4, 3, 2)), ("BatchNorm2d", (2, 3, 2, 2))]
)
@pytest.mark.parametrize("momentum", [0.1, None])
def test_batch_norm_modules(cls, shape, momentum):
    ours, theirs = _twins(
        lambda: getattr(nn, cls)(3, momentum=momentum, dtype=mg.float64),
        lambda: getattr(torch.nn, cls)(3, momentum=momentum),
    )
    for step in range(2):
        _compare(ours, theirs, [_x(*shape, seed=step)])
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        np.testing.assert_allclose(getattr(ours, name).array, getattr(theirs, name).numpy())
    ours.eval()
    theirs.eval()
    ours.zero_grad()
    theirs.zero_grad()
    _compare(ours, theirs, [_x(*shape, seed=9)])


def test_batch_norm2d_refuses_other_ranks():
    with pytest.raises(ValueError, match=r"expected 4D input \(\[N, C, H, W\]\)"):
        nn.BatchNorm2d(3)(mg.zeros(2, 3))


@pytest.mark.parametrize("name", ["float", "double", "half", "long", "int", "bool"])
def test_dtype_aliases_are_torchs(name):
    ours, theirs = getattr(mg, name), getattr(torch, name)
    assert str(theirs) == f"torch.{ours}"
    assert mg.zeros(2, dtype=ours).dtype == ours
    assert mg.tensor([1.5, 0.0]).to(ours).dtype == ours
