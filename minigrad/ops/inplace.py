"""In-place ops: ``add_``, ``x += y``, ``copy_``, ``zero_``, ``fill_``, ``clamp_``, ``masked_fill_``, ``x[i] = v``.

Every in-place op computes its out-of-place result, writes it into the
tensor's memory and bumps the memory's version counter
(``minigrad._versions``). A graph node whose saved values are written later
refuses to run backward, with PyTorch's error.

Under grad mode, when the tensor or an operand requires grad, the write is
also recorded, as PyTorch does: the tensor's current node moves to a new
tensor object holding a copy of the old value, the out-of-place op is applied
to that copy, and the tensor becomes the op's node (op name with a trailing
``_``). Nodes made earlier from the tensor still mean the old value; the
engine routes their edges to the moved node (``rebased`` history, by id).
A leaf that requires grad refuses, as in PyTorch, and so does a view of one.

An in-place op on a view of a graph tensor (``b[0].mul_(2)``) rewrites the
base's graph, as PyTorch's CopySlices does: the base becomes the node
``put(old_base, positions, op(old_base[positions]))`` (gathering and
scattering at the view's element positions, which work for any strided
view), and the view becomes a view of that new node (``as_strided``). A view
of a tensor outside the graph written with an operand that requires grad
(``base[:2].add_(w)``) puts the base in the graph that way, as in PyTorch.
Views of that tensor made earlier, outside the graph (``v = base[1:3]``),
saw the write; they join the graph with it, as ``as_strided`` of the base's
new node (PyTorch regenerates their grad_fn), so their gradient reaches ``w``.

The nodes such an op makes on the way (the gather, the op, the scatter) reach
the event listeners (traces, the debugger) like any other node, in the order
they were made; the node the tensor (or its base) takes over is announced as
that tensor.
"""

from __future__ import annotations

import numpy as np

from .. import _events, _state, _versions
from .. import backend as B
from .._tensor_state import multi_view, rebased_history, refuses_grad_write, viewed_from, views_of
from ..tensor import Tensor, _op_class_name, make, mark_written, shape_str, take_node
from . import arithmetic, compare, declare, division
from .declare import IN_PLACE, bind_methods
from .indexing import _is_index_array, put

__all__ = ["apply_inplace", "record_written", "version_error"]

_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2}  # bool < integer < floating, for in-place cast checks


_NO_GRAD_VIEW_ADVICE = (
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both "
    "the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or "
    "both outside (if you want the inplace to be tracked)."
)

NO_GRAD_VIEW_MESSAGE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. " + _NO_GRAD_VIEW_ADVICE
)

NO_GRAD_VIEW_REGRAPHED_MESSAGE = (
    "A view was created in no_grad mode and its base or another view of its base has been modified inplace with "
    "grad mode enabled. " + _NO_GRAD_VIEW_ADVICE
)


NO_GRAD_MULTI_VIEW_MESSAGE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. This view is the "
    "output of a function that returns multiple views. Such functions do not allow the output views to be modified "
    "inplace. You should replace the inplace operation by an out-of-place one."
)  # PyTorch's text for one of several views of a tensor outside the graph, as a view made under no_grad


def apply_inplace(t: Tensor, name: str, fn, *args) -> Tensor:
    """Write ``fn(t, *args)`` (an out-of-place op) into ``t``; record it as op ``name`` when it needs a graph."""
    return _record(t, name, fn, args, written=False)


def record_written(t: Tensor, name: str, fn, *args) -> Tensor:
    """``t``, whose memory an op has already written (a custom Function's ``ctx.mark_dirty``), becomes
    that op's node ``fn(t, *args)`` (a node whose value is ``t``'s memory), recorded as ``apply_inplace``
    records; the write counts as one more version, as in PyTorch."""
    return _record(t, name, fn, args, written=True)


