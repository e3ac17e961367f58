"""max_pool1d/2d's return_indices and max_unpool1d/2d (minigrad/nn/functional/_unpool.py), against
PyTorch where it is installed and against hand-worked cases and finite differences always."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F


def _torch():
    return pytest.importorskip("torch")


def test_indices_are_positions_in_the_input_plane_and_unpool_puts_values_back():
    x = mg.arange(16.0).reshape(1, 1, 4, 4)
    pooled, indices = F.max_pool2d(x, 2, return_indices=True)
    assert pooled.tolist() == [[[[5.0, 7.0], [13.0, 15.0]]]]
    assert indices.tolist() == [[[[5, 7], [13, 15]]]] and indices.dtype == mg.int64
    back = F.max_unpool2d(pooled, indices, 2)
    expected = np.zeros(16)
    expected[[5, 7, 13, 15]] = [5, 7, 13, 15]
    assert back.numpy().ravel().tolist() == expected.tolist()


def test_indices_count_from_the_unpadded_plane_with_stride_padding_and_ceil_mode():
    # 4x4 plane, 3x3 windows, stride 2, padding 1, ceil mode: the last window of each row starts at column 3.
    x = mg.arange(16.0).reshape(1, 1, 4, 4)
    _, indices = F.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, return_indices=True)
    assert indices.tolist() == [[[[5, 7, 7], [13, 15, 15], [13, 15, 15]]]]


def test_max_pool1d_indices_and_unpool():
    x = mg.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0]]])
    pooled, indices = F.max_pool1d(x, 2, return_indices=True)
    assert pooled.tolist() == [[[3.0, 5.0]]] and indices.tolist() == [[[1, 3]]]
    assert F.max_unpool1d(pooled, indices, 2).tolist() == [[[0.0, 3.0, 0.0, 5.0]]]
    assert F.max_unpool1d(pooled, indices, 2, output_size=[5]).tolist() == [[[0.0, 3.0, 0.0, 5.0, 0.0]]]
    unbatched, at = F.max_pool1d(x[0], 2, return_indices=True)
    assert unbatched.tolist() == [[3.0, 5.0]] and at.tolist() == [[1, 3]]


def test_unpool_gradient_is_the_output_gradient_at_each_index():
    x = mg.tensor(np.linspace(-1.0, 1.0, 2 * 3 * 5 * 6).reshape(2, 3, 5, 6), dtype=mg.float64)
    pooled, indices = F.max_pool2d(x, 2, return_indices=True)
    values = pooled.detach().requires_grad_()
    assert mg.autograd.gradcheck(lambda v: F.max_unpool2d(v, indices, 2, output_size=(5, 6)).sin(), (values,))
    source = x.detach().requires_grad_()

    def pool_then_unpool(t):
        out, at = F.max_pool2d(t, 2, return_indices=True)
        return F.max_unpool2d(out * out, at, 2, output_size=(5, 6))

    assert mg.autograd.gradcheck(pool_then_unpool, (source,))


def test_modules_take_torchs_arguments():
    pool, unpool = nn.MaxPool2d(2, return_indices=True), nn.MaxUnpool2d(2)
    assert repr(pool) == "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"
    assert repr(unpool) == "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"
    assert repr(nn.MaxUnpool1d(2)) == "MaxUnpool1d(kernel_size=(2,), stride=(2,), padding=(0,))"
    x = mg.arange(36.0).reshape(1, 1, 6, 6)
    out, indices = pool(x)
    assert unpool(out, indices, output_size=x.shape).shape == (1, 1, 6, 6)
    out1, at1 = nn.MaxPool1d(2, return_indices=True, ceil_mode=True)(mg.arange(5.0).reshape(1, 1, 5))
    assert at1.tolist() == [[[1, 3, 4]]]


@pytest.mark.parametrize(
    ("call", "error", "text"),
    [
        (lambda o, i: F.max_unpool2d(o, i - 20, 2), RuntimeError, "Found an invalid max index: -5 (output volumes"),
        (lambda o, i: F.max_unpool2d(o, i, 2, output_size=(6, 6)), ValueError, "(dim 0 must be between 2 and 6)"),
        (lambda o, i: F.max_unpool2d(o, i, 2, output_size=(4,)), ValueError, "containing 2 or 4 elements"),
        (lambda o, i: F.max_unpool2d(o, i.to(mg.int32), 2), RuntimeError, "should be type int64 but got: Int"),
        (lambda o, i: F.max_unpool2d(o[0, 0], i[0, 0], 2), RuntimeError, "should be a 3d or 4d Tensor"),
        (lambda o, i: F.max_unpool2d(o, i[..., :1], 2), RuntimeError, "Expected shape of indices to be same"),
        (lambda o, i: F.max_unpool2d(o, [5], 2), TypeError, "argument 'indices' (position 2) must be Tensor, not list"),
        (
            lambda o, i: F.max_unpool1d(None, i, 2),
            TypeError,
            "argument 'input' (position 1) must be Tensor, not NoneType",
        ),
    ],
)
def test_unpool_refuses_bad_input_with_torchs_messages(call, error, text):
    pooled, indices = F.max_pool2d(mg.arange(16.0).reshape(1, 1, 4, 4), 2, return_indices=True)
    with pytest.raises(error) as caught:
        call(pooled, indices)
    assert text in str(caught.value)


@pytest.mark.parametrize(
    ("shape", "kwargs"),
    [
        ((2, 3, 7, 6), {"kernel_size": 3, "stride": 2, "padding": 1}),
        ((1, 2, 5, 5), {"kernel_size": 2, "ceil_mode": True}),
        ((2, 2, 8, 9), {"kernel_size": (2, 3), "stride": (1, 2), "dilation": (2, 1), "padding": (1, 1)}),
        ((3, 6, 6), {"kernel_size": 2}),
    ],
)
def test_pool_indices_and_unpool_match_torch(shape, kwargs):
    torch = _torch()
    x = np.random.default_rng(3).standard_normal(shape)
    ours, at = F.max_pool2d(mg.tensor(x), return_indices=True, **kwargs)  # [C, H, W] too, as torch
    theirs, their_at = torch.nn.functional.max_pool2d(torch.tensor(x), return_indices=True, **kwargs)
    assert np.array_equal(ours.numpy(), theirs.numpy()) and np.array_equal(at.numpy(), their_at.numpy())
    if "dilation" in kwargs or kwargs.get("padding"):
        return  # unpooling assumes windows that do not overlap the padding the way these do
    size = shape[-2:]
    back = F.max_unpool2d(ours, at, kwargs["kernel_size"], output_size=size)
    their_back = torch.nn.functional.max_unpool2d(theirs, their_at, kwargs["kernel_size"], output_size=size)
    assert np.array_equal(back.numpy(), their_back.numpy())
