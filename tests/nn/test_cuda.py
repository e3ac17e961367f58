"""nn and optim on a CUDA device give the CPU's results (skipped without CuPy and a GPU)."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

pytestmark = pytest.mark.cuda


def _train_step(model, x, y, device):
    model.to(device)
    opt = mg.optim.Adam(model.parameters(), lr=0.01)
    loss = F.cross_entropy(model(x.to(device)), y.to(device), label_smoothing=0.1)
    loss.backward()
    opt.step()
    return loss.item(), {k: mg.backend.to_host(v.array) for k, v in model.state_dict().items()}


def test_mlp_training_step_matches_cpu():
    mg.manual_seed(0)
    cpu_model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.LayerNorm(8), nn.Linear(8, 3)).double()
    gpu_model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.LayerNorm(8), nn.Linear(8, 3)).double()
    gpu_model.load_state_dict(cpu_model.state_dict())
    x, y = mg.randn(6, 4, dtype=mg.float64), mg.tensor([0, 2, 1, 1, 0, 2])
    cpu_loss, cpu_state = _train_step(cpu_model, x, y, "cpu")
    gpu_loss, gpu_state = _train_step(gpu_model, x, y, "cuda")
    assert gpu_model[0].weight.device == "cuda:0"
    assert gpu_loss == pytest.approx(cpu_loss, rel=1e-12)
    for key in cpu_state:
        np.testing.assert_allclose(gpu_state[key], cpu_state[key], rtol=1e-10, atol=1e-12)


def test_conv_pool_embedding_and_dropout_run_on_the_gpu():
    x = mg.randn(2, 3, 8, 8, dtype=mg.float64)
    conv = nn.Conv2d(3, 4, 3, padding=1).double()
    expected = F.max_pool2d(conv(x), 2, padding=1)
    conv.to("cuda")
    xg = x.to("cuda").requires_grad_()
    out = F.max_pool2d(conv(xg), 2, padding=1)
    np.testing.assert_allclose(mg.backend.to_host(out.array), expected.array, rtol=1e-10)
    out.sum().backward()
    assert xg.grad.device == "cuda:0"
    emb = nn.Embedding(5, 2, device="cuda")
    emb(mg.tensor([[0, 4], [4, 1]], device="cuda")).sum().backward()
    np.testing.assert_array_equal(mg.backend.to_host(emb.weight.grad.array[:, 0]), [1, 1, 0, 0, 2])
    assert F.dropout(mg.ones(10, device="cuda"), 0.5).device == "cuda:0"
    batches = list(mg.data.DataLoader((np.arange(4.0),), batch_size=2, device="cuda"))
    assert batches[0][0].device == "cuda:0"
