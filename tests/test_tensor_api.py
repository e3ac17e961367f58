"""Tensor's API as tools and readers see it: every method in the checked-in stub ``minigrad/tensor.pyi``
with its signature and docstring, and ``minigrad.clamp``/``Tensor.clamp`` one op that ``help()`` shows."""

from __future__ import annotations

import ast
import inspect
import pydoc
import sys
import types

import pytest

import minigrad as mg
from minigrad import _stubgen

TENSOR_MODULE = sys.modules["minigrad.tensor"]
# Names that are a function at the top level and a different method: arguments in another order.
DIFFERENT_OPS = {
    "where": "x.where(condition, y) is where(condition, x, y)",
    "polygamma": "x.polygamma(n) is polygamma(n, x)",
    "numel": "numel(x) is a function of the interop module, x.numel() the class's method",
}


def _public_names(cls: type) -> list[str]:
    return [name for name in dir(cls) if not name.startswith("_")]


def _stub_tree() -> ast.Module:
    return ast.parse(_stubgen.STUB.read_text(), filename=str(_stubgen.STUB))


def _stub_class(tree: ast.Module, name: str) -> dict[str, list[ast.stmt]]:
    (node,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    members: dict[str, list[ast.stmt]] = {}
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            members.setdefault(item.name, []).append(item)
        elif isinstance(item, ast.AnnAssign):
            members.setdefault(item.target.id, []).append(item)
    return members


def test_the_checked_in_stub_is_what_the_live_class_says():
    assert _stubgen.STUB.read_text() == _stubgen.render(), "stale: run python -m minigrad._stubgen --write"


def test_the_stub_check_command_fails_on_a_stale_stub(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "tensor.pyi"
    stale.write_text(_stubgen.render().replace("def clamp(", "def clamp_gone("))
    monkeypatch.setattr(_stubgen, "STUB", stale)
    assert _stubgen.main(["--check"]) == 1
    assert "is stale: run python -m minigrad._stubgen --write" in capsys.readouterr().err
    assert _stubgen.main(["--write"]) == 0 and _stubgen.main(["--check"]) == 0


def test_the_stub_lists_every_public_method_with_the_parameters_inspect_finds():
    members = _stub_class(_stub_tree(), "Tensor")
    missing = [name for name in _public_names(mg.Tensor) if name not in members]
    assert not missing, f"not in tensor.pyi: {missing}"
    for name in _public_names(mg.Tensor):
        value = inspect.getattr_static(mg.Tensor, name)
        if isinstance(value, property) or not callable(value):
            continue
        (node,) = members[name]
        args = node.args
        stubbed = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
        stubbed += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        signature, _ = _stubgen.method_signature(value)
        assert sorted(stubbed) == sorted(signature.parameters), name


def test_the_stub_covers_the_module_names_other_modules_import():
    tree = _stub_tree()
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    defined |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign)}
    assert set(TENSOR_MODULE.__all__) <= defined
    assert {"make_leaf", "mark_written", "blank_tensor", "RemovableHandle", "GradFn"} <= defined


def test_a_property_in_the_stub_is_a_property_with_its_setter():
    members = _stub_class(_stub_tree(), "Tensor")
    getter, setter = members["grad"]
    assert [ast.unparse(d) for d in getter.decorator_list] == ["property"]
    assert [ast.unparse(d) for d in setter.decorator_list] == ["grad.setter"]
    assert ast.unparse(getter.returns) == "Tensor | None"


def test_an_inplace_method_in_the_stub_takes_its_ops_arguments_and_returns_the_tensor():
    members = _stub_class(_stub_tree(), "Tensor")
    (add_,) = members["add_"]
    assert [a.arg for a in add_.args.args] == ["self", "other", "alpha"] and ast.unparse(add_.returns) == "Tensor"
    (clamp_min_,) = members["clamp_min_"]
    assert [a.arg for a in clamp_min_.args.args] == ["self", "min"]


def test_builtin_names_the_class_shadows_are_spelled_from_builtins_in_the_stub():
    (size,) = _stub_class(_stub_tree(), "Tensor")["size"]
    assert ast.unparse(size.args.args[1].annotation) == "builtins.int | None"  # Tensor.int is a method


def test_every_public_method_and_property_has_a_docstring_and_a_signature():
    undocumented, data = [], []
    for name in _public_names(mg.Tensor):
        value = inspect.getattr_static(mg.Tensor, name)
        if not (callable(value) or isinstance(value, property)):
            data.append(name)
            continue
        if not inspect.getdoc(getattr(mg.Tensor, name)):
            undocumented.append(name)
        if callable(value):
            inspect.signature(value)  # raises where there is none
    assert not undocumented, f"Tensor methods without a docstring: {undocumented}"
    slots = [name for name in data if isinstance(inspect.getattr_static(mg.Tensor, name), types.MemberDescriptorType)]
    assert data == slots and "array" in slots  # plain slots (array, device, ...), which the class docstring describes


def test_every_top_level_function_and_its_method_are_one_op_sharing_its_docstring():
    shared = [
        name
        for name in _public_names(mg.Tensor)
        if callable(getattr(mg, name, None))
        and callable(inspect.getattr_static(mg.Tensor, name))  # not a property or slot (``device``)
        and name not in DIFFERENT_OPS
    ]
    assert len(shared) > 200
    for name in shared:
        function, method = getattr(mg, name), getattr(mg.Tensor, name)
        one_wraps_the_other = (
            function is method
            or getattr(method, "__wrapped__", None) is function
            or getattr(function, "__wrapped__", None) is method
        )
        assert one_wraps_the_other, f"minigrad.{name} and Tensor.{name} are two wrappers"
        assert inspect.unwrap(function) is inspect.unwrap(method), name
        assert function.__doc__ and function.__doc__ == method.__doc__, name
        assert inspect.signature(function) == inspect.signature(method), name


def test_help_shows_the_ops_docstring_and_signature_for_the_method_and_the_function():
    first_line = mg.ops.elementwise.clamp.__doc__.splitlines()[0]
    for shown in (mg.Tensor.clamp, mg.clamp):
        text = pydoc.render_doc(shown, renderer=pydoc.plaintext)
        assert first_line in text and "min: 'Tensor | Number | None' = None" in text
    assert mg.Tensor.clamp.__wrapped__ is mg.clamp and mg.clamp.__wrapped__ is mg.ops.elementwise.clamp
    assert mg.exp.__wrapped__ is mg.Tensor.exp  # a method with no argument to check is the op itself


def test_the_method_keeps_its_own_argument_numbering():
    x = mg.ones(2)
    with pytest.raises(TypeError, match=r"clamp\(\): argument 'min' \(position 1\) must be"):
        x.clamp([0.0])
    with pytest.raises(TypeError, match=r"clamp\(\): argument 'min' \(position 2\) must be"):
        mg.clamp(x, [0.0])
