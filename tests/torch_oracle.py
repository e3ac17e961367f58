"""PyTorch as an oracle: run one call in both libraries and compare values and gradients.

``check(fn, *args)`` calls ``fn(lib, *args)`` once with ``lib = minigrad`` (tensor arguments as
minigrad tensors) and once with ``lib = torch`` (the same arrays as torch tensors), compares the
outputs, then back-propagates the same random output gradient through both and compares every
input's gradient. It also gradchecks the minigrad call in float64. Tests that use it skip when
torch is not installed (``torch = pytest.importorskip("torch")`` at the call site).
"""

from __future__ import annotations

import numpy as np

import minigrad as mg
from minigrad.autograd import gradcheck


class Arr:
    """An input array: becomes a tensor in each library (requiring grad when ``grad`` and floating)."""

    def __init__(self, data, grad: bool = True):
        self.array = np.asarray(data)
        self.grad = grad and self.array.dtype.kind == "f"


def arr(*shape, low: float = -2.0, high: float = 2.0, seed: int = 0, grad: bool = True) -> Arr:
    """Uniform float64 values in ``[low, high)`` of ``shape``."""
    return Arr(np.random.default_rng(seed).uniform(low, high, shape), grad)


def _as_lib(lib, a):
    import torch

    if not isinstance(a, Arr):
        return a
    if lib is mg:
        return mg.tensor(a.array.copy(), requires_grad=a.grad)
    return torch.tensor(a.array.copy(), requires_grad=a.grad)


def _outputs(out) -> tuple:
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def _np(t) -> np.ndarray:
    import torch

    if isinstance(t, torch.Tensor):
        return t.detach().numpy()
    return np.asarray(t.array)


def check(fn, *args, rtol: float = 1e-7, atol: float = 1e-9, grads: bool = True, gradcheck_: bool = True):
    """Values and gradients of ``fn(lib, *args)`` match between minigrad and torch; gradcheck passes."""
    import torch

    mins = [_as_lib(mg, a) for a in args]
    tins = [_as_lib(torch, a) for a in args]
    mouts, touts = _outputs(fn(mg, *mins)), _outputs(fn(torch, *tins))
    assert len(mouts) == len(touts)
    for m, t in zip(mouts, touts):
        assert tuple(m.shape) == tuple(t.shape), (tuple(m.shape), tuple(t.shape))
        assert str(m.dtype).split(".")[-1] == str(t.dtype).split(".")[-1], (m.dtype, t.dtype)
        np.testing.assert_allclose(_np(m), _np(t), rtol=rtol, atol=atol)
    if not grads:
        return mouts
    rng = np.random.default_rng(1)
    diff = [(m, t) for m, t in zip(mouts, touts) if t.requires_grad]
    if not diff:
        return mouts
    ws = [rng.standard_normal(tuple(t.shape)) for _, t in diff]
    sum(((m * mg.tensor(w)).sum() for (m, _), w in zip(diff, ws)), mg.tensor(0.0)).backward()
    sum((t * torch.tensor(w)).sum() for (_, t), w in zip(diff, ws)).backward()
    for a, m, t in zip(args, mins, tins):
        if isinstance(a, Arr) and a.grad:
            assert (m.grad is None) == (t.grad is None), (m.grad, t.grad)
            if t.grad is not None:
                np.testing.assert_allclose(_np(m.grad), _np(t.grad), rtol=rtol, atol=atol)
    if gradcheck_:
        leaves = [_as_lib(mg, a) for a in args]
        positions = [i for i, a in enumerate(args) if isinstance(a, Arr) and a.grad]

        def call(*xs):
            full = list(leaves)
            for i, x in zip(positions, xs):
                full[i] = x
            return fn(mg, *full)

        assert gradcheck(call, tuple(leaves[i] for i in positions))
    return mouts


def raises_like_torch(call) -> tuple:
    """``call(lib)`` raises in minigrad the exception class it raises in torch (the test skips without torch).

    Returns the two exceptions, ``(ours, theirs)``, for a test that compares their messages too.
    """
    import pytest

    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(theirs.type) as ours:
        call(mg)
    return ours.value, theirs.value
