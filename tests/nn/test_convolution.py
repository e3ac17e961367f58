"""conv2d as one op whose gradients are convolutions: torch's values, gradients and second derivatives,
gradcheck over every geometry, and a batch's window array never made in one piece."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import func
from minigrad.autograd import gradgradcheck
from minigrad.nn import _conv_products
from tests.conftest import rand64
from tests.torch_oracle import arr, check

GEOMETRIES = {
    "plain": ((2, 4, 6, 5), (3, 4, 3, 3), {}),
    "stride": ((2, 4, 7, 7), (3, 4, 3, 3), {"stride": 2}),
    "stride_leaves_rows_out": ((2, 2, 8, 7), (3, 2, 3, 2), {"stride": (3, 2)}),
    "padding": ((2, 4, 5, 6), (3, 4, 3, 3), {"padding": (1, 2)}),
    "dilation": ((2, 4, 7, 8), (3, 4, 3, 2), {"dilation": (2, 3)}),
    "groups": ((2, 4, 5, 5), (6, 2, 3, 3), {"groups": 2}),
    "depthwise": ((2, 3, 5, 6), (6, 1, 2, 3), {"groups": 3, "padding": 1}),
    "same": ((2, 4, 6, 5), (3, 4, 2, 3), {"padding": "same", "dilation": (1, 2)}),
    "everything": ((3, 4, 9, 8), (4, 2, 3, 2), {"stride": (2, 1), "padding": (2, 1), "dilation": (1, 2), "groups": 2}),
    "one_by_one": ((2, 4, 3, 5), (3, 4, 1, 1), {}),
    # windows copied by rows (stride 1 down the image, rows shorter than SHORT_ROW), across a stride, and not
    "rows_copied_across_a_stride": (
        (2, 4, 8, 9),
        (4, 2, 3, 3),
        {"stride": (1, 2), "dilation": (2, 1), "groups": 2, "padding": (1, 0)},
    ),
    "long_rows": ((1, 2, 4, 70), (3, 2, 2, 3), {"dilation": (2, 1)}),
    # fewer output positions than output channels: the weight's gradient is one product per chunk
    "few_positions": ((2, 4, 4, 5), (8, 4, 3, 3), {"stride": 2, "padding": 1}),
    "few_positions_groups": ((2, 4, 3, 3), (6, 2, 2, 2), {"groups": 2, "stride": (2, 1)}),
    "few_positions_dilated": ((2, 3, 6, 7), (10, 3, 2, 3), {"stride": (2, 3), "padding": (1, 2), "dilation": (3, 2)}),
    # a 1x1 output: the input's gradient is each image's one window, put at the padded image's corner
    "one_window_padded": ((2, 4, 3, 3), (6, 4, 3, 3), {"stride": 3, "padding": 1}),
    "one_window_rows_left_out": ((2, 4, 5, 4), (6, 4, 3, 3), {"stride": 3}),
    "one_window_dilated_groups": ((2, 4, 4, 3), (6, 2, 2, 2), {"dilation": (3, 2), "groups": 2}),
}


@pytest.fixture(params=[False, True], ids=["whole_batch", "one_image_per_chunk"])
def chunked(request, monkeypatch):
    """Windows made for the whole batch at once, or one image at a time (every chunk boundary crossed)."""
    if request.param:
        monkeypatch.setattr(_conv_products, "CHUNK_BYTES", 1)
    return request.param


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_conv2d_values_and_gradients_match_torch_and_gradcheck(name, chunked):
    pytest.importorskip("torch")
    x, w, kwargs = GEOMETRIES[name]
    check(lambda lib, x, w, b: lib.nn.functional.conv2d(x, w, b, **kwargs), arr(*x), arr(*w, seed=1), arr(w[0], seed=2))


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_conv2d_is_twice_differentiable(name, chunked):
    x, w, kwargs = GEOMETRIES[name]
    assert gradgradcheck(
        lambda x, w, b: F.conv2d(x, w, b, **kwargs).tanh(), (rand64(*x), rand64(*w, seed=1), rand64(w[0], seed=2))
    )


@pytest.mark.parametrize("name", ["stride", "groups", "everything"])
def test_second_derivatives_match_torch(name):
    """The gradient of a function of conv2d's gradients (a gradient penalty) wrt input, weight and bias."""
    torch = pytest.importorskip("torch")
    xs, ws, kwargs = GEOMETRIES[name]
    arrays = [np.random.default_rng(seed).standard_normal(shape) for seed, shape in enumerate((xs, ws, (ws[0],)))]

    def penalty_grads(lib, grad):
        x, w, b = (lib.tensor(a, requires_grad=True) for a in arrays)
        out = lib.nn.functional.conv2d(x, w, b, **kwargs)
        gx, gw = grad((out.tanh() ** 2).sum(), (x, w), create_graph=True)
        (gx.pow(2).sum() + (gw * gw.sin()).sum()).backward()
        return [t.grad.detach().numpy() if lib is torch else t.grad.numpy() for t in (x, w, b)]

    ours = penalty_grads(mg, mg.autograd.grad)
    theirs = penalty_grads(torch, torch.autograd.grad)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_forward_mode_matches_torch():
    torch = pytest.importorskip("torch")
    xs, ws, kwargs = GEOMETRIES["everything"]
    rng = np.random.default_rng(3)
    primals = [rng.standard_normal(s) for s in (xs, ws, (ws[0],))]
    tangents = [rng.standard_normal(s) for s in (xs, ws, (ws[0],))]

    def run(lib, jvp):
        out, tangent = jvp(
            lambda x, w, b: lib.nn.functional.conv2d(x, w, b, **kwargs),
            tuple(lib.tensor(p) for p in primals),
            tuple(lib.tensor(t) for t in tangents),
        )
        return tangent.detach().numpy() if lib is torch else tangent.numpy()

    np.testing.assert_allclose(run(mg, func.jvp), run(torch, torch.func.jvp), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_conv2d_of_a_padded_input_matches_torch(mode):
    """torch's Conv2d(padding_mode=...) pads with F.pad, then convolves without padding: the same here."""
    pytest.importorskip("torch")
    check(
        lambda lib, x, w, b: lib.nn.functional.conv2d(
            lib.nn.functional.pad(x, (2, 2, 1, 1), mode=mode), w, b, stride=(1, 2)
        ),
        arr(2, 2, 5, 6),
        arr(3, 2, 3, 2, seed=1),
        arr(3, seed=2),
    )


def test_conv2d_is_one_node_whose_gradients_are_convolution_nodes():
    """The debugger shows one conv2d node; with create_graph its input and weight gradients are the
    transposed convolution (conv2d_input) and the input correlated with g (conv2d_weight)."""
    x, w, b = rand64(1, 2, 4, 4), rand64(3, 2, 3, 3, seed=1), rand64(3, seed=2)
    out = F.conv2d(x, w, b, padding=1)
    assert out.op == "conv2d" and out.parents == (x, w, b)
    gx, gw, gb = mg.autograd.grad(out.sum(), (x, w, b), create_graph=True)
    assert (gx.op, gw.op) == ("conv2d_input", "conv2d_weight")


def test_a_float32_conv2d_stays_float32_and_refuses_a_float64_weight_as_torch():
    x = mg.randn(2, 3, 6, 6)
    w = mg.randn(4, 3, 3, 3, requires_grad=True)
    out = F.conv2d(x, w)
    out.sum().backward()
    assert out.dtype == mg.float32 and w.grad.dtype == mg.float32
    with pytest.raises(RuntimeError, match="^expected scalar type Float but found Double$"):
        F.conv2d(x, w.double())


def test_the_window_array_of_a_batch_is_never_made_at_once(monkeypatch):
    """A batch's windows (here 4.2 MB) are made a few images at a time, forward and backward."""
    monkeypatch.setattr(_conv_products, "CHUNK_BYTES", 1 << 16)
    x = mg.randn(32, 16, 18, 18, requires_grad=True)
    w = mg.randn(8, 16, 3, 3, requires_grad=True)
    windows_bytes = 32 * 16 * 9 * 16 * 16 * 4
    tracemalloc.start()
    try:
        F.conv2d(x, w).sum().backward()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < windows_bytes / 2, (peak, windows_bytes)


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_results_keep_their_values_when_the_products_run_again(name):
    """The products' kept work arrays are never part of a result: a second call leaves the first's alone."""
    x, w, kwargs = GEOMETRIES[name]
    first = [rand64(*x), rand64(*w, seed=1)]
    out = F.conv2d(*first, **kwargs)
    gx, gw = mg.autograd.grad(out.tanh().sum(), first)
    kept = [t.detach().numpy().copy() for t in (out, gx, gw)]
    F.conv2d(rand64(*x, seed=3), rand64(*w, seed=4), **kwargs).tanh().sum().backward()
    for t, value in zip((out, gx, gw), kept):
        np.testing.assert_array_equal(t.detach().numpy(), value)
