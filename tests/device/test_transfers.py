"""Moving between devices: differentiable transfers, mixed-device errors, trace snapshots, float32 gradcheck.

"strict" runs these on the fake CUDA device (tests/device/strict_xp.py); the ``cuda``-marked
params on a real GPU. Both stand in as "cuda" next to a CPU tensor.
"""

import numpy as np
import pytest

import minigrad as mg
import minigrad.trace  # noqa: F401  (mg.trace)
from minigrad import nn
from minigrad.backend import to_host
from minigrad.nn import functional as F

from . import strict_xp
from .conftest import placement_check

GPU = ["strict", pytest.param("cuda", marks=pytest.mark.cuda)]

# Central differences in float32 with eps=1e-3 leave an error of about eps**2 * |f'''| plus
# float32 rounding of the outputs over 2*eps: ~1e-7 * |f| / 2e-3 = 5e-5 * |f|. For the O(1)
# values below, atol=1e-2 / rtol=1e-2 is ~100x that and still catches any wrong formula.
# On the CPU the float64 defaults (eps=1e-6, atol=1e-5, rtol=1e-3) apply.
GPU_FLOAT32_GRADCHECK = dict(eps=1e-3, atol=1e-2, rtol=1e-2)


@pytest.fixture(params=GPU)
def gpu(request):
    """A CUDA device name: the strict fake, or a real GPU."""
    if request.param == "strict":
        request.getfixturevalue("strict_cuda")
    return "cuda"


def test_to_cuda_and_back_is_differentiable(gpu):
    x = mg.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=mg.float64, requires_grad=True)
    on_gpu = x.to(gpu)
    placement_check(gpu)(on_gpu)
    assert on_gpu.op == "to" and on_gpu.requires_grad
    y = (on_gpu.tanh() * 3).cpu()
    placement_check("cpu")(y)
    (g,) = mg.autograd.grad(y.sum(), x, create_graph=True)
    placement_check("cpu")(g)
    np.testing.assert_allclose(g.array, 3 * (1 - np.tanh(x.array) ** 2), rtol=1e-12)
    (gg,) = mg.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(gg.array, -6 * np.tanh(x.array) * (1 - np.tanh(x.array) ** 2), rtol=1e-12)


def test_cuda_method_and_device_dtype_together(gpu):
    x = mg.tensor([1.0, 2.0, 3.0], dtype=mg.float64, requires_grad=True)
    y = x.cuda().to("cpu", mg.float32).to(gpu, dtype=mg.float64).cuda(0)
    placement_check(gpu)(y)
    assert y.dtype == mg.float64
    (y * y).sum().backward()
    placement_check("cpu")(x)
    np.testing.assert_allclose(x.grad.array, 2 * np.array([1.0, 2.0, 3.0]), rtol=1e-6)


def test_leaf_on_gpu_gets_grad_on_gpu_through_cpu_ops(gpu):
    w = mg.ones(3, dtype=mg.float64, device=gpu, requires_grad=True)
    loss = (w.cpu() * mg.tensor([1.0, 2.0, 3.0], dtype=mg.float64)).sum()
    loss.backward()
    placement_check(gpu)(w)
    np.testing.assert_array_equal(to_host(w.grad.array), [1.0, 2.0, 3.0])


def test_module_to_and_back(gpu):
    mg.manual_seed(0)
    model = nn.Linear(3, 2).double()
    expected = model(mg.ones(1, 3, dtype=mg.float64)).array
    model.to(gpu)
    placement_check(gpu)(model.weight)
    out = model(mg.ones(1, 3, dtype=mg.float64, device=gpu))
    np.testing.assert_allclose(to_host(out.array), expected, rtol=1e-12)
    model.cpu()
    placement_check("cpu")(model.weight)


MIXED = {
    "add": lambda c, g: c + g,
    "mul": lambda c, g: g * c,
    "pow": lambda c, g: c**g,
    "matmul": lambda c, g: c.reshape(1, 3) @ g.reshape(3, 1),
    "maximum": lambda c, g: mg.maximum(c, g),
    "where": lambda c, g: mg.where(c > 0, c, g),
    "cat": lambda c, g: mg.cat([c, g]),
    "stack": lambda c, g: mg.stack([g, c]),
    "eq": lambda c, g: c == g,
    "gather": lambda c, g: g.gather(0, mg.tensor([0, 1])),
    "index_select": lambda c, g: c.index_select(0, mg.tensor([0], device=g.device)),
    "masked_fill": lambda c, g: g.masked_fill(c > 0, 1.0),
    "take_along_dim": lambda c, g: mg.take_along_dim(g, mg.tensor([0, 2]), dim=0),
    "embedding": lambda c, g: F.embedding(mg.tensor([0, 1]), g.reshape(3, 1)),
    "einsum": lambda c, g: mg.einsum("i,i->", c, g),
    "linear": lambda c, g: F.linear(c.reshape(1, 3), g.reshape(1, 3)),
    "mse_loss": lambda c, g: F.mse_loss(c, g),
    "cross_entropy_target": lambda c, g: F.cross_entropy(g.reshape(1, 3), mg.tensor([1])),
    "cross_entropy_weight": lambda c, g: F.cross_entropy(g.reshape(1, 3), mg.tensor([1], device=g.device), weight=c),
    "nll_target": lambda c, g: F.nll_loss(g.reshape(1, 3), mg.tensor([1])),
    "bce_target": lambda c, g: F.binary_cross_entropy(g.sigmoid(), c.sigmoid()),
    "bce_weight": lambda c, g: F.binary_cross_entropy(g.sigmoid(), g.sigmoid().detach(), weight=c),
    "bce_logits_pos_weight": lambda c, g: F.binary_cross_entropy_with_logits(g, g.detach(), pos_weight=c),
    "grad_assign": lambda c, g: setattr(c, "grad", g),
}


