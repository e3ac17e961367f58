"""Every op is declared once (``minigrad.ops.declare``): its batching rule, methods, saved values and
argument types in one place, and the engine and the transforms read only those declarations."""

import ast
import inspect
from pathlib import Path

import pytest

import minigrad as mg
import minigrad.batching  # noqa: F401  (fills the batching registry)
import minigrad.nn.functional as F
from minigrad.batching.dispatch import RULES
from minigrad.batching.rules import FAMILY_RULES, declared_rule
from minigrad.ops import declare
from minigrad.ops import linalg as linalg_namespace
from minigrad.tensor import Tensor

ROOT = Path(__file__).resolve().parents[2]


def _public_ops():
    """Every function the package's namespaces export as an op, with where it was found."""
    from minigrad import ops

    for name in dir(ops):
        fn = getattr(ops, name)
        if inspect.isfunction(fn) and getattr(fn, "__module__", "").startswith("minigrad.ops."):
            yield f"minigrad.{name}", fn
    for name in F.__all__:
        fn = getattr(F, name)
        if inspect.isfunction(fn):
            yield f"minigrad.nn.functional.{name}", fn
    for name in dir(linalg_namespace):
        fn = getattr(linalg_namespace, name)
        if not name.startswith("_") and inspect.isfunction(fn) and fn.__module__.startswith("minigrad.ops."):
            yield f"minigrad.linalg.{name}", fn


def test_every_public_op_is_declared():
    machinery = ("minigrad.ops._util", "minigrad.ops._entry", "minigrad.ops.declare", "minigrad.ops.types")
    undeclared = sorted(
        where
        for where, fn in _public_ops()
        if inspect.unwrap(fn).__module__ not in machinery and declare.declaration(inspect.unwrap(fn)) is None
    )
    assert not undeclared, f"ops without an @op declaration: {undeclared}"


def test_every_tensor_method_made_from_an_op_is_declared():
    undeclared = []
    for name, value in vars(Tensor).items():
        fn = inspect.unwrap(value) if inspect.isfunction(value) else None
        if fn is not None and fn.__module__.startswith(("minigrad.ops.", "minigrad.nn.functional.")):
            if declare.declaration(fn) is None and not fn.__module__.endswith("_util"):
                undeclared.append(name)
    assert not undeclared, f"Tensor methods bound to undeclared functions: {sorted(undeclared)}"


def test_the_batching_rules_are_the_declarations():
    """vmap's rule for an op is what the op declared: no table of its own beside them."""
    for fn, decl in declare.declared_ops().items():
        rule = declared_rule(fn)
        if decl.batch == declare.LOOP:
            assert rule is None, decl.name
        elif isinstance(decl.batch, str):
            assert rule is FAMILY_RULES[decl.batch], decl.name
        else:
            assert rule is not None, decl.name
    assert declared_rule(lambda x: x) is None  # undeclared: the loop
    assert not [fn for fn in RULES if declare.declaration(fn) is None and RULES[fn] is not None]


def test_every_family_an_op_may_name_has_a_rule():
    assert set(FAMILY_RULES) | {declare.LOOP} == set(declare.FAMILIES)


def test_a_declared_op_is_checked_by_its_annotations():
    with pytest.raises(TypeError, match=r"clamp\(\): argument 'min' must be Tensor or Number \(or None\), not str"):
        mg.clamp(mg.ones(2), min="a")


def test_saves_names_what_the_rule_reads():
    @declare.op(batch=declare.LOOP, saves=("a",))
    def scaled(a, k):
        def backward(g):
            return (g * a * k,)

        return backward

    assert declare.declared_saves(scaled(mg.ones(1), 2)) == ("a",)
    with pytest.raises(TypeError, match="declares it saves \\['b'\\], which it does not read"):

        @declare.op(batch=declare.LOOP, saves=("b",))
        def wrong(a):
            def backward(g):
                return (g * a,)

            return backward


def _private_modules_imported(folder: str):
    for path in sorted((ROOT / folder).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                parts = node.module.split(".")
                names = [a.name for a in node.names]
                if node.level == 1:
                    continue  # batching's own modules
                for part in [*parts, *names]:
                    if part.startswith("_") and part not in ("_upcalls", "_state", "_pytree", "__future__"):
                        yield f"{path.name}: from {'.' * node.level}{node.module} import {', '.join(names)}"
                        break


def test_batching_imports_no_private_module_of_another_layer():
    assert list(_private_modules_imported("minigrad/batching")) == []
