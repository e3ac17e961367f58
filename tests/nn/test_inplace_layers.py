"""``inplace=True`` on the activation layers and Dropout (torch code writes ``nn.ReLU(inplace=True)``): the
input is overwritten with the result, backward through the graph gives torch's gradients, reprs as torch's."""

import numpy as np
import pytest

import minigrad as mg

LAYERS = [
    ("ReLU", ()),
    ("ReLU6", ()),
    ("LeakyReLU", (0.2,)),
    ("ELU", (0.5,)),
    ("Hardtanh", (-0.5, 0.5)),
    ("Hardsigmoid", ()),
    ("Hardswish", ()),
    ("SiLU", ()),
    ("Mish", ()),
    ("SELU", ()),
    ("CELU", (0.7,)),
    ("Threshold", (0.1, -1.0)),
]


@pytest.mark.parametrize(("name", "args"), LAYERS)
def test_inplace_layer_writes_its_input_and_backpropagates_as_torch(name, args):
    torch = pytest.importorskip("torch")
    w = np.linspace(-2.0, 2.0, 7)
    results = []
    for lib in (mg, torch):
        leaf = lib.tensor(w, requires_grad=True)
        y = leaf * 3 - 0.9  # no point on a kink (hardswish at -3 is 0 in torch)
        out = getattr(lib.nn, name)(*args, inplace=True)(y)
        assert out is y
        (out * lib.tensor(np.arange(7.0))).sum().backward()
        results.append((out.detach().numpy().copy(), leaf.grad.numpy().copy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-7, atol=1e-12)


@pytest.mark.parametrize(("name", "args"), LAYERS)
def test_reprs_with_inplace_as_torch(name, args):
    torch = pytest.importorskip("torch")
    assert repr(getattr(mg.nn, name)(*args, inplace=True)) == repr(getattr(torch.nn, name)(*args, inplace=True))
    assert repr(getattr(mg.nn, name)(*args)) == repr(getattr(torch.nn, name)(*args))


def test_inplace_dropout_writes_its_input_in_training_only():
    mg.manual_seed(0)
    w = mg.ones(200, requires_grad=True)
    y = w * 1.0
    layer = mg.nn.Dropout(0.5, inplace=True)
    assert repr(layer) == "Dropout(p=0.5, inplace=True)"
    assert layer(y) is y
    kept = y.detach().numpy() != 0
    assert 0 < kept.sum() < 200
    y.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), kept * 2.0)
    layer.eval()
    z = mg.ones(3)
    assert layer(z) is z


def test_functional_dropout_inplace_writes_its_input():
    mg.manual_seed(0)
    w = mg.ones(100, requires_grad=True)
    y = w * 1.0
    assert mg.nn.functional.dropout(y, 0.3, True, True) is y
    y.sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), (y.detach().numpy() != 0) / 0.7)
    z = mg.ones(3)
    assert mg.nn.functional.dropout(z, 0.3, False, True) is z
