"""``bias=False`` on BatchNorm and GroupNorm (PyTorch 2's keyword): a learned scale and no shift, shown in
the repr as torch shows it."""

import numpy as np
import pytest

import minigrad as mg

X = np.random.default_rng(0).standard_normal((4, 3, 5, 5))

LAYERS = [
    ("BatchNorm2d", (3,), "BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=False, track_running_stats=True)"),
    ("GroupNorm", (3, 3), "GroupNorm(3, 3, eps=1e-05, affine=True, bias=False)"),
]


@pytest.mark.parametrize(("name", "args", "shown"), LAYERS, ids=[n for n, _, _ in LAYERS])
def test_bias_false_keeps_the_scale_and_drops_the_shift(name, args, shown):
    layer = getattr(mg.nn, name)(*args, bias=False)
    assert repr(layer) == shown
    assert [n for n, _ in layer.named_parameters()] == ["weight"] and layer.bias is None
    with mg.no_grad():
        layer.weight.mul_(2.0)
    x = mg.tensor(X, requires_grad=True)
    out = layer(x)
    with_bias = getattr(mg.nn, name)(*args)
    with mg.no_grad():
        with_bias.weight.mul_(2.0)
    np.testing.assert_allclose(out.detach().numpy(), with_bias(mg.tensor(X)).detach().numpy(), rtol=1e-12)
    out.sum().backward()
    assert layer.weight.grad is not None and "bias=True" in repr(with_bias)


def test_the_keyword_is_keyword_only_as_in_torch():
    with pytest.raises(TypeError):
        mg.nn.GroupNorm(3, 3, 1e-5, True, None, None, False)


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.nn.BatchNorm1d(3),
        lambda lib: lib.nn.BatchNorm2d(3, affine=False),
        lambda lib: lib.nn.BatchNorm3d(3, bias=False),
        lambda lib: lib.nn.GroupNorm(1, 3, affine=False),
        lambda lib: lib.nn.InstanceNorm1d(3),
        lambda lib: lib.nn.InstanceNorm2d(3, affine=True, bias=False),
    ],
)
def test_reprs_are_torchs(make):
    torch = pytest.importorskip("torch")
    assert repr(make(mg)) == repr(make(torch))
