"""A fake CUDA device on the CPU whose array module catches every host fallback.

``install()`` registers ``Device("cuda", 0)`` with a *strict* array module: a
module-like proxy of NumPy whose arrays are :class:`StrictArray` wrappers, not
``np.ndarray``. They behave like CuPy arrays where it matters for minigrad:

- ``xp.<fn>(...)`` works (arguments are unwrapped, NumPy computes, results are
  wrapped again; reductions give 0-d arrays, as CuPy does);
- operators between strict arrays and Python or NumPy scalars work;
- anything that treats one as a host array is a *violation*: ``np.<fn>(arr)``
  (caught through ``__array_function__`` / ``__array_ufunc__``),
  ``np.asarray(arr)`` (``__array__``), an operator with a ``np.ndarray``
  operand. A violation is recorded (with the minigrad line that made it) and
  raises :class:`HostFallbackError`, so a caller that swallows the error is
  still caught by the fixture's teardown check;
- indexing with a ``np.ndarray`` key, or assigning one into a device array, is a
  violation too (CuPy would upload it; in op code it means an operand from
  another device slipped through);
- ``isinstance(arr, np.ndarray)`` is False, so NumPy-only shortcuts take the
  branch a CuPy array would take.

``backend.is_cupy_array`` recognises CuPy arrays by their class's module, so
``StrictArray`` declares a ``cupy.*`` module; ``.get()`` and ``.device.id`` are
what ``backend.to_host`` / ``device_of_array`` use. ``cupyx.scipy.special.erf``
(the CuPy-only helper op code imports) is provided as a fake module too.
"""

from __future__ import annotations

import math
import sys
import traceback
import types

import numpy as np

import minigrad.backend as B

VIOLATIONS: list[str] = []
TO_HOST = [0]  # explicit device -> host copies (``.get()``), for "no snapshot without a listener" checks


class HostFallbackError(TypeError):
    """A NumPy-only operation was applied to an array on the (fake) CUDA device."""


def _violation(what: str):
    frames = [f for f in traceback.extract_stack()[:-2] if "/minigrad/" in f.filename]
    where = f"{frames[-1].filename}:{frames[-1].lineno} ({frames[-1].line})" if frames else "outside minigrad"
    msg = f"host fallback: {what} at {where}"
    VIOLATIONS.append(msg)
    raise HostFallbackError(msg)


def unwrap(x):
    """The NumPy array behind a strict array, recursively through lists, tuples and dicts."""
    if type(x) is StrictArray:
        return x._a
    if type(x) is tuple:
        return tuple(unwrap(v) for v in x)
    if type(x) is list:
        return [unwrap(v) for v in x]
    if type(x) is dict:
        return {k: unwrap(v) for k, v in x.items()}
    return x


def wrap(x):
    """Device-side results: arrays and NumPy scalars become strict arrays (CuPy returns 0-d arrays)."""
    if type(x) is np.ndarray:
        return StrictArray(x)
    if isinstance(x, np.generic):
        return StrictArray(np.asarray(x))
    if type(x) is tuple:
        return tuple(wrap(v) for v in x)
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # NumPy's linalg results (SVDResult, EighResult, ...)
        return type(x)(*(wrap(v) for v in x))
    if type(x) is list:
        return [wrap(v) for v in x]
    if isinstance(x, np.random.Generator):
        return _ObjectProxy(x)
    return x


def _call(fn, args, kwargs):
    return wrap(fn(*unwrap(args), **unwrap(kwargs)))


def _operand(x, op):
    if type(x) is StrictArray:
        return x._a
    if isinstance(x, np.ndarray):
        _violation(f"'{op}' between a device array and a host np.ndarray")
    if isinstance(x, (bool, int, float, complex, np.generic)):
        return x
    return NotImplemented


def _binary(name):
    method = getattr(np.ndarray, name)

    def op(self, other):
        o = _operand(other, name)
        if o is NotImplemented:
            return NotImplemented
        return wrap(method(self._a, o))

    op.__name__ = name
    return op


def _inplace(name):
    method = getattr(np.ndarray, name)

    def op(self, other):
        o = _operand(other, name)
        if o is NotImplemented:
            return NotImplemented
        method(self._a, o)
        return self

    op.__name__ = name
    return op


def _unary(name):
    method = getattr(np.ndarray, name)

    def op(self):
        return wrap(method(self._a))

    op.__name__ = name
    return op


def _key(key):
    if type(key) is tuple:
        return tuple(_key(k) for k in key)
    if isinstance(key, np.ndarray):
        _violation("indexing a device array with a host np.ndarray (an index on another device)")
    return unwrap(key)


