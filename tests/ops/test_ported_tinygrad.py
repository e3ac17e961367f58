"""Cases ported from tinygrad's test/test_ops.py (``helper_test_op``: forward and backward against
torch on given shapes), rewritten for minigrad: each case runs the same call in both libraries
through ``tests.torch_oracle.check`` (values, gradients of a random output cotangent, and a float64
gradcheck). The comment on each case names the tinygrad test it comes from."""

from __future__ import annotations

import numpy as np
import pytest

from tests.torch_oracle import Arr, arr, check

torch = pytest.importorskip("torch")


def F(lib):
    """``nn.functional`` of either library."""
    return lib.nn.functional


def distinct(*shape, seed: int = 0) -> Arr:
    """Values in [-2, 2) with no two equal (a max/min/sort with a unique answer)."""
    n = int(np.prod(shape))
    return Arr(np.random.default_rng(seed).permutation(np.linspace(-2.0, 2.0, n)).reshape(shape))


def ints(data) -> Arr:
    return Arr(np.asarray(data, dtype=np.int64), grad=False)


CASES = {
    # test_add / test_broadcast_full: odd shapes, size-1 dims on both sides
    "add_broadcast_both": (lambda lib, a, b: a + b, arr(4, 1, 3), arr(1, 5, 1, seed=1)),
    # test_broadcast_partial: a 0-d tensor against a matrix
    "mul_scalar_tensor": (lambda lib, a, b: a * b, arr(), arr(3, 4, seed=1)),
    # test_sub / test_div broadcast over a leading dim
    "div_broadcast_row": (lambda lib, a, b: a / b, arr(5, 3), arr(3, low=0.5, high=2.0, seed=1)),
    # test_broadcast_simple with an empty dim
    "sub_empty_dim": (lambda lib, a, b: a - b, arr(0, 3), arr(1, 3, seed=1)),
    # test_maximum / test_minimum with ties (torch splits the gradient equally)
    "maximum_ties": (lambda lib, a, b: lib.maximum(a, b), Arr([[1.0, 2.0, 3.0]]), Arr([[1.0, 0.0, 3.0]])),
    "minimum_ties": (lambda lib, a, b: lib.minimum(a, b), Arr([1.0, -2.0, 3.0]), Arr([1.0, 0.0, 3.0])),
    # test_sum_axis: negative dims and several dims at once
    "sum_neg_dims": (lambda lib, a: a.sum(dim=(-1, 0)), arr(3, 4, 5)),
    # test_sum_with_keepdim (keepdim over several dims)
    "sum_keepdim": (lambda lib, a: a.sum(dim=(0, 2), keepdim=True), arr(3, 4, 5)),
    # test_sum_full / test_sum_0d: a 0-d input
    "sum_0d": (lambda lib, a: a.sum(), arr()),
    # test_mean_axis with a negative dim
    "mean_neg_dim": (lambda lib, a: a.mean(dim=-2, keepdim=True), arr(2, 3, 4)),
    # test_max / test_min: ties along a dim (torch.max(dim) routes the gradient to one index)
    "amax_ties": (lambda lib, a: lib.amax(a, dim=1), Arr([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])),
    "amin_full_ties": (lambda lib, a: lib.amin(a), Arr([[-1.0, 0.0], [-1.0, -1.0]])),
    "max_dim_keepdim": (lambda lib, a: a.max(dim=-1, keepdim=True).values, distinct(3, 4)),
    "min_dim": (lambda lib, a: a.min(dim=0).values, distinct(3, 4)),
    # test_max_full: torch.max() without dim and ties (grad split between the maxima)
    "max_full_ties": (lambda lib, a: a.max(), Arr([1.0, 5.0, 5.0, 2.0])),
    # test_var / test_std with a negative dim and correction
    "var_neg_dim": (lambda lib, a: a.var(dim=-1, correction=0), arr(3, 5)),
    # test_logsumexp on large values
    "logsumexp_large": (lambda lib, a: lib.logsumexp(a, dim=1), arr(3, 4, low=500.0, high=600.0)),
    # test_log_softmax on large values (the naive log(softmax) overflows)
    "log_softmax_large": (lambda lib, a: F(lib).log_softmax(a, dim=-1), arr(2, 5, low=800.0, high=900.0)),
    # test_softmax_other_axis
    "softmax_dim0": (lambda lib, a: F(lib).softmax(a, dim=0), arr(3, 4)),
    # test_matmul_simple: vector @ vector (0-d result)
    "matmul_1d_1d": (lambda lib, a, b: a @ b, arr(4), arr(4, seed=1)),
    # test_matmul: vector @ matrix and matrix @ vector
    "matmul_1d_2d": (lambda lib, a, b: a @ b, arr(3), arr(3, 5, seed=1)),
    "matmul_2d_1d": (lambda lib, a, b: a @ b, arr(4, 3), arr(3, seed=1)),
    # test_broadcastdot: batched @ matrix
    "matmul_batched_broadcast": (lambda lib, a, b: a @ b, arr(2, 1, 3, 4), arr(5, 4, 2, seed=1)),
    # test_matmul_batched_vector
    "matmul_batched_vector": (lambda lib, a, b: a @ b, arr(2, 3, 4), arr(4, seed=1)),
    # test_slice_in_bounds_1dim / test_slice_stride_gt_one
    "slice_step": (lambda lib, a: a[1:9:3], arr(10)),
    # test_slice_negative_strides-like: negative starts/ends
    "slice_negative_index": (lambda lib, a: a[-3:-1, -1], arr(5, 4)),
    # test_slice_ellipsis
    "slice_ellipsis": (lambda lib, a: a[..., 1:3], arr(2, 3, 4)),
    # test_slice_ellipsis with None
    "slice_none_ellipsis": (lambda lib, a: a[None, ..., None, 0], arr(2, 3)),
    # test_slice_stride_gt_one on two dims with an int
    "slice_two_dims_int": (lambda lib, a: a[::2, 1, ::3], arr(5, 3, 7)),
    # test_slice_empty
    "slice_empty": (lambda lib, a: a[2:2], arr(4, 3)),
    # test_index: integer-array indexing with repeats (gradients accumulate)
    "fancy_index_repeats": (lambda lib, a, i: a[i], arr(5, 3), ints([0, 2, 0, 4])),
    # test_index_mixed: array index in the middle of basic slices
    "fancy_index_mixed": (lambda lib, a, i: a[:, i, 1:], arr(2, 4, 3), ints([[3, 1], [1, 1]])),
    # test_index (two arrays broadcast together)
    "fancy_index_two_arrays": (lambda lib, a, i, j: a[i, j], arr(4, 5), ints([0, 3, 3]), ints([[1], [4]])),
    # test_gather with repeats
    "gather_dim1": (lambda lib, a, i: lib.gather(a, 1, i), arr(3, 4), ints([[0, 0], [3, 1], [2, 2]])),
    # test_pad2d: constant padding with asymmetric and negative pads
    "pad_constant": (lambda lib, a: F(lib).pad(a, (1, 2, 0, 3), value=0.5), arr(2, 3, 4)),
    "pad_negative": (lambda lib, a: F(lib).pad(a, (-1, 2, 1, -1)), arr(1, 4, 5)),
    # test_pad_reflect / test_pad_replicate
    "pad_reflect": (lambda lib, a: F(lib).pad(a, (2, 1), mode="reflect"), arr(1, 2, 4)),
    "pad_replicate": (lambda lib, a: F(lib).pad(a, (1, 2, 2, 0), mode="replicate"), arr(1, 1, 3, 3)),
    # test_cumsum: over each dim, negative dims
    "cumsum_neg_dim": (lambda lib, a: lib.cumsum(a, dim=-2), arr(3, 4, 2)),
    "cumsum_0d": (lambda lib, a: lib.cumsum(a, dim=0), arr()),
    # test_cumprod with a zero
    "cumprod_zero": (lambda lib, a: lib.cumprod(a, dim=0), Arr([2.0, 0.0, 3.0, -1.0])),
    # test_where: broadcast condition and branches
    "where_broadcast": (
        lambda lib, c, a, b: lib.where(c, a, b),
        Arr(np.array([[True], [False], [True]]), grad=False),
        arr(1, 4),
        arr(3, 1, seed=1),
    ),
    # test_clip: at the boundary (torch's clamp passes the gradient where x == min or max)
    "clamp_boundary": (lambda lib, a: lib.clamp(a, -1.0, 1.0), Arr([-2.0, -1.0, 0.0, 1.0, 2.0])),
    "clamp_min_only": (lambda lib, a: lib.clamp(a, min=0.0), Arr([-1.0, 0.0, 1.0])),
    # test_pow: negative bases with integer exponents, zero exponent
    "pow_negative_base_int_exp": (lambda lib, a: a**3.0, Arr([-2.0, -0.5, 0.5, 2.0])),
    "pow_negative_base_even": (lambda lib, a: a**2, Arr([-3.0, -1.0, 2.0])),
    "pow_zero_exponent": (lambda lib, a: a**0.0, Arr([-2.0, 0.5, 3.0])),
    # test_pow_full: tensor ** tensor (positive bases)
    "pow_tensor_tensor": (lambda lib, a, b: a**b, arr(3, 2, low=0.5, high=2.0), arr(3, 2, seed=1)),
    # test_abs / test_relu at zero (torch: grad 0 at 0)
    "relu_at_zero": (lambda lib, a: F(lib).relu(a), Arr([-1.0, 0.0, 1.0])),
    # test_conv2d: stride, padding, dilation, groups
    "conv2d_stride_padding": (
        lambda lib, x, w: F(lib).conv2d(x, w, stride=2, padding=1),
        arr(2, 3, 7, 6),
        arr(4, 3, 3, 3, seed=1),
    ),
    "conv2d_dilation": (
        lambda lib, x, w, b: F(lib).conv2d(x, w, b, dilation=(2, 1), padding=(1, 0)),
        arr(1, 2, 7, 7),
        arr(3, 2, 3, 2, seed=1),
        arr(3, seed=2),
    ),
    "conv2d_groups": (
        lambda lib, x, w: F(lib).conv2d(x, w, groups=2, stride=(1, 2)),
        arr(1, 4, 5, 6),
        arr(6, 2, 2, 3, seed=1),
    ),
    "conv2d_asymmetric_stride": (
        lambda lib, x, w: F(lib).conv2d(x, w, stride=(2, 3)),
        arr(1, 1, 8, 9),
        arr(2, 1, 3, 2, seed=1),
    ),
    # test_conv1d
    "conv1d_padding": (lambda lib, x, w: F(lib).conv1d(x, w, padding=2, stride=2), arr(2, 3, 9), arr(4, 3, 3, seed=1)),
    # test_maxpool2d / test_maxpool2d_ceil_mode-like shapes, distinct values
    "max_pool2d_stride": (lambda lib, x: F(lib).max_pool2d(x, kernel_size=(2, 3), stride=(1, 2)), distinct(1, 2, 5, 7)),
    "max_pool2d_padding": (lambda lib, x: F(lib).max_pool2d(x, 3, stride=2, padding=1), distinct(1, 1, 6, 6)),
    # test_avgpool2d (count_include_pad default)
    "avg_pool2d_padding": (lambda lib, x: F(lib).avg_pool2d(x, 3, stride=2, padding=1), arr(1, 2, 5, 5)),
    "avg_pool1d": (lambda lib, x: F(lib).avg_pool1d(x, 2, stride=1), arr(2, 3, 5)),
    # test_interpolate_nearest / test_interpolate_bilinear
    "interpolate_nearest": (lambda lib, x: F(lib).interpolate(x, size=(5, 7), mode="nearest"), arr(1, 2, 3, 4)),
    "interpolate_bilinear": (
        lambda lib, x: F(lib).interpolate(x, size=(5, 3), mode="bilinear", align_corners=False),
        arr(1, 1, 3, 4),
    ),
    "interpolate_bilinear_corners": (
        lambda lib, x: F(lib).interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
        arr(1, 1, 2, 3),
    ),
    # test_flip / test_roll with negative dims
    "flip_neg_dims": (lambda lib, a: lib.flip(a, dims=(-1, 0)), arr(3, 4)),
    "roll_neg": (lambda lib, a: lib.roll(a, shifts=-2, dims=-1), arr(2, 5)),
    # test_tril / test_triu with an offset
    "triu_offset": (lambda lib, a: lib.triu(a, diagonal=-1), arr(4, 3)),
    # test_expand / test_permute / test_transpose
    "expand_permute": (lambda lib, a: a.expand(2, 3, 4).permute(2, 0, 1), arr(3, 1)),
    # test_cat with an empty tensor along the cat dim
    "cat_with_empty": (lambda lib, a, b: lib.cat([a, b], dim=0), arr(0, 3), arr(2, 3, seed=1)),
    # test_stack at a negative dim
    "stack_neg_dim": (lambda lib, a, b: lib.stack([a, b], dim=-1), arr(2, 3), arr(2, 3, seed=1)),
    # test_squeeze / test_unsqueeze at negative dims
    "squeeze_unsqueeze": (lambda lib, a: a.squeeze(-2).unsqueeze(0), arr(3, 1, 2)),
    # test_sigmoid / test_tanh far from zero
    "sigmoid_extreme": (lambda lib, a: lib.sigmoid(a), Arr([-800.0, -30.0, 0.0, 30.0, 800.0])),
    # test_softplus on large values
    "softplus_large": (lambda lib, a: F(lib).softplus(a), Arr([-100.0, -1.0, 0.0, 25.0, 100.0])),
    # test_prod with zeros: one zero and two zeros (the gradient is not prod / x there)
    "prod_one_zero": (lambda lib, a: a.prod(dim=1), Arr([[2.0, 0.0, 3.0], [1.0, -2.0, 0.5]])),
    "prod_two_zeros": (lambda lib, a: a.prod(), Arr([2.0, 0.0, 3.0, 0.0])),
    "cumprod_two_zeros": (lambda lib, a: lib.cumprod(a, dim=-1), Arr([[2.0, 0.0, 3.0, 0.0, 4.0]])),
    # test_pow with a zero base: 0**0 and d/dy of 0**y (torch masks the log(0))
    "pow_zero_base_tensor_exp": (lambda lib, a, b: a**b, Arr([0.0, 0.0, 2.0]), Arr([0.0, 2.0, 1.5])),
    "pow_zero_base_scalar_exp": (lambda lib, a: a**2.0, Arr([0.0, 1.0])),
    "pow_scalar_base": (lambda lib, a: 2.0**a, arr(3)),
    "pow_zero_scalar_base": (lambda lib, a: 0.0**a, Arr([0.0, 1.0, 2.0])),
    # test_sqrt / test_abs at zero
    "abs_at_zero": (lambda lib, a: a.abs(), Arr([-1.0, 0.0, 2.0])),
    "norm_of_zero": (lambda lib, a: lib.linalg.vector_norm(a), Arr([0.0, 0.0, 0.0])),
    "norm_inf_ties": (lambda lib, a: lib.linalg.vector_norm(a, ord=float("inf")), Arr([1.0, -3.0, 3.0])),
    # test_log_softmax with -inf entries (a masked row): finite gradient
    "log_softmax_masked": (
        lambda lib, a: F(lib).log_softmax(a, dim=-1).clamp(min=-1e30),
        Arr([[0.0, -np.inf, 1.0], [2.0, 1.0, -np.inf]]),
    ),
    "softmax_masked": (lambda lib, a: F(lib).softmax(a, dim=-1), Arr([[0.0, -np.inf, 1.0], [2.0, 1.0, -np.inf]])),
    # test_max_pool2d_ceil_mode / dilation
    "max_pool2d_ceil_mode": (lambda lib, x: F(lib).max_pool2d(x, 2, stride=2, ceil_mode=True), distinct(1, 1, 5, 5)),
    "max_pool2d_ceil_dilation_padding": (
        lambda lib, x: F(lib).max_pool2d(x, (2, 3), stride=(2, 3), padding=1, dilation=(2, 1), ceil_mode=True),
        distinct(2, 1, 6, 7),
    ),
    "max_pool2d_dilation": (lambda lib, x: F(lib).max_pool2d(x, 2, dilation=2), distinct(1, 1, 6, 5)),
    "avg_pool2d_ceil_mode": (lambda lib, x: F(lib).avg_pool2d(x, 2, stride=2, ceil_mode=True), arr(1, 1, 5, 5)),
    "avg_pool2d_no_pad_count": (
        lambda lib, x: F(lib).avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False),
        arr(1, 1, 5, 5),
    ),
    "max_pool1d_ceil_padding": (
        lambda lib, x: F(lib).max_pool1d(x, 3, stride=2, padding=1, ceil_mode=True),
        distinct(1, 2, 6),
    ),
    # test_conv_transpose2d with stride, padding, output_padding, groups
    "conv_transpose2d": (
        lambda lib, x, w: F(lib).conv_transpose2d(x, w, stride=2, padding=1, output_padding=1, groups=2),
        arr(1, 4, 3, 3),
        arr(4, 1, 3, 3, seed=1),
    ),
    "conv_transpose1d_dilation": (
        lambda lib, x, w: F(lib).conv_transpose1d(x, w, stride=3, dilation=2),
        arr(2, 2, 4),
        arr(2, 3, 2, seed=1),
    ),
    "conv2d_same": (
        lambda lib, x, w: F(lib).conv2d(x, w, padding="same", dilation=2),
        arr(1, 1, 5, 6),
        arr(2, 1, 2, 3, seed=1),
    ),
    # test_interpolate with non-integer scale
    "interpolate_nearest_downscale": (
        lambda lib, x: F(lib).interpolate(x, size=(3, 2), mode="nearest"),
        arr(1, 1, 7, 5),
    ),
    "interpolate_linear_scale": (lambda lib, x: F(lib).interpolate(x, scale_factor=1.5, mode="linear"), arr(1, 2, 4)),
    # test_pad_reflect on two dims; circular
    "pad_reflect_2d": (lambda lib, a: F(lib).pad(a, (2, 2, 1, 2), mode="reflect"), arr(1, 1, 3, 3)),
    "pad_circular": (lambda lib, a: F(lib).pad(a, (1, 2), mode="circular"), arr(1, 2, 3)),
    # test_setitem: repeated indices (the last write wins; gradient flows to the value once)
    "setitem_slice": (lambda lib, a, v: _set(a, (slice(None), slice(1, 3)), v), arr(3, 4), arr(3, 2, seed=1)),
    "setitem_broadcast": (lambda lib, a, v: _set(a, (1,), v), arr(3, 4), arr(4, seed=1)),
    # test_masked_select-like boolean mask indexing
    "bool_mask_index": (lambda lib, a, m: a[m], arr(3, 4), Arr(np.arange(12).reshape(3, 4) % 3 == 0, grad=False)),
    "negative_fancy_index": (lambda lib, a, i: a[i, -1], arr(4, 3), ints([-1, 0, -4])),
    # test_scatter_add / index_select with repeats
    "index_select_repeats": (lambda lib, a, i: lib.index_select(a, -1, i), arr(2, 5), ints([4, 0, 4])),
    "scatter_add_repeats": (
        lambda lib, a, i, s: lib.scatter_add(a, 1, i, s),
        arr(2, 4),
        ints([[0, 0, 3], [1, 1, 1]]),
        arr(2, 3, seed=1),
    ),
    # test_einsum: trace and diagonal
    "einsum_trace": (lambda lib, a: lib.einsum("ii->", a), arr(3, 3)),
    "einsum_diag_batch": (lambda lib, a, b: lib.einsum("bii,bj->bij", a, b), arr(2, 3, 3), arr(2, 4, seed=1)),
    # test_std / var of one element: nan like torch
    "std_keepdim_neg": (lambda lib, a: a.std(dim=-1, keepdim=True), arr(3, 4)),
    # test_sum / mean of an empty dim
    "sum_empty": (lambda lib, a: a.sum(dim=0), arr(0, 3)),
    "matmul_empty_inner": (lambda lib, a, b: a @ b, arr(3, 0), arr(0, 2, seed=1)),
    # test_clamp with min > max (torch: every value becomes max)
    "clamp_min_above_max": (lambda lib, a: lib.clamp(a, 1.0, -1.0), arr(4)),
    "clamp_tensor_bounds": (
        lambda lib, a, lo, hi: lib.clamp(a, lo, hi),
        arr(3, 4),
        arr(4, low=-2, high=0, seed=1),
        arr(3, 1, low=0, high=2, seed=2),
    ),
    # test_lerp with a tensor weight, test_atan2, test_logaddexp with -inf
    "lerp_tensor_weight": (lambda lib, a, b, w: lib.lerp(a, b, w), arr(3), arr(3, seed=1), arr(3, seed=2)),
    "logaddexp_inf": (lambda lib, a, b: lib.logaddexp(a, b), Arr([-np.inf, 1.0, 700.0]), Arr([0.0, -np.inf, 700.0])),
    "repeat_interleave_tensor": (lambda lib, a, r: lib.repeat_interleave(a, r, dim=0), arr(3, 2), ints([2, 0, 1])),
    "cross_dim": (lambda lib, a, b: lib.cross(a, b, dim=0), arr(3, 2), arr(3, 2, seed=1)),
    "diag_offset": (lambda lib, a: lib.diag(a, -1), arr(3, 4)),
    "max_dim_all_equal": (lambda lib, a: a.max(dim=1).values, Arr([[2.0, 2.0, 2.0], [1.0, 3.0, 3.0]])),
    "argmax_ties": (lambda lib, a: a.argmax(dim=1), Arr([[2.0, 2.0, 2.0], [1.0, 3.0, 3.0]], grad=False)),
    # test_slice_* / test_index: more basic-index forms
    "index_0d_none": (lambda lib, a: a[None, ..., None], arr()),
    "index_int_ellipsis_int": (lambda lib, a: a[1, ..., -2], arr(3, 2, 4)),
    "index_arrays_split_by_slice": (lambda lib, a, i, j: a[i, :, j], arr(3, 4, 5), ints([[0, 2]]), ints([1, 4])),
    "index_0d_int_tensor": (lambda lib, a, i: a[i], arr(4, 2), ints(2)),
    "index_negative_slice_bounds": (lambda lib, a: a[-100:100, -2:], arr(3, 4)),
    # test_matmul: a vector against a batch
    "matmul_1d_3d": (lambda lib, a, b: a @ b, arr(4), arr(2, 4, 3, seed=1)),
    "matmul_size1_batch": (lambda lib, a, b: a @ b, arr(1, 2, 3), arr(5, 1, 3, 2, seed=1)),
    # test_add with dtype promotion: a 0-d float64 tensor does not promote a float32 one
    "promote_0d": (lambda lib, a, b: a.float() + b, arr(3), arr()),
    "promote_dims": (lambda lib, a, b: a.float() * b, arr(3), arr(1)),
    "int_times_float_scalar": (lambda lib, a: a * 2.5, ints([1, -2, 3])),
    "int_true_divide": (lambda lib, a, b: a / b, ints([7, -7, 3]), ints([2, 2, -4])),
    "int_pow_int": (lambda lib, a: a**2, ints([3, -2, 0])),
    "int_pow_float": (lambda lib, a: a**0.5, ints([4, 9, 2])),
    "bool_add": (
        lambda lib, a, b: a + b,
        Arr(np.array([True, False, True]), grad=False),
        Arr(np.array([True, False, False]), grad=False),
    ),
    "maximum_mixed_float": (lambda lib, a, b: lib.maximum(a.float(), b), arr(3), arr(3, seed=1)),
    "where_scalar_branch": (
        lambda lib, c, a: lib.where(c, a, 0.0),
        Arr(np.array([True, False, True]), grad=False),
        arr(3),
    ),
    "where_float32_and_scalar": (
        lambda lib, c, a: lib.where(c, a.float(), 2.0),
        Arr(np.array([True, False]), grad=False),
        arr(2),
    ),
    # test_floor / test_round: zero gradient, round half to even
    "round_half_even": (lambda lib, a: lib.round(a), Arr([0.5, 1.5, 2.5, -0.5, -1.5])),
    "sign_floor_ceil": (lambda lib, a: lib.sign(a) + lib.floor(a) + lib.ceil(a), Arr([-1.5, 0.0, 0.3, 2.0])),
    # test_shape ops: odd corners
    "flatten_0d": (lambda lib, a: a.flatten(), arr()),
    "squeeze_not_one": (lambda lib, a: a.squeeze(0), arr(2, 1)),
    "expand_minus_one": (lambda lib, a: a.expand(2, -1, 3), arr(4, 1)),
    "repeat_more_dims": (lambda lib, a: a.repeat(2, 1, 3), arr(2, 2)),
    "tile_fewer_dims": (lambda lib, a: lib.tile(a, (2,)), arr(2, 3)),
    "narrow_negative": (lambda lib, a: lib.narrow(a, -1, -3, 2), arr(2, 4)),
    "split_sizes": (lambda lib, a: lib.split(a, [1, 3], dim=-1), arr(2, 4)),
    "chunk_uneven": (lambda lib, a: lib.chunk(a, 3, dim=0), arr(5, 2)),
    "stack_0d": (lambda lib, a, b: lib.stack([a, b]), arr(), arr(seed=1)),
    "transpose_1d": (lambda lib, a: a.t(), arr(3)),
    "movedim_several": (lambda lib, a: lib.movedim(a, (0, 1), (-1, 0)), arr(2, 3, 4)),
    "unflatten_neg": (lambda lib, a: a.unflatten(-1, (2, -1)), arr(3, 6)),
    # test_reduce: more reductions with odd dims
    "max_size1_dim": (lambda lib, a: a.max(dim=1).values, arr(3, 1)),
    "amax_two_dims_ties": (
        lambda lib, a: lib.amax(a, dim=(0, -1), keepdim=True),
        Arr([[[1.0, 4.0], [2.0, 0.0]], [[4.0, 3.0], [4.0, 1.0]]]),
    ),
    "vector_norm_ord3": (lambda lib, a: lib.linalg.vector_norm(a, ord=3, dim=-1, keepdim=True), arr(2, 3)),
    "norm_ord0": (lambda lib, a: lib.linalg.vector_norm(a, ord=0), Arr([0.0, 1.5, -2.0])),
    "prod_empty_keepdim": (lambda lib, a: a.prod(dim=0, keepdim=True), arr(0, 3)),
    "cumsum_empty": (lambda lib, a: lib.cumsum(a, dim=0), arr(0, 2)),
    "logsumexp_all_neg_inf": (lambda lib, a: lib.logsumexp(a, dim=-1), Arr([[-np.inf, -np.inf], [0.0, -np.inf]])),
    "softmax_0d": (lambda lib, a: F(lib).softmax(a, dim=0), arr()),
    "var_correction2": (lambda lib, a: a.var(dim=0, correction=2), arr(4, 2)),
    "mean_multi_neg": (lambda lib, a: a.mean(dim=(-1, -3)), arr(2, 3, 4)),
    # test_avgpool2d with divisor_override; test_pad reflect with the largest pad
    "avg_pool2d_divisor": (lambda lib, x: F(lib).avg_pool2d(x, 2, divisor_override=3), arr(1, 1, 4, 4)),
    "pad_reflect_max": (lambda lib, a: F(lib).pad(a, (3, 3), mode="reflect"), arr(1, 1, 4)),
    "interpolate_nearest_scale_half": (
        lambda lib, x: F(lib).interpolate(x, scale_factor=0.5, mode="nearest"),
        arr(1, 1, 6, 5),
    ),
    "interpolate_bilinear_scale": (
        lambda lib, x: F(lib).interpolate(x, scale_factor=(1.5, 0.75), mode="bilinear"),
        arr(1, 1, 4, 4),
    ),
    "interpolate_trilinear": (
        lambda lib, x: F(lib).interpolate(x, size=(2, 3, 5), mode="trilinear"),
        arr(1, 1, 3, 2, 3),
    ),
    "interpolate_nearest_1d": (lambda lib, x: F(lib).interpolate(x, size=7, mode="nearest"), arr(1, 2, 3)),
    # test_gather / test_scatter with negative dims
    "gather_neg_dim": (lambda lib, a, i: lib.gather(a, -1, i), arr(2, 3, 4), ints(np.array([[[3], [0], [1]]] * 2))),
    "masked_fill_then_softmax": (
        lambda lib, a, m: F(lib).softmax(a.masked_fill(m, float("-inf")), dim=-1),
        arr(2, 4),
        Arr(np.array([[False, True, False, True], [True, False, False, False]]), grad=False),
    ),
    # test_cross_entropy / test_nll_loss with their keyword arguments
    "cross_entropy_smoothing": (
        lambda lib, x, y: F(lib).cross_entropy(x, y, label_smoothing=0.2),
        arr(4, 5),
        ints([0, 4, 2, 2]),
    ),
    "cross_entropy_ignore_none": (
        lambda lib, x, y: F(lib).cross_entropy(x, y, ignore_index=2, reduction="none"),
        arr(4, 5),
        ints([0, 4, 2, 1]),
    ),
    "cross_entropy_probabilities": (
        lambda lib, x, t: F(lib).cross_entropy(x, t),
        arr(3, 4),
        Arr(np.array([[0.1, 0.2, 0.3, 0.4], [1.0, 0.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25]]), grad=False),
    ),
    "cross_entropy_nd": (
        lambda lib, x, y: F(lib).cross_entropy(x, y),
        arr(2, 3, 4),
        ints([[0, 2, 1, 1], [2, 2, 0, 1]]),
    ),
    "nll_loss_weight": (
        lambda lib, x, y, w: F(lib).nll_loss(x, y, weight=w),
        arr(4, 3),
        ints([0, 2, 2, 1]),
        Arr(np.array([0.2, 1.0, 3.0]), grad=False),
    ),
    "bce_logits_pos_weight": (
        lambda lib, x, y, w: F(lib).binary_cross_entropy_with_logits(x, y, pos_weight=w),
        arr(3, 2, low=-30, high=30),
        Arr(np.array([[1.0, 0.0], [0.5, 1.0], [0.0, 0.0]]), grad=False),
        Arr(np.array([2.0, 0.5]), grad=False),
    ),
    "mse_sum": (lambda lib, a, b: F(lib).mse_loss(a, b, reduction="sum"), arr(3, 2), arr(3, 2, seed=1)),
    # test_layernorm / test_groupnorm / test_batchnorm (training statistics)
    "layer_norm_affine": (
        lambda lib, x, w, b: F(lib).layer_norm(x, (3, 4), w, b, eps=1e-3),
        arr(2, 3, 4),
        arr(3, 4, seed=1),
        arr(3, 4, seed=2),
    ),
    "group_norm": (lambda lib, x, w, b: F(lib).group_norm(x, 2, w, b), arr(2, 4, 3), arr(4, seed=1), arr(4, seed=2)),
    "batch_norm_training": (
        lambda lib, x, w, b: F(lib).batch_norm(x, None, None, w, b, training=True),
        arr(5, 3, 2),
        arr(3, seed=1),
        arr(3, seed=2),
    ),
    # test_scaled_dot_product_attention with a boolean mask, causal
    "sdpa_mask": (
        lambda lib, q, k, v, m: F(lib).scaled_dot_product_attention(q, k, v, attn_mask=m),
        arr(2, 3, 4),
        arr(2, 5, 4, seed=1),
        arr(2, 5, 2, seed=2),
        Arr(np.arange(15).reshape(3, 5) % 4 != 1, grad=False),
    ),
    "sdpa_causal_scale": (
        lambda lib, q, k, v: F(lib).scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3),
        arr(1, 2, 4, 3),
        arr(1, 2, 4, 3, seed=1),
        arr(1, 2, 4, 3, seed=2),
    ),
    # test_gelu (tanh approximation), test_elu / test_leaky_relu parameters, test_hardswish, test_mish
    "gelu_tanh": (lambda lib, a: F(lib).gelu(a, approximate="tanh"), arr(6, low=-4, high=4)),
    "elu_alpha": (lambda lib, a: F(lib).elu(a, alpha=0.7), arr(6, low=-3, high=3)),
    "leaky_relu_slope": (lambda lib, a: F(lib).leaky_relu(a, 0.3), arr(6)),
    "hardswish": (lambda lib, a: F(lib).hardswish(a), arr(6, low=-5, high=5)),
    "mish_large": (lambda lib, a: F(lib).mish(a), Arr([-50.0, -1.0, 0.5, 30.0])),
    "logsigmoid_extreme": (lambda lib, a: F(lib).logsigmoid(a), Arr([-800.0, -1.0, 2.0, 800.0])),
    "softplus_beta_threshold": (lambda lib, a: F(lib).softplus(a, beta=2.0, threshold=5.0), arr(6, low=-4, high=4)),
    "embedding_repeats": (lambda lib, i, w: F(lib).embedding(i, w), ints([[0, 2], [2, 2]]), arr(4, 3)),
}


