"""Shared fixtures and helpers for the minigrad test suite."""

import os
import tempfile

import numpy as np
import pytest
from hypothesis import settings

import minigrad as mg

# Property tests draw the same examples on every run and machine (each test's seed derived from the test), so a
# run never fails on a draw the run before did not make; HYPOTHESIS_PROFILE=explore draws fresh examples each run.
settings.register_profile("deterministic", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))

# the course remembers the learner's workspace under $XDG_CONFIG_HOME: tests never read or write the real one
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="minigrad-test-config-")
os.environ.pop("MINIGRAD_WORKSPACE", None)


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


_rand64_rng = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _own_course_config(tmp_path_factory, monkeypatch):
    """Every test remembers its course workspace in a config folder of its own: a workspace one test
    started must not become the one a later test on the same worker finds (it did, in lesson check 1)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    monkeypatch.delenv("MINIGRAD_WORKSPACE", raising=False)


@pytest.fixture(autouse=True)
def _seed():
    """Every test starts from the same random state, whatever ran before it on its worker."""
    global _rand64_rng
    mg.manual_seed(0)
    _rand64_rng = np.random.default_rng(0)
    yield


def rand64(*shape, positive=False, requires_grad=True, seed=None):
    """A float64 tensor of random values for gradchecks (away from 0 when positive).

    Without a seed the values come from a generator reset before each test, so a test draws
    the same values in any order and on any xdist worker."""
    rng = _rand64_rng if seed is None else np.random.default_rng(seed)
    data = rng.standard_normal(shape)
    if positive:
        data = np.abs(data) + 0.5
    return mg.tensor(data, dtype=mg.float64, requires_grad=requires_grad)


def pytest_configure(config):
    """Every rule minigrad's ops hand to ``make`` is checked against its declared ``saves`` (declared_saves.py)."""
    from tests.declared_saves import install

    install()
