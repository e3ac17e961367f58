"""log_softmax: one new array forward, its input gradient one node (log_softmax_grad) with its own rules;
values, gradients and second derivatives against PyTorch, gradchecks in float64."""

import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.nn import functional as F
from minigrad.ops.reduction import log_softmax_grad
from tests.conftest import rand64
from tests.torch_oracle import arr, check

SHAPES_AND_DIMS = [((7, 5), 1), ((7, 5), 0), ((3, 4, 5), 1), ((3, 4, 5), -1), ((6,), 0)]


@pytest.mark.parametrize("shape, dim", SHAPES_AND_DIMS, ids=str)
def test_log_softmax_values_and_gradients_match_torch(shape, dim):
    pytest.importorskip("torch")
    weights = np.random.default_rng(1).standard_normal(shape)

    def weighted(lib, x):
        return lib.nn.functional.log_softmax(x, dim) * lib.tensor(weights)

    check(weighted, arr(*shape, low=-4, high=4), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("shape", [(7, 5), (70, 1000), (2, 5, 3)], ids=str)
def test_log_softmax_then_nll_loss_float32_keeps_float32_and_torchs_values_and_gradients(shape):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(shape) * 4).astype(np.float32)
    t = rng.integers(0, shape[1], (shape[0],) + shape[2:])
    mine_x, theirs_x = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    mine = F.nll_loss(F.log_softmax(mine_x, 1), mg.tensor(t))
    theirs = torch.nn.functional.nll_loss(torch.log_softmax(theirs_x, 1), torch.from_numpy(t))
    mine.backward()
    theirs.backward()
    assert mine.dtype == mg.float32 and mine_x.grad.dtype == mg.float32
    np.testing.assert_allclose(mine.array, theirs.detach().numpy(), rtol=2e-6)
    np.testing.assert_allclose(mine_x.grad.array, theirs_x.grad.numpy(), rtol=2e-5, atol=2e-8)
    np.testing.assert_array_equal(mine_x.array, x)


@pytest.mark.parametrize("shape, dim", SHAPES_AND_DIMS, ids=str)
def test_log_softmax_gradchecks_twice(shape, dim):
    weights = mg.tensor(np.random.default_rng(2).standard_normal(shape))
    assert gradcheck(lambda x: F.log_softmax(x, dim) * weights, (rand64(*shape),))
    assert gradgradcheck(lambda x: F.log_softmax(x, dim) * weights, (rand64(*shape),))


def test_log_softmax_grad_is_torchs_input_gradient_and_differentiates_in_both_inputs():
    torch = pytest.importorskip("torch")
    y_of = {"mg": lambda x: F.log_softmax(x, 1), "torch": lambda x: torch.log_softmax(x, 1)}
    rng = np.random.default_rng(4)
    x, g, outer = rng.standard_normal((4, 6)), rng.standard_normal((4, 6)), rng.standard_normal((4, 6))
    mine_x, mine_g = mg.tensor(x, requires_grad=True), mg.tensor(g, requires_grad=True)
    theirs_x, theirs_g = torch.tensor(x, requires_grad=True), torch.tensor(g, requires_grad=True)
    mine = log_softmax_grad(mine_g, y_of["mg"](mine_x), (1,))
    theirs = torch._log_softmax_backward_data(theirs_g, y_of["torch"](theirs_x), 1, torch.float64)
    np.testing.assert_allclose(mine.array, theirs.detach().numpy(), rtol=1e-12, atol=1e-14)
    mine_grads = mg.autograd.grad((mine * mg.tensor(outer)).sum(), (mine_x, mine_g))
    theirs_grads = torch.autograd.grad((theirs * torch.tensor(outer)).sum(), (theirs_x, theirs_g))
    for a, b in zip(mine_grads, theirs_grads):
        np.testing.assert_allclose(a.array, b.numpy(), rtol=1e-10, atol=1e-13)
    assert gradcheck(lambda g, x: log_softmax_grad(g, F.log_softmax(x, 1), (1,)), (rand64(4, 6), rand64(4, 6)))
    assert gradgradcheck(lambda g, x: log_softmax_grad(g, F.log_softmax(x, 1), (1,)), (rand64(4, 6), rand64(4, 6)))


