"""Custom autograd Functions under vmap (and vmap composed with grad, jvp, jacrev, jacfwd, hessian):
against loops over the batch, closed forms and, when installed, torch.func with the same Functions."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import func
from minigrad.autograd import gradcheck, gradgradcheck
from tests.custom_functions import NumpyExp, cube_forms


def _t(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def _rand(*shape, seed=0):
    return _t(np.random.default_rng(seed).uniform(-2.0, 2.0, shape))


def functions(lib):
    """The Functions of these tests, written once for minigrad and torch (``lib``)."""

    Cube = cube_forms(lib)["vmap"]  # x³ with backward 3x²g and jvp 3x²t; vmap generated from them

    class SinCos(lib.autograd.Function):
        """Two outputs from one input; backward gets both outputs' gradients, jvp gives both tangents."""

        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x.sin(), x.cos()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*output)
            ctx.save_for_forward(*output)

        @staticmethod
        def backward(ctx, gs, gc):
            s, c = ctx.saved_tensors
            return gs * c - gc * s

        @staticmethod
        def jvp(ctx, t):
            s, c = ctx.saved_tensors
            return c * t, -s * t

    class Scale(lib.autograd.Function):
        """x * w with a gradient for each; ``w`` may broadcast against ``x``."""

        generate_vmap_rule = True

        @staticmethod
        def forward(x, w):
            return x * w

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)
            ctx.save_for_forward(*inputs)

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            return g * w, g * x  # the second broadcast: the engine sums it down to w's shape

        @staticmethod
        def jvp(ctx, tx, tw):
            x, w = ctx.saved_tensors
            return tx * w + x * tw

    class SumDim(lib.autograd.Function):
        """Sum over ``dim`` with its own vmap rule: the batch moved first, the sum one dim further."""

        vmap_calls = []

        @staticmethod
        def forward(x, dim):
            return x.sum(dim)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.shape, ctx.dim = inputs[0].shape, inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g.unsqueeze(ctx.dim).expand(ctx.shape), None

        @staticmethod
        def vmap(info, in_dims, x, dim):
            SumDim.vmap_calls.append((info.batch_size, info.randomness, tuple(in_dims)))
            x = x.movedim(in_dims[0], 0)
            return SumDim.apply(x, dim % (x.dim() - 1) + 1), 0

    return Cube, SinCos, Scale, SumDim


Cube, SinCos, Scale, SumDim = functions(mg)


def test_vmap_of_a_function_batches_its_forward():
    """The bug this fixes: the output came back with the batch dim twice, (1, 1, 2)."""
    x = _t([[1.0, 2.0]])
    out = func.vmap(Cube.apply)(x)
    assert tuple(out.shape) == (1, 2)
    xs = _rand(5, 3)
    np.testing.assert_allclose(func.vmap(Cube.apply)(xs).numpy(), xs.numpy() ** 3)
    s, c = func.vmap(SinCos.apply, in_dims=1, out_dims=1)(xs)
    np.testing.assert_allclose(s.numpy(), np.sin(xs.numpy()))
    np.testing.assert_allclose(c.numpy(), np.cos(xs.numpy()))


def test_jacobians_and_hessian_of_a_function():
    x = _rand(4, seed=1)
    xn = x.numpy()
    np.testing.assert_allclose(func.jacfwd(Cube.apply)(x).numpy(), np.diag(3 * xn**2))
    np.testing.assert_allclose(func.jacrev(Cube.apply)(x).numpy(), np.diag(3 * xn**2))
    np.testing.assert_allclose(func.hessian(lambda x: Cube.apply(x).sum())(x).numpy(), np.diag(6 * xn))
    for jac in (func.jacfwd, func.jacrev):
        js, jc = jac(lambda x: SinCos.apply(x)[0])(x), jac(lambda x: SinCos.apply(x)[1])(x)
        np.testing.assert_allclose(js.numpy(), np.diag(np.cos(xn)), atol=1e-15)
        np.testing.assert_allclose(jc.numpy(), np.diag(-np.sin(xn)), atol=1e-15)


