"""PyTorch's in-place variants of the ops minigrad has (``x.exp_()``, ``x.clamp_min_(0)``,
``x.index_add_(0, i, s)``), each derived from its out-of-place op, plus the random fills
(``uniform_``, ``normal_``, ``bernoulli_``, ``exponential_``, ``random_``) and ``apply_``.

PyTorch defines each of these as "compute the out-of-place result, write it into the tensor": so
one method per name is made here from the op's name, and it goes through ``apply_inplace``, which
bumps the version counter and, under grad mode, records the write as the op's node ``exp_`` (see
``ops/inplace.py``). Tensor operands (the ``source`` of ``index_add_``, the ``other`` of
``hypot_``) are passed to it as operands, so a write with an operand that requires grad is
recorded too. The view ops' in-place forms (``unsqueeze_``, ``t_``, ``transpose_``) change the
tensor's shape, not its values: the tensor takes the view's array (the same memory) and, when
recorded, the view's node.
"""

from __future__ import annotations

import builtins
import warnings

import numpy as np

from .. import _state
from ..creation import generator_for
from ..tensor import Tensor, make, mark_written, take_node
from . import declare
from .declare import LOOP, bind_methods
from .inplace import apply_inplace

__all__ = ["INPLACE_VARIANTS", "RESHAPING_VARIANTS", "inplace_variant", "reshaping_variant"]

#: torch.Tensor's in-place methods whose meaning is "the op of the same name, written into self".
INPLACE_VARIANTS = (
    "abs",
    "absolute",
    "acos",
    "acosh",
    "addbmm",
    "addcdiv",
    "addcmul",
    "addmm",
    "addmv",
    "arccos",
    "arccosh",
    "arcsin",
    "arcsinh",
    "arctan",
    "arctan2",
    "arctanh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "baddbmm",
    "bitwise_not",
    "ceil",
    "clamp_max",
    "clamp_min",
    "clip",
    "cos",
    "cosh",
    "cumprod",
    "cumsum",
    "digamma",
    "divide",
    "eq",
    "erf",
    "erfc",
    "erfinv",
    "exp",
    "exp2",
    "expm1",
    "fix",
    "floor",
    "floor_divide",
    "fmax",
    "fmin",
    "frac",
    "ge",
    "greater",
    "greater_equal",
    "gt",
    "heaviside",
    "hypot",
    "index_add",
    "index_copy",
    "index_fill",
    "index_put",
    "le",
    "lerp",
    "less",
    "less_equal",
    "lgamma",
    "log",
    "log10",
    "log1p",
    "log2",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "logit",
    "lt",
    "masked_scatter",
    "multiply",
    "nan_to_num",
    "ne",
    "neg",
    "negative",
    "not_equal",
    "polygamma",
    "reciprocal",
    "relu",
    "renorm",
    "round",
    "rsqrt",
    "scatter",
    "scatter_add",
    "sgn",
    "sigmoid",
    "sign",
    "sin",
    "sinc",
    "sinh",
    "sqrt",
    "square",
    "subtract",
    "tan",
    "tanh",
    "tril",
    "triu",
    "true_divide",
    "trunc",
    "xlogy",
)


def inplace_variant(name: str):
    """The method ``<name>_``: ``<name>`` of the tensor and the same arguments, written into the tensor."""
    op = getattr(Tensor, name)

    def method(self, *args, **kwargs):
        keys = tuple(kwargs)
        n = len(args)

        def out_of_place(t, *operands):
            return op(t, *operands[:n], **dict(zip(keys, operands[n:])))

        return apply_inplace(self, name + "_", out_of_place, *args, *kwargs.values())

    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In-place ``{name}``: writes its result into this tensor (recorded under grad mode)."
    return method


#: torch's in-place view ops: the tensor becomes the view of itself (its shape and strides change).
RESHAPING_VARIANTS = ("unsqueeze", "squeeze", "t", "transpose", "swapaxes", "swapdims")


