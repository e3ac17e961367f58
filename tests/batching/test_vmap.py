"""vmap's API as torch.func's: in_dims/out_dims, nesting, chunks, randomness, the fallback's warning,
its errors; and the transforms inside it (per-example grad, jacrev, jvp). Some cases are ported from
PyTorch's test/functorch/test_vmap.py, rewritten here."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import func
from minigrad.batching import BatchedTensor

FALLBACK = r"^There is a performance drop because we have not yet implemented the batching rule for"


def _t(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def _rand(*shape, seed=0):
    return _t(np.random.default_rng(seed).standard_normal(shape))


# ---------------------------------------------------------------- API (ported from TestVmapAPI)
def test_single_input_and_multiple_outputs():
    x = _rand(2, 3)
    np.testing.assert_allclose(func.vmap(lambda x: x * x)(x).array, x.array**2)
    a, b = func.vmap(lambda x: (x * x, x + 1))(x)
    np.testing.assert_allclose(a.array, x.array**2)
    np.testing.assert_allclose(b.array, x.array + 1)


def test_function_sees_one_entry():
    seen = []

    def f(x):
        seen.append((type(x), x.shape, x.dim(), x.numel(), len(x)))
        return x

    func.vmap(f, in_dims=1)(_rand(3, 5, 4))
    assert seen == [(BatchedTensor, (3, 4), 2, 12, 3)]


def test_constant_function_is_expanded_over_the_batch():
    out = func.vmap(lambda x: _t([1.0, 2.0]))(_rand(3))
    np.testing.assert_allclose(out.array, [[1.0, 2.0]] * 3)


def test_nested_with_same_and_different_map_dims():
    x = _rand(2, 3, 5)
    out = func.vmap(func.vmap(lambda v: v.sum()))(x)
    np.testing.assert_allclose(out.array, x.array.sum(-1))
    out = func.vmap(func.vmap(lambda v: v.sum(), in_dims=1), in_dims=2)(x)
    np.testing.assert_allclose(out.array, x.array.transpose(2, 1, 0).sum(-1))


def test_noop_in_inner_vmap():
    x, y = _rand(3), _rand(5, seed=1)
    out = func.vmap(lambda x: func.vmap(lambda y: x)(y))(x)
    np.testing.assert_allclose(out.array, np.repeat(x.array[:, None], 5, axis=1))


def test_nested_in_dims_and_out_dims():
    x, y = _rand(2, 3), _rand(3, 2, seed=1)
    out = func.vmap(lambda pair: pair[0] * pair[1], in_dims=((0, 1),))((x, y))
    np.testing.assert_allclose(out.array, x.array * y.array.T)
    a, b = func.vmap(lambda x: (x, x.sum()), out_dims=(1, 0))(x)
    np.testing.assert_allclose(a.array, x.array.T)
    np.testing.assert_allclose(b.array, x.array.sum(1))
    kept = func.vmap(lambda x: (x * 2, mg.ones(2)), out_dims=(0, None))(x)[1]
    np.testing.assert_allclose(kept.array, [1.0, 1.0])
    out = func.vmap(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))({"a": x, "b": _t([1.0, 2.0, 3.0])})
    np.testing.assert_allclose(out.array, x.array + [1.0, 2.0, 3.0])


def test_keyword_arguments_are_not_batched():
    out = func.vmap(lambda x, scale=1.0: x * scale)(_rand(2, 3), scale=_t([1.0, 0.0, 2.0]))
    assert out.shape == (2, 3)
    assert out.array[:, 1].tolist() == [0.0, 0.0]


def test_chunk_size_gives_the_same_result():
    x = _rand(7, 3)
    whole = func.vmap(lambda x: (x.softmax(0), x.sum()))(x)
    for chunk in (1, 2, 3, 7, 100):
        parts = func.vmap(lambda x: (x.softmax(0), x.sum()), chunk_size=chunk)(x)
        for p, w in zip(parts, whole):
            np.testing.assert_allclose(p.array, w.array)


def test_errors_are_torchs():
    x = _rand(3)
    with pytest.raises(ValueError, match=r"Got in_dim=1 for some input, but that input is a Tensor of dimensionality"):
        func.vmap(lambda x: x * 2, in_dims=1)(x)
    with pytest.raises(ValueError, match=r"^vmap: Expected all tensors to have the same size in the mapped dimension, "
                       r"got sizes \[3, 2\] for the mapped dimension$"):  # fmt: skip
        func.vmap(lambda x, y: x * y)(x, _t([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"^vmap: Expected at least one Tensor to vmap over$"):
        func.vmap(lambda x: x, in_dims=(None,))(x)
    with pytest.raises(ValueError, match=r"got no inputs\. Maybe you forgot to add inputs"):
        func.vmap(lambda: _t(1.0))()
    for wrong in ("0", None, [0]):
        with pytest.raises(ValueError, match=r"expected `in_dims` to be int or a \(potentially nested\) tuple"):
            func.vmap(lambda x: x, in_dims=wrong)(x)
    with pytest.raises(ValueError, match=r"in_dims is not compatible with the structure of `inputs`"):
        func.vmap(lambda x, y: x, in_dims=(0, 0, 0))(x, x)
    with pytest.raises(ValueError, match=r"We cannot vmap over non-Tensor arguments"):
        func.vmap(lambda x, n: x * n)(x, 3)
    with pytest.raises(ValueError, match=r"must only return Tensors, got type <class 'float'>"):
        func.vmap(lambda x: 3.14)(x)
    with pytest.raises(ValueError, match=r"out_dims is not compatible with the structure of `outputs`"):
        func.vmap(lambda x: (x, x), out_dims=(0, 0, 0))(x)
    with pytest.raises(ValueError, match=r"can not return a BatchedTensor when out_dim is None"):
        func.vmap(lambda x: x, out_dims=None)(x)
    with pytest.raises(RuntimeError, match=r"^Only allowed values for randomness are 'error', 'different', or 'same'"):
        func.vmap(lambda x: x, randomness="sometimes")
    with pytest.raises(ValueError, match=r"^vmap: chunk_size should be None or greater than 0\. \(got 0\)$"):
        func.vmap(lambda x: x, chunk_size=0)


def test_data_dependent_python_is_refused():
    with pytest.raises(RuntimeError, match=r"^vmap: It looks like you're calling \.item\(\) on a Tensor"):
        func.vmap(lambda x: x.sum().item())(_rand(2, 3))
    with pytest.raises(RuntimeError, match=r"data-dependent control flow"):
        func.vmap(lambda x: x if x.sum() > 0 else -x)(_rand(2, 3))


# ---------------------------------------------------------------- the fallback
@pytest.fixture
def cross_without_rule(monkeypatch):
    """``cross`` as an op without a batching rule (as if declared ``LOOP``)."""
    from minigrad.batching.dispatch import RULES
    from minigrad.ops import matrix

    monkeypatch.setitem(RULES, matrix.cross, None)


def test_an_op_without_a_rule_loops_with_torchs_warning(cross_without_rule):
    x = _rand(4, 3)
    with pytest.warns(UserWarning, match=FALLBACK + r" cross\. Please file us an issue"):
        out = func.vmap(lambda v: mg.cross(v, v.flip(0)))(x)
    np.testing.assert_allclose(out.array, np.cross(x.array, x.array[:, ::-1]))


def test_the_fallback_handles_several_outputs_and_outer_levels(cross_without_rule):
    x = _rand(2, 4, 3)
    with pytest.warns(UserWarning, match=FALLBACK):
        out = func.vmap(func.vmap(lambda v: mg.cross(v, v.flip(0))))(x)
    np.testing.assert_allclose(out.array, np.cross(x.array, x.array[..., ::-1]))


# ---------------------------------------------------------------- randomness
def test_randomness_modes():
    x = mg.ones(4, 1000)
    with pytest.raises(RuntimeError, match=r"^vmap: called random operation while in randomness error mode"):
        func.vmap(lambda v: F.dropout(v, 0.5))(x)
    mg.manual_seed(0)
    different = func.vmap(lambda v: F.dropout(v, 0.5), randomness="different")(x)
    assert not np.array_equal(different.array[0], different.array[1])
    same = func.vmap(lambda v: F.dropout(v, 0.5), randomness="same")(x)
    assert np.array_equal(same.array[0], same.array[3]) and 0 < same.array[0].mean() < 2
    assert func.vmap(lambda v: F.dropout(v, 0.5, training=False))(x) is not None


# ---------------------------------------------------------------- transforms inside vmap
def _mlp_loss(W1, b1, W2, x, y):
    return (((x @ W1 + b1).tanh() @ W2 - y) ** 2).sum()


def test_per_example_gradients_of_unbatched_weights_are_not_summed():
    W1, b1, W2, X, y = _rand(4, 5), _rand(5, seed=1), _rand(5, 1, seed=2), _rand(6, 4, seed=3), _rand(6, 1, seed=4)
    grads = func.vmap(func.grad(_mlp_loss, argnums=(0, 1, 2)), in_dims=(None, None, None, 0, 0))(W1, b1, W2, X, y)
    for k, g in enumerate(grads):
        looped = np.stack([func.grad(_mlp_loss, argnums=(0, 1, 2))(W1, b1, W2, X[i], y[i])[k].array for i in range(6)])
        np.testing.assert_allclose(g.array, looped, rtol=1e-12)


def test_vmap_of_jacrev_jacfwd_and_hessian_per_entry():
    x = _rand(3, 4)

    def f(v):
        return (v * v.sin()).cumsum(0)

    for transform in (func.jacrev, func.jacfwd, lambda f: func.hessian(lambda v: f(v).sum())):
        batched = func.vmap(transform(f))(x)
        looped = np.stack([transform(f)(x[i]).array for i in range(3)])
        np.testing.assert_allclose(batched.array, looped, rtol=1e-12, atol=1e-12)


def test_vmap_of_vjp_and_jvp():
    x, t = _rand(3, 4), _rand(3, 4, seed=1)
    out, tangents = func.vmap(lambda x, t: func.jvp(lambda v: v.exp().sum(), (x,), (t,)))(x, t)
    np.testing.assert_allclose(out.array, np.exp(x.array).sum(1))
    np.testing.assert_allclose(tangents.array, (np.exp(x.array) * t.array).sum(1))
    pulled = func.vmap(lambda x, t: func.vjp(lambda v: v.tanh(), x)[1](t)[0])(x, t)
    np.testing.assert_allclose(pulled.array, (1 - np.tanh(x.array) ** 2) * t.array)


def test_grad_of_vmap_reaches_the_weights():
    w, xs = _rand(3), _rand(4, 3, seed=1)
    g = func.grad(lambda w: func.vmap(lambda x: (x * w).sum().tanh())(xs).sum())(w)
    expected = ((1 - np.tanh(xs.array @ w.array) ** 2)[:, None] * xs.array).sum(0)
    np.testing.assert_allclose(g.array, expected)


def test_backward_inside_vmap_points_to_grad():
    with pytest.raises(RuntimeError, match=r"use minigrad\.func\.grad"):
        func.vmap(lambda x: x.sum().backward())(_rand(2, 3).requires_grad_())


# ---------------------------------------------------------------- against torch.func.vmap
def test_against_torch_func_vmap():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((4, 3, 5)), rng.standard_normal((5, 2))
    cases = [
        (lambda x, w: (x @ w).softmax(-1).sum(0), (0, None)),
        (lambda x, w: x.transpose(0, 1).reshape(-1)[:4] * w[0, 0], (1, None)),
        (lambda x, w: (x.max(1)[0] + x.amax(0).sum()).unsqueeze(0), (2, None)),
    ]
    for f, in_dims in cases:
        ours = func.vmap(f, in_dims=in_dims)(_t(x), _t(w))
        theirs = torch.func.vmap(f, in_dims=in_dims)(torch.tensor(x), torch.tensor(w))
        np.testing.assert_allclose(ours.array, theirs.numpy(), rtol=1e-12)
    ours = func.vmap(func.grad(lambda w, x: ((x @ w) ** 2).sum()), in_dims=(None, 0))(_t(w), _t(x))
    theirs = torch.func.vmap(torch.func.grad(lambda w, x: ((x @ w) ** 2).sum()), in_dims=(None, 0))(
        torch.tensor(w), torch.tensor(x)
    )
    np.testing.assert_allclose(ours.array, theirs.numpy(), rtol=1e-12)


def test_no_warning_and_no_state_left_after_vmap():
    from minigrad import _state

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        func.vmap(lambda x: x.exp().sum())(_rand(2, 3))
    assert _state.vmap.levels == ()
    with pytest.raises(ValueError):
        func.vmap(lambda x: 3)(_rand(2))
    assert _state.vmap.levels == ()


def test_jacrev_chunks_and_jacfwd_give_the_loops_jacobian():
    x = _rand(5)

    def f(v):
        return (v.outer(v).tanh() @ v).cumsum(0)[:3]

    want = np.stack([func.grad(lambda v, i=i: f(v)[i])(x).array for i in range(3)])
    for jac in (func.jacrev(f), func.jacrev(f, chunk_size=1), func.jacrev(f, chunk_size=2), func.jacfwd(f)):
        np.testing.assert_allclose(jac(x).array, want, rtol=1e-12, atol=1e-12)


def test_the_fallback_warning_points_at_the_users_line(cross_without_rule):
    with pytest.warns(UserWarning, match=FALLBACK) as caught:
        func.vmap(lambda v: mg.cross(v, v))(_rand(2, 3))
    assert caught[0].filename == __file__


def test_random_tensors_like_an_entry_follow_randomness():
    x = mg.ones(4, 3)
    with pytest.raises(RuntimeError, match=r"^vmap: called random operation while in randomness error mode"):
        func.vmap(lambda v: v + mg.randn_like(v))(x)
    different = func.vmap(lambda v: mg.rand_like(v), randomness="different")(x)
    assert different.shape == (4, 3) and not np.array_equal(different.array[0], different.array[1])
    same = func.vmap(lambda v: v * mg.randint_like(v, 1, 9), randomness="same")(x)
    assert same.shape == (4, 3) and all(np.array_equal(same.array[0], row) for row in same.array)
    assert mg.randn_like(x).shape == (4, 3)  # outside vmap, as before


# ---------------------------------------------------------------- modules
def _attention(**options):
    layer = mg.nn.MultiheadAttention(6, 2, **options)
    return lambda x: layer(x, x, x)[0]


def _modules():
    mg.manual_seed(0)
    return {
        "conv2d": (mg.nn.Conv2d(2, 3, 3, padding=1), (4, 2, 2, 5, 5)),
        "linear": (mg.nn.Linear(5, 2), (4, 3, 5)),
        "layer_norm": (mg.nn.LayerNorm(5), (4, 3, 5)),
        "flatten": (mg.nn.Flatten(), (4, 2, 3, 5)),
        "batch_norm_eval": (mg.nn.BatchNorm1d(3).eval(), (4, 2, 3, 5)),
        "attention_unbatched": (_attention(), (4, 3, 6)),
        "attention_batch_first": (_attention(batch_first=True), (4, 2, 3, 6)),
        "attention": (_attention(), (4, 3, 2, 6)),
    }


@pytest.mark.parametrize("name", sorted(_modules()))
def test_modules_see_one_entrys_shape(name):
    module, shape = _modules()[name]
    x = _rand(*shape).float()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        batched = func.vmap(module)(x)
    looped = mg.stack([module(x[i]) for i in range(shape[0])])
    np.testing.assert_allclose(batched.array, looped.array, rtol=1e-5, atol=1e-6)
