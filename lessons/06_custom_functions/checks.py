"""Checks for lesson 6: gradcheck/gradgradcheck, minigrad's own softplus as the oracle,
hooks against autograd.grad, and predictions against the demo's recorded trace."""

import functools
import math

import numpy as np

import minigrad as mg
from minigrad.autograd import Function, grad
from minigrad.course import check
from minigrad.course.cases import rng
from minigrad.course.checking import load_reference
from minigrad.course.expect import expect, expect_close, expect_equal, expect_gradcheck, expect_prediction
from minigrad.course.recording import as_array, contributions_into, incoming_grads, pass_ids, record_call, record_demo
from minigrad.course.tracediff import explained_by_trace


def function_runs(mine, reference, x):
    """``fn(x).sum().backward()`` for the learner's and the reference's ``fn`` on the same ``x`` (a
    NumPy array, the leaf ``x``): the two runs explained_by_trace compares."""

    def run(fn):
        def go():
            x_ = mg.tensor(x, dtype=mg.float64, requires_grad=True, name="x")
            fn(x_).sum().backward()

        return go

    return run(mine), run(reference)


def finite64(n: int, seed: int) -> list:
    """``n`` float64 vectors of 1 to 6 entries in [-30, 30], the ends and 0 among the first."""
    draw = rng(seed)
    edges = [np.array([-30.0, 0.0, 30.0]), np.array([0.0])]
    return edges + [draw.uniform(-30, 30, int(draw.integers(1, 7))) for _ in range(n - len(edges))]


@check("ex2_softplus", "Softplus is a Function and its node carries the op name 'Softplus'")
def _(ex):
    expect(
        isinstance(ex.Softplus, type) and issubclass(ex.Softplus, Function),
        "Softplus's base class",
        "minigrad.autograd.Function",
        ex.Softplus.__mro__[1:] if isinstance(ex.Softplus, type) else ex.Softplus,
    )
    y = ex.softplus(mg.tensor([0.5], requires_grad=True))
    expect_equal(y.op, "Softplus", "the op of softplus's output (call Softplus.apply, not a built-in op)")


@check("ex2_softplus", "forward matches log(1 + e^x), gradient matches minigrad's softplus, on random inputs")
def _(ex):
    reference = load_reference("ex2_softplus").softplus
    for x in finite64(25, seed=61):
        with explained_by_trace(*function_runs(ex.softplus, reference, x), rtol=1e-12, atol=1e-300):
            t = mg.tensor(x, requires_grad=True)
            y = ex.softplus(t)
            where = f"at x = {np.round(x, 4).tolist()}"
            expect_close(y.detach(), np.logaddexp(0.0, x), f"softplus {where}", rtol=1e-12, atol=1e-300)
            (got,) = grad(y.sum(), t)
            (want,) = grad(t.softplus(threshold=math.inf).sum(), t)
            expect_close(got, want, f"the gradient of softplus {where}", rtol=1e-12, atol=1e-300)


@check("ex2_softplus", "stable at ±1000: finite values 0 and 1000, gradients 0 and 1")
def _(ex):
    x = mg.tensor([-1000.0, -50.0, 0.0, 50.0, 1000.0], dtype=mg.float64, requires_grad=True)
    y = ex.softplus(x)
    what = "softplus at x = [-1000, -50, 0, 50, 1000]"
    want = [0.0, math.log1p(math.exp(-50)), math.log(2), 50.0, 1000.0]
    expect_close(y.detach(), want, what, rtol=1e-12)
    y.sum().backward()
    grads = [0.0, 1 / (1 + math.exp(50)), 0.5, 1.0, 1.0]
    expect_close(x.grad, grads, f"the gradient of {what}", rtol=1e-12, atol=1e-300)


@check("ex2_softplus", "gradcheck and gradgradcheck pass in float64")
def _(ex):
    rng = np.random.default_rng(6)
    for shape in [(5,), (3, 4)]:
        x = mg.tensor(rng.standard_normal(shape) * 3, dtype=mg.float64, requires_grad=True)
        expect_gradcheck(ex.softplus, (x,), f"gradcheck of softplus on a {list(shape)} input")
        expect_gradcheck(
            ex.softplus,
            (x,),
            f"gradgradcheck of softplus on a {list(shape)} input (write backward with Tensor ops)",
            second_order=True,
        )


@check("ex3_hooks", "clip_gradient clamps what flows upstream, and remove() undoes it")
def _(ex):
    x = mg.tensor([1.0, -2.0, 0.5, 3.0], dtype=mg.float64, requires_grad=True)
    k = mg.tensor([4.0, -0.3, -7.0, 0.9], dtype=mg.float64)
    h = x * 3
    handle = ex.clip_gradient(h, 1.0)
    (h * k).sum().backward(retain_graph=True)
    what = "x.grad for h = 3x, loss = sum(h * [4, -0.3, -7, 0.9])"
    expect_close(x.grad, 3 * np.clip(k.numpy(), -1, 1), f"{what}, h's gradient clipped to ±1")
    handle.remove()
    x.grad = None
    (h * k).sum().backward()
    expect_close(x.grad, 3 * k.numpy(), f"{what}, after handle.remove()")


