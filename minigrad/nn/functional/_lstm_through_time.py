"""Backpropagation through one LSTM layer as an op of its own, which ``lstm_layer``'s rule calls (as torch's
rule calls ``mkldnn_rnn_layer_backward``).

For the layer's result's gradient ``G`` (every state's, ``h_0 ... h_L`` and ``c_0 ... c_L``), the op gives the
gradient of ``φ = <G, lstm_layer(...)>`` in ``x_proj = x W_ih^T + b`` (every step's ``z_t``'s), ``h0`` and ``c0``.
Its forward runs the two gradient recurrences on the arrays the layer's forward kept, for the steps
``t = L ... 1`` (step ``t`` makes ``h_t``, ``c_t`` from ``h_{t-1}``, ``c_{t-1}``):

    g_h = G_h[t] + dz_{t+1} W_hh        g_c = G_c[t] + g_c(t+1) f_{t+1} + g_h o (1 - tanh² c_t)
    dz_t = [g_c g, g_c c_{t-1}, g_c i, g_h tanh c_t] (1 - s)(s + e)

(``s`` step ``t``'s gates ``i, f, g, o``; ``(1 - s)(s + e)`` their slopes, see ``_slopes``), and the same ``g_h``,
``g_c`` at ``t = 0`` are h0's and c0's gradients. Its rules are those
of a gradient: its backward takes a cotangent ``u`` (in ``x_proj``, ``h0``, ``c0``) to the layer's tangent
along ``u`` (the part for ``G``) and to φ's Hessian times ``u`` (the part for the operands), which, the
Hessian being symmetric, is this op's own tangent along ``u``; its jvp is that tangent. Both run the layer
and the recurrences again in tensor ops with each value's tangent beside it (``_second_order``), so they
are differentiable in their turn.
"""

from __future__ import annotations

from typing import NamedTuple

from ...creation import ones, zeros, zeros_like
from ...ops.declare import rules_saving
from ...ops.shape import cat, pad, stack
from ...tensor import Tensor, make

__all__ = ["lstm_through_time", "tangent_recurrence"]


@rules_saving(("x", "w_ih", "w_hh", "bias", "h0", "c0", "grad", "hidden"))
def lstm_through_time(grad: Tensor, x, w_ih, w_hh, bias, h0, c0, states, gates) -> Tensor:
    """``lstm_layer``'s result's gradient ``grad`` -> every ``z_t``'s gradient, then h0's and c0's in one more
    row: ``[L + 1, N, 4H]``, h0's in the last row's first ``H`` columns, c0's in the next ``H``, zeros after.

    ``states`` and ``gates`` are the arrays the layer's forward kept (every state ``[h, c]`` and every step's
    ``[i, f, g, o]``).
    """
    hidden = h0.array.shape[-1]
    values = _bptt(x.device.xp, grad.array, gates, states, w_hh.array)

    def backward(u):
        t_xp, t_h0, t_c0 = u[:-1], u[-1, :, :hidden], u[-1, :, hidden : 2 * hidden]
        layer_tangent, t_grad_z, t_grad_h0, t_grad_c0, t_grad_w_hh = _second_order(
            x, w_ih, w_hh, bias, h0, c0, grad, t_xp, t_h0, t_c0, zeros_like(w_hh), zeros_like(grad)
        )
        rows = t_grad_z.reshape(-1, 4 * hidden)
        return (
            layer_tangent,
            lambda: t_grad_z @ w_ih,
            lambda: rows.mT @ x.reshape(-1, x.shape[-1]),
            t_grad_w_hh,
            lambda: rows.sum(0),
            t_grad_h0,
            t_grad_c0,
        )

    def jvp(t_grad, t_x, t_w_ih, t_w_hh, t_bias, t_h0, t_c0):
        t_xp = t_x @ w_ih.mT + x @ t_w_ih.mT + t_bias
        _, t_grad_z, t_grad_h0, t_grad_c0, _ = _second_order(
            x, w_ih, w_hh, bias, h0, c0, grad, t_xp, t_h0, t_c0, t_w_hh, t_grad
        )
        last = pad(cat([t_grad_h0, t_grad_c0], -1), (0, 2 * hidden)).unsqueeze(0)
        return cat([t_grad_z, last], 0)

    return make(values, (grad, x, w_ih, w_hh, bias, h0, c0), backward, "lstm_through_time", jvp)


