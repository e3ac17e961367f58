"""One derivative rule per op: every backward closure is the mathematics only, and the engine does
what every rule needs (skip parents that need no gradient, reduce broadcasting, accumulate)."""

import ast
import pathlib

import numpy as np
import pytest

import minigrad as mg
from minigrad import trace
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.tensor import make

from ..conftest import rand64

PACKAGE = pathlib.Path(mg.__file__).parent
RULE_FILES = sorted([*(PACKAGE / "ops").glob("*.py"), *(PACKAGE / "nn" / "functional").glob("*.py")])

# Plumbing a rule must not contain: grad-mode branches, raw leaf construction, requires_grad
# tests, and broadcast reduction (the engine's job).
FORBIDDEN = {
    "_grad_mode",
    "_state",
    "is_grad_enabled",
    "make_leaf",
    "_const",
    "_rg",
    "requires_grad",
    "unbroadcast",
}


def _names(tree) -> set:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
    }


def _rules(tree):
    """Every backward rule in a module: functions named ``*backward*`` (nested or module-level), and
    lambdas or functions passed as the ``backward`` argument (the third) of ``make``."""
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and "backward" in node.name:
            yield node.name, node
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "make":
            arg = node.args[2] if len(node.args) > 2 else None
            arg = next((k.value for k in node.keywords if k.arg == "backward"), arg)
            if isinstance(arg, ast.Lambda):
                yield "lambda", arg
            elif isinstance(arg, ast.Name) and arg.id in defs:
                yield arg.id, defs[arg.id]


def _violations() -> list:
    found = []
    for path in RULE_FILES:
        tree = ast.parse(path.read_text(), filename=str(path))
        for name, rule in _rules(tree):
            for bad in sorted(_names(rule) & FORBIDDEN):
                found.append(f"{path.relative_to(PACKAGE)}:{rule.lineno} {name}: {bad}")
    return found


def test_every_rule_is_the_mathematics_only():
    assert RULE_FILES and _violations() == []


def test_the_scan_finds_plumbing_in_a_rule(tmp_path):
    bad = ast.parse(
        "def op(a, b):\n"
        "    def backward(g):\n"
        "        if _grad_mode.enabled:\n"
        "            return unbroadcast(g, a.shape), None if not b._rg else g\n"
        "        return make_leaf(g.array, g.device), g\n"
        "    return make(a.array, (a, b), backward, 'op')\n"
    )
    ((name, rule),) = {n: r for n, r in _rules(bad)}.items()
    assert name == "backward"
    assert _names(rule) & FORBIDDEN == {"_grad_mode", "unbroadcast", "_rg", "make_leaf"}


def test_mul_reads_as_its_rule():
    from minigrad.ops import arithmetic

    source = pathlib.Path(arithmetic.__file__).read_text()
    assert "return lambda: g * b, lambda: g * a" in source


# einsum's rule builds one einsum per operand from the subscripts: an algorithm, not a formula per case
BRANCHING_RULES = {"ops/linalg.py:einsum"}


def _branching_rules() -> set:
    found = set()
    for path in RULE_FILES:
        tree = ast.parse(path.read_text(), filename=str(path))
        jvps = [(f.name, f) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and "jvp" in f.name]
        for _, rule in [*_rules(tree), *jvps]:
            if any(isinstance(n, (ast.If, ast.IfExp)) for n in ast.walk(rule)):
                owner = next(
                    f.name
                    for f in ast.walk(tree)
                    if isinstance(f, ast.FunctionDef) and f.lineno <= rule.lineno <= f.end_lineno and f is not rule
                )
                found.add(f"{path.relative_to(PACKAGE)}:{owner.lstrip('_')}")
    return found


def test_no_rule_branches_on_what_the_forward_already_knew():
    """An op picks its rules (backward and forward-mode) when it is made (by the operands' ranks, which
    operands are tensors, the reduction, the order of a norm), so the rule a learner reads has no ``if``."""
    assert _branching_rules() == BRANCHING_RULES


