"""Property test: a random chain of views of a (3, 4) tensor, a write into the last one, and views
made before the write, give PyTorch's values and gradients (minigrad/ops/inplace.py).

The base is either in the graph (``root * 1``) or outside it (zeros that the write puts in it);
every view made before the write is used afterwards, so a view that does not see the write, or whose
gradient misses the written operand, shows as a difference from PyTorch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg

torch = pytest.importorskip("torch")

VIEWS = {
    "rows": lambda t: t[1:] if t.dim() else t,
    "every_other_column": lambda t: t[..., ::2] if t.dim() else t,
    "transpose": lambda t: t.t() if t.dim() == 2 else t,
    "first": lambda t: t.select(0, 0) if t.dim() else t,
    "narrow": lambda t: t.narrow(-1, 0, 1) if t.dim() and t.shape[-1] > 1 else t,
    "unsqueeze": lambda t: t.unsqueeze(0),
    "flat": lambda t: t.view(-1) if t.is_contiguous() else t,
    "element": lambda t: t[(0,) * t.dim()] if t.dim() else t,
    "movedim": lambda t: t.movedim(0, -1) if t.dim() > 1 else t,
    "reversed_steps": lambda t: t[::2] if t.dim() else t,
}

WRITES = {
    "mul_": lambda v, w: v.mul_(w),
    "add_": lambda v, w: v.add_(w * w),
    "copy_": lambda v, w: v.copy_(w.exp()),
    "setitem": lambda v, w: v.__setitem__(..., w * 2),
}


def _program(lib, root, w_values, in_graph, chain, write, early):
    base = root * 1 if in_graph else lib.zeros(3, 4, dtype=lib.float64)
    before = [VIEWS[name](base) for name in early]  # made before the write, used after it
    view = base
    for name in chain:
        view = VIEWS[name](view)
    w = lib.tensor(w_values[: view.numel()].reshape(tuple(view.shape)), dtype=lib.float64)
    w.requires_grad_(True)
    WRITES[write](view, w)
    weights = lib.arange(1.0, 13.0, dtype=lib.float64).reshape(3, 4)
    loss = (base * weights).sin().sum() + sum((b * b).sum() for b in before)
    loss.backward()
    values = [base.detach().numpy().copy()] + [b.detach().numpy().copy() for b in before]
    grads = [w.grad.numpy().copy()] + ([root.grad.numpy().copy()] if in_graph else [])
    return values, grads


@settings(max_examples=60, deadline=None)
@given(
    in_graph=st.booleans(),
    chain=st.lists(st.sampled_from(sorted(VIEWS)), min_size=1, max_size=4),
    write=st.sampled_from(sorted(WRITES)),
    early=st.lists(st.sampled_from(sorted(VIEWS)), max_size=2),
)
def test_views_and_writes_match_torch(in_graph, chain, write, early):
    w_values = np.linspace(0.5, 1.5, 12)
    results = []
    for lib in (mg, torch):
        root = lib.tensor(np.linspace(-1.0, 1.0, 12).reshape(3, 4), dtype=lib.float64, requires_grad=True)
        try:
            results.append(_program(lib, root, w_values, in_graph, chain, write, early))
        except (RuntimeError, IndexError) as exc:
            results.append(type(exc).__name__)
    ours, theirs = results
    if isinstance(theirs, str) or isinstance(ours, str):
        assert ours == theirs
        return
    for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
