"""The small torch API pieces a typical training script needs: from_numpy (shared memory), as_tensor,
is_tensor, numel, and f-string formatting of a 0-d tensor."""

import numpy as np
import pytest

import minigrad as mg


def test_from_numpy_shares_memory_both_ways():
    a = np.zeros(3, dtype=np.float32)
    t = mg.from_numpy(a)
    a[0] = 5.0
    t.array[1] = 7.0
    np.testing.assert_array_equal(t.numpy(), [5.0, 7.0, 0.0])
    np.testing.assert_array_equal(a, [5.0, 7.0, 0.0])
    assert t.dtype == mg.float32 and not t.requires_grad and t.is_leaf


def test_from_numpy_keeps_the_arrays_dtype_and_refuses_others():
    assert mg.from_numpy(np.arange(3)).dtype == mg.int64
    assert mg.from_numpy(np.zeros(2)).dtype == mg.float64
    assert mg.from_numpy(np.zeros(2, dtype=np.uint8)).dtype == mg.uint8
    with pytest.raises(TypeError, match=r"can't convert np.ndarray of type numpy.uint16. The only supported types"):
        mg.from_numpy(np.zeros(2, dtype=np.uint16))
    with pytest.raises(TypeError, match=r"expected np.ndarray \(got list\)"):
        mg.from_numpy([1.0, 2.0])


def test_as_tensor_shares_what_it_can():
    a = np.ones(2, dtype=np.float32)
    assert mg.as_tensor(a).array is a
    assert mg.as_tensor(a, dtype=mg.float64).array is not a
    t = mg.tensor([1.0, 2.0], requires_grad=True)
    assert mg.as_tensor(t) is t and mg.as_tensor(t, dtype=mg.float32) is t
    converted = mg.as_tensor(t, dtype=mg.float64)
    assert converted.dtype == mg.float64 and converted.requires_grad  # a conversion stays in the graph
    assert mg.as_tensor([1, 2]).dtype == mg.int64 and mg.as_tensor(2.5).item() == 2.5


def test_is_tensor_and_numel():
    assert mg.is_tensor(mg.zeros(1)) and not mg.is_tensor(np.zeros(1)) and not mg.is_tensor(1.0)
    assert mg.numel(mg.zeros(2, 3)) == 6 and mg.numel(mg.tensor(1.0)) == 1
    with pytest.raises(TypeError, match="must be Tensor, not list"):
        mg.numel([1, 2])


def test_a_0d_tensor_formats_as_its_number():
    loss = mg.tensor(1.234567)
    assert f"{loss:.4f}" == "1.2346" and f"{mg.tensor(3):>3d}" == "  3"
    assert f"{mg.tensor([1.0, 2.0])}" == str(mg.tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="unsupported format string passed to Tensor.__format__"):
        f"{mg.tensor([1.0, 2.0]):.2f}"


def test_the_same_as_torch():
    torch = pytest.importorskip("torch")
    assert f"{torch.tensor(1.234567):.4f}" == f"{mg.tensor(1.234567):.4f}"
    assert f"{torch.tensor(7):>3d}" == f"{mg.tensor(7):>3d}"
