"""Forward mode nested in minigrad.func: jvp of jvp, jacfwd of jacfwd (up to third order), mixed with
reverse mode and vmap, against finite differences in float64 and (when installed) torch.func."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import func

RNG = np.random.default_rng(7)
A = RNG.standard_normal(3)
W = RNG.standard_normal((2, 3))
W1, W2 = RNG.standard_normal((3, 4)), RNG.standard_normal((4, 2))
X0 = np.array([0.4, -0.9, 1.3])


def _consts(lib):
    """The functions' fixed tensors, in ``lib`` (minigrad or torch)."""
    return {name: lib.tensor(value) for name, value in {"a": A, "W": W, "W1": W1, "W2": W2}.items()}


# name -> f(x, c): R^3 -> R^n or R, written once for both libraries
FUNCTIONS = {
    "tanh": lambda x, c: x.tanh(),
    "exp": lambda x, c: (x * c["a"]).exp(),
    "mul": lambda x, c: x * x * c["a"],
    "matmul": lambda x, c: c["W"] @ (x * x),
    "sum": lambda x, c: (x**3).sum(),
    "softmax": lambda x, c: (x * c["a"]).softmax(0),
    "log_softmax": lambda x, c: x.log_softmax(0),
    "indexing": lambda x, c: x[[0, 2, 2]] * x[1:].sum(),
    "mlp": lambda x, c: (x @ c["W1"]).tanh() @ c["W2"],
}