def _record(t: Tensor, name: str, fn, args: tuple, written: bool) -> Tensor:
    if written:
        mark_written(t)  # before the node is made: a value it saves is the written one
    _check_not_inference(t)
    grad_mode = _state.grad.enabled
    if grad_mode and refuses_grad_write(t):
        raise RuntimeError(NO_GRAD_VIEW_MESSAGE)
    recording = grad_mode and (t.requires_grad or any(isinstance(a, Tensor) and a.requires_grad for a in args))
    if not recording:
        if not written:  # written already: nothing to record, nothing to write
            write(t, fn(t, *args), name)
        return t
    base = _recording_base(t)
    made: list = []  # the op's events, held until ``t`` (and its base) have taken their nodes over
    held = [lambda kind, values: made.append((kind, values))] if _events.listeners else []
    listeners = _events.replace_listeners(held)
    try:
        if base is None:
            old = t._split_off()
            operands = (old, *tuple(old if a is t else a for a in args))
            result = fn(*operands)
            if any(result is o for o in operands):  # copy_ of a same-shaped tensor gives its operand back:
                result = result.clone()  # t takes a node of its own, not the operand's (its parent may be t)
            if not written:
                write(t, result, name)
            take_node(t, result, old, name)
        else:
            _rebase_through_view(t, base, name, fn, args, written)
        regraphed = _regraph_views(t if base is None else base, t)
    finally:
        _events.replace_listeners(listeners)
    if listeners:
        _announce(made, (t, base, *regraphed))
    return t


_NODE_AT = {kind: names.index("node") for kind, names in _events.FIELDS.items() if "node" in names}


def _announce(made: list, holders: tuple) -> None:
    """Send the events of a recorded in-place op, in order; a node that one of ``holders`` (``t``, its base,
    their views) took over (same id) is sent as that tensor, so each node reaches the listeners once, as
    the tensor that holds it."""
    holders = {h.id: h for h in holders if h is not None}
    for kind, values in made:
        at = _NODE_AT.get(kind)
        node = None if at is None else values[at]
        holder = holders.get(node.id) if isinstance(node, Tensor) else None
        if holder is not None and holder is not node:
            values = (*values[:at], holder, *values[at + 1 :])
        _events.emit(kind, values)


def _check_not_inference(t: Tensor) -> None:
    if t.is_inference() and not _state.grad.inference:
        raise RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get "
            "a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details."
        )


def write(t: Tensor, result: Tensor, name: str) -> None:
    """Copy ``result`` into ``t``'s memory (PyTorch's cast and shape checks) and bump its version."""
    if result.array.dtype != t.array.dtype and _KIND_RANK[result.array.dtype.kind] > _KIND_RANK[t.array.dtype.kind]:
        raise RuntimeError(f"result type {result.array.dtype} can't be cast to the desired output type {t.array.dtype}")
    if result.array.shape != t.array.shape:
        raise RuntimeError(
            f"output with shape {shape_str(t.array.shape)} doesn't match the broadcast shape "
            f"{shape_str(result.array.shape)}"
        )
    if result.array is not t.array:
        _assign(t, ..., result.array)
    mark_written(t)


def _assign(t: Tensor, key, value) -> None:
    try:
        t.array[key] = value
    except ValueError:
        if not t.array.flags.writeable:
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                "location. Please clone() the tensor before performing the operation."
            ) from None
        raise


def _recording_base(t: Tensor) -> Tensor | None:
    """Where a recorded in-place op on ``t`` goes: None for ``t``'s own node, else the tensor ``t`` views (a
    graph tensor, or one outside the graph, which the op puts in it).

    Refuses, with PyTorch's texts, a leaf that requires grad, a view of one, a view
    made under no_grad, and a view that is one of several outputs (``unbind``,
    ``split``, ``chunk``).
    """
    if t.is_leaf and t.requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    if _versions.owner_of(t.array) is t.array:
        return None
    base = _view_base(t)
    if base is t:
        if not t.is_leaf:
            return None  # its memory is a temporary of the op that made it, not another tensor's
        base, made_under_no_grad = _viewed(t)
        if base is None:
            return None  # memory of an array no tensor here views (a tensor made on a NumPy view): its own node
        if made_under_no_grad:
            raise RuntimeError(NO_GRAD_VIEW_MESSAGE)
        if _multi_view_mark(t) is not None:
            raise RuntimeError(NO_GRAD_MULTI_VIEW_MESSAGE)
    if base.is_leaf and base.requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    several = _multi_view_mark(t)
    if several is not None:
        op, index = several
        raise RuntimeError(
            f"Output {index} of {op} is a view and is being modified inplace. This view is the output of a function "
            "that returns multiple views. Such functions do not allow the output views to be modified inplace. You "
            "should replace the inplace operation by an out-of-place one."
        )
    return base