def tangent_recurrence(x_proj, h0, c0, w_hh, t_xp, t_h0, t_c0, t_w) -> tuple:
    """The layer's forward pass again in tensor ops, each value's tangent beside it (tangents ``t_xp`` of
    ``x_proj``, ``t_h0``, ``t_c0``, ``t_w`` of ``W_hh``): every step's values and tangents, and the
    layer's tangent ``[2, L + 1, N, H]``."""
    tanh_block = _tanh_block(x_proj)
    h, c, dh, dc, steps, t_hs, t_cs = h0, c0, t_h0, t_c0, [], [t_h0], [t_c0]
    for t in range(x_proj.shape[0]):
        z, dz = x_proj[t] + h @ w_hh.mT, t_xp[t] + dh @ w_hh.mT + h @ t_w.mT
        z_i, z_f, z_g, z_o = z.chunk(4, -1)
        s = cat([z_i.sigmoid(), z_f.sigmoid(), z_g.tanh(), z_o.sigmoid()], -1)
        slopes = _slopes(s, tanh_block)
        ds = dz * slopes
        (i, f, g, o), (di, df, dg, do) = s.chunk(4, -1), ds.chunk(4, -1)
        c_next, dc_next = f * c + i * g, df * c + f * dc + di * g + i * dg
        tanh_c = c_next.tanh()
        dtanh_c = (1 - tanh_c * tanh_c) * dc_next
        steps.append(_Step(s, ds, slopes, c, dc, tanh_c, dtanh_c, h, dh))
        h, c, dh, dc = o * tanh_c, c_next, do * tanh_c + o * dtanh_c, dc_next
        t_hs.append(dh)
        t_cs.append(dc)
    return steps, stack([stack(t_hs), stack(t_cs)])


class _Step(NamedTuple):
    """One step of the layer in tensor ops: gate values ``s``, their slopes, ``c_{t-1}``, ``tanh(c_t)``,
    ``h_{t-1}``, each with its tangent (``d...``)."""

    s: Tensor
    ds: Tensor
    slopes: Tensor
    c_prev: Tensor
    dc_prev: Tensor
    tanh_c: Tensor
    dtanh_c: Tensor
    h_prev: Tensor
    dh_prev: Tensor


def _second_order(x, w_ih, w_hh, bias, h0, c0, grad, t_xp, t_h0, t_c0, t_w, t_grad) -> tuple:
    """The layer's forward and backpropagation through time again in tensor ops, each value's tangent beside it.

    Tangents ``t_xp`` (of ``x_proj``), ``t_h0``, ``t_c0``, ``t_w`` (of ``W_hh``) and ``t_grad``; returns the
    layer's tangent (``[2, L + 1, N, H]``) and the tangents of the gradients of ``x_proj``, ``h0``, ``c0``, ``W_hh``.
    """
    x_proj = x @ w_ih.mT + bias
    tanh_block = _tanh_block(x_proj)
    steps, layer_tangent = tangent_recurrence(x_proj, h0, c0, w_hh, t_xp, t_h0, t_c0, t_w)
    (grad_h, grad_c), (t_grad_h, t_grad_c) = grad, t_grad  # state t + 1's at [t + 1]: the result starts at h_0, c_0
    a, da, b, db = 0, 0, 0, 0  # what the step after sends back to the step's h (a) and c (b), and their tangents
    t_grad_z, t_grad_w = [None] * len(steps), 0
    for t in reversed(range(len(steps))):
        s, ds, slopes, c_prev, dc_prev, tanh_c, dtanh_c, h_prev, dh_prev = steps[t]
        (i, f, g, o), (di, df, dg, do) = s.chunk(4, -1), ds.chunk(4, -1)
        gh, dgh = grad_h[t + 1] + a, t_grad_h[t + 1] + da
        dh_dc = 1 - tanh_c * tanh_c
        gc = grad_c[t + 1] + b + gh * o * dh_dc
        dgc = t_grad_c[t + 1] + db + dgh * o * dh_dc + gh * do * dh_dc - 2 * gh * o * tanh_c * dtanh_c
        q, dq = cat([gc, gc, gc, gh], -1), cat([dgc, dgc, dgc, dgh], -1)
        m, dm = cat([g, c_prev, i, tanh_c], -1), cat([dg, dc_prev, di, dtanh_c], -1)
        grad_z = q * m * slopes
        t_grad_z[t] = (dq * m + q * dm) * slopes + q * m * ds * (1 - 2 * s - tanh_block)  # slopes' tangent
        t_grad_w = t_grad_w + t_grad_z[t].mT @ h_prev + grad_z.mT @ dh_prev
        a, da = grad_z @ w_hh, t_grad_z[t] @ w_hh + grad_z @ t_w
        b, db = gc * f, dgc * f + gc * df
    return layer_tangent, stack(t_grad_z), t_grad_h[0] + da, t_grad_c[0] + db, t_grad_w


