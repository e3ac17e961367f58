"""One LSTM layer over a whole sequence as one op, as torch's ``lstm`` (on the CPU ``mkldnn_rnn_layer``) is one op.

With the gates of step ``t`` ``z_t = x_t W_ih^T + h_{t-1} W_hh^T + b`` (``b = b_ih + b_hh``), split into
``z_i, z_f, z_g, z_o`` (PyTorch's order), ``i = σ(z_i)``, ``f = σ(z_f)``, ``g = tanh(z_g)``,
``o = σ(z_o)``:

    c_t = f c_{t-1} + i g        h_t = o tanh(c_t)

The input's share of every step's gates, ``x W_ih^T + b``, is one matrix product over all steps
before the loop (as cuDNN and torch compute it), made inside the op so it is not kept. The op's
result holds every step's ``h_t`` and ``c_t`` side by side, ``[L, N, 2H]``. Its rule is
backpropagation through time: the two gradient recurrences backwards through the steps give every
step's ``z_t`` gradient, then the gradients of ``x``, ``W_ih``, ``W_hh`` and ``b`` are one product
(or sum) each over all steps.

The rule reads the gate values the forward computed (as torch's LSTM keeps them), held as a tensor
``gates`` (``[L, N, 4H]``, ``i, f, g, o``) whose own rule is their derivative: ``gates`` is a
function of the op's operands and of its result (the ``h_{t-1}``). Differentiating the rule
(create_graph) goes through ``gates``' rule, so second derivatives need no second path.
"""

from __future__ import annotations

import weakref

from ...creation import ones, zeros
from ...ops.declare import LOOP, op, rules_saving
from ...ops.elementwise import _sigmoid_array
from ...ops.shape import cat, pad, stack
from ...tensor import Tensor, make

__all__ = ["lstm_layer"]


@op(batch=LOOP, saves=("x", "w_ih", "w_hh", "h0", "c0", "hidden", "steps", "out_ref", "gates"))
def lstm_layer(x: Tensor, w_ih: Tensor, w_hh: Tensor, bias: Tensor, h0: Tensor, c0: Tensor) -> Tensor:
    """Every step's ``[h_t, c_t]`` (``[L, N, 2H]``) of one layer, from ``x`` ``[L, N, H_in]`` and ``h0``, ``c0`` ``[N, H]``.

    ``bias`` is ``b_ih + b_hh`` (``[4H]``; zeros for a layer without biases)."""
    steps, hidden = x.array.shape[0], h0.array.shape[-1]
    x_proj = _input_share(x.array, w_ih.array, bias.array)
    states, gate_values = _recurrence(x.device.xp, x_proj, h0.array, c0.array, w_hh.array)

    def backward(grad):
        hs, cs = _halves(out_ref(), hidden)
        c = cs.unbind(0)
        c_prev = (c0, *c[:-1])
        tanh_block = _tanh_block(gates)

        def step(t, gh, gc):
            """z_t's gradient from h_t's and c_t's (from the result and from step t + 1); c_t's whole gradient, f_t."""
            s = gates[t]
            i, f, g, o = s.chunk(4, -1)
            tanh_c = c[t].tanh()
            gc = gc + gh * o * (1 - tanh_c * tanh_c)
            return cat([gc * g, gc * c_prev[t], gc * i, gh * tanh_c], -1) * _slopes(s, tanh_block), gc, f

        grad_h, grad_c = _halves(grad, hidden)
        grad_z = [None] * steps
        gh, gc = grad_h[-1], grad_c[-1]
        for t in range(steps - 1, 0, -1):
            grad_z[t], gc, f = step(t, gh, gc)
            gh, gc = grad_h[t - 1] + grad_z[t] @ w_hh, grad_c[t - 1] + gc * f
        grad_z[0], gc, f = step(0, gh, gc)
        grad_z = stack(grad_z)
        rows = grad_z.reshape(-1, 4 * hidden)
        h_prev = cat([h0.unsqueeze(0), hs[:-1]], 0)
        return (
            lambda: grad_z @ w_ih,
            lambda: rows.mT @ x.reshape(-1, x.shape[-1]),
            lambda: rows.mT @ h_prev.reshape(-1, hidden),
            lambda: rows.sum(0),
            lambda: grad_z[0] @ w_hh,
            lambda: gc * f,
        )

    def jvp(t_x, t_w_ih, t_w_hh, t_bias, t_h0, t_c0):  # the recurrence again, each step's tangent beside its value
        x_proj, t_proj = x @ w_ih.mT + bias, t_x @ w_ih.mT + x @ t_w_ih.mT + t_bias
        h, c, dh, dc, tangents = h0, c0, t_h0, t_c0, []
        for t in range(steps):
            z = x_proj[t] + h @ w_hh.mT
            dz_i, dz_f, dz_g, dz_o = (t_proj[t] + dh @ w_hh.mT + h @ t_w_hh.mT).chunk(4, -1)
            z_i, z_f, z_g, z_o = z.chunk(4, -1)
            i, f, g, o = z_i.sigmoid(), z_f.sigmoid(), z_g.tanh(), z_o.sigmoid()
            dc = dz_f * f * (1 - f) * c + f * dc + dz_i * i * (1 - i) * g + i * (1 - g * g) * dz_g
            c = f * c + i * g
            tanh_c = c.tanh()
            dh = dz_o * o * (1 - o) * tanh_c + o * (1 - tanh_c * tanh_c) * dc
            h = o * tanh_c
            tangents.append(cat([dh, dc], -1))
        return stack(tangents)

    out = make(states, (x, w_ih, w_hh, bias, h0, c0), backward, "lstm_layer", jvp)
    out_ref = weakref.ref(out)
    gates = _gates(gate_values, x, w_ih, w_hh, bias, h0, out)
    return out


