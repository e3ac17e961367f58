"""conv_transpose2d as one op whose gradients are convolutions (conv2d wrt the input, conv2d_weight wrt
the weight): torch's values, gradients, second derivatives and tangents over every geometry, no column
array of the whole batch."""

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

# input [N, C_in, H, W], weight [C_in, C_out/groups, kh, kw], keyword arguments
GEOMETRIES = {
    "plain": ((2, 4, 3, 4), (4, 3, 3, 2), {}),
    "stride": ((2, 4, 3, 4), (4, 3, 3, 3), {"stride": 2}),
    "output_padding": ((2, 3, 4, 3), (3, 2, 4, 4), {"stride": 2, "padding": 1, "output_padding": 1}),
    "non_square": ((1, 4, 5, 4), (4, 1, 3, 2), {"stride": (2, 3), "padding": (1, 2), "output_padding": (1, 2)}),
    "dilation": ((2, 3, 4, 3), (3, 2, 3, 2), {"dilation": (3, 2), "padding": 1}),
    "groups": ((2, 4, 3, 3), (4, 2, 2, 3), {"groups": 2, "stride": (1, 2)}),
    "depthwise": ((2, 6, 3, 3), (6, 1, 2, 2), {"groups": 6, "dilation": 2, "padding": 1}),
    "stride_over_kernel": ((2, 6, 3, 3), (6, 1, 2, 2), {"groups": 3, "padding": 1, "stride": 3}),
    # an output padding of a stride or more, which a dilation above the stride allows
    "output_padding_over_stride": ((2, 3, 4, 3), (3, 2, 2, 3), {"dilation": (3, 1), "output_padding": (2, 0)}),
    # fewer input positions than channels, as a DCGAN generator's first layer (noise as a 1x1 image)
    "one_pixel": ((3, 5, 1, 1), (5, 4, 4, 4), {}),
    "one_pixel_padded": ((2, 5, 1, 1), (5, 4, 4, 4), {"padding": 1}),
    "one_pixel_dilated_groups": ((2, 4, 1, 1), (4, 3, 2, 3), {"groups": 2, "dilation": (2, 1), "padding": (1, 0)}),
    "few_pixels_groups": ((2, 6, 2, 1), (6, 2, 3, 3), {"groups": 2, "stride": 2}),
    # more output channels than input columns at a stride (DCGAN's later layers): spread channels-last
    "channels_over_width": ((2, 3, 2, 2), (3, 5, 4, 4), {"stride": 2, "padding": 1}),
    "channels_over_width_dilated": (
        (2, 2, 2, 3),
        (2, 4, 3, 2),
        {"stride": (2, 3), "padding": (1, 0), "dilation": (3, 1), "output_padding": (1, 2)},
    ),
    "everything": (
        (3, 4, 4, 3),
        (4, 1, 3, 2),
        {"stride": (2, 1), "padding": (1, 2), "output_padding": (1, 0), "groups": 2, "dilation": (1, 2)},
    ),
}


def _bias(w, kwargs) -> int:
    return w[1] * kwargs.get("groups", 1)


@pytest.fixture(params=[False, True], ids=["whole_batch", "one_image_per_chunk"])
def chunked(request, monkeypatch):
    """Products made for the whole batch at once, or one image at a time (every chunk boundary crossed)."""
    if request.param:
        monkeypatch.setattr(_conv_products, "CHUNK_BYTES", 1)
    return request.param


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_conv_transpose2d_values_and_gradients_match_torch_and_gradcheck(name, chunked):
    pytest.importorskip("torch")
    x, w, kwargs = GEOMETRIES[name]
    check(
        lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x, w, b, **kwargs),
        arr(*x),
        arr(*w, seed=1),
        arr(_bias(w, kwargs), seed=2),
    )


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_conv_transpose2d_is_twice_differentiable(name):
    x, w, kwargs = GEOMETRIES[name]
    assert gradgradcheck(
        lambda x, w, b: F.conv_transpose2d(x, w, b, **kwargs).tanh(),
        (rand64(*x), rand64(*w, seed=1), rand64(_bias(w, kwargs), seed=2)),
    )


