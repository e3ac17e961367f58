"""layer_norm and batch_norm: one node each with its closed-form rule where it scales and shifts (batch_norm
when training), composed of differentiable ops otherwise; every order of derivative works."""

from __future__ import annotations

import weakref

from ..._state import extras, grad
from ..._workspace import work_array
from ...autograd.grad_mode import no_grad
from ...ops.declare import TRAILING, BatchedCall, op, rules_saving
from ...ops.types import Size
from ...tensor import Tensor, make, make_leaf, shape_str
from ._trailing_sums import trailing_sums

__all__ = ["layer_norm", "batch_norm"]


@op(batch=TRAILING)
def layer_norm(
    x: Tensor, normalized_shape: Size, weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-5
) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dims to mean 0, variance 1; then scale and shift."""
    normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(normalized_shape)
    if not k:  # no dims to normalise over (a mean over dims=() would take every dim)
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but "
            f"got normalized_shape = {list(normalized_shape)}"
        )
    if x.array.shape[x.array.ndim - k :] != normalized_shape or x.array.ndim < k:
        raise RuntimeError(
            f"Given normalized_shape={shape_str(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size {shape_str(x.array.shape)}"
        )
    dims = tuple(range(x.array.ndim - k, x.array.ndim))
    if _affine(weight, normalized_shape) and _affine(bias, normalized_shape):
        return _affine_layer_norm(x, dims, weight, bias, eps)
    centered = x - x.mean(dim=dims, keepdim=True)
    var = (centered * centered).mean(dim=dims, keepdim=True)
    y = centered * (var + eps).rsqrt()
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


@rules_saving(("dims", "rstd", "weight", "xhat"))
def _affine_layer_norm(x: Tensor, dims: tuple, weight: Tensor, bias: Tensor, eps: float) -> Tensor:
    """y = x̂ * weight + bias, x̂ = (x - mean) * rstd over ``dims``, rstd = 1 / sqrt(var + eps), as one node.

    The rule is the closed form a lesson derives: with dx̂ = g * weight,
    dx = rstd * (dx̂ - mean(dx̂) - x̂ * mean(dx̂ * x̂)) (:func:`layer_norm_input_grad`, one node), dweight = g * x̂
    and dbias = g (the engine sums the rows). x̂ and rstd are tensors of x with their own rules, so the rule can
    itself be differentiated.
    """
    xp = x.device.xp
    centered = x.array - trailing_sums(xp, x.array, len(dims), mean=True)
    squares = xp.square(centered, out=work_array(xp, "layer_norm squares", centered.shape, centered.dtype))
    rstd = _rstd(x, dims, eps, 1 / xp.sqrt(trailing_sums(xp, squares, len(dims), mean=True) + eps))
    centered *= rstd.array
    xhat = _standardized(x, dims, rstd, centered)
    out = xhat.array * weight.array
    out += bias.array
    if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
        return make(out, (x, weight, bias), None, "layer_norm")

    def backward(g):
        return lambda: layer_norm_input_grad(g * weight, xhat, rstd, dims), lambda: g * xhat, lambda: g

    def jvp(tx, tw, tb):
        txhat = rstd * _projected(tx, xhat, dims)
        return txhat * weight + xhat * tw + tb

    return make(out, (x, weight, bias), backward, "layer_norm", jvp)


@rules_saving(("dims", "g", "rstd", "xhat"))
def layer_norm_input_grad(g: Tensor, xhat: Tensor, rstd: Tensor, dims: tuple) -> Tensor:
    """∂L/∂x of layer_norm from ``g``, the gradient of x̂ (the output's gradient times the weight):
    ``rstd * P(g)`` with ``P(g) = g - mean(g) - x̂ * mean(g * x̂)``, the means over ``dims`` (kept).

    One node that makes two arrays of x's size (the result, g * x̂), where written as Tensor ops it made five,
    each paged in fresh a step (W11's LayerNorm, [8, 64, 128] float32, forward and backward, one thread,
    alternating: 0.96 -> 0.31 ms; 0.35 -> 0.32 ms where glibc keeps its heap). Its rule: ``P`` is
    symmetric, so ``∂/∂g = rstd * P(G)``, this op again;
    ``∂/∂rstd = sum(G * P(g))`` over ``dims``; ``∂/∂x̂ = -rstd * (G * mean(g * x̂) + g * mean(G * x̂))``.
    """
    xp, ga, xa = g.device.xp, g.array, xhat.array
    products = xp.multiply(ga, xa, out=work_array(xp, "layer_norm g*xhat", xa.shape, xa.dtype))
    dx = xa * -trailing_sums(xp, products, len(dims), mean=True)  # then + g - mean(g), times rstd, in place
    dx += ga
    dx -= trailing_sums(xp, ga, len(dims), mean=True)
    dx *= rstd.array

    def backward(G):
        gx, Gx = (g * xhat).mean(dim=dims, keepdim=True), (G * xhat).mean(dim=dims, keepdim=True)
        return (
            lambda: layer_norm_input_grad(G, xhat, rstd, dims),
            lambda: -rstd * (G * gx + g * Gx),
            lambda: (G * _projected(g, xhat, dims)).sum(dim=dims, keepdim=True),
        )

    def jvp(tg, txhat, trstd):
        gx, gtx = (g * xhat).mean(dim=dims, keepdim=True), (g * txhat).mean(dim=dims, keepdim=True)
        return (
            layer_norm_input_grad(tg, xhat, rstd, dims)
            + trstd * _projected(g, xhat, dims)
            - rstd * (txhat * gx + xhat * gtx)
        )

    return make(dx, (g, xhat, rstd), backward, "layer_norm_input_grad", jvp)


def _projected(t: Tensor, xhat: Tensor, dims: tuple) -> Tensor:
    """``P(t) = t - mean(t) - x̂ * mean(t * x̂)``, the means over ``dims`` (kept): what x̂'s rule and the input
    gradients of layer_norm and batch_norm multiply by rstd (P removes what moves the mean and the variance)."""
    return t - t.mean(dim=dims, keepdim=True) - xhat * (t * xhat).mean(dim=dims, keepdim=True)


def _affine(t: Tensor | None, normalized_shape: tuple) -> bool:
    """Whether ``t`` is a weight (or bias) of the normalised shape, one value per normalised element."""
    return t is not None and t.array.shape == normalized_shape


@rules_saving(("dims", "n", "rstd_ref", "x"))
def _rstd(x: Tensor, dims: tuple, eps: float, value) -> Tensor:
    """rstd = 1 / sqrt(var(x) + eps) over ``dims`` (kept as size 1), its ``value`` computed by the caller, as a
    tensor of x; d rstd / dx = -rstd^3 (x - mean) / n."""
    n = x.array.size // value.size
    if not (grad.enabled or extras.on):
        return make(value, (x,), None, "layer_norm_rstd")

    def backward(g):
        rstd = rstd_ref()
        return (-(g * rstd * rstd * rstd) * (x - x.mean(dim=dims, keepdim=True)) / n,)

    def jvp(t):  # made before the result exists: rstd again, composed
        centered = x - x.mean(dim=dims, keepdim=True)
        rstd = ((centered * centered).mean(dim=dims, keepdim=True) + eps).rsqrt()
        return -(rstd * rstd * rstd) * (t * centered).mean(dim=dims, keepdim=True)

    out = make(value, (x,), backward, "layer_norm_rstd", jvp)
    rstd_ref = weakref.ref(out)
    return out


@rules_saving(("dims", "rstd", "xhat_ref"))
def _standardized(x: Tensor, dims: tuple, rstd: Tensor, value) -> Tensor:
    """x̂ = (x - mean) * rstd over ``dims``, its ``value`` computed by the caller, as a tensor of x; its rule,
    through the mean and rstd: dx = rstd * (d - mean(d) - x̂ * mean(d * x̂))."""
    if not (grad.enabled or extras.on):
        return make(value, (x,), None, "layer_norm_standardized")

    def backward(d):
        xhat = xhat_ref()
        return (rstd * _projected(d, xhat, dims),)

    def jvp(t):  # made before the result exists: x̂ again, composed
        xhat = (x - x.mean(dim=dims, keepdim=True)) * rstd
        return rstd * _projected(t, xhat, dims)

    out = make(value, (x,), backward, "layer_norm_standardized", jvp)
    xhat_ref = weakref.ref(out)
    return out


UNBATCHED_RUNNING_STATS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which will be updated in "
    "place, were not batched.\nIf you are using a module and do not need eval mode, please set "
    "`track_running_stats` to be False.If you are using a prebuilt module and do not need eval mode, please see "
    "the functorch website for resources on how to patch your module to work with vmap"
)


def _batch_norm_rule(call: BatchedCall):
    """``batch_norm``: each entry's ``[N, C, *]`` normalised on its own, so the batch joins the channels:
    one call on ``[N, B * C, *]`` with the running statistics, weight and bias as ``[B * C]`` (unbatched
    ones repeated). Training updates batched running statistics in place, each entry its own; unbatched
    ones beside a batched input are refused, as PyTorch refuses them."""
    names = ("x", "running_mean", "running_var", "weight", "bias")
    x, mean, var, weight, bias = (call.get(n) for n in names)
    training = call.get("training")
    batched = [v for v in map(call.value, (x, mean, var, weight, bias)) if v is not None]
    if call.rank(x) < 2 or not batched:
        return call.loop()
    stats_batched = call.value(mean) is not None or call.value(var) is not None
    if training and call.value(x) is not None and mean is not None and not stats_batched:
        raise RuntimeError(UNBATCHED_RUNNING_STATS)
    size = call.size
    xs = call.expanded(x, size)  # [B, N, C, *]
    sizes = tuple(xs.shape)
    folded = xs.movedim(0, 1).reshape((sizes[1], size * sizes[2]) + sizes[3:])

    def per_channel(t):
        return None if t is None else call.expanded(t, size).reshape(size * sizes[2])

    flat_mean, flat_var = per_channel(mean), per_channel(var)
    args, kwargs = call.replaced(
        x=folded, running_mean=flat_mean, running_var=flat_var, weight=per_channel(weight), bias=per_channel(bias)
    )
    out = call.run(call.fn, *args, **kwargs)
    if training:  # the call updated the [B * C] copies: back into each entry's statistics
        with no_grad():
            for stat, flat in ((mean, flat_mean), (var, flat_var)):
                if stat is None:
                    continue
                v = call.value(stat)
                updated = flat.reshape((size,) + tuple(stat.shape))
                if v is not None:
                    v.copy_(updated)
                else:  # unbatched statistics of an unbatched input: every entry made the same update, once
                    stat.copy_(updated[0])
    return call.wrap(out.reshape((sizes[1], size) + sizes[2:]).movedim(1, 0))


@op(batch=_batch_norm_rule)
def batch_norm(
    x: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise each channel (dim 1) of ``[N, C, *]`` inputs (``[N, C]``, ``[N, C, L]``, ``[N, C, H, W]``...).

    Training uses the batch's statistics and, when given, updates the running ones
    in place (``running = (1 - momentum) * running + momentum * batch``, with the
    unbiased variance). Otherwise it uses the running statistics.
    """
    if x.array.ndim < 2:
        raise ValueError(f"batch_norm(): expected at least 2D input ([N, C, *]), got {x.array.ndim}D input")
    channels = x.array.shape[1]
    dims = (0, *range(2, x.array.ndim))
    stat_shape = (1, channels) + (1,) * (x.array.ndim - 2)
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight), ("bias", bias)):
        if t is not None and t.array.shape != (channels,):
            raise RuntimeError(
                f"batch_norm(): {name} of shape {shape_str(t.array.shape)} does not match the {channels} channels "
                f"of input of shape {shape_str(x.array.shape)}"
            )
    if training:
        count = x.array.size // channels
        if count <= 1:
            raise ValueError(
                f"Expected more than 1 value per channel when training, got input size {shape_str(x.array.shape)}"
            )
        affine = weight is not None and bias is not None
        if affine:
            y, mean, var = _affine_batch_norm(x, dims, weight, bias, eps)
        else:
            mean = x.mean(dim=dims, keepdim=True)
            centered = x - mean
            var = (centered * centered).mean(dim=dims, keepdim=True)
        if running_mean is not None and running_var is not None:
            with no_grad():
                running_mean.array *= 1 - momentum
                running_mean.array += momentum * mean.array.reshape(channels)
                running_var.array *= 1 - momentum
                running_var.array += momentum * var.array.reshape(channels) * (count / (count - 1))
        if affine:
            return y
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("batch_norm(): running_mean and running_var are needed when not training")
        centered = x - make_leaf(running_mean.array.reshape(stat_shape), x.device)
        var = make_leaf(running_var.array.reshape(stat_shape), x.device)
    y = centered * (var + eps).rsqrt()
    if weight is not None:
        y = y * weight.reshape(stat_shape)
    if bias is not None:
        y = y + bias.reshape(stat_shape)
    return y


