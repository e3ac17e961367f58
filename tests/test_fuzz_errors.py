"""Creation calls with random arguments, good and bad, against PyTorch (issue 26).

Each case is one factory called with arguments drawn from a pool of values (numbers, past-int64
ints, NaN, bools, None, strings, lists, 0-d and 1-d tensors, NumPy scalars). Where PyTorch raises,
minigrad raises an error of the same kind: TypeError for an argument of the wrong type, and
RuntimeError or ValueError for a value out of range (PyTorch itself uses RuntimeError, ValueError
and OverflowError there) -- never an error from inside (NumPy's AxisError, AttributeError,
IndexError, OverflowError). Where PyTorch gives a tensor, minigrad gives one of the same shape and
dtype, with the same values for the factories that are not random. PyTorch's NotImplementedError
(a dtype it has no kernel for) accepts anything, its OverflowError any error.

Without PyTorch only the first half holds: every error is a TypeError, ValueError or RuntimeError.
To grow the fuzz, add a call to ``CALLS``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg


class T:
    """A tensor argument, made in whichever library runs the call."""

    def __init__(self, value, dtype: str):
        self.value, self.dtype = value, dtype

    def make(self, lib):
        return lib.tensor(self.value, dtype=getattr(lib, self.dtype))

    def __repr__(self) -> str:
        return f"T({self.value!r}, {self.dtype})"


class D:
    """A dtype argument, by name."""

    def __init__(self, name: str):
        self.name = name

    def make(self, lib):
        return getattr(lib, self.name)

    def __repr__(self) -> str:
        return f"D({self.name})"


_HUGE = [2**63, 2**64, -(2**63) - 1]
_INTS = [-1, 0, 1, 2, 3]
_DIMS = [0, 1, 2, 3, -1, 2.5, None, "a", True, np.int64(2), T(2, "int64"), T(2.0, "float32"), *_HUGE]
_NUMBERS = [
    *_INTS,
    0.5,
    2.5,
    -1.5,
    math.nan,
    math.inf,
    True,
    False,
    np.int64(4),
    np.float64(1.5),
    T(3, "int64"),
    T(2.5, "float32"),
    T([1.0, 2.0], "float32"),
    None,
    "a",
    [2],
    *_HUGE,
]
_SIZES = [(2,), (2, 3), [3], (), [2, 2.5], (2, -1), (True,), 2, None, "a", (2**63,), [T(2, "int64")]]
_DTYPES = [None, D("float32"), D("float64"), D("float16"), D("int64"), D("int32"), D("bool"), 3]
_FLAGS = [False, True, 1, 0, None, "a", np.True_]
# tensor()'s data (None and ragged lists are left out: PyTorch's errors for them are ValueError, TypeError
# or RuntimeError by the shape of the data; minigrad's is one TypeError)
_DATA = [[1, 2**63], [2**64, 1.5], [[1], [2]], [True, 2], [1.5, -(2**63) - 1], [[2**63]], []]
_TEMPLATES = [T([1.0, 2.0], "float32"), T([[1, 2]], "int64"), T(1.5, "float64"), 3, [1.0], None]

# (name, a pool per positional argument, how many of them at least, keyword pools)
CALLS = [
    ("zeros", [_DIMS, _DIMS, _DIMS], 1, {"dtype": _DTYPES, "requires_grad": _FLAGS}),
    ("ones", [_SIZES], 1, {"dtype": _DTYPES, "requires_grad": _FLAGS}),
    ("empty", [_DIMS, _DIMS], 1, {"dtype": _DTYPES}),
    ("rand", [_DIMS, _DIMS], 1, {"dtype": [None, D("float64"), D("float16")], "requires_grad": _FLAGS}),
    ("randn", [_SIZES], 1, {"requires_grad": _FLAGS}),
    ("full", [_SIZES, _NUMBERS], 2, {"dtype": _DTYPES, "requires_grad": _FLAGS}),
    ("arange", [_NUMBERS, [n for n in _NUMBERS if n is not None], _NUMBERS], 1, {"dtype": _DTYPES}),
    ("linspace", [_NUMBERS, _NUMBERS, _DIMS], 3, {"dtype": _DTYPES, "requires_grad": _FLAGS}),
    ("eye", [_DIMS, [d for d in _DIMS if d is not None]], 1, {"dtype": _DTYPES, "requires_grad": _FLAGS}),
    ("randint", [_NUMBERS, _NUMBERS + _SIZES, [s for s in _SIZES if s is not None]], 2, {"dtype": _DTYPES}),
    ("randperm", [_DIMS], 1, {"dtype": [None, D("int32"), D("float32"), D("float16")]}),
    ("manual_seed", [_NUMBERS], 1, {}),
    ("tensor", [[v for v in _NUMBERS if v is not None] + _DATA], 1, {"dtype": _DTYPES, "requires_grad": _FLAGS}),
    ("zeros_like", [_TEMPLATES], 1, {"dtype": _DTYPES, "requires_grad": _FLAGS}),
    ("ones_like", [_TEMPLATES], 1, {"dtype": _DTYPES}),
    ("empty_like", [_TEMPLATES], 1, {"requires_grad": _FLAGS}),
    ("full_like", [_TEMPLATES, _NUMBERS], 2, {"dtype": _DTYPES, "requires_grad": _FLAGS}),
    ("rand_like", [_TEMPLATES], 1, {"dtype": [None, D("float64")]}),
    ("randn_like", [_TEMPLATES], 1, {}),
    ("randint_like", [_TEMPLATES[:3], _INTS + [2.5, None, "a", *_HUGE]], 2, {"dtype": _DTYPES}),
]
_RANDOM = {"empty", "rand", "randn", "randint", "randperm", "empty_like", "rand_like", "randn_like", "randint_like"}


def _quirk(name: str, args: tuple, kwargs: dict) -> bool:
    """Calls where minigrad refuses on purpose what PyTorch accepts.

    PyTorch reads a bool as a dim after the first one (``zeros(2, True)`` is ``zeros(2, 1)``, while
    ``zeros(True)`` and ``zeros((True,))`` are refused); minigrad refuses a bool dim everywhere.
    PyTorch fills float16 with inf for an int in [2**63, 2**64) (it refuses 100000); minigrad refuses both.
    """
    if name in ("zeros", "empty", "rand") and any(a is True for a in args[1:]):
        return True
    float16 = isinstance(kwargs.get("dtype"), D) and kwargs["dtype"].name == "float16"
    return name in ("full", "full_like") and float16 and any(isinstance(a, int) and a >= 2**63 for a in args)


@st.composite
def _calls(draw, spec):
    name, pools, least, keyword_pools = spec
    count = draw(st.integers(least, len(pools)))
    args = tuple(draw(st.sampled_from(pools[i])) for i in range(count))
    kwargs = {}
    for key, pool in keyword_pools.items():
        if draw(st.booleans()):
            kwargs[key] = draw(st.sampled_from(pool))
    return name, args, kwargs


def _made(value, lib):
    return value.make(lib) if isinstance(value, (T, D)) else value


def _call(lib, name, args, kwargs):
    args = tuple(type(a)(_made(v, lib) for v in a) if isinstance(a, (tuple, list)) else _made(a, lib) for a in args)
    kwargs = {k: _made(v, lib) for k, v in kwargs.items()}
    return getattr(lib, name)(*args, **kwargs)


def _outcome(lib, name, args, kwargs):
    try:
        return _call(lib, name, args, kwargs), None
    except Exception as exc:  # the fuzz compares whatever was raised
        return None, exc


def _kind(exc) -> str:
    """``type``, ``value``, ``no kernel`` (PyTorch has none for the dtype) or ``either``: PyTorch's OverflowError
    for an int past 64 bits comes from its parser at a point that depends on the other arguments' types."""
    if isinstance(exc, NotImplementedError):
        return "no kernel"
    if isinstance(exc, OverflowError):
        return "either"
    return "type" if isinstance(exc, TypeError) else "value"


