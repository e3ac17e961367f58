"""Tensor factories (zeros, ones, arange, rand, ...) and the random seed."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from . import _state, _upcalls
from . import backend as B
from .ops._entry import checked
from .ops.declare import op
from .tensor import Tensor, make_leaf, type_name

__all__ = [
    "zeros",
    "ones",
    "full",
    "empty",
    "arange",
    "linspace",
    "logspace",
    "eye",
    "rand",
    "randn",
    "randint",
    "randperm",
    "zeros_like",
    "ones_like",
    "full_like",
    "empty_like",
    "rand_like",
    "randn_like",
    "randint_like",
    "manual_seed",
    "Generator",
    "generator_for",
]

_seed = None
_generators: dict = {}


def manual_seed(seed: int) -> None:
    """Seed minigrad's random numbers on every device (rand, randn, randint, init, dropout)."""
    global _seed
    if isinstance(seed, float) and not math.isfinite(seed):
        raise ValueError(f"manual_seed(): the seed {seed} is not a finite number")
    _seed = _seed_value(int(seed))
    _generators.clear()


def _seed_value(seed: int) -> int:
    """``seed`` as the unsigned 64-bit value PyTorch keeps: a negative one wraps around (-1 is 2**64 - 1)."""
    if not -(2**63) <= seed < 2**64:
        raise ValueError(f"manual_seed(): the seed {seed} does not fit in 64 bits")
    return seed % 2**64


class Generator:
    """A source of random numbers of its own, as ``torch.Generator``: seeded with ``manual_seed``, it
    draws the same numbers every time, whatever else draws from minigrad's default one. Pass it as
    ``generator=`` to ``rand``, ``randn``, ``randint``, ``randperm``, ``multinomial``, the ``nn.init``
    fills, ``DataLoader`` and ``random_split``. (Its numbers are not PyTorch's: NumPy's PCG64 draws them.)
    """

    def __init__(self, device="cpu") -> None:
        self.device = B.device(device)
        self.seed()

    def manual_seed(self, seed: int) -> Generator:
        """Restart the stream from ``seed``; returns the generator, as PyTorch's."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"manual_seed expected an int, but got {type(seed).__name__}")
        self._initial_seed = _seed_value(int(seed))
        self._rng = self.device.xp.random.default_rng(self._initial_seed)
        return self

    def seed(self) -> int:
        """Restart the stream from a fresh non-deterministic seed, and return that seed."""
        self.manual_seed(int(np.random.SeedSequence().entropy) % 2**63)
        return self._initial_seed

    def initial_seed(self) -> int:
        """The seed the stream last started from."""
        return self._initial_seed

    def get_state(self) -> dict:
        """Where the stream is, to continue it later with ``set_state`` (NumPy's bit-generator state)."""
        return self._rng.bit_generator.state

    def set_state(self, state: dict) -> Generator:
        """Continue the stream from a state ``get_state`` returned."""
        self._rng.bit_generator.state = state
        return self

    def __repr__(self) -> str:
        return f"<minigrad.Generator on {self.device}>"


def generator_for(device: B.Device, generator: Generator | None = None):
    """The random generator draws for ``device`` come from: ``generator``'s when given (on that device,
    as PyTorch requires), else the device's default one (NumPy's or CuPy's), seeded by manual_seed."""
    if generator is not None:
        if not isinstance(generator, Generator):
            raise TypeError(f"argument 'generator' must be Generator, not {type(generator).__name__}")
        if generator.device.type != device.type:
            raise RuntimeError(
                f"Expected a '{device.type}' device type for generator but found '{generator.device.type}'"
            )
        return generator._rng
    gen = _generators.get(device)
    if gen is None:
        gen = _generators[device] = device.xp.random.default_rng(_seed)
    return gen


# ---------------------------------------------------------------- argument checks, in PyTorch's words
_INT64 = np.iinfo(np.int64)


class _Kind(NamedTuple):
    """What an argument takes: ``problem(value)`` says what is wrong with its type (None: nothing), in
    PyTorch's words; ``convert(value)`` gives the value the factory uses, refusing values out of range."""

    problem: Callable
    convert: Callable


def _is_int(value) -> bool:
    if isinstance(value, Tensor):  # a 0-d integer tensor stands for the int it holds, as in PyTorch
        return value.array.ndim == 0 and value.array.dtype.kind in "iu"
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_number(value) -> bool:
    if isinstance(value, Tensor):
        return value.array.ndim == 0
    return isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating))


