"""Checked decoding of trace files: every field of every record has its type verified.

A trace file may come from anyone, so decoding trusts nothing: each event line is
turned into its record by :class:`Decoder`, which checks the field names, each
field's type, that node ids refer to nodes the file created earlier, that shapes
agree (a snapshot's values with its shape, a gradient with its node) and that
values fit their dtype. Anything else raises :class:`SchemaError` with a short
text naming the field; :mod:`~minigrad.trace.files` adds the file and line.

Snapshots are read in both encodings: version 1 (``values``: nested lists) and
version 2 (``b64``: the array's bytes, little-endian, base64).
"""

from __future__ import annotations

import base64
import binascii
import math
import types

import numpy as np

from . import events as E
from .snapshot import DROPPED_STATS, Snapshot
from .summary import HEAD_VALUES, Stats

__all__ = ["Decoder", "DECODE", "SchemaError", "ALLOWED_DTYPE_KINDS", "snapshot_from_json"]

ALLOWED_DTYPE_KINDS = "biufc"  # bool, signed and unsigned ints, floats, complex: no objects, no records


class SchemaError(ValueError):
    """A record does not have the shape this minigrad writes (the message names the field)."""


def _fail(where: str, what: str):
    raise SchemaError(f"{where}: {what}")


def _kind(v) -> str:
    return "null" if v is None else type(v).__name__


def _int(v, where: str, minimum: int | None = None) -> int:
    if type(v) is not int:
        _fail(where, f"expected an integer, got {_kind(v)}")
    if minimum is not None and v < minimum:
        _fail(where, f"expected an integer >= {minimum}, got {v}")
    return v


def _opt_int(v, where: str):
    return None if v is None else _int(v, where)


def _str(v, where: str) -> str:
    if type(v) is not str:
        _fail(where, f"expected a string, got {_kind(v)}")
    return v


def _opt_str(v, where: str):
    return None if v is None else _str(v, where)


def _bool(v, where: str) -> bool:
    if type(v) is not bool:
        _fail(where, f"expected true or false, got {_kind(v)}")
    return v


def _num(v, where: str):
    if type(v) not in (int, float, bool):
        _fail(where, f"expected a number, got {_kind(v)}")
    return v


def _opt_num(v, where: str):
    return None if v is None else _num(v, where)


def _list(v, where: str) -> list:
    if type(v) is not list:
        _fail(where, f"expected a list, got {_kind(v)}")
    return v


def _shape(v, where: str) -> tuple:
    return tuple(_int(n, f"{where}[{i}]", 0) for i, n in enumerate(_list(v, where)))


def _one_of(v, choices, where: str) -> str:
    if v not in choices:
        _fail(where, f"expected one of {', '.join(map(repr, choices))}, got {v!r}")
    return v


def _record(v, tag: str, where: str) -> dict:
    """The body of ``{tag: {...}}``."""
    if type(v) is not dict or len(v) != 1 or tag not in v:
        _fail(where, f"expected a {tag!r} record, got {_kind(v) if type(v) is not dict else list(v)[:3]}")
    body = v[tag]
    if type(body) is not dict:
        _fail(where, f"expected an object inside {tag!r}, got {_kind(body)}")
    return body


def _fields(body: dict, required: tuple, optional: tuple, where: str) -> None:
    missing = [k for k in required if k not in body]
    if missing:
        _fail(where, f"missing field {missing[0]!r}")
    unknown = [k for k in body if k not in required and k not in optional]
    if unknown:
        _fail(where, f"unknown field {unknown[0]!r}")


def _dtype(v, where: str) -> np.dtype:
    name = _str(v, where)
    try:
        dtype = np.dtype(name)
    except (TypeError, ValueError, SyntaxError):
        _fail(where, f"not a dtype: {name!r}")
    if dtype.kind not in ALLOWED_DTYPE_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        _fail(where, f"dtype {name!r} is not a numeric dtype")
    return dtype


