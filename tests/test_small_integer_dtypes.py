"""uint8, int8 and int16 as torch's: creation, conversion, promotion (torch's result_type table),
arithmetic, reductions, the cast methods and type names, and indexing (a byte tensor is a mask)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

SMALL = ["uint8", "int8", "int16"]
ALL = [*SMALL, "int32", "int64", "float16", "float32", "float64", "bool"]
A, B = [3, 100, 7, 0], [5, 90, 2, 9]  # 100 + 90 and 100 * 90 wrap in int8 and uint8, as torch's


def _same(ours, theirs):
    assert str(ours.dtype) == str(theirs.dtype).removeprefix("torch."), (ours.dtype, theirs.dtype)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


@pytest.mark.parametrize("first", SMALL)
@pytest.mark.parametrize("second", ALL)
def test_promotion_and_arithmetic_match_torch(first, second):
    torch = pytest.importorskip("torch")
    assert str(mg.promote_types(getattr(mg, first), getattr(mg, second))) == str(
        torch.promote_types(getattr(torch, first), getattr(torch, second))
    ).removeprefix("torch.")
    for op in (lambda x, y: x + y, lambda x, y: x * y, lambda x, y: x > y):
        values = []
        for lib in (mg, torch):
            x = lib.tensor(A, dtype=getattr(lib, first))
            y = lib.tensor(B, dtype=getattr(lib, second))
            values.append(op(x, y))
        _same(*values)


@pytest.mark.parametrize("name", SMALL)
def test_ops_on_one_small_integer_tensor_match_torch(name):
    torch = pytest.importorskip("torch")
    calls = {
        "add_scalar": lambda lib, t: t + 5,
        "add_float": lambda lib, t: t + 0.5,
        "sub_wraps": lambda lib, t: t - lib.tensor(B, dtype=t.dtype),
        "neg": lambda lib, t: -t,
        "true_div": lambda lib, t: t / 2,
        "floor_div": lambda lib, t: t // 2,
        "remainder": lambda lib, t: t % 3,
        "sum": lambda lib, t: t.sum(),
        "prod": lambda lib, t: t.prod(),
        "cumsum": lambda lib, t: t.cumsum(0),
        "max": lambda lib, t: t.max(),
        "argmax": lambda lib, t: t.argmax(),
        "sqrt": lambda lib, t: t.sqrt(),
        "square": lambda lib, t: t**2,
        "clamp": lambda lib, t: t.clamp(1, 9),
        "where": lambda lib, t: lib.where(t > 3, t, 0),
        "bitwise": lambda lib, t: (t & 3) | 8,
        "sort": lambda lib, t: t.sort().values,
        "cat_with_long": lambda lib, t: lib.cat([t, t.long()]),
        "float": lambda lib, t: t.float(),
        "from_float": lambda lib, t: lib.tensor([1.7, -2.5, 100.0]).to(t.dtype),
    }
    for call in calls.values():
        _same(*(call(lib, lib.tensor(A, dtype=getattr(lib, name))) for lib in (mg, torch)))


@pytest.mark.parametrize(
    ("name", "method", "type_name"), [("uint8", "byte", "Byte"), ("int8", "char", "Char"), ("int16", "short", "Short")]
)
def test_creation_conversion_and_names(name, method, type_name):
    torch = pytest.importorskip("torch")
    dtype = getattr(mg, name)
    for make in (
        lambda lib: lib.zeros(2, dtype=getattr(lib, name)),
        lambda lib: lib.arange(5, dtype=getattr(lib, name)),
        lambda lib: lib.full((2,), 3, dtype=getattr(lib, name)),
        lambda lib: lib.from_numpy(np.array([1, 2], dtype=name)),
        lambda lib: lib.tensor(np.array([1, 2], dtype=name)),
        lambda lib: getattr(lib.tensor([1.5, -2.0, 3.0]), method)(),
    ):
        _same(make(mg), make(torch))
    t = mg.ones(3, dtype=dtype)
    assert t.type() == f"torch.{type_name}Tensor" and t.type(f"torch.{type_name}Tensor").dtype == dtype
    assert repr(t) == f"tensor([1, 1, 1], dtype={name})" and not t.is_floating_point()
    assert t.element_size() == dtype.itemsize and mg.tensor(7, dtype=dtype).item() == 7
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        mg.tensor([1], dtype=dtype, requires_grad=True)
    with pytest.raises(RuntimeError, match=f"value cannot be converted to type {name} without overflow"):
        mg.tensor(40000, dtype=dtype)


def test_short_is_int16():
    assert mg.short is mg.int16


def test_a_byte_tensor_indexes_as_a_mask_and_int8_is_refused_as_torch():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (mg, torch):
        x = lib.tensor([10.0, 20.0, 30.0, 40.0])
        with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
            results.append(x[lib.tensor([1, 0, 1, 0], dtype=lib.uint8)])
        for dtype in (lib.int8, lib.int16):
            with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
                x[lib.tensor([1, 0], dtype=dtype)]
    _same(*results)


def test_save_and_load_keep_the_dtype(tmp_path):
    for name in SMALL:
        path = tmp_path / f"{name}.pt"
        mg.save({"t": mg.tensor(A, dtype=getattr(mg, name))}, path)
        loaded = mg.load(path)["t"]
        assert loaded.dtype == getattr(mg, name) and loaded.tolist() == mg.tensor(A, dtype=getattr(mg, name)).tolist()
