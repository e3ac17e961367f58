"""Each batching rule against the loop it replaces: ``vmap(f)(x) == stack([f(x[i]) for i ...])``.

Hypothesis draws the batch size and where each argument carries its batch dim (or None: not
batched); every case must run by its rule (the loop's warning is an error here).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import func


def _loop(f, args, dims):
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    outs = [f(*[a if d is None else a.select(d, b) for a, d in zip(args, dims)]) for b in range(size)]
    if isinstance(outs[0], (tuple, list)):
        return tuple(mg.stack([o[k] for o in outs]) for k in range(len(outs[0])))
    return mg.stack(outs)


def _inputs(shapes, size: int, dims, seed: int, kinds):
    rng = np.random.default_rng(seed)
    args = []
    for shape, d, kind in zip(shapes, dims, kinds):
        full = shape if d is None else (size,) + tuple(shape)
        if kind == "int":
            a = rng.integers(0, 3, size=full)
        elif kind == "bool":
            a = rng.random(full) > 0.5
        else:
            a = rng.standard_normal(full)
        if d is not None:
            a = np.moveaxis(a, 0, d % (len(shape) + 1))
        args.append(mg.tensor(np.array(a)))
    return args


def _check(f, shapes, data, kinds=None, may_unbatch=True):
    kinds = kinds or ["float"] * len(shapes)
    size = data.draw(st.integers(1, 3), label="batch")
    dims = []
    for i, shape in enumerate(shapes):
        choices = list(range(-len(shape) - 1, len(shape) + 1))
        if may_unbatch and i > 0:
            choices.append(None)
        dims.append(data.draw(st.sampled_from(choices), label=f"in_dim {i}"))
    args = _inputs(shapes, size, dims, data.draw(st.integers(0, 99), label="seed"), kinds)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        got = func.vmap(f, in_dims=tuple(dims))(*args)
    want = _loop(f, args, dims)
    for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        assert g.shape == w.shape
        np.testing.assert_allclose(g.array, w.array, rtol=1e-12, atol=1e-12)


UNARY = {
    "exp": lambda x: x.exp(),
    "tanh": mg.tanh,
    "sigmoid": lambda x: x.sigmoid(),
    "relu": F.relu,
    "gelu": F.gelu,
    "softplus": F.softplus,
    "leaky_relu": lambda x: F.leaky_relu(x, 0.1),
    "neg_abs": lambda x: -abs(x),
    "log_sqrt": lambda x: (x.abs() + 1).log() + (x * x).sqrt(),
    "sin_cos": lambda x: x.sin() * mg.cos(x),
    "clamp": lambda x: x.clamp(-0.5, 0.5),
    "pow_scalar": lambda x: x**2 + 2**x - 1 / (x.abs() + 1),
    "to_float32": lambda x: x.float().double(),
    "casts": lambda x: (x.abs() * 3).byte().char().short().double(),
    "polygamma_method": lambda x: (x.abs() + 1).polygamma(1),
    "clone_contiguous": lambda x: x.clone().contiguous(),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_elementwise_unary(name, data):
    _check(UNARY[name], [(2, 3)], data)


BINARY = {
    "add": (lambda a, b: a + b, [(2, 3), (3,)]),
    "sub_reflected": (lambda a, b: b - a, [(3,), (2, 3)]),
    "mul_div": (lambda a, b: a * b / (b.abs() + 1), [(2, 1, 3), (4, 3)]),
    "pow": (lambda a, b: a.abs() ** b, [(2, 3), (2, 3)]),
    "maximum": (mg.maximum, [(2, 3), (3,)]),
    "compare": (lambda a, b: (a < b).double() + (a >= b).double() * 2, [(3,), (2, 3)]),
    "where": (lambda a, b: mg.where(a > 0, a, b), [(2, 3), (3,)]),
    "where_method": (lambda a, b: a.where(a > 0, b), [(2, 3), (3,)]),
    "atan2": (mg.atan2, [(2, 3), (2, 3)]),
    "scalar_tensor": (lambda a, b: a * b.sum(), [(2, 3), (4,)]),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_elementwise_broadcasting(name, data):
    f, shapes = BINARY[name]
    _check(f, shapes, data)


REDUCTIONS = {
    "sum": lambda x: x.sum(),
    "sum_dim": lambda x: x.sum(0),
    "sum_keepdim": lambda x: x.sum(-1, keepdim=True),
    "sum_dims": lambda x: mg.sum(x, dim=(0, 2)),
    "mean": lambda x: x.mean(1),
    "var_std": lambda x: x.var(0) + x.std(dim=-1, keepdim=True).sum(),
    "prod": lambda x: x.prod(1),
    "amax": lambda x: x.amax(dim=(1, 2)),
    "max_all": lambda x: x.max(),
    "max_dim": lambda x: x.max(1),
    "min_dim": lambda x: mg.min(x, dim=-1, keepdim=True),
    "argmax": lambda x: x.argmax(2),
    "argmax_all": lambda x: x.argmin(),
    "logsumexp": lambda x: x.logsumexp(0),
    "norm": lambda x: x.norm() + x.norm(dim=1).sum(),
    "softmax": lambda x: x.softmax(-1),
    "log_softmax": lambda x: F.log_softmax(x, dim=0),
    "cumsum": lambda x: x.cumsum(1),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_reductions(name, data):
    _check(REDUCTIONS[name], [(2, 3, 4)], data)


def test_reductions_of_a_0d_entry():
    x = mg.tensor([1.0, -2.0, 3.0])
    for f in (lambda e: e.sum(), lambda e: e.mean(0), lambda e: e.softmax(0), lambda e: e.max()):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = func.vmap(f)(x)
        np.testing.assert_allclose(got.array, _loop(f, [x], [0]).array)


MATMUL_SHAPES = [
    [(3,), (3,)],
    [(3,), (3, 4)],
    [(2, 3), (3,)],
    [(2, 3), (3, 4)],
    [(5, 2, 3), (3, 4)],
    [(3,), (5, 3, 4)],
    [(5, 2, 3), (1, 3, 4)],
]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_matmul(shapes, data):
    _check(lambda a, b: a @ b, shapes, data)


@pytest.mark.parametrize(
    "f, shapes",
    [
        (mg.mm, [(2, 3), (3, 4)]),
        (mg.bmm, [(5, 2, 3), (5, 3, 4)]),
        (mg.mv, [(2, 3), (3,)]),
        (mg.dot, [(3,), (3,)]),
        (mg.outer, [(3,), (4,)]),
        (lambda x, w: F.linear(x, w), [(2, 3), (4, 3)]),
        (lambda x, w, b: F.linear(x, w, b), [(3,), (4, 3), (4,)]),
        (lambda a, b: b @ a, [(3, 4), (2, 3)]),
    ],
    ids=["mm", "bmm", "mv", "dot", "outer", "linear", "linear_bias", "rmatmul"],
)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_linear_algebra(f, shapes, data):
    _check(f, shapes, data)


SHAPE_OPS = {
    "reshape": lambda x: x.reshape(-1),
    "view": lambda x: x.contiguous().view(3, -1),
    "flatten": lambda x: x.flatten(1),
    "unflatten": lambda x: x.unflatten(2, (2, 2)),
    "unsqueeze": lambda x: x.unsqueeze(0).unsqueeze(-1),
    "squeeze": lambda x: x[:, :1].squeeze() + x[:, :1].squeeze(1).sum(),
    "permute": lambda x: x.permute(2, 0, 1),
    "transpose": lambda x: x.transpose(0, -1),
    "T_mT": lambda x: x.mT.sum() + x.T,
    "movedim": lambda x: x.movedim(0, 2),
    "expand": lambda x: x[:, :1].expand(2, 3, 3, 4),
    "expand_as": lambda x: x[:1].expand_as(x),
    "repeat": lambda x: x.repeat(2, 1, 1, 1),
    "tile": lambda x: x.tile((2,)),
    "narrow_select": lambda x: x.narrow(1, 1, 2).select(0, 1),
    "split": lambda x: x.split(1, dim=1),
    "chunk": lambda x: x.chunk(2, -1),
    "unbind": lambda x: x.unbind(2),
    "flip": lambda x: x.flip(0, 2),
    "roll": lambda x: x.roll(1, dims=1),
    "tril": lambda x: x.tril(),
    "pad": lambda x: F.pad(x, (1, 2)),
}


@pytest.mark.parametrize("name", sorted(SHAPE_OPS))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_shape_ops(name, data):
    _check(SHAPE_OPS[name], [(3, 3, 4)], data)


@pytest.mark.parametrize("joiner", [mg.cat, mg.stack])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_cat_and_stack_repeat_unbatched_parts(joiner, data):
    _check(lambda a, b: joiner([a, b, a], dim=-1), [(2, 3), (2, 3)], data)


INDEXING = {
    "int": (lambda x: x[1], [(3, 4)]),
    "slices": (lambda x: x[:, 1:3], [(3, 4)]),
    "ellipsis_none": (lambda x: x[..., None, 0], [(3, 4)]),
    "index_list": (lambda x: x[[0, 2, 2]], [(3, 4)]),
    "index_tensor": (lambda x: x[:, mg.tensor([3, 0])], [(3, 4)]),
    "gather": (lambda x, i: x.gather(1, i), [(3, 4), (3, 2)]),
    "take_along_dim": (lambda x, i: mg.take_along_dim(x, i, dim=0), [(3, 4), (2, 4)]),
    "index_select": (lambda x: x.index_select(1, mg.tensor([1, 1, 0])), [(3, 4)]),
    "batched_index": (lambda x, i: x[i], [(3, 4), (2, 2)]),
    "batched_index_after_a_slice": (lambda x, i: x[:, i, 1:], [(3, 3, 4), (2,)]),
    "batched_indices_with_a_list": (lambda x, i: x[..., [0, 2], i[0]], [(2, 3, 4), (2, 2)]),
    "masked_fill": (lambda x: x.masked_fill(x > 0, 0.0), [(3, 4)]),
}


@pytest.mark.parametrize("name", sorted(INDEXING))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_indexing(name, data):
    f, shapes = INDEXING[name]
    _check(f, shapes, data, kinds=["float", "int"])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(4,), (2, 4)], ids=["one_row", "rows"])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_losses(reduction, shape, data):
    target_shape = shape[:-1]
    _check(
        lambda x, t: F.cross_entropy(x, t, reduction=reduction, ignore_index=2), [shape, target_shape], data,
        kinds=["float", "int"],
    )  # fmt: skip
    _check(lambda x, y: F.mse_loss(x, y, reduction=reduction), [shape, shape], data)


def test_in_place_ops_change_the_batched_value():
    def f(x, y):
        z = x * 1.0
        z.add_(y)
        z.mul_(2.0)
        z[0] = 5.0
        z[1:] += 1.0
        return z

    x, y = mg.tensor(np.arange(6.0).reshape(2, 3)), mg.tensor([1.0, 2.0, 3.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = func.vmap(f, in_dims=(0, None))(x, y)
    np.testing.assert_allclose(got.array, _loop(f, [x, y], [0, None]).array)


def test_in_place_into_a_tensor_not_batched_at_that_level_is_refused():
    inner = func.vmap(lambda x, y: y.add_(x), in_dims=(0, None))
    with pytest.raises(RuntimeError, match=r"^vmap: add_\(self, \*extra_args\) is not possible"):
        func.vmap(lambda y: inner(mg.ones(2, 3), y))(mg.zeros(4, 3))


@pytest.mark.parametrize(
    "f, shapes, kinds",
    [
        (lambda x: F.layer_norm(x, (4,)), [(3, 4)], ["float"]),
        (lambda i: F.embedding(i, mg.tensor(np.arange(10.0).reshape(5, 2))), [(3,)], ["int"]),
    ],
    ids=["layer_norm", "embedding"],
)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_layers_on_the_trailing_dims(f, shapes, kinds, data):
    _check(f, shapes, data, kinds=kinds)


EINSUM = {
    "matmul": ("ij,jk->ik", [(2, 3), (3, 4)]),
    "implicit": ("ij,jk", [(2, 3), (3, 4)]),
    "ellipsis": ("...ij,jk->...ik", [(2, 2, 3), (3, 4)]),
    "three_operands": ("i,ij,j->", [(2,), (2, 3), (3,)]),
    "transpose_sum": ("ijk->ki", [(2, 3, 4)]),
}


@pytest.mark.parametrize("name", sorted(EINSUM))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_einsum(name, data):
    equation, shapes = EINSUM[name]
    _check(lambda *ops: mg.einsum(equation, *ops), shapes, data)


def _conv2d_groups(x, w, b):
    return F.conv2d(x, w, b, padding=1, groups=2)


CONVOLUTIONS = {
    "conv2d": (lambda x, w, b: F.conv2d(x, w, b, stride=2), [(2, 2, 5, 5), (3, 2, 3, 3), (3,)]),
    "conv2d_groups": (_conv2d_groups, [(1, 4, 4, 4), (4, 2, 3, 3), (4,)]),
    "conv1d": (lambda x, w, b: F.conv1d(x, w, b, padding="same"), [(2, 2, 6), (3, 2, 3), (3,)]),
    "conv1d_unbatched_entry": (lambda x, w: F.conv1d(x, w, dilation=2), [(2, 7), (3, 2, 2)]),
    "conv_transpose2d": (lambda x, w: F.conv_transpose2d(x, w, stride=2), [(2, 2, 3, 3), (2, 3, 2, 2)]),
    "conv_transpose1d": (lambda x, w, b: F.conv_transpose1d(x, w, b, groups=2), [(4, 5), (4, 1, 3), (2,)]),
}


@pytest.mark.parametrize("name", sorted(CONVOLUTIONS))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_convolutions(name, data):
    f, shapes = CONVOLUTIONS[name]
    _check(f, shapes, data)


POOLS = {
    "max_pool2d": (lambda x: F.max_pool2d(x, 2, padding=1), (2, 2, 5, 5)),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 3, stride=2, ceil_mode=True), (2, 6, 6)),
    "max_pool1d": (lambda x: F.max_pool1d(x, 2), (2, 3, 6)),
    "avg_pool1d": (lambda x: F.avg_pool1d(x, 3, 1, 1), (3, 6)),
    "max_pool2d_indices_unbatched": (lambda x: F.max_pool2d(x, 2, return_indices=True), (2, 4, 5)),
    "max_unpool2d": (
        lambda x: F.max_unpool2d(*F.max_pool2d(x, 2, return_indices=True), 2, output_size=(5, 5)),
        (2, 2, 5, 5),
    ),
    "max_unpool1d": (lambda x: F.max_unpool1d(*F.max_pool1d(x, 3, return_indices=True), 3, output_size=[7]), (2, 7)),
}


@pytest.mark.parametrize("name", sorted(POOLS))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_pools(name, data):
    f, shape = POOLS[name]
    _check(f, [shape], data)


CLASS_WEIGHTS = mg.tensor([0.5, 2.0, 1.0])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(3,), (4, 3), (2, 3, 2, 2)], ids=["one_row", "rows", "spatial"])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_class_losses_with_weights_and_smoothing(reduction, shape, data):
    targets = [shape, shape[:1] + shape[2:] if len(shape) > 1 else ()]
    kinds = ["float", "int"]
    _check(lambda x, t: F.nll_loss(x, t, CLASS_WEIGHTS, ignore_index=1, reduction=reduction), targets, data, kinds)
    _check(
        lambda x, t: F.cross_entropy(x, t, CLASS_WEIGHTS, reduction=reduction, label_smoothing=0.2), targets, data,
        kinds,
    )  # fmt: skip
    _check(lambda x, p: F.cross_entropy(x, p.softmax(min(p.dim() - 1, 1)), reduction=reduction), [shape, shape], data)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_binary_cross_entropy(reduction, data):
    shapes = [(2, 3), (2, 3), (3,)]
    _check(lambda x, t, w: F.binary_cross_entropy(x.sigmoid(), t.sigmoid(), w, reduction=reduction), shapes, data)
    _check(
        lambda x, t, w: F.binary_cross_entropy_with_logits(x, t.sigmoid(), pos_weight=w.abs(), reduction=reduction),
        shapes, data,
    )  # fmt: skip


DIAGONALS = {
    "diag_of_a_matrix": (lambda x: mg.diag(x), (3, 4)),
    "diag_above": (lambda x: x.diag(1), (4, 3)),
    "diag_matrix": (lambda x: x[0].diag(), (3, 4)),
    "diag_matrix_below": (lambda x: x[1].diag(-2), (3, 4)),
    "trace": (lambda x: x.trace(), (3, 4)),
}


@pytest.mark.parametrize("name", sorted(DIAGONALS))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_diag_and_trace(name, data):
    f, shape = DIAGONALS[name]
    _check(f, [shape], data)


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_batched_index_tensors(data):
    _check(lambda x, i: x.index_select(1, i), [(3, 4), (2,)], data, kinds=["float", "int"])
    _check(lambda x, i: x.index_select(-1, i[0]), [(2, 4), (2,)], data, kinds=["float", "int"])
    _check(lambda x, i: x.gather(0, i), [(3, 4), (2, 4)], data, kinds=["float", "int"])
    _check(lambda i, x: x[i] + x[:, i].sum(), [(2,), (4, 3)], data, kinds=["int", "float"])  # x may be plain
    _check(lambda x, i, s: x.scatter(1, i, s), [(3, 4), (3, 2), (3, 2)], data, kinds=["float", "int", "float"])
    _check(lambda x, i, s: mg.scatter_add(x, 0, i, s), [(3, 4), (2, 4), (2, 4)], data, kinds=["float", "int", "float"])
    _check(lambda x, i: mg.take(x, i - 1), [(3, 4), (2, 2)], data, kinds=["float", "int"])
    _check(lambda x: x.repeat_interleave(2) + x.repeat_interleave(mg.tensor([1, 2]), dim=0).sum(), [(2, 3)], data)


LAYERS = {
    "group_norm": (lambda x: F.group_norm(x, 2, mg.tensor([1.0, 2.0, 0.5, -1.0]), mg.tensor([0.0, 1.0, 2.0, 3.0])),
                   [(2, 4, 3)], ["float"]),
    "interpolate": (lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"), [(1, 2, 3, 3)], ["float"]),
    "interpolate_nearest": (lambda x: F.interpolate(x, size=5), [(2, 2, 3)], ["float"]),
    "one_hot": (lambda i: F.one_hot(i, 4), [(2, 3)], ["int"]),
    "cross": (mg.cross, [(2, 3), (2, 3)], ["float"] * 2),
    "cross_dim": (lambda a, b: mg.cross(a, b, dim=0) + a.cross(b, dim=-2), [(3, 4), (3, 4)], ["float"] * 2),
    "batch_norm_train": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), [(4, 3, 2), (3,), (3,)],
                         ["float"] * 3),
    "batch_norm_eval": (lambda x, m, v: F.batch_norm(x, m, v.abs() + 0.5, m.exp(), v), [(4, 3), (3,), (3,)],
                        ["float"] * 3),
    "attention": (F.scaled_dot_product_attention, [(2, 3, 4), (2, 5, 4), (2, 5, 3)], ["float"] * 3),
    "attention_causal": (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3),
                         [(3, 4), (3, 4), (3, 2)], ["float"] * 3),
    "attention_mask": (lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m),
                       [(2, 3, 4), (3, 4), (3, 2), (3, 3)], ["float"] * 4),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(LAYERS))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_layers_on_samples(name, data):
    f, shapes, kinds = LAYERS[name]
    _check(f, shapes, data, kinds=kinds)


def test_batch_norm_updates_each_entrys_running_statistics():
    rng = np.random.default_rng(2)
    xs = mg.tensor(rng.standard_normal((3, 5, 2, 4)))
    means, variances = mg.tensor(rng.standard_normal((3, 2))), mg.tensor(rng.random((3, 2)) + 0.5)
    loop_means, loop_variances = means.clone(), variances.clone()
    out = func.vmap(lambda x, m, v: F.batch_norm(x, m, v, training=True, momentum=0.3))(xs, means, variances)
    for i in range(3):
        want = F.batch_norm(xs[i], loop_means[i], loop_variances[i], training=True, momentum=0.3)
        np.testing.assert_allclose(out.array[i], want.array, rtol=1e-12)
    np.testing.assert_allclose(means.array, loop_means.array, rtol=1e-12)
    np.testing.assert_allclose(variances.array, loop_variances.array, rtol=1e-12)
    one_mean, one_var = mg.zeros(2, dtype=mg.float64), mg.ones(2, dtype=mg.float64)
    func.vmap(lambda w: F.batch_norm(xs[0], one_mean, one_var, w, training=True))(mg.ones(3, 2, dtype=mg.float64))
    np.testing.assert_allclose(one_mean.array, 0.1 * xs.array[0].mean(axis=(0, 2)), rtol=1e-12)  # updated once


def test_batch_norm_in_nested_vmap_matches_torch_func():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    x, means, variances = rng.standard_normal((2, 3, 5, 4)), rng.standard_normal((2, 3, 4)), rng.random((2, 3, 4))
    ours = [mg.tensor(a) for a in (x, means, variances)]
    theirs = [torch.tensor(a) for a in (x, means, variances)]

    def nested(lib_func, norm):
        return lib_func.vmap(lib_func.vmap(lambda x, m, v: norm(x, m, v, training=True, momentum=0.2)))

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        got = nested(func, F.batch_norm)(*ours)
    want = nested(torch.func, torch.nn.functional.batch_norm)(*theirs)
    for g, w in zip([got] + ours[1:], [want] + theirs[1:]):
        np.testing.assert_allclose(g.array, w.numpy(), rtol=1e-12)


def test_batch_norm_refuses_unbatched_running_statistics_of_a_batched_input():
    xs = mg.randn(3, 5, 2)
    module = mg.nn.BatchNorm1d(2)
    with pytest.raises(RuntimeError, match=r"^Batch norm got a batched tensor as input while the running_mean or"):
        func.vmap(module)(xs)
    module.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        assert func.vmap(module)(xs).shape == (3, 5, 2)
        assert func.vmap(mg.nn.BatchNorm1d(2, track_running_stats=False))(xs).shape == (3, 5, 2)


def test_one_hot_needs_num_classes_inside_vmap():
    message = r"^When vmap-ing torch\.nn\.functional\.one_hot, please provide an explicit positive num_classes"
    for num_classes in (-1, 0):
        with pytest.raises(RuntimeError, match=message):
            func.vmap(lambda i: F.one_hot(i, num_classes))(mg.tensor([[0, 1], [2, 1]]))  # noqa: B023


def test_per_example_gradients_through_batch_norm():
    rng = np.random.default_rng(3)
    w, xs = mg.tensor(rng.standard_normal(2)), mg.tensor(rng.standard_normal((4, 5, 2)))

    def loss(w, x):
        return (F.batch_norm(x, None, None, w, None, training=True) ** 3).sum()

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        per_example = func.vmap(func.grad(loss, argnums=(0, 1)), in_dims=(None, 0))(w, xs)
    for i in range(4):
        gw, gx = func.grad(loss, argnums=(0, 1))(w, xs[i])
        np.testing.assert_allclose(per_example[0].array[i], gw.array, rtol=1e-10)
        np.testing.assert_allclose(per_example[1].array[i], gx.array, rtol=1e-10)


def test_attention_dropout_follows_randomness():
    q = mg.ones(4, 3, 2)
    with pytest.raises(RuntimeError, match=r"^vmap: called random operation while in randomness error mode"):
        func.vmap(lambda q: F.scaled_dot_product_attention(q, q, q, dropout_p=0.5))(q)
    out = func.vmap(lambda q: F.scaled_dot_product_attention(q, q, q, dropout_p=0.5), randomness="different")(q)
    assert out.shape == (4, 3, 2)


# ---------------------------------------------------------------- random factories
RANDOM_FACTORIES = {
    "rand": lambda: mg.rand(2, 3),
    "randn": lambda: mg.randn((2, 3)),
    "randint": lambda: mg.randint(0, 1000, (2, 3)),
    "randint_high_size": lambda: mg.randint(1000, (2, 3)),
}


@pytest.mark.parametrize("name", sorted(RANDOM_FACTORIES))
def test_random_factories_follow_randomness(name):
    draw, x = RANDOM_FACTORIES[name], mg.zeros(4)
    with pytest.raises(RuntimeError, match=r"^vmap: called random operation while in randomness error mode\. Please"):
        func.vmap(lambda e: draw() + e)(x)
    mg.manual_seed(0)
    different = func.vmap(lambda e: draw() + e, randomness="different")(x)
    assert different.shape == (4, 2, 3) and not np.array_equal(different.array[0], different.array[1])
    same = func.vmap(lambda e: draw() + e, randomness="same")(x)
    assert same.shape == (4, 2, 3) and all(np.array_equal(same.array[0], same.array[b]) for b in range(4))
    alone = func.vmap(lambda e: draw(), randomness="different")(x)  # no batched input in sight
    assert alone.shape == (4, 2, 3) and not np.array_equal(alone.array[0], alone.array[3])


NESTED_DRAWS = {
    "rand": lambda e: mg.rand(()) + e,
    "rand_like": mg.rand_like,
    "randn_like": lambda e: mg.randn_like(e),
    "dropout": lambda e: F.dropout(mg.ones(64) + e, 0.5),  # 64 draws: two entries' masks never agree by chance
}


@pytest.mark.parametrize("name", sorted(NESTED_DRAWS))
def test_random_ops_in_nested_vmap_follow_each_level(name):
    x, draw = mg.zeros(2, 3), NESTED_DRAWS[name]

    def nested(outer: str, inner: str):
        out = func.vmap(func.vmap(draw, randomness=inner), randomness=outer)(x).array
        return out.reshape(2, 3, -1)

    both = nested("different", "different")
    assert len(np.unique(both.reshape(6, -1), axis=0)) == 6
    per_row = nested("different", "same")
    assert (per_row == per_row[:, :1]).all() and not np.array_equal(per_row[0, 0], per_row[1, 0])
    per_column = nested("same", "different")
    assert (per_column == per_column[:1]).all() and len(np.unique(per_column[0], axis=0)) == 3
    for outer, inner in (("error", "different"), ("different", "error")):
        with pytest.raises(RuntimeError, match=r"^vmap: called random operation while in randomness error mode"):
            nested(outer, inner)


def test_random_factories_outside_vmap_are_plain_tensors():
    assert type(mg.rand(2)) is mg.Tensor and mg.randint(5, (3,)).shape == (3,)


# ---------------------------------------------------------------- against torch.func.vmap
def _torch_case(name):
    torch = pytest.importorskip("torch")
    tF = torch.nn.functional
    return {
        "einsum": (lambda a, b: mg.einsum("ij,jk->ik", a, b), lambda a, b: torch.einsum("ij,jk->ik", a, b),
                   [(3, 2, 3), (3, 3, 4)], (0, 0)),
        "conv2d_batched_weight": (lambda x, w: F.conv2d(x, w, padding=1), lambda x, w: tF.conv2d(x, w, padding=1),
                                  [(2, 2, 4, 4), (3, 3, 2, 3, 3)], (None, 0)),
        "conv1d": (lambda x, w: F.conv1d(x, w), lambda x, w: tF.conv1d(x, w), [(3, 2, 2, 6), (4, 2, 3)], (0, None)),
        "max_pool2d": (lambda x: F.max_pool2d(x, 2), lambda x: tF.max_pool2d(x, 2), [(3, 1, 2, 4, 4)], (0,)),
        "avg_pool1d": (lambda x: F.avg_pool1d(x, 2), lambda x: tF.avg_pool1d(x, 2), [(3, 2, 6)], (0,)),
        "nll_loss": (lambda x, t: F.nll_loss(x, t, CLASS_WEIGHTS), None, [(3, 4, 3), (3, 4)], (0, 0)),
        "bce": (lambda x, t: F.binary_cross_entropy(x.sigmoid(), t.sigmoid()),
                lambda x, t: tF.binary_cross_entropy(x.sigmoid(), t.sigmoid()), [(3, 4), (3, 4)], (0, 0)),
        "diag": (lambda x: x.diag(1), lambda x: x.diag(1), [(3, 4)], (0,)),
        "trace": (lambda x: x.trace(), lambda x: x.trace(), [(3, 3, 4)], (0,)),
        "index_select": (lambda x, i: x.index_select(0, i), lambda x, i: x.index_select(0, i),
                         [(4, 3), (3, 2)], (None, 0)),
        "group_norm": (lambda x: F.group_norm(x, 2), lambda x: tF.group_norm(x, 2), [(3, 2, 4, 5)], (0,)),
        "interpolate": (lambda x: F.interpolate(x, size=4, mode="linear"),
                        lambda x: tF.interpolate(x, size=4, mode="linear"), [(3, 2, 2, 3)], (0,)),
        "attention": (F.scaled_dot_product_attention, tF.scaled_dot_product_attention,
                      [(3, 2, 4), (5, 4), (3, 5, 2)], (0, None, 0)),
        "cross": (mg.cross, lambda a, b: torch.cross(a, b, dim=-1), [(1, 3), (2, 4, 3)], (None, 1)),
        "batch_norm": (lambda x, m, v: F.batch_norm(x, m, v.abs(), training=True),
                       lambda x, m, v: tF.batch_norm(x, m, v.abs(), training=True), [(3, 4, 2), (3, 2), (3, 2)],
                       (0, 0, 0)),
        "batch_norm_eval": (lambda x, w: F.batch_norm(x, mg.zeros(2, dtype=mg.float64), mg.ones(2, dtype=mg.float64), w),
                            lambda x, w: tF.batch_norm(x, torch.zeros(2, dtype=torch.float64),
                                                       torch.ones(2, dtype=torch.float64), w),
                            [(3, 4, 2), (2, 3)], (0, 1)),
    }[name], torch  # fmt: skip


@pytest.mark.parametrize(
    "name",
    ["einsum", "conv2d_batched_weight", "conv1d", "max_pool2d", "avg_pool1d", "nll_loss", "bce", "diag", "trace",
     "index_select", "group_norm", "interpolate", "attention", "cross", "batch_norm", "batch_norm_eval"],
)  # fmt: skip
def test_rules_match_torch_func_vmap(name):
    (f, torch_f, shapes, dims), torch = _torch_case(name)
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) if k == 0 or name not in ("nll_loss", "index_select") else rng.integers(0, 3, s)
              for k, s in enumerate(shapes)]  # fmt: skip
    if torch_f is None:
        weights = torch.tensor(CLASS_WEIGHTS.array)
        torch_f = lambda x, t: torch.nn.functional.nll_loss(x, t, weights)  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        got = func.vmap(f, in_dims=dims)(*[mg.tensor(a) for a in arrays])
    want = torch.func.vmap(torch_f, in_dims=dims)(*[torch.from_numpy(a) for a in arrays])
    np.testing.assert_allclose(got.array, want.numpy(), rtol=1e-10, atol=1e-12)


def test_per_example_gradients_through_conv_pool_and_losses():
    rng = np.random.default_rng(1)
    w, b = mg.tensor(rng.standard_normal((3, 2, 3, 3))), mg.tensor(rng.standard_normal(3))
    xs, ts = mg.tensor(rng.standard_normal((4, 1, 2, 6, 6))), mg.tensor(rng.integers(0, 3, (4, 1)))

    def loss(w, b, x, t):
        h = F.max_pool2d(F.conv2d(x, w, b, padding=1).relu(), 2)
        return F.cross_entropy(mg.einsum("nchw->nc", h), t, CLASS_WEIGHTS, label_smoothing=0.1)

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        gw, gb = func.vmap(func.grad(loss, argnums=(0, 1)), in_dims=(None, None, 0, 0))(w, b, xs, ts)
    for i in range(4):
        want_w, want_b = func.grad(loss, argnums=(0, 1))(w, b, xs[i], ts[i])
        np.testing.assert_allclose(gw.array[i], want_w.array, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(gb.array[i], want_b.array, rtol=1e-10, atol=1e-12)
