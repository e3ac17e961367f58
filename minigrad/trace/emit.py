"""Emit execution events from an engine of your own, so minigrad's debugger can step it.

An engine that is not minigrad's — a micrograd-style scalar ``Value`` written in lesson 10 —
calls these functions at the same points minigrad's engine emits its events; recording,
``minigrad-tui``, the diagrams and the notebook stepper then show its passes like minigrad's::

    from minigrad.trace import emit

    class Value:
        def __init__(self, data, parents=(), op=None):
            self.data, self.grad, self.parents = data, 0.0, parents
            emit.node(self, parents=parents, op=op)          # node_created

    def backward(root):
        with emit.backward_pass(root, seed=1.0):             # pass_started, seeded ... pass_finished
            for v in reversed(topological_order(root)):
                emit.entered(v, v.grad)                      # node_entered
                ...call v's rule; for each parent p and its gradient c:
                emit.rule(v, rule, v.grad, outputs)          # closure_called (the rule's source, captures)
                emit.accumulated(v, p, c, before, after)     # grad_accumulated: before + c = after
                emit.finished(v)                             # node_finished

Nodes are any objects (held weakly when they allow it); each gets a stable id and stands in the
trace as a float64 CPU value read from its ``.data`` (or the ``data=`` given). Gradients may be
numbers or NumPy arrays. With nothing recording, every call returns at once (one truthiness test),
so a node made before recording began is unknown to it: when an event first names it, it joins the
trace as a leaf (minigrad's own tensors carry their parents and arrive whole).
Source lines and variable names are taken from the code that *uses* the engine: frames of the
function that calls :func:`node` and of the methods of the nodes' classes are skipped, as minigrad's
own frames are.
"""

from __future__ import annotations

import contextlib
import sys
import weakref

import numpy as np

from .. import _events, _state
from .. import backend as B
from ..tensor import Tensor, blank_tensor
from . import convert

__all__ = ["node", "backward_pass", "entered", "rule", "accumulated", "finished", "shadow_of"]

_shadows = convert.SHADOWS  # id(node) -> the Tensor standing for it in traces
_owners = convert.SHADOW_OWNERS  # id(that Tensor) -> the node (a weak reference to it, where it takes one)


def _foreign_rule(*_):  # a shadow's "backward closure": marks it as made by an op (not a leaf)
    raise RuntimeError("a node emitted by another engine is stepped by that engine, not by minigrad")


def _as_array(value) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.numpy()
    arr = np.asarray(value)
    if arr.dtype.kind not in "fc":
        arr = arr.astype(np.float64)
    return arr


def _read(obj, data):
    if data is not None:
        return _as_array(data)
    try:
        return _as_array(obj.data)
    except AttributeError:
        raise TypeError(f"emit: a {type(obj).__name__} has no .data; pass its value as data= to emit.node()") from None


def _quiet_tensor(arr: np.ndarray) -> Tensor:
    """A Tensor around ``arr`` made without a node_created event (values shown inside events)."""
    t = blank_tensor(Tensor, B.CPU)
    t.array = arr
    return t


def _forget(key: int) -> None:
    t = _shadows.pop(key, None)
    if t is not None:
        _owners.pop(id(t), None)


shadow_of = convert.foreign_shadow
_engine_types: set = set()


def _method_codes(cls) -> set:
    """The code objects of the functions defined in ``cls`` and its bases (not ``object``)."""
    codes = set()
    for klass in cls.__mro__[:-1]:
        for attr in vars(klass).values():
            fns = (
                (attr.fget, attr.fset, attr.fdel) if isinstance(attr, property) else (getattr(attr, "__func__", attr),)
            )
            codes.update(fn.__code__ for fn in fns if hasattr(fn, "__code__"))
    return codes


