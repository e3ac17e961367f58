"""Checks for lesson 6: gradcheck/gradgradcheck, minigrad's own softplus as the oracle,
hooks against autograd.grad, and predictions against the demo's recorded trace."""

import functools
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import minigrad as mg
from minigrad.autograd import Function, grad, gradcheck, gradgradcheck
from minigrad.course import check
from minigrad.course.recording import as_array, contributions_into, incoming_grads, pass_ids, record_call, record_demo

finite64 = arrays(np.float64, st.integers(1, 6), elements=st.floats(-30, 30))


@check("ex2_softplus", "Softplus is a Function and its node carries the op name 'Softplus'")
def _(ex):
    assert issubclass(ex.Softplus, Function), "Softplus must subclass minigrad.autograd.Function"
    y = ex.softplus(mg.tensor([0.5], requires_grad=True))
    assert y.op == "Softplus", f"the output's op is {y.op!r}: call Softplus.apply, not a built-in op"


@check("ex2_softplus", "forward matches log(1 + e^x), gradient matches minigrad's softplus, on random inputs")
def _(ex):
    @settings(max_examples=25, deadline=None)
    @given(finite64)
    def prop(x):
        t = mg.tensor(x, requires_grad=True)
        y = ex.softplus(t)
        np.testing.assert_allclose(y.detach().numpy(), np.logaddexp(0.0, x), rtol=1e-12, atol=1e-300)
        (got,) = grad(y.sum(), t)
        (want,) = grad(t.softplus(threshold=math.inf).sum(), t)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-300)

    prop()


@check("ex2_softplus", "stable at ±1000: finite values 0 and 1000, gradients 0 and 1")
def _(ex):
    x = mg.tensor([-1000.0, -50.0, 0.0, 50.0, 1000.0], dtype=mg.float64, requires_grad=True)
    y = ex.softplus(x)
    values = y.detach().numpy()
    assert np.isfinite(values).all(), f"softplus overflowed: {values}"
    np.testing.assert_allclose(values, [0.0, math.log1p(math.exp(-50)), math.log(2), 50.0, 1000.0], rtol=1e-12)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 1 / (1 + math.exp(50)), 0.5, 1.0, 1.0], rtol=1e-12, atol=1e-300)


@check("ex2_softplus", "gradcheck and gradgradcheck pass in float64")
def _(ex):
    rng = np.random.default_rng(6)
    for shape in [(5,), (3, 4)]:
        x = mg.tensor(rng.standard_normal(shape) * 3, dtype=mg.float64, requires_grad=True)
        assert gradcheck(ex.softplus, (x,))
        assert gradgradcheck(ex.softplus, (x,)), "backward must use Tensor ops so it can be differentiated"


@check("ex3_hooks", "clip_gradient clamps what flows upstream, and remove() undoes it")
def _(ex):
    x = mg.tensor([1.0, -2.0, 0.5, 3.0], dtype=mg.float64, requires_grad=True)
    k = mg.tensor([4.0, -0.3, -7.0, 0.9], dtype=mg.float64)
    h = x * 3
    handle = ex.clip_gradient(h, 1.0)
    (h * k).sum().backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), 3 * np.clip(k.numpy(), -1, 1), err_msg="x.grad with the clip")
    handle.remove()
    x.grad = None
    (h * k).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * k.numpy(), err_msg="x.grad after handle.remove()")


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
    assert set(seen) == set(want), f"captured {sorted(seen)}, expected {sorted(want)}"
    for name, g in want.items():
        np.testing.assert_allclose(seen[name].numpy(), g.numpy(), rtol=1e-12, err_msg=f"gradient of {name}")
    np.testing.assert_allclose(W.grad.numpy(), want["W"].numpy(), rtol=1e-12, err_msg="W.grad changed")


@functools.cache
def demo_trace():
    return record_demo(6)


@check("ex4_predict_trace", "predict_contributions_into_h() counts the grad_accumulated events into h")
def _(ex):
    trace = demo_trace()
    want = len(contributions_into(trace, "h", pass_ids(trace)[0]))
    got = ex.predict_contributions_into_h()
    assert got == want, f"you predicted {got}; the trace has {want}"


@check("ex4_predict_trace", "predict_incoming_grad_of_h() is h's node_entered gradient (after the hook)")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "h")
    np.testing.assert_allclose(ex.predict_incoming_grad_of_h(), want, rtol=1e-5, err_msg="the gradient entering h")


@check("ex4_predict_trace", "predict_closure_name_at_h() is the closure the debugger shows at h")
def _(ex):
    trace = demo_trace()
    want = trace.find("closure_called", "h")[0].closure.name
    got = ex.predict_closure_name_at_h()
    assert got == want, f"you predicted {got!r}; the debugger shows {want!r}"


@check("ex4_predict_trace", "predict_gradcheck_first_seed() is the seed of gradcheck's first grad() pass")
def _(ex):
    trace = demo_trace()
    first = pass_ids(trace, "grad")[0]
    (seeded,) = trace.find("seeded", pass_id=first)
    np.testing.assert_allclose(ex.predict_gradcheck_first_seed(), as_array(seeded.grad), err_msg="the first seed")


@check("ex1_square", "Square's value and gradient match x * x, and gradcheck/gradgradcheck pass")
def _(ex):
    x = mg.tensor([-1.5, 0.0, 2.0], dtype=mg.float64, requires_grad=True)
    y = ex.Square.apply(x)
    np.testing.assert_allclose(y.detach().numpy(), [2.25, 0.0, 4.0], err_msg="Square.apply(x) for x = [-1.5, 0, 2]")
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [-3.0, 0.0, 4.0], err_msg="x.grad (2x) for x = [-1.5, 0, 2]")
    x64 = mg.tensor([0.3, -1.2], dtype=mg.float64, requires_grad=True)
    assert gradcheck(ex.Square.apply, (x64,)), "gradcheck of Square"
    assert gradgradcheck(ex.Square.apply, (x64,)), "gradgradcheck of Square (write backward with Tensor ops)"


class _CubeChecked(Function):
    """Cube with the learner's cube_backward, for the checks."""

    backward_rule = None

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return _CubeChecked.backward_rule(x, g)


@check("ex5_find_the_bug", "buggy_grad_of_x() is what the buggy Cube.backward returns")
def _(ex):
    trace, _ = record_call(ex.run_buggy)
    closure = next(e for e in trace.find("closure_called") if trace.nodes[e.node].op == "Cube")
    want = as_array(closure.outputs[0])
    np.testing.assert_allclose(np.asarray(ex.buggy_grad_of_x(), dtype=float), want, err_msg="the buggy gradient of x")


@check("ex5_find_the_bug", "Cube with cube_backward passes gradcheck and gradgradcheck")
def _(ex):
    _CubeChecked.backward_rule = ex.cube_backward
    x = mg.tensor([1.0, 2.0, -3.0], dtype=mg.float64, requires_grad=True)
    _CubeChecked.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0, 27.0], err_msg="x.grad (3x²) for x = [1, 2, -3]")
    x64 = mg.tensor([0.4, -1.1], dtype=mg.float64, requires_grad=True)
    assert gradcheck(_CubeChecked.apply, (x64,)), "gradcheck of Cube with your backward"
    assert gradgradcheck(_CubeChecked.apply, (x64,)), "gradgradcheck of Cube (write the rule with Tensor ops)"
