"""minigrad.autograd.functional against closed forms (and PyTorch where installed)."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import functional as F
from tests.conftest import rand64

RNG = np.random.default_rng(11)
W_NP = RNG.standard_normal((4, 3))
X_NP = RNG.standard_normal(3)
V_NP = RNG.standard_normal(3)


def t64(a, requires_grad=False):
    return mg.tensor(np.asarray(a, dtype=np.float64), dtype=mg.float64, requires_grad=requires_grad)


def energy(x):
    return ((t64(W_NP) @ x).tanh() ** 2).sum()


def energy_hessian(x_np):
    t = np.tanh(W_NP @ x_np)
    return W_NP.T @ np.diag((2 - 6 * t**2) * (1 - t**2)) @ W_NP


def cube(x):
    return x**3


# ---------------------------------------------------------------- vjp / jvp
def test_vjp_and_jvp_of_elementwise_cube():
    x = t64(X_NP)
    v = t64(V_NP)
    out, vj = F.vjp(cube, x, v)
    np.testing.assert_allclose(out.numpy(), X_NP**3)
    np.testing.assert_allclose(vj.numpy(), V_NP * 3 * X_NP**2)
    out, jv = F.jvp(cube, x, v)
    np.testing.assert_allclose(jv.numpy(), 3 * X_NP**2 * V_NP)
    assert not out.requires_grad and not jv.requires_grad


def test_jvp_of_a_non_square_linear_map_is_w_v():
    _, jv = F.jvp(lambda x: t64(W_NP) @ x, t64(X_NP), t64(V_NP))
    np.testing.assert_allclose(jv.numpy(), W_NP @ V_NP)
    u = RNG.standard_normal(4)
    _, vj = F.vjp(lambda x: t64(W_NP) @ x, t64(X_NP), t64(u))
    np.testing.assert_allclose(vj.numpy(), u @ W_NP)


def test_tuple_inputs_and_outputs_keep_their_structure():
    def f(x, y):
        return x * y, (x * x).sum() * y

    x, y = t64([1.0, 2.0]), t64([3.0, -1.0])
    outs, vj = F.vjp(f, (x, y), (t64([1.0, 1.0]), t64([1.0, 0.0])))
    assert isinstance(outs, tuple) and isinstance(vj, tuple) and len(vj) == 2
    # d/dx: y * v1 + 2x * (y . v2); d/dy: x * v1 + |x|^2 v2
    np.testing.assert_allclose(vj[0].numpy(), [3.0, -1.0] + 2 * np.array([1.0, 2.0]) * 3.0)
    np.testing.assert_allclose(vj[1].numpy(), [1.0 + 5.0, 2.0])
    _, jv = F.jvp(f, (x, y), (t64([1.0, 0.0]), t64([0.0, 1.0])))
    np.testing.assert_allclose(jv[0].numpy(), [3.0, 2.0])
    np.testing.assert_allclose(jv[1].numpy(), 2 * 1.0 * np.array([3.0, -1.0]) + 5.0 * np.array([0.0, 1.0]))


def test_v_may_be_omitted_only_for_single_elements():
    x = t64([2.0])
    _, vj = F.vjp(lambda t: (t * t).sum(), x)
    assert vj.tolist() == [4.0]
    _, jv = F.jvp(lambda t: t * 3, x)
    assert jv.tolist() == [3.0]
    with pytest.raises(RuntimeError, match="^The vector v can only be None if the user-provided function returns"):
        F.vjp(cube, t64([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="^The vector v can only be None if the input to the user-provided"):
        F.jvp(cube, t64([1.0, 2.0]))


def test_v_validation_messages():
    x = t64([1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"^v has invalid size: should be \[2\] but got \[3\].$"):
        F.vjp(cube, x, t64([1.0, 2.0, 3.0]))
    with pytest.raises(RuntimeError, match="^The given v should contain a single Tensor.$"):
        F.vjp(cube, x, (t64([1.0, 2.0]), t64([1.0, 2.0])))
    with pytest.raises(RuntimeError, match="^v is a tuple of invalid length: should be 2 but got 1.$"):
        F.jvp(lambda a, b: a * b, (x, x), (x,))
    with pytest.raises(RuntimeError, match=r"^Entry 1 in v has invalid size: should be \[2\] but got \[1\].$"):
        F.jvp(lambda a, b: a * b, (x, x), (x, t64([1.0])))


def test_type_errors():
    with pytest.raises(TypeError, match="The inputs given to jacobian must be either a Tensor or a tuple of Tensors"):
        F.jacobian(cube, 3.0)
    with pytest.raises(TypeError, match="The outputs of the user-provided function given to vjp must be"):
        F.vjp(lambda t: 3, t64([1.0]))


def test_unused_input_gives_zeros_or_strict_error():
    x, y = t64([1.0, 2.0]), t64([5.0])
    _, (dx, dy) = F.vjp(lambda a, b: (a * a).sum(), (x, y))
    np.testing.assert_allclose(dx.numpy(), [2.0, 4.0])
    assert dy.tolist() == [0.0]
    with pytest.raises(RuntimeError, match="^The output of the user-provided function is independent of input 1"):
        F.vjp(lambda a, b: (a * a).sum(), (x, y), strict=True)
    with pytest.raises(RuntimeError, match="^Output 0 of the user-provided function does not require gradients"):
        F.jacobian(lambda a: mg.ones(2, dtype=mg.float64), x, strict=True)


def test_captured_tensors_are_constants():
    w = t64([3.0], requires_grad=True)
    _, g = F.vjp(lambda a: (a * w).sum(), t64([2.0]))
    assert g.tolist() == [3.0] and w.grad is None


# ---------------------------------------------------------------- jacobian
@pytest.mark.parametrize(
    ("vectorize", "strategy"), [(False, "reverse-mode"), (True, "reverse-mode"), (True, "forward-mode")]
)
def test_jacobian_closed_forms(vectorize, strategy):
    x = t64(X_NP)
    jac = F.jacobian(cube, x, vectorize=vectorize, strategy=strategy)
    np.testing.assert_allclose(jac.numpy(), np.diag(3 * X_NP**2))
    lin = F.jacobian(lambda t: t64(W_NP) @ t, x, vectorize=vectorize, strategy=strategy)
    np.testing.assert_allclose(lin.numpy(), W_NP)
    m = t64(RNG.standard_normal((2, 3)))
    jm = F.jacobian(lambda a: a.T * 2, m, vectorize=vectorize, strategy=strategy)
    assert jm.shape == (3, 2, 2, 3)
    expected = np.zeros((3, 2, 2, 3))
    for i in range(3):
        for j in range(2):
            expected[i, j, j, i] = 2
    np.testing.assert_allclose(jm.numpy(), expected)


def test_jacobian_of_tuples_is_indexed_output_then_input():
    a, b = t64([1.0, 2.0]), t64([3.0])
    jac = F.jacobian(lambda x, y: (x * y, (x * x).sum()), (a, b))
    (ja, jb), (ka, kb) = jac
    np.testing.assert_allclose(ja.numpy(), 3 * np.eye(2))
    np.testing.assert_allclose(jb.numpy(), [[1.0], [2.0]])
    np.testing.assert_allclose(ka.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(kb.numpy(), [0.0])


def test_jacobian_create_graph_is_differentiable():
    x = t64(X_NP, requires_grad=True)
    jac = F.jacobian(cube, x, create_graph=True)
    assert jac.requires_grad
    (g,) = mg.autograd.grad(jac.sum(), x)
    np.testing.assert_allclose(g.numpy(), 6 * X_NP)
    assert not F.jacobian(cube, x).requires_grad


def test_jacobian_option_errors():
    x = t64([1.0])
    with pytest.raises(ValueError, match='Expected strategy to be either "forward-mode" or "reverse-mode"'):
        F.jacobian(cube, x, strategy="sideways")
    with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
        F.jacobian(cube, x, strategy="forward-mode")
    with pytest.raises(RuntimeError, match="`strict=True` and `vectorized=True` are not supported together"):
        F.jacobian(cube, x, strict=True, vectorize=True)


# ---------------------------------------------------------------- hessian, hvp, vhp
@pytest.mark.parametrize("vectorize", [False, True])
def test_hessian_of_the_tanh_energy(vectorize):
    h = F.hessian(energy, t64(X_NP), vectorize=vectorize)
    np.testing.assert_allclose(h.numpy(), energy_hessian(X_NP), rtol=1e-10, atol=1e-12)


def test_hessian_blocks_for_two_inputs():
    a, b = t64([1.0, -2.0]), t64([0.5, 3.0])
    (haa, hab), (hba, hbb) = F.hessian(lambda x, y: (x**3).sum() + (x * y).sum(), (a, b))
    np.testing.assert_allclose(haa.numpy(), np.diag([6.0, -12.0]))
    np.testing.assert_allclose(hab.numpy(), np.eye(2))
    np.testing.assert_allclose(hba.numpy(), np.eye(2))
    np.testing.assert_allclose(hbb.numpy(), np.zeros((2, 2)))


def test_hessian_forward_over_reverse_matches():
    h = F.hessian(energy, t64(X_NP), vectorize=True, outer_jacobian_strategy="forward-mode")
    np.testing.assert_allclose(h.numpy(), energy_hessian(X_NP), rtol=1e-10, atol=1e-12)


def test_hessian_needs_a_single_element():
    with pytest.raises(RuntimeError, match="The Tensor returned by the function given to hessian should contain"):
        F.hessian(cube, t64([1.0, 2.0]))


@pytest.mark.parametrize("fn", [F.hvp, F.vhp])
def test_hvp_and_vhp_against_the_analytic_hessian(fn):
    out, hv = fn(energy, t64(X_NP), t64(V_NP))
    assert np.isclose(out.item(), (np.tanh(W_NP @ X_NP) ** 2).sum())
    np.testing.assert_allclose(hv.numpy(), energy_hessian(X_NP) @ V_NP, rtol=1e-10)


@pytest.mark.parametrize("fn", [F.hvp, F.vhp])
def test_hvp_vhp_create_graph_gives_third_derivatives(fn):
    x = t64([0.7], requires_grad=True)
    _, hv = fn(lambda t: (t**4).sum(), x, t64([1.0]), create_graph=True)
    np.testing.assert_allclose(hv.detach().numpy(), [12 * 0.49])
    (third,) = mg.autograd.grad(hv.sum(), x)
    np.testing.assert_allclose(third.numpy(), [24 * 0.7])


def test_hvp_strict_on_a_linear_function():
    with pytest.raises(RuntimeError, match="found that the jacobian of the user-provided function with respect to"):
        F.hvp(lambda t: (t * 2).sum(), t64([1.0, 2.0]), t64([1.0, 1.0]), strict=True)
    _, hv = F.hvp(lambda t: (t * 2).sum(), t64([1.0, 2.0]), t64([1.0, 1.0]))
    assert hv.tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError, match="^The Tensor returned by the function given to hvp should contain"):
        F.hvp(cube, t64([1.0, 2.0]), t64([1.0, 1.0]))


# ---------------------------------------------------------------- against PyTorch
@pytest.mark.torch
def test_against_pytorch_on_a_two_input_function():
    torch = pytest.importorskip("torch")
    import torch.autograd.functional as TF

    a_np, b_np = RNG.standard_normal(3), RNG.standard_normal(3)
    v_np = (RNG.standard_normal(3), RNG.standard_normal(3))

    def f(lib):
        return lambda a, b: ((a * b).tanh() + a**2 * b.sigmoid()).sum()

    ours = (t64(a_np), t64(b_np))
    theirs = (torch.tensor(a_np), torch.tensor(b_np))
    for name in ("hvp", "vhp"):
        _, r1 = getattr(F, name)(f(mg), ours, tuple(t64(v) for v in v_np))
        _, r2 = getattr(TF, name)(f(torch), theirs, tuple(torch.tensor(v) for v in v_np))
        for x, y in zip(r1, r2):
            np.testing.assert_allclose(x.numpy(), y.numpy(), rtol=1e-10)
    h1 = F.hessian(f(mg), ours)
    h2 = TF.hessian(f(torch), theirs)
    for row1, row2 in zip(h1, h2):
        for x, y in zip(row1, row2):
            np.testing.assert_allclose(x.numpy(), y.numpy(), rtol=1e-10)


def test_gradcheck_of_the_functional_results():
    x = rand64(3, seed=12)
    assert mg.autograd.gradcheck(lambda t: F.jacobian(cube, t, create_graph=True), (x,))
    assert mg.autograd.gradcheck(lambda t: F.hvp(energy, t, t64(V_NP), create_graph=True)[1], (x,))


def test_a_vectorized_jacobian_of_the_identity_is_its_own_array_each_call():
    x = mg.tensor(np.arange(4.0))
    first = F.jacobian(lambda v: v, x, vectorize=True)
    second = F.jacobian(lambda v: v * 1.0, x, vectorize=True)
    assert not np.shares_memory(first.array, second.array)
    first.array[0, 0] = 7.0  # the user's to write
    np.testing.assert_array_equal(F.jacobian(lambda v: v, x, vectorize=True).numpy(), np.eye(4))
