"""Tensor's state is declared (issue 27 item 4): slots and small typed records, read from outside
tensor.py through public names or minigrad._tensor_state."""

import pathlib
import re

import minigrad as mg
from minigrad import _tensor_state
from minigrad.tensor import Tensor

ROOT = pathlib.Path(__file__).resolve().parents[1]
PRIVATE_READ = re.compile(r"\._(id|op|parents|rg|backward|meta|device)\b")


def test_tensor_has_no_undeclared_dict():
    t = mg.tensor([1.0], requires_grad=True)
    assert not hasattr(t, "_meta") and not hasattr(t, "meta") and not hasattr(t, "__dict__")
    assert {"_view", "_hooks", "_tangents", "_origin"} <= set(Tensor.__slots__)


def test_public_node_fields_read_the_node():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert (y.op, y.parents, y.device) == ("mul", (x,), mg.device("cpu"))
    assert x.op is None and x.parents == () and y.id > x.id


def test_records_appear_only_for_the_state_they_hold():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert (y._view, y._hooks, y._tangents, y._origin) == (None, None, None, None)
    y.retain_grad()
    assert isinstance(y._hooks, _tensor_state.HookState) and y._hooks.retains_grad and not y._hooks.hooks
    with mg.no_grad():
        v = x[:1]
    assert _tensor_state.viewed_from(v) == (x, True)
    assert _tensor_state.views_of(x) == [v]
    assert x.data._view.unversioned


def test_an_in_place_op_leaves_hooks_with_the_old_node_and_retain_grad_with_the_tensor():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))
    z = y * 3
    y.add_(1)
    (z.sum() + y.sum()).backward()
    assert seen == [[4.0, 4.0]]  # once, at the old node (z's parent and the add's), as PyTorch's hooks
    assert y.retains_grad and y.grad.tolist() == [1.0, 1.0]
    assert [old.op for _, old in _tensor_state.rebased_history(y)] == ["mul"]


def test_few_reads_of_tensors_private_fields_outside_tensor_py():
    files = [p for d in ("minigrad", "tui") for p in (ROOT / d).rglob("*.py") if p.name != "tensor.py"]
    reads = sum(len(PRIVATE_READ.findall(p.read_text(encoding="utf-8"))) for p in files)
    assert reads < 120, f"{reads} reads of Tensor's private fields outside minigrad/tensor.py"
