"""Autograd paths on each device: backward(), grad() (create_graph, is_grads_batched), hooks,
Function, the functional API, anomaly mode, gradcheck; factories, nn.init, dropout, state dicts.

Run on "cpu", on "strict" (the fake CUDA device that refuses host fallbacks) and on a real GPU;
every result must stay on the device and match the CPU values.
"""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.autograd import functional as AF
from minigrad.backend import to_host
from minigrad.nn import functional as F

from .conftest import placement_check


def _x(device, *shape, seed=0):
    rng = np.random.default_rng(seed)
    return mg.tensor(rng.standard_normal(shape), dtype=mg.float64, device=device, requires_grad=True)


def _close(t, expected):
    np.testing.assert_allclose(to_host(t.array), expected, rtol=1e-9, atol=1e-12)


def _both(fn, device):
    """fn(device, check) on the CPU and on ``device``; the host values must agree."""
    expected = fn("cpu", placement_check("cpu"))
    got = fn(device, placement_check(device))
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-12)


def _h(t):
    return np.asarray(to_host(t.array))


def test_backward_accumulates_and_retain_grad(device):
    def run(dev, check):
        x = _x(dev, 3, 4)
        y = (x * 2).tanh()
        y.retain_grad()
        z = y.sum() * 3
        z.backward(retain_graph=True)
        z.backward()
        check(x), check(y)
        return [_h(x.grad), _h(y.grad)]

    _both(run, device)


def test_grad_create_graph_third_order(device):
    def run(dev, check):
        x = _x(dev, 5)
        y = (x**3).sum()
        (g,) = mg.autograd.grad(y, x, create_graph=True)
        (gg,) = mg.autograd.grad(g.sum(), x, create_graph=True)
        (ggg,) = mg.autograd.grad(gg.sum(), x)
        for t in (g, gg, ggg):
            check(t)
        return [_h(g), _h(gg), _h(ggg)]

    _both(run, device)


def test_grad_is_grads_batched(device):
    def run(dev, check):
        x = _x(dev, 3)
        y = x.exp() * x
        seeds = mg.eye(3, dtype=mg.float64, device=dev)
        (jac,) = mg.autograd.grad(y, x, seeds, is_grads_batched=True)
        check(jac)
        return [_h(jac)]

    _both(run, device)


def test_hooks_and_backward_inputs(device):
    def run(dev, check):
        x, w = _x(dev, 2, 3), _x(dev, 3, seed=1)
        seen = []
        x.register_hook(lambda g: seen.append(g) or g * 2)
        (x * w).sum().backward(inputs=[x])
        check(x), check(seen[0])
        assert w.grad is None
        return [_h(x.grad), _h(seen[0])]

    _both(run, device)


