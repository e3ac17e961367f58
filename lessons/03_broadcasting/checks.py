"""Checks for lesson 3: minigrad's own ops as the oracle, on hypothesis-generated shapes."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.course import check


@st.composite
def broadcast_case(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=0, max_size=3)))
    out = list(draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))) + [
        n if n != 1 else draw(st.integers(1, 3)) for n in shape
    ]
    return shape, tuple(out)


@check("ex1_unbroadcast", "matches minigrad's add backward for random broadcast shapes")
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


@check("ex2_matmul_backward", "matches minigrad for 2-D operands")
def _(ex):
    rng = np.random.default_rng(3)
    for n, k, m in [(2, 3, 4), (1, 5, 1), (4, 4, 4)]:
        A, B, G = rng.standard_normal((n, k)), rng.standard_normal((k, m)), rng.standard_normal((n, m))
        _compare(ex, A, B, G)


@check("ex2_matmul_backward", "matches minigrad for a batched A and a shared B")
def _(ex):
    rng = np.random.default_rng(4)
    A, B, G = rng.standard_normal((3, 2, 5)), rng.standard_normal((5, 4)), rng.standard_normal((3, 2, 4))
    _compare(ex, A, B, G)


def _compare(ex, A, B, G):
    tA = mg.tensor(A, requires_grad=True)
    tB = mg.tensor(B, requires_grad=True)
    (tA @ tB).backward(mg.tensor(G))
    dA, dB = ex.matmul_backward(A, B, G)
    assert np.shape(dA) == A.shape and np.shape(dB) == B.shape, "gradients must have the shapes of A and B"
    np.testing.assert_allclose(dA, tA.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(dB, tB.grad.numpy(), rtol=1e-10)