def test_per_example_gradients_match_a_loop():
    xs, ws = _rand(6, 3, seed=2), _rand(6, 1, seed=3)

    def loss(x, w):
        s, c = SinCos.apply(Scale.apply(x, w))
        return Cube.apply(s * c).sum()

    gx, gw = func.vmap(func.grad(loss, argnums=(0, 1)))(xs, ws)
    for i in range(6):
        ex, ew = func.grad(loss, argnums=(0, 1))(xs[i], ws[i])
        np.testing.assert_allclose(gx[i].numpy(), ex.numpy(), rtol=1e-12)
        np.testing.assert_allclose(gw[i].numpy(), ew.numpy(), rtol=1e-12)
    assert tuple(gw.shape) == (6, 1)  # each entry's broadcast gradient summed down to w's shape


def test_an_unbatched_argument_gets_the_gradient_summed_over_the_batch():
    xs, w = _rand(5, 3, seed=4), _rand(3, seed=5)

    def total(w):
        return func.vmap(Scale.apply, in_dims=(0, None))(xs, w).sum()

    np.testing.assert_allclose(func.grad(total)(w).numpy(), xs.numpy().sum(0))
    np.testing.assert_allclose(func.jacfwd(total)(w).numpy(), xs.numpy().sum(0))


def test_nested_vmap_and_compositions():
    xs = _rand(3, 4, 2, seed=6)
    np.testing.assert_allclose(func.vmap(func.vmap(Cube.apply))(xs).numpy(), xs.numpy() ** 3)
    np.testing.assert_allclose(func.vmap(func.vmap(Cube.apply, in_dims=1), in_dims=2)(xs).numpy(),
                               np.moveaxis(xs.numpy() ** 3, (2, 1), (0, 1)))  # fmt: skip
    hessians = func.vmap(func.vmap(func.hessian(lambda x: Cube.apply(x).sum())))(xs[..., :1])
    np.testing.assert_allclose(hessians.numpy()[..., 0, 0], 6 * xs.numpy()[..., 0])
    grads = func.vmap(func.vmap(func.grad(lambda x: Cube.apply(x).sum())))(xs)
    np.testing.assert_allclose(grads.numpy(), 3 * xs.numpy() ** 2)
    jac = func.vmap(func.jacfwd(Cube.apply))(xs[0])
    np.testing.assert_allclose(jac.numpy(), np.stack([np.diag(3 * r**2) for r in xs.numpy()[0]]))
    outer = func.grad(lambda x: func.vmap(func.vmap(Cube.apply))(x).sum())(xs)
    np.testing.assert_allclose(outer.numpy(), 3 * xs.numpy() ** 2)


def test_the_generated_rule_is_gradchecked():
    x, w = _rand(3, 2, seed=7).requires_grad_(), _rand(3, 1, seed=8).requires_grad_()
    assert gradcheck(lambda x, w: func.vmap(Scale.apply)(x, w), (x, w))
    assert gradgradcheck(func.vmap(Cube.apply), (x,))
    assert gradcheck(lambda x: func.vmap(SinCos.apply)(x)[1], (x,))


def test_own_vmap_staticmethod_is_called_with_the_batch():
    SumDim.vmap_calls.clear()
    xs = _rand(4, 2, 3, seed=9)
    np.testing.assert_allclose(func.vmap(SumDim.apply, in_dims=(1, None))(xs, -1).numpy(), xs.numpy().sum(-1).T)
    assert SumDim.vmap_calls == [(2, "error", (0, None))]  # in_dims as seen after the batch moved first
    grads = func.vmap(func.grad(lambda x: SumDim.apply(x, 0).sum()))(xs)
    np.testing.assert_allclose(grads.numpy(), np.ones((4, 2, 3)))
    SumDim.vmap_calls.clear()
    func.vmap(func.vmap(SumDim.apply, in_dims=(0, None)), in_dims=(0, None), randomness="same")(xs, 0)
    assert SumDim.vmap_calls == [(2, "error", (0, None)), (4, "same", (0, None))]  # inner level first


