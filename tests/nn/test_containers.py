"""ModuleDict, ParameterList, ParameterDict: registered, so parameters(), state_dict() and optimizers see them."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Linear(2, 3)})
        self.scales = nn.ParameterList([mg.ones(2), nn.Parameter(mg.zeros(1))])
        self.extra = nn.ParameterDict({"shift": mg.zeros(3)})


def test_entries_are_registered_and_named():
    net = Net()
    assert list(net.state_dict()) == [
        "heads.a.weight",
        "heads.a.bias",
        "heads.b.weight",
        "heads.b.bias",
        "scales.0",
        "scales.1",
        "extra.shift",
    ]
    assert len(list(net.parameters())) == 7
    assert all(isinstance(p, nn.Parameter) for p in net.scales) and net.scales[0].name == "scales.0"
    assert net.extra["shift"].name == "extra.shift"


def test_state_dict_keys_match_torchs():
    torch = pytest.importorskip("torch")

    class TorchNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.heads = torch.nn.ModuleDict({"a": torch.nn.Linear(2, 1), "b": torch.nn.Linear(2, 3)})
            self.scales = torch.nn.ParameterList([torch.ones(2), torch.nn.Parameter(torch.zeros(1))])
            self.extra = torch.nn.ParameterDict({"shift": torch.zeros(3)})

    assert list(Net().state_dict()) == list(TorchNet().state_dict())


def test_an_optimizer_trains_the_entries():
    net = Net()
    opt = mg.optim.SGD(net.parameters(), lr=0.5)
    loss = (net.scales[0] * 2).sum() + net.extra["shift"].sum() + net.heads["a"](mg.ones(1, 2)).sum()
    loss.backward()
    opt.step()
    np.testing.assert_allclose(net.scales[0].detach().numpy(), [0.0, 0.0])
    np.testing.assert_allclose(net.extra["shift"].detach().numpy(), [-0.5, -0.5, -0.5])


def test_module_dict_behaves_as_a_dict():
    d = nn.ModuleDict()
    d["x"] = nn.ReLU()
    d.update([("y", nn.Tanh())])
    assert list(d) == ["x", "y"] and "x" in d and len(d) == 2
    assert [k for k, _ in d.items()] == ["x", "y"]
    assert isinstance(d.pop("x"), nn.ReLU) and list(d.keys()) == ["y"]
    with pytest.raises(KeyError):
        d["missing"]
    with pytest.raises(TypeError, match="is not a Module subclass"):
        d["z"] = mg.ones(1)
    d.clear()
    assert len(d) == 0


def test_parameter_list_and_dict_behave_as_list_and_dict():
    ps = nn.ParameterList()
    ps.append(mg.ones(1)).extend([mg.zeros(2), 3])
    assert len(ps) == 3 and ps[-1] == 3 and len(list(ps.parameters())) == 2
    assert len(ps[:2]) == 2
    ps[0] = mg.full((1,), 5.0)
    assert ps[0].item() == 5.0 and isinstance(ps[0], nn.Parameter)
    with pytest.raises(IndexError):
        ps[3]
    pd = nn.ParameterDict()
    pd["w"] = mg.ones(2)
    assert pd.keys() == ["w"] and pd.get("v") is None and "w" in pd
    with pytest.raises(KeyError):
        pd["v"]
    assert isinstance(pd.pop("w"), nn.Parameter) and len(pd) == 0 and not list(pd.parameters())
    assert "Parameter containing: [float32 of size (2,)]" in repr(nn.ParameterDict({"a": mg.ones(2)}))


def test_loading_a_state_dict_restores_the_entries():
    a, b = Net(), Net()
    with mg.no_grad():
        a.scales[0].fill_(3.0)
        a.extra["shift"].fill_(-1.0)
    b.load_state_dict(a.state_dict())
    assert b.scales[0].tolist() == [3.0, 3.0] and b.extra["shift"].tolist() == [-1.0] * 3
