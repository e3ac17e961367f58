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


FUNCTIONS = [
    ("relu", ()),
    ("relu6", ()),
    ("leaky_relu", (0.2,)),
    ("elu", (0.5,)),
    ("hardtanh", (-0.5, 0.5)),
    ("hardsigmoid", ()),
    ("hardswish", ()),
    ("silu", ()),
    ("mish", ()),
]


@pytest.mark.parametrize(("name", "args"), FUNCTIONS)
def test_functional_inplace_writes_its_input_with_the_out_of_place_values_and_gradient(name, args):
    fn = getattr(mg.nn.functional, name)
    w = np.linspace(-2.0, 2.0, 7) * 3 - 0.9  # no point on a kink
    weights = mg.tensor(np.arange(7.0))
    grads = []
    for inplace in (False, True):
        leaf = mg.tensor(w, requires_grad=True)
        y = leaf * 1.0
        out = fn(y, *args, inplace=inplace)
        assert (out is y) is inplace
        (out * weights).sum().backward()
        grads.append((out.detach().numpy().copy(), leaf.grad.numpy().copy()))
    np.testing.assert_array_equal(grads[0][0], grads[1][0])
    np.testing.assert_array_equal(grads[0][1], grads[1][1])
    assert mg.autograd.gradcheck(lambda x: fn(x * 1.0, *args, inplace=True), (mg.tensor(w, requires_grad=True),))


@pytest.mark.parametrize(("name", "args"), FUNCTIONS)
def test_functional_inplace_refuses_a_leaf_that_requires_grad_and_leaves_it(name, args):
    leaf = mg.tensor(np.array([-1.0, 2.0]), requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        getattr(mg.nn.functional, name)(leaf, *args, inplace=True)
    assert leaf.detach().numpy().tolist() == [-1.0, 2.0] and leaf.grad is None


def test_functional_inplace_must_be_a_bool():
    with pytest.raises(TypeError, match=r"relu\(\): argument 'inplace' must be bool, not int"):
        mg.nn.functional.relu(mg.ones(2), inplace=1)


def test_every_functional_that_torch_gives_inplace_takes_it():
    import inspect

    torch_functional = pytest.importorskip("torch.nn.functional")
    for name in dir(torch_functional):
        fn = getattr(torch_functional, name)
        try:
            takes = "inplace" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            continue
        if takes and not name.startswith("_"):
            assert "inplace" in inspect.signature(getattr(mg.nn.functional, name)).parameters, name


def test_hardtanh_takes_the_old_names_with_torchs_warning_and_refuses_an_empty_range():
    with pytest.warns(UserWarning, match="keyword argument `min_value` is deprecated and renamed to `min_val`"):
        layer = mg.nn.Hardtanh(min_value=-0.5, max_value=0.5)
    assert (layer.min_val, layer.max_val) == (-0.5, 0.5)
    with pytest.raises(AssertionError, match=r"max_val \(0.0\) must be greater than min_val \(0.0\)"):
        mg.nn.Hardtanh(0.0, 0.0)