def _python(value):
    """The Python number a 0-d tensor or a NumPy scalar holds."""
    if isinstance(value, Tensor):
        return value.item()
    return value.item() if isinstance(value, np.generic) else value


def _to_number(value):
    value = _python(value)
    if isinstance(value, int) and not -(2**63) <= value < 2**64:  # PyTorch's scalars hold int64 and uint64 values
        raise ValueError(f"{value}, which does not fit in 64 bits")
    return value


def _to_endpoint(value) -> float:
    if isinstance(value, Tensor) and value.array.ndim != 0:
        raise RuntimeError(
            f"linspace only supports 0-dimensional start and end tensors, but got a tensor with {value.array.ndim} "
            "dimension(s)."
        )
    return float(_to_number(value))


def _fits_int64(value) -> bool:
    return _INT64.min <= value <= _INT64.max


def _int_problem(value):
    return None if _is_int(value) else f"must be int, not {type_name(value)}"


def _to_int(value) -> int:
    value = int(_python(value))
    if not _fits_int64(value):
        raise ValueError(f"{value}, which does not fit in int64")
    return value


def _dims_problem(dims):
    """What is wrong with the sequence of sizes ``dims``: an element that is not an int, or past int64."""
    if not isinstance(dims, (tuple, list)):
        return f"must be tuple of ints, not {type_name(dims)}"
    for i, d in enumerate(dims):
        if not _is_int(d):
            return f"must be tuple of ints, but found element of type {type_name(d)} at pos {i}"
        if not _fits_int64(_python(d)):
            return f"must be tuple of ints, but the element at pos {i} ({d}) does not fit in int64"
    return None


def _to_dims(dims) -> tuple:
    out = tuple(int(_python(d)) for d in dims)
    for d in out:
        if d < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {d}: {list(out)}")
    return out