@pytest.mark.parametrize("op", sorted(MIXED))
def test_mixing_devices_names_both(op, gpu):
    c = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    g = mg.tensor([0.5, 1.0, 2.0], device=gpu, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        MIXED[op](c, g)
    message = str(info.value)
    assert "cpu" in message and "cuda:0" in message, message


def test_indexing_with_a_cpu_index_tensor_is_allowed(gpu):
    """As in PyTorch, ``cuda_tensor[cpu_index]`` moves the index (gather/index_select do not)."""
    g = mg.tensor([0.5, 1.0, 2.0], dtype=mg.float64, device=gpu, requires_grad=True)
    picked = g[mg.tensor([2, 0, 2])]
    placement_check(gpu)(picked)
    picked.sum().backward()
    np.testing.assert_array_equal(to_host(g.grad.array), [1.0, 0.0, 2.0])


def test_backward_seed_on_the_wrong_device_is_an_error(gpu):
    y = mg.tensor([1.0, 2.0], device=gpu, requires_grad=True) * 2
    with pytest.raises(RuntimeError) as info:
        y.backward(mg.ones(2))
    assert "cpu" in str(info.value) and "cuda:0" in str(info.value)


def test_trace_snapshots_gpu_values_on_the_host(gpu):
    x = mg.tensor([1.0, -2.0, 3.0], dtype=mg.float64, device=gpu, requires_grad=True)
    with mg.trace.record() as trace:
        y = (x * x).sum()
        y.backward()
    created = [e for e in trace.events if e.kind == "node_created" and e.info.op == "mul"]
    assert created and created[0].info.device == "cuda:0"
    acc = [e for e in trace.events if e.kind == "grad_accumulated" and e.target == x.id]
    snap = acc[-1].after
    assert type(snap.values) is np.ndarray and snap.device == "cuda:0"
    np.testing.assert_array_equal(snap.values, [2.0, -4.0, 6.0])
    big = mg.ones(2000, dtype=mg.float64, device=gpu, requires_grad=True)
    with mg.trace.record(max_values=10) as trace:
        (big * 2).sum().backward()
    summary = [e for e in trace.events if e.kind == "grad_accumulated" and e.target == big.id][-1].after
    assert summary.summarised and summary.stats.max == 2.0 and summary.device == "cuda:0"


def test_no_listener_no_host_copies(strict_cuda):
    """Without a listener, a training step on the GPU copies nothing to the host."""
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)).to("cuda")
    opt = mg.optim.Adam(model.parameters())
    x, y = mg.randn(5, 4, device="cuda"), mg.randint(0, 3, (5,), device="cuda")
    strict_xp.TO_HOST[0] = 0
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    assert strict_xp.TO_HOST[0] == 0
    with mg.trace.record():
        F.cross_entropy(model(x), y).backward()
    assert strict_xp.TO_HOST[0] > 0


def test_gradcheck_float32_on_gpu(gpu):
    """gradcheck in float32 on the GPU with GPU_FLOAT32_GRADCHECK's tolerances (see its comment)."""
    rng = np.random.default_rng(0)
    x = mg.tensor(rng.standard_normal((2, 3)), dtype=mg.float32, device=gpu, requires_grad=True)
    w = mg.tensor(rng.standard_normal((3, 2)), dtype=mg.float32, device=gpu, requires_grad=True)
    with pytest.warns(UserWarning, match="double precision"):
        assert mg.autograd.gradcheck(lambda a, b: (a @ b).tanh() * a.sum(), (x, w), **GPU_FLOAT32_GRADCHECK)
        assert mg.autograd.gradcheck(
            lambda a: F.layer_norm(a, (3,)).sigmoid() + a.softmax(dim=1), (x,), **GPU_FLOAT32_GRADCHECK
        )
    wrong = mg.tensor(rng.standard_normal((2, 3)), dtype=mg.float32, device=gpu, requires_grad=True)

    class _Wrong(mg.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * a * 2.1

    with pytest.warns(UserWarning), pytest.raises(mg.autograd.GradcheckError):
        mg.autograd.gradcheck(_Wrong.apply, (wrong,), **GPU_FLOAT32_GRADCHECK)


def test_gradcheck_float64_on_gpu(gpu):
    rng = np.random.default_rng(1)
    x = mg.tensor(rng.standard_normal((3, 4)), dtype=mg.float64, device=gpu, requires_grad=True)
    assert mg.autograd.gradcheck(lambda a: F.gelu(a).logsumexp(dim=1), (x,))
    assert mg.autograd.gradgradcheck(lambda a: a.softmax(dim=1), (x,))