def _rule_read_in_the_debugger(out, op: str) -> tuple:
    """The source lines of ``op``'s rule and its captured names, as the debugger shows them (from a trace)."""
    from minigrad.trace.describe import rule_source

    with trace.record() as tr:
        out.sum().backward()
    (called,) = [e for e in tr.find("closure_called") if tr.nodes[e.node].op == op]
    lines = [line.strip() for line in rule_source(called.closure.source).splitlines()]
    return [line for line in lines if not line.startswith(("def ", "#"))], sorted(c.name for c in called.captured)


def _x():
    return rand64(4, 3)


@pytest.mark.parametrize(
    "make_output, op, rule, captured",
    [
        (lambda: _x() @ rand64(3, 2), "matmul", "return lambda: g @ b.mT, lambda: a.mT @ g", ["a", "b"]),
        (lambda: rand64(5, 4, 3) @ rand64(3, 2), "matmul", "return lambda: g @ b.mT, lambda: a.mT @ g", ["a", "b"]),
        (lambda: _x() @ rand64(3), "matmul", "return lambda: g.outer(b), lambda: a.mT @ g", ["a", "b"]),
        (lambda: rand64(4) @ _x(), "matmul", "return lambda: b @ g, lambda: a.outer(g)", ["a", "b"]),
        (lambda: rand64(3) @ rand64(3), "matmul", "return lambda: g * b, lambda: g * a", ["a", "b"]),
        (
            lambda: mg.nn.functional.linear(_x(), rand64(2, 3), rand64(2)),
            "linear",
            "return lambda: g @ weight, lambda: g.mT @ x, lambda: g",
            ["weight", "x"],
        ),
        (
            lambda: mg.nn.functional.cross_entropy(_x(), mg.tensor([0, 2, 1, 1])),
            "cross_entropy",
            "return (softmax_minus_onehot(x, t, row_max, row_sum, times=g / divisor),)",
            ["divisor", "row_max", "row_sum", "t", "x"],
        ),
        (lambda: _x() ** 2, "pow", "return (g * b * a ** (b - 1),)", ["a", "b"]),
        (lambda: mg.where(_x() > 0, _x(), 0.0), "where", "return (where(cond, g, 0.0),)", ["cond"]),
    ],
    ids=[
        "matmul",
        "batched matmul",
        "matrix @ vector",
        "vector @ matrix",
        "dot",
        "linear",
        "cross_entropy",
        "pow",
        "where",
    ],
)
def test_the_rules_lessons_show_read_as_their_formulas(make_output, op, rule, captured):
    assert _rule_read_in_the_debugger(make_output(), op) == ([rule], captured)


@pytest.mark.parametrize(
    "a_shape, b_shape", [((3,), (2, 3, 4)), ((2, 3, 4), (4,)), ((3,), (3, 4)), ((4, 3), (3,)), ((3,), (3,))]
)
def test_matmul_with_vectors_gradchecks_and_a_batch_views_the_vector_as_a_matrix(a_shape, b_shape):
    a, b = rand64(*a_shape), rand64(*b_shape)
    assert gradcheck(mg.matmul, (a, b)) and gradgradcheck(mg.matmul, (a, b))
    out = a @ b
    batched = max(len(a_shape), len(b_shape)) > 2
    assert out.grad_fn.name() == ("SqueezeBackward" if batched else "MatmulBackward")  # PyTorch's graph


# ---------------------------------------------------------------- the engine around the rules
def _recording_op(a, b, calls):
    """``a * b`` whose rule records which lazy entries the engine called."""

    def backward(g):
        def for_a():
            calls.append("a")
            return g * b

        def for_b():
            calls.append("b")
            return g * a

        return for_a, for_b

    return make(a.array * b.array, (a, b), backward, "mul")


def test_lazy_entries_run_only_for_parents_that_need_a_gradient():
    calls = []
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0])
    _recording_op(a, b, calls).sum().backward()
    assert calls == ["a"]
    assert a.grad.tolist() == [3.0, 4.0]