def _set(a, index, value):
    out = a * 1.0
    out[index] = value
    return out


# Inputs placed on a kink (ties, a clamp bound, relu at 0): finite differences have no answer there,
# so these compare with torch's subgradient choice only.
AT_KINK = {
    "round_half_even",
    "sign_floor_ceil",
    "amax_two_dims_ties",
    "norm_ord0",
    "logsumexp_all_neg_inf",
    "maximum_ties",
    "minimum_ties",
    "amax_ties",
    "amin_full_ties",
    "max_full_ties",
    "clamp_boundary",
    "clamp_min_only",
    "relu_at_zero",
    "abs_at_zero",
    "norm_of_zero",
    "norm_inf_ties",
    "pow_zero_base_tensor_exp",
    "pow_zero_scalar_base",
    "max_dim_all_equal",
    "cumprod_two_zeros",
    "prod_two_zeros",
    "logaddexp_inf",
    "log_softmax_masked",
    "softmax_masked",
    "clamp_min_above_max",
}


# Cases with a float32 result: compared at float32's precision, not gradchecked.
FLOAT32 = {
    "promote_0d",
    "promote_dims",
    "int_times_float_scalar",
    "int_true_divide",
    "int_pow_float",
    "where_float32_and_scalar",
    "maximum_mixed_float",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    fn, *args = CASES[name]
    check(fn, *args, gradcheck_=name not in AT_KINK and name not in FLOAT32, rtol=1e-6 if name in FLOAT32 else 1e-7)