@rules_saving(("x", "w_ih", "w_hh", "h0", "states", "hidden", "gates_ref"))
def _gates(values, x: Tensor, w_ih: Tensor, w_hh: Tensor, bias: Tensor, h0: Tensor, states: Tensor) -> Tensor:
    """The gate values ``i, f, g, o`` of every step, ``[L, N, 4H]``, as a tensor of what they are made of.

    ``z = x W_ih^T + h_prev W_hh^T + b`` with ``h_prev`` ``h0`` then every step's ``h_t`` but the last.
    """
    hidden = h0.array.shape[-1]

    def backward(grad):
        gates = gates_ref()
        grad_z = grad * _slopes(gates, _tanh_block(gates))
        rows = grad_z.reshape(-1, 4 * hidden)
        h_prev = cat([h0.unsqueeze(0), _halves(states, hidden)[0][:-1]], 0)
        return (
            lambda: grad_z @ w_ih,
            lambda: rows.mT @ x.reshape(-1, x.shape[-1]),
            lambda: rows.mT @ h_prev.reshape(-1, hidden),
            lambda: rows.sum(0),
            lambda: grad_z[0] @ w_hh,
            # h_t feeds step t + 1's gates: a gradient on every h but the last, none on the c's
            lambda: pad(grad_z[1:] @ w_hh, (0, hidden, 0, 0, 0, 1)),
        )

    def jvp(t_x, t_w_ih, t_w_hh, t_bias, t_h0, t_states):  # made with the gates, before they exist: their values again
        h_prev = cat([h0.unsqueeze(0), _halves(states, hidden)[0][:-1]], 0)
        t_h_prev = cat([t_h0.unsqueeze(0), _halves(t_states, hidden)[0][:-1]], 0)
        i, f, g, o = (x @ w_ih.mT + h_prev @ w_hh.mT + bias).chunk(4, -1)
        values = cat([i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()], -1)
        t_z = t_x @ w_ih.mT + x @ t_w_ih.mT + t_h_prev @ w_hh.mT + h_prev @ t_w_hh.mT + t_bias
        return t_z * _slopes(values, _tanh_block(values))

    gates = make(values, (x, w_ih, w_hh, bias, h0, states), backward, "lstm_gates", jvp)
    gates_ref = weakref.ref(gates)
    return gates


def _slopes(gates: Tensor, tanh_block: Tensor) -> Tensor:
    """Each gate's derivative in its pre-activation, from its value: ``σ' = σ (1 - σ)`` for ``i, f, o``,
    ``tanh' = 1 - g² = (1 - g)(1 + g)`` for ``g``; both are ``(1 - s)(s + e)``, ``e`` 1 on the g block only."""
    return (1 - gates) * (gates + tanh_block)


def _tanh_block(gates: Tensor) -> Tensor:
    """``[0, 0, 1, 0]`` over the four gates' blocks (``[4H]``): 1 where the gate is ``g`` (a tanh)."""
    hidden, like = gates.shape[-1] // 4, {"dtype": gates.dtype, "device": gates.device}
    return cat([zeros(2 * hidden, **like), ones(hidden, **like), zeros(hidden, **like)])


def _input_share(x, w_ih, bias):
    """``x W_ih^T + b`` for every step at once, ``[L, N, 4H]``: one product over the ``L N`` rows."""
    rows = x.reshape(-1, x.shape[-1]) @ w_ih.T
    rows += bias
    return rows.reshape(x.shape[:-1] + rows.shape[-1:])


def _recurrence(xp, x_proj, h0, c0, w_hh) -> tuple:
    """The forward pass on arrays: every step's ``[h_t, c_t]`` and gate values ``[i, f, g, o]``."""
    steps, batch, four_h = x_proj.shape
    hidden = four_h // 4
    states = xp.empty((steps, batch, 2 * hidden), dtype=x_proj.dtype)
    gates = xp.empty((steps, batch, four_h), dtype=x_proj.dtype)
    h, c, w_t = h0, c0, xp.ascontiguousarray(w_hh.T)  # h @ w_t: a plain product, the fast one
    for t in range(steps):
        z = h @ w_t
        z += x_proj[t]
        s = gates[t]
        s[...] = _sigmoid_array(xp, z)  # the g block's sigmoid is written over next: one pass, not three
        g = s[:, 2 * hidden : 3 * hidden] = xp.tanh(z[:, 2 * hidden : 3 * hidden])
        c = s[:, hidden : 2 * hidden] * c
        c += s[:, :hidden] * g
        h = xp.tanh(c)
        h *= s[:, 3 * hidden :]
        states[t, :, :hidden], states[t, :, hidden:] = h, c
    return states, gates


def _halves(states: Tensor, hidden: int) -> tuple:
    """``[L, N, 2H]`` -> every step's ``h`` and ``c``, ``[L, N, H]`` each."""
    return states[..., :hidden], states[..., hidden:]
