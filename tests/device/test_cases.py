"""Every op family, grad() with create_graph, nn layers, losses and optimizers on each device.

On "strict" (the fake CUDA device whose array module refuses host fallbacks) and
on a real GPU, the values must equal the CPU run's and every tensor, gradient and
optimizer state array must stay on the device. float64 throughout: a real GPU
may sum in another order, hence the 1e-9 relative tolerance there.
"""

import numpy as np
import pytest

from .cases import CASES, NN_CASES, OPTIMIZERS, run_case, run_nn_case, run_optimizer
from .conftest import placement_check

TOL = {"cpu": dict(rtol=0, atol=0), "cuda": dict(rtol=1e-9, atol=1e-12)}


def _compare(got, expected, device):
    assert len(got) == len(expected)
    for k, (g, e) in enumerate(zip(got, expected)):
        assert g.shape == e.shape, f"result {k}: shape {g.shape} vs {e.shape}"
        assert g.dtype == e.dtype, f"result {k}: dtype {g.dtype} vs {e.dtype}"
        np.testing.assert_allclose(g, e, err_msg=f"result {k}", equal_nan=True, **TOL.get(device, TOL["cuda"]))


def _same_on(runner, key, device):
    expected = runner(key, "cpu", placement_check("cpu"))
    if device == "cpu":
        return
    _compare(runner(key, device, placement_check(device)), expected, device)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_op_case(case, device):
    _same_on(run_case, case, device)


@pytest.mark.parametrize("name", sorted(NN_CASES))
def test_nn_layer(name, device):
    _same_on(run_nn_case, name, device)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizer(name, device):
    _same_on(run_optimizer, name, device)
