"""Batching for ``minigrad.func.vmap``: a batched value, a batching rule per op, and a loop for the rest.

Inside ``vmap`` the function sees one entry of the batch, but every value it touches that
depends on a batched input is a :class:`BatchedTensor`: one tensor holding all the entries,
the batch along dim 0, tagged with the ``vmap`` level it belongs to (nested ``vmap`` calls
wrap one level inside the other). Its ``shape`` is one entry's (the *logical* shape).

An op called with a batched tensor goes to its batching rule (:mod:`.rules`): the rule
rewrites the call for the whole batch at once (``sum(x, dim=0)`` becomes ``sum(value,
dim=1)``) and the result is batched again. An op without a rule runs once per entry,
with PyTorch's warning that names it (:func:`.dispatch.call`).
"""

# Each sets, as it is imported, what the core hands it while a vmap runs (minigrad._upcalls).
from . import dispatch, function, rules  # noqa: F401
from .tensor import BatchedTensor

__all__ = ["BatchedTensor"]