def _multi_view_mark(t: Tensor):
    """``(op, index)`` when ``t`` is one of several views returned together (``unbind``, ``split``,
    ``chunk``), ``(t's op, 0)`` when it is a view of one (PyTorch names the view's own op), else None."""
    owner = _versions.owner_of(t.array)
    node = t
    while node is not None:
        mark = multi_view(node)
        if mark is not None:
            if node is t:
                return mark
            return (_op_class_name(t.op).removesuffix("Backward") if t.op else "View", 0)
        above = next((p for p in node.parents if _versions.owner_of(p.array) is owner), None)
        if above is None:
            above = viewed_from(node)[0]
        node = above
    return None


def _viewed(t: Tensor) -> tuple:
    """``(base, made_under_no_grad)``: the tensor at the top of the views ``t`` was made from outside the
    graph (``base[:2][1:]`` gives ``base``), or ``(None, False)`` when ``t`` was not made as a view."""
    base, no_grad = None, False
    node = t
    while True:
        above, made = viewed_from(node)
        if above is None:
            return base, no_grad
        node = base = above
        no_grad = no_grad or made


def _view_base(t: Tensor) -> Tensor:
    """The highest tensor up ``t``'s graph whose memory ``t`` shares (``t`` itself when none is)."""
    owner = _versions.owner_of(t.array)
    node = t
    while True:
        parent = next((p for p in node.parents if _versions.owner_of(p.array) is owner), None)
        if parent is None:
            return node
        node = parent


def _rebase_through_view(t: Tensor, base: Tensor, name: str, fn, args: tuple, written: bool = False) -> None:
    """Record ``fn`` written into ``t``, a view of the graph tensor ``base``, as PyTorch's CopySlices does.

    ``base`` becomes the node ``put(old, positions, fn(old[positions]))`` on its old
    value, flattened (``positions``: where each element of ``t`` lies in ``base``),
    and ``t`` a view of it. Nodes made earlier from ``t`` or ``base`` keep their old
    values (``rebased`` history), as for an in-place op on the tensor itself.
    """
    positions = Tensor(_positions_in(base.array, t.array), device=t.device)
    old_view = t._split_off()
    old_base = base._split_off()
    flat = old_base.reshape(-1)
    before = flat[positions]
    result = fn(before, *tuple(before if a is t else old_base if a is base else a for a in args))
    if not written:
        write(t, result, name)
    take_node(base, put(flat, positions, result).reshape(base.array.shape), old_base, "copy_slices")
    take_node(t, base.reshape(-1)[positions], old_view, "as_strided")


def _regraph_views(base: Tensor, written: Tensor) -> list:
    """Put the views of ``base``'s memory made outside the graph (``v = base[1:3]`` before ``base`` was
    written in place) into it, as PyTorch regenerates such a view's grad_fn: each becomes ``as_strided``
    of ``base``'s new node. Returns them.

    A view made under no_grad becomes a node whose backward raises PyTorch's error for it: the write
    was recorded, the view was not meant to be, and PyTorch refuses the ambiguity.
    """
    regraphed = []
    stack = list(views_of(base))
    while stack:
        view = stack.pop()
        stack.extend(views_of(view))
        if view is written or not view.is_leaf:
            continue
        try:
            positions = Tensor(_positions_in(base.array, view.array), device=view.device)
        except RuntimeError:
            continue  # a view whose elements are not base's elements (another dtype): nothing to gather
        old = view._split_off()
        if _viewed(old)[1]:
            take_node(view, _refusal_node(base), old, "as_strided")
        else:
            take_node(view, base.reshape(-1)[positions], old, "as_strided")
        regraphed.append(view)
    return regraphed


def _refusal_node(base: Tensor) -> Tensor:
    def backward(g):
        raise RuntimeError(NO_GRAD_VIEW_REGRAPHED_MESSAGE)

    return make(base.array.reshape(-1)[:0].copy(), (base,), backward, "as_strided")


