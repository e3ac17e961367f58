"""Checks for lesson 5: closed-form Hessians and known minima."""

import numpy as np

import minigrad as mg
from minigrad.course import check


@check("ex1_hvp", "matches the analytic Hessian of sum(tanh(W @ x)**2)")
def _(ex):
    rng = np.random.default_rng(1)
    W = rng.standard_normal((5, 4))
    x = rng.standard_normal(4)
    v = rng.standard_normal(4)
    Wt = mg.tensor(W)
    got = ex.hvp(lambda x: ((Wt @ x).tanh() ** 2).sum(), mg.tensor(x), mg.tensor(v))
    t = np.tanh(W @ x)
    # d/dz tanh(z)^2 = 2 t (1 - t^2); second derivative: 2 (1 - t^2)(1 - 3 t^2)
    H = W.T @ np.diag(2 * (1 - t**2) * (1 - 3 * t**2)) @ W
    np.testing.assert_allclose(got.numpy(), H @ v, rtol=1e-10)


@check("ex1_hvp", "equals A v for random quadratics f(x) = x·Ax/2 with symmetric A")
def _(ex):
    rng = np.random.default_rng(2)
    for n in (1, 3, 6):
        M = rng.standard_normal((n, n))
        A = M + M.T
        At = mg.tensor(A)
        x, v = rng.standard_normal(n), rng.standard_normal(n)
        got = ex.hvp(lambda x, At=At: (x * (At @ x)).sum() / 2, mg.tensor(x), mg.tensor(v))
        np.testing.assert_allclose(got.numpy(), A @ v, rtol=1e-10)


@check("ex2_newton", "one step solves a quadratic exactly")
def _(ex):
    x = ex.newton_minimize(lambda x: 3 * (x - 2.5) ** 2 + 1, 10.0, 1)
    assert abs(x - 2.5) < 1e-12, f"after one Newton step on 3(x-2.5)^2+1 from 10, x = {x}, expected 2.5"


@check("ex2_newton", "converges to the minimum of x**4 - 3x**2 + x near x = 1.13")
def _(ex):
    x = ex.newton_minimize(lambda x: x**4 - 3 * x**2 + x, 1.0, 8)
    assert abs(4 * x**3 - 6 * x + 1) < 1e-10, f"f'(x) should be 0 at the minimum, x = {x}"
    assert 12 * x**2 - 6 > 0, "Newton's method should have found a minimum"