@pytest.mark.parametrize("name", ["output_padding", "groups", "everything"])
def test_second_derivatives_match_torch(name):
    """The gradient of a function of conv_transpose2d's gradients (a gradient penalty) wrt input, weight, bias."""
    torch = pytest.importorskip("torch")
    xs, ws, kwargs = GEOMETRIES[name]
    shapes = (xs, ws, (_bias(ws, kwargs),))
    arrays = [np.random.default_rng(seed).standard_normal(shape) for seed, shape in enumerate(shapes)]

    def penalty_grads(lib, grad):
        x, w, b = (lib.tensor(a, requires_grad=True) for a in arrays)
        out = lib.nn.functional.conv_transpose2d(x, w, b, **kwargs)
        gx, gw = grad((out.tanh() ** 2).sum(), (x, w), create_graph=True)
        (gx.pow(2).sum() + (gw * gw.sin()).sum()).backward()
        return [t.grad.detach().numpy() if lib is torch else t.grad.numpy() for t in (x, w, b)]

    for ours, theirs in zip(penalty_grads(mg, mg.autograd.grad), penalty_grads(torch, torch.autograd.grad)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no_bias"])
@pytest.mark.parametrize("name", ["stride", "everything"])
def test_forward_mode_matches_torch(name, bias):
    torch = pytest.importorskip("torch")
    xs, ws, kwargs = GEOMETRIES[name]
    rng = np.random.default_rng(3)
    shapes = (xs, ws, (_bias(ws, kwargs),))[: 3 if bias else 2]
    primals = [rng.standard_normal(s) for s in shapes]
    tangents = [rng.standard_normal(s) for s in shapes]

    def run(lib, jvp):
        out, tangent = jvp(
            lambda *xwb: lib.nn.functional.conv_transpose2d(*xwb, **kwargs),
            tuple(lib.tensor(p) for p in primals),
            tuple(lib.tensor(t) for t in tangents),
        )
        return tangent.detach().numpy() if lib is torch else tangent.numpy()

    np.testing.assert_allclose(run(mg, func.jvp), run(torch, torch.func.jvp), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "kwargs",
    [{"stride": 2, "padding": 1, "output_padding": 1}, {"groups": 2, "dilation": 3}, {"stride": 3, "padding": 2}],
)
def test_conv_transpose1d_matches_torch(kwargs):
    pytest.importorskip("torch")
    check(
        lambda lib, x, w, b: lib.nn.functional.conv_transpose1d(x, w, b, **kwargs),
        arr(2, 4, 5),
        arr(4, 3, 3, seed=1),
        arr(3 * kwargs.get("groups", 1), seed=2),
    )


def test_conv_transpose2d_is_one_node_whose_gradients_are_convolution_nodes():
    """The debugger shows one conv_transpose2d node; with create_graph its input gradient is a conv2d
    of the output gradient and its weight gradient a conv2d_weight."""
    x, w, b = rand64(2, 3, 4, 4), rand64(3, 2, 3, 3, seed=1), rand64(2, seed=2)
    out = F.conv_transpose2d(x, w, b, stride=2, padding=1)
    assert out.op == "conv_transpose2d" and out.parents == (x, w, b)
    gx, gw, gb = mg.autograd.grad(out.sum(), (x, w, b), create_graph=True)
    assert (gx.op, gw.op) == ("conv2d", "conv2d_weight")


def test_the_column_array_of_a_batch_is_never_made(monkeypatch):
    """Forward and backward stay below the size of the batch's column array [N, C_out*kh*kw, H*W] (8.4 MB)."""
    monkeypatch.setattr(_conv_products, "CHUNK_BYTES", 1 << 16)
    x = mg.randn(32, 16, 16, 16, requires_grad=True)
    w = mg.randn(16, 16, 4, 4, requires_grad=True)
    columns_bytes = 32 * (16 * 4 * 4) * (16 * 16) * 4
    tracemalloc.start()
    try:
        F.conv_transpose2d(x, w, stride=2, padding=1).sum().backward()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < columns_bytes, (peak, columns_bytes)


def test_a_weight_of_another_dtype_is_refused_as_torch():
    x = mg.randn(1, 2, 3, 3)
    with pytest.raises(RuntimeError, match="^expected scalar type Float but found Double$"):
        F.conv_transpose2d(x, mg.randn(2, 3, 2, 2).double())


def test_a_float32_conv_transpose2d_stays_float32_with_a_float64_bias_as_torch():
    """torch adds a float64 bias into the float32 output and gives the bias a float64 gradient."""
    x, w = mg.randn(1, 2, 3, 3), mg.randn(2, 3, 2, 2)
    b = mg.zeros(3, dtype=mg.float64, requires_grad=True)
    out = F.conv_transpose2d(x, w, b)
    out.sum().backward()
    assert out.dtype == mg.float32 and b.grad.dtype == mg.float64


def test_per_example_gradients_under_vmap_equal_a_loop():
    """vmap(grad) runs the node's rules (conv2d, conv2d_weight) on batched values: the same as one call each."""
    xs, ws = rand64(3, 2, 2, 3, 3, seed=4), rand64(2, 3, 3, 3, seed=5)

    def loss(w, x):
        return F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1).tanh().sum()

    per_example = func.vmap(func.grad(loss, argnums=(0, 1)), in_dims=(None, 0))(ws, xs)
    for i in range(3):
        for batched, one in zip(per_example, func.grad(loss, argnums=(0, 1))(ws, xs[i])):
            np.testing.assert_allclose(batched[i].detach().numpy(), one.detach().numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "x,w,kwargs",
    [((4, 8, 1, 1), (8, 16, 4, 4), {}), ((4, 16, 4, 4), (16, 8, 4, 4), {"stride": 2, "padding": 1})],
    ids=["one_pixel", "channels_over_width"],
)
def test_float32_values_and_gradients_match_torch(x, w, kwargs):
    """A DCGAN generator's layers in float32: the products stay float32 and agree with torch's."""
    torch = pytest.importorskip("torch")
    g = np.random.default_rng(3)
    xa, wa = g.standard_normal(x).astype(np.float32), g.standard_normal(w).astype(np.float32)
    ours = mg.tensor(xa, requires_grad=True), mg.tensor(wa, requires_grad=True)
    theirs = torch.tensor(xa, requires_grad=True), torch.tensor(wa, requires_grad=True)
    out = F.conv_transpose2d(*ours, **kwargs)
    expected = torch.nn.functional.conv_transpose2d(*theirs, **kwargs)
    seed = g.standard_normal(tuple(expected.shape)).astype(np.float32)
    out.backward(mg.tensor(seed))
    expected.backward(torch.tensor(seed))
    assert out.dtype == mg.float32 and all(t.grad.dtype == mg.float32 for t in ours)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-4)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_results_keep_their_values_when_the_products_run_again(name):
    """The products' kept work arrays are never part of a result: a second call leaves the first's alone."""
    x, w, kwargs = GEOMETRIES[name]
    first = [rand64(*x), rand64(*w, seed=1)]
    out = F.conv_transpose2d(*first, **kwargs)
    gx, gw = mg.autograd.grad(out.tanh().sum(), first)
    kept = [t.detach().numpy().copy() for t in (out, gx, gw)]
    F.conv_transpose2d(rand64(*x, seed=3), rand64(*w, seed=4), **kwargs).tanh().sum().backward()
    for t, value in zip((out, gx, gw), kept):
        np.testing.assert_array_equal(t.detach().numpy(), value)
