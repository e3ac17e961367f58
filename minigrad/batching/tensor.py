"""BatchedTensor: all the entries of a batch, seen by the mapped function as one entry.

``_value`` holds the entries stacked along its dim 0 (it may itself be batched at an outer
level); ``_level`` is the id of the ``vmap`` call it belongs to. Every op reaches the
batching rules through :func:`minigrad.batching.dispatch.call`, from the op's public entry
(``minigrad.exp(x)``) or from the methods :mod:`.dispatch` gives it (``x.exp()``, ``x + y``).
"""

from __future__ import annotations

from ..tensor import Tensor, blank_tensor

ITEM_MESSAGE = (
    "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() on a "
    "Tensor, please try to rewrite what you're doing with other operations."
)
DATA_DEPENDENT_MESSAGE = (
    "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. We don't "
    "support that yet: rewrite it with ops (where, clamp, masked_fill) instead of Python's if/for on a value."
)
BACKWARD_MESSAGE = (
    "vmap: Calling Tensor.backward() is not supported inside of vmap. Please use minigrad.func.grad or "
    "minigrad.func.vjp inside vmap instead."
)


class BatchedTensor(Tensor):
    """A batch of tensors seen as one: ``shape`` and every op are one entry's (see the module docstring)."""

    __slots__ = ("_value", "_level")

    @property
    def array(self):
        """The array of all the entries (every level's batch dim first): for viewers, not for the function."""
        return self._value.array

    @property
    def shape(self) -> tuple:
        return tuple(self._value.shape[1:])

    @property
    def ndim(self) -> int:
        return self._value.dim() - 1

    def dim(self) -> int:
        return self._value.dim() - 1

    def size(self, dim: int | None = None):
        shape = self.shape
        if dim is None:
            return shape
        n = len(shape)
        if not -max(n, 1) <= dim < max(n, 1):
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-max(n, 1)}, {max(n, 1) - 1}], but got {dim})"
            )
        return shape[dim]

    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    @property
    def requires_grad(self) -> bool:
        return self._value.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._value.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> BatchedTensor:
        self._value.requires_grad_(requires_grad)
        return self

    def detach(self) -> BatchedTensor:
        return wrap(self._value.detach(), self._level)

    def backward(self, *args, **kwargs):
        raise RuntimeError(BACKWARD_MESSAGE)

    @property
    def T(self) -> BatchedTensor:  # noqa: N802  (torch's name)
        return self.permute(tuple(range(self.dim() - 1, -1, -1)))

    @property
    def mT(self) -> BatchedTensor:  # noqa: N802
        return self.transpose(-2, -1)

    def view_as(self, other) -> BatchedTensor:
        return self.reshape(tuple(other.shape))

    reshape_as = view_as

    def expand_as(self, other) -> BatchedTensor:
        return self.expand(tuple(other.shape))

    def ravel(self) -> BatchedTensor:
        return self.reshape(-1)

    def item(self):
        raise RuntimeError(ITEM_MESSAGE)

    tolist = item

    def numpy(self):
        raise RuntimeError(DATA_DEPENDENT_MESSAGE)

    def __array__(self, dtype=None, copy=None):
        raise RuntimeError(DATA_DEPENDENT_MESSAGE)

    def __bool__(self) -> bool:
        raise RuntimeError(DATA_DEPENDENT_MESSAGE)

    __float__ = __int__ = __index__ = __bool__

    def __repr__(self) -> str:
        return f"BatchedTensor(lvl={self._level}, bdim=0, value=\n{self._value!r}\n)"

    __str__ = __repr__


def wrap(value: Tensor, level_id: int) -> BatchedTensor:
    """``value`` (entries along dim 0) as a batched tensor of level ``level_id``."""
    t = blank_tensor(BatchedTensor, value.device)
    t._value = value
    t._level = level_id
    return t


def value_at(x, level_id: int):
    """``x``'s entries along dim 0 if ``x`` is batched at ``level_id``, else None."""
    if type(x) is BatchedTensor and x._level == level_id:
        return x._value
    return None


def unwrap_all(x) -> tuple:
    """``(array tensor, level ids)``: ``x`` with every level peeled (their batch dims first, outermost first)."""
    ids = []
    while type(x) is BatchedTensor:
        ids.append(x._level)
        x = x._value
    return x, ids[::-1]


def lift(x, levels: tuple) -> Tensor:
    """The plain tensor behind ``x`` with one batch dim per level of ``levels`` (in order), an unbatched
    level expanded: what a transform inside ``vmap`` differentiates, so nothing sums over a batch."""
    value, ids = unwrap_all(x)
    for i, level in enumerate(levels):
        if level.id not in ids:
            shape = tuple(value.shape)
            # the broadcast view, not copies (matmul multiplies by the one matrix a stride-0 batch repeats)
            value = value.unsqueeze(i).expand(shape[:i] + (level.size,) + shape[i:])
    return value


def rewrap(value: Tensor, levels: tuple):
    """The inverse of :func:`lift`: ``value``'s leading dims as the batch dims of ``levels``."""
    for level in levels:
        value = wrap(value, level.id)
    return value
