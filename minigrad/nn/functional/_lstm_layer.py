"""One LSTM layer over a whole sequence as one op, as torch's ``lstm`` is one op.

With the gates of step ``t`` ``z = x_t W_ih^T + b_ih + b_hh + h_{t-1} W_hh^T``, split into
``z_i, z_f, z_g, z_o`` (PyTorch's order), ``i = σ(z_i)``, ``f = σ(z_f)``, ``g = tanh(z_g)``,
``o = σ(z_o)``:

    c_t = f c_{t-1} + i g        h_t = o tanh(c_t)

The input's share of every step's gates with both biases, ``x_proj``, is one matrix product (and a
sum) before the op, so the op itself has no optional operand and its rules no branch. The op's
result holds every step's ``h_t`` and ``c_t`` side by side, ``[L, N, 2H]``. Its rule is
backpropagation through time: every step's gates at once from the states it returned (one matrix
product), the two gradient recurrences backwards through the steps, then ``W_hh``'s gradient as
one product over all steps. The rule reads the op's own result (as tanh's reads its output), so
differentiating it (create_graph) gives second derivatives.
"""

from __future__ import annotations

import weakref

from ...creation import zeros_like
from ...ops.elementwise import _sigmoid_array
from ...ops.shape import cat, stack
from ...tensor import Tensor, make

__all__ = ["lstm_layer"]


def lstm_layer(x_proj: Tensor, h0: Tensor, c0: Tensor, w_hh: Tensor) -> Tensor:
    """Every step's ``[h_t, c_t]`` (``[L, N, 2H]``) of one layer, from ``x_proj`` ``[L, N, 4H]`` and ``h0``, ``c0`` ``[N, H]``."""
    xp = x_proj.device.xp
    steps, hidden = x_proj.array.shape[0], h0.array.shape[-1]
    states = xp.empty(x_proj.array.shape[:2] + (2 * hidden,), dtype=x_proj.array.dtype)
    h, c, w_t = h0.array, c0.array, xp.ascontiguousarray(w_hh.array.T)  # h @ w_t: a plain product, the fast one
    for t in range(steps):
        z = x_proj.array[t] + h @ w_t
        s = _sigmoid_array(xp, z)
        c = s[:, hidden : 2 * hidden] * c + s[:, :hidden] * xp.tanh(z[:, 2 * hidden : 3 * hidden])
        h = s[:, 3 * hidden :] * xp.tanh(c)
        states[t, :, :hidden], states[t, :, hidden:] = h, c

    def backward(grad):
        hs, cs = _halves(out_ref(), hidden)
        h_prev = cat([h0.unsqueeze(0), hs[:-1]], 0)
        c_prev = cat([c0.unsqueeze(0), cs[:-1]], 0)
        gates = x_proj + h_prev @ w_hh.mT
        i, f, _, o = gates.sigmoid().chunk(4, -1)
        g, tanh_c = gates.chunk(4, -1)[2].tanh(), cs.tanh()
        dh_dc = o * (1 - tanh_c * tanh_c)  # what h_t's gradient adds to c_t's
        # what c_t's gradient becomes in z_i, z_f, z_g, and h_t's in z_o
        to_gates = cat([g * i * (1 - i), c_prev * f * (1 - f), i * (1 - g * g), tanh_c * o * (1 - o)], -1)
        grad_h, grad_c = _halves(grad, hidden)
        carry_h, carry_c = zeros_like(h0), zeros_like(c0)
        grad_gates = [None] * steps
        for t in reversed(range(steps)):
            gh = grad_h[t] + carry_h
            gc = grad_c[t] + carry_c + gh * dh_dc[t]
            grad_gates[t] = cat([gc, gc, gc, gh], -1) * to_gates[t]
            carry_h, carry_c = grad_gates[t] @ w_hh, gc * f[t]
        grad_gates = stack(grad_gates)
        rows = steps * grad_gates.shape[1]
        grad_w = grad_gates.reshape(rows, 4 * hidden).mT @ h_prev.reshape(rows, hidden)
        return grad_gates, carry_h, carry_c, grad_w

    def jvp(t_x, t_h0, t_c0, t_w):  # the recurrence again, each step's tangent beside its value
        h, c, dh, dc, tangents = h0, c0, t_h0, t_c0, []
        for t in range(steps):
            z = x_proj[t] + h @ w_hh.mT
            dz_i, dz_f, dz_g, dz_o = (t_x[t] + dh @ w_hh.mT + h @ t_w.mT).chunk(4, -1)
            z_i, z_f, z_g, z_o = z.chunk(4, -1)
            i, f, g, o = z_i.sigmoid(), z_f.sigmoid(), z_g.tanh(), z_o.sigmoid()
            dc = dz_f * f * (1 - f) * c + f * dc + dz_i * i * (1 - i) * g + i * (1 - g * g) * dz_g
            c = f * c + i * g
            tanh_c = c.tanh()
            dh = dz_o * o * (1 - o) * tanh_c + o * (1 - tanh_c * tanh_c) * dc
            h = o * tanh_c
            tangents.append(cat([dh, dc], -1))
        return stack(tangents)

    out = make(states, (x_proj, h0, c0, w_hh), backward, "lstm_layer", jvp)
    out_ref = weakref.ref(out)
    return out


def _halves(states: Tensor, hidden: int) -> tuple:
    """``[L, N, 2H]`` -> every step's ``h`` and ``c``, ``[L, N, H]`` each."""
    return states[..., :hidden], states[..., hidden:]
