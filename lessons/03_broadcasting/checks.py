"""Checks for lesson 3: minigrad's own ops as the oracle, on random broadcast shapes; predictions
against the demo's recorded trace."""

import functools

import numpy as np

import minigrad as mg
from minigrad.autograd import Function
from minigrad.course import check
from minigrad.course.cases import rng
from minigrad.course.checking import load_reference
from minigrad.course.expect import expect_close, expect_equal, expect_prediction
from minigrad.course.recording import as_array, incoming_grads, record_call, record_demo
from minigrad.course.tracediff import explained_by_trace


def broadcast_cases(n: int, seed: int) -> list:
    """``n`` (parent shape, output shape) pairs: the output may add leading dims and stretch the 1s."""
    draw = rng(seed)
    cases = [((), ()), ((1,), (3,)), ((3,), (2, 3)), ((2, 1), (2, 3)), ((1, 1), (4, 2, 3))]
    while len(cases) < n:
        shape = tuple(int(k) for k in draw.integers(1, 5, int(draw.integers(0, 4))))
        lead = [int(k) for k in draw.integers(1, 4, int(draw.integers(0, 3)))]
        out = lead + [k if k != 1 else int(draw.integers(1, 4)) for k in shape]
        cases.append((shape, tuple(out)))
    return cases


@check("ex1_reduced_dims", "the examples: (3,) in (2, 3) sums dim 0; (4, 1) in (4, 5) sums dim 1")
def _(ex):
    for parent, output, want in [((3,), (2, 3), (0,)), ((4, 1), (4, 5), (1,)), ((2, 3), (2, 3), ())]:
        expect_equal(
            tuple(ex.reduced_dims(parent, output)), want, f"the dims reduced for a {parent} parent in a {output} output"
        )


@check("ex1_reduced_dims", "matches the engine's grad_reduced dims for random broadcast shapes")
def _(ex):
    for shape, out_shape in broadcast_cases(40, seed=31):
        p = mg.zeros(shape, requires_grad=True)
        trace, _ = record_call(lambda p=p, out_shape=out_shape: (p + mg.zeros(out_shape)).sum().backward())
        reductions = [e for e in trace.find("grad_reduced") if e.target == p.id]
        want = tuple(reductions[0].dims) if reductions else ()
        got = tuple(ex.reduced_dims(shape, out_shape))
        expect_equal(got, want, f"the dims reduced for a {shape} parent in a {out_shape} output")


@check("ex2_unbroadcast", "matches minigrad's add backward for random broadcast shapes")
def _(ex):
    draw = rng(32)
    for shape, out_shape in broadcast_cases(60, seed=33):
        g = draw.standard_normal(out_shape)
        p = mg.zeros(shape, dtype=mg.float64, requires_grad=True)
        (p + mg.zeros(out_shape, dtype=mg.float64)).backward(mg.tensor(g))
        got = np.asarray(ex.unbroadcast(g, shape))
        expect_close(got, p.grad, f"unbroadcast of a {out_shape} gradient to {shape}", rtol=1e-12, atol=1e-12)


@check("ex3_matmul_backward", "matches minigrad for 2-D operands")
def _(ex):
    rng = np.random.default_rng(3)
    for n, k, m in [(2, 3, 4), (1, 5, 1), (4, 4, 4)]:
        A, B, G = rng.standard_normal((n, k)), rng.standard_normal((k, m)), rng.standard_normal((n, m))
        _compare(ex, A, B, G)


@check("ex3_matmul_backward", "matches minigrad for a batched A and a shared B")
def _(ex):
    rng = np.random.default_rng(4)
    A, B, G = rng.standard_normal((3, 2, 5)), rng.standard_normal((5, 4)), rng.standard_normal((3, 2, 4))
    _compare(ex, A, B, G)


def _compare(ex, A, B, G):
    tA = mg.tensor(A, requires_grad=True)
    tB = mg.tensor(B, requires_grad=True)
    (tA @ tB).backward(mg.tensor(G))
    dA, dB = ex.matmul_backward(A, B, G)
    where = f"for A of shape {A.shape} and B of shape {B.shape}"
    expect_close(dA, tA.grad, f"dL/dA {where}", rtol=1e-10)
    expect_close(dB, tB.grad, f"dL/dB {where}", rtol=1e-10)


@functools.cache
def demo_trace():
    return record_demo()


@check("ex4_predict_trace", "predict_grad_entering_h() is the gradient the demo's pass brings into h")
def _(ex):
    want = incoming_grads(demo_trace(), "h")[0]
    expect_prediction(np.asarray(ex.predict_grad_entering_h(), dtype=float), want, "the gradient entering h")


@check("ex4_predict_trace", "predict_reduction_of_b() is the demo's reduction of b's gradient")
def _(ex):
    answer = ex.predict_reduction_of_b()
    trace = demo_trace()
    (reduction,) = [e for e in trace.find("grad_reduced") if e.target == trace.node("b").id]
    want = {"from": tuple(reduction.from_shape), "to": tuple(reduction.to_shape), "dims": tuple(reduction.dims)}
    got = {key: tuple(answer[key]) for key in want}
    expect_prediction(got, want, "the reduction into b")
    expect_prediction(
        np.asarray(answer["reduced"], dtype=float), as_array(reduction.reduced), "the reduced gradient of b"
    )


@check("ex4_predict_trace", "predict_W_grad() is W.grad at the end of the demo")
def _(ex):
    want = incoming_grads(demo_trace(), "W")[0]
    expect_prediction(np.asarray(ex.predict_W_grad(), dtype=float), want, "W.grad")


@check("ex5_find_the_bug", "buggy_b_grad() is what the buggy BiasAdd.backward returns for b")
def _(ex):
    trace, _ = record_call(ex.run_buggy)
    closure = trace.find("closure_called")[-1]  # BiasAdd's, the last node the pass visits
    want = as_array(closure.outputs[1])
    expect_prediction(np.asarray(ex.buggy_b_grad(), dtype=float), want, "the buggy gradient of b")


@check("ex5_find_the_bug", "bias_grad(g) is dL/db for any batch (a square one included)")
def _(ex):
    rng = np.random.default_rng(5)
    reference = bias_add_with(load_reference("ex5_find_the_bug").bias_grad)
    for rows, cols in [(3, 3), (4, 2), (1, 5)]:
        x = mg.tensor(rng.standard_normal((rows, cols)))
        b = mg.tensor(rng.standard_normal(cols), requires_grad=True)
        g = mg.tensor(rng.standard_normal((rows, cols)))
        (x + b).backward(g)
        runs = (bias_add_run(bias_add_with(ex.bias_grad), x, b, g), bias_add_run(reference, x, b, g))
        with explained_by_trace(*runs):
            expect_close(ex.bias_grad(g), b.grad, f"dL/db for a {rows}x{cols} batch", rtol=1e-6)


def bias_add_with(bias_grad):
    """BiasAdd (out = x + b, b broadcast over the rows) as a Function whose rule gives b ``bias_grad(g)``."""

    class BiasAdd(Function):
        @staticmethod
        def forward(ctx, x, b):
            return x + b

        @staticmethod
        def backward(ctx, g):
            return g, bias_grad(g)

    return BiasAdd


def bias_add_run(bias_add, x, b, g):
    """``bias_add.apply(x, b).backward(g)`` on fresh leaves x and b with the values of ``x`` and ``b``."""

    def run():
        x_ = mg.tensor(x.numpy(), name="x")
        b_ = mg.tensor(b.detach().numpy(), requires_grad=True, name="b")
        bias_add.apply(x_, b_).backward(g)

    return run
