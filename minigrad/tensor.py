"""Tensor: an array, its gradient, and the graph edge that made it.

A tensor produced by an op keeps its parents and a backward closure, defined by
the op right beside its forward computation. The closure maps the incoming
gradient to one gradient per parent; the engine (``minigrad.autograd.engine``)
accumulates them. Ops live in ``minigrad.ops`` and are bound as methods there.
"""

from __future__ import annotations

import itertools
import os
import traceback
import warnings
import weakref

import numpy as np

from . import _events, _state, _upcalls, _versions
from . import backend as B
from ._tensor_state import HookState, Origin, ViewState, view_state

__all__ = ["Tensor", "tensor", "make", "take_node", "shape_str", "node_label", "FREED_MESSAGE"]

_ids = itertools.count(1)

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_EXAMPLES_DIR = os.path.join(_PACKAGE_DIR, "examples") + os.sep
_grad_state = _state.grad
_anomaly_state = _state.anomaly
_forward_state = _state.forward
_extras = _state.extras
_inference = _state.inference_tensors
_listeners = _events.listeners
_ndarray = np.ndarray
_np_scalar = np.generic
_new = object.__new__


def shape_str(shape) -> str:
    """Format a shape the way minigrad's messages show it: ``[2, 3]``."""
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


def _freed_backward(grad):
    raise RuntimeError(FREED_MESSAGE)


def node_label(name: str | None, op: str | None, node_id: int) -> str:
    """How every message and viewer names a node: its name, else ``op#id`` (``leaf#id`` for a leaf)."""
    return name or f"{op or 'leaf'}#{node_id}"


# PyTorch's two spellings of a dtype in its .grad assignment error: the gradient's (caffe2 TypeMeta)
# and the tensor's (ScalarType).
_TYPE_META_NAMES = {
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "bool": "bool",
}


