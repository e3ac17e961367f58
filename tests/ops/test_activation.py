"""hardtanh, relu6, hardsigmoid, hardswish, mish, softsign, logsigmoid: torch's values, gradients, modules."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn as nn
import minigrad.nn.functional as F
from tests.torch_oracle import Arr, arr, check

# Points away from each activation's kinks (±1, 0, 6, ±3), so the finite differences are clean.
SAMPLE = Arr(np.array([[-7.0, -3.5, -2.2, -0.9, -0.3], [0.4, 0.95, 2.5, 3.4, 6.8]]))
CALLS = {
    "hardtanh": lambda lib, x: lib.nn.functional.hardtanh(x),
    "hardtanh_range": lambda lib, x: lib.nn.functional.hardtanh(x, min_val=-2.0, max_val=3.0),
    "relu6": lambda lib, x: lib.nn.functional.relu6(x),
    "hardsigmoid": lambda lib, x: lib.nn.functional.hardsigmoid(x),
    "hardswish": lambda lib, x: lib.nn.functional.hardswish(x),
    "mish": lambda lib, x: lib.nn.functional.mish(x),
    "softsign": lambda lib, x: lib.nn.functional.softsign(x),
    "logsigmoid": lambda lib, x: lib.nn.functional.logsigmoid(x),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_functional_matches_torch(name):
    pytest.importorskip("torch")
    check(CALLS[name], SAMPLE)


@pytest.mark.parametrize("module", ["Hardtanh", "ReLU6", "Hardsigmoid", "Hardswish", "Mish", "Softsign", "LogSigmoid"])
def test_modules_match_torch(module):
    pytest.importorskip("torch")
    check(lambda lib, x: getattr(lib.nn, module)()(x), SAMPLE)


def test_logsigmoid_is_stable_for_large_inputs():
    out = F.logsigmoid(mg.tensor([-1000.0, 1000.0], dtype=mg.float64))
    np.testing.assert_allclose(out.array, [-1000.0, 0.0])


def test_mish_of_large_inputs_is_finite():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.functional.mish(x), arr(4, low=-60, high=60), gradcheck_=False)


def test_hardtanh_module_keywords_and_errors():
    np.testing.assert_allclose(nn.Hardtanh(min_val=-2.0, max_val=2.0)(mg.tensor([-3.0, 3.0])).array, [-2.0, 2.0])
    with pytest.raises(TypeError, match="hardtanh.*min_val.*Number"):
        F.hardtanh(mg.zeros(2), min_val="a")


def test_hardswish_slope_at_its_kinks_is_torchs():
    """0 at -3 and 1 at 3, PyTorch's one-sided choice (the ramp's -0.5 and 1.5 were ours)."""
    x = mg.tensor([-3.0, -2.0, 3.0], requires_grad=True)
    F.hardswish(x).sum().backward()
    np.testing.assert_allclose(x.grad.array, [0.0, -1 / 6, 1.0], rtol=1e-6)