def _t(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def _ours(name):
    c = _consts(mg)
    return lambda x: FUNCTIONS[name](x, c)


def _theirs(name):
    import torch

    c = _consts(torch)
    return lambda x: FUNCTIONS[name](x, c)


def _jvp_of_jvp(jvp, f, x, u, v):
    return jvp(lambda x: jvp(f, (x,), (v,))[1], (x,), (u,))[1]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_jvp_of_jvp_is_the_second_directional_derivative(name):
    rng = np.random.default_rng(1)
    f = _ours(name)
    u, v = rng.standard_normal(3), rng.standard_normal(3)
    nested = _jvp_of_jvp(func.jvp, f, _t(X0), _t(u), _t(v)).numpy()
    eps = 1e-5

    def inner(x):
        return func.jvp(f, (_t(x),), (_t(v),))[1].numpy()

    np.testing.assert_allclose(nested, (inner(X0 + eps * u) - inner(X0 - eps * u)) / (2 * eps), rtol=1e-6, atol=1e-8)
    torch = pytest.importorskip("torch")
    theirs = _jvp_of_jvp(torch.func.jvp, _theirs(name), torch.tensor(X0), torch.tensor(u), torch.tensor(v))
    np.testing.assert_allclose(nested, theirs.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_jacfwd_of_jacfwd_is_the_second_derivative(name):
    f = _ours(name)
    second = func.jacfwd(func.jacfwd(f))(_t(X0)).numpy()
    eps = 1e-5
    columns = [
        (func.jacrev(f)(_t(X0 + eps * e)).numpy() - func.jacrev(f)(_t(X0 - eps * e)).numpy()) / (2 * eps)
        for e in np.eye(3)
    ]  # d/dx_j of the Jacobian by reverse mode: a route with no forward rule in it
    np.testing.assert_allclose(second, np.stack(columns, axis=-1), rtol=1e-6, atol=1e-8)
    torch = pytest.importorskip("torch")
    theirs = torch.func.jacfwd(torch.func.jacfwd(_theirs(name)))(torch.tensor(X0))
    np.testing.assert_allclose(second, theirs.numpy(), rtol=1e-10, atol=1e-12)


def test_third_order_jacfwd_of_a_scalar_function():
    def f(x):
        return (x**3).sum() + x[0] * x[1] * x[2]

    third = func.jacfwd(func.jacfwd(func.jacfwd(f)))(_t(X0)).numpy()
    expected = np.zeros((3, 3, 3))
    for i in range(3):
        expected[i, i, i] = 6.0
    for i, j, k in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        expected[i, j, k] = 1.0
    np.testing.assert_allclose(third, expected, atol=1e-12)
    torch = pytest.importorskip("torch")
    g, tf = _theirs("mlp"), torch.func
    ours = func.jacfwd(func.jacfwd(func.jacfwd(lambda x: _ours("mlp")(x).sum())))(_t(X0))
    theirs = tf.jacfwd(tf.jacfwd(tf.jacfwd(lambda x: g(x).sum())))(torch.tensor(X0))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-12)


def test_hessian_four_ways_agree():
    def f(x):
        return (_ours("mlp")(x) ** 2).sum()

    x = _t(X0)
    forward_forward = func.jacfwd(func.jacfwd(f))(x).numpy()
    for other in (func.hessian(f), func.jacrev(func.jacfwd(f)), func.jacrev(func.jacrev(f))):
        np.testing.assert_allclose(other(x).numpy(), forward_forward, rtol=1e-10, atol=1e-12)


def test_forward_and_reverse_mix_as_in_torch_func():
    rng = np.random.default_rng(2)
    f = _ours("mlp")
    u, v = _t(rng.standard_normal(3)), _t(rng.standard_normal(3))

    def scalar(x):
        return f(x).sin().sum()

    results = {
        "jacfwd_of_jvp": func.jacfwd(lambda x: func.jvp(f, (x,), (v,))[1])(_t(X0)),
        "jvp_of_grad": func.jvp(func.grad(scalar), (_t(X0),), (u,))[1],
        "grad_of_jvp": func.grad(lambda x: func.jvp(scalar, (x,), (v,))[1])(_t(X0)),
    }
    hessian = func.jacrev(func.jacrev(scalar))(_t(X0)).numpy()
    np.testing.assert_allclose(results["jvp_of_grad"].numpy(), hessian @ u.numpy(), rtol=1e-10)
    np.testing.assert_allclose(results["grad_of_jvp"].numpy(), hessian @ v.numpy(), rtol=1e-10)
    torch = pytest.importorskip("torch")
    tf, g = torch.func, _theirs("mlp")
    tv, tu, tx = torch.tensor(v.numpy()), torch.tensor(u.numpy()), torch.tensor(X0)

    def tscalar(x):
        return g(x).sin().sum()

    theirs = {
        "jacfwd_of_jvp": tf.jacfwd(lambda x: tf.jvp(g, (x,), (tv,))[1])(tx),
        "jvp_of_grad": tf.jvp(tf.grad(tscalar), (tx,), (tu,))[1],
        "grad_of_jvp": tf.grad(lambda x: tf.jvp(tscalar, (x,), (tv,))[1])(tx),
    }
    for key, ours in results.items():
        np.testing.assert_allclose(ours.numpy(), theirs[key].numpy(), rtol=1e-10, atol=1e-12, err_msg=key)


def test_vmap_of_jacfwd_of_jacfwd_is_a_batch_of_hessians():
    rng = np.random.default_rng(3)
    f = _ours("mlp")

    def scalar(x):
        return (f(x) ** 2).sum()

    xs = rng.standard_normal((4, 3))
    batched = func.vmap(func.jacfwd(func.jacfwd(scalar)))(_t(xs)).numpy()
    for b in range(4):
        np.testing.assert_allclose(batched[b], func.hessian(scalar)(_t(xs[b])).numpy(), rtol=1e-10, atol=1e-12)
    torch = pytest.importorskip("torch")
    tf, g = torch.func, _theirs("mlp")
    theirs = tf.vmap(tf.jacfwd(tf.jacfwd(lambda x: (g(x) ** 2).sum())))(torch.tensor(xs))
    np.testing.assert_allclose(batched, theirs.numpy(), rtol=1e-10, atol=1e-12)


def test_hessian_of_a_function_of_several_inputs():
    """Ported from functorch's test_hessian_vectorize_correctness_multi_input (one argument at a time)."""
    rng = np.random.default_rng(4)
    y, z = rng.standard_normal((3, 5)), rng.standard_normal((5, 5))

    def f(x, y, z):
        return ((x.relu() * x) @ y.sin() @ z).sum()

    x = rng.standard_normal((2, 3))
    for argnums in (0, 1, 2):
        args = (_t(x), _t(y), _t(z))
        ours = func.jacfwd(func.jacfwd(f, argnums), argnums)(*args).numpy()
        np.testing.assert_allclose(ours, func.hessian(f, argnums)(*args).numpy(), rtol=1e-10, atol=1e-12)
        torch = pytest.importorskip("torch")
        targs = tuple(torch.tensor(a) for a in (x, y, z))
        theirs = torch.func.hessian(f, argnums)(*targs)
        np.testing.assert_allclose(ours, theirs.numpy(), rtol=1e-10, atol=1e-12)


def test_jacfwd_of_jacfwd_under_vmap_at_another_level():
    """Ported from functorch's test_jacfwd_different_levels (functorch issue 597): a batched least-squares
    loss, its Hessian by forward over forward equals reverse over reverse."""
    rng = np.random.default_rng(5)
    b, n, d = 3, 5, 2
    x1 = rng.standard_normal((b, n, d))
    a = 0.1 * rng.standard_normal((b, d, d))

    def loss(a, x1, x2):
        residual = x2 - (a @ x1.T).T
        return (residual**2).sum()

    args = (_t(a), _t(x1), _t(x1))
    forward = func.vmap(func.jacfwd(func.jacfwd(loss)))(*args).numpy()
    reverse = func.vmap(func.jacrev(func.jacrev(loss)))(*args).numpy()
    np.testing.assert_allclose(forward, reverse, rtol=1e-10, atol=1e-12)
