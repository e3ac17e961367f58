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
            primal.data[0] = 5.0
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


def test_an_op_without_a_rule_fails_only_when_a_tangent_reaches_it():
    with fwAD.dual_level():
        plain = mg.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        mg.nn.functional.max_pool2d(plain, 2)  # no tangent: no rule needed
        dual = fwAD.make_dual(plain, mg.ones(1, 1, 2, 2))
        with pytest.raises(RuntimeError, match="Trying to use forward AD with max_pool2d that does not support it"):
            mg.nn.functional.max_pool2d(dual, 2)


def test_matches_torch_forward_ad():
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as tfw

    x0, v0 = np.array([0.3, -1.2, 2.0]), np.array([1.0, 0.5, -0.25])
    with fwAD.dual_level():
        ours = fwAD.unpack_dual((fwAD.make_dual(mg.tensor(x0), mg.tensor(v0)).sin() * 3).softmax(0)).tangent
    with tfw.dual_level():
        theirs = tfw.unpack_dual((tfw.make_dual(torch.tensor(x0), torch.tensor(v0)).sin() * 3).softmax(0)).tangent
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)
