"""minigrad.func against loops over the batch, finite differences and (when installed) torch.func."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import func


def _t(a, rg=False):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=rg)


def _values(t):
    return t.detach().numpy()


def f_scalar(x, y):
    return (x.tanh() * y).sum() + (x * x).sum()


X = [0.3, -1.2, 2.0]
Y = [1.5, 0.5, -0.7]


def test_grad_matches_the_rule_and_argnums():
    x, y = _t(X), _t(Y)
    gx = func.grad(f_scalar)(x, y)
    expected = (1 - np.tanh(X) ** 2) * np.array(Y) + 2 * np.array(X)
    np.testing.assert_allclose(gx.numpy(), expected)
    gx2, gy = func.grad(f_scalar, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx2.numpy(), expected)
    np.testing.assert_allclose(gy.numpy(), np.tanh(X))
    assert not x.requires_grad and x.grad is None  # the inputs are left alone


def test_grad_composes_to_second_derivatives():
    def cube(x):
        return (x * x * x).sum()

    x = _t([1.0, -2.0])
    second = func.grad(lambda x: func.grad(cube)(x).sum())(x)
    np.testing.assert_allclose(second.numpy(), 6 * np.array([1.0, -2.0]))


def test_grad_and_value_and_aux():
    x, y = _t(X), _t(Y)
    g, (value, aux) = func.grad_and_value(lambda x, y: (f_scalar(x, y), x.sum()), has_aux=True)(x, y)
    assert value.item() == pytest.approx(f_scalar(x, y).item())
    assert aux.item() == pytest.approx(sum(X))
    g2, aux2 = func.grad(lambda x, y: (f_scalar(x, y), {"sum": x.sum()}), has_aux=True)(x, y)
    np.testing.assert_allclose(g.numpy(), g2.numpy())
    assert aux2["sum"].item() == pytest.approx(sum(X)) and not aux2["sum"].requires_grad
    with pytest.raises(RuntimeError, match="Expected tensors, got unsupported type <class 'str'>"):
        func.grad(lambda x, y: (f_scalar(x, y), "note"), has_aux=True)(x, y)  # as torch.func refuses it


@pytest.mark.parametrize("requires_grad", [False, True])
def test_a_tensor_given_twice_is_differentiated_at_the_argnums_only(requires_grad):
    # torch.func: grad(lambda a, b: (a * b).sum())(t, t) is t, whether t requires grad or not (it gave 2t)
    t = _t(X, requires_grad)
    np.testing.assert_allclose(_values(func.grad(lambda a, b: (a * b).sum())(t, t)), X)
    np.testing.assert_allclose(_values(func.grad(lambda a: (a * t).sum())(t)), X)  # t captured by f
    ga, gb = func.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(t, t)
    assert _values(ga).tolist() == _values(gb).tolist() == X
    _, vjp_fn = func.vjp(lambda a, b: a * b, t, t)
    assert [_values(g).tolist() for g in vjp_fn(mg.ones(3, dtype=mg.float64))] == [X, X]
    np.testing.assert_allclose(_values(func.jacrev(lambda a, b: a * b)(t, t)), np.diag(X))
    per_row = func.vmap(func.grad(lambda a, b: (a * b).sum()))(t.reshape(3, 1), t.reshape(3, 1))
    np.testing.assert_allclose(_values(per_row), np.reshape(X, (3, 1)))


def test_a_gradient_of_a_tensor_that_requires_grad_stays_differentiable_back_to_it():
    t = _t(X, True)
    func.grad(lambda a, b: (a * b).sum())(t, t).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), np.ones(3))  # as torch.func: d(sum b)/dt


def test_grad_errors_are_torch_funcs():
    x = _t(X)
    with pytest.raises(RuntimeError, match="Expected f\\(\\*args\\) to return a scalar Tensor, got tensor with 1 dims"):
        func.grad(lambda x: x * 2)(x)
    with pytest.raises(RuntimeError, match="Got argnum=1, but only 1 positional inputs"):
        func.grad(lambda x: x.sum(), argnums=1)(x)
    with pytest.raises(RuntimeError, match="should be a tuple: \\(output, aux\\) if has_aux is True"):
        func.grad(lambda x: x.sum(), has_aux=True)(x)


def test_vjp_and_jacrev():
    x = _t(X)

    def f(x):
        return x.tanh() * x

    out, vjp_fn = func.vjp(f, x)
    v = _t([1.0, 2.0, 3.0])
    (g,) = vjp_fn(v)
    jac = func.jacrev(f)(x)
    assert jac.shape == (3, 3)
    np.testing.assert_allclose(g.numpy(), v.numpy() @ jac.numpy())
    expected = np.diag(np.tanh(X) + np.array(X) * (1 - np.tanh(X) ** 2))
    np.testing.assert_allclose(jac.numpy(), expected)
    np.testing.assert_allclose(out.numpy(), f(x).numpy())


def test_jacrev_of_several_arguments_has_their_shapes():
    a, b = _t([[1.0, 2.0], [3.0, 4.0]]), _t([0.5, -1.0])
    ja, jb = func.jacrev(lambda a, b: a @ b, argnums=(0, 1))(a, b)
    assert ja.shape == (2, 2, 2) and jb.shape == (2, 2)
    np.testing.assert_allclose(jb.numpy(), a.numpy())


def test_vmap_equals_a_loop_over_the_batch():
    w = _t(np.arange(6.0).reshape(3, 2) / 5)
    xs = _t(np.linspace(-1, 1, 12).reshape(4, 3))

    def layer(x):
        return (x @ w).tanh()

    batched = func.vmap(layer)(xs)
    looped = mg.stack([layer(xs[i]) for i in range(4)])
    np.testing.assert_allclose(batched.numpy(), looped.numpy())
    by_columns = func.vmap(layer, in_dims=1, out_dims=1)(xs.T)
    np.testing.assert_allclose(by_columns.numpy(), looped.numpy().T)


def test_vmap_nests_and_mixes_unbatched_arguments():
    a, b = _t(np.arange(6.0).reshape(2, 3)), _t([1.0, 2.0, 3.0, 4.0])
    outer = func.vmap(func.vmap(lambda x, y: x * y, in_dims=(None, 0)), in_dims=(0, None))
    result = outer(a, b)
    assert result.shape == (2, 4, 3)
    np.testing.assert_allclose(result.numpy(), np.einsum("ij,k->ikj", a.numpy(), b.numpy()))


def test_per_example_gradients_with_vmap_of_grad():
    w = _t([0.5, -0.25, 1.0])
    xs = _t(np.linspace(-1, 1, 15).reshape(5, 3))
    ys = _t([0.1, 0.2, -0.3, 0.4, 0.0])

    def loss(w, x, y):
        return ((x * w).sum() - y) ** 2

    per_example = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(w, xs, ys)
    looped = mg.stack([func.grad(loss)(w, xs[i], ys[i]) for i in range(5)])
    np.testing.assert_allclose(per_example.numpy(), looped.numpy())
    assert per_example.shape == (5, 3)


def test_vmap_errors_name_the_problem():
    x = _t(X)
    with pytest.raises(ValueError, match="Got in_dim=1 for some input, but that input is a Tensor of dimensionality 1"):
        func.vmap(lambda x: x * 2, in_dims=1)(x)
    with pytest.raises(ValueError, match="same size in the mapped dimension, got sizes \\[3, 2\\]"):
        func.vmap(lambda x, y: x * y)(x, _t([1.0, 2.0]))


def test_functional_call_swaps_parameters_for_one_call():
    mg.manual_seed(0)
    model = mg.nn.Linear(3, 2)
    x = _t([[1.0, 2.0, 3.0]]).float()
    zero_w = mg.zeros(2, 3)
    out = func.functional_call(model, {"weight": zero_w}, (x,))
    np.testing.assert_allclose(out.detach().numpy(), model.bias.detach().numpy()[None, :])
    assert model.weight is not zero_w and float(model(x).abs().sum()) > 0
    with pytest.raises(AttributeError, match="no parameter or buffer 'nope'"):
        func.functional_call(model, {"nope": zero_w}, (x,))


def test_functional_call_gives_gradients_with_respect_to_given_parameters():
    mg.manual_seed(0)
    model = mg.nn.Sequential(mg.nn.Linear(2, 3), mg.nn.Tanh(), mg.nn.Linear(3, 1))
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = mg.randn(4, 2)

    def loss(p):
        return func.functional_call(model, p, (x,)).sum()

    g = func.grad(loss)(params)  # a dict of gradients, by parameter name
    model.zero_grad()
    model(x).sum().backward()
    assert list(g) == list(params)
    for name, p in model.named_parameters():
        np.testing.assert_allclose(g[name].numpy(), p.grad.numpy(), rtol=1e-5)


def test_against_torch_func():
    torch = pytest.importorskip("torch")
    import torch.func as tf

    xs = np.linspace(-1, 1, 12).reshape(4, 3)
    w = np.array([0.5, -0.25, 1.0])

    def loss_mg(w, x):
        return (x * w).tanh().sum()

    def loss_torch(w, x):
        return (x * w).tanh().sum()

    ours = func.vmap(func.grad(loss_mg), in_dims=(None, 0))(_t(w), _t(xs))
    theirs = tf.vmap(tf.grad(loss_torch), in_dims=(None, 0))(torch.tensor(w), torch.tensor(xs))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())
    jr = func.jacrev(lambda x: (x * x).tanh())(_t(w))
    np.testing.assert_allclose(jr.numpy(), tf.jacrev(lambda x: (x * x).tanh())(torch.tensor(w)).numpy())


def _mlp(x, W1, W2):
    return ((x @ W1).tanh() @ W2).sum(-1)


def test_jvp_is_the_directional_derivative():
    x, v = _t(X), _t([1.0, -2.0, 0.5])
    out, jv = func.jvp(lambda x: (x.tanh() * x).sum(), (x,), (v,))
    expected = ((1 - np.tanh(X) ** 2) * np.array(X) + np.tanh(X)) @ np.array([1.0, -2.0, 0.5])
    assert out.item() == pytest.approx(float((np.tanh(X) * np.array(X)).sum()))
    assert jv.item() == pytest.approx(expected)
    assert not out.requires_grad and not jv.requires_grad


def test_jacfwd_equals_jacrev_on_wide_and_tall_functions():
    rng = np.random.default_rng(3)
    for n_out, n_in in ((2, 6), (6, 2)):
        W = _t(rng.standard_normal((n_out, n_in)))
        f = lambda x, W=W: (W @ x).sin()  # noqa: E731
        x = _t(rng.standard_normal(n_in))
        np.testing.assert_allclose(func.jacfwd(f)(x).numpy(), func.jacrev(f)(x).numpy(), rtol=1e-12, atol=1e-14)


def test_hessian_matches_the_analytic_one():
    a = np.array([0.3, -0.8, 1.1])
    h = func.hessian(lambda x: (x**3).sum() + x[0] * x[1])(_t(a))
    expected = np.diag(6 * a)
    expected[0, 1] = expected[1, 0] = 1.0
    np.testing.assert_allclose(h.numpy(), expected, atol=1e-12)


def test_forward_mode_transforms_against_torch_func():
    torch = pytest.importorskip("torch")
    import torch.func as tf

    rng = np.random.default_rng(4)
    x, W1, W2 = rng.standard_normal((5, 3)), rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    v = rng.standard_normal((5, 3))
    ours = func.jvp(lambda x: _mlp(x, _t(W1), _t(W2)), (_t(x),), (_t(v),))[1]
    theirs = tf.jvp(lambda x: _mlp(x, torch.tensor(W1), torch.tensor(W2)), (torch.tensor(x),), (torch.tensor(v),))[1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)
    jf = func.jacfwd(lambda x: _mlp(x, _t(W1), _t(W2)))(_t(x))
    tjf = tf.jacfwd(lambda x: _mlp(x, torch.tensor(W1), torch.tensor(W2)))(torch.tensor(x))
    np.testing.assert_allclose(jf.numpy(), tjf.numpy(), rtol=1e-12, atol=1e-14)

    def scalar(w):
        return ((_t(x) @ w).tanh() ** 2).sum()

    def scalar_torch(w):
        return ((torch.tensor(x) @ w).tanh() ** 2).sum()

    h = func.hessian(scalar)(_t(W1[:, 0]))
    np.testing.assert_allclose(h.numpy(), tf.hessian(scalar_torch)(torch.tensor(W1[:, 0])).numpy(), rtol=1e-10)
