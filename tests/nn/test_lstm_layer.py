"""nn.LSTM's layers as one ``lstm_layer`` op each: the gradients of every output (the sequence, h_n and c_n)
as torch's, second derivatives, the forward-mode tangent."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck

CONFIGS = [{"num_layers": 2}, {"bidirectional": True}, {"bias": False}]


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("kwargs", CONFIGS, ids=lambda k: ",".join(k))
def test_gradients_through_the_final_states_match_torch(kwargs):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    theirs = torch.nn.LSTM(3, 4, **kwargs).double()
    ours = mg.nn.LSTM(3, 4, **kwargs, dtype=mg.float64)
    ours.load_state_dict(theirs.state_dict())
    layers = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    arrays = [_rand(5, 2, 3), _rand(layers, 2, 4, seed=1), _rand(layers, 2, 4, seed=2)]
    mx, mh, mc = (mg.tensor(a, requires_grad=True) for a in arrays)
    tx, th, tc = (torch.tensor(a, requires_grad=True) for a in arrays)
    (mo, (mhn, mcn)), (to, (thn, tcn)) = ours(mx, (mh, mc)), theirs(tx, (th, tc))
    weights = [_rand(*t.shape, seed=3 + k) for k, t in enumerate((to, thn, tcn))]
    sum((m * mg.tensor(w)).sum() for m, w in zip((mo, mhn, mcn), weights)).backward()
    sum((t * torch.tensor(w)).sum() for t, w in zip((to, thn, tcn), weights)).backward()
    for m, t in [(mx, tx), (mh, th), (mc, tc)] + list(zip(ours.parameters(), theirs.parameters())):
        np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-9, atol=1e-12)


def test_lstm_is_twice_differentiable_in_its_inputs_and_weights():
    mg.manual_seed(0)
    lstm = mg.nn.LSTM(2, 3, num_layers=2, dtype=mg.float64)
    x, h0, c0 = (mg.tensor(_rand(4, 2, s, seed=k), requires_grad=True) for k, s in enumerate((2, 3, 3)))
    h0, c0 = h0[:2].detach().requires_grad_(), c0[:2].detach().requires_grad_()
    params = tuple(lstm.parameters())

    def f(x, h0, c0, *weights):
        out, (hn, cn) = lstm(x, (h0, c0))
        return out.tanh().sum(0) + cn.sum(0)

    assert gradcheck(f, (x, h0, c0) + params)
    assert gradgradcheck(f, (x, h0, c0) + params[:2])


def test_forward_mode_tangent_is_the_directional_derivative():
    mg.manual_seed(0)
    lstm = mg.nn.LSTM(3, 4, bidirectional=True, dtype=mg.float64)
    x, t = mg.tensor(_rand(5, 2, 3)), mg.tensor(_rand(5, 2, 3, seed=1))
    out, tangent = mg.func.jvp(lambda x: lstm(x)[0], (x,), (t,))
    step = 1e-6
    expected = (lstm(x + step * t)[0] - lstm(x - step * t)[0]) / (2 * step)
    np.testing.assert_allclose(tangent.detach().numpy(), expected.detach().numpy(), rtol=1e-6, atol=1e-8)


def test_the_op_is_twice_differentiable_in_every_operand():
    """Second derivatives run through the rules of ``lstm_through_time`` (the op the layer's rule calls), the
    bias and c0 included."""
    from minigrad.nn.functional._lstm_layer import lstm_layer

    shapes = [(4, 2, 3), (8, 3), (8, 2), (8,), (2, 2), (2, 2)]  # x, W_ih, W_hh, b, h0, c0 of 2 units
    args = tuple(mg.tensor(_rand(*s, seed=k) * 0.5, requires_grad=True) for k, s in enumerate(shapes))

    def f(*operands):
        return lstm_layer(*operands).tanh()

    assert gradcheck(f, args)
    assert gradgradcheck(f, args)


def test_forward_over_reverse_equals_reverse_over_reverse():
    """A Hessian-vector product through the LSTM by jvp of its gradient (``lstm_through_time``'s forward-mode
    rule) equals the one by differentiating the gradient again (its backward rule)."""
    mg.manual_seed(0)
    lstm = mg.nn.LSTM(3, 4, num_layers=2, dtype=mg.float64)
    x, v = mg.tensor(_rand(5, 2, 3)), mg.tensor(_rand(5, 2, 3, seed=1))

    def loss(x):
        out, (_, cn) = lstm(x)
        return out.tanh().sum() + (cn * cn).sum()

    _, forward_over_reverse = mg.func.jvp(mg.func.grad(loss), (x,), (v,))
    x = x.detach().requires_grad_()
    (g,) = mg.autograd.grad(loss(x), x, create_graph=True)
    (g * v).sum().backward()
    np.testing.assert_allclose(forward_over_reverse.detach().numpy(), x.grad.numpy(), rtol=1e-9, atol=1e-12)


def test_third_derivative_matches_finite_differences_of_the_second():
    """``lstm_through_time``'s rules are tensor ops, so differentiating them once more is exact too."""
    mg.manual_seed(0)
    lstm = mg.nn.LSTM(2, 3, dtype=mg.float64)
    x = mg.tensor(_rand(4, 2, 2))

    def second(scale):
        (d1,) = mg.autograd.grad(lstm(x * scale)[0].tanh().sum(), scale, create_graph=True)
        (d2,) = mg.autograd.grad(d1, scale, create_graph=True)
        return d2

    scale = mg.tensor(0.7, dtype=mg.float64, requires_grad=True)
    (d3,) = mg.autograd.grad(second(scale), scale)
    step = 1e-5
    at = [second(mg.tensor(0.7 + k * step, dtype=mg.float64, requires_grad=True)).item() for k in (1, -1)]
    np.testing.assert_allclose(d3.item(), (at[0] - at[1]) / (2 * step), rtol=1e-6)


@pytest.mark.parametrize("scale", [1.0, 30.0], ids=["moderate", "saturated"])
def test_float32_values_and_gradients_match_torch_with_gates_near_and_far_from_saturation(scale):
    """The layer's float32 arithmetic (every gate one tanh, ``σ(z) = (1 + tanh(z / 2)) / 2``) gives torch's values
    and gradients, also where the pre-activations are large and the gates are 0 or 1 to float32's precision."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    theirs = torch.nn.LSTM(3, 4, num_layers=2)
    ours = mg.nn.LSTM(3, 4, num_layers=2)
    ours.load_state_dict(theirs.state_dict())
    x = (_rand(6, 2, 3) * scale).astype(np.float32)
    mx, tx = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    (mo, (_, mcn)), (to, (_, tcn)) = ours(mx), theirs(tx)
    weights = [_rand(*t.shape, seed=3 + k).astype(np.float32) for k, t in enumerate((to, tcn))]
    np.testing.assert_allclose(mo.detach().numpy(), to.detach().numpy(), rtol=1e-5, atol=1e-6)
    sum((m * mg.tensor(w)).sum() for m, w in zip((mo, mcn), weights)).backward()
    sum((t * torch.tensor(w)).sum() for t, w in zip((to, tcn), weights)).backward()
    for m, t in [(mx, tx)] + list(zip(ours.parameters(), theirs.parameters())):
        np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_a_result_keeps_its_values_when_another_layer_of_the_same_size_runs_after_it():
    """The forward's ``W_hh^T`` is a work array kept between calls; nothing a call returns or keeps may view it."""
    mg.manual_seed(0)
    first, second = mg.nn.LSTM(3, 4, dtype=mg.float64), mg.nn.LSTM(3, 4, dtype=mg.float64)
    x = mg.tensor(_rand(5, 2, 3), requires_grad=True)
    out = first(x)[0]
    values = out.detach().numpy().copy()
    second(x)[0].sum().backward()
    np.testing.assert_array_equal(out.detach().numpy(), values)
    x.grad = None
    out.sum().backward()
    expected = mg.tensor(_rand(5, 2, 3), requires_grad=True)
    first(expected)[0].sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), expected.grad.numpy())


def test_the_output_sequence_is_contiguous_as_torch_s():
    """Each layer's result keeps every h_t in one block apart from the c_t's, so the output (and the next layer's
    input) is a contiguous block, as torch's, not every other run of H values of a wider array."""
    lstm = mg.nn.LSTM(3, 4, num_layers=2)
    out, (hn, cn) = lstm(mg.tensor(_rand(5, 2, 3).astype(np.float32)))
    assert out.is_contiguous() and hn.is_contiguous() and cn.is_contiguous()