def reshaping_variant(name: str):
    """The method ``<name>_``: this tensor becomes ``<name>`` of itself, as in PyTorch a view in place
    (the version counts one write; under grad mode a tensor in the graph takes the view's node)."""
    op = getattr(Tensor, name)

    def method(self, *args, **kwargs):
        view = op(self.detach(), *args, **kwargs).array  # this tensor's own memory, seen the new way
        if _state.grad.enabled and self.requires_grad:
            if not self.parents:
                raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
            old = self._split_off()
            take_node(self, op(old, *args, **kwargs), old, name + "_")
        self.array = view
        mark_written(self)
        return self

    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In-place ``{name}``: this tensor becomes that view of itself."
    return method


# ---------------------------------------------------------------- random fills
def _drawn_rule(g):
    return (g * 0,)


def _drawn_tangent(t):
    return t * 0


def _fill_with(t: Tensor, values, name: str) -> Tensor:
    """``t`` filled with ``values`` drawn for it: the values do not depend on ``t`` (a zero rule)."""

    def filled(s):
        return make(values.astype(s.array.dtype, copy=False), (s,), _drawn_rule, name, _drawn_tangent)

    return apply_inplace(t, name + "_", filled)


def _floating(t: Tensor, name: str) -> None:
    if t.array.dtype.kind != "f":
        raise NotImplementedError(f"\"{name}_kernel_cpu\" not implemented for '{t.array.dtype.name.capitalize()}'")


@declare.op(batch=LOOP, methods="uniform_")
def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator=None, **kwargs) -> Tensor:
    """Fill with values drawn uniformly from ``[from, to)`` (torch's keyword ``from`` is accepted)."""
    from_ = kwargs.pop("from", from_)
    if kwargs:
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    _floating(self, "uniform")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_} > to={to}")
    values = generator_for(self.device, generator).random(self.array.shape) * (to - from_) + from_
    return _fill_with(self, values, "uniform")


@declare.op(batch=LOOP, methods="normal_")
def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator=None) -> Tensor:
    """Fill with values drawn from N(mean, std**2)."""
    _floating(self, "normal")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    values = generator_for(self.device, generator).standard_normal(self.array.shape) * std + mean
    return _fill_with(self, values, "normal")


@declare.op(batch=LOOP, methods="bernoulli_")
def bernoulli_(self: Tensor, p: float = 0.5, *, generator=None) -> Tensor:
    """Fill with 1 (probability ``p``) or 0."""
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    values = generator_for(self.device, generator).random(self.array.shape) < p
    return _fill_with(self, values, "bernoulli")


