"""Checks for lesson 3: minigrad's own ops as the oracle, on hypothesis-generated shapes; predictions
against the demo's recorded trace."""

import functools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.course import check
from minigrad.course.recording import as_array, incoming_grads, record_call, record_demo


@st.composite
def broadcast_case(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=0, max_size=3)))
    out = list(draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))) + [
        n if n != 1 else draw(st.integers(1, 3)) for n in shape
    ]
    return shape, tuple(out)


@check("ex1_reduced_dims", "the examples: (3,) in (2, 3) sums dim 0; (4, 1) in (4, 5) sums dim 1")
def _(ex):
    for parent, output, want in [((3,), (2, 3), (0,)), ((4, 1), (4, 5), (1,)), ((2, 3), (2, 3), ())]:
        got = tuple(ex.reduced_dims(parent, output))
        assert got == want, f"a {parent} parent in a {output} output: expected dims {want}, got {got}"


@check("ex1_reduced_dims", "matches the engine's grad_reduced dims for random broadcast shapes")
def _(ex):
    @settings(max_examples=40, deadline=None)
    @given(broadcast_case())
    def prop(case):
        shape, out_shape = case
        p = mg.zeros(shape, requires_grad=True)
        trace, _ = record_call(lambda: (p + mg.zeros(out_shape)).sum().backward())
        reductions = [e for e in trace.find("grad_reduced") if e.target == p._id]
        want = tuple(reductions[0].dims) if reductions else ()
        got = tuple(ex.reduced_dims(shape, out_shape))
        assert got == want, f"a {shape} parent in a {out_shape} output: expected dims {want}, got {got}"

    prop()


@check("ex2_unbroadcast", "matches minigrad's add backward for random broadcast shapes")
def _(ex):
    @settings(max_examples=60, deadline=None)
    @given(broadcast_case(), st.integers(0, 2**16))
    def prop(case, seed):
        shape, out_shape = case
        g = np.random.default_rng(seed).standard_normal(out_shape)
        p = mg.zeros(shape, dtype=mg.float64, requires_grad=True)
        (p + mg.zeros(out_shape, dtype=mg.float64)).backward(mg.tensor(g))
        got = np.asarray(ex.unbroadcast(g, shape))
        assert got.shape == shape, f"unbroadcast to {shape} returned shape {got.shape}"
        np.testing.assert_allclose(got, p.grad.numpy(), rtol=1e-12, atol=1e-12)

    prop()


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
    assert np.shape(dA) == A.shape, f"dL/dA must have A's shape {A.shape}, got {np.shape(dA)}"
    assert np.shape(dB) == B.shape, f"dL/dB must have B's shape {B.shape}, got {np.shape(dB)}"
    np.testing.assert_allclose(dA, tA.grad.numpy(), rtol=1e-10, err_msg="dL/dA")
    np.testing.assert_allclose(dB, tB.grad.numpy(), rtol=1e-10, err_msg="dL/dB")


@functools.cache
def demo_trace():
    return record_demo(3)


@check("ex4_predict_trace", "predict_grad_entering_h() is the gradient the demo's pass brings into h")
def _(ex):
    want = incoming_grads(demo_trace(), "h")[0]
    got = np.asarray(ex.predict_grad_entering_h(), dtype=float)
    assert got.shape == want.shape, f"dL/dh has h's shape {want.shape}; your answer has shape {got.shape}"
    np.testing.assert_allclose(got, want, err_msg="the gradient entering h")


@check("ex4_predict_trace", "predict_reduction_of_b() is the demo's reduction of b's gradient")
def _(ex):
    answer = ex.predict_reduction_of_b()
    trace = demo_trace()
    (reduction,) = [e for e in trace.find("grad_reduced") if e.target == trace.node("b").id]
    want = {"from": tuple(reduction.from_shape), "to": tuple(reduction.to_shape), "dims": tuple(reduction.dims)}
    got = {key: tuple(answer[key]) for key in want}
    assert got == want, f"the reduction into b: expected {want}, got {got}"
    np.testing.assert_allclose(
        np.asarray(answer["reduced"], dtype=float), as_array(reduction.reduced), err_msg="the reduced gradient of b"
    )


@check("ex4_predict_trace", "predict_W_grad() is W.grad at the end of the demo")
def _(ex):
    want = incoming_grads(demo_trace(), "W")[0]
    np.testing.assert_allclose(np.asarray(ex.predict_W_grad(), dtype=float), want, err_msg="W.grad")


@check("ex5_find_the_bug", "buggy_b_grad() is what the buggy BiasAdd.backward returns for b")
def _(ex):
    trace, _ = record_call(ex.run_buggy)
    closure = trace.find("closure_called")[-1]  # BiasAdd's, the last node the pass visits
    want = as_array(closure.outputs[1])
    np.testing.assert_allclose(np.asarray(ex.buggy_b_grad(), dtype=float), want, err_msg="the buggy gradient of b")


@check("ex5_find_the_bug", "bias_grad(g) is dL/db for any batch (a square one included)")
def _(ex):
    rng = np.random.default_rng(5)
    for rows, cols in [(3, 3), (4, 2), (1, 5)]:
        x = mg.tensor(rng.standard_normal((rows, cols)))
        b = mg.tensor(rng.standard_normal(cols), requires_grad=True)
        g = mg.tensor(rng.standard_normal((rows, cols)))
        (x + b).backward(g)
        got = ex.bias_grad(g)
        np.testing.assert_allclose(
            np.asarray(got.numpy() if hasattr(got, "numpy") else got),
            b.grad.numpy(),
            rtol=1e-6,
            err_msg=f"dL/db for a {rows}x{cols} batch",
        )