@check("ex3_hooks", "capture_grads sees every intermediate's gradient (as autograd.grad) and changes nothing")
def _(ex):
    rng = np.random.default_rng(7)
    W = mg.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    x = mg.tensor(rng.standard_normal(3))
    z = W @ x
    a = z.tanh()
    loss = (a * a).sum() + z.sum()
    want = dict(zip(["z", "a", "W"], grad(loss, (z, a, W), retain_graph=True)))
    seen = ex.capture_grads({"z": z, "a": a, "W": W})
    loss.backward()
    expect_equal(sorted(seen), sorted(want), "the names captured")
    for name, g in want.items():
        expect_close(seen[name], g, f"the gradient captured for {name}", rtol=1e-12)
    expect_close(W.grad, want["W"], "W.grad (the hooks must not change it)", rtol=1e-12)


@functools.cache
def demo_trace():
    return record_demo()


@check("ex4_predict_trace", "predict_contributions_into_h() counts the grad_accumulated events into h")
def _(ex):
    trace = demo_trace()
    want = len(contributions_into(trace, "h", pass_ids(trace)[0]))
    expect_prediction(ex.predict_contributions_into_h(), want, "the contributions into h")


@check("ex4_predict_trace", "predict_incoming_grad_of_h() is h's node_entered gradient (after the hook)")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "h")
    expect_prediction(ex.predict_incoming_grad_of_h(), want, "the gradient entering h", rtol=1e-5)


@check("ex4_predict_trace", "predict_closure_name_at_h() is the closure the debugger shows at h")
def _(ex):
    trace = demo_trace()
    want = trace.find("closure_called", "h")[0].closure.name
    expect_prediction(ex.predict_closure_name_at_h(), want, "the closure the debugger shows at h")


@check("ex4_predict_trace", "predict_gradcheck_first_seed() is the seed of gradcheck's first grad() pass")
def _(ex):
    trace = demo_trace()
    first = pass_ids(trace, "grad")[0]
    (seeded,) = trace.find("seeded", pass_id=first)
    expect_prediction(ex.predict_gradcheck_first_seed(), as_array(seeded.grad), "gradcheck's first seed")


@check("ex1_square", "Square's value and gradient match x * x, and gradcheck/gradgradcheck pass")
def _(ex):
    reference = load_reference("ex1_square").Square
    with explained_by_trace(*function_runs(ex.Square.apply, reference.apply, np.array([-1.5, 0.0, 2.0]))):
        x = mg.tensor([-1.5, 0.0, 2.0], dtype=mg.float64, requires_grad=True)
        y = ex.Square.apply(x)
        expect_close(y.detach(), [2.25, 0.0, 4.0], "Square.apply(x) for x = [-1.5, 0, 2]")
        y.sum().backward()
        expect_close(x.grad, [-3.0, 0.0, 4.0], "x.grad (2x) for x = [-1.5, 0, 2]")
    x64 = mg.tensor([0.3, -1.2], dtype=mg.float64, requires_grad=True)
    expect_gradcheck(ex.Square.apply, (x64,), "gradcheck of Square")
    expect_gradcheck(
        ex.Square.apply, (x64,), "gradgradcheck of Square (write backward with Tensor ops)", second_order=True
    )


def cube_with(rule):
    """Cube (y = x**3) as a Function whose backward is ``rule(x, g)``: the learner's cube_backward or the reference's."""

    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return rule(x, g)

    return Cube


@check("ex5_find_the_bug", "buggy_grad_of_x() is what the buggy Cube.backward returns")
def _(ex):
    trace, _ = record_call(ex.run_buggy)
    closure = next(e for e in trace.find("closure_called") if trace.nodes[e.node].op == "Cube")
    want = as_array(closure.outputs[0])
    expect_prediction(np.asarray(ex.buggy_grad_of_x(), dtype=float), want, "the buggy gradient of x")


@check("ex5_find_the_bug", "Cube with cube_backward passes gradcheck and gradgradcheck")
def _(ex):
    cube = cube_with(ex.cube_backward)
    reference = cube_with(load_reference("ex5_find_the_bug").cube_backward)
    with explained_by_trace(*function_runs(cube.apply, reference.apply, np.array([1.0, 2.0, -3.0]))):
        x = mg.tensor([1.0, 2.0, -3.0], dtype=mg.float64, requires_grad=True)
        cube.apply(x).sum().backward()
        expect_close(x.grad, [3.0, 12.0, 27.0], "x.grad (3x²) for x = [1, 2, -3]")
    x64 = mg.tensor([0.4, -1.1], dtype=mg.float64, requires_grad=True)
    expect_gradcheck(cube.apply, (x64,), "gradcheck of Cube with your backward")
    expect_gradcheck(cube.apply, (x64,), "gradgradcheck of Cube (write the rule with Tensor ops)", second_order=True)