class Tensor:
    """A multi-dimensional array that can record the operations applied to it.

    ``Tensor(data, dtype=None, device=None, requires_grad=False, name=None)``
    behaves like :func:`minigrad.tensor`.

    ``array`` is the NumPy (CPU) or CuPy (CUDA) array that holds the values, shared, not copied:
    what ops and viewers read. ``data`` is those values as a Tensor outside the graph, as in PyTorch.

    ``device`` (where the values live), ``id`` (a stable id, unique within the process, which traces and
    diagrams use), ``op`` (the name of the op that made the tensor; None for a leaf) and ``parents`` (the
    tensors it was computed from; empty for a leaf) are plain slots, read-only by contract: every op and
    every step of a backward pass reads them, and a slot reads several times faster than a property.
    The rest of a tensor's state is declared in ``minigrad._tensor_state``.
    """

    __slots__ = (
        "array",
        "_grad",
        "_rg",
        "parents",
        "_backward",
        "op",
        "id",
        "device",
        "name",
        "_view",
        "_hooks",
        "_tangents",
        "_origin",
        "__weakref__",
    )
    # The public slots' types, for readers and static tools (tensor.pyi); annotations only, no values.
    array: np.ndarray  # a cupy.ndarray on a CUDA device
    parents: tuple[Tensor, ...]
    op: str | None
    id: int
    device: B.Device
    name: str | None

    __hash__ = object.__hash__
    __array_priority__ = 1000  # make ndarray <op> Tensor defer to Tensor's reflected op

    def __init__(self, data, dtype=None, device=None, requires_grad=False, name=None):
        if requires_grad is not False and not isinstance(requires_grad, bool):
            raise TypeError(f"tensor(): argument 'requires_grad' must be bool, not {type_name(requires_grad)}")
        arr, dev = _to_array(data, dtype, device)
        self.array = arr
        self._grad = None
        self._rg = False
        self.parents = ()
        self._backward = None
        self.op = None
        self.id = next(_ids)
        self.device = dev
        self.name = name
        self._view = None
        self._hooks = None
        self._tangents = None
        self._origin = None
        if _inference.entered and _grad_state.inference:
            _mark_inference(self)
        if requires_grad:
            self.requires_grad_(True)
        if _listeners:
            _events.emit("node_created", (self, _state.passes.depth))

    # ------------------------------------------------------------ autograd state
    @property
    def requires_grad(self) -> bool:
        """Whether gradients are computed for this tensor."""
        return self._rg

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise RuntimeError("requires_grad must be a bool")
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set requires_grad in place (leaves only; floating dtypes only). Returns self."""
        if not isinstance(requires_grad, bool):
            raise TypeError(
                f"requires_grad_(): argument 'requires_grad' (position 1) must be bool, not {type_name(requires_grad)}"
            )
        requires_grad = bool(requires_grad)
        if requires_grad and self.is_inference() and not _grad_state.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        if self._backward is not None and not requires_grad:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        if requires_grad and self.array.dtype.kind != "f":
            raise RuntimeError(
                f"only Tensors of floating point and complex dtype can require gradients (got dtype {self.array.dtype})"
            )
        self._rg = requires_grad
        return self

    @property
    def grad(self) -> Tensor | None:
        """The gradient accumulated by backward(), or None (with PyTorch's warning for a non-leaf without one)."""
        g = self._grad
        if g is None and self._backward is not None and not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return g

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}"
                )
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of size "
                    f"'{list(self.shape)}'. Please ensure that the gradient and the tensor are the same size"
                )
            if value.dtype != self.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_TYPE_META_NAMES.get(value.array.dtype.name)}' to "
                    f"a tensor with grad_dtype '{B.scalar_type_name(self.array.dtype)}'. The gradient must "
                    "match the tensor's grad_dtype (defaults to the tensor's dtype)."
                )
            if value.device != self.device:
                raise RuntimeError(
                    f"attempting to assign a gradient with device type '{value.device}' to a tensor with "
                    f"device type '{self.device}'. Please ensure that the gradient and the tensor are on the "
                    "same device"
                )
        self._grad = value

    @property
    def _version(self) -> int:
        """How many in-place writes this tensor's memory has seen (shared with its views and ``detach()``)."""
        return _versions.version(self.array)

    def is_inference(self) -> bool:
        """Whether this tensor was made in ``inference_mode()``."""
        return self._origin is not None and self._origin.inference

    @property
    def is_leaf(self) -> bool:
        """True for tensors not produced by a recorded op (user-made tensors, parameters)."""
        return self._backward is None

    @property
    def is_freed(self) -> bool:
        """True once a backward pass with ``retain_graph=False`` freed this tensor's rule and the values
        it saved: another backward through it raises "Trying to backward through the graph a second time"."""
        return self._backward is _freed_backward

    @property
    def grad_fn(self):
        """The op that produced this tensor, as ``<OpBackward>``; None for leaves."""
        if self._backward is None:
            return None
        return GradFn(self)

    def retain_grad(self) -> None:
        """Keep ``.grad`` for this non-leaf tensor during backward()."""
        if not self._rg:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._backward is not None:
            if self._hooks is None:
                self._hooks = HookState()
            self._hooks.retains_grad = True

    @property
    def retains_grad(self) -> bool:
        """Whether ``retain_grad()`` was called on this non-leaf tensor (its ``.grad`` is kept)."""
        return self._hooks is not None and self._hooks.retains_grad

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        """Compute the gradient of this tensor w.r.t. graph leaves, accumulating into their ``.grad``.

        ``gradient`` is required unless the tensor holds a single element.
        ``retain_graph`` defaults to ``create_graph``; without it the graph's
        closures are freed and a second backward raises.
        """
        _upcalls.backward(self, None if gradient is None else (gradient,), retain_graph, create_graph, inputs)

    def register_hook(self, hook) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it."""
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._hooks is None:
            self._hooks = HookState()
        if self._hooks.hooks is None:
            self._hooks.hooks = {}
        handle = RemovableHandle(self._hooks.hooks)
        self._hooks.hooks[handle.id] = hook
        return handle

    # ------------------------------------------------------------ array facts
    @property
    def shape(self) -> tuple:
        """The size of each dimension, as a tuple of ints."""
        return self.array.shape

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self.array.ndim

    def dim(self) -> int:
        """The number of dimensions (``ndim``)."""
        return self.array.ndim

    @property
    def dtype(self) -> np.dtype:
        """The element type (a NumPy dtype: ``minigrad.float32`` is ``numpy.float32``'s)."""
        return self.array.dtype

    @property
    def is_cuda(self) -> bool:
        """Whether the values live on a CUDA device."""
        return self.device.type == "cuda"

    def size(self, dim: int | None = None):
        """The shape, or the length of one dimension."""
        if dim is None:
            return self.array.shape
        return self.array.shape[_check_dim(dim, self.array.ndim)]

    def numel(self) -> int:
        """The number of elements."""
        return int(self.array.size)

    def __len__(self) -> int:
        if self.array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.array.shape[0]

    def item(self):
        """The single value of a one-element tensor, as a Python number."""
        if self.array.size != 1:
            raise RuntimeError(f"a Tensor with {self.array.size} elements cannot be converted to Scalar")
        return self.array.reshape(()).item()

    def tolist(self):
        """The values as (nested) Python lists of numbers; a 0-d tensor gives its number."""
        return B.to_host(self.array).tolist()

    def numpy(self) -> np.ndarray:
        """The data as a NumPy array sharing memory (CPU tensors that do not require grad)."""
        if self._rg:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if self.device.type != "cpu":
            raise TypeError(
                f"can't convert {self.device} device type tensor to numpy. "
                "Use Tensor.cpu() to copy the tensor to host memory first."
            )
        return self.array

    def __array__(self, dtype=None, copy=None):
        if self.device.type != "cpu":
            raise TypeError(
                f"can't convert {self.device} device type tensor to numpy. "
                "Use Tensor.cpu() to copy the tensor to host memory first."
            )
        arr = self.array
        if dtype is not None:
            arr = arr.astype(dtype, copy=False)
        return arr.copy() if copy else arr

    def __bool__(self) -> bool:
        if self.array.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if self.array.dtype.kind not in "iub" or self.array.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __iter__(self):
        if self.array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.array.shape[0]))

    # ------------------------------------------------------------ copies and moves
    def _split_off(self) -> Tensor:
        """A new tensor object taking over this one's node (op, parents, rule, id, hooks) with a copy of its
        value: what earlier nodes keep as their parent when this tensor is written in place or detached."""
        old = Tensor.__new__(Tensor)
        old.array = self.array.copy()
        old._grad = None
        old._rg = self._rg
        old.parents = self.parents
        old._backward = self._backward
        old.op = self.op
        old.id = self.id
        old.device = self.device
        old.name = self.name
        # what belongs to the tensor object stays (its views, in-place history, retain_grad); the rest
        # describes the node and goes with it
        view, hooks = self._view, self._hooks
        self._view, old._view = (None, None) if view is None else view.split()
        old._hooks = None if hooks is None or not hooks.hooks else HookState(hooks=hooks.hooks)
        self._hooks = HookState(retains_grad=True) if hooks is not None and hooks.retains_grad else None
        old._tangents, self._tangents = self._tangents, None
        old._origin, self._origin = self._origin, None
        return old

    def detach(self) -> Tensor:
        """A new leaf sharing this tensor's data, cut from the graph."""
        return make_leaf(self.array, self.device)

    @property
    def data(self) -> Tensor:
        """The values as a Tensor outside the graph, sharing memory, as PyTorch's ``.data``.

        Like ``detach()``, but in-place writes through it bump no version counter: autograd does not
        see them (``p.data.add_(g, alpha=-lr)`` updates ``p`` where a saved ``p`` will not notice).
        Assigning a Tensor (``p.data = t``) makes ``p`` hold ``t``'s memory. ``Tensor.array`` is the
        NumPy (or CuPy) array itself.
        """
        out = make_leaf(self.array, self.device)
        out._view = ViewState(unversioned=True)
        return out

    @data.setter
    def data(self, value) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type_name(value)}")
        if self._rg and value.array.dtype.kind != "f":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        self.array = value.array
        self.device = value.device

    def detach_(self) -> Tensor:
        """Cut this tensor from the graph in place, making it a leaf.

        Nodes made from it before keep its node as their parent, as in PyTorch
        (their edges lead to its old node, not to the tensor object).
        """
        if self._backward is not None:
            old = self._split_off()
            self.id = next(_ids)
            _record_rebase(self, old)
        self.parents = ()
        self._backward = None
        self.op = None
        self._rg = False
        return self

    def __repr__(self) -> str:
        return format_tensor(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        """A 0-d tensor formats as its number (``f"{loss:.4f}"``), as in PyTorch; others only as ``str``."""
        if self.array.ndim == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        return (_rebuild, (B.to_host(self.array), str(self.device), self._rg, self.name))


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    _next_id = itertools.count()

    def __init__(self, hooks: dict):
        self._hooks = hooks
        self.id = next(RemovableHandle._next_id)

    def remove(self) -> None:
        self._hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class GradFn:
    """A light view of the backward step that produced a tensor (``grad_fn``)."""

    __slots__ = ("node",)

    def __init__(self, node: Tensor):
        self.node = node

    def name(self) -> str:
        return _op_class_name(self.node.op)

    @property
    def next_functions(self) -> tuple:
        return tuple((p.grad_fn, 0) for p in self.node.parents)

    def __repr__(self) -> str:
        return f"<{self.name()}>"


def _op_class_name(op: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in op.split("_")) + "Backward"


def _rebuild(arr, device, requires_grad, name):
    return Tensor(arr, device=device, requires_grad=requires_grad, name=name)


def take_node(t: Tensor, result: Tensor, old: Tensor, op: str) -> None:
    """Make ``t`` the node of ``result``, an op's result on ``old`` (``t``'s node before, split off), named
    ``op``: what an in-place op recorded on ``t`` does (``ops.inplace``). Nodes made earlier keep ``old``."""
    t._rg = result._rg
    t.parents = result.parents
    t._backward = result._backward
    t.op = op
    t.id = result.id
    _record_rebase(t, old)
    # a rule that reads its op's output (exp's, tanh's) holds ``result`` weakly: the node keeps it alive
    t._view.output = result


def _record_rebase(t: Tensor, old: Tensor) -> None:
    """Note that ``t`` took a new node (id ``t.id``) while the nodes made before keep ``old``, its node before."""
    view = view_state(t)
    if view.rebased is None:
        view.rebased = []
    view.rebased.append((t.id, old))
    _versions.rebased[id(t)] = t


# ---------------------------------------------------------------- construction
def make(data, parents: tuple, backward, op: str, jvp=None) -> Tensor:
    """Wrap an op's result: record ``parents`` and ``backward`` when the graph is being built.

    ``parents`` are the tensor operands (never Python scalars). The graph is
    recorded only under grad mode and when some parent requires grad; otherwise
    the result is a plain leaf and ``backward`` is dropped. ``jvp`` is the op's
    forward-mode rule: inside a dual level, when a parent carries a tangent, it
    maps the parents' tangents to the result's.
    """
    t = _new(Tensor)
    if type(data) is not _ndarray:
        data = _coerce_result(data)
    t.array = data
    t._grad = None
    t.id = next(_ids)
    t.device = parents[0].device
    t.name = None
    t._view = None
    t._hooks = None
    t._tangents = None
    t._origin = None
    if _grad_state.enabled:
        for p in parents:
            if p._rg:
                t._rg = True
                t.parents = parents
                t._backward = backward
                t.op = op
                if _extras.on:
                    if _anomaly_state.enabled:
                        _anomaly_record(t)
                    if _inference.made:
                        _refuse_saved_inference(parents, backward)
                break
        else:
            t._rg = False
            t.parents = ()
            t._backward = None
            t.op = None
            if data.base is not None:
                _mark_view(t, parents[0], False)
    else:
        t._rg = False
        t.parents = ()
        t._backward = None
        t.op = None
        if _extras.on and _inference.entered and _grad_state.inference:
            _mark_inference(t)
        if data.base is not None and not _state.passes.depth:  # not a rule's own view
            _mark_view(t, parents[0], True)
    if _listeners and (t._rg or not _state.passes.depth):  # not a pass's gradient arithmetic
        _events.emit("node_created", (t, _state.passes.depth))
    if _extras.on and _forward_state.level >= 0:
        _forward_tangent(t, parents, jvp, op)
    return t


def _mark_view(t: Tensor, base: Tensor, no_grad: bool) -> None:
    """Note that ``t``, made outside the graph, views the memory of ``base`` (PyTorch's view tracking): a
    recorded in-place op on ``t`` puts ``base`` in the graph (``ops.inplace``). PyTorch refuses an in-place
    op with grad mode on for a view made under no_grad of a tensor that requires grad (``no_grad_view``),
    and for one of any tensor when the op must be recorded."""
    owner, held = t.array.base, base.array
    if owner is not held and owner is not held.base and _versions.owner_of(t.array) is not _versions.owner_of(held):
        return  # a view of a temporary of the op, not of base's memory
    view = view_state(t)
    view.base, view.base_no_grad = base, no_grad
    if no_grad and base._rg:
        view.no_grad_view = True
    held = view_state(base)
    if held.views is None:
        held.views = weakref.WeakSet()
    held.views.add(t)  # so that a recorded in-place write of base's memory can put t in the graph (ops.inplace)


def _tangent_of(t: Tensor, depth: int | None = None):
    """The tangent ``t`` carries at the dual level of ``depth`` (default: the innermost active one), or None."""
    tangents = t._tangents
    if depth is None:
        depth = _forward_state.level
    if tangents is None or depth < 0:
        return None
    entry = tangents.get(depth)
    if entry is None or entry[0] != _forward_state.keys[depth]:
        return None
    return entry[1]


def _set_tangent(t: Tensor, tangent: Tensor, depth: int | None = None) -> None:
    """Give ``t`` ``tangent`` at the dual level of ``depth`` (default: the innermost active one)."""
    if depth is None:
        depth = _forward_state.level
    if t._tangents is None:
        t._tangents = {}
    t._tangents[depth] = (_forward_state.keys[depth], tangent)


def _drop_tangent(t: Tensor, depth: int) -> None:
    """Forget ``t``'s tangent at the dual level of ``depth``."""
    if t._tangents is not None:
        t._tangents.pop(depth, None)


def _tangents_of(t: Tensor) -> dict:
    """``{depth: tangent}`` for every active dual level at which ``t`` carries a tangent."""
    if t._tangents is None:
        return {}
    found = {}
    for depth in range(_forward_state.level + 1):
        tangent = _tangent_of(t, depth)
        if tangent is not None:
            found[depth] = tangent
    return found


def _forward_tangent(t: Tensor, parents: tuple, jvp, op: str) -> None:
    """Forward mode: the result's tangent at every active level from its parents' (zeros where a parent
    has none), outermost level first.

    The rule of the level at depth ``d`` runs with the levels outside it still active, so its own Tensor
    ops carry their tangents (a jvp of a jvp gives second derivatives), and with ``d`` and the levels
    inside it off, so that a level never sees another's tangents (no perturbation confusion).
    Results that are not floating point (indices, masks, integer casts) carry no tangent, as in PyTorch."""
    if t.array.dtype.kind != "f":
        return
    top, in_rule = _forward_state.level, _forward_state.in_rule
    for depth in range(top + 1):
        tangents = [_tangent_of(p, depth) for p in parents]
        if all(x is None for x in tangents):
            continue
        if jvp is None:
            raise RuntimeError(
                f"Trying to use forward AD with {op} that does not support it because it has not been implemented yet."
            )
        tangents = [
            x if x is not None else make_leaf(p.device.xp.zeros_like(p.array), p.device)
            for x, p in zip(tangents, parents)
        ]
        _forward_state.level, _forward_state.in_rule = depth - 1, True
        try:
            tangent = jvp(*tangents)
        finally:
            _forward_state.level, _forward_state.in_rule = top, in_rule
        if tangent.array.shape != t.array.shape:
            raise RuntimeError(
                f"the forward-mode rule of {op} returned a tangent of shape {shape_str(tangent.array.shape)} "
                f"for a result of shape {shape_str(t.array.shape)}"
            )
        if _listeners:
            _events.emit("tangent_computed", (t, _state.passes.depth, op, parents, tangents, tangent, jvp, depth))
        _set_tangent(t, tangent, depth)


def blank_tensor(cls: type, device: B.Device) -> Tensor:
    """A ``cls`` (Tensor or a subclass) with a fresh id, no graph, no name and no value yet.

    Made without a ``node_created`` event or any check: for the machinery's own values
    (``trace.emit``'s shadows of a learner's nodes, ``vmap``'s batches), never for user tensors.
    """
    t = _new(cls)
    t._grad = None
    t._rg = False
    t.parents = ()
    t._backward = None
    t.op = None
    t.id = next(_ids)
    t.device = device
    t.name = None
    t._view = None
    t._hooks = None
    t._tangents = None
    t._origin = None
    return t


def type_name(value) -> str:
    """A type's name as PyTorch's errors print it (``numpy.bool`` for NumPy's, which are not Python's)."""
    kind = type(value)
    return f"numpy.{kind.__name__}" if kind.__module__ == "numpy" else kind.__name__


def make_leaf(data, device: B.Device, requires_grad: bool = False, name: str | None = None) -> Tensor:
    """A leaf tensor around an existing array (no copy, no checks)."""
    t = _new(Tensor)
    if type(data) is not _ndarray:
        data = _coerce_result(data)
    t.array = data
    t._grad = None
    t._rg = requires_grad
    t.parents = ()
    t._backward = None
    t.op = None
    t.id = next(_ids)
    t.device = device
    t.name = name
    t._view = None
    t._hooks = None
    t._tangents = None
    t._origin = None
    if _inference.entered and _grad_state.inference:
        _mark_inference(t)
    if _listeners and (t._rg or not _state.passes.depth):  # not a pass's gradient arithmetic
        _events.emit("node_created", (t, _state.passes.depth))
    return t


def _mark_inference(t: Tensor) -> None:
    if t._origin is None:
        t._origin = Origin()
    t._origin.inference = True
    _inference.made = True


def _refuse_saved_inference(parents: tuple, backward) -> None:
    """PyTorch's error when a recorded op saves an inference tensor."""
    inference = [p for p in parents if p._origin is not None and p._origin.inference]
    if not inference:
        return
    held = set()
    for cell in getattr(backward, "__closure__", None) or ():  # what the rule captured (autograd.saved looks deeper)
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        held.add(id(value))
        if isinstance(value, Tensor):
            held.add(id(value.array))
    if any(id(p) in held or id(p.array) in held for p in inference):
        raise RuntimeError(
            "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode "
            "in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor "
            "and use it in autograd, or use `minigrad.no_grad()` instead of `minigrad.inference_mode()`."
        )


def _coerce_result(data):
    # NumPy returns scalars (np.float64) from ops on 0-d arrays; keep real arrays. The scalar case
    # is the common one (every op on a 0-d tensor), so it is tested first.
    if isinstance(data, _np_scalar):
        return np.asarray(data)
    if B.is_cupy_array(data):
        return data
    return np.asarray(data)


def mark_written(t: Tensor) -> None:
    """Record an in-place write of ``t``'s memory: bump its version counter, stamped with a fresh id.

    Writes through ``.data`` are not recorded, as in PyTorch.
    """
    if t._view is None or not t._view.unversioned:
        _versions.bump(t.array, next(_ids))


def _check_dim(dim: int, ndim: int) -> int:
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"dim must be an int, got {type(dim).__name__}")
    if dim < low or dim > high:
        raise IndexError(f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})")
    return dim % ndim if ndim else 0


