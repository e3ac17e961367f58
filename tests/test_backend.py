"""Backend: dtype names and PyTorch type promotion, the default dtype, device parsing, CuPy discovery errors."""

import itertools
import sys
import types

import numpy as np
import pytest

import minigrad as mg
from minigrad import backend as B

DTYPES = ["float16", "float32", "float64", "int32", "int64", "bool"]


# ---------------------------------------------------------------- dtypes
def test_dtype_names_and_types():
    assert B.to_dtype("float") == mg.float32 and B.to_dtype("double") == mg.float64 and B.to_dtype("half") == mg.float16
    assert B.to_dtype("long") == mg.int64 and B.to_dtype("int") == mg.int32 and B.to_dtype("bool") == mg.bool_
    assert B.to_dtype(np.float64) == mg.float64 and B.to_dtype(np.dtype("int32")) == mg.int32
    assert B.to_dtype(float) == mg.float32 and B.to_dtype(int) == mg.int64 and B.to_dtype(bool) == mg.bool_
    assert B.to_dtype("uint8") == mg.uint8 and B.to_dtype("short") == mg.int16 and B.to_dtype(np.int8) == mg.int8
    with pytest.raises(TypeError, match="unsupported dtype uint16; minigrad supports float16, float32"):
        B.to_dtype(np.uint16)
    with pytest.raises(TypeError, match="unsupported dtype"):
        B.to_dtype("nonsense")


def test_default_dtype_is_float32_and_settable():
    assert mg.get_default_dtype() == mg.float32
    try:
        mg.set_default_dtype(mg.float64)
        assert mg.tensor(1.5).dtype == mg.float64 and mg.zeros(2).dtype == mg.float64
        assert (mg.tensor([1, 2]) * 0.5).dtype == mg.float64
    finally:
        mg.set_default_dtype(mg.float32)
    with pytest.raises(TypeError, match="only floating-point types are supported as the default type"):
        mg.set_default_dtype(mg.int64)


def _operand(dt: str, zero_dim: bool):
    return mg.ones(*(() if zero_dim else (2,)), dtype=dt)


@pytest.mark.parametrize("a, b", list(itertools.product(DTYPES, DTYPES)))
def test_promotion_matches_torch(a, b):
    torch = pytest.importorskip("torch")
    for za, zb in itertools.product((False, True), repeat=2):
        shape_a, shape_b = (() if za else (2,)), (() if zb else (2,))
        out = torch.ones(shape_a, dtype=getattr(torch, a)) + torch.ones(shape_b, dtype=getattr(torch, b))
        expected = str(out.dtype).removeprefix("torch.")
        ta, tb = _operand(a, za), _operand(b, zb)
        assert str(B.result_dtype(ta, tb)) == expected, (a, za, b, zb)
        assert str((ta + tb).dtype) == expected


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("scalar", [True, 3, 2.5])
def test_scalar_promotion_matches_torch(dt, scalar):
    torch = pytest.importorskip("torch")
    for zero_dim in (False, True):
        shape = () if zero_dim else (2,)
        expected = str((torch.ones(shape, dtype=getattr(torch, dt)) + scalar).dtype).removeprefix("torch.")
        t = mg.ones(*shape, dtype=dt)
        assert str(B.result_dtype(t, scalar)) == expected
        assert str((t + scalar).dtype) == expected and str((scalar + t).dtype) == expected


def test_promotion_rules_without_torch():
    i32, f16 = mg.ones(2, dtype=mg.int32), mg.ones(2, dtype=mg.float16)
    assert B.result_dtype(i32, 1) == mg.int32  # a Python int does not widen an integer tensor
    assert B.result_dtype(i32, 1.0) == mg.float32  # a Python float lifts integers to the default dtype
    assert B.result_dtype(f16, 1.0) == mg.float16
    assert B.result_dtype(i32, mg.tensor(1.0, dtype=mg.float64)) == mg.float64  # 0-d of a higher category wins
    assert B.result_dtype(f16, mg.tensor(1.0, dtype=mg.float64)) == mg.float16  # same category: dims win
    assert B.result_dtype(1, 2.0) == mg.float32 and B.result_dtype(True, 1) == mg.int64


