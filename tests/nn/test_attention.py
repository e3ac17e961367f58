"""scaled_dot_product_attention as one node: its closed-form rule against finite differences (first and
second order), against torch's gradients, in forward mode and under vmap; dropout keeps the composed path."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.func as mf
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.nn.functional._attention import scores_grad

from ..conftest import rand64

torch = pytest.importorskip("torch")

_BOOL_MASK = np.random.default_rng(5).uniform(size=(5, 6)) > 0.3
_BOOL_MASK[:, 0] = True  # every query attends to at least one key

CASES = {
    "plain": lambda: {},
    "causal": lambda: {"is_causal": True},
    "scale": lambda: {"scale": 0.3},
    "bool_mask": lambda: {"attn_mask": mg.tensor(_BOOL_MASK)},
}


def _qkv():
    return rand64(2, 3, 5, 4), rand64(2, 3, 6, 4), rand64(2, 3, 6, 2)


@pytest.mark.parametrize("case", CASES)
def test_attention_gradcheck_and_gradgradcheck(case):
    kw = CASES[case]()

    def attend(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, **kw)

    assert gradcheck(attend, _qkv())
    assert gradgradcheck(attend, _qkv())


def test_attention_float_mask_gets_the_score_gradient():
    """A float mask is added to the scores: its gradient (summed over the batch it broadcasts over) is dS."""

    def attend(q, k, v, m):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m)

    args = (*_qkv(), rand64(5, 6))
    assert gradcheck(attend, args)
    assert gradgradcheck(attend, args)


@pytest.mark.parametrize("case", [*CASES, "float_mask"])
def test_attention_matches_torch_values_and_gradients(case):
    g = np.random.default_rng(1)
    arrays = [g.standard_normal(s) for s in ((2, 3, 5, 4), (2, 3, 6, 4), (2, 3, 6, 2))]
    mask = g.standard_normal((5, 6)) if case == "float_mask" else None
    kw = {"attn_mask": mask} if case == "float_mask" else dict(CASES[case]())
    if case == "bool_mask":
        kw["attn_mask"] = _BOOL_MASK
    ours = [mg.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    our_kw, their_kw = dict(kw), dict(kw)
    if "attn_mask" in kw:
        our_kw["attn_mask"] = mg.tensor(kw["attn_mask"], requires_grad=case == "float_mask")
        their_kw["attn_mask"] = torch.tensor(kw["attn_mask"], requires_grad=case == "float_mask")
    if case == "float_mask":
        ours.append(our_kw["attn_mask"])
        theirs.append(their_kw["attn_mask"])
    out = F.scaled_dot_product_attention(*ours[:3], **our_kw)
    expected = torch.nn.functional.scaled_dot_product_attention(*theirs[:3], **their_kw)
    seed = g.standard_normal(expected.shape)
    out.backward(mg.tensor(seed))
    expected.backward(torch.tensor(seed))
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), atol=1e-12)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=1e-12)


def test_attention_is_one_node_of_query_key_and_value():
    q, k, v = _qkv()
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    assert out.op == "scaled_dot_product_attention"
    assert out.parents == (q, k, v)


def test_attention_float32_causal_matches_torch():
    """nanoGPT's call (float32, is_causal, views of one projection) equals torch's to float32 rounding."""
    g = np.random.default_rng(2)
    qkv = g.standard_normal((2, 7, 3 * 8)).astype(np.float32)

    def heads(lib, t):
        q, k, v = t.split(8, dim=2)
        return [u.view(2, 7, 2, 4).transpose(1, 2) for u in (q, k, v)]

    ours = F.scaled_dot_product_attention(*heads(mg, mg.tensor(qkv)), attn_mask=None, dropout_p=0, is_causal=True)
    theirs = torch.nn.functional.scaled_dot_product_attention(*heads(torch, torch.tensor(qkv)), is_causal=True)
    assert ours.dtype == mg.float32
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("row_shift", [-30.0, -1e4])
def test_attention_rows_far_below_the_matrix_maximum_match_torch(dtype, row_shift):
    """Softmax's exp is shifted by each matrix's maximum where that keeps every row's precision: a row whose
    scores lie 30 below the others' stays on that path, one 1e4 below (its terms underflow) takes each row's
    own maximum; both give torch's weights, values and gradients to the dtype's rounding."""
    g = np.random.default_rng(4)
    arrays = [g.standard_normal(s).astype(dtype) for s in ((2, 3, 5, 4), (2, 3, 6, 4), (2, 3, 6, 2))]
    mask = g.standard_normal((5, 6)).astype(dtype)
    mask[1::2] += row_shift
    ours = [mg.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    out = F.scaled_dot_product_attention(*ours, attn_mask=mg.tensor(mask))
    expected = torch.nn.functional.scaled_dot_product_attention(*theirs, attn_mask=torch.tensor(mask))
    seed = g.standard_normal(expected.shape).astype(dtype)
    out.backward(mg.tensor(seed))
    expected.backward(torch.tensor(seed))
    tol = {"float32": 1e-5, "float64": 1e-12}[dtype]
    assert out.dtype == getattr(mg, dtype)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=tol, atol=tol)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=tol, atol=tol)


def test_scores_grad_is_softmaxs_input_gradient_and_differentiates_in_each_argument():
    """The attention rule's dS = P * (dP - rowsum(dP * P)) is one node: softmax's vector-Jacobian product, and
    its own rule (in dP and in P) passes gradcheck, gradgradcheck and the forward-mode check."""
    scores, dp = rand64(2, 3, 4), rand64(2, 3, 4)
    weights = scores.detach().softmax(-1).requires_grad_()
    (expected,) = mg.autograd.grad(scores.softmax(-1), (scores,), dp.detach())
    np.testing.assert_allclose(scores_grad(dp.detach(), weights.detach()).numpy(), expected.numpy(), rtol=1e-12)
    assert scores_grad(dp, weights).op == "attention_scores_grad"
    assert gradcheck(scores_grad, (dp, weights))
    assert gradgradcheck(scores_grad, (dp, weights))
    tangents = (rand64(2, 3, 4), rand64(2, 3, 4))
    _, tangent = mf.jvp(scores_grad, (dp.detach(), weights.detach()), tuple(t.detach() for t in tangents))
    eps = 1e-6
    plus, minus = (
        scores_grad(
            *(mg.tensor(a.detach().numpy() + sign * eps * t.detach().numpy()) for a, t in zip((dp, weights), tangents))
        )
        for sign in (1, -1)
    )
    np.testing.assert_allclose(tangent.numpy(), (plus.numpy() - minus.numpy()) / (2 * eps), rtol=1e-6, atol=1e-8)


def test_attention_jvp_matches_finite_differences():
    g = np.random.default_rng(3)
    primals = [mg.tensor(g.standard_normal(s)) for s in ((2, 5, 4), (2, 6, 4), (2, 6, 3))]
    tangents = [mg.tensor(g.standard_normal(p.shape)) for p in primals]
    mask = mg.tensor(g.standard_normal((5, 6)))

    def attend(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)

    _, tangent = mf.jvp(attend, tuple(primals), tuple(tangents))
    eps = 1e-6
    shifted = [
        attend(*(mg.tensor(p.numpy() + sign * eps * t.numpy()) for p, t in zip(primals, tangents))).numpy()
        for sign in (1, -1)
    ]
    np.testing.assert_allclose(tangent.numpy(), (shifted[0] - shifted[1]) / (2 * eps), atol=1e-7)


def test_attention_hvp_through_the_rule():
    """Forward over reverse: the rule's weights carry their own tangent (their rule, attention_weights')."""
    q, k, v = (a.detach() for a in _qkv())

    def loss(q):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True).square().sum()

    direction = mg.tensor(np.random.default_rng(4).standard_normal(q.shape))
    _, hvp = mf.jvp(mf.grad(loss), (q,), (direction,))
    eps = 1e-6
    plus, minus = (mf.grad(loss)(mg.tensor(q.numpy() + s * eps * direction.numpy())).numpy() for s in (1, -1))
    np.testing.assert_allclose(hvp.numpy(), (plus - minus) / (2 * eps), atol=1e-6)


def test_attention_under_vmap_equals_the_loop():
    q, k, v = (a.detach() for a in _qkv())
    batched = mf.vmap(lambda a, b: F.scaled_dot_product_attention(a, b, v[0], is_causal=True))(q, k)
    looped = mg.stack([F.scaled_dot_product_attention(q[i], k[i], v[0], is_causal=True) for i in range(2)])
    np.testing.assert_allclose(batched.numpy(), looped.numpy(), atol=1e-12)


def test_attention_with_dropout_zeroes_and_rescales_weights():
    mg.manual_seed(0)
    q, k, v = rand64(1, 4, 3), rand64(1, 4, 3), mg.ones(1, 4, 2, dtype=mg.float64)
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    # each output row is the sum of its kept weights / 0.5: a multiple of 2 times a sum of softmax weights
    assert out.shape == (1, 4, 2)
    assert np.all(out.detach().numpy() >= 0)


def test_attention_over_a_long_float32_row_normalises_to_pairwise_accuracy():
    """65 536 keys, one scored ln(10) above the rest: each other weight is 1 / (10 + 65 535) to float32
    accuracy (the softmax's row sum added in order was off by 1e-5 relative)."""
    keys = np.zeros((1, 65_536, 1), np.float32)
    keys[0, 0, 0] = np.log(10)
    values = np.zeros((1, 65_536, 1), np.float32)
    values[0, 1, 0] = 1.0
    out = F.scaled_dot_product_attention(mg.tensor(np.ones((1, 1, 1), np.float32)), mg.tensor(keys), mg.tensor(values))
    expected = 1 / (10 + 65_535)
    assert abs(float(out.numpy()[0, 0, 0]) - expected) / expected <= 3e-7