class _Cube(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return x * x * x * k

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x * x * ctx.k, None


def test_custom_function_double_backward(device):
    def run(dev, check):
        x = _x(dev, 4)
        y = _Cube.apply(x, 0.5)
        (g,) = mg.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = mg.autograd.grad(g.sum(), x)
        check(y), check(g), check(gg)
        return [_h(y), _h(g), _h(gg)]

    _both(run, device)


def test_functional_api(device):
    def run(dev, check):
        x, v = _x(dev, 3), _x(dev, 3, seed=2).detach()

        def fn(t):
            return (t.sin() * t).sum()

        jac = AF.jacobian(lambda t: t.exp() * t, x)
        hes = AF.hessian(fn, x)
        _, vj = AF.vjp(lambda t: t.exp(), x, v)
        _, jv = AF.jvp(lambda t: t.exp(), x, v)
        _, hv = AF.hvp(fn, x, v)
        for t in (jac, hes, vj, jv, hv):
            check(t)
        return [_h(jac), _h(hes), _h(vj), _h(jv), _h(hv)]

    _both(run, device)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_anomaly_mode_names_the_op(device):
    x = mg.tensor([1.0, -1.0], dtype=mg.float64, device=device, requires_grad=True)
    with pytest.warns(UserWarning), mg.autograd.detect_anomaly():
        y = x.sqrt().sum()
        with pytest.raises(RuntimeError, match="Sqrt"):
            y.backward()


def test_gradcheck_and_gradgradcheck_float64(device):
    x, w = _x(device, 2, 3), _x(device, 3, 2, seed=1)
    assert mg.autograd.gradcheck(lambda a, b: (a @ b).tanh(), (x, w))
    assert mg.autograd.gradgradcheck(lambda a, b: (a @ b).sigmoid(), (x, w))


def test_no_grad_results_stay_on_device(device):
    check = placement_check(device)
    x = _x(device, 3)
    with mg.no_grad():
        y = x * 2 + 1
    check(y)
    assert not y.requires_grad


def test_factories_on_device(device):
    check = placement_check(device)
    made = [
        mg.zeros(2, 3, device=device),
        mg.ones(2, device=device),
        mg.full((2,), 1.5, device=device),
        mg.empty(3, device=device),
        mg.arange(5, device=device),
        mg.linspace(0, 1, 4, device=device),
        mg.eye(3, device=device),
        mg.rand(2, device=device),
        mg.randn(2, 2, device=device),
        mg.randint(0, 5, (3,), device=device),
    ]
    like = mg.zeros(2, device=device)
    made += [mg.zeros_like(like), mg.ones_like(like), mg.rand_like(like), mg.randn_like(like), mg.full_like(like, 2)]
    for t in made:
        check(t)
    np.testing.assert_array_equal(to_host(made[4].array), np.arange(5))


def test_nn_init_dropout_and_parameters_created_on_device(device):
    check = placement_check(device)
    lin = nn.Linear(4, 3, device=device)
    emb = nn.Embedding(5, 2, device=device)
    for t in (lin.weight, lin.bias, emb.weight):
        check(t)
    for init in (nn.init.xavier_uniform_, nn.init.xavier_normal_, nn.init.kaiming_uniform_, nn.init.kaiming_normal_):
        check(init(lin.weight))
    check(nn.init.normal_(lin.bias))
    check(nn.init.constant_(lin.bias, 0.5))
    x = mg.ones(200, dtype=mg.float64, device=device, requires_grad=True)
    y = F.dropout(x, 0.5)
    y.sum().backward()
    check(y), check(x)
    kept = to_host(y.array) != 0
    np.testing.assert_array_equal(to_host(x.grad.array), kept * 2.0)
    assert 50 < kept.sum() < 150


def test_module_state_dict_roundtrip_across_devices(device):
    check = placement_check(device)
    mg.manual_seed(0)
    src = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    dst = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).to(device)
    dst.load_state_dict(src.state_dict())
    for t in list(dst.parameters()) + list(dst.buffers()):
        check(t)
    for k, v in dst.state_dict().items():
        np.testing.assert_array_equal(to_host(v.array), to_host(src.state_dict()[k].array))
    back = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    back.load_state_dict(dst.state_dict())
    placement_check("cpu")(back[0].weight)


def test_module_save_load_keeps_the_device(device, tmp_path):
    check = placement_check(device)
    mg.manual_seed(0)
    model = nn.Linear(3, 2).to(device)
    model.save(tmp_path / "m.npz")
    other = nn.Linear(3, 2).to(device)
    other.load(tmp_path / "m.npz")
    check(other.weight)
    np.testing.assert_array_equal(to_host(other.weight.array), to_host(model.weight.array))


def test_optimizer_state_dict_moves_with_the_params(device):
    check = placement_check(device)
    mg.manual_seed(0)
    model = nn.Linear(3, 1).double().to(device)
    opt = mg.optim.Adam(model.parameters(), lr=0.1)
    model(mg.ones(2, 3, dtype=mg.float64, device=device)).sum().backward()
    opt.step()
    cpu_model = nn.Linear(3, 1).double()
    cpu_opt = mg.optim.Adam(cpu_model.parameters(), lr=0.1)
    cpu_opt.load_state_dict(opt.state_dict())
    placement_check("cpu")(cpu_opt.state[cpu_model.weight]["exp_avg"])
    opt.load_state_dict(cpu_opt.state_dict())
    check(opt.state[model.weight]["exp_avg"])


def test_tensor_methods_on_device(device):
    check = placement_check(device)
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], device=device)
    assert x.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert x.sum().item() == 10.0 and float(x[0, 0]) == 1.0 and bool(x[0, 1] > 1)
    assert f"device='{x.device}'" in repr(x) if device != "cpu" else "device" not in repr(x)
    y = x.clone().copy_(mg.ones(2, 2, device=device))
    y.fill_(3.0).zero_()
    check(y)
    assert to_host(y.array).sum() == 0
    g = mg.zeros(2, 2, device=device)
    w = mg.ones(2, 2, device=device, requires_grad=True)
    w.grad = g
    check(w)
