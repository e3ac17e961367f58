"""Devices, the array module behind each device, and dtype rules.

A tensor's data is a NumPy array on the CPU or a CuPy array on a CUDA device.
Op code asks this module for the array module (``xp``) of a tensor's device and
never imports NumPy-only helpers on paths that CUDA tensors take. CuPy is
imported only when a CUDA device is first asked for.
"""

from __future__ import annotations

import contextlib

import numpy as np

__all__ = [
    "Device",
    "device",
    "cuda_is_available",
    "float16",
    "float32",
    "float64",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "bool_",
    "get_default_dtype",
    "set_default_dtype",
    "get_default_device",
    "set_default_device",
]

float16 = np.dtype("float16")
float32 = np.dtype("float32")
float64 = np.dtype("float64")
uint8 = np.dtype("uint8")
int8 = np.dtype("int8")
int16 = np.dtype("int16")
int32 = np.dtype("int32")
int64 = np.dtype("int64")
bool_ = np.dtype("bool")

SUPPORTED_DTYPES = (float16, float32, float64, uint8, int8, int16, int32, int64, bool_)
_DTYPE_NAMES = {
    "float16": float16,
    "half": float16,
    "float32": float32,
    "float": float32,
    "float64": float64,
    "double": float64,
    "uint8": uint8,
    "int8": int8,
    "int16": int16,
    "short": int16,
    "int32": int32,
    "int": int32,
    "int64": int64,
    "long": int64,
    "bool": bool_,
}

_default_float = float32


#: PyTorch's scalar type names, as its error messages write dtypes (``Float`` for float32).
_SCALAR_TYPE_NAMES = {
    "bool": "Bool",
    "uint8": "Byte",
    "int8": "Char",
    "int16": "Short",
    "int32": "Int",
    "int64": "Long",
    "float16": "Half",
    "float32": "Float",
    "float64": "Double",
}


def scalar_type_name(dtype) -> str:
    """PyTorch's name for ``dtype`` in its messages (``Float``, ``Long``); NumPy's name when it has none."""
    name = np.dtype(dtype).name
    return _SCALAR_TYPE_NAMES.get(name, name)


def get_default_dtype() -> np.dtype:
    """The dtype Python floats become (float32, as in PyTorch)."""
    return _default_float


def set_default_dtype(dtype) -> None:
    """Set the dtype Python floats become; must be a floating dtype."""
    global _default_float
    dt = to_dtype(dtype)
    if dt.kind != "f":
        raise TypeError(f"only floating-point types are supported as the default type, got {dt}")
    _default_float = dt


def to_dtype(dtype) -> np.dtype:
    """Normalise a dtype given as np.dtype, a type or a name; reject unsupported ones."""
    if isinstance(dtype, str) and dtype in _DTYPE_NAMES:
        return _DTYPE_NAMES[dtype]
    if dtype is float:
        return _default_float
    if dtype is int:
        return int64
    if dtype is bool:
        return bool_
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"unsupported dtype {dtype!r}") from None
    if dt not in SUPPORTED_DTYPES:
        names = ", ".join(str(d) for d in SUPPORTED_DTYPES)
        raise TypeError(f"unsupported dtype {dt}; minigrad supports {names}")
    return dt


def quiet(xp):
    """A context in which NumPy's floating-point warnings stay silent (NaN outside a function's
    domain is the value, as in PyTorch); CuPy never warns."""
    return np.errstate(all="ignore") if xp is np else contextlib.nullcontext()


def cast(arr, dtype: np.dtype):
    """``arr`` as ``dtype``, quietly: NaN, inf or out-of-range values become what NumPy's cast gives
    (as in PyTorch, no warning); CuPy never warns."""
    if (
        isinstance(arr, np.ndarray)
        and arr.dtype.kind in "fc"
        and (dtype.kind in "biu" or dtype.itemsize < arr.dtype.itemsize)
    ):
        with np.errstate(invalid="ignore", over="ignore"):
            return arr.astype(dtype)
    return arr.astype(dtype)


def is_floating(dtype: np.dtype) -> bool:
    return dtype.kind == "f"


# ---------------------------------------------------------------- promotion
_CATEGORY = {"b": 0, "i": 1, "u": 1, "f": 2}


def _category(dtype: np.dtype) -> int:
    return _CATEGORY[dtype.kind]


def _promote_pair(a: np.dtype, b: np.dtype) -> np.dtype:
    if a is b:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    return np.promote_types(a, b)