def test_log_softmax_grad_forward_mode_is_its_definition():
    g, x = rand64(3, 5, requires_grad=False), rand64(3, 5, requires_grad=False)
    tg, tx = rand64(3, 5, requires_grad=False), rand64(3, 5, requires_grad=False)

    def definition(g, x):
        y = F.log_softmax(x, 1)
        return g - y.exp() * g.sum(dim=1, keepdim=True)

    _, mine = mg.func.jvp(lambda g, x: log_softmax_grad(g, F.log_softmax(x, 1), (1,)), (g, x), (tg, tx))
    _, reference = mg.func.jvp(definition, (g, x), (tg, tx))
    np.testing.assert_allclose(mine.array, reference.array, rtol=1e-12, atol=1e-14)


def test_log_softmax_hessian_and_per_example_gradients_match_torch_func():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((4, 3, 5)), rng.standard_normal((3, 5))

    def mine(a):
        return (F.log_softmax(a, 1) * mg.tensor(w)).sum()

    def theirs(a):
        return (torch.log_softmax(a, 1) * torch.tensor(w)).sum()

    per_example = mg.func.vmap(mg.func.grad(mine))(mg.tensor(x))
    np.testing.assert_allclose(
        per_example.array, torch.func.vmap(torch.func.grad(theirs))(torch.tensor(x)).numpy(), atol=1e-14
    )
    reference = torch.func.hessian(theirs)(torch.tensor(x[0])).numpy()
    np.testing.assert_allclose(mg.func.hessian(mine)(mg.tensor(x[0])).array, reference, atol=1e-14)
    np.testing.assert_allclose(mg.func.jacfwd(mg.func.jacrev(mine))(mg.tensor(x[0])).array, reference, atol=1e-14)


def test_log_softmax_keeps_its_values_between_calls():
    """The forward's exponentials are scratch memory used again by the next call: the backward reads them only
    while no later call has written over them, and a retained graph gives the same gradient each time."""
    x, weights = rand64(6, 5), mg.tensor(np.random.default_rng(6).standard_normal((6, 5)))
    y = F.log_softmax(x, 1)
    kept = y.array.copy()
    (before,) = mg.autograd.grad((y * weights).sum(), x, retain_graph=True)
    other = F.log_softmax(rand64(6, 5) * 3, 1)
    np.testing.assert_array_equal(y.array, kept)
    (after,) = mg.autograd.grad((y * weights).sum(), x, retain_graph=True)
    np.testing.assert_allclose(after.array, before.array, rtol=1e-13, atol=1e-16)
    other.sum().backward()
    (again,) = mg.autograd.grad((y * weights).sum(), x)
    np.testing.assert_array_equal(again.array, after.array)


def test_log_softmax_of_a_slice_of_only_minus_inf_is_nan_as_torchs_and_its_backward_is_quiet():
    torch = pytest.importorskip("torch")
    x = np.array([[-np.inf, -np.inf, -np.inf], [0.0, -np.inf, 1.0]])
    mine_x, theirs_x = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # log(0) in the forward, as before
        mine = F.log_softmax(mine_x, 1)
    theirs = torch.log_softmax(theirs_x, 1)
    np.testing.assert_array_equal(mine.array, theirs.detach().numpy())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mine.sum().backward()
    theirs.sum().backward()
    np.testing.assert_array_equal(mine_x.grad.array, theirs_x.grad.numpy())


@pytest.mark.parametrize("dim", [0, -1])
def test_log_softmax_of_a_zero_dim_tensor_is_zero_with_zero_gradient(dim):
    # NumPy gives a 0-d operation's result as a scalar; the forward must still make (and leave) an array
    x = mg.tensor(0.3, dtype=mg.float64, requires_grad=True)
    y = F.log_softmax(x, dim)
    assert y.shape == () and y.item() == 0.0
    (y * 2.0).backward()
    assert x.grad.shape == () and x.grad.item() == 0.0
    assert gradcheck(lambda t: F.log_softmax(t, dim), (mg.tensor(-1.5, dtype=mg.float64, requires_grad=True),))