@rules_saving(("rstd", "stat_shape", "weight", "xhat"))
def _affine_batch_norm(x: Tensor, dims: tuple, weight: Tensor, bias: Tensor, eps: float):
    """Training batch_norm with a weight and a bias as one node: y = x̂ * weight + bias per channel, x̂ = (x -
    mean) * rstd over ``dims`` (every dim but the channels), rstd = 1 / sqrt(var + eps). Also the batch's
    mean and (biased) variance, as tensors without a graph, for the running statistics.

    The rule is the closed form a lesson derives (PyTorch's batch_norm backward), with n values per channel:
    dx = weight * rstd * (g - mean(g) - x̂ * mean(g * x̂)) (:func:`batch_norm_input_grad`), dweight = sum(g * x̂),
    dbias = sum(g). x̂ and rstd are tensors of x with their own rules (those of layer_norm's node, over other
    dims), so the rule can itself be differentiated. The composed form made
    about 11 full-size arrays forward and 20 backward; each fresh one of W17's costs page faults (its last
    BatchNorm2d, [64, 32, 16, 16]: 7.7 ms forward, of which the arithmetic is 0.5).
    """
    xp, a = x.device.xp, x.array
    channels = a.shape[1]
    stat_shape = (1, channels) + (1,) * (a.ndim - 2)
    n = a.size // channels
    by_channel = (a.shape[0], channels, -1)
    mean = _channel_sums(a).reshape(stat_shape) / n
    centered = a - mean  # becomes x̂ in place
    flat = centered.reshape(by_channel)
    var = (xp.einsum("ncl,ncl->c", flat, flat) / n).reshape(stat_shape)
    rstd_value = 1 / xp.sqrt(var + eps)
    rstd = _rstd(x, dims, eps, rstd_value.astype(a.dtype, copy=False))
    centered *= rstd.array
    xhat = _standardized(x, dims, rstd, centered)
    out = centered * weight.array.reshape(stat_shape)
    out += bias.array.reshape(stat_shape)
    stats = make_leaf(mean, x.device), make_leaf(var, x.device)
    if not (grad.enabled or extras.on):
        return (make(out, (x, weight, bias), None, "batch_norm"), *stats)

    def backward(g):
        dweight, dbias = _channel_total(g * xhat, stat_shape), _channel_total(g, stat_shape)
        return (
            lambda: batch_norm_input_grad(g, xhat, rstd, weight),
            lambda: dweight.reshape(-1),
            lambda: dbias.reshape(-1),
        )

    def jvp(tx, tw, tb):
        txhat = rstd * _projected(tx, xhat, dims)
        return txhat * weight.reshape(stat_shape) + xhat * tw.reshape(stat_shape) + tb.reshape(stat_shape)

    return (make(out, (x, weight, bias), backward, "batch_norm", jvp), *stats)


