"""Custom Functions under the minigrad.func transforms: which form works under which transform, with
torch.func's errors for the others (checked against torch when installed), and torch's
TestAutogradFunction cases in our words. vmap of a Function: tests/batching/test_function.py."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import minigrad as mg
from minigrad import func
from minigrad.autograd import Function, gradgradcheck
from minigrad.autograd import forward_ad as fwAD
from minigrad.autograd.function import SETUP_CONTEXT_MESSAGE
from tests.custom_functions import cube_forms


def _t(a, rg=False):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=rg)


def _transforms(F):
    """Each transform applied to a Function (its ``apply``), as the user would write it."""
    return {
        "grad": lambda f, x: F.grad(lambda x: f(x).sum())(x),
        "vjp": lambda f, x: F.vjp(f, x)[1](x)[0],
        "jvp": lambda f, x: F.jvp(f, (x,), (x,))[1],
        "jacrev": lambda f, x: F.jacrev(f)(x),
        "jacfwd": lambda f, x: F.jacfwd(f)(x),
        "hessian": lambda f, x: F.hessian(lambda x: f(x).sum())(x),
        "vmap": lambda f, x: F.vmap(f)(x),
        "vmap_grad": lambda f, x: F.vmap(F.grad(lambda x: f(x).sum()))(x),
        "grad_constant": lambda f, x: F.grad(lambda y: (f(x.detach()) * y).sum())(x),
        "jacrev_jacrev": lambda f, x: F.jacrev(F.jacrev(lambda x: f(x).sum()))(x),
        "vmap_jacrev": lambda f, x: F.vmap(F.jacrev(f))(x.reshape(3, 1)),
    }


X = [0.5, -1.5, 2.0]


def _outcome(lib, form: str, transform: str):
    if lib is mg:
        F = func
    else:
        import torch.func as F
    try:
        out = _transforms(F)[transform](cube_forms(lib)[form].apply, lib.tensor(X, dtype=lib.float64))
    except Exception as exc:  # noqa: BLE001  (the test compares whatever each library raises)
        return type(exc).__name__, str(exc)
    return np.round(out.detach().numpy(), 12).tolist()


CASES = [(form, transform) for form in cube_forms(mg) for transform in _transforms(func)]


@pytest.mark.parametrize(("form", "transform"), CASES)
def test_each_form_under_each_transform_as_torch_func(form, transform):
    torch = pytest.importorskip("torch")
    assert _outcome(mg, form, transform) == _outcome(torch, form, transform)


@pytest.mark.parametrize("transform", sorted(_transforms(func)))
def test_the_old_form_is_refused_under_every_transform(transform):
    assert _outcome(mg, "old", transform) == ("RuntimeError", SETUP_CONTEXT_MESSAGE)


def test_what_each_form_needs():
    x = _t(X)
    assert _outcome(mg, "new", "jvp") == (
        "NotImplementedError",
        "You must implement the jvp function for custom autograd.Function to use it with forward mode AD.",
    )
    assert _outcome(mg, "jvp", "jacfwd") == (
        "RuntimeError",
        "You tried to vmap over JvpCube, but it does not have vmap support. Please override and implement the vmap "
        "staticmethod or set generate_vmap_rule=True. For more details, please see "
        "https://pytorch.org/docs/main/notes/extending.func.html",
    )
    cubed = 3 * x.numpy() ** 2
    np.testing.assert_allclose(_outcome(mg, "new", "grad"), cubed)
    np.testing.assert_allclose(_outcome(mg, "new", "jacrev"), np.diag(cubed))  # backward alone, as torch's
    np.testing.assert_allclose(_outcome(mg, "jvp", "jvp"), cubed * x.numpy())
    np.testing.assert_allclose(_outcome(mg, "vmap", "hessian"), np.diag(6 * x.numpy()))


def test_the_old_form_still_works_outside_the_transforms():
    OldCube = cube_forms(mg)["old"]
    x = _t(X, rg=True)
    OldCube.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * np.array(X) ** 2)
    with fwAD.dual_level():
        out = OldCube.apply(fwAD.make_dual(_t(X), _t([1.0, 1.0, 1.0])))
        np.testing.assert_allclose(fwAD.unpack_dual(out).tangent.numpy(), 3 * np.array(X) ** 2)


def test_setup_context_sees_every_input_bound_as_forward_binds_it():
    seen = []

    class Scaled(Function):
        @staticmethod
        def forward(x, k=2.0, *, shift=0.0):
            return x * k + shift

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append(inputs[1:])

        @staticmethod
        def backward(ctx, g):
            return g, None

    x = _t(X)
    Scaled.apply(x)
    Scaled.apply(x, k=3.0, shift=1.0)
    Scaled.apply(x, 4.0)
    assert seen == [(2.0,), (3.0,), (4.0,)]  # keyword-only arguments stay keywords, as torch's


def test_a_saved_output_the_caller_dropped_is_still_differentiable():
    class SinCos(Function):
        @staticmethod
        def forward(x):
            return x.sin(), x.cos()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*output)

        @staticmethod
        def backward(ctx, gs, gc):
            s, c = ctx.saved_tensors
            return gs * c - gc * s

    x = _t(X, rg=True)
    assert gradgradcheck(lambda x: SinCos.apply(x)[0], (x,))  # the cosine output is dropped at once
    second = func.grad(lambda x: func.grad(lambda x: SinCos.apply(x)[0].sum())(x).sum())(x.detach())
    np.testing.assert_allclose(second.numpy(), -np.sin(X))


# ---------------------------------------------------------------- ported from torch's TestAutogradFunction
def test_set_materialize_grads_under_grad():
    seen = []

    class Pair(Function):
        @staticmethod
        def forward(x, y):
            return x * 1, y * 1

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.set_materialize_grads(False)

        @staticmethod
        def backward(ctx, gx, gy):
            seen.append((gx is not None, gy is None))
            return gx, gy

    def f(y, x):
        x, y = Pair.apply(x, y)
        return x**2

    x, y = _t(2.0), _t(3.0)
    assert func.grad(f, argnums=1)(y, x).item() == pytest.approx(4.0)
    assert func.grad(func.grad(f, argnums=1), argnums=1)(y, x).item() == pytest.approx(2.0)
    assert seen and all(s == (True, True) for s in seen)


def test_needs_input_grad_under_grad():
    seen = []

    class Mul(Function):
        @staticmethod
        def forward(x, y):
            return x * y

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            seen.append(tuple(ctx.needs_input_grad))
            return None, None

    x, y = _t(2.0), _t(3.0)
    func.grad(Mul.apply)(x, y)
    func.grad(func.grad(Mul.apply))(x, y)
    assert seen and all(s == (True, False) for s in seen)


def test_the_readme_example_runs():
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = text[text.index("### Custom Functions under the transforms") :]
    scope = {}
    exec(re.search(r"```python\n(.*?)```", section, re.S).group(1), scope)
    xs = scope["xs"].numpy()
    np.testing.assert_allclose(scope["per_example"].numpy(), 3 * xs**2)
    np.testing.assert_allclose(scope["h"].numpy(), np.diag(6 * xs[0]))