def view_at(t: Tensor, node_id: int) -> Tensor:
    """The view ``t`` as the node ``node_id`` used it, as PyTorch regenerates a view's grad_fn.

    ``t`` itself, unless an in-place op recorded on its base (or on another view
    of it) came after ``t`` was made and before that node: ``t``'s node then
    describes a value its memory no longer holds, so the view is made again from
    the base's node of that time.
    """
    base = _view_base(t)
    history = rebased_history(base) if base is not t else None
    if not history or not any(t.id < op_id < node_id for op_id, _ in history):
        return t
    then = next((old for op_id, old in history if node_id < op_id), base)
    grad = _state.grad
    saved_mode, grad.enabled = grad.enabled, True
    try:
        return then.reshape(-1)[Tensor(_positions_in(base.array, t.array), device=t.device)]
    finally:
        grad.enabled = saved_mode


def _addresses(arr) -> np.ndarray:
    """The memory address of every element of ``arr``, in ``arr``'s shape (host integers)."""
    start = arr.data.ptr if B.is_cupy_array(arr) else arr.__array_interface__["data"][0]
    out = np.full(arr.shape, start, dtype=np.int64)
    for axis, (n, stride) in enumerate(zip(arr.shape, arr.strides)):
        steps = [1] * arr.ndim
        steps[axis] = n
        out += (np.arange(n, dtype=np.int64) * stride).reshape(steps)
    return out


def _positions_in(base, view) -> np.ndarray:
    """Where each element of ``view`` (an array viewing ``base``'s memory) lies in ``base`` flattened."""
    held = _addresses(base).reshape(-1)
    order = np.argsort(held, kind="stable")
    held = held[order]
    wanted = _addresses(view)
    if wanted.size == 0:
        return np.zeros(view.shape, dtype=np.int64)
    at = np.minimum(np.searchsorted(held, wanted), held.size - 1)
    if view.dtype != base.dtype or not (held[at] == wanted).all():
        raise RuntimeError(
            "minigrad cannot record an in-place operation on this view: its elements are not elements of its base"
        )
    return order[at]


def version_error(saved: Tensor | None, arr, node) -> RuntimeError:
    """PyTorch's error for a saved value (``arr``, of the tensor ``saved``) written in place after ``node`` saved it.

    Like PyTorch, it names the op that made the saved tensor: the node itself
    for a saved output, else the tensor's current op.
    """
    what = f"[minigrad.{B.scalar_type_name(arr.dtype)}Tensor {shape_str(arr.shape)}]"
    if saved is not None and saved.name:
        what += f" named '{saved.name}'"
    if saved is not None and not saved.is_leaf:
        history = rebased_history(saved)
        op = node.op if any(old is node for _, old in history) else saved.op
        what += f", which is output 0 of {_op_class_name(op).removesuffix('Backward')},"
    hint = (
        "Hint: the backtrace further above shows the operation that failed to compute its gradient. "
        "The variable in question was changed in there or anywhere later. Good luck!"
        if _state.anomaly.enabled
        else "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )
    return RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        f"{what} is at version {_versions.version(arr)}; expected version {_versions.version_at(arr, node.id)} "
        f"instead. {hint}"
    )


# ---------------------------------------------------------------- batching rules (vmap)
def _batched_setitem(call):
    t, key, value = call.args
    v = call.value(t)
    keys = key if isinstance(key, tuple) else (key,)
    if v is None:  # the in-place family's refusal: a batched value or key written into an unbatched tensor
        return call.by_family(IN_PLACE)
    if call.batched_among(keys) or any(_is_index_array(k) for k in keys):
        call.loop()
        return None
    w = call.value(value)
    if w is not None:
        w = call.padded(w, t[key].dim())
    call.run(call.fn, v, (slice(None),) + keys, value if w is None else w)
    return None


# ---------------------------------------------------------------- the in-place ops
def _inplace_binary(op, methods: tuple):
    """The in-place form of the binary op ``op`` (``add_`` of ``add``), declared as the Tensor ``methods``."""

    def method(self, other, *args, **kwargs):
        return apply_inplace(self, op.__name__ + "_", lambda s, o: op(s, o, *args, **kwargs), other)

    method.__name__ = op.__name__ + "_"
    method.__doc__ = f"In-place {op.__name__}: writes the result into this tensor (recorded under grad mode)."
    return declare.op(batch=IN_PLACE, methods=methods)(method)


