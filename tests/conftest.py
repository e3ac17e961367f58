"""Shared fixtures and helpers for the minigrad test suite."""

import numpy as np
import pytest

import minigrad as mg


def _cuda_ok() -> bool:
    return mg.cuda_is_available()


def pytest_collection_modifyitems(config, items):
    skip_cuda = pytest.mark.skip(reason="needs CuPy and a CUDA GPU")
    cuda_ok = None
    for item in items:
        if "cuda" in item.keywords:
            if cuda_ok is None:
                cuda_ok = _cuda_ok()
            if not cuda_ok:
                item.add_marker(skip_cuda)


@pytest.fixture(autouse=True)
def _seed():
    mg.manual_seed(0)
    yield


def rand64(*shape, positive=False, requires_grad=True, seed=None):
    """A float64 tensor of random values for gradchecks (away from 0 when positive)."""
    rng = np.random.default_rng(seed)
    data = rng.standard_normal(shape)
    if positive:
        data = np.abs(data) + 0.5
    return mg.tensor(data, dtype=mg.float64, requires_grad=requires_grad)