def _values_v1(v, dtype: np.dtype, shape: tuple, where: str) -> np.ndarray:
    try:
        with np.errstate(all="ignore"):
            arr = np.array(v, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as exc:
        _fail(where, f"values do not fit dtype {dtype}: {exc}")
    if arr.shape != shape:
        _fail(where, f"values of shape {list(arr.shape)} do not match the shape {list(shape)}")
    return arr


def _values_v2(v, dtype: np.dtype, shape: tuple, where: str) -> np.ndarray:
    text = _str(v, where)
    expected = math.prod(shape) * dtype.itemsize
    if len(text) != 4 * ((expected + 2) // 3):  # checked before decoding: nothing larger is allocated
        _fail(where, f"{len(text)} base64 characters do not hold {expected} bytes (shape {list(shape)}, {dtype})")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        _fail(where, f"not base64: {exc}")
    if len(raw) != expected:
        _fail(where, f"{len(raw)} bytes do not make shape {list(shape)} of {dtype}")
    return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype, copy=True).reshape(shape)


def _stats(v, size: int, where: str) -> Stats:
    if type(v) is not dict:
        _fail(where, f"expected an object, got {_kind(v)}")
    keys = ("min", "max", "mean", "norm", "nan_count", "inf_count", "head")
    _fields(v, keys, (), where)
    head = _list(v["head"], f"{where}.head")
    if len(head) > min(HEAD_VALUES, size):
        _fail(f"{where}.head", f"{len(head)} values, more than the {min(HEAD_VALUES, size)} a summary keeps")
    return Stats(
        _opt_num(v["min"], f"{where}.min"),
        _opt_num(v["max"], f"{where}.max"),
        _opt_num(v["mean"], f"{where}.mean"),
        _opt_num(v["norm"], f"{where}.norm"),
        _int(v["nan_count"], f"{where}.nan_count", 0),
        _int(v["inf_count"], f"{where}.inf_count", 0),
        tuple(_num(x, f"{where}.head[{i}]") for i, x in enumerate(head)),
    )


def snapshot_from_json(d, where: str = "snapshot") -> Snapshot:
    """A :class:`Snapshot` from its JSON object (either encoding), every field checked."""
    if type(d) is not dict:
        _fail(where, f"expected an object, got {_kind(d)}")
    _fields(d, ("shape", "dtype", "device"), ("values", "b64", "stats", "dropped", "tensor_id"), where)
    shape = _shape(d["shape"], f"{where}.shape")
    dtype = _dtype(d["dtype"], f"{where}.dtype")
    device = _str(d["device"], f"{where}.device")
    tensor_id = _opt_int(d.get("tensor_id"), f"{where}.tensor_id")
    given = [k for k in ("values", "b64", "stats", "dropped") if k in d]
    if len(given) != 1:
        _fail(where, "expected exactly one of 'values', 'b64', 'stats', 'dropped'")
    values = stats = None
    if "dropped" in d:
        if d["dropped"] is not True:
            _fail(f"{where}.dropped", f"expected true, got {d['dropped']!r}")
        return Snapshot(shape, dtype.name, device, None, DROPPED_STATS, tensor_id, True)
    if "values" in d:
        values = _values_v1(d["values"], dtype, shape, f"{where}.values")
    elif "b64" in d:
        values = _values_v2(d["b64"], dtype, shape, f"{where}.b64")
    else:
        stats = _stats(d["stats"], math.prod(shape), f"{where}.stats")
    if values is not None:
        values.flags.writeable = False
    return Snapshot(shape, dtype.name, device, values, stats, tensor_id)


class Decoder:
    """Decodes the event lines of one file in order, remembering the node ids created so far."""

    def __init__(self):
        self.shapes: dict = {}  # node id -> shape, for the nodes created so far

    # ------------------------------------------------------------ pieces
    def _node(self, v, where: str) -> int:
        nid = _int(v, where)
        if nid not in self.shapes:
            _fail(where, f"node {nid} is not created earlier in the file (dangling id)")
        return nid

    def _opt_node(self, v, where: str):
        return None if v is None else self._node(v, where)

    def _nodes(self, v, where: str) -> tuple:
        return tuple(self._node(x, f"{where}[{i}]") for i, x in enumerate(_list(v, where)))

    def _snap(self, v, where: str, shape: tuple | None = None) -> Snapshot:
        snap = snapshot_from_json(_record(v, "$snap", where), where)
        if shape is not None and snap.shape != shape:
            _fail(where, f"shape {list(snap.shape)} does not match {list(shape)}")
        return snap

    def _opt_snap(self, v, where: str, shape: tuple | None = None):
        return None if v is None else self._snap(v, where, shape)

    def _snaps(self, v, where: str, optional: bool = False) -> tuple:
        read = self._opt_snap if optional else self._snap
        return tuple(read(x, f"{where}[{i}]") for i, x in enumerate(_list(v, where)))

    def _pairs(self, v, where: str) -> tuple:
        out = []
        for i, pair in enumerate(_list(v, where)):
            w = f"{where}[{i}]"
            if type(pair) is not list or len(pair) != 2:
                _fail(w, "expected a pair [node id, snapshot or null]")
            nid = self._node(pair[0], f"{w}[0]")
            out.append((nid, self._opt_snap(pair[1], f"{w}[1]", self.shapes[nid])))
        return tuple(out)

    def _options(self, v, where: str) -> types.MappingProxyType:
        if type(v) is not dict or list(v) != ["$map"] or type(v["$map"]) is not dict:
            _fail(where, "expected a '$map' record")
        out = {}
        for k, x in v["$map"].items():
            if x is not None and type(x) not in (bool, int, float, str):
                _fail(f"{where}.{k}", f"expected a plain value, got {_kind(x)}")
            out[k] = x
        return types.MappingProxyType(out)

    def _source(self, v, where: str):
        if v is None:
            return None
        b = _record(v, "$src", where)
        _fields(b, ("file", "line", "text", "function"), (), where)
        return E.SourceLocation(
            _str(b["file"], f"{where}.file"),
            _int(b["line"], f"{where}.line"),
            _str(b["text"], f"{where}.text"),
            _str(b["function"], f"{where}.function"),
        )

    def _closure(self, v, where: str):
        if v is None:
            return None
        b = _record(v, "$closure", where)
        _fields(b, ("name", "file", "first_line", "last_line", "source"), (), where)
        return E.ClosureInfo(
            _str(b["name"], f"{where}.name"),
            _str(b["file"], f"{where}.file"),
            _int(b["first_line"], f"{where}.first_line"),
            _int(b["last_line"], f"{where}.last_line"),
            _str(b["source"], f"{where}.source"),
        )

    def _captured(self, v, where: str) -> tuple:
        out = []
        for i, item in enumerate(_list(v, where)):
            w = f"{where}[{i}]"
            b = _record(item, "$cap", w)
            _fields(b, ("name", "kind"), ("tensor_id", "value", "text"), w)
            out.append(
                E.Captured(
                    _str(b["name"], f"{w}.name"),
                    _one_of(b["kind"], ("tensor", "weakref", "dead", "value", "empty", "array"), f"{w}.kind"),
                    _opt_int(b.get("tensor_id"), f"{w}.tensor_id"),
                    self._opt_snap(b.get("value"), f"{w}.value"),
                    _opt_str(b.get("text"), f"{w}.text"),
                )
            )
        return tuple(out)

    def _info(self, v, where: str) -> E.NodeInfo:
        b = _record(v, "$node", where)
        names = ("id", "name", "op", "parents", "shape", "dtype", "device", "requires_grad", "is_leaf", "data")
        _fields(b, names, ("source", "pass_id", "version"), where)
        shape = _shape(b["shape"], f"{where}.shape")
        return E.NodeInfo(
            id=_int(b["id"], f"{where}.id"),
            name=_opt_str(b["name"], f"{where}.name"),
            op=_opt_str(b["op"], f"{where}.op"),
            parents=self._nodes(b["parents"], f"{where}.parents"),
            shape=shape,
            dtype=_dtype(b["dtype"], f"{where}.dtype").name,
            device=_str(b["device"], f"{where}.device"),
            requires_grad=_bool(b["requires_grad"], f"{where}.requires_grad"),
            is_leaf=_bool(b["is_leaf"], f"{where}.is_leaf"),
            data=self._snap(b["data"], f"{where}.data", shape),
            source=self._source(b.get("source"), f"{where}.source"),
            pass_id=_opt_int(b.get("pass_id"), f"{where}.pass_id"),
            version=_int(b.get("version", 0), f"{where}.version", 0),
        )

    # ------------------------------------------------------------ events
    def event(self, d) -> E.Event:
        """The event of one decoded JSON line (a dict); :class:`SchemaError` when it is not one."""
        if type(d) is not dict:
            _fail("event", f"expected an object, got {_kind(d)}")
        kind = d.get("kind")
        cls = E.EVENT_TYPES.get(kind) if type(kind) is str else None
        if cls is None:
            _fail("kind", f"unknown event kind {kind!r}")
        decode, required, optional = DECODE[cls]
        fields = {f: d[f] for f in d if f != "kind"}
        _fields(fields, ("seq", "pass_id", "depth", *required), optional, kind)
        common = {
            "seq": _int(d["seq"], f"{kind}.seq", 0),
            "pass_id": _opt_int(d["pass_id"], f"{kind}.pass_id"),
            "depth": _int(d["depth"], f"{kind}.depth", 0),
        }
        return cls(**common, **decode(self, fields, kind))

    def _ev_node_created(self, f, w):
        info = self._info(f["info"], f"{w}.info")
        node = _int(f["node"], f"{w}.node")
        if node != info.id:
            _fail(f"{w}.node", f"{node} differs from info.id {info.id}")
        late = _bool(f.get("late", False), f"{w}.late")
        self.shapes[node] = info.shape
        return {"node": node, "info": info, "late": late}

    def _ev_node_named(self, f, w):
        return {"node": self._node(f["node"], f"{w}.node"), "name": _str(f["name"], f"{w}.name")}

    def _ev_pass_started(self, f, w):
        inputs = None if f["inputs"] is None else self._nodes(f["inputs"], f"{w}.inputs")
        return {
            "pass_kind": _one_of(f["pass_kind"], ("backward", "grad"), f"{w}.pass_kind"),
            "roots": self._nodes(f["roots"], f"{w}.roots"),
            "seeds": self._snaps(f["seeds"], f"{w}.seeds"),
            "inputs": inputs,
            "options": self._options(f["options"], f"{w}.options"),
        }

    def _ev_grads_saved(self, f, w):
        return {"saved": self._pairs(f["saved"], f"{w}.saved"), "edges": self._nodes(f["edges"], f"{w}.edges")}

    def _ev_seeded(self, f, w):
        node = self._node(f["node"], f"{w}.node")
        return {"node": node, "grad": self._snap(f["grad"], f"{w}.grad", self.shapes[node])}

    def _ev_node_entered(self, f, w):
        node = self._node(f["node"], f"{w}.node")
        shape = self.shapes[node]
        return {
            "node": node,
            "grad": self._snap(f["grad"], f"{w}.grad", shape),
            "data": self._opt_snap(f.get("data"), f"{w}.data", shape),
        }

    def _ev_closure_called(self, f, w):
        node = self._node(f["node"], f"{w}.node")
        return {
            "node": node,
            "grad": self._snap(f["grad"], f"{w}.grad", self.shapes[node]),
            "outputs": self._snaps(f["outputs"], f"{w}.outputs", optional=True),
            "closure": self._closure(f["closure"], f"{w}.closure"),
            "captured": self._captured(f["captured"], f"{w}.captured"),
        }

    def _ev_grad_reduced(self, f, w):
        target = self._node(f["target"], f"{w}.target")
        from_shape = _shape(f["from_shape"], f"{w}.from_shape")
        to_shape = _shape(f["to_shape"], f"{w}.to_shape")
        return {
            "node": self._node(f["node"], f"{w}.node"),
            "target": target,
            "from_shape": from_shape,
            "to_shape": to_shape,
            "dims": tuple(_int(x, f"{w}.dims[{i}]", 0) for i, x in enumerate(_list(f["dims"], f"{w}.dims"))),
            "contribution": self._snap(f["contribution"], f"{w}.contribution", from_shape),
            "reduced": self._snap(f["reduced"], f"{w}.reduced", to_shape),
        }

    def _ev_grad_accumulated(self, f, w):
        target = self._node(f["target"], f"{w}.target")
        after = self._snap(f["after"], f"{w}.after")
        return {
            "node": self._node(f["node"], f"{w}.node"),
            "target": target,
            "contribution": self._snap(f["contribution"], f"{w}.contribution", after.shape),
            "before": self._opt_snap(f["before"], f"{w}.before", after.shape),
            "after": after,
            "into": _one_of(f["into"], ("pass", "grad"), f"{w}.into"),
        }

    def _ev_node_finished(self, f, w):
        return {"node": self._node(f["node"], f"{w}.node")}

    def _ev_graph_freed(self, f, w):
        return {"nodes": self._nodes(f["nodes"], f"{w}.nodes")}

    def _ev_grads_restored(self, f, w):
        return {"restored": self._pairs(f["restored"], f"{w}.restored")}

    def _ev_pass_finished(self, f, w):
        results = None if f["results"] is None else self._snaps(f["results"], f"{w}.results", optional=True)
        return {"results": results}

    def _ev_tangent_computed(self, f, w):
        node = self._node(f["node"], f"{w}.node")
        parents = tuple(self._node(p, f"{w}.parents[{i}]") for i, p in enumerate(_list(f["parents"], f"{w}.parents")))
        return {
            "node": node,
            "op": _str(f["op"], f"{w}.op"),
            "parents": parents,
            "tangents": self._snaps(f["tangents"], f"{w}.tangents"),
            "tangent": self._snap(f["tangent"], f"{w}.tangent", self.shapes[node]),
            "rule": self._closure(f["rule"], f"{w}.rule"),
            "level": _int(f.get("level", 0), f"{w}.level", 0),
        }

    def _ev_error(self, f, w):
        return {
            "node": self._opt_node(f["node"], f"{w}.node"),
            "error_type": _str(f["error_type"], f"{w}.error_type"),
            "message": _str(f["message"], f"{w}.message"),
            "raised_at": _opt_str(f.get("raised_at"), f"{w}.raised_at"),
            "traceback": _str(f.get("traceback", ""), f"{w}.traceback"),
        }


#: Event class -> (its decoder, its required fields, its optional fields) besides seq, pass_id, depth.
DECODE = {
    E.NodeCreated: (Decoder._ev_node_created, ("node", "info"), ("late",)),
    E.NodeNamed: (Decoder._ev_node_named, ("node", "name"), ()),
    E.PassStarted: (Decoder._ev_pass_started, ("pass_kind", "roots", "seeds", "inputs", "options"), ()),
    E.GradsSaved: (Decoder._ev_grads_saved, ("saved", "edges"), ()),
    E.Seeded: (Decoder._ev_seeded, ("node", "grad"), ()),
    E.NodeEntered: (Decoder._ev_node_entered, ("node", "grad"), ("data",)),
    E.ClosureCalled: (Decoder._ev_closure_called, ("node", "grad", "outputs", "closure", "captured"), ()),
    E.GradReduced: (
        Decoder._ev_grad_reduced,
        ("node", "target", "from_shape", "to_shape", "dims", "contribution", "reduced"),
        (),
    ),
    E.GradAccumulated: (
        Decoder._ev_grad_accumulated,
        ("node", "target", "contribution", "before", "after", "into"),
        (),
    ),
    E.NodeFinished: (Decoder._ev_node_finished, ("node",), ()),
    E.GraphFreed: (Decoder._ev_graph_freed, ("nodes",), ()),
    E.GradsRestored: (Decoder._ev_grads_restored, ("restored",), ()),
    E.PassFinished: (Decoder._ev_pass_finished, ("results",), ()),
    E.ErrorEvent: (Decoder._ev_error, ("node", "error_type", "message"), ("raised_at", "traceback")),
    E.TangentComputed: (
        Decoder._ev_tangent_computed,
        ("node", "op", "parents", "tangents", "tangent", "rule"),
        ("level",),
    ),
}
