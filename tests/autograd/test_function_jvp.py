"""Custom Function.jvp: PyTorch's contract for forward mode."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import Function
from minigrad.autograd import forward_ad as fwAD
from tests.custom_functions import cube_forms

Cube = cube_forms(mg)["old"]  # x³: backward 3x²g, jvp 3x²t


class SinCos(Function):
    """Two outputs, one jvp call for both."""

    calls = 0

    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_forward(x)
        ctx.scale = scale
        return (x.sin() * scale, x.cos() * scale)

    @staticmethod
    def backward(ctx, gs, gc):
        raise AssertionError("not used")

    @staticmethod
    def jvp(ctx, t, scale_tangent):
        SinCos.calls += 1
        assert scale_tangent is None  # not a tensor input
        (x,) = ctx.saved_tensors
        return x.cos() * t * ctx.scale, -x.sin() * t * ctx.scale


class NoJvp(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


def _dual(values, tangent):
    x = mg.tensor(np.array(values, dtype=np.float64))
    return fwAD.make_dual(x, mg.tensor(np.array(tangent, dtype=np.float64)))


def test_jvp_of_a_custom_function():
    with fwAD.dual_level():
        y = Cube.apply(_dual([1.0, -2.0], [1.0, 0.5]))
        primal, tangent = fwAD.unpack_dual(y)
    np.testing.assert_allclose(primal.numpy(), [1.0, -8.0])
    np.testing.assert_allclose(tangent.numpy(), [3.0, 6.0])


def test_jvp_runs_once_for_all_outputs():
    SinCos.calls = 0
    with fwAD.dual_level():
        s, c = SinCos.apply(_dual([0.5], [2.0]), 3.0)
        ts, tc = fwAD.unpack_dual(s).tangent, fwAD.unpack_dual(c).tangent
    assert SinCos.calls == 1
    np.testing.assert_allclose(ts.numpy(), 3.0 * np.cos(0.5) * 2.0)
    np.testing.assert_allclose(tc.numpy(), -3.0 * np.sin(0.5) * 2.0)


def test_missing_jvp_is_torchs_error_only_when_a_tangent_flows():
    assert NoJvp.apply(mg.tensor([1.0])).tolist() == [2.0]
    with fwAD.dual_level():
        NoJvp.apply(mg.tensor([1.0]))  # no tangent: the rule is not needed
        with pytest.raises(
            NotImplementedError, match="You must implement the jvp function for custom autograd.Function"
        ):
            NoJvp.apply(_dual([1.0], [1.0]))


def test_save_for_forward_takes_only_tensors():
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x, 3)
            return x

    with pytest.raises(TypeError, match="save_for_forward expects all arguments to be tensors"):
        Bad.apply(mg.tensor([1.0]))


def test_matches_torch_custom_function_jvp():
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as tfw

    class TCube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return x**3

        @staticmethod
        def backward(ctx, g):
            raise AssertionError

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 3 * x * x * t

    with tfw.dual_level():
        ty = TCube.apply(
            tfw.make_dual(torch.tensor([1.0, -2.0], dtype=torch.float64), torch.tensor([1.0, 0.5], dtype=torch.float64))
        )
        expected = tfw.unpack_dual(ty).tangent.numpy()
    with fwAD.dual_level():
        ours = fwAD.unpack_dual(Cube.apply(_dual([1.0, -2.0], [1.0, 0.5]))).tangent.numpy()
    np.testing.assert_allclose(ours, expected)