def _bptt(xp, grad, gates, states, w_hh):
    """Backpropagation through time on arrays: ``lstm_through_time``'s forward, the recurrences of the module's
    docstring. ``g_h``, ``g_c`` and the step's work live in arrays made once and written in place."""
    steps, batch, four_h = gates.shape
    hidden = four_h // 4
    out = xp.empty((steps + 1, batch, four_h), dtype=gates.dtype)
    tanh_block = xp.zeros(four_h, dtype=gates.dtype)
    tanh_block[2 * hidden : 3 * hidden] = 1
    (grad_h, grad_c), cs = grad, states[1]
    gh, gc = grad_h[-1].copy(), grad_c[-1].copy()
    tanh_c, work, slopes = xp.empty_like(gh), xp.empty_like(gh), xp.empty_like(out[0])
    for t in reversed(range(steps)):  # gates[t] and out[t] are step t + 1's, from state t to state t + 1
        s, d = gates[t], out[t]
        i, f, g, o = s[:, :hidden], s[:, hidden : 2 * hidden], s[:, 2 * hidden : 3 * hidden], s[:, 3 * hidden :]
        xp.tanh(cs[t + 1], out=tanh_c)
        xp.multiply(gh, tanh_c, out=d[:, 3 * hidden :])
        xp.multiply(tanh_c, tanh_c, out=work)  # g_c += g_h o (1 - tanh² c_t)
        xp.subtract(1, work, out=work)
        work *= o
        work *= gh
        gc += work
        xp.multiply(gc, g, out=d[:, :hidden])
        xp.multiply(gc, cs[t], out=d[:, hidden : 2 * hidden])
        xp.multiply(gc, i, out=d[:, 2 * hidden : 3 * hidden])
        xp.subtract(1, s, out=slopes)  # d *= (1 - s)(s + e)
        d *= slopes
        xp.add(s, tanh_block, out=slopes)
        d *= slopes
        xp.matmul(d, w_hh, out=gh)  # state t's g_h and g_c
        gc *= f
        gh += grad_h[t]
        gc += grad_c[t]
    out[-1] = 0
    out[-1, :, :hidden], out[-1, :, hidden : 2 * hidden] = gh, gc
    return out


def _slopes(gates: Tensor, tanh_block: Tensor) -> Tensor:
    """Each gate's derivative in its pre-activation, from its value: ``σ' = σ (1 - σ)`` for ``i, f, o``,
    ``tanh' = 1 - g² = (1 - g)(1 + g)`` for ``g``; both are ``(1 - s)(s + e)``, ``e`` 1 on the g block only."""
    return (1 - gates) * (gates + tanh_block)


def _tanh_block(gates: Tensor) -> Tensor:
    """``[0, 0, 1, 0]`` over the four gates' blocks (``[4H]``): 1 where the gate is ``g`` (a tanh)."""
    hidden, like = gates.shape[-1] // 4, {"dtype": gates.dtype, "device": gates.device}
    return cat([zeros(2 * hidden, **like), ones(hidden, **like), zeros(hidden, **like)])