@declare.op(batch=LOOP, methods="exponential_")
def exponential_(self: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    """Fill with values drawn from the exponential distribution of rate ``lambd``."""
    _floating(self, "exponential")
    if lambd <= 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    values = generator_for(self.device, generator).standard_exponential(self.array.shape) / lambd
    return _fill_with(self, values, "exponential")


#: C++'s names of the dtypes, as torch's ``random_`` bound errors write them.
_C_TYPE_NAMES = {
    "bool": "bool",
    "uint8": "unsigned char",
    "int8": "signed char",
    "int16": "short int",
    "int32": "int",
    "int64": "long int",
    "float16": "c10::Half",
    "float32": "float",
    "float64": "double",
}

_RANDOM_SIGNATURES = (
    " * (*, torch.Generator generator = None)\n"
    " * (int from, int to, *, torch.Generator generator = None)\n"
    " * (int to, *, torch.Generator generator = None)\n"
)


def _random_range(dtype: np.dtype) -> tuple[int, int]:
    """The integers ``random_`` can write into ``dtype`` exactly: a float's mantissa, an integer's range."""
    if dtype.kind == "f":
        limit = 2 ** (np.finfo(dtype).nmant + 1)
        return -limit, limit
    if dtype.kind == "b":
        return 0, 1
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def _check_random_bound(value: int, what: str, dtype: np.dtype) -> None:
    low, high = _random_range(dtype)
    if low <= value <= high:
        return
    name = _C_TYPE_NAMES[dtype.name]
    if dtype.kind == "f" and dtype.itemsize > 2:
        digits = np.finfo(dtype).nmant + 1
        warnings.warn(
            f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations {name} can "
            "support discrete uniform distribution only within this range. This warning will become an error "
            "in version 1.7 release, please fix the code in advance",
            UserWarning,
            stacklevel=3,
        )
        return
    raise RuntimeError(f"{what} is out of bounds for {name}")


@declare.op(batch=LOOP, methods="random_")
def random_(self: Tensor, from_: int = 0, to: int | None = None, *, generator=None, **kwargs) -> Tensor:
    """Fill with integers drawn uniformly from ``[from, to - 1]``, as ``torch.Tensor.random_``.

    ``x.random_(to)`` draws from ``[0, to - 1]``; ``x.random_()`` from every integer the dtype holds
    exactly (``[0, 2**24]`` for float32, ``[0, 2**53]`` for float64, ``[0, max]`` for an integer dtype).
    torch's keyword ``from`` is accepted. One difference: ``random_(n, None)`` reads as ``random_(n)``.
    """
    from_ = kwargs.pop("from", from_)
    if kwargs:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for bound in (from_, to):
        if bound is not None and (not isinstance(bound, (int, np.integer)) or isinstance(bound, bool)):
            raise TypeError(
                f"random_() received an invalid combination of arguments - got ({type(bound).__name__}), but "
                f"expected one of:\n{_RANDOM_SIGNATURES}"
            )
    dtype = self.array.dtype
    if to is None and from_ != 0:
        from_, to = 0, from_
    if to is None:
        high = _random_range(dtype)[1]
        if from_ > high:
            raise RuntimeError(
                "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but "
                f"got from={from_} > to_inc={high}"
            )
    else:
        if from_ >= to:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}")
        _check_random_bound(from_, "from", dtype)
        _check_random_bound(to - 1, "to - 1", dtype)
        high = to - 1
    values = generator_for(self.device, generator).integers(int(from_), int(high), self.array.shape, endpoint=True)
    return _fill_with(self, values, "random")


@declare.op(batch=LOOP, methods="apply_")
def apply_(self: Tensor, callable) -> Tensor:  # noqa: A002  (torch's argument name)
    """Replace each element ``v`` with ``callable(v)`` (a Python number), as ``torch.Tensor.apply_``: on
    CPU only, outside the graph (a tensor that requires grad is refused), slow (one Python call per
    element). The write counts as one more version."""
    if self.device.type != "cpu":
        raise TypeError("apply_ is only implemented on CPU tensors")
    if self.requires_grad:
        raise RuntimeError("Can't call apply_() on Variable that requires grad. Use var.detach().apply_() instead.")
    if not builtins.callable(callable):
        raise TypeError(f"'{type(callable).__name__}' object is not callable")
    arr = self.array
    values = []
    for v in arr.reshape(-1).tolist():
        out = callable(v)
        if isinstance(out, (str, bytes)) or out is None or not isinstance(out, (int, float, bool, np.number)):
            raise TypeError(f"must be real number, not {type(out).__name__}")
        values.append(out)
    with np.errstate(invalid="ignore", over="ignore"):
        arr[...] = np.array(values).reshape(arr.shape)  # a float into an integer tensor truncates, as torch
    mark_written(self)
    return self


def _bind() -> None:
    """Make and declare the variants, and give Tensor every op of this module: run by ``minigrad.ops`` once
    the methods the variants call are the checked ones."""
    for name in INPLACE_VARIANTS:
        if hasattr(Tensor, name) and not hasattr(Tensor, name + "_"):
            declare.op(batch=LOOP, methods=name + "_")(inplace_variant(name))
    for name in RESHAPING_VARIANTS:
        declare.op(batch=LOOP, methods=name + "_")(reshaping_variant(name))
    bind_methods(Tensor, __name__)