def test_a_non_differentiable_index_output_under_the_generated_rule():
    class MaxIndex(mg.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            i = x.argmax(-1, keepdim=True)
            return x.gather(-1, i), i

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.mark_non_differentiable(output[1])
            ctx.save_for_backward(output[1])
            ctx.shape = inputs[0].shape

        @staticmethod
        def backward(ctx, g, gi):
            (i,) = ctx.saved_tensors
            return mg.zeros(ctx.shape, dtype=g.dtype).scatter(-1, i, g)  # an unbatched zeros, scattered per entry

    xs = _rand(4, 5, seed=12)
    values, index = func.vmap(MaxIndex.apply)(xs)
    np.testing.assert_allclose(values.numpy()[:, 0], xs.numpy().max(1))
    assert index.numpy()[:, 0].tolist() == xs.numpy().argmax(1).tolist() and not index.requires_grad
    grads = func.vmap(func.grad(lambda x: MaxIndex.apply(x)[0].sum()))(xs)
    np.testing.assert_allclose(grads.numpy(), np.eye(5)[xs.numpy().argmax(1)])


def test_jacrev_runs_a_function_without_vmap_support_once():
    x = _rand(3, seed=13)
    e = np.exp(x.numpy())
    np.testing.assert_allclose(func.jacrev(NumpyExp.apply)(x).numpy(), np.diag(e))
    np.testing.assert_allclose(func.jacrev(lambda x: NumpyExp.apply(x.sin()) * x)(x).numpy(),
                               np.diag(np.exp(np.sin(x.numpy())) * np.cos(x.numpy()) * x.numpy()
                                       + np.exp(np.sin(x.numpy()))))  # fmt: skip
    # second order through the saved output: each row's backward has its own copy of it in the graph
    np.testing.assert_allclose(func.jacrev(func.jacrev(lambda x: NumpyExp.apply(x).sum()))(x).numpy(), np.diag(e))
    with pytest.raises(RuntimeError, match="You tried to vmap over NumpyExp, but it does not have vmap support"):
        func.vmap(func.jacrev(NumpyExp.apply))(_rand(2, 3))


def test_the_debugger_sees_the_users_rule():
    import inspect

    out = func.vmap(Cube.apply)(_rand(2, 3).requires_grad_())
    assert out.grad_fn.name() == "VmappedCubeBackward"
    assert "3 * x * x * g" in inspect.getsource(out._backward)


# ---------------------------------------------------------------- ported from torch's TestAutogradFunctionVmapAPI
def _id_function(rule):
    class Id(mg.autograd.Function):
        @staticmethod
        def forward(*args):
            return args[0]

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        vmap = staticmethod(rule)

    return Id


def test_the_info_and_in_dims_the_rule_gets():
    seen = []

    def rule(info, in_dims, x, pair):
        seen.append((info, in_dims))
        return x, in_dims[0]

    x = _rand(3, 2)
    for randomness in ("error", "different", "same"):
        out = func.vmap(_id_function(rule).apply, randomness=randomness)(x, [x, x])
        np.testing.assert_allclose(out.numpy(), x.numpy())
    assert [(info.batch_size, info.randomness) for info, _ in seen] == [(3, "error"), (3, "different"), (3, "same")]
    in_dims = seen[0][1]
    assert in_dims == (0, [0, 0]) and isinstance(in_dims, tuple) and isinstance(in_dims[1], list)


def test_a_level_with_nothing_batched_skips_the_rule():
    def rule(info, in_dims, x):
        raise RuntimeError("expected to not be called")

    Id = _id_function(rule)
    out = func.vmap(lambda x: x * Id.apply(_t(2.0)))(_rand(2, 3))
    assert tuple(out.shape) == (2, 3)


def test_an_output_the_rule_says_is_not_batched_is_repeated():
    def rule(info, in_dims, x):
        zeros = mg.zeros(x.shape[1:], dtype=x.dtype)
        return (zeros, zeros), None

    class TwoZeros(mg.autograd.Function):
        @staticmethod
        def forward(x):
            return mg.zeros_like(x), mg.zeros_like(x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        vmap = staticmethod(rule)

    y, z = func.vmap(TwoZeros.apply)(_rand(2, 3))
    assert tuple(y.shape) == tuple(z.shape) == (2, 3) and not y.numpy().any()


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        (lambda x: x, "Expected the vmap staticmethod to have two returns, an output and out_dims with pytree "
                      "structure compatible with the output. Got a <class 'minigrad.tensor.Tensor'> instead"),
        (lambda x: (x, x, 0, 0), "to have two returns, an output and out_dims with pytree structure compatible "
                                 "with the output. Got 4 returns instead"),
        (lambda x: (x, (None,)), "returned an incompatible (output, out_dims) tuple. Expected out_dims=(None,) to be "
                                 "compatible with the structure of `output`. out_dims has structure tuple(*) but "
                                 "output has structure *."),
        (lambda x: ([x], (None,)), "out_dims has structure tuple(*) but output has structure list(*)."),
    ],
)  # fmt: skip
def test_the_rule_returns_are_checked(returned, message):
    Id = _id_function(lambda info, in_dims, x: returned(x[0]))
    with pytest.raises(RuntimeError) as caught:
        func.vmap(Id.apply)(_rand(2, 3))
    assert message in str(caught.value)


