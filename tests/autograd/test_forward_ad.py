"""forward_ad's API, with cases ported from PyTorch's forward-mode tests (rewritten in our words)."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import forward_ad as fwAD


def test_basic_packing_and_unpacking():
    primal, tangent = mg.tensor([1.0, 2.0, 3.0]), mg.tensor([0.5, 0.5, 0.5])
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, tangent)
        unpacked = fwAD.unpack_dual(dual)
        assert unpacked.tangent is tangent  # same shape and layout: no copy, as in PyTorch
        np.testing.assert_array_equal(unpacked.primal.numpy(), primal.numpy())
        assert unpacked == (unpacked.primal, unpacked.tangent)  # a named tuple
        plain = fwAD.unpack_dual(primal)
        assert plain.primal is primal and plain.tangent is None
    assert fwAD.unpack_dual(dual).tangent is None  # the level is gone, and its tangents with it


def test_tensors_without_a_tangent_count_as_zero():
    with fwAD.dual_level():
        x = fwAD.make_dual(mg.tensor([2.0, 3.0]), mg.tensor([1.0, 0.0]))
        y = x * mg.tensor([10.0, 10.0]) + mg.tensor([1.0, 1.0])
        assert fwAD.unpack_dual(y).tangent.tolist() == [10.0, 0.0]


def test_a_dual_is_a_view_of_its_primal():
    primal = mg.tensor([1.0, 2.0])
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, mg.tensor([1.0, 1.0]))
        with mg.no_grad():
            primal.array[0] = 5.0
        assert dual.tolist() == [5.0, 2.0]


def test_level_errors_are_pytorchs():
    with pytest.raises(RuntimeError, match="no level exists, make sure to enter_dual_level\\(\\) first"):
        fwAD.make_dual(mg.tensor([1.0]), mg.tensor([1.0]))
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported at the moment"):
            fwAD.enter_dual_level()
    with pytest.raises(RuntimeError, match="Trying to exit a forward AD level that was not the last one"):
        level = fwAD.enter_dual_level()
        try:
            fwAD.exit_dual_level(level=level + 1)
        finally:
            fwAD.exit_dual_level()


def test_make_dual_checks_its_arguments():
    with fwAD.dual_level():
        with pytest.raises(
            RuntimeError, match="Tensor is of size \\[2\\] while the given forward gradient is of size \\[3\\]"
        ):
            fwAD.make_dual(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.0, 3.0]))
        with pytest.raises(ValueError, match="Expected primal to be floating point"):
            fwAD.make_dual(mg.tensor([1, 2]), mg.tensor([1.0, 2.0]))
        with pytest.raises(ValueError, match="Expected tangent to be floating point"):
            fwAD.make_dual(mg.tensor([1.0, 2.0]), mg.tensor([1, 2]))
        with pytest.raises(TypeError, match="make_dual\\(\\): expected Tensors"):
            fwAD.make_dual(mg.tensor([1.0]), [1.0])


def test_dual_level_as_a_decorator_and_the_reverse_graph_through_make_dual():
    @fwAD.dual_level()
    def tangent_of_square(x, v):
        return fwAD.unpack_dual(fwAD.make_dual(x, v) ** 2).tangent

    x = mg.tensor([3.0], requires_grad=True)
    t = tangent_of_square(x, mg.tensor([1.0]))
    assert t.tolist() == [6.0]
    t.sum().backward()  # d/dx (2 x v) = 2: the tangent is differentiable in reverse mode
    assert x.grad.tolist() == [2.0]


def test_every_op_of_a_small_cnn_has_a_forward_rule():
    rng = np.random.default_rng(0)
    x0, w0, v0 = rng.standard_normal((1, 2, 6, 6)), rng.standard_normal((3, 2, 3, 3)), rng.standard_normal((1, 2, 6, 6))

    def net(x):
        h = mg.nn.functional.conv2d(x, mg.tensor(w0), padding=1).relu()
        return mg.nn.functional.max_pool2d(h, 2).flatten(1).log_softmax(1).sum()

    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(net(fwAD.make_dual(mg.tensor(x0), mg.tensor(v0)))).tangent.item()
    eps = 1e-6
    numeric = (net(mg.tensor(x0 + eps * v0)).item() - net(mg.tensor(x0 - eps * v0)).item()) / (2 * eps)
    assert tangent == pytest.approx(numeric, rel=1e-6)


def test_matches_torch_forward_ad():
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as tfw

    x0, v0 = np.array([0.3, -1.2, 2.0]), np.array([1.0, 0.5, -0.25])
    with fwAD.dual_level():
        ours = fwAD.unpack_dual((fwAD.make_dual(mg.tensor(x0), mg.tensor(v0)).sin() * 3).softmax(0)).tangent
    with tfw.dual_level():
        theirs = tfw.unpack_dual((tfw.make_dual(torch.tensor(x0), torch.tensor(v0)).sin() * 3).softmax(0)).tangent
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)


def test_nested_dual_levels_are_refused_as_torch_refuses_them():
    message = "Nested forward mode AD is not supported at the moment"
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match=f"^{message}$"):
            with fwAD.dual_level():
                pass
        x = fwAD.make_dual(mg.tensor([1.0]), mg.tensor([2.0]))  # the outer level still works
        assert fwAD.unpack_dual(x * 3).tangent.tolist() == [6.0]
    torch = pytest.importorskip("torch")
    with torch.autograd.forward_ad.dual_level():
        with pytest.raises(RuntimeError, match=f"^{message}$"):
            with torch.autograd.forward_ad.dual_level():
                pass