# ---------------------------------------------------------------- devices
def test_device_parsing_and_equality():
    cpu = mg.device("cpu")
    assert cpu is B.CPU and mg.device() is cpu and mg.device(cpu) is cpu
    cuda = mg.device("cuda")
    assert cuda.type == "cuda" and cuda.index == 0 and str(cuda) == "cuda:0"
    assert mg.device("cuda:0") is cuda and mg.device("cuda:1") is not cuda and mg.device("cuda:1").index == 1
    assert cuda == "cuda:0" and cuda == "cuda" and cpu == "cpu" and cpu != "cuda" and cpu != "nonsense"
    assert repr(cpu) == "device(type='cpu')" and repr(cuda) == "device(type='cuda', index=0)"
    assert len({cpu, mg.device("cpu"), cuda, mg.Device("cuda", 0)}) == 2


@pytest.mark.parametrize(
    "spec, exc, text",
    [
        ("gpu", RuntimeError, "Expected one of cpu, cuda device type at start of device string: gpu"),
        ("cuda:x", RuntimeError, "Invalid device string: 'cuda:x'"),
        ("cpu:0:1", RuntimeError, "device string"),
        (3, TypeError, "device must be a string like 'cpu' or 'cuda:0', got int"),
    ],
)
def test_bad_device_specs(spec, exc, text):
    with pytest.raises(exc) as info:
        mg.device(spec)
    assert text in str(info.value)


def test_cpu_array_module_and_host_helpers():
    assert B.CPU.xp is np
    arr = np.ones(2)
    assert B.device_of_array(arr) is B.CPU and B.to_host(arr) is arr and B.to_device_array(arr, B.CPU) is arr
    assert not B.is_cupy_array(arr)


def test_missing_cupy_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # makes `import cupy` raise ImportError
    dev = B.Device("cuda", 0)  # fresh, so no array module is cached
    with pytest.raises(RuntimeError, match="CUDA was asked for, but CuPy is not installed.*cuda12"):
        _ = dev.xp
    assert not mg.cuda_is_available()


def _fake_cupy(count=None, error=None):
    def get_device_count():
        if error is not None:
            raise error
        return count

    runtime = types.SimpleNamespace(getDeviceCount=get_device_count)
    return types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=runtime))


def test_cupy_without_gpu_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(error=OSError("no CUDA driver found")))
    with pytest.raises(RuntimeError, match=r"device 'cuda:0' was asked for, but no CUDA GPU is usable: OSError"):
        _ = B.Device("cuda", 0).xp
    assert not mg.cuda_is_available()


def test_cuda_index_beyond_the_gpus_is_a_clear_error(monkeypatch):
    fake = _fake_cupy(count=1)
    monkeypatch.setitem(sys.modules, "cupy", fake)
    assert B.Device("cuda", 0).xp is fake
    with pytest.raises(RuntimeError, match=r"device 'cuda:3' was asked for, but only 1 CUDA device\(s\) are available"):
        _ = B.Device("cuda", 3).xp


@pytest.mark.cuda
def test_cuda_tensors_round_trip():
    x = mg.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    assert x.device == "cuda:0" and x.is_cuda
    (x * x).sum().backward()
    assert x.grad.device == "cuda:0" and x.grad.cpu().tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="cuda:0 and cpu|cpu and cuda:0"):
        x + mg.ones(2)


def test_default_device_applies_to_factories_and_tensor():
    assert mg.get_default_device() == "cpu"
    mg.set_default_device("cpu")
    assert mg.zeros(2).device == "cpu" and mg.tensor([1.0]).device == "cpu"


def test_default_device_cuda_without_gpu_fails_at_once_and_keeps_the_old_default():
    if mg.cuda_is_available():
        pytest.skip("a GPU is present")
    with pytest.raises(RuntimeError, match="cuda"):
        mg.set_default_device("cuda")
    assert mg.get_default_device() == "cpu"