class _FakeCudaDevice:
    __slots__ = ("id",)

    def __init__(self, index: int = 0):
        self.id = index

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class StrictArray:
    """A device array: wraps a NumPy array, refuses to be used as one."""

    __slots__ = ("_a",)
    __hash__ = None
    __array_priority__ = 500  # below Tensor's 1000: ``arr * tensor`` defers to Tensor.__rmul__

    def __init__(self, a: np.ndarray):
        self._a = a

    # -- what backend and tests use
    def get(self) -> np.ndarray:
        TO_HOST[0] += 1
        return self._a.copy()

    @property
    def device(self):
        return _FakeCudaDevice(0)

    # -- host conversion is a violation
    def __array__(self, dtype=None, copy=None):
        _violation("implicit conversion to a NumPy array (np.asarray / np.array)")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        _violation(f"NumPy ufunc np.{ufunc.__name__}{'' if method == '__call__' else '.' + method} on a device array")

    def __array_function__(self, func, types, args, kwargs):
        _violation(f"NumPy function np.{func.__name__} on a device array")

    # -- attribute and method access mirror ndarray's, wrapped
    def __getattr__(self, name):
        if name == "_a":
            raise AttributeError(name)
        if name in ("__array_interface__", "__array_struct__"):  # NumPy's other ways to read it as a host array
            _violation("implicit conversion to a NumPy array (np.asarray / np.array)")
        attr = getattr(self._a, name)
        if callable(attr):

            def method(*args, **kwargs):
                return _call(attr, args, kwargs)

            return method
        return wrap(attr)

    def __getitem__(self, key):
        return wrap(self._a[_key(key)])

    def __setitem__(self, key, value):
        if type(value) is not StrictArray and isinstance(value, np.ndarray) and value.ndim:
            _violation("assigning a host np.ndarray into a device array")
        self._a[_key(key)] = unwrap(value)

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        return (wrap(v) for v in self._a)

    def __bool__(self):
        return bool(self._a)

    def __float__(self):
        return float(self._a)

    def __int__(self):
        return int(self._a)

    def __index__(self):
        return self._a.__index__()

    def __format__(self, spec):
        return format(self._a, spec)

    def __repr__(self):
        return f"strict_cuda({self._a!r})"

    def __deepcopy__(self, memo):
        return StrictArray(self._a.copy())

    def __copy__(self):
        return StrictArray(self._a.copy())


StrictArray.__module__ = "cupy._strict_fake"  # backend.is_cupy_array looks at the class's module

for _name in (
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ __rfloordiv__ "
    "__mod__ __rmod__ __pow__ __rpow__ __matmul__ __rmatmul__ __and__ __rand__ __or__ __ror__ __xor__ __rxor__ "
    "__eq__ __ne__ __lt__ __le__ __gt__ __ge__"
).split():
    setattr(StrictArray, _name, _binary(_name))
for _name in "__iadd__ __isub__ __imul__ __itruediv__ __ipow__ __iand__ __ior__ __ixor__ __ifloordiv__".split():
    setattr(StrictArray, _name, _inplace(_name))
for _name in "__neg__ __pos__ __abs__ __invert__".split():
    setattr(StrictArray, _name, _unary(_name))


class _ObjectProxy:
    """A device-side object (a random generator): methods take and return device arrays."""

    def __init__(self, obj):
        self._obj = obj

    def __getattr__(self, name):
        attr = getattr(self._obj, name)
        if callable(attr):
            return lambda *args, **kwargs: _call(attr, args, kwargs)
        return wrap(attr)


class _StrictUfunc:
    def __init__(self, ufunc: np.ufunc):
        self._u = ufunc
        self.__name__ = ufunc.__name__

    def __call__(self, *args, **kwargs):
        return _call(self._u, args, kwargs)

    def __getattr__(self, name):
        attr = getattr(self._u, name)
        if callable(attr):  # at, outer, reduce, accumulate
            return lambda *args, **kwargs: _call(attr, args, kwargs)
        return attr


class StrictModule(types.ModuleType):
    """NumPy, seen as a device's array module: arrays it makes are strict arrays."""

    def __init__(self, name: str, np_module):
        super().__init__(name)
        self._np = np_module
        self.ndarray = StrictArray
        self.cuda = types.SimpleNamespace(Device=_FakeCudaDevice)

    def __getattr__(self, name):
        attr = getattr(self._np, name)
        if isinstance(attr, types.ModuleType):
            return StrictModule(f"{self.__name__}.{name}", attr)
        if isinstance(attr, np.ufunc):
            return _StrictUfunc(attr)
        if isinstance(attr, type):  # dtypes and scalar types
            return attr
        if callable(attr):
            return lambda *args, **kwargs: _call(attr, args, kwargs)
        return attr


def _erf(x):
    arr = unwrap(x)
    return wrap(np.vectorize(math.erf, otypes=[arr.dtype])(arr))


def _fake_cupyx() -> dict:
    cupyx = types.ModuleType("cupyx")
    scipy = types.ModuleType("cupyx.scipy")
    special = types.ModuleType("cupyx.scipy.special")
    special.erf = _erf
    cupyx.scipy = scipy
    scipy.special = special
    return {"cupyx": cupyx, "cupyx.scipy": scipy, "cupyx.scipy.special": special}


def install(monkeypatch) -> B.Device:
    """Make ``"cuda"`` / ``"cuda:0"`` the strict fake device until ``monkeypatch`` undoes it."""
    dev = B.Device("cuda", 0)
    dev.xp = StrictModule("cupy_strict", np)
    for key in ("cuda", "cuda:0"):
        monkeypatch.setitem(B._devices, key, dev)
    for name, mod in _fake_cupyx().items():
        monkeypatch.setitem(sys.modules, name, mod)
    VIOLATIONS.clear()
    TO_HOST[0] = 0
    return dev


def is_on(t, dev: B.Device) -> bool:
    """True when tensor ``t`` (and its grad, if any) is on ``dev`` with device arrays."""
    ok = t.device is dev and type(t.array) is StrictArray
    if t.grad is not None:
        ok = ok and t.grad.device is dev and type(t.grad.array) is StrictArray
    return ok
