"""DLPack interchange with NumPy and (when installed) PyTorch."""

import numpy as np
import pytest

import minigrad as mg


def test_numpy_round_trip_shares_memory():
    arr = np.arange(6, dtype=np.float64).reshape(2, 3)
    t = mg.from_dlpack(arr)
    assert t.shape == (2, 3) and t.dtype == mg.float64 and t.device == "cpu" and t.is_leaf
    arr[0, 0] = 42.0
    assert t.array[0, 0] == 42.0
    back = np.from_dlpack(t)
    np.testing.assert_array_equal(back, arr)


def test_export_of_tensor_requiring_grad_is_refused():
    t = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="require gradient"):
        np.from_dlpack(t)
    np.testing.assert_array_equal(np.from_dlpack(t.detach()), [1.0])


def test_non_dlpack_object_is_a_clear_error():
    with pytest.raises(TypeError, match="expects an object with __dlpack__, got list"):
        mg.from_dlpack([1.0, 2.0])


def test_torch_round_trip():
    torch = pytest.importorskip("torch")
    src = torch.arange(4, dtype=torch.float32)
    t = mg.from_dlpack(src)
    assert t.dtype == mg.float32 and t.tolist() == [0.0, 1.0, 2.0, 3.0]
    src[1] = 9.0
    assert t.tolist()[1] == 9.0
    back = torch.from_dlpack(mg.tensor([1.0, 2.0]))
    assert back.tolist() == [1.0, 2.0]


@pytest.mark.cuda
def test_cupy_round_trip():
    import cupy

    src = cupy.arange(3, dtype=cupy.float32)
    t = mg.from_dlpack(src)
    assert t.device == "cuda:0"
    assert cupy.from_dlpack(t).tolist() == [0.0, 1.0, 2.0]


@pytest.mark.cuda
def test_torch_cuda_round_trip_shares_gpu_memory():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("this PyTorch build sees no CUDA GPU")
    src = torch.arange(4, dtype=torch.float32, device="cuda")
    t = mg.from_dlpack(src)
    assert t.device == "cuda:0" and t.dtype == mg.float32
    src[1] = 9.0
    assert t.tolist() == [0.0, 9.0, 2.0, 3.0]
    back = torch.from_dlpack(mg.tensor([1.0, 2.0], device="cuda"))
    assert back.device.type == "cuda" and back.tolist() == [1.0, 2.0]