def _check_ours(call, exc) -> None:
    assert type(exc) in (TypeError, ValueError, RuntimeError), f"{call}: {type(exc).__name__}: {exc}"


def _values(t) -> np.ndarray:
    return np.asarray(t.detach().numpy() if hasattr(t, "detach") else t.numpy(), dtype=np.float64)


def _compare(name, args, kwargs) -> None:
    call = f"{name}{args} {kwargs}"
    ours, our_error = _outcome(mg, name, args, kwargs)
    if our_error is not None:
        _check_ours(call, our_error)
    try:
        import torch
    except ImportError:
        return
    if _quirk(name, args, kwargs):
        return
    theirs, their_error = _outcome(torch, name, args, kwargs)
    if their_error is not None:
        kind = _kind(their_error)
        if kind == "no kernel":
            return
        assert our_error is not None, f"{call}: torch raised {their_error!r}, minigrad gave {ours!r}"
        assert kind == "either" or _kind(our_error) == kind, (
            f"{call}: torch raised {their_error!r}, minigrad {our_error!r}"
        )
        return
    assert our_error is None, f"{call}: torch gave {theirs!r}, minigrad raised {our_error!r}"
    if name == "manual_seed":  # no tensor to compare
        return
    assert tuple(ours.shape) == tuple(theirs.shape), call
    assert str(ours.dtype).removeprefix("minigrad.") == str(theirs.dtype).removeprefix("torch."), call
    assert ours.requires_grad == theirs.requires_grad, call
    if name not in _RANDOM:
        np.testing.assert_allclose(_values(ours), _values(theirs), rtol=1e-6, atol=1e-6, err_msg=call)


@pytest.mark.filterwarnings("ignore:To copy construct from a tensor")  # torch.tensor(a tensor)
@pytest.mark.parametrize("spec", CALLS, ids=[c[0] for c in CALLS])
def test_factory_arguments_fuzzed_against_torch(spec):
    @settings(max_examples=120, deadline=None, derandomize=True)
    @given(_calls(spec))
    def run(drawn):
        _compare(*drawn)

    run()
