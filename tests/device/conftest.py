"""Fixtures for the device suites: the strict fake CUDA device, and a placement check per device."""

import pytest

import minigrad as mg
from minigrad.tensor import Tensor

from . import strict_xp

DEVICES = ["cpu", "strict", pytest.param("cuda", marks=pytest.mark.cuda)]


@pytest.fixture
def strict_cuda(monkeypatch):
    """``"cuda"`` is the strict fake device (NumPy behind a CuPy-like wall) for the test's duration.

    Fails the test when any host fallback was recorded, even one that op code caught and hid.
    """
    dev = strict_xp.install(monkeypatch)
    mg.manual_seed(0)
    yield dev
    mg.manual_seed(0)  # drop the fake device's random generator (it hashes like the real cuda:0)
    found = list(strict_xp.VIOLATIONS)
    strict_xp.VIOLATIONS.clear()
    assert not found, "host fallbacks on the strict device:\n" + "\n".join(found)


@pytest.fixture(params=DEVICES)
def device(request):
    """The device under test as a string: "cpu", "cuda" (the strict fake) or "cuda" (a real GPU)."""
    if request.param == "strict":
        request.getfixturevalue("strict_cuda")
        return "cuda"
    return request.param


def placement_check(device_name: str):
    """A ``check(x)`` for the case runners: tensors on ``device_name`` with that device's arrays."""
    dev = mg.device(device_name)
    array_type = type(dev.xp.zeros(1))

    def check(x):
        if isinstance(x, Tensor):
            assert x.device == dev, f"tensor on {x.device}, expected {dev}"
            assert type(x.array) is array_type, f"tensor on {dev} holds a {type(x.array).__name__}"
            if x._grad is not None:  # not .grad: non-leaf tensors are checked too
                check(x._grad)
        else:
            assert type(x) is array_type, f"state array is a {type(x).__name__}, expected {array_type.__name__}"

    return check
