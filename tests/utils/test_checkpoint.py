"""utils.checkpoint: the forward keeps no intermediate values; backward recomputes them (visible as the
nodes it creates and a nested pass) and gives the gradients an unchecked run gives, to inputs and
parameters, with dropout replayed."""

import functools
import types
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.trace import record
from minigrad.utils.checkpoint import checkpoint, checkpoint_sequential


def _block():
    mg.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Dropout(0.3), nn.Linear(8, 4))


def _gradients(block, x, run):
    for p in block.parameters():
        p.grad = None
    x.grad = None
    mg.manual_seed(1)  # the dropout mask
    y = run(x)
    (y**2).sum().backward()
    return [x.grad.numpy().copy()] + [p.grad.numpy().copy() for p in block.parameters()]


@pytest.mark.parametrize(
    "make_run",
    [
        lambda block: lambda x: checkpoint(block, x, use_reentrant=False),
        lambda block: lambda x: checkpoint(block.forward, x, use_reentrant=False),
        lambda block: lambda x: checkpoint(lambda t: block(t), x, use_reentrant=False),
        lambda block: lambda x: checkpoint(functools.partial(nn.Sequential.forward, block), x, use_reentrant=False),
        lambda block: lambda x: checkpoint(block, x, use_reentrant=True),
        lambda block: lambda x: checkpoint_sequential(block, 2, x, use_reentrant=False),
    ],
    ids=["module", "bound method", "closure", "partial", "reentrant", "sequential"],
)
def test_gradients_equal_an_unchecked_run(make_run):
    block = _block()
    x = mg.randn(3, 4, dtype=mg.float64, requires_grad=True)
    block.to(mg.float64)
    plain = _gradients(block, x, block)
    checked = _gradients(block, x, make_run(block))
    for ours, reference in zip(checked, plain):
        np.testing.assert_array_equal(ours, reference)


def test_the_forward_keeps_one_node():
    block = _block()
    x = mg.randn(3, 4, requires_grad=True)
    y = checkpoint(block, x, use_reentrant=False)
    assert repr(y.grad_fn) == "<CheckpointBackward>"
    assert set(map(id, y.parents)) == {id(x)} | {id(p) for p in block.parameters()}  # no intermediate node


def test_the_recomputation_is_visible_in_the_trace():
    mg.manual_seed(0)
    block = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 4))
    x = mg.randn(3, 4, requires_grad=True)
    y = checkpoint(block, x, use_reentrant=False).sum()
    with record() as trace:
        y.backward()
    passes = [e for e in trace.events if e.kind == "pass_started"]
    assert [e.depth for e in passes] == [1, 2]  # the pass through the recomputed graph runs inside the outer one
    recomputed = [e.info.op for e in trace.events if e.kind == "node_created" and e.depth == 1]
    assert recomputed == ["linear", "tanh", "linear"]  # the forward again, during the outer pass


def test_a_tensor_it_cannot_see_still_gets_its_gradient():
    holder = types.SimpleNamespace(w=mg.tensor([2.0, 3.0], requires_grad=True))
    x = mg.tensor([1.0, 1.0], requires_grad=True)
    checkpoint(lambda t: t * t * holder.w, x, use_reentrant=False).sum().backward()
    np.testing.assert_array_equal(holder.w.grad.numpy(), [1.0, 1.0])  # accumulated during the nested pass
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 6.0])


def test_parameters_reach_their_gradient_when_the_input_needs_none():
    block = _block()
    checkpoint(block, mg.randn(2, 4), use_reentrant=False).sum().backward()
    assert all(p.grad is not None for p in block.parameters())


def test_double_backward_through_a_checkpoint():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    (g,) = mg.autograd.grad(checkpoint(lambda t: (t**3).sum(), w, use_reentrant=False), w, create_graph=True)
    (h,) = mg.autograd.grad(g.sum(), w)
    np.testing.assert_allclose(g.detach().numpy(), [3.0, 12.0])
    np.testing.assert_allclose(h.numpy(), [6.0, 12.0])


def test_grad_gives_parameter_gradients_without_touching_grad():
    block = _block()
    x = mg.randn(3, 4, requires_grad=True)
    y = checkpoint(block, x, use_reentrant=False).sum()
    weight = block[0].weight
    (g,) = mg.autograd.grad(y, weight)
    assert g.shape == weight.shape and weight.grad is None


def test_keyword_arguments_and_torchs_refusals():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = checkpoint(lambda t, scale: t * scale, x, use_reentrant=False, scale=3.0)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    with pytest.raises(ValueError, match="Unexpected keyword arguments: scale"):
        checkpoint(lambda t, scale: t * scale, x, use_reentrant=True, scale=3.0)
    with pytest.warns(UserWarning, match="use_reentrant parameter should be passed explicitly"):
        checkpoint(lambda t: t * 2, x)
    with pytest.raises(ValueError, match="only supported when use_reentrant=False"):
        checkpoint(lambda t: t, x, use_reentrant=True, debug=True)
    with pytest.raises(TypeError, match="must return a Tensor or a tuple of Tensors, but returned Tensor, int"):
        checkpoint(lambda t: (t * 2, 3), x, use_reentrant=False)


def test_matches_torchs_checkpoint():
    torch = pytest.importorskip("torch")
    block = _block().to(mg.float64)
    tblock = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 4)).double()
    ours_block = nn.Sequential(block[0], block[1], block[3])
    tblock.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours_block.state_dict().items()})
    start = np.random.default_rng(0).standard_normal((3, 4))
    x, tx = mg.tensor(start, requires_grad=True), torch.tensor(start, requires_grad=True)
    (checkpoint(ours_block, x, use_reentrant=False) ** 2).sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (torch.utils.checkpoint.checkpoint(tblock, tx, use_reentrant=False) ** 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12)
    for ours, theirs in zip(ours_block.parameters(), tblock.parameters()):
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-12)


def test_torch_utils_checkpoint_is_this_module():
    from minigrad.compat import install_torch

    with install_torch():
        import torch.utils.checkpoint
        from torch.utils.checkpoint import checkpoint as torch_checkpoint

        assert torch_checkpoint is checkpoint and torch.utils.checkpoint.checkpoint_sequential is checkpoint_sequential
