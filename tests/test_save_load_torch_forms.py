"""save/load as PyTorch programs call them: a whole Module is refused with the way to save it,
torch.load's weights_only= and map_location= forms are accepted, and a training checkpoint (model,
optimizer and scheduler state dicts) round-trips."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


@pytest.mark.parametrize(
    "make",
    [
        lambda: nn.Linear(2, 3),
        lambda: mg.optim.SGD(nn.Linear(2, 3).parameters(), lr=0.1),
        lambda: {"model": nn.Sequential(nn.Linear(2, 2))},
    ],
    ids=["module", "optimizer", "module in a dict"],
)
def test_a_whole_object_is_refused_with_the_way_to_save_it(make, tmp_path):
    with pytest.raises(TypeError, match=r"never pickles objects\. Save its state_dict\(\) instead"):
        mg.save(make(), tmp_path / "model.pt")


@pytest.mark.parametrize(
    "options",
    [
        {"weights_only": True},
        {"weights_only": False},
        {"map_location": "cpu"},
        {"map_location": mg.device("cpu")},
        {"map_location": {"cuda:0": "cpu"}},
        {"map_location": lambda storage, location: storage},
    ],
    ids=["weights_only", "not weights_only", "map to 'cpu'", "map to a device", "map by a dict", "map by a function"],
)
def test_torch_loads_forms_are_accepted(options, tmp_path):
    model = nn.Linear(2, 3)
    mg.save(model.state_dict(), tmp_path / "w.pt")
    loaded = mg.load(tmp_path / "w.pt", **options)
    assert loaded["weight"].device == mg.device("cpu")
    np.testing.assert_array_equal(loaded["weight"].numpy(), model.weight.detach().numpy())


def test_a_training_checkpoint_round_trips(tmp_path):
    def build():
        mg.manual_seed(0)
        model = nn.Linear(3, 1)
        opt = mg.optim.NAdam(model.parameters(), lr=0.05)
        sched = mg.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=10)
        return model, opt, sched

    def train(model, opt, sched, steps):
        x = mg.tensor(np.linspace(-1, 1, 12).reshape(4, 3), dtype=mg.float32)
        for _ in range(steps):
            opt.zero_grad()
            (model(x) ** 2).mean().backward()
            opt.step()
            sched.step()

    model, opt, sched = build()
    train(model, opt, sched, 7)
    expected = model.weight.detach().numpy().copy()

    model, opt, sched = build()
    train(model, opt, sched, 4)
    state = {"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(), "epoch": 4}
    mg.save(state, tmp_path / "ckpt.pt")
    model, opt, sched = build()
    loaded = mg.load(tmp_path / "ckpt.pt", weights_only=True)
    model.load_state_dict(loaded["model"])
    opt.load_state_dict(loaded["optimizer"])
    sched.load_state_dict(loaded["scheduler"])
    train(model, opt, sched, 3)
    np.testing.assert_array_equal(model.weight.detach().numpy(), expected)
