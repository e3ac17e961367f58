"""One LSTM layer over a whole sequence as one op, as torch's ``lstm`` (on the CPU ``mkldnn_rnn_layer``) is one op.

With the gates of step ``t`` ``z_t = x_t W_ih^T + h_{t-1} W_hh^T + b`` (``b = b_ih + b_hh``), split into
``z_i, z_f, z_g, z_o`` (PyTorch's order), ``i = σ(z_i)``, ``f = σ(z_f)``, ``g = tanh(z_g)``,
``o = σ(z_o)``:

    c_t = f c_{t-1} + i g        h_t = o tanh(c_t)

The input's share of every step's gates, ``x W_ih^T + b``, is one matrix product over all steps
before the loop (as cuDNN and torch compute it), made inside the op so it is not kept. The op's
result is every state from the initial one on, ``[2, L + 1, N, H]``: ``h_0 ... h_L`` then ``c_0 ... c_L``
(``h_0``, ``c_0`` the given ones), each step's ``h_t`` and ``c_t`` a contiguous block, so the steps'
arithmetic and the products over all steps read and write whole blocks; its forward keeps the gate
values ``i, f, g, o`` of every step (as torch's LSTM keeps them).

Its rule is backpropagation through time: the two gradient recurrences backwards through the steps
give every step's ``z_t`` gradient (``lstm_through_time``, an op of its own that runs them on the kept
arrays, with its own rules for second derivatives), then the gradients of ``x``, ``W_ih``, ``W_hh``
and ``b`` are one product (or sum) each over all steps.
"""

from __future__ import annotations

import weakref

from ..._workspace import work_array
from ...ops.declare import LOOP, op
from ...tensor import Tensor, make
from ._lstm_through_time import lstm_through_time, tangent_recurrence

__all__ = ["lstm_layer"]


@op(batch=LOOP, saves=("x", "w_ih", "w_hh", "bias", "h0", "c0", "hidden", "out_ref", "states", "gate_values"))
def lstm_layer(x: Tensor, w_ih: Tensor, w_hh: Tensor, bias: Tensor, h0: Tensor, c0: Tensor) -> Tensor:
    """Every state ``h_0 ... h_L``, ``c_0 ... c_L`` (``[2, L + 1, N, H]``) of one layer, from ``x`` ``[L, N, H_in]``
    and ``h0``, ``c0`` ``[N, H]``.

    ``bias`` is ``b_ih + b_hh`` (``[4H]``; zeros for a layer without biases)."""
    hidden, xp = h0.array.shape[-1], x.device.xp
    half = _sigma_halves(xp, hidden, x.array.dtype)
    x_proj = _input_share(xp, x.array, w_ih.array, bias.array, half)
    states, gate_values = _recurrence(xp, x_proj, h0.array, c0.array, w_hh.array, half)

    def backward(grad):
        through = lstm_through_time(grad, x, w_ih, w_hh, bias, h0, c0, states, gate_values)
        grad_z, grad_h0, grad_c0 = through[:-1], through[-1, :, :hidden], through[-1, :, hidden : 2 * hidden]
        rows = grad_z.reshape(-1, 4 * hidden)
        h_prev = out_ref()[0, :-1]
        return (
            lambda: grad_z @ w_ih,
            lambda: rows.mT @ x.reshape(-1, x.shape[-1]),
            lambda: rows.mT @ h_prev.reshape(-1, hidden),
            lambda: rows.sum(0),
            lambda: grad_h0,
            lambda: grad_c0,
        )

    def jvp(t_x, t_w_ih, t_w_hh, t_bias, t_h0, t_c0):  # the recurrence again, each step's tangent beside its value
        x_proj, t_proj = x @ w_ih.mT + bias, t_x @ w_ih.mT + x @ t_w_ih.mT + t_bias
        return tangent_recurrence(x_proj, h0, c0, w_hh, t_proj, t_h0, t_c0, t_w_hh)[1]

    out = make(states, (x, w_ih, w_hh, bias, h0, c0), backward, "lstm_layer", jvp)
    out_ref = weakref.ref(out)
    return out


def _sigma_halves(xp, hidden: int, dtype):
    """``[1/2, 1/2, 1, 1/2]`` over the four gates' blocks (``[4H]``): every gate is one tanh, ``σ(z) = (1 +
    tanh(z / 2)) / 2``, so a σ gate's ``z`` is halved before its tanh and the tanh halved after it."""
    half = xp.full(4 * hidden, 0.5, dtype=dtype)
    half[2 * hidden : 3 * hidden] = 1
    return half


def _input_share(xp, x, w_ih, bias, half):
    """``(x W_ih^T + b) half`` for every step at once, ``[L, N, 4H]``: one product over the ``L N`` rows, with
    ``W_ih``'s rows halved first (exact in binary floating point; a work array, fewer values than the result's)."""
    w_half = xp.multiply(w_ih, half[:, None], out=work_array(xp, "lstm W_ih halved", w_ih.shape, w_ih.dtype))
    rows = x.reshape(-1, x.shape[-1]) @ w_half.T
    rows += bias * half
    return rows.reshape(x.shape[:-1] + rows.shape[-1:])


def _recurrence(xp, x_proj, h0, c0, w_hh, half) -> tuple:
    """The forward pass on arrays: every state ``[h_0 ... h_L, c_0 ... c_L]`` and every step's gate values
    ``[i, f, g, o]``.

    The gate values are written over ``x_proj`` (made for this call, its σ blocks already halved), step by step.
    With ``W_hh``'s σ rows halved once too (see ``_sigma_halves``), a step is one product, one tanh over the
    four blocks, a scale and a shift, and the cell and hidden updates written into the result.
    """
    steps, batch, four_h = x_proj.shape
    hidden = four_h // 4
    states = xp.empty((2, steps + 1, batch, hidden), dtype=x_proj.dtype)
    states[0, 0], states[1, 0] = h0, c0
    hs, cs = states
    shift = 1 - half
    gates = x_proj
    # h @ w_t, w_t contiguous: a plain product, the fast one; its memory kept between calls (no page faults)
    w_t = xp.multiply(w_hh.T, half, out=work_array(xp, "lstm W_hh^T", w_hh.shape[::-1], w_hh.dtype))
    for t in range(steps):
        s = gates[t]
        s += hs[t] @ w_t
        xp.tanh(s, out=s)
        s *= half
        s += shift
        h, c = hs[t + 1], cs[t + 1]
        xp.multiply(s[:, hidden : 2 * hidden], cs[t], out=c)
        c += s[:, :hidden] * s[:, 2 * hidden : 3 * hidden]
        xp.tanh(c, out=h)
        h *= s[:, 3 * hidden :]
    return states, gates
