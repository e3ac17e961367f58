"""LBFGS (closure, strong Wolfe), utils.checkpoint and the DataLoader's collation on each device: the
values equal the CPU run's and every tensor and LBFGS's history stays on the device."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F
from minigrad.utils.checkpoint import checkpoint

from .conftest import placement_check


def _model(device):
    mg.manual_seed(3)
    return nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1)).to(mg.float64).to(device)


def _data(device):
    rng = np.random.default_rng(2)
    x = mg.tensor(rng.standard_normal((10, 3)), dtype=mg.float64, device=device)
    return x, mg.tensor(rng.standard_normal((10, 1)), dtype=mg.float64, device=device)


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs(device, line_search_fn):
    def run(dev):
        check = placement_check(dev)
        model, (x, y) = _model(dev), _data(dev)
        opt = mg.optim.LBFGS(model.parameters(), max_iter=6, history_size=3, line_search_fn=line_search_fn)

        def closure():
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            return loss

        losses = [opt.step(closure).item() for _ in range(3)]
        state = opt.state[model[0].weight]
        for array in [state["d"], state["prev_flat_grad"], *state["old_dirs"], *state["old_stps"]]:
            check(array)
        for p in model.parameters():
            check(p)
        return losses, [mg.backend.to_host(p.array) for p in model.parameters()]

    expected = run("cpu")
    if device != "cpu":
        got = run(device)
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-9)
        for g, e in zip(got[1], expected[1]):
            np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-12)


def test_checkpoint(device):
    def run(dev):
        check = placement_check(dev)
        model, (x, _) = _model(dev), _data(dev)
        x.requires_grad_()
        (checkpoint(model, x, use_reentrant=False) ** 2).sum().backward()
        for t in [x, *model.parameters()]:
            check(t)
        return [mg.backend.to_host(t.grad.array) for t in [x, *model.parameters()]]

    expected = run("cpu")
    if device != "cpu":
        for g, e in zip(run(device), expected):
            np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-12)


def test_collation_keeps_the_items_device(device):
    check = placement_check(device)

    class Items(mg.data.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return {"x": mg.full((2,), float(i), device=device), "y": i}

    batches = list(mg.data.DataLoader(Items(), batch_size=2, sampler=mg.data.SequentialSampler(range(5))))
    check(batches[0]["x"])
    assert mg.backend.to_host(batches[2]["x"].array).tolist() == [[4.0, 4.0]] and batches[1]["y"].tolist() == [2, 3]
