"""micrograd's engine tests (test/test_engine.py), rewritten for minigrad's scalar tensors.

micrograd checks its ``Value`` against PyTorch; here the expected numbers are worked out by hand
(sanity check) or are the ones micrograd's README prints, and PyTorch is an extra oracle when installed.
"""

import math

import pytest

import minigrad as mg


def _scalar(v):
    return mg.tensor(v, dtype=mg.float64, requires_grad=True)


def test_sanity_check():
    x = _scalar(-4.0)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    # By hand: z = -10, q = 40, h = 100, y = -20; dy/dx = dh/dx + dq/dx (1 + x) + q = -60 - 22 * -3 + 40.
    assert y.item() == -20.0
    assert x.grad.item() == 46.0


@pytest.mark.parametrize(
    "name, fn, derivative",
    [
        ("tanh", math.tanh, lambda x: 1 - math.tanh(x) ** 2),
        ("exp", math.exp, math.exp),
    ],
)
@pytest.mark.parametrize("x", [-1.0, 0.123, 2.0])
def test_unary_tensor_fns(name, fn, derivative, x):
    xt = _scalar(x)
    y = getattr(xt, name)()
    y.backward()
    assert y.item() == pytest.approx(fn(x), abs=1e-12)
    assert xt.grad.item() == pytest.approx(derivative(x), abs=1e-12)


def test_unary_tensor_fns_match_torch():
    torch = pytest.importorskip("torch")
    for name in ("tanh", "exp"):
        for x in (-1.0, 0.123, 2.0):
            ours, theirs = _scalar(x), torch.tensor(x, dtype=torch.float64, requires_grad=True)
            getattr(ours, name)().backward()
            getattr(theirs, name)().backward()
            assert ours.grad.item() == pytest.approx(theirs.grad.item(), abs=1e-12)