def test_lazy_entries_skip_parents_outside_an_inputs_restricted_grad():
    calls = []
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0], requires_grad=True)
    (gb,) = mg.autograd.grad(_recording_op(a, b, calls).sum(), b)
    assert calls == ["b"] and gb.tolist() == [1.0, 2.0]


def test_a_constant_operand_gets_no_gradient_computed():
    """mul by a constant tensor computes one product in backward, not two (the rule is lazy)."""
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    with trace.record() as tr:
        (a * mg.tensor([3.0, 4.0])).sum().backward()
    (called,) = [e for e in tr.find("closure_called") if e.closure.name.startswith("mul")]
    assert called.outputs[1] is None
    assert a.grad.tolist() == [3.0, 4.0]


def test_rules_return_the_output_shape_and_the_engine_reduces():
    a = rand64(4, 3)
    b = rand64(3)
    with trace.record() as tr:
        (a * b).sum().backward()
    reduced = [e for e in tr.find("grad_reduced") if tr.nodes[e.target].id == b.id]
    assert [(e.from_shape, e.to_shape, e.dims) for e in reduced] == [((4, 3), (3,), (0,))]
    np.testing.assert_allclose(b.grad.numpy(), a.detach().numpy().sum(0))


def test_contributions_from_several_uses_accumulate():
    x = mg.tensor([1.0, 2.0, 3.0], dtype=mg.float64, requires_grad=True)
    (x * x + x * 3.0 + x.exp()).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy() + 3.0 + np.exp(x.detach().numpy()))


def test_leaf_gradients_never_share_memory():
    """Two leaves fed the same gradient (``a + b``), a seed, a view: each ``.grad`` is its own array."""
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0], requires_grad=True)
    (a + b).sum().backward()
    a.grad.zero_()
    assert b.grad.tolist() == [1.0, 1.0]
    seed = mg.tensor([5.0, 6.0])
    a.grad = None
    a.backward(seed)
    assert not np.shares_memory(a.grad.array, seed.array)
    m = mg.tensor([[1.0, 2.0]], requires_grad=True)
    z = (m * 2).reshape(2)
    z.retain_grad()
    (z + b).sum().backward()
    assert not np.shares_memory(z.grad.array, b.grad.array)


def test_a_hook_result_stored_as_grad_is_a_copy():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    kept = []

    def hook(g):
        kept.append(g * 1)
        return kept[-1]

    a.register_hook(hook)
    (a * 2).sum().backward()
    assert not np.shares_memory(a.grad.array, kept[0].array)


@pytest.mark.parametrize(
    "fn",
    [
        lambda a, b: a * b,
        lambda a, b: a / b,
        lambda a, b: a**b,
        lambda a, b: a - b,
        lambda a, b: mg.maximum(a, b),
        lambda a, b: mg.where(a > 0, a, b),
        lambda a, b: (a @ b.transpose(0, 1)).tanh(),
        lambda a, b: mg.clamp(a, min=b),
    ],
    ids=["mul", "div", "pow", "sub", "maximum", "where", "matmul_tanh", "clamp"],
)
def test_broadcasting_rules_gradcheck_to_second_order(fn):
    a = rand64(3, 4, positive=True)
    b = rand64(1, 4, positive=True)
    assert gradcheck(fn, (a, b))
    assert gradgradcheck(fn, (a, b))


def test_create_graph_double_backward_through_rules():
    x = mg.tensor([0.5, -1.5, 2.0], dtype=mg.float64, requires_grad=True)
    y = (x * x * x).tanh().sum()
    (gx,) = mg.autograd.grad(y, x, create_graph=True)
    (ggx,) = mg.autograd.grad(gx.sum(), x)
    torch = pytest.importorskip("torch")
    tx = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
    (tgx,) = torch.autograd.grad((tx * tx * tx).tanh().sum(), tx, create_graph=True)
    (tggx,) = torch.autograd.grad(tgx.sum(), tx)
    np.testing.assert_allclose(gx.detach().numpy(), tgx.detach().numpy(), rtol=1e-9, atol=1e-14)
    np.testing.assert_allclose(ggx.numpy(), tggx.numpy(), rtol=1e-9, atol=1e-14)