add_ = _inplace_binary(arithmetic.add, ("add_", "__iadd__"))
sub_ = _inplace_binary(arithmetic.sub, ("sub_", "__isub__"))
mul_ = _inplace_binary(arithmetic.mul, ("mul_", "__imul__"))
div_ = _inplace_binary(arithmetic.div, ("div_", "__itruediv__"))
pow_ = _inplace_binary(arithmetic.pow, ("pow_", "__ipow__"))
remainder_ = _inplace_binary(division.remainder, ("remainder_", "__imod__"))
fmod_ = _inplace_binary(division.fmod, ("fmod_",))
bitwise_and_ = _inplace_binary(compare.bitwise_and, ("bitwise_and_", "__iand__"))
bitwise_or_ = _inplace_binary(compare.bitwise_or, ("bitwise_or_", "__ior__"))
bitwise_xor_ = _inplace_binary(compare.bitwise_xor, ("bitwise_xor_", "__ixor__"))
bitwise_left_shift_ = _inplace_binary(compare.bitwise_left_shift, ("bitwise_left_shift_", "__ilshift__"))
bitwise_right_shift_ = _inplace_binary(compare.bitwise_right_shift, ("bitwise_right_shift_", "__irshift__"))


def _fill_rule(g):
    return (g * 0,)


def _fill_tangent(t):
    return t * 0


def _filled(t: Tensor, value) -> Tensor:
    return make(t.device.xp.full_like(t.array, value), (t,), _fill_rule, "fill", _fill_tangent)


@declare.op(batch=IN_PLACE, methods="zero_")
def zero_(t: Tensor) -> Tensor:
    """Fill with zeros in place."""
    return apply_inplace(t, "zero_", _filled, 0)


@declare.op(batch=IN_PLACE, methods="fill_")
def fill_(t: Tensor, value) -> Tensor:
    """Fill with ``value`` (a number or a one-element tensor) in place."""
    if isinstance(value, Tensor):
        if value.array.size != 1:
            raise RuntimeError(
                f"fill_ only supports 0-dimension value tensor but got tensor with {value.array.ndim} dimensions."
            )
        value = value.item()
    if value is None or not isinstance(value, (int, float, bool, np.generic)):
        raise TypeError(f"fill_(): argument 'value' (position 1) must be Number, not {type(value).__name__}")
    return apply_inplace(t, "fill_", _filled, value)


def _copied(t: Tensor, src: Tensor) -> Tensor:
    out = src if src.array.dtype == t.array.dtype else src.to(t.array.dtype)
    return out.expand(*t.array.shape) if out.array.shape != t.array.shape else out


@declare.op(batch=IN_PLACE, methods="copy_")
def copy_(t: Tensor, src) -> Tensor:
    """Copy ``src`` (a tensor, array, list or number, broadcast to this shape) into this tensor in place."""
    if not isinstance(src, Tensor):
        src = Tensor(B.to_host(src) if B.is_cupy_array(src) else src, dtype=t.array.dtype, device=t.device)
    elif src.device is not t.device:
        src = src.to(t.device)
    return apply_inplace(t, "copy_", _copied, src)


@declare.op(batch=IN_PLACE, methods="clamp_")
def clamp_(t: Tensor, min=None, max=None) -> Tensor:  # noqa: A002  (torch's argument names)
    """In-place clamp."""
    return apply_inplace(t, "clamp_", lambda s: s.clamp(min, max))


@declare.op(batch=IN_PLACE, methods="masked_fill_")
def masked_fill_(t: Tensor, mask, value) -> Tensor:
    """In-place masked_fill."""
    return apply_inplace(t, "masked_fill_", lambda s, v: s.masked_fill(mask, v), value)


@declare.op(batch=_batched_setitem, methods="__setitem__")
def setitem(t: Tensor, key, value) -> None:
    """``t[key] = value`` in place; recorded (as ``index_put_``) when ``t`` or ``value`` requires grad."""
    _check_not_inference(t)
    if isinstance(value, Tensor) and value.device is not t.device:
        raise RuntimeError(
            f"Expected all tensors to be on the same device, but found at least two devices, "
            f"{t.device} and {value.device}! (in setitem)"
        )
    if isinstance(value, Tensor) and value.requires_grad and _state.grad.enabled:
        apply_inplace(t, "index_put_", lambda s, v: put(s, key, v), value)
        return
    if t.requires_grad and _state.grad.enabled:
        apply_inplace(t, "index_put_", lambda s: put(s, key, value))
        return
    put(t, key, value, into=t)
    mark_written(t)


bind_methods(Tensor, __name__)