def _shadow(obj, data=None, parents=(), op=None, name=None) -> Tensor:
    t = shadow_of(obj)
    if t is not None:
        if data is not None or hasattr(obj, "data"):  # the value now (an optimizer step may have changed it)
            t.array = _read(obj, data)
        return t
    t = _quiet_tensor(_read(obj, data))
    t._rg = True
    t.parents = tuple(_shadow(p) for p in parents)
    t._backward = _foreign_rule if parents else None
    t.op = op or ("op" if parents else None)
    t.name = name
    key = id(obj)
    try:
        _owners[id(t)] = weakref.ref(obj)
        weakref.finalize(obj, _forget, key)
    except TypeError:  # no weak references to it: the shadow keeps it alive
        _owners[id(t)] = obj
    _shadows[key] = t
    return t


def node(obj, parents=(), op: str | None = None, name: str | None = None, data=None) -> None:
    """A new node ``obj`` made by ``op`` from ``parents`` (a leaf when there are none): ``node_created``."""
    if not _events.listeners or shadow_of(obj) is not None:
        return
    t = _shadow(obj, data, parents, op, name)
    convert.ENGINE_CODES.add(sys._getframe(1).f_code)
    if type(obj) not in _engine_types:
        _engine_types.add(type(obj))
        convert.ENGINE_CODES.update(_method_codes(type(obj)))
    _events.emit("node_created", (t, 0))


class _Pass:
    def __init__(self, pass_id, depth):
        self.pass_id = pass_id
        self.depth = depth


_current: list = []  # the open passes of emitting engines, outermost first


@contextlib.contextmanager
def backward_pass(root, seed=1.0, kind: str = "backward"):
    """The block is one backward pass from ``root`` seeded with ``seed``: ``pass_started``, ``seeded``,
    then ``pass_finished`` at the end (``error`` when the block raises; the exception propagates)."""
    pass_id = next(_state.pass_ids)
    _state.passes.depth += 1
    depth = _state.passes.depth
    _current.append(_Pass(pass_id, depth))
    try:
        if _events.listeners:
            r = _shadow(root)
            _events.emit("pass_started", (pass_id, depth, kind, (r,), (_as_array(seed),), None, {"engine": "yours"}))
            _events.emit("seeded", (pass_id, depth, r, _as_array(seed)))
        try:
            yield
        except BaseException as exc:
            if _events.listeners:
                _events.emit("error", (pass_id, depth, None, exc))
            raise
        if _events.listeners:
            _events.emit("pass_finished", (pass_id, depth, None))
    finally:
        _current.pop()
        _state.passes.depth -= 1


def _open_pass() -> _Pass:
    if not _current:
        raise RuntimeError("emit: backward events belong inside `with emit.backward_pass(root):`")
    return _current[-1]


def entered(obj, grad) -> None:
    """The pass reaches ``obj`` with its complete incoming gradient ``grad``: ``node_entered``."""
    if _events.listeners:
        p = _open_pass()
        _events.emit("node_entered", (p.pass_id, p.depth, _shadow(obj), _as_array(grad)))


def rule(obj, fn, grad, outputs) -> None:
    """``obj``'s backward rule ``fn`` turned ``grad`` into ``outputs`` (one per parent, None for none):
    ``closure_called``; the debugger shows ``fn``'s source and the values it captured."""
    if _events.listeners:
        p = _open_pass()
        outs = tuple(None if o is None else _quiet_tensor(_as_array(o)) for o in outputs)
        _events.emit("closure_called", (p.pass_id, p.depth, _shadow(obj), fn, _as_array(grad), outs))


def accumulated(source, target, contribution, before, after, into: str = "pass") -> None:
    """``source``'s rule gave ``target`` the gradient ``contribution``: ``before + contribution = after``
    (``before`` None for the first). ``into``: "pass" (the gradient this pass gathers) or "grad"."""
    if _events.listeners:
        p = _open_pass()
        _events.emit(
            "grad_accumulated",
            (
                p.pass_id,
                p.depth,
                _shadow(source),
                _shadow(target),
                _as_array(contribution),
                None if before is None else _as_array(before),
                _as_array(after),
                into,
            ),
        )


def finished(obj) -> None:
    """The pass is done with ``obj``: ``node_finished``."""
    if _events.listeners:
        p = _open_pass()
        _events.emit("node_finished", (p.pass_id, p.depth, _shadow(obj)))
