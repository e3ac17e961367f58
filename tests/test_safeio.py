"""Loading .npz files as untrusted input: no pickle, sizes checked before allocating."""

import io
import os
import random
import tracemalloc
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


def _bomb(path, shape, name="weight"):
    """A .npz whose one member claims ``shape`` float64 values: a header, then zeros that compress to nothing."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": shape})
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open(f"{name}.npy", "w", force_zip64=True) as fh:
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


def test_module_load_round_trip(tmp_path):
    model = nn.Linear(3, 2)
    model.save(tmp_path / "m.npz")
    other = nn.Linear(3, 2)
    assert other.load(tmp_path / "m.npz") == ([], [])
    np.testing.assert_array_equal(other.weight.array, model.weight.array)
    assert isinstance(other.weight, mg.Tensor)


def _peak(fn):
    """The most memory ``fn()`` held at once (tracemalloc), and what it raised."""
    tracemalloc.start()
    try:
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - the caller checks what came out
            raised = exc
        else:
            raised = None
        return tracemalloc.get_traced_memory()[1], raised
    finally:
        tracemalloc.stop()


def test_module_load_refuses_mismatched_shapes_from_the_headers_before_reading_data(tmp_path):
    path = tmp_path / "big.npz"
    _bomb(path, (100_000_000,), name="weight")  # claims 800 MB (under the limit), holds 4 MB of zeros
    assert path.stat().st_size < 1_000_000
    peak, raised = _peak(lambda: nn.Linear(3, 2).load(path))
    assert isinstance(raised, RuntimeError), raised
    assert "size mismatch for weight: copying a param with shape [100000000] from checkpoint" in str(raised)
    assert 'Missing key(s) in state_dict: "bias"' in str(raised)
    assert peak < 1_000_000, f"{peak / 1e6:.1f} MB held before refusing"


def test_module_load_reads_each_array_once_into_its_own_buffer(tmp_path):
    model = nn.Linear(2000, 1000)
    model.save(tmp_path / "m.npz")
    other = nn.Linear(2000, 1000)
    peak, raised = _peak(lambda: other.load(tmp_path / "m.npz"))
    assert raised is None
    weights = model.weight.array.nbytes
    assert peak < 1.5 * weights, f"{peak / 1e6:.1f} MB held to load {weights / 1e6:.1f} MB of weights"


def _not_regular(tmp_path, kind):
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this system")
        os.mkfifo(tmp_path / "fifo")
        return tmp_path / "fifo"
    if kind == "directory":
        return tmp_path
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    return "/dev/zero"


@pytest.mark.parametrize("kind", ["dev_zero", "fifo", "directory"])
@pytest.mark.parametrize("loader", ["load_npz", "mg.load", "Module.load"])
def test_what_is_not_a_regular_file_is_refused_without_reading(tmp_path, kind, loader):
    path = _not_regular(tmp_path, kind)
    load = {"load_npz": load_npz, "mg.load": mg.load, "Module.load": nn.Linear(3, 2).load}[loader]
    with pytest.raises(UnsafeFileError, match="not a regular file"):
        load(path)  # a FIFO without a writer would block a plain open(): this one returns at once


def test_a_file_larger_than_the_limit_on_disk_is_refused_before_reading(tmp_path):
    path = tmp_path / "large.npz"
    path.write_bytes(bytes(3_000_000))
    with pytest.raises(UnsafeFileError, match="the file is 3.0 MB, over the limit"):
        load_npz(path, max_bytes=1_000_000)


def test_a_missing_file_is_still_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_npz(tmp_path / "nothing.npz")


def test_impossible_headers_are_refused_before_reading_on(tmp_path):
    for header in (
        b"\x93NUMPY\x02\x00\xff\xff\xff\xff",
        b"\x93NUMPY\x01\x00\x40\x00{'descr': '<f8', 'fortran_order': False, 'shape': (-8,), }  \n",
    ):
        with zipfile.ZipFile(tmp_path / "h.npz", "w", compression=zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("x.npy", header + bytes(1 << 20))
        peak, raised = _peak(lambda: load_npz(tmp_path / "h.npz"))
        assert isinstance(raised, UnsafeFileError) and "'x.npy'" in str(raised), raised
        assert peak < 3_000_000


def _flipped(raw: bytes, rng) -> bytes:
    damaged = bytearray(raw)
    bit = rng.randrange(len(damaged) * 8)
    damaged[bit // 8] ^= 1 << (bit % 8)
    return bytes(damaged)


def test_bit_flips_in_a_module_file_give_the_module_or_one_error_class(tmp_path):
    mg.manual_seed(0)
    model = nn.Linear(4, 3)
    model.save(tmp_path / "m.npz")
    raw = (tmp_path / "m.npz").read_bytes()
    rng = random.Random(26)
    outcomes = {"loaded": 0, "refused": 0}
    for _ in range(300):
        (tmp_path / "d.npz").write_bytes(_flipped(raw, rng))
        other = nn.Linear(4, 3)
        try:
            other.load(tmp_path / "d.npz")
        except UnsafeFileError as exc:
            assert str(tmp_path / "d.npz") in str(exc)
            outcomes["refused"] += 1
        except RuntimeError as exc:  # a flip in a header's shape: the file declares another shape
            assert "size mismatch" in str(exc) or "key(s) in state_dict" in str(exc), exc
            outcomes["refused"] += 1
        else:
            np.testing.assert_array_equal(other.weight.array, model.weight.array)
            np.testing.assert_array_equal(other.bias.array, model.bias.array)
            outcomes["loaded"] += 1
    assert outcomes["refused"] > 150 and outcomes["loaded"] > 10, outcomes


def test_no_pickle_anywhere_in_minigrad():
    import pathlib
    import re

    root = pathlib.Path(mg.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(import pickle|from pickle)|allow_pickle\s*=\s*True|np\.load\(", text, re.M), path


@pytest.mark.parametrize("entries", [30_000, 70_000])  # 70 000 entries need zip64's end record
def test_an_archive_whose_directory_would_take_too_much_memory_is_refused_before_reading_it(tmp_path, entries):
    path = tmp_path / "many.npz"
    with zipfile.ZipFile(path, "w") as zf:
        for i in range(entries):
            zf.writestr(f"a{i}.npy", b"")
    size = path.stat().st_size
    peak, raised = _peak(lambda: load_npz(path, max_bytes=64_000_000))
    assert isinstance(raised, UnsafeFileError), raised
    assert "the archive's directory takes" in str(raised) and "over the limit of 1.0 MB" in str(raised)
    assert peak < 1_000_000, f"{peak / 1e6:.1f} MB held to refuse a {size / 1e6:.1f} MB archive"
