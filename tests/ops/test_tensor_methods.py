"""new_zeros/new_ones/new_full/new_empty/new_tensor, type(), is_floating_point, nelement, stride,
storage_offset, element_size, nbytes, itemsize, unfold, indexing with a range, and the alias names
(multiply, subtract, true_divide, negative, absolute, clamp_min, clamp_max): as torch's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.torch_oracle import arr, check


def _both():
    torch = pytest.importorskip("torch")
    return mg, torch


@pytest.mark.parametrize("dtype", ["float64", "int64", "bool"])
def test_new_factories_take_self_dtype_unless_given(dtype):
    torch = pytest.importorskip("torch")
    for lib in (mg, torch):
        x = lib.zeros(2, dtype=getattr(lib, dtype))
        made = [x.new_zeros(2, 3), x.new_ones((3,)), x.new_empty(1, 2), x.new_full((2,), 1), x.new_tensor([1, 0])]
        made.append(x.new_zeros(2, dtype=lib.float32))
        if lib is mg:
            ours = [(tuple(t.shape), str(t.dtype), t.numpy().tolist()) for t in made]
        else:
            theirs = [(tuple(t.shape), str(t.dtype).split(".")[-1], t.numpy().tolist()) for t in made]
    assert [(s, d) for s, d, _ in ours] == [(s, d) for s, d, _ in theirs]
    del ours[2], theirs[2]  # new_empty's values are whatever memory held
    assert ours == theirs


def test_new_tensor_copies_and_starts_a_leaf():
    x = mg.zeros(2, requires_grad=True)
    src = mg.tensor([1.0, 2.0], requires_grad=True)
    made = x.new_tensor(src, requires_grad=True)
    assert made.is_leaf and made.requires_grad
    made.array[0] = 9
    assert src.array[0] == 1.0


def test_type_names_and_casts():
    torch = pytest.importorskip("torch")
    for dtype in ("float32", "float64", "int64", "int32", "bool", "float16"):
        assert mg.zeros(1, dtype=getattr(mg, dtype)).type() == torch.zeros(1, dtype=getattr(torch, dtype)).type()
    x = mg.tensor([1.7, -2.2])
    assert x.type(mg.int64).dtype == mg.int64
    assert x.type("torch.LongTensor").numpy().tolist() == torch.tensor([1.7, -2.2]).type("torch.LongTensor").tolist()
    assert x.type(mg.float32) is x
    with pytest.raises(ValueError, match="invalid type: 'torch.Nonsense'"):
        x.type("torch.Nonsense")


def test_storage_facts_match_torch():
    mg_, torch = _both()
    for lib in (mg_, torch):
        x = lib.arange(24.0, dtype=lib.float64).reshape(2, 3, 4)
        views = [x, x[1], x[:, 1:, 2], x.transpose(0, 2), x[0, 2]]
        facts = [(v.stride(), v.storage_offset(), v.stride(-1) if v.dim() else None) for v in views]
        facts.append((x.element_size(), x.nbytes, x.itemsize, x.nelement(), x.is_floating_point()))
        facts.append(lib.zeros(2, dtype=lib.int32).element_size())
        facts.append(lib.zeros(2, dtype=lib.int64).is_floating_point())
        if lib is mg_:
            ours = facts
        else:
            theirs = facts
    assert ours == theirs


@pytest.mark.parametrize("args", [(0, 2, 1), (0, 3, 2), (1, 2, 2), (-1, 4, 1), (1, 1, 3)])
def test_unfold_matches_torch(args):
    pytest.importorskip("torch")
    check(lambda lib, x: x.unfold(*args), arr(5, 4))


def test_unfold_errors():
    x = mg.zeros(3, 4)
    with pytest.raises(RuntimeError, match="maximum size for tensor at dimension 1 is 4 but size is 5"):
        x.unfold(1, 5, 1)
    with pytest.raises(RuntimeError, match="step is 0 but must be > 0"):
        x.unfold(1, 2, 0)


def test_indexing_with_a_range_as_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: x[range(1, 4)], arr(5, 2))
    check(lambda lib, x: x[:, range(0, 3, 2)], arr(2, 4))
    check(lambda lib, x: x[range(0)], arr(3, 2))
    x = mg.zeros(4)
    x[range(1, 3)] = 1.0
    assert x.numpy().tolist() == [0.0, 1.0, 1.0, 0.0]


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x, y: lib.multiply(x, y),
        lambda lib, x, y: x.subtract(y, alpha=2),
        lambda lib, x, y: lib.true_divide(x, y),
        lambda lib, x, y: lib.negative(x) + lib.absolute(y),
        lambda lib, x, y: lib.clamp_min(x, 0.1) + y.clamp_max(0.2),
    ],
)
def test_alias_names_match_torch(call):
    pytest.importorskip("torch")
    check(call, arr(2, 3), arr(2, 3, seed=1, low=0.5))


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 3), st.integers(0, 1))
def test_unfold_windows_are_slices(length, size, step, dim):
    x = mg.tensor(np.arange(3.0 * length).reshape((3, length) if dim else (length, 3)), requires_grad=True)
    if size > x.shape[dim]:
        return
    out = x.unfold(dim, size, step)
    for w in range(out.shape[dim]):
        window = out.select(dim, w)
        np.testing.assert_array_equal(
            window.detach().numpy(), x.narrow(dim, w * step, size).movedim(dim, -1).detach().numpy()
        )
    assert gradcheck(lambda t: t.unfold(dim, size, step), (x.double().detach().requires_grad_(),))


@pytest.mark.parametrize("name", ["sum", "mean", "amax", "std", "var", "logsumexp", "prod", "nansum", "median"])
def test_keepdims_is_keepdim_as_in_torch(name):
    torch = pytest.importorskip("torch")
    data = np.arange(6.0).reshape(2, 3) + 1
    ours = getattr(mg.tensor(data), name)(dim=1, keepdims=True)
    theirs = getattr(torch.tensor(data), name)(dim=1, keepdims=True)
    ours, theirs = (ours.values, theirs.values) if name == "median" else (ours, theirs)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())
