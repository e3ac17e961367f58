"""The state a Tensor carries besides its value and its node, declared: one small record per concern.

Most tensors carry none of it, so each record is a slot of ``Tensor`` that stays None until needed:

- ``Tensor._view``, a :class:`ViewState`: the memory it shares (the tensor it views, the views of it
  made outside the graph) and its in-place history (the nodes it handed over when written in place),
  read by ``ops.inplace``, ``ops.shape`` and the engine;
- ``Tensor._hooks``, a :class:`HookState`: what backward does at the node besides its rule (hooks,
  ``retain_grad``), read by the engine;
- ``Tensor._tangents``, ``{depth: (level key, tangent)}``: forward mode's tangents (``tensor._tangent_of``);
- ``Tensor._origin``, an :class:`Origin`: how it was made (in inference mode, the forward stack anomaly
  mode recorded).

Other modules read them through the functions below (the engine's loop reads ``_hooks`` itself).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ViewState",
    "HookState",
    "Origin",
    "view_state",
    "viewed_from",
    "views_of",
    "multi_view",
    "mark_multi_view",
    "refuses_grad_write",
    "rebased_history",
    "creation_stack",
]


@dataclass(slots=True, eq=False)
class ViewState:
    """How a tensor's memory is shared and rewritten.

    ``base``: the tensor whose memory it views, when it was made as a view outside the graph (PyTorch's
    view tracking), ``base_no_grad`` whether that was under no_grad, ``no_grad_view`` whether PyTorch
    refuses an in-place op on it with grad mode on (a no_grad view of a tensor that requires grad).
    ``multi_view``: ``(op, index)`` when it is one of several views one call returned (``unbind``).
    ``views``: the views of its memory made outside the graph (so a recorded write can put them in it).
    ``rebased``: ``[(id of the node it became, the node it was)]``, one per in-place op recorded on it;
    ``output``: the last such op's result, kept alive for a rule that holds it weakly.
    ``unversioned``: writes through it bump no version counter (``Tensor.data``).
    """

    base: object = None
    base_no_grad: bool = False
    no_grad_view: bool = False
    multi_view: tuple | None = None
    views: weakref.WeakSet | None = None
    rebased: list | None = None
    output: object = None
    unversioned: bool = False

    def split(self) -> tuple[ViewState | None, ViewState | None]:
        """``(what stays with the tensor object, what goes with its old node)`` when the tensor is
        written in place or detached: its views and its history stay, the rest describes the node."""
        stays = ViewState(views=self.views, rebased=self.rebased) if self.views or self.rebased else None
        goes = ViewState(
            base=self.base,
            base_no_grad=self.base_no_grad,
            no_grad_view=self.no_grad_view,
            multi_view=self.multi_view,
            output=self.output,
            unversioned=self.unversioned,
        )
        return stays, goes


@dataclass(slots=True, eq=False)
class HookState:
    """What backward does at a node besides calling its rule: ``hooks`` (``{handle id: hook}``, called in
    registration order) and ``retains_grad`` (``retain_grad()``: the node's ``.grad`` is kept)."""

    hooks: dict | None = None
    retains_grad: bool = False


@dataclass(slots=True, eq=False)
class Origin:
    """How a tensor was made: ``inference`` (in ``inference_mode()``), ``creation_stack`` (the forward
    stack anomaly mode recorded, minigrad's own frames left out)."""

    inference: bool = False
    creation_stack: list | None = None


def view_state(t) -> ViewState:
    """``t``'s :class:`ViewState`, made empty when it has none yet (for writing)."""
    state = t._view
    if state is None:
        state = t._view = ViewState()
    return state


def viewed_from(t) -> tuple:
    """``(base, made under no_grad)`` when ``t`` was made as a view of ``base`` outside the graph, else ``(None, False)``."""
    state = t._view
    if state is None or state.base is None:
        return None, False
    return state.base, state.base_no_grad


def views_of(t) -> list:
    """The views of ``t``'s memory made outside the graph, still alive."""
    state = t._view
    return [] if state is None or state.views is None else list(state.views)


def multi_view(t) -> tuple | None:
    """``(op, index)`` when ``t`` is one of several views one call of ``op`` returned, else None."""
    state = t._view
    return None if state is None else state.multi_view


def mark_multi_view(t, op: str, index: int) -> None:
    """Note that ``t`` is output ``index`` of the views one call of ``op`` returned, when it is a view
    PyTorch tracks (a graph node or a view made outside the graph)."""
    if not t.is_leaf or viewed_from(t)[0] is not None:
        view_state(t).multi_view = (op, index)


def refuses_grad_write(t) -> bool:
    """Whether PyTorch refuses an in-place op on ``t`` with grad mode on (a no_grad view of a tensor
    that requires grad)."""
    state = t._view
    return state is not None and state.no_grad_view


def rebased_history(t) -> Sequence:
    """``[(id of the node t became, the node it was)]``, one per in-place op recorded on ``t`` (or ``detach_()``)."""
    state = t._view
    return () if state is None or state.rebased is None else state.rebased


def creation_stack(t) -> list | None:
    """The forward stack anomaly mode recorded where ``t`` was made, or None."""
    origin = t._origin
    return None if origin is None else origin.creation_stack
