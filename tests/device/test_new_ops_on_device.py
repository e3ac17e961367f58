"""The new non-differentiable ops (multinomial, unique, bincount, argsort), save/load and the
recurrent layers stay on the device: no host fallback on the strict fake CUDA device."""

from __future__ import annotations

import io

import numpy as np

import minigrad as mg


def test_sampling_and_counting_stay_on_the_device(strict_cuda):
    w = mg.tensor([[0.1, 0.0, 0.9], [1.0, 1.0, 1.0]], device="cuda")
    for replacement in (False, True):
        draws = mg.multinomial(w, 2, replacement)
        assert draws.device == "cuda:0" and tuple(draws.shape) == (2, 2)
        assert 1 not in draws.cpu().numpy()[0]
    values, inverse, counts = mg.unique(mg.tensor([3, 1, 3], device="cuda"), return_inverse=True, return_counts=True)
    assert values.cpu().tolist() == [1, 3] and inverse.cpu().tolist() == [1, 0, 1] and counts.cpu().tolist() == [1, 2]
    assert mg.bincount(mg.tensor([0, 2, 2], device="cuda"), minlength=4).cpu().tolist() == [1, 0, 2, 0]
    assert mg.argsort(mg.tensor([2.0, 1.0, 3.0], device="cuda"), descending=True).cpu().tolist() == [2, 0, 1]


def test_save_and_load_with_map_location(strict_cuda):
    buffer = io.BytesIO()
    mg.save({"w": mg.tensor([1.0, 2.0], device="cuda")}, buffer)
    buffer.seek(0)
    assert mg.load(buffer)["w"].device == "cpu"
    buffer.seek(0)
    back = mg.load(buffer, map_location="cuda")["w"]
    assert back.device == "cuda:0" and back.cpu().tolist() == [1.0, 2.0]


def test_an_lstm_runs_and_trains_on_the_device(strict_cuda):
    layer = mg.nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True, device="cuda")
    x = mg.tensor(np.random.default_rng(0).standard_normal((2, 5, 3)), dtype=mg.float32, device="cuda")
    out, (h, c) = layer(x)
    assert out.device == "cuda:0" and tuple(out.shape) == (2, 5, 8) and tuple(h.shape) == (4, 2, 4)
    (out.sum() + c.sum()).backward()
    assert all(p.grad is not None and p.grad.device == "cuda:0" for p in layer.parameters())
    mg.nn.utils.clip_grad_norm_(layer.parameters(), 0.1)


def test_cdist_by_matrix_products_stays_on_the_device(strict_cuda):
    rng = np.random.default_rng(1)
    a = mg.tensor(rng.standard_normal((30, 3)), device="cuda", requires_grad=True)
    b = mg.tensor(rng.standard_normal((40, 3)), device="cuda", requires_grad=True)
    d = mg.cdist(a, b)
    d.sum().backward()
    expected = np.linalg.norm(a.detach().cpu().numpy()[:, None] - b.detach().cpu().numpy()[None], axis=-1)
    np.testing.assert_allclose(d.detach().cpu().numpy(), expected, rtol=1e-10)
    assert a.grad.device == "cuda:0" and b.grad.device == "cuda:0"