def test_a_keyword_only_tensor_is_refused():
    class Add(mg.autograd.Function):
        @staticmethod
        def forward(x, *, y):
            return x + y

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def vmap(info, in_dims, x, *, y):
            return x + y, 0

    x = _rand(3)
    with pytest.raises(NotImplementedError, match="kwarg-only Tensor args"):
        func.vmap(Add.apply)(x, y=x)


# ---------------------------------------------------------------- torch.func as the oracle
def _outcome(lib, run):
    """What ``run(lib)`` gives: its arrays, or the exception's class name and text."""
    try:
        out = run(lib)
    except Exception as exc:  # noqa: BLE001  (the test compares whatever each library raises)
        return type(exc).__name__, str(exc)
    outs = out if isinstance(out, tuple) else (out,)
    return tuple(np.asarray(o.detach().numpy()) for o in outs)


def _api(lib):
    if lib is mg:
        return mg, func
    import torch.func

    return lib, torch.func


X = np.random.default_rng(10).uniform(-2.0, 2.0, (4, 3))
W = np.random.default_rng(11).uniform(-2.0, 2.0, (4, 1))

RUNS = {
    "vmap": lambda L, F, fs: F.vmap(fs[0].apply)(L.tensor(X)),
    "vmap_two_outputs": lambda L, F, fs: F.vmap(fs[1].apply, in_dims=1)(L.tensor(X)),
    "jacfwd": lambda L, F, fs: F.jacfwd(fs[0].apply)(L.tensor(X[0])),
    "jacrev_two_outputs": lambda L, F, fs: F.jacrev(lambda x: fs[1].apply(x)[1] * fs[1].apply(x)[0])(L.tensor(X[0])),
    "hessian": lambda L, F, fs: F.hessian(lambda x: fs[0].apply(fs[1].apply(x)[0]).sum())(L.tensor(X[0])),
    "vmap_grad": lambda L, F, fs: F.vmap(F.grad(lambda x, w: fs[0].apply(fs[2].apply(x, w)).sum(), argnums=(0, 1)))(
        L.tensor(X), L.tensor(W)
    ),
    "vmap_jacfwd": lambda L, F, fs: F.vmap(F.jacfwd(lambda x: fs[1].apply(x)[0]))(L.tensor(X)),
    "grad_vmap_unbatched": lambda L, F, fs: F.grad(
        lambda w: F.vmap(fs[2].apply, in_dims=(0, None))(L.tensor(X), w).sum()
    )(L.tensor(X[0])),
    "own_rule": lambda L, F, fs: F.vmap(fs[3].apply, in_dims=(1, None))(L.tensor(X), 0),
    "vmap_vjp_own_rule": lambda L, F, fs: F.vmap(lambda x: F.vjp(lambda x: fs[3].apply(x, 0), x)[1](x[0]))(
        L.tensor(X.reshape(2, 2, 3))
    ),
}


@pytest.mark.parametrize("case", sorted(RUNS))
def test_as_torch_func(case):
    torch = pytest.importorskip("torch")
    ours = _outcome(mg, lambda lib: RUNS[case](*_api(lib), functions(lib)))
    theirs = _outcome(torch, lambda lib: RUNS[case](*_api(lib), functions(lib)))
    assert isinstance(ours[0], np.ndarray) and len(ours) == len(theirs), (ours, theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