def _channel_sums(a):
    """Sums over every dim of ``[N, C, *]`` but the channels: ``[C]``. The batch first (whole images added),
    then each channel's row; NumPy's sum over dims (0, 2, 3) at once runs a loop per channel and image (W17's
    [64, 128, 4, 4]: 0.16 ms against 0.02)."""
    return a.sum(axis=0).reshape(a.shape[1], -1).sum(axis=1)


def _channel_total(t: Tensor, stat_shape: tuple) -> Tensor:
    """``t`` ``[N, C, *]`` summed over every dim but the channels, as ``stat_shape``: the batch first, then each
    channel's positions, as :func:`_channel_sums` (one sum over dims (0, 2, 3) is NumPy's slow loop)."""
    total = t.sum(0)
    if total.ndim > 1:
        total = total.sum(tuple(range(1, total.ndim)))
    return total.reshape(stat_shape)


@rules_saving(("g", "n", "rstd", "stat_shape", "weight", "xhat"))
def batch_norm_input_grad(g: Tensor, xhat: Tensor, rstd: Tensor, weight: Tensor) -> Tensor:
    """∂L/∂x of training batch_norm: ``weight * rstd * P(g)`` with ``P(g) = g - mean(g) - x̂ * mean(g * x̂)``, the
    means per channel over every other dim, ``rstd`` kept as ``[1, C, 1, ...]`` and ``weight`` ``[C]``.

    One node made in one array (as PyTorch's batch_norm backward): written as Tensor ops it made five
    full-size arrays, each paged in fresh a step (W17's three BatchNorm2d forward and backward, alternating in
    one process: 6.8 -> 4.2 ms).
    Its rule: ``P`` is self-adjoint, so ``∂/∂g = weight * rstd * P(G)``, this op again; with ``s = weight *
    rstd``, ``∂/∂s = sum(G * P(g))`` per channel and ``∂/∂x̂ = -s * (G * mean(g * x̂) + g * mean(G * x̂))``.
    """
    xp, ga, xa = g.device.xp, g.array, xhat.array
    stat_shape = rstd.array.shape
    n = ga.size // ga.shape[1]
    g_mean = _channel_sums(ga).reshape(stat_shape) / n
    by_channel = (ga.shape[0], ga.shape[1], -1)
    gx_mean = (xp.einsum("ncl,ncl->c", ga.reshape(by_channel), xa.reshape(by_channel)) / n).reshape(stat_shape)
    dx = xa * -gx_mean  # then + g - mean(g), times weight * rstd, in place
    dx += ga
    dx -= g_mean
    dx *= weight.array.reshape(stat_shape) * rstd.array

    def projected(t):  # P(t)
        return t - _channel_total(t, stat_shape) / n - xhat * (_channel_total(t * xhat, stat_shape) / n)

    def backward(G):
        scale = weight.reshape(stat_shape) * rstd
        ds = _channel_total(G * projected(g), stat_shape)
        gx, Gx = _channel_total(g * xhat, stat_shape) / n, _channel_total(G * xhat, stat_shape) / n
        return (
            lambda: batch_norm_input_grad(G, xhat, rstd, weight),
            lambda: -scale * (G * gx + g * Gx),
            lambda: ds * weight.reshape(stat_shape),
            lambda: (ds * rstd).reshape(-1),
        )

    def jvp(tg, txhat, trstd, tweight):
        scale = weight.reshape(stat_shape) * rstd
        tscale = tweight.reshape(stat_shape) * rstd + weight.reshape(stat_shape) * trstd
        gx, gtx = _channel_total(g * xhat, stat_shape) / n, _channel_total(g * txhat, stat_shape) / n
        moved = txhat * gx + xhat * gtx  # the tangent of x̂ * mean(g * x̂), at fixed g
        return batch_norm_input_grad(tg, xhat, rstd, weight) + tscale * projected(g) - scale * moved

    return make(dx, (g, xhat, rstd, weight), backward, "batch_norm_input_grad", jvp)
