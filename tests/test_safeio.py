"""Loading .npz files as untrusted input: no pickle, sizes checked before allocating."""

import io
import zipfile

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.safeio import UnsafeFileError, load_npz


def test_round_trip_of_plain_arrays(tmp_path):
    arrays = {"w": np.arange(6.0).reshape(2, 3), "b": np.array([1, 2], dtype=np.int32), "f": np.ones((2, 2)).T}
    np.savez(tmp_path / "a.npz", **arrays)
    back = load_npz(tmp_path / "a.npz")
    assert set(back) == set(arrays)
    for k, v in arrays.items():
        np.testing.assert_array_equal(back[k], v)
        assert back[k].dtype == v.dtype and back[k].flags.writeable


def test_object_arrays_are_refused_without_running_pickle(tmp_path):
    np.savez(tmp_path / "obj.npz", x=np.array([{"a": 1}, None], dtype=object))
    with pytest.raises(UnsafeFileError, match="'x.npy' holds dtype object.*pickle"):
        load_npz(tmp_path / "obj.npz")


def _bomb(path, shape):
    """A .npz whose one member claims ``shape`` float64 values: a header, then zeros that compress to nothing."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": shape})
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("weight.npy", "w", force_zip64=True) as fh:
            fh.write(header.getvalue())
            chunk = bytes(1 << 20)
            for _ in range(4):  # only 4 MB are really there: the size is refused from the header alone
                fh.write(chunk)


def test_a_small_npz_that_would_expand_to_gigabytes_is_refused_naming_the_limit(tmp_path):
    path = tmp_path / "bomb.npz"
    _bomb(path, (275_000_000,))  # 2.2 GB of float64
    assert path.stat().st_size < 2_000_000
    with pytest.raises(UnsafeFileError, match=r"would take 2\.2 GB once loaded, over the limit of 1\.1 GB"):
        load_npz(path)
    model = nn.Linear(3, 2)
    with pytest.raises(ValueError, match="max_bytes"):
        model.load(path)


def test_truncated_member_is_refused(tmp_path):
    path = tmp_path / "short.npz"
    _bomb(path, (1_000_000,))  # claims 8 MB, holds 4 MB
    with pytest.raises(UnsafeFileError, match="truncated"):
        load_npz(path)


def test_module_load_round_trip_goes_through_the_safe_reader(tmp_path, monkeypatch):
    model = nn.Linear(3, 2)
    model.save(tmp_path / "m.npz")
    calls = []
    import minigrad.nn.module as module

    real = module.load_npz
    monkeypatch.setattr(module, "load_npz", lambda *a: calls.append(a) or real(*a))
    other = nn.Linear(3, 2)
    other.load(tmp_path / "m.npz")
    assert calls
    np.testing.assert_array_equal(other.weight.data, model.weight.data)
    assert isinstance(other.weight, mg.Tensor)


def test_no_pickle_anywhere_in_minigrad():
    import pathlib
    import re

    root = pathlib.Path(mg.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(import pickle|from pickle)|allow_pickle\s*=\s*True|np\.load\(", text, re.M), path
