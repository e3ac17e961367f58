"""Tensor factories (zeros, ones, arange, rand, ...) and the random seed."""

from __future__ import annotations

import functools

import numpy as np

from . import _state
from . import backend as B
from .ops._entry import checked
from .tensor import Tensor, make_leaf

__all__ = [
    "zeros",
    "ones",
    "full",
    "empty",
    "arange",
    "linspace",
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
    _seed = int(seed)
    _generators.clear()


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
        self._initial_seed = int(seed)
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


def _size(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(f"size must be a tuple of ints, but got an element of type {type(s).__name__}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    return tuple(int(s) for s in size)


def _finish(arr, dev, requires_grad, name=None) -> Tensor:
    t = make_leaf(arr, dev, name=name)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _dtype(dtype, default=None):
    return B.to_dtype(dtype) if dtype is not None else (default or B.get_default_dtype())


def _float_dtype(dtype, op: str):
    dt = _dtype(dtype)
    if dt.kind != "f":
        raise RuntimeError(f"{op}(): expected a floating point dtype, got {dt} (use randint for integers)")
    return dt


def zeros(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of zeros."""
    dev = B.device(device)
    return _finish(dev.xp.zeros(_size(size), dtype=_dtype(dtype)), dev, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor of ones."""
    dev = B.device(device)
    return _finish(dev.xp.ones(_size(size), dtype=_dtype(dtype)), dev, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """An uninitialised tensor (zeros here, so results are reproducible)."""
    return zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor filled with ``fill_value`` (dtype inferred from it when not given)."""
    if not isinstance(fill_value, (int, float, np.number, np.bool_)):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not {type(fill_value).__name__}")
    dev = B.device(device)
    dt = _dtype(dtype, B.scalar_dtype(fill_value))
    return _finish(
        dev.xp.full(_size((size,) if isinstance(size, int) else tuple(size)), fill_value, dtype=dt), dev, requires_grad
    )


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Values from ``start`` (default 0) up to ``end`` (excluded) by ``step``."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) / step < 0:
        raise RuntimeError(
            f"upper bound and larger bound inconsistent with step sign (start={start}, end={end}, step={step})"
        )
    dev = B.device(device)
    all_int = all(isinstance(v, int) for v in (start, end, step))
    dt = _dtype(dtype, B.int64 if all_int else None)
    return _finish(dev.xp.arange(start, end, step).astype(dt), dev, requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dev = B.device(device)
    return _finish(dev.xp.linspace(start, end, steps).astype(_dtype(dtype)), dev, requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """The identity matrix (n x m)."""
    dev = B.device(device)
    return _finish(dev.xp.eye(n, m, dtype=_dtype(dtype)), dev, requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Uniform random values in [0, 1)."""
    dev = B.device(device)
    dt = _float_dtype(dtype, "rand")
    return _finish(generator_for(dev, generator).random(_size(size)).astype(dt), dev, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Standard normal random values."""
    dev = B.device(device)
    dt = _float_dtype(dtype, "randn")
    return _finish(generator_for(dev, generator).standard_normal(_size(size)).astype(dt), dev, requires_grad)


def randperm(n: int, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A random permutation of ``0 .. n - 1`` (int64 by default)."""
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dev = B.device(device)
    return _finish(generator_for(dev, generator).permutation(n).astype(_dtype(dtype, B.int64)), dev, requires_grad)


def randint(low, high=None, size=(), generator=None, dtype=None, device=None) -> Tensor:
    """Random integers in [low, high) (``randint(high, size)`` also works)."""
    if high is None or isinstance(high, tuple):
        if isinstance(high, tuple):
            size = high
        low, high = 0, low
    if high <= low:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    dev = B.device(device)
    dt = _dtype(dtype, B.int64)
    return _finish(
        generator_for(dev, generator)
        .integers(low, high, size=_size((size,) if isinstance(size, int) else tuple(size)))
        .astype(dt),
        dev,
        False,
    )


def zeros_like(t: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    return zeros(t.shape, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)


def ones_like(t: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    return ones(t.shape, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)


def empty_like(t: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    return empty(t.shape, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)


def full_like(t: Tensor, fill_value, dtype=None, device=None, requires_grad=False) -> Tensor:
    return full(t.shape, fill_value, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)


def rand_like(t: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    return rand.__wrapped__(t.shape, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)


def randn_like(t: Tensor, dtype=None, device=None, requires_grad=False) -> Tensor:
    return randn.__wrapped__(t.shape, dtype=dtype or t.dtype, device=device or t.device, requires_grad=requires_grad)


def randint_like(t: Tensor, low, high=None, dtype=None, device=None) -> Tensor:
    return randint.__wrapped__(low, high, t.shape, dtype=dtype or t.dtype, device=device or t.device)


def _vmapped_factory(fn):
    """``fn``, a factory with no tensor argument, which inside ``vmap`` follows its ``randomness``."""
    vmap_levels = _state.vmap

    def factory(*args, **kwargs):
        if vmap_levels.levels:
            from .batching.rules import random_factory

            return random_factory(fn, args, kwargs)
        return fn(*args, **kwargs)

    return functools.wraps(fn)(factory)


# Inside vmap a random tensor follows vmap's ``randomness`` (minigrad.batching): the ops' entry dispatches one
# made from a tensor; the others check for a running vmap themselves (the ``*_like`` forms draw through the
# unchecked functions, so a batching rule's own draw is not checked again).
rand_like, randn_like, randint_like = (checked(f) for f in (rand_like, randn_like, randint_like))
rand, randn, randint = (_vmapped_factory(f) for f in (rand, randn, randint))