def _to_array(data, dtype, device):
    """Convert user data to (array, Device), copying like torch.tensor does."""
    dt = None if dtype is None else B.to_dtype(dtype)
    if isinstance(data, Tensor):
        arr = data.array.copy()
        src = data.device
    elif B.is_cupy_array(data):
        arr = data.copy()
        src = B.device_of_array(data)
    else:
        from_python = not isinstance(data, (np.ndarray, np.generic))
        try:
            arr = np.array(data, order="C")  # contiguous, like torch.tensor (gradcheck perturbs a flat view)
        except (ValueError, TypeError) as exc:
            raise TypeError(f"could not convert data of type {type(data).__name__} to a tensor: {exc}") from None
        if from_python and (arr.dtype.kind in "uO" or (arr.dtype.kind == "f" and isinstance(data, (list, tuple)))):
            arr = _wide_ints(data, arr, dt)
        if arr.dtype.kind in "SUV":  # text is no number, whatever dtype is asked for (NumPy would parse "1")
            raise _unsupported_data(arr.dtype)
        if arr.dtype == object:
            raise TypeError(
                f"could not convert data of type {type(data).__name__} to a tensor: "
                "the elements are not all numbers, or the nested lists are ragged"
            )
        if from_python and arr.dtype.kind == "c" and dt is not None and dt.kind in "iuf":
            _refuse_complex(dt)  # NumPy would drop the imaginary part: tensor(1j, dtype=float32) was 0.0
        if dt is not None and dt.kind in "iu" and arr.dtype.kind in "fiu" and not isinstance(data, np.ndarray):
            _refuse_overflow(arr, dt)  # NumPy would wrap: tensor(2**40, dtype=int32) was 0, NaN a huge negative
        if dt is None:
            arr = arr.astype(_natural_dtype(arr.dtype, from_python), copy=False)
        src = B.CPU
    if dt is not None and arr.dtype != dt:
        with np.errstate(over="ignore"):  # a float too large for float16 is inf, without NumPy's warning (PyTorch's)
            arr = arr.astype(dt)
    dev = (B.get_default_device() if src is B.CPU else src) if device is None else B.device(device)
    if dev != src:
        arr = B.to_device_array(arr, dev)
    return arr, dev


