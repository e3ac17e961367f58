"""minigrad.save / minigrad.load: tensors and nested state dicts round-trip; files run no code."""

from __future__ import annotations

import io
import json
import random
import zipfile

import numpy as np
import pytest

import minigrad as mg
from minigrad.safeio import UnsafeFileError


def test_a_tensor_round_trips_with_dtype_and_requires_grad(tmp_path):
    for t in (mg.arange(6.0).reshape(2, 3), mg.tensor([1, 2], dtype=mg.int32), mg.tensor(True), mg.ones(0, 3)):
        mg.save(t, tmp_path / "t.pt")
        back = mg.load(tmp_path / "t.pt")
        assert back.dtype == t.dtype and tuple(back.shape) == tuple(t.shape)
        np.testing.assert_array_equal(back.numpy(), t.numpy())
    mg.save(mg.ones(2, requires_grad=True), str(tmp_path / "g"))
    assert mg.load(str(tmp_path / "g")).requires_grad  # the path is used as given (no ".npz" added)


def test_a_checkpoint_round_trips_and_loads_into_a_model():
    mg.manual_seed(0)
    model = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.BatchNorm1d(4), mg.nn.Linear(4, 1))
    optimizer = {"lr": 0.1, "betas": (0.9, 0.999), "state": {0: {"step": 3}}, "name": None, "flags": [True, 2.5]}
    buffer = io.BytesIO()
    mg.save({"model": model.state_dict(), "optimizer": optimizer, "epoch": 7}, buffer)
    buffer.seek(0)
    loaded = mg.load(buffer, weights_only=True)
    assert loaded["epoch"] == 7 and loaded["optimizer"] == optimizer
    assert list(loaded["model"]) == list(model.state_dict())
    fresh = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.BatchNorm1d(4), mg.nn.Linear(4, 1))
    fresh.load_state_dict(loaded["model"])
    x = mg.randn(5, 3)
    model.eval(), fresh.eval()
    np.testing.assert_array_equal(fresh(x).detach().numpy(), model(x).detach().numpy())


def test_parameters_stay_parameters_and_shared_tensors_stay_shared():
    w = mg.nn.Parameter(mg.ones(2))
    buffer = io.BytesIO()
    mg.save({"a": w, "b": [w, np.arange(3)]}, buffer)
    buffer.seek(0)
    back = mg.load(buffer)
    assert isinstance(back["a"], mg.nn.Parameter) and back["a"] is back["b"][0]
    np.testing.assert_array_equal(back["b"][1], np.arange(3))


def test_what_would_need_pickle_is_refused_when_saving():
    with pytest.raises(TypeError, match=r"cannot save the object\['f'\] of type function"):
        mg.save({"f": lambda: 0}, io.BytesIO())
    with pytest.raises(TypeError, match="not numeric"):
        mg.save(np.array([object()]), io.BytesIO())
    with pytest.raises(TypeError, match="has a key of type tuple"):
        mg.save({(1, 2): mg.ones(1)}, io.BytesIO())


def _archive(members: dict) -> io.BytesIO:
    buffer = io.BytesIO()
    np.savez(buffer, **members)
    buffer.seek(0)
    return buffer


def test_a_foreign_or_damaged_file_is_refused_with_a_clear_error():
    with pytest.raises(UnsafeFileError, match="not a file written by minigrad.save"):
        mg.load(_archive({"x": np.ones(2)}))
    bad_json = np.frombuffer(b"{not json", dtype=np.uint8)
    with pytest.raises(UnsafeFileError, match="not valid JSON"):
        mg.load(_archive({"__minigrad_structure__": bad_json}))
    missing = json.dumps({"format": "minigrad.save/1", "root": {"tensor": "a9"}}).encode()
    with pytest.raises(UnsafeFileError, match="does not hold"):
        mg.load(_archive({"__minigrad_structure__": np.frombuffer(missing, dtype=np.uint8)}))
    bad_pairs = json.dumps({"format": "minigrad.save/1", "root": {"dict": [["k"]]}}).encode()
    with pytest.raises(UnsafeFileError, match="malformed structure"):
        mg.load(_archive({"__minigrad_structure__": np.frombuffer(bad_pairs, dtype=np.uint8)}))
    pickled = io.BytesIO()
    with zipfile.ZipFile(pickled, "w") as z:
        z.writestr("x.npy", b"")
    pickled.seek(0)
    with pytest.raises(UnsafeFileError):
        mg.load(pickled)
    with pytest.raises(UnsafeFileError, match="object arrays would run pickle code"):
        mg.load(_archive({"x": np.array([{}], dtype=object)}))


