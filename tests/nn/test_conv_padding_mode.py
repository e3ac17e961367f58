"""The convolution layers' ``padding_mode``: Conv2d and Conv1d pad in that mode, then convolve with no
padding, as torch; the transposed convolutions take "zeros" only."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn

PADDING_MODES = ["zeros", "reflect", "replicate", "circular"]


def _same_layer(torch, layer, ours):
    """``layer``, a torch module, with ``ours``'s parameters (float64)."""
    layer = layer.double()
    with torch.no_grad():
        layer.weight.copy_(torch.tensor(ours.weight.array))
        layer.bias.copy_(torch.tensor(ours.bias.array))
    return layer


@pytest.mark.parametrize("mode", PADDING_MODES)
@pytest.mark.parametrize(
    "kwargs",
    [{"padding": (1, 2), "stride": (2, 1)}, {"padding": "same", "dilation": (2, 1)}, {"padding": 2, "groups": 2}],
    ids=["pairs", "same", "groups"],
)
def test_conv2d_layer_padding_mode_matches_torch(mode, kwargs):
    """nn.Conv2d(padding_mode=...) pads the input in that mode, then convolves with no padding, as torch."""
    torch = pytest.importorskip("torch")
    ours = nn.Conv2d(4, 6, (3, 4), padding_mode=mode, dtype=mg.float64, **kwargs)
    theirs = _same_layer(torch, torch.nn.Conv2d(4, 6, (3, 4), padding_mode=mode, **kwargs), ours)
    x = np.random.default_rng(0).standard_normal((2, 4, 6, 7))
    mx, tx = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    out, expected = ours(mx), theirs(tx)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-10, atol=1e-12)
    g = np.random.default_rng(1).standard_normal(expected.shape)
    out.backward(mg.tensor(g))
    expected.backward(torch.tensor(g))
    for a, b in ((mx, tx), (ours.weight, theirs.weight), (ours.bias, theirs.bias)):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-10, atol=1e-12)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("mode", PADDING_MODES)
def test_conv1d_layer_padding_mode_matches_torch(mode):
    torch = pytest.importorskip("torch")
    ours = nn.Conv1d(3, 4, 3, padding=2, dilation=2, padding_mode=mode, dtype=mg.float64)
    theirs = _same_layer(torch, torch.nn.Conv1d(3, 4, 3, padding=2, dilation=2, padding_mode=mode), ours)
    x = np.random.default_rng(0).standard_normal((2, 3, 7))
    mx, tx = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    out, expected = ours(mx), theirs(tx)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-10, atol=1e-12)
    out.sum().backward()
    expected.sum().backward()
    np.testing.assert_allclose(mx.grad.numpy(), tx.grad.numpy(), rtol=1e-10, atol=1e-12)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("layer", ["Conv2d", "Conv1d"])
def test_an_unknown_padding_mode_is_refused_as_torch(layer):
    with pytest.raises(ValueError, match=r"^padding_mode must be one of \[.*\], but got padding_mode='mirror'$"):
        getattr(nn, layer)(2, 2, 3, padding_mode="mirror")


@pytest.mark.parametrize("layer", ["ConvTranspose2d", "ConvTranspose1d"])
def test_a_transposed_convolution_takes_only_zeros_padding_mode_as_torch(layer):
    assert getattr(nn, layer)(2, 2, 3, padding_mode="zeros").padding_mode == "zeros"
    with pytest.raises(ValueError, match=f'^Only "zeros" padding mode is supported for {layer}$'):
        getattr(nn, layer)(2, 2, 3, padding_mode="reflect")