def _refuse_complex(dt: np.dtype) -> None:
    """Python's refusal of a complex number where a real one is expected, as ``torch.tensor`` raises it (a
    NumPy complex array is cast, as there)."""
    if dt.kind == "f":
        raise TypeError("must be real number, not complex")
    raise TypeError("'complex' object cannot be interpreted as an integer")


def _refuse_overflow(arr, dt) -> None:
    """PyTorch's error for numbers an integer dtype ``dt`` cannot hold (NaN, infinities, ints past its range)."""
    if arr.dtype == dt or not arr.size:
        return
    info = np.iinfo(dt)
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise RuntimeError(f"value cannot be converted to type {dt} without overflow")
    if arr.min() < info.min or arr.max() > info.max:
        raise RuntimeError(f"value cannot be converted to type {dt} without overflow")


def _wide_ints(data, arr, dt):
    """``arr``, NumPy's array of the Python ``data``, checked for ints past int64 (NumPy makes them uint64,
    float64 or object): PyTorch refuses one unless the tensor is floating or bool (a float or bool dtype is
    given, or none is and a float is among the data), where it is a float."""
    if arr.dtype.kind == "f" and not np.abs(arr).max(initial=0) >= 2.0**63:
        return arr
    leaves, todo = [], [data]
    while todo:
        item = todo.pop()
        if isinstance(item, (list, tuple)):
            todo.extend(item)
        elif isinstance(item, (bool, int, float)):
            leaves.append(item)
        else:  # not a Python number: the usual conversion errors say what is wrong
            return arr
    wide = next((x for x in leaves if type(x) is int and not -(2**63) <= x < 2**63), None)
    if wide is None:
        return arr
    if not (dt.kind in "fb" if dt is not None else any(isinstance(x, float) for x in leaves)):
        raise ValueError(
            f"could not convert data of type {type(data).__name__} to a tensor: {wide} does not fit in int64"
        )
    return np.array(data, dtype=np.float64) if arr.dtype == object else arr