def scalar_dtype(value) -> np.dtype:
    """The dtype PyTorch gives a Python scalar on its own."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    return _default_float


def result_dtype(*operands) -> np.dtype:
    """PyTorch's type promotion for tensors (with or without dims) and Python scalars.

    Operands of a higher category (bool < integer < floating) win; within the
    winning category, tensors with dims outrank zero-dim tensors, which outrank
    Python scalars (which take the default dtype of their category).
    """
    dim_dt = zero_dt = scalar_dt = None
    for op in operands:
        dt = getattr(op, "dtype", None)
        if dt is None:
            sdt = scalar_dtype(op)
            scalar_dt = sdt if scalar_dt is None else _promote_pair(scalar_dt, sdt)
        elif op.ndim:
            dim_dt = dt if dim_dt is None else _promote_pair(dim_dt, dt)
        else:
            zero_dt = dt if zero_dt is None else _promote_pair(zero_dt, dt)
    result = dim_dt
    for other in (zero_dt, scalar_dt):
        if other is None:
            continue
        if result is None or _category(other) > _category(result):
            result = other
    return result


# ---------------------------------------------------------------- devices
class Device:
    """A device a tensor lives on: ``cpu`` or ``cuda:N``. Compare with strings freely.

    ``xp`` is the array module (numpy or cupy) for this device: a plain attribute, read by
    every op; a CUDA device imports CuPy on the first read.
    """

    __slots__ = ("type", "index", "xp")

    def __init__(self, type: str, index: int | None = None):
        self.type = type
        self.index = index
        if type == "cpu":
            self.xp = np

    def __getattr__(self, name: str):
        if name != "xp":
            raise AttributeError(f"'Device' object has no attribute '{name}'")
        self.xp = _cupy_for(self)
        return self.xp

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        return f"device(type='{self.type}'" + ("" if self.index is None else f", index={self.index}") + ")"

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            try:
                other = device(other)
            except (ValueError, RuntimeError):
                return False
        return isinstance(other, Device) and self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = Device("cpu")
_devices: dict = {"cpu": CPU}
_default_device = CPU


def set_default_device(spec) -> None:
    """Make factories and ``tensor()`` put new tensors on ``spec`` unless told otherwise.

    Asking for a CUDA device that is not usable (no CuPy, no GPU) fails here, at once.
    """
    global _default_device
    dev = device(spec)
    dev.xp  # noqa: B018  (validates: raises a clear error when the device is not usable)
    _default_device = dev


def get_default_device() -> Device:
    """The device new tensors go to when none is given (``cpu`` unless set)."""
    return _default_device


def device(spec=None) -> Device:
    """Parse ``"cpu"``, ``"cuda"``, ``"cuda:N"`` (or a Device) into an interned Device.

    ``None`` means the default device (see :func:`set_default_device`).
    """
    if spec is None:
        return _default_device
    if isinstance(spec, Device):
        return spec
    found = _devices.get(spec)
    if found is not None:
        return found
    if not isinstance(spec, str):
        raise TypeError(f"device must be a string like 'cpu' or 'cuda:0', got {type(spec).__name__}")
    kind, _, index = spec.partition(":")
    if kind != "cuda" or (index and not index.isdigit()):
        raise RuntimeError(
            f"Expected one of cpu, cuda device type at start of device string: {spec}"
            if kind not in ("cpu", "cuda")
            else f"Invalid device string: '{spec}'"
        )
    key = f"cuda:{int(index) if index else 0}"
    dev = _devices.get(key)
    if dev is None:
        dev = _devices[key] = Device("cuda", int(key[5:]))
    _devices[spec] = dev
    return dev


def _import_cupy():
    try:
        import cupy
    except ImportError:
        raise RuntimeError(
            "CUDA was asked for, but CuPy is not installed. Install minigrad with the "
            "'cuda12' or 'cuda13' extra (cupy-cuda12x / cupy-cuda13x)."
        ) from None
    return cupy


def _cupy_for(dev: Device):
    cupy = _import_cupy()
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDARuntimeError when there is no driver
        raise RuntimeError(
            f"device '{dev}' was asked for, but no CUDA GPU is usable: {type(exc).__name__}: {exc}"
        ) from None
    if dev.index >= count:
        raise RuntimeError(f"device '{dev}' was asked for, but only {count} CUDA device(s) are available")
    return cupy


def cuda_is_available() -> bool:
    """True when CuPy imports and at least one CUDA GPU answers."""
    try:
        cupy = _import_cupy()
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def is_cupy_array(obj) -> bool:
    """True for a CuPy ndarray, without importing CuPy when it was never imported."""
    mod = type(obj).__module__
    return mod.startswith("cupy")


def device_of_array(arr) -> Device:
    """The Device an array lives on."""
    if isinstance(arr, np.ndarray):
        return CPU
    if is_cupy_array(arr):
        return device(f"cuda:{arr.device.id}")
    return CPU


def to_device_array(arr, dev: Device):
    """Move an array to ``dev`` (a copy only when it changes device)."""
    src = device_of_array(arr)
    if src == dev:
        return arr
    if dev.type == "cpu":
        return arr.get()
    cupy = dev.xp
    with cupy.cuda.Device(dev.index):
        return cupy.asarray(arr)


def to_host(arr) -> np.ndarray:
    """A NumPy view or copy of an array on any device."""
    if isinstance(arr, np.ndarray):
        return arr
    if is_cupy_array(arr):
        return arr.get()
    return np.asarray(arr)


def broadcast_view(xp, arr, shape: tuple):
    """``xp.broadcast_to(arr, shape)``: a read-only view (``shape`` must be a valid broadcast of ``arr``'s).

    For a contiguous NumPy array the view is built from its strides directly, a
    third of ``np.broadcast_to``'s cost (which sets up an iterator to check the shapes).
    """
    if type(arr) is not np.ndarray or not arr.flags.c_contiguous or not arr.size:
        return xp.broadcast_to(arr, shape)
    lead = len(shape) - arr.ndim
    strides = (0,) * lead + tuple(0 if n == 1 else s for n, s in zip(arr.shape, arr.strides))
    view = np.ndarray(shape, arr.dtype, arr, 0, strides)
    view.flags.writeable = False
    return view