def _packed(size: tuple):
    """``zeros(2, 3)``, ``zeros((2, 3))`` and ``zeros([2, 3])`` alike: the sequence of sizes given."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return size[0]
    if len(size) == 1 and not _is_int(size[0]):
        return size[0]  # refused by _dims_problem as not a tuple of ints
    return size


def _dtype_problem(dtype):
    if dtype is None:
        return None
    try:
        B.to_dtype(dtype)
    except TypeError as exc:
        return f"must be a dtype: {exc}"
    return None


def _flag_problem(value):
    return None if value is None or isinstance(value, bool) else f"must be bool, not {type_name(value)}"


_INT = _Kind(_int_problem, _to_int)
_NUMBER = _Kind(lambda v: None if _is_number(v) else f"must be Number, not {type_name(v)}", _to_number)
_ENDPOINT = _Kind(  # linspace's start and end: a number, or a tensor (of one element, checked with the values)
    lambda v: None if _is_number(v) or isinstance(v, Tensor) else f"must be Number, not {type_name(v)}", _to_endpoint
)
_SIZE = _Kind(_dims_problem, _to_dims)  # a tuple or list of sizes
_SIZES = _Kind(lambda size: _dims_problem(_packed(size)), lambda size: _to_dims(_packed(size)))  # ``*size``
_TEMPLATE = _Kind(lambda v: None if isinstance(v, Tensor) else f"must be Tensor, not {type_name(v)}", lambda v: v)
_KEYWORDS = {
    "dtype": _Kind(_dtype_problem, lambda v: None if v is None else B.to_dtype(v)),
    "requires_grad": _Kind(_flag_problem, bool),
}


def _args(op: str, positional: list, first: int = 1, **keywords) -> list:
    """A factory's arguments checked as PyTorch's parser checks them, and converted.

    ``positional`` lists ``(name, kind, value)`` in position order from position ``first`` (the ones
    before it checked by the caller); ``keywords`` are the keyword-only
    arguments (``dtype``, ``requires_grad``). Every type is checked before any value, so the error is
    a TypeError naming the first argument of the wrong type (``eye(): argument 'n' (position 1) must be
    int, not float``) whatever the others hold; then the values are converted (0-d tensors and NumPy
    scalars to Python numbers, sizes to a tuple, dtypes to NumPy's), ints past int64 and negative
    sizes refused.
    """
    specs = [(name, kind, value, f" (position {i})") for i, (name, kind, value) in enumerate(positional, first)]
    specs += [(name, _KEYWORDS[name], value, "") for name, value in keywords.items()]
    for name, kind, value, where in specs:
        problem = kind.problem(value)
        if problem is not None:
            raise TypeError(f"{op}(): argument '{name}'{where} {problem}")
    out = []
    for name, kind, value, where in specs:
        try:
            out.append(kind.convert(value))
        except ValueError as exc:
            raise ValueError(f"{op}(): argument '{name}'{where} is {exc}") from None
    return out


def _fits(value, dt: np.dtype) -> None:
    """PyTorch's error for a value that the dtype ``dt`` cannot hold (an int past its range, a NaN as an int)."""
    if dt.kind == "b":
        return
    if dt.kind in "iu":
        info = np.iinfo(dt)
        ok = math.isfinite(value) and info.min <= value <= info.max
    else:
        ok = not math.isfinite(value) or abs(value) <= float(np.finfo(dt).max)
    if not ok:
        raise RuntimeError(f"value cannot be converted to type {dt} without overflow")


def _largest(dt: np.dtype):
    """The largest whole number the dtype ``dt`` holds."""
    if dt.kind == "b":
        return 1
    return int(np.iinfo(dt).max) if dt.kind in "iu" else float(np.finfo(dt).max)


def _finish(arr, dev, requires_grad: bool, name=None) -> Tensor:
    t = make_leaf(arr, dev, name=name)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _float_dtype(dt, op: str):
    dt = dt or B.get_default_dtype()
    if dt.kind != "f":
        raise RuntimeError(f"{op}(): expected a floating point dtype, got {dt} (use randint for integers)")
    return dt


# ---------------------------------------------------------------- the factories
def zeros(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of zeros."""
    shape, dt, grad = _args("zeros", [("size", _SIZES, size)], dtype=dtype, requires_grad=requires_grad)
    dev = B.device(device)
    return _finish(dev.xp.zeros(shape, dtype=dt or B.get_default_dtype()), dev, grad)


def ones(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of ones."""
    shape, dt, grad = _args("ones", [("size", _SIZES, size)], dtype=dtype, requires_grad=requires_grad)
    dev = B.device(device)
    return _finish(dev.xp.ones(shape, dtype=dt or B.get_default_dtype()), dev, grad)


def empty(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """An uninitialised tensor (zeros here, so results are reproducible)."""
    shape, dt, grad = _args("empty", [("size", _SIZES, size)], dtype=dtype, requires_grad=requires_grad)
    dev = B.device(device)
    return _finish(dev.xp.zeros(shape, dtype=dt or B.get_default_dtype()), dev, grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of shape ``size`` (a tuple or list) filled with ``fill_value`` (dtype inferred from it when not given)."""
    shape, fill_value, dt, grad = _args(
        "full", [("size", _SIZE, size), ("fill_value", _NUMBER, fill_value)], dtype=dtype, requires_grad=requires_grad
    )
    return _filled(shape, fill_value, dt or B.scalar_dtype(fill_value), device, grad)


def _filled(shape: tuple, fill_value, dt, device, requires_grad: bool) -> Tensor:
    _fits(fill_value, dt)
    fill_value = bool(fill_value) if dt.kind == "b" else float(fill_value) if dt.kind == "f" else fill_value
    dev = B.device(device)
    return _finish(dev.xp.full(shape, fill_value, dtype=dt), dev, requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Values from ``start`` (default 0) up to ``end`` (excluded) by ``step``."""
    given = [("end", _NUMBER, start)] if end is None else [("start", _NUMBER, start), ("end", _NUMBER, end)]
    *bounds, step, dt, grad = _args(
        "arange", [*given, ("step", _NUMBER, step)], dtype=dtype, requires_grad=requires_grad
    )
    start, end = bounds if len(bounds) == 2 else (0, bounds[0])
    all_int = all(isinstance(v, int) for v in (start, end, step))
    dt = dt or (B.int64 if all_int else B.get_default_dtype())
    if dt.kind in "biu" and not all(_fits_int64(v) for v in (start, end, step) if isinstance(v, int)):
        raise RuntimeError("value cannot be converted to type int64 without overflow")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    count, first, stride = _arange_count(start, end, step, dt)
    dev = B.device(device)
    return _finish((first + dev.xp.arange(count) * stride).astype(dt), dev, grad)


def _arange_count(start, end, step, dt) -> tuple:
    """``(count, first, stride)`` of ``arange`` as PyTorch reckons them: the step's sign checked against
    the bounds as given; int64 counts with the bounds and the step truncated to ints
    (``arange(0.5, dtype=int64)`` is empty), every other dtype with them as given (an infinite step
    gives no element, where NumPy gives one); an integer dtype steps from the truncated start by the
    truncated step."""
    if dt.kind in "biu" and not math.isfinite(step):
        raise RuntimeError("value cannot be converted to type int64 without overflow")
    truncated = (int(start), int(end), int(step)) if dt.kind in "biu" else None
    if not (step > 0 or step < 0) or (dt == B.int64 and truncated[2] == 0):
        raise RuntimeError("step must be nonzero")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError(
            f"upper bound and larger bound inconsistent with step sign (start={start}, end={end}, step={step})"
        )
    if dt == B.int64:
        low, high, by = truncated
        span = high - low + by - (1 if by > 0 else -1)
        count = max(0, span // by if span * by >= 0 else 0)  # C's truncating division of like-signed ints
    else:
        count = math.ceil((end - start) / step)
    if count > _INT64.max:
        raise RuntimeError(f"arange(): too many elements, possible overflow (start={start}, end={end}, step={step})")
    first, _, stride = truncated if dt.kind in "biu" else (float(start), end, float(step))
    return count, first, stride


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    start, end, steps, dt, grad = _args(
        "linspace",
        [("start", _ENDPOINT, start), ("end", _ENDPOINT, end), ("steps", _INT, steps)],
        dtype=dtype,
        requires_grad=requires_grad,
    )
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dt = dt or B.get_default_dtype()
    if steps:  # PyTorch converts the ends it uses (one step is the start alone)
        _fits(start, dt)
    if steps > 1:
        _fits(end, dt)
    if steps and dt.kind in "iu":  # PyTorch spaces the ends as ints of the dtype
        start, end = int(start), int(end)
    dev = B.device(device)
    return _finish(_spaced(dev.xp, start, end, steps).astype(dt), dev, grad)


def logspace(start, end, steps, base=10.0, dtype=None, device=None, requires_grad=False) -> Tensor:
    """``steps`` values from ``base ** start`` to ``base ** end``, evenly spaced in exponent."""
    exponents = linspace(start, end, steps, dtype=B.float64, device=device)
    dt = B.to_dtype(dtype) if dtype is not None else B.get_default_dtype()
    dev = B.device(device)
    return _finish((base**exponents.array).astype(dt), dev, requires_grad)


def _spaced(xp, start: float, end: float, steps: int):
    """PyTorch's linspace values: the first half stepped up from ``start``, the second down from ``end`` (so
    both ends are exact; infinite or NaN ends give PyTorch's NaNs and infinities, not NumPy's)."""
    if steps == 1:
        return xp.full(1, start)
    step = (end - start) / (steps - 1) if steps > 1 else 0.0
    i = xp.arange(steps, dtype=xp.float64)
    with B.quiet(xp):
        return xp.where(i < steps // 2, start + step * i, end - step * (steps - 1 - i))


def eye(n, m=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """The identity matrix (n x m)."""
    given = [("n", _INT, n)] if m is None else [("n", _INT, n), ("m", _INT, m)]
    *sizes, dt, grad = _args("eye", given, dtype=dtype, requires_grad=requires_grad)
    for name, v in zip(("n", "m"), sizes):
        if v < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {v}")
    dev = B.device(device)
    return _finish(dev.xp.eye(sizes[0], sizes[-1], dtype=dt or B.get_default_dtype()), dev, grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Uniform random values in [0, 1)."""
    return _drawn("rand", "random", size, generator, dtype, device, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Standard normal random values."""
    return _drawn("randn", "standard_normal", size, generator, dtype, device, requires_grad)


def _drawn(op: str, draw: str, size: tuple, generator, dtype, device, requires_grad) -> Tensor:
    """Floats from the generator's method ``draw``, for ``op`` (``rand``, ``randn`` and their ``_like`` forms)."""
    shape, dt, grad = _args(op, [("size", _SIZES, size)], dtype=dtype, requires_grad=requires_grad)
    dev = B.device(device)
    dt = _float_dtype(dt, op)
    return _finish(getattr(generator_for(dev, generator), draw)(shape).astype(dt), dev, grad)


def randperm(n: int, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A random permutation of ``0 .. n - 1`` (int64 by default)."""
    n, dt, grad = _args("randperm", [("n", _INT, n)], dtype=dtype, requires_grad=requires_grad)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dt = dt or B.int64
    limit = 2049 if dt == B.float16 else _largest(dt) + 1  # float16 holds every whole number up to 2048 only
    if n > limit:
        raise RuntimeError(f"n cannot be greater than {limit} for {dt}")
    dev = B.device(device)
    return _finish(generator_for(dev, generator).permutation(n).astype(dt), dev, grad)


def randint(low, high=None, size=None, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Random integers in [low, high) of shape ``size`` (a tuple or list); ``randint(high, size)`` also works."""
    if size is None:
        if high is None:
            raise TypeError("randint(): missing the argument 'size' (a tuple of ints)")
        given = [("high", _INT, low), ("size", _SIZE, high)]
    else:
        given = [("low", _INT, low), ("high", _INT, high), ("size", _SIZE, size)]
    return _random_ints("randint", given, 1, generator, dtype, device, requires_grad)


def _random_ints(op: str, given: list, first: int, generator, dtype, device, requires_grad) -> Tensor:
    """Integers in [low, high) for ``op``: ``given`` is ``[low,] high, size`` as ``_args`` takes them."""
    *bounds, size, dt, grad = _args(op, given, first, dtype=dtype, requires_grad=requires_grad)
    low, high = bounds if len(bounds) == 2 else (0, bounds[0])
    if high <= low:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    dt = dt or B.int64
    smallest = 0 if dt.kind == "b" else -_largest(dt) - (dt.kind in "iu")
    for what, v in (("from", low), ("to - 1", high - 1)):
        if not smallest <= v <= _largest(dt):
            raise RuntimeError(f"{what} is out of bounds for {dt}")
    dev = B.device(device)
    return _finish(generator_for(dev, generator).integers(low, high, size=size).astype(dt), dev, grad)


def zeros_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Zeros in ``input``'s shape, dtype and device (unless given)."""
    t, dt, grad = _args("zeros_like", [("input", _TEMPLATE, input)], dtype=dtype, requires_grad=requires_grad)
    return zeros(t.shape, dtype=dt or t.dtype, device=device or t.device, requires_grad=grad)


def ones_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Ones in ``input``'s shape, dtype and device (unless given)."""
    t, dt, grad = _args("ones_like", [("input", _TEMPLATE, input)], dtype=dtype, requires_grad=requires_grad)
    return ones(t.shape, dtype=dt or t.dtype, device=device or t.device, requires_grad=grad)


def empty_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    """An uninitialised tensor (zeros) in ``input``'s shape, dtype and device (unless given)."""
    t, dt, grad = _args("empty_like", [("input", _TEMPLATE, input)], dtype=dtype, requires_grad=requires_grad)
    return empty(t.shape, dtype=dt or t.dtype, device=device or t.device, requires_grad=grad)


def full_like(input: Tensor, fill_value, dtype=None, device=None, requires_grad=False) -> Tensor:
    """``fill_value`` in ``input``'s shape, dtype and device (unless given)."""
    t, fill_value, dt, grad = _args(
        "full_like",
        [("input", _TEMPLATE, input), ("fill_value", _NUMBER, fill_value)],
        dtype=dtype,
        requires_grad=requires_grad,
    )
    return _filled(t.shape, fill_value, dt or t.dtype, device or t.device, grad)


def _random_like(call):
    """``rand_like``/``randn_like``/``randint_like`` inside ``vmap``: a factory call with one entry's shape, under
    the running ``vmap``'s ``randomness`` (``_upcalls.vmap_random_factory``)."""
    t = call.args[0]
    dtype, device = call.get("dtype") or t.dtype, call.get("device") or t.device
    if call.fn is randint_like.__wrapped__:
        low, high = call.get("low"), call.get("high")
        factory_args = (low, high, tuple(t.shape))
        return _upcalls.vmap_random_factory(randint.__wrapped__, factory_args, {"dtype": dtype, "device": device})
    factory = rand if call.fn is rand_like.__wrapped__ else randn
    options = {"dtype": dtype, "device": device, "requires_grad": call.get("requires_grad")}
    return _upcalls.vmap_random_factory(factory.__wrapped__, (tuple(t.shape),), options)


@op(batch=_random_like)
def rand_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Uniform random values in [0, 1) in ``input``'s shape, dtype and device (unless given)."""
    return _drawn(
        "rand_like", "random", (input.shape,), None, dtype or input.dtype, device or input.device, requires_grad
    )


@op(batch=_random_like)
def randn_like(input: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Standard normal random values in ``input``'s shape, dtype and device (unless given)."""
    return _drawn(
        "randn_like",
        "standard_normal",
        (input.shape,),
        None,
        dtype or input.dtype,
        device or input.device,
        requires_grad,
    )


@op(batch=_random_like)
def randint_like(input: Tensor, low, high=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Random integers in [low, high) in ``input``'s shape, dtype and device (unless given);
    ``randint_like(input, high)`` also works."""
    given = [("high", _INT, low)] if high is None else [("low", _INT, low), ("high", _INT, high)]
    return _random_ints(
        "randint_like",
        [*given, ("size", _SIZE, input.shape)],
        2,  # after the input
        None,
        dtype or input.dtype,
        device or input.device,
        requires_grad,
    )


def _vmapped_factory(fn):
    """``fn``, a factory with no tensor argument, which inside ``vmap`` follows its ``randomness``."""
    vmap_levels = _state.vmap

    def factory(*args, **kwargs):
        if vmap_levels.levels:
            return _upcalls.vmap_random_factory(fn, args, kwargs)
        return fn(*args, **kwargs)

    return functools.wraps(fn)(factory)


# Inside vmap a random tensor follows vmap's ``randomness`` (minigrad.batching): the ops' entry dispatches one
# made from a tensor; the others check for a running vmap themselves (the ``*_like`` forms draw through the
# unchecked functions, so a batching rule's own draw is not checked again).
rand_like, randn_like, randint_like = (checked(f) for f in (rand_like, randn_like, randint_like))
rand, randn, randint = (_vmapped_factory(f) for f in (rand, randn, randint))