def _natural_dtype(dt: np.dtype, from_python: bool) -> np.dtype:
    if dt.kind == "f":
        if from_python:
            return B.get_default_dtype()
        return dt if dt in B.SUPPORTED_DTYPES else B.float64
    if dt.kind in "iu":
        return dt if dt in B.SUPPORTED_DTYPES else B.int64
    if dt.kind == "b":
        return B.bool_
    raise _unsupported_data(dt)


def _unsupported_data(dt: np.dtype) -> TypeError:
    return TypeError(f"unsupported data type {dt} for a tensor; minigrad supports floating, integer and bool data")


def tensor(data, dtype=None, device=None, requires_grad: bool = False, name: str | None = None) -> Tensor:
    """Make a leaf tensor from Python scalars, nested lists, NumPy or CuPy arrays, or a Tensor.

    Python floats become float32 (the default dtype), ints int64, bools bool.
    The data is always copied.
    """
    return Tensor(data, dtype=dtype, device=device, requires_grad=requires_grad, name=name)


# ---------------------------------------------------------------- repr
def format_tensor(t: Tensor) -> str:
    arr = B.to_host(t.array)
    prefix = "tensor("
    if arr.size == 0:
        body = f"[], size={tuple(arr.shape)}" if arr.ndim > 1 else "[]"
    else:
        fmt = None
        if arr.dtype.kind == "f":
            fmt = {"float_kind": _float_formatter(arr)}
        elif arr.dtype.kind == "b" and arr.all():
            fmt = {"bool": str}  # PyTorch pads True only to line up with a False
        body = np.array2string(
            arr, separator=", ", prefix=prefix, formatter=fmt, threshold=1000, edgeitems=3, max_line_width=80
        )
    extras = []
    if t.device.type != "cpu":
        extras.append(f"device='{t.device}'")
    if t.array.dtype not in (B.get_default_dtype(), B.int64, B.bool_):
        extras.append(f"dtype={t.array.dtype}")
    if t._backward is not None:
        extras.append(f"grad_fn=<{_op_class_name(t.op)}>")
    elif t._rg:
        extras.append("requires_grad=True")
    if t.name:
        extras.append(f"name='{t.name}'")
    return prefix + body + "".join(", " + e for e in extras) + ")"


