# The tensor module as static tools see it, Tensor's bound ops included.
# Generated from the live class by `python -m minigrad._stubgen --write`: do not edit by hand.

import builtins
from typing import Any

import numpy as np

import minigrad.backend as B
from minigrad.ops.types import Dim, DimOrBool, Dims, NormOrder, Number, SplitSize

__all__ = ["Tensor", "tensor", "make", "take_node", "shape_str", "node_label", "FREED_MESSAGE"]
_ids: Any
NON_LEAF_GRAD_WARNING: str
_PACKAGE_DIR: str
_EXAMPLES_DIR: str
_grad_state: Any
_anomaly_state: Any
_forward_state: Any
_extras: Any
_inference: Any
_listeners: Any
_ndarray: Any
_np_scalar: Any
_new: Any

def shape_str(shape) -> str:
    """Format a shape the way minigrad's messages show it: ``[2, 3]``."""

FREED_MESSAGE: str

def _freed_backward(grad): ...
def node_label(name: str | None, op: str | None, node_id: int) -> str:
    """How every message and viewer names a node: its name, else ``op#id`` (``leaf#id`` for a leaf)."""

_TYPE_META_NAMES: dict

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
    The rest of a tensor's state is declared in ``minigrad._tensor_state``."""
    def __hash__(self, /): ...
    __array_priority__: int
    def __init__(self, data, dtype=None, device=None, requires_grad=False, name=None): ...
    @property
    def requires_grad(self) -> builtins.bool:
        """Whether gradients are computed for this tensor."""
    @requires_grad.setter
    def requires_grad(self, value: builtins.bool) -> None: ...
    def requires_grad_(self, requires_grad: builtins.bool = True) -> Tensor:
        """Set requires_grad in place (leaves only; floating dtypes only). Returns self."""
    @property
    def grad(self) -> Tensor | None:
        """The gradient accumulated by backward(), or None (with PyTorch's warning for a non-leaf without one)."""
    @grad.setter
    def grad(self, value: Tensor | None) -> None: ...
    @property
    def _version(self) -> builtins.int:
        """How many in-place writes this tensor's memory has seen (shared with its views and ``detach()``)."""
    def is_inference(self) -> builtins.bool:
        """Whether this tensor was made in ``inference_mode()``."""
    @property
    def is_leaf(self) -> builtins.bool:
        """True for tensors not produced by a recorded op (user-made tensors, parameters)."""
    @property
    def is_freed(self) -> builtins.bool:
        """True once a backward pass with ``retain_graph=False`` freed this tensor's rule and the values
        it saved: another backward through it raises "Trying to backward through the graph a second time"."""
    @property
    def grad_fn(self):
        """The op that produced this tensor, as ``<OpBackward>``; None for leaves."""
    def retain_grad(self) -> None:
        """Keep ``.grad`` for this non-leaf tensor during backward()."""
    @property
    def retains_grad(self) -> builtins.bool:
        """Whether ``retain_grad()`` was called on this non-leaf tensor (its ``.grad`` is kept)."""
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        """Compute the gradient of this tensor w.r.t. graph leaves, accumulating into their ``.grad``.

        ``gradient`` is required unless the tensor holds a single element.
        ``retain_graph`` defaults to ``create_graph``; without it the graph's
        closures are freed and a second backward raises."""
    def register_hook(self, hook) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it."""
    @property
    def shape(self) -> tuple:
        """The size of each dimension, as a tuple of ints."""
    @property
    def ndim(self) -> builtins.int:
        """The number of dimensions."""
    def dim(self) -> builtins.int:
        """The number of dimensions (``ndim``)."""
    @property
    def dtype(self) -> np.dtype:
        """The element type (a NumPy dtype: ``minigrad.float32`` is ``numpy.float32``'s)."""
    @property
    def is_cuda(self) -> builtins.bool:
        """Whether the values live on a CUDA device."""
    def size(self, dim: builtins.int | None = None):
        """The shape, or the length of one dimension."""
    def numel(self) -> builtins.int:
        """The number of elements."""
    def __len__(self) -> builtins.int: ...
    def item(self):
        """The single value of a one-element tensor, as a Python number."""
    def tolist(self):
        """The values as (nested) Python lists of numbers; a 0-d tensor gives its number."""
    def numpy(self) -> np.ndarray:
        """The data as a NumPy array sharing memory (CPU tensors that do not require grad)."""
    def __array__(self, dtype=None, copy=None): ...
    def __bool__(self) -> builtins.bool: ...
    def __float__(self) -> builtins.float: ...
    def __int__(self) -> builtins.int: ...
    def __index__(self) -> builtins.int: ...
    def __iter__(self): ...
    def _split_off(self) -> Tensor:
        """A new tensor object taking over this one's node (op, parents, rule, id, hooks) with a copy of its
        value: what earlier nodes keep as their parent when this tensor is written in place or detached."""
    def detach(self) -> Tensor:
        """A new leaf sharing this tensor's data, cut from the graph."""
    @property
    def data(self) -> Tensor:
        """The values as a Tensor outside the graph, sharing memory, as PyTorch's ``.data``.

        Like ``detach()``, but in-place writes through it bump no version counter: autograd does not
        see them (``p.data.add_(g, alpha=-lr)`` updates ``p`` where a saved ``p`` will not notice).
        Assigning a Tensor (``p.data = t``) makes ``p`` hold ``t``'s memory. ``Tensor.array`` is the
        NumPy (or CuPy) array itself."""
    @data.setter
    def data(self, value: Tensor) -> None: ...
    def detach_(self) -> Tensor:
        """Cut this tensor from the graph in place, making it a leaf.

        Nodes made from it before keep its node as their parent, as in PyTorch
        (their edges lead to its old node, not to the tensor object)."""
    def __repr__(self) -> str: ...
    def __str__(self) -> str: ...
    def __format__(self, spec: str) -> str:
        """A 0-d tensor formats as its number (``f"{loss:.4f}"``), as in PyTorch; others only as ``str``."""
    def __reduce_ex__(self, protocol): ...
    _backward: Any
    _grad: Any
    _hooks: Any
    _origin: Any
    _rg: Any
    _tangents: Any
    _view: Any
    array: np.ndarray
    device: B.Device
    id: builtins.int
    name: str | None
    op: str | None
    parents: tuple[Tensor, ...]
    def floor_divide(a: Tensor, b: Tensor | Number) -> Tensor:
        """Division rounded down (``a // b``); not differentiable (the result is a constant)."""
    def __floordiv__(a: Tensor, b: Tensor | Number) -> Tensor:
        """Division rounded down (``a // b``); not differentiable (the result is a constant)."""
    def remainder(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a % b`` elementwise, with the sign of ``b`` (``-3 % 2 == 1``), as Python's ``%`` and PyTorch's."""
    def __mod__(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a % b`` elementwise, with the sign of ``b`` (``-3 % 2 == 1``), as Python's ``%`` and PyTorch's."""
    def fmod(a: Tensor, b: Tensor | Number) -> Tensor:
        """C's ``fmod`` elementwise: the remainder with the sign of ``a`` (``fmod(-3, 2) == -1``)."""
    def __rfloordiv__(a: Tensor, other) -> Tensor:
        """``other // a``, the reflected ``//`` (``7 // x``)."""
    def __rmod__(a: Tensor, other) -> Tensor:
        """``other % a``, the reflected ``%`` (``7 % x``)."""
    def eq(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a == b`` as a bool tensor (broadcast; scalars allowed)."""
    def ne(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a != b`` as a bool tensor."""
    def not_equal(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a != b`` as a bool tensor."""
    def lt(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a < b`` as a bool tensor."""
    def less(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a < b`` as a bool tensor."""
    def le(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a <= b`` as a bool tensor."""
    def less_equal(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a <= b`` as a bool tensor."""
    def gt(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a > b`` as a bool tensor."""
    def greater(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a > b`` as a bool tensor."""
    def ge(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a >= b`` as a bool tensor."""
    def greater_equal(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise ``a >= b`` as a bool tensor."""
    def logical_and(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise AND of the operands' truth values (nonzero is True)."""
    def logical_or(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise OR of the operands' truth values."""
    def logical_xor(a: Tensor, b: Tensor | Number) -> Tensor:
        """Elementwise XOR of the operands' truth values."""
    def logical_not(a: Tensor) -> Tensor:
        """Elementwise NOT of ``a``'s truth values (a bool tensor)."""
    def bitwise_and(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a & b`` for integer and bool tensors (on bool masks: logical AND)."""
    def __and__(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a & b`` for integer and bool tensors (on bool masks: logical AND)."""
    def bitwise_or(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a | b`` for integer and bool tensors."""
    def __or__(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a | b`` for integer and bool tensors."""
    def bitwise_xor(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a ^ b`` for integer and bool tensors."""
    def __xor__(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a ^ b`` for integer and bool tensors."""
    def bitwise_left_shift(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a << b`` for integer tensors, as PyTorch: a shift by the type's width or more, or by a negative
        amount, gives 0."""
    def __lshift__(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a << b`` for integer tensors, as PyTorch: a shift by the type's width or more, or by a negative
        amount, gives 0."""
    def bitwise_right_shift(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a >> b`` for integer tensors, the sign filling in; a shift by the type's width or more, or by a
        negative amount, gives 0 (or -1 for a negative ``a``), as PyTorch."""
    def __rshift__(a: Tensor, b: Tensor | Number) -> Tensor:
        """``a >> b`` for integer tensors, the sign filling in; a shift by the type's width or more, or by a
        negative amount, gives 0 (or -1 for a negative ``a``), as PyTorch."""
    def bitwise_not(a: Tensor) -> Tensor:
        """``~a``: logical NOT on bool tensors, two's-complement NOT on integer tensors."""
    def __invert__(a: Tensor) -> Tensor:
        """``~a``: logical NOT on bool tensors, two's-complement NOT on integer tensors."""
    def isnan(a: Tensor) -> Tensor:
        """True where ``a`` is NaN."""
    def isinf(a: Tensor) -> Tensor:
        """True where ``a`` is +inf or -inf."""
    def isfinite(a: Tensor) -> Tensor:
        """True where ``a`` is neither NaN nor infinite."""
    def isclose(
        a: Tensor,
        b: Tensor | Number,
        rtol: builtins.float = 1e-05,
        atol: builtins.float = 1e-08,
        equal_nan: builtins.bool = False,
    ) -> Tensor:
        """Elementwise ``|a - b| <= atol + rtol * |b|`` as a bool tensor."""
    def allclose(
        a: Tensor,
        b: Tensor | Number,
        rtol: builtins.float = 1e-05,
        atol: builtins.float = 1e-08,
        equal_nan: builtins.bool = False,
    ) -> builtins.bool:
        """True when every element of ``a`` is close to ``b`` (see ``isclose``); a Python bool."""
    def equal(a: Tensor, b: Tensor) -> builtins.bool:
        """True when ``a`` and ``b`` have the same shape and the same elements; a Python bool."""
    def __eq__(self, other):  # type: ignore[override]
        """Elementwise ``a == b`` as a bool tensor (broadcast; scalars allowed)."""
    def __ne__(self, other):  # type: ignore[override]
        """Elementwise ``a != b`` as a bool tensor."""
    def __lt__(self, other):
        """Elementwise ``a < b`` as a bool tensor."""
    def __le__(self, other):
        """Elementwise ``a <= b`` as a bool tensor."""
    def __gt__(self, other):
        """Elementwise ``a > b`` as a bool tensor."""
    def __ge__(self, other):
        """Elementwise ``a >= b`` as a bool tensor."""
    def __rand__(self, other):
        """``bitwise_and(other, self)``, the reflected operator."""
    def __ror__(self, other):
        """``bitwise_or(other, self)``, the reflected operator."""
    def __rxor__(self, other):
        """``bitwise_xor(other, self)``, the reflected operator."""
    def __rlshift__(self, other):
        """``bitwise_left_shift(other, self)``, the reflected operator."""
    def __rrshift__(self, other):
        """``bitwise_right_shift(other, self)``, the reflected operator."""
    def exp(a: Tensor) -> Tensor:
        """Elementwise e**a."""
    def log(a: Tensor) -> Tensor:
        """Natural logarithm."""
    def log1p(a: Tensor) -> Tensor:
        """log(1 + a), accurate for small ``a``."""
    def sqrt(a: Tensor) -> Tensor:
        """Square root."""
    def rsqrt(a: Tensor) -> Tensor:
        """1 / sqrt(a); backward -g * out**3 / 2."""
    def square(a: Tensor) -> Tensor:
        """a * a (integer tensors stay integer)."""
    def reciprocal(a: Tensor) -> Tensor:
        """1 / a (integer tensors give the default float dtype)."""
    def sin(a: Tensor) -> Tensor:
        """Sine."""
    def cos(a: Tensor) -> Tensor:
        """Cosine."""
    def tanh(a: Tensor) -> Tensor:
        """Hyperbolic tangent; backward uses the output: g * (1 - tanh(a)**2)."""
    def sigmoid(a: Tensor) -> Tensor:
        """Logistic sigmoid 1 / (1 + e**-a), computed stably; backward g * s * (1 - s)."""
    def erf(a: Tensor) -> Tensor:
        """The Gauss error function; backward g * 2/sqrt(pi) * exp(-a**2)."""
    def relu(a: Tensor) -> Tensor:
        """max(a, 0); the gradient at 0 is 0, as in PyTorch."""
    def leaky_relu(a: Tensor, negative_slope: builtins.float = 0.01) -> Tensor:
        """a where a > 0, else negative_slope * a."""
    def elu(a: Tensor, alpha: builtins.float = 1.0) -> Tensor:
        """a where a > 0, else alpha * (e**a - 1); backward uses the output (out + alpha for a <= 0)."""
    def gelu(a: Tensor, approximate: str = "none") -> Tensor:
        """Gaussian error linear unit: a * Phi(a), or its tanh approximation with ``approximate='tanh'``.

        The rule reads the slope the forward computed beside Phi(a), Phi(a) + a phi(a) (or, for the tanh form,
        the tanh), kept as a tensor of ``a``: the backward is one product and needs no second erf, and
        differentiating the rule (create_graph) still differentiates it."""
    def silu(a: Tensor) -> Tensor:
        """a * sigmoid(a) (also called swish); backward g * s * (1 + a * (1 - s))."""
    def softplus(a: Tensor, beta: builtins.float = 1.0, threshold: builtins.float = 20.0) -> Tensor:
        """log(1 + e**(beta*a)) / beta, computed stably; linear (= a) where beta*a > threshold."""
    def clamp(a: Tensor, min: Tensor | Number | None = None, max: Tensor | Number | None = None) -> Tensor:
        """Limit ``a`` to ``[min, max]``; bounds are scalars or tensors (broadcast), either may be None.

        The gradient flows to ``a`` where ``min <= a <= max`` (bounds included), and to
        a tensor bound where that bound is the result, as in PyTorch."""
    def clip(a: Tensor, min: Tensor | Number | None = None, max: Tensor | Number | None = None) -> Tensor:
        """Limit ``a`` to ``[min, max]``; bounds are scalars or tensors (broadcast), either may be None.

        The gradient flows to ``a`` where ``min <= a <= max`` (bounds included), and to
        a tensor bound where that bound is the result, as in PyTorch."""
    def maximum(a: Tensor, b: Tensor) -> Tensor:
        """Elementwise maximum with broadcasting; NaN propagates; ties split the gradient 50/50."""
    def minimum(a: Tensor, b: Tensor) -> Tensor:
        """Elementwise minimum with broadcasting; NaN propagates; ties split the gradient 50/50."""
    def where(self: Tensor, condition, other) -> Tensor:
        """``self`` where ``condition`` is True, else ``other`` (the method form of ``where``)."""
    def sign(a: Tensor) -> Tensor:
        """-1, 0 or 1 elementwise (zero gradient everywhere)."""
    def floor(a: Tensor) -> Tensor:
        """Round down (zero gradient; integer tensors are returned unchanged in value)."""
    def ceil(a: Tensor) -> Tensor:
        """Round up (zero gradient)."""
    def round(a: Tensor, decimals: builtins.int = 0) -> Tensor:
        """Round half to even, to ``decimals`` places (zero gradient)."""
    def add(a: Tensor | Number, b: Tensor | Number, alpha: Number = 1) -> Tensor:
        """``a + alpha * b`` with broadcasting."""
    def __add__(a: Tensor | Number, b: Tensor | Number, alpha: Number = 1) -> Tensor:
        """``a + alpha * b`` with broadcasting."""
    def __radd__(a: Tensor | Number, b: Tensor | Number, alpha: Number = 1) -> Tensor:
        """``a + alpha * b`` with broadcasting."""
    def sub(a: Tensor | Number, b: Tensor | Number, alpha: Number = 1) -> Tensor:
        """``a - alpha * b`` with broadcasting."""
    def __sub__(a: Tensor | Number, b: Tensor | Number, alpha: Number = 1) -> Tensor:
        """``a - alpha * b`` with broadcasting."""
    def __rsub__(a: Tensor, s) -> Tensor:
        """``s - a`` for a Python scalar (or array) ``s``."""
    def mul(a: Tensor | Number, b: Tensor | Number) -> Tensor:
        """Elementwise product with broadcasting."""
    def __mul__(a: Tensor | Number, b: Tensor | Number) -> Tensor:
        """Elementwise product with broadcasting."""
    def __rmul__(a: Tensor | Number, b: Tensor | Number) -> Tensor:
        """Elementwise product with broadcasting."""
    def div(a: Tensor | Number, b: Tensor | Number, rounding_mode: str | None = None) -> Tensor:
        """True division with broadcasting (integers divide to the default float dtype)."""
    def divide(a: Tensor | Number, b: Tensor | Number, rounding_mode: str | None = None) -> Tensor:
        """True division with broadcasting (integers divide to the default float dtype)."""
    def __truediv__(a: Tensor | Number, b: Tensor | Number, rounding_mode: str | None = None) -> Tensor:
        """True division with broadcasting (integers divide to the default float dtype)."""
    def __rtruediv__(a: Tensor, s) -> Tensor:
        """``s / a`` for a Python scalar ``s``."""
    def pow(a: Tensor | Number, b: Tensor | Number) -> Tensor:
        """``a ** b`` for tensor or scalar exponents (and scalar bases)."""
    def __pow__(a: Tensor | Number, b: Tensor | Number) -> Tensor:
        """``a ** b`` for tensor or scalar exponents (and scalar bases)."""
    def __rpow__(a: Tensor, s) -> Tensor:
        """``s ** a`` for a Python scalar base ``s``."""
    def neg(a: Tensor) -> Tensor:
        """``-a``."""
    def __neg__(a: Tensor) -> Tensor:
        """``-a``."""
    def abs(a: Tensor) -> Tensor:
        """Elementwise absolute value (gradient sign(a), 0 at 0)."""
    def __abs__(a: Tensor) -> Tensor:
        """Elementwise absolute value (gradient sign(a), 0 at 0)."""
    def to(a: Tensor, *args, **kwargs) -> Tensor:
        """Return a tensor on the given device and/or dtype; ``a`` itself when nothing changes.

        ``to(device)``, ``to(dtype)``, ``to(device, dtype)``, ``to(other_tensor)``.
        The gradient flows back to ``a``'s device and dtype."""
    def clone(a: Tensor) -> Tensor:
        """A copy of ``a`` that stays in the graph (gradient passes straight through)."""
    def cpu(self: Tensor) -> Tensor:
        """This tensor on the CPU: ``to("cpu")`` (itself when it is there already)."""
    def cuda(self: Tensor, device=None) -> Tensor:
        """This tensor on a CUDA device: ``to("cuda")``, or ``to("cuda:n")`` for ``device`` n (itself when it is there)."""
    def type_as(self: Tensor, other: Tensor) -> Tensor:
        """This tensor in ``other``'s dtype: ``to(other.dtype)``."""
    def float(self: Tensor) -> Tensor:
        """This tensor as ``float32``: ``to(minigrad.float32)`` (itself when it is that already)."""
    def double(self: Tensor) -> Tensor:
        """This tensor as ``float64``: ``to(minigrad.float64)`` (itself when it is that already)."""
    def half(self: Tensor) -> Tensor:
        """This tensor as ``float16``: ``to(minigrad.float16)`` (itself when it is that already)."""
    def byte(self: Tensor) -> Tensor:
        """This tensor as ``uint8``: ``to(minigrad.uint8)`` (itself when it is that already)."""
    def char(self: Tensor) -> Tensor:
        """This tensor as ``int8``: ``to(minigrad.int8)`` (itself when it is that already)."""
    def short(self: Tensor) -> Tensor:
        """This tensor as ``int16``: ``to(minigrad.int16)`` (itself when it is that already)."""
    def int(self: Tensor) -> Tensor:
        """This tensor as ``int32``: ``to(minigrad.int32)`` (itself when it is that already)."""
    def long(self: Tensor) -> Tensor:
        """This tensor as ``int64``: ``to(minigrad.int64)`` (itself when it is that already)."""
    def bool(self: Tensor) -> Tensor:
        """This tensor as ``bool``: ``to(minigrad.bool)`` (itself when it is that already)."""
    def __getitem__(a: Tensor, key) -> Tensor:
        """``a[key]`` with PyTorch's indexing rules; differentiable."""
    def gather(a: Tensor, dim: builtins.int, index: Tensor) -> Tensor:
        """``out[i][j] = a[index[i][j]][j]`` for ``dim=0`` (and likewise for other dims).

        ``index`` has ``a``'s number of dims and is no larger than ``a`` in the other dims."""
    def take_along_dim(a: Tensor, indices: Tensor, dim: builtins.int | None = None) -> Tensor:
        """Pick values along ``dim`` at ``indices`` (broadcast against ``a`` in the other dims); flat when dim is None."""
    def index_select(a: Tensor, dim: builtins.int, index: Tensor) -> Tensor:
        """The entries ``index`` (a 1-D integer tensor) along ``dim``."""
    def masked_fill(a: Tensor, mask: Tensor, value: Tensor | Number) -> Tensor:
        """``a`` with ``value`` wherever ``mask`` is True (``mask`` and ``a`` broadcast together)."""
    def reshape(a: Tensor, *shape) -> Tensor:
        """Same data in a new shape (one dim may be -1)."""
    def flatten(a: Tensor, start_dim: builtins.int = 0, end_dim: builtins.int = -1) -> Tensor:
        """Merge dims ``start_dim`` to ``end_dim`` (inclusive) into one; a 0-d tensor becomes 1-D."""
    def unflatten(a: Tensor, dim: builtins.int, sizes) -> Tensor:
        """Split dim ``dim`` into ``sizes`` (one entry may be -1)."""
    def unsqueeze(a: Tensor, dim: builtins.int) -> Tensor:
        """Insert a dim of size 1 at ``dim`` (``-1`` appends one)."""
    def squeeze(a: Tensor, dim: Dims = None) -> Tensor:
        """Remove dims of size 1: all of them, or those in ``dim`` (int or tuple) that have size 1."""
    def permute(a: Tensor, *dims) -> Tensor:
        """Reorder the dims: ``out.shape[i] == a.shape[dims[i]]``."""
    def transpose(a: Tensor, dim0: builtins.int, dim1: builtins.int) -> Tensor:
        """Swap two dims."""
    def swapaxes(a: Tensor, dim0: builtins.int, dim1: builtins.int) -> Tensor:
        """Swap two dims."""
    def swapdims(a: Tensor, dim0: builtins.int, dim1: builtins.int) -> Tensor:
        """Swap two dims."""
    def movedim(a: Tensor, source: Dims, destination: Dims) -> Tensor:
        """Move dims ``source`` to positions ``destination`` (ints or equal-length tuples)."""
    def moveaxis(a: Tensor, source: Dims, destination: Dims) -> Tensor:
        """Move dims ``source`` to positions ``destination`` (ints or equal-length tuples)."""
    def expand(a: Tensor, *shape) -> Tensor:
        """Broadcast to a larger shape without copying (-1 keeps a dim)."""
    def broadcast_to(a: Tensor, shape) -> Tensor:
        """``a`` broadcast to ``shape`` (like ``expand``)."""
    def expand_as(a: Tensor, other: Tensor) -> Tensor:
        """``a`` broadcast to ``other``'s shape: ``expand(a, other.shape)``."""
    def reshape_as(a: Tensor, other: Tensor) -> Tensor:
        """``a`` in ``other``'s shape: ``reshape(a, other.shape)``."""
    def view_as(a: Tensor, other: Tensor) -> Tensor:
        """``a`` in ``other``'s shape: ``reshape(a, other.shape)``."""
    def ravel(a: Tensor) -> Tensor:
        """``a`` flattened to one dimension: ``flatten(a)``."""
    def repeat(a: Tensor, *repeats) -> Tensor:
        """Tile ``a``: ``repeat(2, 3)`` repeats dim -2 twice and dim -1 three times (new leading dims allowed)."""
    def tile(a: Tensor, *dims) -> Tensor:
        """Like ``repeat``, but fewer dims than ``a.ndim`` are padded with leading 1s."""
    def narrow(a: Tensor, dim: builtins.int, start: builtins.int | Tensor, length: builtins.int) -> Tensor:
        """The ``length`` elements of dim ``dim`` from ``start`` (negative start counts from the end)."""
    def select(a: Tensor, dim: builtins.int, index: builtins.int) -> Tensor:
        """The slice at ``index`` along ``dim``, with that dim removed."""
    def split(a: Tensor, split_size_or_sections: SplitSize, dim: builtins.int = 0) -> tuple:
        """Pieces of ``a`` along ``dim``: of equal size ``n`` (the last may be smaller) or of the listed sizes.

        The pieces are views of ``a``. In a graph, ``a``'s gradient is their gradients concatenated, zeros
        for a piece that got none: one node joins them, as PyTorch's SplitBackward."""
    def chunk(a: Tensor, chunks: builtins.int, dim: builtins.int = 0) -> tuple:
        """Split into ``chunks`` pieces of size ``ceil(n / chunks)`` (fewer when the size runs out)."""
    def unbind(a: Tensor, dim: builtins.int = 0) -> tuple:
        """Every slice along ``dim``, with that dim removed."""
    def flip(a: Tensor, *args, dims=None) -> Tensor:
        """Reverse the order of elements along ``dims`` (``x.flip(0, 1)``, ``flip(x, (0, 1))`` or ``dims=``)."""
    @property
    def T(self) -> Tensor:
        """The dims in reverse order (``permute(a, (n-1, ..., 0))``); a tensor of fewer than 2 dims as it is."""
    @property
    def mT(self) -> Tensor:
        """The last two dims swapped (``transpose(a, -2, -1)``, with its own rule: the same swap)."""
    def tensor_split(
        input: Tensor,
        indices_or_sections=None,
        dim: builtins.int = 0,
        *,
        sections=None,
        indices=None,
        tensor_indices_or_sections=None,
    ) -> tuple:
        """Views of ``input`` along ``dim``: ``n`` nearly equal pieces (an int), or cut before each index (a list).

        With ``n`` sections of a dim of size ``s``, the first ``s % n`` pieces have ``s // n + 1``
        elements and the rest ``s // n``. Indices wrap when negative and clamp to the size, as slices do.
        The second argument may also be named as in PyTorch's overloads: ``sections=``, ``indices=``,
        ``tensor_indices_or_sections=``."""
    def diagonal(input: Tensor, offset: builtins.int = 0, dim1: builtins.int = 0, dim2: builtins.int = 1) -> Tensor:
        """The diagonal ``offset`` of each matrix in dims ``dim1`` x ``dim2``, as a last dim (a copy)."""
    def diag_embed(input: Tensor, offset: builtins.int = 0, dim1: builtins.int = -2, dim2: builtins.int = -1) -> Tensor:
        """Each last-dim vector of ``input`` placed on diagonal ``offset`` of a square matrix in dims
        ``dim1`` x ``dim2`` of the result (zeros elsewhere)."""
    def diff(
        input: Tensor,
        n: builtins.int = 1,
        dim: builtins.int = -1,
        prepend: Tensor | None = None,
        append: Tensor | None = None,
    ) -> Tensor:
        """The n-th forward difference along ``dim``, after joining ``prepend`` and ``append``; for bool
        tensors the difference is ``!=`` (logical xor), as in PyTorch."""
    def rot90(input: Tensor, k: builtins.int = 1, dims=(0, 1)) -> Tensor:
        """Rotated by 90 degrees ``k`` times in the plane of ``dims``, from the first dim towards the second."""
    def fliplr(input: Tensor) -> Tensor:
        """Columns in reverse order (dim 1)."""
    def flipud(input: Tensor) -> Tensor:
        """Rows in reverse order (dim 0)."""
    def sum(a: Tensor, dim: Dim = None, keepdim: builtins.bool = False, dtype=None) -> Tensor:
        """Sum over ``dim`` (all dims when None or empty). Integer and bool tensors sum to int64."""
    def mean(a: Tensor, dim: Dim = None, keepdim: builtins.bool = False, dtype=None) -> Tensor:
        """Mean over ``dim`` (all dims when None or empty); floating tensors only, as in PyTorch."""
    def var(
        a: Tensor, dim: DimOrBool = None, unbiased=None, keepdim: builtins.bool = False, *, correction=None
    ) -> Tensor:
        """Variance over ``dim``: sum((a - mean)**2) / (N - correction).

        ``correction`` defaults to 1 (Bessel's correction); ``unbiased=False`` means
        correction 0. When N - correction <= 0 the result is inf (or nan), as in PyTorch."""
    def std(
        a: Tensor, dim: DimOrBool = None, unbiased=None, keepdim: builtins.bool = False, *, correction=None
    ) -> Tensor:
        """Standard deviation: the square root of ``var`` with the same arguments."""
    def max(a: Tensor, dim=None, keepdim: builtins.bool = False, *, other: Tensor | Number = None):
        """The largest element; with ``dim``, a ``(values, indices)`` named tuple; with a tensor ``other``,
        ``maximum``. As PyTorch's overloads: ``a.max(t)`` is ``a.max(other=t)``; ``a.max(dim=t)`` and
        ``a.max(t, keepdim)`` read a 0-d integer tensor ``t`` as a dim (op entry, ``_entry``).

        ``a.max()`` splits the gradient evenly among tied maxima; ``a.max(dim)`` sends it
        to the index it returns (the first maximum)."""
    def min(a: Tensor, dim=None, keepdim: builtins.bool = False, *, other: Tensor | Number = None):
        """The smallest element; with ``dim``, a ``(values, indices)`` named tuple; with a tensor ``other``,
        ``minimum`` (arguments read as :func:`max`'s)."""
    def amax(a: Tensor, dim: Dim = (), keepdim: builtins.bool = False) -> Tensor:
        """Maximum over ``dim`` (int or tuple; all dims by default); ties share the gradient evenly."""
    def amin(a: Tensor, dim: Dim = (), keepdim: builtins.bool = False) -> Tensor:
        """Minimum over ``dim`` (int or tuple; all dims by default); ties share the gradient evenly."""
    def argmax(a: Tensor, dim: builtins.int | None = None, keepdim: builtins.bool = False) -> Tensor:
        """Index of the (first) maximum: over the flattened tensor, or along ``dim``. Not differentiable."""
    def argmin(a: Tensor, dim: builtins.int | None = None, keepdim: builtins.bool = False) -> Tensor:
        """Index of the (first) minimum: over the flattened tensor, or along ``dim``. Not differentiable."""
    def prod(a: Tensor, dim: Dim = None, keepdim: builtins.bool = False, dtype=None) -> Tensor:
        """Product over ``dim`` (all dims when None); integer and bool tensors give int64.

        The gradient is exact when the input holds zeros (no division by zero)."""
    def logsumexp(a: Tensor, dim: Dim = None, keepdim: builtins.bool = False) -> Tensor:
        """log(sum(exp(a))) over ``dim``, computed stably (shifted by the max); its gradient is softmax."""
    def norm(a: Tensor, p: NormOrder = 2, dim: Dim = None, keepdim: builtins.bool = False, dtype=None) -> Tensor:
        """Vector p-norm over ``dim`` (all dims when None): p = 2 (default, also 'fro'), 1, inf, -inf, 0 or any number.

        At a zero norm the gradient is 0 (a subgradient), as in PyTorch."""
    def softmax(a: Tensor, dim: builtins.int, dtype=None) -> Tensor:
        """exp(a) / sum(exp(a)) along ``dim``, computed stably; backward y * (g - sum(g * y))."""
    def log_softmax(a: Tensor, dim: builtins.int, dtype=None) -> Tensor:
        """a - logsumexp(a) along ``dim``, computed stably; backward g - softmax * sum(g)."""
    def cumsum(a: Tensor, dim: builtins.int, dtype=None) -> Tensor:
        """Running sum along ``dim``; integer and bool tensors give int64. Backward: a reversed running sum."""
    def tril(input: Tensor, diagonal: builtins.int = 0) -> Tensor:
        """The lower triangle of the last two dims (elements above ``diagonal`` zeroed); the rule keeps g's lower triangle."""
    def triu(input: Tensor, diagonal: builtins.int = 0) -> Tensor:
        """The upper triangle of the last two dims (elements below ``diagonal`` zeroed); the rule keeps g's upper triangle."""
    def diag(input: Tensor, diagonal: builtins.int = 0) -> Tensor:
        """A 1-D tensor as the ``diagonal``-th diagonal of a square matrix, or a matrix's ``diagonal``-th diagonal.

        The two forms are each other's rule: the gradient of building a matrix from a
        vector is the matrix gradient's diagonal, and reading a diagonal (an indexing op)
        scatters the gradient back onto it."""
    def trace(input: Tensor) -> Tensor:
        """Sum of a matrix's main diagonal; the rule spreads g over the diagonal (g * eye)."""
    def cross(input: Tensor, other: Tensor, dim: Dim = None) -> Tensor:
        """The 3-vector cross product along ``dim`` (default: the first dim of size 3, as torch.cross); broadcasts.

        For c = a x b: d<g, c>/da = b x g and d<g, c>/db = g x a."""
    def inverse(A: Tensor) -> Tensor:
        """The inverse of each square matrix; d(A^-1) = -A^-1 dA A^-1."""
    def det(A: Tensor) -> Tensor:
        """The determinant of each square matrix; d(det A) = det A * trace(A^-1 dA)."""
    def slogdet(A: Tensor):
        """(sign, log |det|) of each square matrix; the sign is not differentiable."""
    def logdet(input: Tensor) -> Tensor:
        """log det A: NaN for a negative determinant, -inf for a zero one."""
    def matrix_exp(A: Tensor) -> Tensor:
        """The matrix exponential of each square matrix. Its vector-Jacobian product at G is the upper-right
        block of exp([[A^T, G], [0, A^T]]) (and its jvp at T that of exp([[A, T], [0, A]]))."""
    def pinverse(input: Tensor, rcond: builtins.float = 1e-15) -> Tensor:
        """``linalg.pinv(input, rtol=rcond)`` (torch.pinverse)."""
    def cholesky(self: Tensor, upper: builtins.bool = False) -> Tensor:
        """``linalg.cholesky`` (the method form, torch's Tensor.cholesky)."""
    def matmul(a: Tensor, b: Tensor) -> Tensor:
        """Matrix product with NumPy/PyTorch semantics for 1-D, 2-D and batched (broadcast) operands."""
    def __matmul__(a: Tensor, b: Tensor) -> Tensor:
        """Matrix product with NumPy/PyTorch semantics for 1-D, 2-D and batched (broadcast) operands."""
    def mm(a: Tensor, b: Tensor) -> Tensor:
        """Product of two matrices (2-D only)."""
    def bmm(a: Tensor, b: Tensor) -> Tensor:
        """Batched product of (b, n, m) and (b, m, p) tensors (no broadcasting)."""
    def mv(a: Tensor, v: Tensor) -> Tensor:
        """Product of a matrix and a vector."""
    def dot(a: Tensor, b: Tensor) -> Tensor:
        """Inner product of two 1-D tensors of the same length."""
    def inner(a: Tensor, b: Tensor) -> Tensor:
        """Inner product of two 1-D tensors of the same length."""
    def outer(a: Tensor, b: Tensor) -> Tensor:
        """Outer product of two 1-D tensors: ``out[i, j] = a[i] * b[j]`` (dtypes promote, as for ``*``)."""
    def __rmatmul__(self: Tensor, other) -> Tensor:
        """``other @ self`` (``Tensor.__rmatmul__``); an array or a list ``other`` becomes a tensor on ``self``'s device."""
    def sinh(input: Tensor) -> Tensor:
        """Hyperbolic sine; d/dx sinh x = cosh x."""
    def cosh(input: Tensor) -> Tensor:
        """Hyperbolic cosine; d/dx cosh x = sinh x."""
    def expm1(input: Tensor) -> Tensor:
        """e**x - 1, accurate for small x; d/dx = e**x."""
    def tan(input: Tensor) -> Tensor:
        """Tangent; d/dx tan x = 1 + tan(x)**2 (the output is reused)."""
    def asin(input: Tensor) -> Tensor:
        """Inverse sine (NaN outside [-1, 1]); d/dx = 1 / sqrt(1 - x**2)."""
    def arcsin(input: Tensor) -> Tensor:
        """Inverse sine (NaN outside [-1, 1]); d/dx = 1 / sqrt(1 - x**2)."""
    def acos(input: Tensor) -> Tensor:
        """Inverse cosine (NaN outside [-1, 1]); d/dx = -1 / sqrt(1 - x**2)."""
    def arccos(input: Tensor) -> Tensor:
        """Inverse cosine (NaN outside [-1, 1]); d/dx = -1 / sqrt(1 - x**2)."""
    def atan(input: Tensor) -> Tensor:
        """Inverse tangent; d/dx = 1 / (1 + x**2)."""
    def arctan(input: Tensor) -> Tensor:
        """Inverse tangent; d/dx = 1 / (1 + x**2)."""
    def atan2(input: Tensor, other: Tensor) -> Tensor:
        """The angle of the point (other, input), in (-pi, pi]; broadcasts.

        d/dy atan2(y, x) = x / (x**2 + y**2) and d/dx = -y / (x**2 + y**2)."""
    def arctan2(input: Tensor, other: Tensor) -> Tensor:
        """The angle of the point (other, input), in (-pi, pi]; broadcasts.

        d/dy atan2(y, x) = x / (x**2 + y**2) and d/dx = -y / (x**2 + y**2)."""
    def logaddexp(input: Tensor, other: Tensor) -> Tensor:
        """log(e**a + e**b), computed stably; broadcasts. d/da = sigmoid(a - b), d/db = sigmoid(b - a)."""
    def lerp(input: Tensor, end: Tensor, weight) -> Tensor:
        """start + weight * (end - start); ``weight`` is a number or a tensor; broadcasts.

        d/dstart = 1 - weight, d/dend = weight, d/dweight = end - start."""
    def cumprod(input: Tensor, dim: builtins.int, *, dtype=None) -> Tensor:
        """Running product along ``dim``; integer and bool tensors give int64 unless ``dtype`` is given.

        With y_j = a_0 ... a_j, d(sum_j g_j y_j)/da_i = (a_0 ... a_{i-1}) * S_i, where
        S_i = g_i + a_{i+1} * S_{i+1} runs from the end: exact at zeros, no division."""
    def roll(input: Tensor, shifts, dims=None) -> Tensor:
        """Shift elements cyclically by ``shifts`` along ``dims`` (flattened first when ``dims`` is None).

        The rule rolls the gradient back: ``g.roll(-shifts, dims)``."""
    def repeat_interleave(input: Tensor, repeats=None, dim: Dim = None, *, output_size=None) -> Tensor:
        """Repeat each element ``repeats`` times along ``dim`` (of the flattened input when ``dim`` is None).

        ``repeats`` is an int or a 1-D integer tensor (one count per element). With one
        integer tensor argument, ``repeat_interleave(r)`` repeats ``arange(len(r))``.
        The forward is an indexing op with a repeated index, so the rule is the
        scatter-add of the gradient back onto each source element."""
    def view(input: Tensor, *shape) -> Tensor:
        """The same elements in a new shape, sharing memory; PyTorch's error where that needs a copy.

        The rule is reshape's: the gradient is reshaped back."""
    def is_contiguous(a: Tensor) -> builtins.bool:
        """Whether the elements lie in memory in row-major order, with no gaps (as PyTorch's is_contiguous)."""
    def contiguous(a: Tensor) -> Tensor:
        """``a`` itself when contiguous, else a row-major copy; the gradient passes through."""
    def t(input: Tensor) -> Tensor:
        """The transpose of a matrix (dims 0 and 1); tensors of fewer dims are returned as they are."""
    def take(input: Tensor, index: Tensor) -> Tensor:
        """The elements of the flattened ``input`` at ``index`` (negatives count from the end), in ``index``'s shape.

        The rule is indexing's: the gradient is added back onto each picked element."""
    def scatter(input: Tensor, dim: builtins.int, index: Tensor, src=None, *, value=None) -> Tensor:
        """A copy of ``input`` with ``src`` (a tensor, or the number ``value``) written at ``index`` along ``dim``.

        d/dinput is g with the overwritten positions zeroed; d/dsrc is g gathered back at ``index``."""
    def scatter_add(input: Tensor, dim: builtins.int, index: Tensor, src: Tensor) -> Tensor:
        """A copy of ``input`` with ``src`` added at ``index`` along ``dim`` (repeated indices add up).

        d/dinput is g; d/dsrc is g gathered back at ``index``."""
    def sort(
        input: Tensor,
        dim: builtins.int = -1,
        descending: builtins.bool = False,
        *,
        stable: builtins.bool | None = False,
    ):
        """``(values, indices)`` of ``input`` sorted along ``dim``; a named tuple, as ``torch.sort``.

        Always stable (``stable=True`` is accepted and changes nothing). The gradient of the values
        goes back to the element each came from."""
    def argsort(
        input: Tensor,
        dim: builtins.int = -1,
        descending: builtins.bool = False,
        *,
        stable: builtins.bool | None = False,
    ) -> Tensor:
        """The indices that sort ``input`` along ``dim`` (stable). Not differentiable."""
    def msort(input: Tensor) -> Tensor:
        """``input`` sorted along dim 0 (the values of ``sort(input, dim=0)``)."""
    def topk(
        input: Tensor,
        k: builtins.int,
        dim: builtins.int = -1,
        largest: builtins.bool = True,
        sorted: builtins.bool = True,
    ):
        """The ``k`` largest (or, with ``largest=False``, smallest) entries along ``dim``: ``(values, indices)``.

        The entries come in sorted order (also with ``sorted=False``, which PyTorch leaves unspecified)."""
    def unique(
        input: Tensor,
        sorted: builtins.bool = True,
        return_inverse: builtins.bool = False,
        return_counts: builtins.bool = False,
        dim: builtins.int | None = None,
    ):
        """The unique elements of ``input`` (or unique slices along ``dim``), in ascending order.

        With ``return_inverse``, also where each input element (slice) went; with ``return_counts``,
        how often each unique value occurs. Returns a tensor, or a tuple when either flag is set.
        ``sorted=False`` is accepted; the result is sorted all the same."""
    def unique_consecutive(
        input: Tensor,
        return_inverse: builtins.bool = False,
        return_counts: builtins.bool = False,
        dim: builtins.int | None = None,
    ):
        """``input`` with each run of equal elements (or equal slices along ``dim``) kept once, in order:
        ``[1, 1, 2, 2, 3, 1, 1]`` gives ``[1, 2, 3, 1]``. With ``return_inverse``, the run each element
        (slice) belongs to; with ``return_counts``, each run's length. A tuple when either flag is set."""
    def bincount(input: Tensor, weights: Tensor | None = None, minlength: builtins.int = 0) -> Tensor:
        """How often each value 0, 1, ... occurs in a 1-D non-negative integer tensor (summing ``weights``).

        The result has ``max(input) + 1`` entries, at least ``minlength``: int64 counts, or the
        weights' sums (float64 for integer weights, as in PyTorch). Not differentiable."""
    def multinomial(
        input: Tensor, num_samples: builtins.int, replacement: builtins.bool = False, generator=None
    ) -> Tensor:
        """``num_samples`` category indices per row of ``input`` (1-D or 2-D non-negative weights).

        Weights need not sum to one. Without ``replacement`` each row's categories are drawn at
        most once, in order of drawing (the exponential race: the smallest ``E_i / w_i`` first,
        with ``E_i`` standard exponential, which draws without replacement in proportion to the
        weights). Follows ``minigrad.manual_seed`` (or draws from ``generator``); returns int64, not differentiable."""
    def nansum(input: Tensor, dim: Dim = None, keepdim: builtins.bool = False, *, dtype=None) -> Tensor:
        """The sum over ``dim`` (all dims when None) with NaN counted as zero.

        The rule is ``g`` times the mask of the elements that are not NaN (so an infinite ``g``
        gives NaN at a NaN, as in PyTorch)."""
    def nanmean(input: Tensor, dim: Dim = None, keepdim: builtins.bool = False, *, dtype=None) -> Tensor:
        """The mean over ``dim`` of the elements that are not NaN (NaN where all are); floating tensors only."""
    def asinh(input: Tensor) -> Tensor:
        """Inverse hyperbolic sine; d/dx = 1 / sqrt(x**2 + 1)."""
    def arcsinh(input: Tensor) -> Tensor:
        """Inverse hyperbolic sine; d/dx = 1 / sqrt(x**2 + 1)."""
    def acosh(input: Tensor) -> Tensor:
        """Inverse hyperbolic cosine (NaN below 1); d/dx = 1 / sqrt(x**2 - 1)."""
    def arccosh(input: Tensor) -> Tensor:
        """Inverse hyperbolic cosine (NaN below 1); d/dx = 1 / sqrt(x**2 - 1)."""
    def atanh(input: Tensor) -> Tensor:
        """Inverse hyperbolic tangent (NaN outside [-1, 1]); d/dx = 1 / (1 - x**2)."""
    def arctanh(input: Tensor) -> Tensor:
        """Inverse hyperbolic tangent (NaN outside [-1, 1]); d/dx = 1 / (1 - x**2)."""
    def exp2(input: Tensor) -> Tensor:
        """2**x; d/dx = 2**x * ln 2 (the output is reused)."""
    def log2(input: Tensor) -> Tensor:
        """Base-2 logarithm; d/dx = 1 / (x ln 2)."""
    def log10(input: Tensor) -> Tensor:
        """Base-10 logarithm; d/dx = 1 / (x ln 10)."""
    def trunc(input: Tensor) -> Tensor:
        """Round towards zero (zero gradient; integer tensors are returned unchanged in value)."""
    def fix(input: Tensor) -> Tensor:
        """Round towards zero (zero gradient; integer tensors are returned unchanged in value)."""
    def frac(input: Tensor) -> Tensor:
        """x - trunc(x), the fractional part keeping x's sign; d/dx = 1."""
    def sgn(input: Tensor) -> Tensor:
        """The sign, x / |x|: -1, 0 or 1, and 0 at NaN as in PyTorch (zero gradient everywhere)."""
    def logit(input: Tensor, eps: builtins.float | None = None) -> Tensor:
        """log(x / (1 - x)); with ``eps``, x is first clamped to [eps, 1 - eps] and the gradient is 0 outside."""
    def xlogy(input: Tensor | Number, other: Tensor | Number) -> Tensor:
        """x * log(y), and 0 where x is 0 (unless y is NaN); either argument may be a number."""
    def erfc(input: Tensor) -> Tensor:
        """The complementary error function 1 - erf(x), accurate where it is tiny; d/dx = -2 / sqrt(pi) exp(-x**2)."""
    def erfinv(input: Tensor) -> Tensor:
        """The inverse error function; d/dx = sqrt(pi) / 2 * exp(erfinv(x)**2) (the output is reused)."""
    def lgamma(input: Tensor) -> Tensor:
        """log |Gamma(x)|; d/dx = digamma(x)."""
    def digamma(input: Tensor) -> Tensor:
        """The logarithmic derivative of Gamma, psi(x); d/dx = polygamma(1, x)."""
    def polygamma(self: Tensor, n: builtins.int) -> Tensor:
        """``polygamma(n, self)``, the method form (torch's ``x.polygamma(n)``)."""
    def sinc(input: Tensor) -> Tensor:
        """sin(pi x) / (pi x), and 1 at 0; d/dx = (cos(pi x) - sinc(x)) / x, 0 at 0."""
    def hypot(input: Tensor, other: Tensor) -> Tensor:
        """sqrt(x**2 + y**2) without overflow; d/dx = x / hypot, d/dy = y / hypot (the output is reused)."""
    def fmax(input: Tensor, other: Tensor) -> Tensor:
        """Elementwise maximum where a NaN loses to a number (NaN only where both are NaN)."""
    def fmin(input: Tensor, other: Tensor) -> Tensor:
        """Elementwise minimum where a NaN loses to a number (NaN only where both are NaN)."""
    def nan_to_num(
        input: Tensor,
        nan: builtins.float = 0.0,
        posinf: builtins.float | None = None,
        neginf: builtins.float | None = None,
    ) -> Tensor:
        """NaN, inf and -inf replaced by ``nan``, ``posinf`` and ``neginf`` (the dtype's largest and smallest
        finite values by default); the gradient flows where the input was finite."""
    def heaviside(input: Tensor, values: Tensor) -> Tensor:
        """0 where x < 0, ``values`` where x == 0, 1 where x > 0 (a step: not differentiable, as in PyTorch)."""
    def clamp_min(input: Tensor, min: Tensor | Number | None) -> Tensor:
        """``clamp(input, min=min)``."""
    def clamp_max(input: Tensor, max: Tensor | Number | None) -> Tensor:
        """``clamp(input, max=max)``."""
    def new_zeros(self: Tensor, *size, dtype=None, device=None, requires_grad=False) -> Tensor:
        """Zeros of ``size``, with this tensor's dtype and device unless given."""
    def new_ones(self: Tensor, *size, dtype=None, device=None, requires_grad=False) -> Tensor:
        """Ones of ``size``, with this tensor's dtype and device unless given."""
    def new_empty(self: Tensor, *size, dtype=None, device=None, requires_grad=False) -> Tensor:
        """An uninitialised tensor of ``size`` (zeros here), with this tensor's dtype and device unless given."""
    def new_full(self: Tensor, size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
        """``fill_value`` everywhere in ``size``, with this tensor's dtype and device unless given."""
    def new_tensor(self: Tensor, data, *, dtype=None, device=None, requires_grad=False) -> Tensor:
        """A new leaf holding a copy of ``data``, with this tensor's dtype and device unless given."""
    def type(self: Tensor, dtype=None, non_blocking: builtins.bool = False, **kwargs):
        """With no argument, the tensor type's name (``'torch.FloatTensor'``); with a dtype or such a name,
        this tensor cast to it (itself when it already has it)."""
    def is_floating_point(self: Tensor) -> builtins.bool:
        """Whether the dtype is a floating one."""
    def nelement(self: Tensor) -> builtins.int:
        """The number of elements (``numel``'s other name)."""
    def element_size(self: Tensor) -> builtins.int:
        """Bytes per element."""
    def stride(self: Tensor, dim: builtins.int | None = None):
        """Elements (not bytes) to step in memory for one step along each dim, or along ``dim``."""
    def storage_offset(self: Tensor) -> builtins.int:
        """Where this tensor's first element sits in the memory it shares with its base, in elements."""
    def unfold(self: Tensor, dimension: builtins.int, size: builtins.int, step: builtins.int) -> Tensor:
        """Every window of ``size`` elements along ``dimension``, ``step`` apart: that dim becomes the window
        count and a last dim of ``size`` is added (a copy here; PyTorch returns a view)."""
    @property
    def nbytes(self) -> builtins.int:
        """Bytes the elements take."""
    @property
    def itemsize(self) -> builtins.int:
        """Bytes per element."""
    def multiply(a: Tensor | Number, b: Tensor | Number) -> Tensor:
        """Elementwise product with broadcasting."""
    def subtract(a: Tensor | Number, b: Tensor | Number, alpha: Number = 1) -> Tensor:
        """``a - alpha * b`` with broadcasting."""
    def true_divide(a: Tensor | Number, b: Tensor | Number, rounding_mode: str | None = None) -> Tensor:
        """True division with broadcasting (integers divide to the default float dtype)."""
    def negative(a: Tensor) -> Tensor:
        """``-a``."""
    def absolute(a: Tensor) -> Tensor:
        """Elementwise absolute value (gradient sign(a), 0 at 0)."""
    def all(input: Tensor, dim: Dim = None, keepdim: builtins.bool = False) -> Tensor:
        """Whether every element (along ``dim``: one int or a tuple) is nonzero; a bool tensor."""
    def any(input: Tensor, dim: Dim = None, keepdim: builtins.bool = False) -> Tensor:
        """Whether some element (along ``dim``: one int or a tuple) is nonzero; a bool tensor."""
    def count_nonzero(input: Tensor, dim: Dim = None) -> Tensor:
        """The number of nonzero elements (along ``dim``: one int or a tuple), as int64."""
    def nonzero(input: Tensor, *, as_tuple: builtins.bool = False):
        """The indices of the nonzero elements: an int64 tensor of shape [n, ndim], or with ``as_tuple``
        one 1-D index tensor per dim (usable as an index: ``x[x.nonzero(as_tuple=True)]``)."""
    def masked_select(input: Tensor, mask: Tensor) -> Tensor:
        """The elements of ``input`` where ``mask`` is True, as a 1-D tensor (both broadcast first)."""
    def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
        """``input`` with the places where ``mask`` is True filled, in order, from ``source``'s first elements."""
    def index_add(input: Tensor, dim: builtins.int, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
        """``input`` with ``alpha * source``'s slices added at ``index`` along ``dim`` (repeats add up): a
        ``scatter_add`` of the source into ``input``."""
    def index_fill(input: Tensor, dim: builtins.int, index: Tensor, value) -> Tensor:
        """``input`` with the slices at ``index`` along ``dim`` set to ``value`` (a number or a 0-d tensor)."""
    def index_copy(input: Tensor, dim: builtins.int, index: Tensor, source: Tensor) -> Tensor:
        """``input`` with ``source``'s slices written at ``index`` along ``dim`` (an ``index_put``)."""
    def index_put(input: Tensor, indices, values: Tensor, accumulate: builtins.bool = False) -> Tensor:
        """``input`` with ``input[indices] = values`` (``accumulate``: ``+=``, repeated places adding up).
        Accumulating is an ``index_add`` over the indexed dims flattened into one."""
    def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
        """beta * input + alpha * (mat1 @ mat2), ``input`` broadcast to the product's shape."""
    def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
        """beta * input + alpha * (mat @ vec)."""
    def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
        """beta * input + alpha * (batch1 @ batch2), batch by batch."""
    def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
        """beta * input + alpha * the sum over the batch of batch1[i] @ batch2[i]."""
    def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
        """input + value * tensor1 * tensor2 (broadcast)."""
    def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
        """input + value * tensor1 / tensor2 (broadcast); integer divisions are refused, as in PyTorch."""
    def kron(input: Tensor, other: Tensor) -> Tensor:
        """The Kronecker product: every element of ``input`` times the whole of ``other``, in blocks."""
    def tensordot(a: Tensor, b: Tensor, dims=2) -> Tensor:
        """Sum of products over ``dims``: the last ``dims`` of ``a`` with the first of ``b``, or the pairs
        of dims given as two lists; a matmul of the two reshaped to matrices."""
    def dist(input: Tensor, other: Tensor, p=2) -> Tensor:
        """The p-norm of input - other (broadcast)."""
    def renorm(input: Tensor, p, dim: builtins.int, maxnorm) -> Tensor:
        """Each slice along ``dim`` whose p-norm exceeds ``maxnorm`` scaled down to norm ``maxnorm``
        (by maxnorm / (norm + 1e-7), as PyTorch does); the others unchanged."""
    def cummax(input: Tensor, dim: builtins.int):
        """The running maximum along ``dim`` and the index where each was reached: (values, indices)."""
    def cummin(input: Tensor, dim: builtins.int):
        """The running minimum along ``dim`` and the index where each was reached: (values, indices)."""
    def logcumsumexp(input: Tensor, dim: builtins.int) -> Tensor:
        """log(cumsum(exp(x))) along ``dim``, computed stably.

        y_j = log sum_{i<=j} e**x_i, so dy_j/dx_i = e**(x_i - y_j) for i <= j: the gradient is
        e**(x - m) * (the sum from i to the end of g_j e**(m - y_j)), with m the largest x of the slice."""
    def median(input: Tensor, dim: Dim = None, keepdim: builtins.bool = False):
        """The lower of the two middle values (a NaN if the slice has one); along ``dim``: (values, indices)."""
    def nanmedian(input: Tensor, dim: Dim = None, keepdim: builtins.bool = False):
        """``median`` of the values that are not NaN (NaN for a slice of NaNs only)."""
    def kthvalue(input: Tensor, k: builtins.int, dim: builtins.int = -1, keepdim: builtins.bool = False):
        """The k-th smallest value along ``dim`` (k from 1) and its index: (values, indices)."""
    def mode(input: Tensor, dim: builtins.int = -1, keepdim: builtins.bool = False):
        """The most frequent value along ``dim`` (the smallest among equally frequent ones) and the index of
        its last occurrence: (values, indices)."""
    def quantile(
        input: Tensor, q, dim: Dim = None, keepdim: builtins.bool = False, *, interpolation: str = "linear"
    ) -> Tensor:
        """The q-th quantiles (q a number or a 1-D tensor in [0, 1]) along ``dim`` or of all elements,
        interpolating between the two nearest ranks; NaN where the slice has a NaN. A tensor ``q``'s
        dim comes first in the result."""
    def nanquantile(
        input: Tensor, q, dim: Dim = None, keepdim: builtins.bool = False, *, interpolation: str = "linear"
    ) -> Tensor:
        """``quantile`` of the values that are not NaN."""
    def aminmax(input: Tensor, *, dim: builtins.int | None = None, keepdim: builtins.bool = False):
        """The smallest and largest values (along ``dim``): (min, max)."""
    def histc(
        input: Tensor, bins: builtins.int = 100, min: Tensor | Number | None = 0, max: Tensor | Number | None = 0
    ) -> Tensor:
        """A histogram of ``bins`` equal bins over [min, max] (the data's range when both are 0); elements
        outside are ignored. Same dtype as ``input``; not differentiable."""
    def cov(
        input: Tensor, *, correction: builtins.int = 1, fweights: Tensor | None = None, aweights: Tensor | None = None
    ) -> Tensor:
        """The covariance matrix of the variables in ``input``'s rows (observations in its columns; one
        variable for a vector), with frequency and importance weights and ``correction`` as NumPy's cov."""
    def corrcoef(input: Tensor) -> Tensor:
        """Pearson's correlation coefficients of the variables in ``input``'s rows, clipped to [-1, 1]."""
    def add_(self, other, alpha: Number = 1) -> Tensor:
        """In-place add: writes the result into this tensor (recorded under grad mode)."""
    def __iadd__(self, other, alpha: Number = 1) -> Tensor:  # type: ignore[misc]
        """In-place add: writes the result into this tensor (recorded under grad mode)."""
    def sub_(self, other, alpha: Number = 1) -> Tensor:
        """In-place sub: writes the result into this tensor (recorded under grad mode)."""
    def __isub__(self, other, alpha: Number = 1) -> Tensor:  # type: ignore[misc]
        """In-place sub: writes the result into this tensor (recorded under grad mode)."""
    def mul_(self, other) -> Tensor:
        """In-place mul: writes the result into this tensor (recorded under grad mode)."""
    def __imul__(self, other) -> Tensor:  # type: ignore[misc]
        """In-place mul: writes the result into this tensor (recorded under grad mode)."""
    def div_(self, other, rounding_mode: str | None = None) -> Tensor:
        """In-place div: writes the result into this tensor (recorded under grad mode)."""
    def __itruediv__(self, other, rounding_mode: str | None = None) -> Tensor:  # type: ignore[misc]
        """In-place div: writes the result into this tensor (recorded under grad mode)."""
    def pow_(self, other) -> Tensor:
        """In-place pow: writes the result into this tensor (recorded under grad mode)."""
    def __ipow__(self, other) -> Tensor:  # type: ignore[misc]
        """In-place pow: writes the result into this tensor (recorded under grad mode)."""
    def remainder_(self, other) -> Tensor:
        """In-place remainder: writes the result into this tensor (recorded under grad mode)."""
    def __imod__(self, other) -> Tensor:  # type: ignore[misc]
        """In-place remainder: writes the result into this tensor (recorded under grad mode)."""
    def fmod_(self, other) -> Tensor:
        """In-place fmod: writes the result into this tensor (recorded under grad mode)."""
    def bitwise_and_(self, other) -> Tensor:
        """In-place bitwise_and: writes the result into this tensor (recorded under grad mode)."""
    def __iand__(self, other) -> Tensor:  # type: ignore[misc]
        """In-place bitwise_and: writes the result into this tensor (recorded under grad mode)."""
    def bitwise_or_(self, other) -> Tensor:
        """In-place bitwise_or: writes the result into this tensor (recorded under grad mode)."""
    def __ior__(self, other) -> Tensor:  # type: ignore[misc]
        """In-place bitwise_or: writes the result into this tensor (recorded under grad mode)."""
    def bitwise_xor_(self, other) -> Tensor:
        """In-place bitwise_xor: writes the result into this tensor (recorded under grad mode)."""
    def __ixor__(self, other) -> Tensor:  # type: ignore[misc]
        """In-place bitwise_xor: writes the result into this tensor (recorded under grad mode)."""
    def bitwise_left_shift_(self, other) -> Tensor:
        """In-place bitwise_left_shift: writes the result into this tensor (recorded under grad mode)."""
    def __ilshift__(self, other) -> Tensor:  # type: ignore[misc]
        """In-place bitwise_left_shift: writes the result into this tensor (recorded under grad mode)."""
    def bitwise_right_shift_(self, other) -> Tensor:
        """In-place bitwise_right_shift: writes the result into this tensor (recorded under grad mode)."""
    def __irshift__(self, other) -> Tensor:  # type: ignore[misc]
        """In-place bitwise_right_shift: writes the result into this tensor (recorded under grad mode)."""
    def zero_(t: Tensor) -> Tensor:
        """Fill with zeros in place."""
    def fill_(t: Tensor, value) -> Tensor:
        """Fill with ``value`` (a number or a one-element tensor) in place."""
    def copy_(t: Tensor, src) -> Tensor:
        """Copy ``src`` (a tensor, array, list or number, broadcast to this shape) into this tensor in place."""
    def clamp_(t: Tensor, min=None, max=None) -> Tensor:
        """In-place clamp."""
    def masked_fill_(t: Tensor, mask, value) -> Tensor:
        """In-place masked_fill."""
    def __setitem__(t: Tensor, key, value) -> None:
        """``t[key] = value`` in place; recorded (as ``index_put_``) when ``t`` or ``value`` requires grad."""
    def uniform_(
        self: Tensor, from_: builtins.float = 0.0, to: builtins.float = 1.0, *, generator=None, **kwargs
    ) -> Tensor:
        """Fill with values drawn uniformly from ``[from, to)`` (torch's keyword ``from`` is accepted)."""
    def normal_(self: Tensor, mean: builtins.float = 0.0, std: builtins.float = 1.0, *, generator=None) -> Tensor:
        """Fill with values drawn from N(mean, std**2)."""
    def bernoulli_(self: Tensor, p: builtins.float = 0.5, *, generator=None) -> Tensor:
        """Fill with 1 (probability ``p``) or 0."""
    def exponential_(self: Tensor, lambd: builtins.float = 1.0, *, generator=None) -> Tensor:
        """Fill with values drawn from the exponential distribution of rate ``lambd``."""
    def random_(
        self: Tensor, from_: builtins.int = 0, to: builtins.int | None = None, *, generator=None, **kwargs
    ) -> Tensor:
        """Fill with integers drawn uniformly from ``[from, to - 1]``, as ``torch.Tensor.random_``.

        ``x.random_(to)`` draws from ``[0, to - 1]``; ``x.random_()`` from every integer the dtype holds
        exactly (``[0, 2**24]`` for float32, ``[0, 2**53]`` for float64, ``[0, max]`` for an integer dtype).
        torch's keyword ``from`` is accepted. One difference: ``random_(n, None)`` reads as ``random_(n)``."""
    def apply_(self: Tensor, callable) -> Tensor:
        """Replace each element ``v`` with ``callable(v)`` (a Python number), as ``torch.Tensor.apply_``: on
        CPU only, outside the graph (a tensor that requires grad is refused), slow (one Python call per
        element). The write counts as one more version."""
    def abs_(self) -> Tensor:
        """In-place ``abs``: writes its result into this tensor (recorded under grad mode)."""
    def absolute_(self) -> Tensor:
        """In-place ``absolute``: writes its result into this tensor (recorded under grad mode)."""
    def acos_(self) -> Tensor:
        """In-place ``acos``: writes its result into this tensor (recorded under grad mode)."""
    def acosh_(self) -> Tensor:
        """In-place ``acosh``: writes its result into this tensor (recorded under grad mode)."""
    def addbmm_(self, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
        """In-place ``addbmm``: writes its result into this tensor (recorded under grad mode)."""
    def addcdiv_(self, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
        """In-place ``addcdiv``: writes its result into this tensor (recorded under grad mode)."""
    def addcmul_(self, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
        """In-place ``addcmul``: writes its result into this tensor (recorded under grad mode)."""
    def addmm_(self, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
        """In-place ``addmm``: writes its result into this tensor (recorded under grad mode)."""
    def addmv_(self, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
        """In-place ``addmv``: writes its result into this tensor (recorded under grad mode)."""
    def arccos_(self) -> Tensor:
        """In-place ``arccos``: writes its result into this tensor (recorded under grad mode)."""
    def arccosh_(self) -> Tensor:
        """In-place ``arccosh``: writes its result into this tensor (recorded under grad mode)."""
    def arcsin_(self) -> Tensor:
        """In-place ``arcsin``: writes its result into this tensor (recorded under grad mode)."""
    def arcsinh_(self) -> Tensor:
        """In-place ``arcsinh``: writes its result into this tensor (recorded under grad mode)."""
    def arctan_(self) -> Tensor:
        """In-place ``arctan``: writes its result into this tensor (recorded under grad mode)."""
    def arctan2_(self, other: Tensor) -> Tensor:
        """In-place ``arctan2``: writes its result into this tensor (recorded under grad mode)."""
    def arctanh_(self) -> Tensor:
        """In-place ``arctanh``: writes its result into this tensor (recorded under grad mode)."""
    def asin_(self) -> Tensor:
        """In-place ``asin``: writes its result into this tensor (recorded under grad mode)."""
    def asinh_(self) -> Tensor:
        """In-place ``asinh``: writes its result into this tensor (recorded under grad mode)."""
    def atan_(self) -> Tensor:
        """In-place ``atan``: writes its result into this tensor (recorded under grad mode)."""
    def atan2_(self, other: Tensor) -> Tensor:
        """In-place ``atan2``: writes its result into this tensor (recorded under grad mode)."""
    def atanh_(self) -> Tensor:
        """In-place ``atanh``: writes its result into this tensor (recorded under grad mode)."""
    def baddbmm_(self, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
        """In-place ``baddbmm``: writes its result into this tensor (recorded under grad mode)."""
    def bitwise_not_(self) -> Tensor:
        """In-place ``bitwise_not``: writes its result into this tensor (recorded under grad mode)."""
    def ceil_(self) -> Tensor:
        """In-place ``ceil``: writes its result into this tensor (recorded under grad mode)."""
    def clamp_max_(self, max: Tensor | Number | None) -> Tensor:
        """In-place ``clamp_max``: writes its result into this tensor (recorded under grad mode)."""
    def clamp_min_(self, min: Tensor | Number | None) -> Tensor:
        """In-place ``clamp_min``: writes its result into this tensor (recorded under grad mode)."""
    def clip_(self, min: Tensor | Number | None = None, max: Tensor | Number | None = None) -> Tensor:
        """In-place ``clip``: writes its result into this tensor (recorded under grad mode)."""
    def cos_(self) -> Tensor:
        """In-place ``cos``: writes its result into this tensor (recorded under grad mode)."""
    def cosh_(self) -> Tensor:
        """In-place ``cosh``: writes its result into this tensor (recorded under grad mode)."""
    def cumprod_(self, dim: builtins.int, *, dtype=None) -> Tensor:
        """In-place ``cumprod``: writes its result into this tensor (recorded under grad mode)."""
    def cumsum_(self, dim: builtins.int, dtype=None) -> Tensor:
        """In-place ``cumsum``: writes its result into this tensor (recorded under grad mode)."""
    def digamma_(self) -> Tensor:
        """In-place ``digamma``: writes its result into this tensor (recorded under grad mode)."""
    def divide_(self, b: Tensor | Number, rounding_mode: str | None = None) -> Tensor:
        """In-place ``divide``: writes its result into this tensor (recorded under grad mode)."""
    def eq_(self, b: Tensor | Number) -> Tensor:
        """In-place ``eq``: writes its result into this tensor (recorded under grad mode)."""
    def erf_(self) -> Tensor:
        """In-place ``erf``: writes its result into this tensor (recorded under grad mode)."""
    def erfc_(self) -> Tensor:
        """In-place ``erfc``: writes its result into this tensor (recorded under grad mode)."""
    def erfinv_(self) -> Tensor:
        """In-place ``erfinv``: writes its result into this tensor (recorded under grad mode)."""
    def exp_(self) -> Tensor:
        """In-place ``exp``: writes its result into this tensor (recorded under grad mode)."""
    def exp2_(self) -> Tensor:
        """In-place ``exp2``: writes its result into this tensor (recorded under grad mode)."""
    def expm1_(self) -> Tensor:
        """In-place ``expm1``: writes its result into this tensor (recorded under grad mode)."""
    def fix_(self) -> Tensor:
        """In-place ``fix``: writes its result into this tensor (recorded under grad mode)."""
    def floor_(self) -> Tensor:
        """In-place ``floor``: writes its result into this tensor (recorded under grad mode)."""
    def floor_divide_(self, b: Tensor | Number) -> Tensor:
        """In-place ``floor_divide``: writes its result into this tensor (recorded under grad mode)."""
    def fmax_(self, other: Tensor) -> Tensor:
        """In-place ``fmax``: writes its result into this tensor (recorded under grad mode)."""
    def fmin_(self, other: Tensor) -> Tensor:
        """In-place ``fmin``: writes its result into this tensor (recorded under grad mode)."""
    def frac_(self) -> Tensor:
        """In-place ``frac``: writes its result into this tensor (recorded under grad mode)."""
    def ge_(self, b: Tensor | Number) -> Tensor:
        """In-place ``ge``: writes its result into this tensor (recorded under grad mode)."""
    def greater_(self, b: Tensor | Number) -> Tensor:
        """In-place ``greater``: writes its result into this tensor (recorded under grad mode)."""
    def greater_equal_(self, b: Tensor | Number) -> Tensor:
        """In-place ``greater_equal``: writes its result into this tensor (recorded under grad mode)."""
    def gt_(self, b: Tensor | Number) -> Tensor:
        """In-place ``gt``: writes its result into this tensor (recorded under grad mode)."""
    def heaviside_(self, values: Tensor) -> Tensor:
        """In-place ``heaviside``: writes its result into this tensor (recorded under grad mode)."""
    def hypot_(self, other: Tensor) -> Tensor:
        """In-place ``hypot``: writes its result into this tensor (recorded under grad mode)."""
    def index_add_(self, dim: builtins.int, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:
        """In-place ``index_add``: writes its result into this tensor (recorded under grad mode)."""
    def index_copy_(self, dim: builtins.int, index: Tensor, source: Tensor) -> Tensor:
        """In-place ``index_copy``: writes its result into this tensor (recorded under grad mode)."""
    def index_fill_(self, dim: builtins.int, index: Tensor, value) -> Tensor:
        """In-place ``index_fill``: writes its result into this tensor (recorded under grad mode)."""
    def index_put_(self, indices, values: Tensor, accumulate: builtins.bool = False) -> Tensor:
        """In-place ``index_put``: writes its result into this tensor (recorded under grad mode)."""
    def le_(self, b: Tensor | Number) -> Tensor:
        """In-place ``le``: writes its result into this tensor (recorded under grad mode)."""
    def lerp_(self, end: Tensor, weight) -> Tensor:
        """In-place ``lerp``: writes its result into this tensor (recorded under grad mode)."""
    def less_(self, b: Tensor | Number) -> Tensor:
        """In-place ``less``: writes its result into this tensor (recorded under grad mode)."""
    def less_equal_(self, b: Tensor | Number) -> Tensor:
        """In-place ``less_equal``: writes its result into this tensor (recorded under grad mode)."""
    def lgamma_(self) -> Tensor:
        """In-place ``lgamma``: writes its result into this tensor (recorded under grad mode)."""
    def log_(self) -> Tensor:
        """In-place ``log``: writes its result into this tensor (recorded under grad mode)."""
    def log10_(self) -> Tensor:
        """In-place ``log10``: writes its result into this tensor (recorded under grad mode)."""
    def log1p_(self) -> Tensor:
        """In-place ``log1p``: writes its result into this tensor (recorded under grad mode)."""
    def log2_(self) -> Tensor:
        """In-place ``log2``: writes its result into this tensor (recorded under grad mode)."""
    def logical_and_(self, b: Tensor | Number) -> Tensor:
        """In-place ``logical_and``: writes its result into this tensor (recorded under grad mode)."""
    def logical_not_(self) -> Tensor:
        """In-place ``logical_not``: writes its result into this tensor (recorded under grad mode)."""
    def logical_or_(self, b: Tensor | Number) -> Tensor:
        """In-place ``logical_or``: writes its result into this tensor (recorded under grad mode)."""
    def logical_xor_(self, b: Tensor | Number) -> Tensor:
        """In-place ``logical_xor``: writes its result into this tensor (recorded under grad mode)."""
    def logit_(self, eps: builtins.float | None = None) -> Tensor:
        """In-place ``logit``: writes its result into this tensor (recorded under grad mode)."""
    def lt_(self, b: Tensor | Number) -> Tensor:
        """In-place ``lt``: writes its result into this tensor (recorded under grad mode)."""
    def masked_scatter_(self, mask: Tensor, source: Tensor) -> Tensor:
        """In-place ``masked_scatter``: writes its result into this tensor (recorded under grad mode)."""
    def multiply_(self, b: Tensor | Number) -> Tensor:
        """In-place ``multiply``: writes its result into this tensor (recorded under grad mode)."""
    def nan_to_num_(
        self, nan: builtins.float = 0.0, posinf: builtins.float | None = None, neginf: builtins.float | None = None
    ) -> Tensor:
        """In-place ``nan_to_num``: writes its result into this tensor (recorded under grad mode)."""
    def ne_(self, b: Tensor | Number) -> Tensor:
        """In-place ``ne``: writes its result into this tensor (recorded under grad mode)."""
    def neg_(self) -> Tensor:
        """In-place ``neg``: writes its result into this tensor (recorded under grad mode)."""
    def negative_(self) -> Tensor:
        """In-place ``negative``: writes its result into this tensor (recorded under grad mode)."""
    def not_equal_(self, b: Tensor | Number) -> Tensor:
        """In-place ``not_equal``: writes its result into this tensor (recorded under grad mode)."""
    def polygamma_(self, n: builtins.int) -> Tensor:
        """In-place ``polygamma``: writes its result into this tensor (recorded under grad mode)."""
    def reciprocal_(self) -> Tensor:
        """In-place ``reciprocal``: writes its result into this tensor (recorded under grad mode)."""
    def relu_(self) -> Tensor:
        """In-place ``relu``: writes its result into this tensor (recorded under grad mode)."""
    def renorm_(self, p, dim: builtins.int, maxnorm) -> Tensor:
        """In-place ``renorm``: writes its result into this tensor (recorded under grad mode)."""
    def round_(self, decimals: builtins.int = 0) -> Tensor:
        """In-place ``round``: writes its result into this tensor (recorded under grad mode)."""
    def rsqrt_(self) -> Tensor:
        """In-place ``rsqrt``: writes its result into this tensor (recorded under grad mode)."""
    def scatter_(self, dim: builtins.int, index: Tensor, src=None, *, value=None) -> Tensor:
        """In-place ``scatter``: writes its result into this tensor (recorded under grad mode)."""
    def scatter_add_(self, dim: builtins.int, index: Tensor, src: Tensor) -> Tensor:
        """In-place ``scatter_add``: writes its result into this tensor (recorded under grad mode)."""
    def sgn_(self) -> Tensor:
        """In-place ``sgn``: writes its result into this tensor (recorded under grad mode)."""
    def sigmoid_(self) -> Tensor:
        """In-place ``sigmoid``: writes its result into this tensor (recorded under grad mode)."""
    def sign_(self) -> Tensor:
        """In-place ``sign``: writes its result into this tensor (recorded under grad mode)."""
    def sin_(self) -> Tensor:
        """In-place ``sin``: writes its result into this tensor (recorded under grad mode)."""
    def sinc_(self) -> Tensor:
        """In-place ``sinc``: writes its result into this tensor (recorded under grad mode)."""
    def sinh_(self) -> Tensor:
        """In-place ``sinh``: writes its result into this tensor (recorded under grad mode)."""
    def sqrt_(self) -> Tensor:
        """In-place ``sqrt``: writes its result into this tensor (recorded under grad mode)."""
    def square_(self) -> Tensor:
        """In-place ``square``: writes its result into this tensor (recorded under grad mode)."""
    def subtract_(self, b: Tensor | Number, alpha: Number = 1) -> Tensor:
        """In-place ``subtract``: writes its result into this tensor (recorded under grad mode)."""
    def tan_(self) -> Tensor:
        """In-place ``tan``: writes its result into this tensor (recorded under grad mode)."""
    def tanh_(self) -> Tensor:
        """In-place ``tanh``: writes its result into this tensor (recorded under grad mode)."""
    def tril_(self, diagonal: builtins.int = 0) -> Tensor:
        """In-place ``tril``: writes its result into this tensor (recorded under grad mode)."""
    def triu_(self, diagonal: builtins.int = 0) -> Tensor:
        """In-place ``triu``: writes its result into this tensor (recorded under grad mode)."""
    def true_divide_(self, b: Tensor | Number, rounding_mode: str | None = None) -> Tensor:
        """In-place ``true_divide``: writes its result into this tensor (recorded under grad mode)."""
    def trunc_(self) -> Tensor:
        """In-place ``trunc``: writes its result into this tensor (recorded under grad mode)."""
    def xlogy_(self, other: Tensor | Number) -> Tensor:
        """In-place ``xlogy``: writes its result into this tensor (recorded under grad mode)."""
    def unsqueeze_(self, dim: builtins.int) -> Tensor:
        """In-place ``unsqueeze``: this tensor becomes that view of itself."""
    def squeeze_(self, dim: Dims = None) -> Tensor:
        """In-place ``squeeze``: this tensor becomes that view of itself."""
    def t_(self) -> Tensor:
        """In-place ``t``: this tensor becomes that view of itself."""
    def transpose_(self, dim0: builtins.int, dim1: builtins.int) -> Tensor:
        """In-place ``transpose``: this tensor becomes that view of itself."""
    def swapaxes_(self, dim0: builtins.int, dim1: builtins.int) -> Tensor:
        """In-place ``swapaxes``: this tensor becomes that view of itself."""
    def swapdims_(self, dim0: builtins.int, dim1: builtins.int) -> Tensor:
        """In-place ``swapdims``: this tensor becomes that view of itself."""
    def __dlpack__(self: Tensor, *args, **kwargs):
        """Export the data through DLPack (tensors that require grad must be detached first)."""
    def __dlpack_device__(self: Tensor): ...

class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    _hooks: Any
    id: Any
    _next_id: Any
    def __init__(self, hooks: dict): ...
    def remove(self) -> None: ...
    def __enter__(self): ...
    def __exit__(self, *exc): ...

class GradFn:
    """A light view of the backward step that produced a tensor (``grad_fn``)."""
    def __init__(self, node: Tensor): ...
    def name(self) -> str: ...
    @property
    def next_functions(self) -> tuple: ...
    def __repr__(self) -> str: ...
    node: Any

def _op_class_name(op: str) -> str: ...
def _rebuild(arr, device, requires_grad, name): ...
def take_node(t: Tensor, result: Tensor, old: Tensor, op: str) -> None:
    """Make ``t`` the node of ``result``, an op's result on ``old`` (``t``'s node before, split off), named
    ``op``: what an in-place op recorded on ``t`` does (``ops.inplace``). Nodes made earlier keep ``old``."""

def _record_rebase(t: Tensor, old: Tensor) -> None:
    """Note that ``t`` took a new node (id ``t.id``) while the nodes made before keep ``old``, its node before."""

def make(data, parents: tuple, backward, op: str, jvp=None) -> Tensor:
    """Wrap an op's result: record ``parents`` and ``backward`` when the graph is being built.

    ``parents`` are the tensor operands (never Python scalars). The graph is
    recorded only under grad mode and when some parent requires grad; otherwise
    the result is a plain leaf and ``backward`` is dropped. ``jvp`` is the op's
    forward-mode rule: inside a dual level, when a parent carries a tangent, it
    maps the parents' tangents to the result's."""

def _mark_view(t: Tensor, base: Tensor, no_grad: bool) -> None:
    """Note that ``t``, made outside the graph, views the memory of ``base`` (PyTorch's view tracking): a
    recorded in-place op on ``t`` puts ``base`` in the graph (``ops.inplace``). PyTorch refuses an in-place
    op with grad mode on for a view made under no_grad of a tensor that requires grad (``no_grad_view``),
    and for one of any tensor when the op must be recorded."""

def _tangent_of(t: Tensor, depth: int | None = None):
    """The tangent ``t`` carries at the dual level of ``depth`` (default: the innermost active one), or None."""

def _set_tangent(t: Tensor, tangent: Tensor, depth: int | None = None) -> None:
    """Give ``t`` ``tangent`` at the dual level of ``depth`` (default: the innermost active one)."""

def _drop_tangent(t: Tensor, depth: int) -> None:
    """Forget ``t``'s tangent at the dual level of ``depth``."""

def _tangents_of(t: Tensor) -> dict:
    """``{depth: tangent}`` for every active dual level at which ``t`` carries a tangent."""

def _forward_tangent(t: Tensor, parents: tuple, jvp, op: str) -> None:
    """Forward mode: the result's tangent at every active level from its parents' (zeros where a parent
    has none), outermost level first.

    The rule of the level at depth ``d`` runs with the levels outside it still active, so its own Tensor
    ops carry their tangents (a jvp of a jvp gives second derivatives), and with ``d`` and the levels
    inside it off, so that a level never sees another's tangents (no perturbation confusion).
    Results that are not floating point (indices, masks, integer casts) carry no tangent, as in PyTorch."""

def blank_tensor(cls: type, device: B.Device) -> Tensor:
    """A ``cls`` (Tensor or a subclass) with a fresh id, no graph, no name and no value yet.

    Made without a ``node_created`` event or any check: for the machinery's own values
    (``trace.emit``'s shadows of a learner's nodes, ``vmap``'s batches), never for user tensors."""

def type_name(value) -> str:
    """A type's name as PyTorch's errors print it (``numpy.bool`` for NumPy's, which are not Python's)."""

def make_leaf(data, device: B.Device, requires_grad: bool = False, name: str | None = None) -> Tensor:
    """A leaf tensor around an existing array (no copy, no checks)."""

def _mark_inference(t: Tensor) -> None: ...
def _refuse_saved_inference(parents: tuple, backward) -> None:
    """PyTorch's error when a recorded op saves an inference tensor."""

def _coerce_result(data): ...
def mark_written(t: Tensor) -> None:
    """Record an in-place write of ``t``'s memory: bump its version counter, stamped with a fresh id.

    Writes through ``.data`` are not recorded, as in PyTorch."""

def _check_dim(dim: int, ndim: int) -> int: ...
def _to_array(data, dtype, device):
    """Convert user data to (array, Device), copying like torch.tensor does."""

def _refuse_complex(dt: np.dtype) -> None:
    """Python's refusal of a complex number where a real one is expected, as ``torch.tensor`` raises it (a
    NumPy complex array is cast, as there)."""

def _refuse_overflow(arr, dt) -> None:
    """PyTorch's error for numbers an integer dtype ``dt`` cannot hold (NaN, infinities, ints past its range)."""

def _wide_ints(data, arr, dt):
    """``arr``, NumPy's array of the Python ``data``, checked for ints past int64 (NumPy makes them uint64,
    float64 or object): PyTorch refuses one unless the tensor is floating or bool (a float or bool dtype is
    given, or none is and a float is among the data), where it is a float."""

def _natural_dtype(dt: np.dtype, from_python: bool) -> np.dtype: ...
def _unsupported_data(dt: np.dtype) -> TypeError: ...
def tensor(data, dtype=None, device=None, requires_grad: bool = False, name: str | None = None) -> Tensor:
    """Make a leaf tensor from Python scalars, nested lists, NumPy or CuPy arrays, or a Tensor.

    Python floats become float32 (the default dtype), ints int64, bools bool.
    The data is always copied."""

def format_tensor(t: Tensor) -> str: ...
def _float_formatter(arr: np.ndarray):
    """PyTorch's float style: scientific for wide ranges, ``1.`` for integral values, else 4 decimals, right-aligned."""

def _anomaly_record(t: Tensor) -> None:
    """Anomaly mode: remember the user's forward stack (minigrad's own frames left out) that made ``t``."""