def test_max_bytes_limits_what_is_read():
    buffer = io.BytesIO()
    mg.save(mg.zeros(1000), buffer)
    buffer.seek(0)
    with pytest.raises(UnsafeFileError, match="over the limit"):
        mg.load(buffer, max_bytes=100)


def test_map_location_names_the_device():
    buffer = io.BytesIO()
    mg.save([mg.ones(2)], buffer)
    buffer.seek(0)
    (t,) = mg.load(buffer, map_location="cpu")
    assert t.device == "cpu"


def _structure_file(structure) -> io.BytesIO:
    text = structure if isinstance(structure, str) else json.dumps(structure)
    return _archive({"__minigrad_structure__": np.frombuffer(text.encode(), dtype=np.uint8)})


def test_a_structure_that_is_not_an_object_or_nested_too_deep_is_the_same_error():
    with pytest.raises(UnsafeFileError, match="the structure is a JSON list, not an object"):
        mg.load(_structure_file([1, 2]))
    with pytest.raises(UnsafeFileError, match="nested more than 100 deep"):
        mg.load(_structure_file("[" * 10_000 + "]" * 10_000))
    deep = {"value": 1}
    for _ in range(150):
        deep = {"list": [deep]}
    with pytest.raises(UnsafeFileError, match="nested more than 100 deep"):
        mg.load(_structure_file({"format": "minigrad.save/1", "root": deep}))
    with pytest.raises(UnsafeFileError, match="a value entry holds a list"):
        mg.load(_structure_file({"format": "minigrad.save/1", "root": {"value": [1]}}))


def test_bit_flips_give_the_saved_object_or_one_error_class_naming_the_file(tmp_path):
    saved = {"w": mg.arange(12.0).reshape(3, 4), "b": mg.tensor([1, 2], dtype=mg.int32), "meta": {"n": [1, (2, None)]}}
    mg.save(saved, tmp_path / "ok.pt")
    raw = (tmp_path / "ok.pt").read_bytes()
    rng = random.Random(5)
    outcomes = {"loaded": 0, "refused": 0}
    for _ in range(400):
        damaged = bytearray(raw)
        bit = rng.randrange(len(raw) * 8)
        damaged[bit // 8] ^= 1 << (bit % 8)
        (tmp_path / "d.pt").write_bytes(damaged)
        try:
            back = mg.load(tmp_path / "d.pt")
        except UnsafeFileError as exc:  # BadZipFile, bad CRC, "encrypted", unknown compression, ... all become this
            assert str(tmp_path / "d.pt") in str(exc)
            outcomes["refused"] += 1
            continue
        assert back["meta"] == saved["meta"]
        for key in ("w", "b"):
            assert back[key].dtype == saved[key].dtype
            np.testing.assert_array_equal(back[key].numpy(), saved[key].numpy())
        outcomes["loaded"] += 1
    assert outcomes["refused"] > 250 and outcomes["loaded"] > 20, outcomes


def test_a_structure_larger_than_its_share_of_the_limit_is_refused_before_parsing():
    structure = {"format": "minigrad.save/1", "root": {"list": [{"list": []}] * 200_000}}  # 2.6 MB of JSON
    with pytest.raises(UnsafeFileError, match=r"the structure takes 2[0-9]{6} bytes, over the limit of 1048576"):
        mg.load(_structure_file(structure), max_bytes=10_000_000)
    assert len(mg.load(_structure_file(structure), max_bytes=100_000_000)) == 200_000