def _float_formatter(arr: np.ndarray):
    """PyTorch's float style: scientific for wide ranges, ``1.`` for integral values, else 4 decimals, right-aligned."""
    finite = np.abs(arr[np.isfinite(arr)])
    nonzero = finite[finite != 0]
    sci = nonzero.size > 0 and (nonzero.max() >= 1e8 or nonzero.min() < 1e-4 or nonzero.max() / nonzero.min() > 1e3)
    if sci:
        one = lambda v: np.format_float_scientific(v, precision=4, unique=False) if np.isfinite(v) else str(v)  # noqa: E731
    elif bool(np.all(finite == np.round(finite))):
        one = lambda v: f"{v:.0f}." if np.isfinite(v) else str(v)  # noqa: E731
    else:
        one = lambda v: f"{v:.4f}" if np.isfinite(v) else str(v)  # noqa: E731
    flat = arr[np.isfinite(arr)]
    shown = flat if flat.size <= 1000 else np.concatenate([flat[:3], flat[-3:]])
    width = max((len(one(v)) for v in shown), default=0)
    return lambda v: one(v).rjust(width)


def _anomaly_record(t: Tensor) -> None:
    """Anomaly mode: remember the user's forward stack (minigrad's own frames left out) that made ``t``."""
    stack = [
        f
        for f in traceback.extract_stack()[:-1]
        if not f.filename.startswith(_PACKAGE_DIR) or f.filename.startswith(_EXAMPLES_DIR)
    ]
    if t._origin is None:
        t._origin = Origin()
    t._origin.creation_stack = stack
