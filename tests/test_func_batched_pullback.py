"""A batch of cotangents through one graph: ``jacrev`` runs its function once and ``vmap`` of a pull-back runs
each rule once on the whole batch where the op declares ``batches_gradients`` (``torch.func``'s way), and
once per entry where it does not."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import _events, func
from minigrad.ops.declare import BATCHING_RULES

RNG = np.random.default_rng(7)
W = RNG.standard_normal((6, 4))
X = RNG.standard_normal(4)


def _t(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def _events_of(kind, run):
    seen = []

    def listener(k, values):
        if k == kind:
            seen.append(values)

    _events.add_listener(listener)
    try:
        result = run()
    finally:
        _events.remove_listener(listener)
    return result, seen


def _pulled_entry_by_entry(pull, cotangents):
    rows = [pull(_t(c)) for c in cotangents]
    return [np.stack([r[k].numpy() for r in rows]) for k in range(len(rows[0]))]


def test_jacrev_runs_the_function_once_unbatched():
    f = lambda x: (_t(W) @ x).tanh()  # noqa: E731
    jacobian, created = _events_of("node_created", lambda: func.jacrev(f)(_t(X)))
    tanh_shapes = {tuple(node.shape) for node, _ in created if node.op == "tanh"}
    assert tanh_shapes == {(6,)}  # not (6, 6): the basis is not pushed through the forward
    t = np.tanh(W @ X)
    np.testing.assert_allclose(jacobian.numpy(), (1 - t * t)[:, None] * W, rtol=1e-12)


def test_a_declared_rule_runs_once_on_the_batch():
    _, pull = func.vjp(lambda x: (_t(W) @ x).tanh(), _t(X))
    cotangents = RNG.standard_normal((5, 6))
    (rows,), called = _events_of("closure_called", lambda: func.vmap(pull)(_t(cotangents)))
    assert sorted(node.op for _, _, node, *_ in called) == ["matmul", "tanh"]
    t = np.tanh(W @ X)
    np.testing.assert_allclose(rows.numpy(), (cotangents * (1 - t * t)) @ W, rtol=1e-12)


@pytest.mark.parametrize(
    "shapes", [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 3)), ((3, 4), (4, 2)), ((2, 3, 4), (4, 2))], ids=str
)
def test_matmul_rules_take_a_batch_of_gradients(shapes):
    a, b = (_t(RNG.standard_normal(s)) for s in shapes)
    out, pull = func.vjp(lambda a, b: (a @ b).tanh(), a, b)
    cotangents = RNG.standard_normal((3,) + tuple(out.shape))
    batched = func.vmap(pull)(_t(cotangents))
    for got, want in zip(batched, _pulled_entry_by_entry(pull, cotangents)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-14)
    ja, jb = func.jacrev(lambda a, b: (a @ b).tanh(), argnums=(0, 1))(a, b)
    fa, fb = func.jacfwd(lambda a, b: (a @ b).tanh(), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(ja.numpy(), fa.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(jb.numpy(), fb.numpy(), rtol=1e-12, atol=1e-14)


def test_rules_not_declared_run_once_per_entry_and_quietly():
    # hardtanh is not declared; log_softmax's input gradient and the embedding's scatter compute on arrays
    weight = _t(RNG.standard_normal((5, 6)))
    index = mg.tensor(np.array([1, 3, 3]))

    def f(x, w):
        rows = F.embedding(index, w) * F.hardtanh((_t(W) @ x) * 2.0)
        return F.log_softmax(rows, dim=-1)

    out, pull = func.vjp(f, _t(X), weight)
    cotangents = RNG.standard_normal((4,) + tuple(out.shape))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        batched = func.vmap(pull)(_t(cotangents))
    for got, want in zip(batched, _pulled_entry_by_entry(pull, cotangents)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-14)


def test_jacrev_of_undeclared_rules_matches_jacfwd():
    f = lambda x: F.log_softmax(F.hardtanh(_t(W) @ x), dim=0)  # noqa: E731
    np.testing.assert_allclose(func.jacrev(f)(_t(X)).numpy(), func.jacfwd(f)(_t(X)).numpy(), rtol=1e-12, atol=1e-14)


def test_a_jacobian_of_declared_rules_differentiates_again():
    f = lambda x: (_t(W) @ x).tanh()  # noqa: E731
    x = _t(X).requires_grad_()
    func.jacrev(f)(x).square().sum().backward()
    eps, want = 1e-6, []
    for k in range(len(X)):
        step = np.eye(len(X))[k] * eps
        plus = func.jacrev(f)(_t(X + step)).numpy()
        minus = func.jacrev(f)(_t(X - step)).numpy()
        want.append(((plus**2).sum() - (minus**2).sum()) / (2 * eps))
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-6)


def test_a_batch_of_cotangents_of_the_wrong_shape_names_an_entrys_shape():
    _, pull = func.vjp(lambda x: (_t(W) @ x).tanh(), _t(X))
    with pytest.raises(
        RuntimeError, match=r"grad_output\[0\] has a shape of \[5\] and output\[0\] has a shape of \[6\]"
    ):
        func.vmap(pull)(_t(RNG.standard_normal((3, 5))))


def test_the_declared_rules_are_the_ops_own():
    from minigrad.ops import elementwise, linalg

    assert elementwise.tanh.__code__ in BATCHING_RULES
    assert linalg._matmul_rule.__wrapped__.__code__ in BATCHING_RULES
    assert elementwise.where.__wrapped__.__code__ in BATCHING_RULES  # its rules call its checked entry
    a, b = _t(np.abs(X) + 0.5).requires_grad_(), _t(X).requires_grad_()
    assert (a**b)._backward.__code__ in BATCHING_RULES
    assert (a**2)._backward.__code__ in BATCHING_RULES
    assert F.hardtanh(a)._backward.__code__ not in BATCHING_RULES


def test_as_torch_func():
    torch = pytest.importorskip("torch")

    def run(lib, F_):
        w = lib.tensor(W, dtype=lib.float64)
        return F_.jacrev(lambda x: (w @ x).tanh() * x.sum())(lib.tensor(X, dtype=lib.float64)).detach().numpy()

    np.testing.assert_allclose(run(mg, func), run(torch, torch.func), rtol=1e-12)


DECLARED = {
    "add": lambda a, b: a + b,
    "add a number": lambda a, b: a + 2.0,
    "sub": lambda a, b: a - b,
    "neg": lambda a, b: -a,
    "mul": lambda a, b: a * b,
    "mul by a number": lambda a, b: a * 3.0,
    "div": lambda a, b: a / b,
    "div by a number": lambda a, b: a / 3.0,
    "exp": lambda a, b: a.exp(),
    "log": lambda a, b: b.log(),
    "sigmoid": lambda a, b: a.sigmoid(),
    "square": lambda a, b: a.square(),
    "tanh": lambda a, b: a.tanh(),
    "matmul": lambda a, b: a @ _t(W[:4, :2]),
    "rdiv": lambda a, b: 2.0 / b,
    "pow by a number": lambda a, b: a**3,
    "pow by zero": lambda a, b: a**0,
    "abs": lambda a, b: a.abs(),
    "log1p": lambda a, b: b.log1p(),
    "sqrt": lambda a, b: b.sqrt(),
    "rsqrt": lambda a, b: b.rsqrt(),
    "reciprocal": lambda a, b: b.reciprocal(),
    "sin": lambda a, b: a.sin(),
    "cos": lambda a, b: a.cos(),
    "erf": lambda a, b: a.erf(),
    "relu": lambda a, b: a.relu(),
    "silu": lambda a, b: F.silu(a),
    "clamp": lambda a, b: a.clamp(-0.5, 0.5),
    "clamp by tensors": lambda a, b: a.clamp(-b, b),
    "sinh": lambda a, b: a.sinh(),
    "cosh": lambda a, b: a.cosh(),
    "expm1": lambda a, b: a.expm1(),
    "asin": lambda a, b: (a / 4).asin(),
    "acos": lambda a, b: (a / 4).acos(),
    "atan": lambda a, b: a.atan(),
    "exp2": lambda a, b: a.exp2(),
    "log2": lambda a, b: b.log2(),
    "log10": lambda a, b: b.log10(),
    "reshape": lambda a, b: a.reshape(2, 6),
    "unsqueeze": lambda a, b: a.unsqueeze(1),
    "squeeze": lambda a, b: a.reshape(3, 1, 4).squeeze(1),
    "permute": lambda a, b: a.permute(1, 0),
    "transpose": lambda a, b: a.transpose(0, 1),
    "stack": lambda a, b: mg.stack([a, b], dim=1),
    "sum": lambda a, b: a.sum(),
    "sum over a dim": lambda a, b: a.sum(dim=1, keepdim=True),
    "mean": lambda a, b: a.mean(dim=0),
    "var": lambda a, b: a.var(dim=1),
    "std": lambda a, b: a.std(),
    "logsumexp": lambda a, b: a.logsumexp(dim=1),
    "softmax": lambda a, b: a.softmax(dim=1),
    "to": lambda a, b: a.to(mg.float32),
    "clone": lambda a, b: a.clone(),
    "linear": lambda a, b: F.linear(a, b),
    "where": lambda a, b: mg.where(a > 0, a, b),
    "where a tensor or a number": lambda a, b: mg.where(a > 0, a, 0.5),
    "where a number or a tensor": lambda a, b: mg.where(a > 0, 0.5, b),
    "leaky_relu": lambda a, b: F.leaky_relu(a, 0.1),
    "elu": lambda a, b: F.elu(a),
    "softplus": lambda a, b: F.softplus(a, beta=2.0, threshold=1.0),
    "pow by a tensor": lambda a, b: b**a,
    "a number to a tensor's power": lambda a, b: 2.0**a,
    "zero to a tensor's power": lambda a, b: 0.0**b,
    "masked_fill": lambda a, b: a.masked_fill(a > 0, 2.0),
    "masked_fill by a tensor": lambda a, b: a.masked_fill(a > 0, b.sum()),
    "logit": lambda a, b: (b / 4).logit(eps=0.2),
    "xlogy": lambda a, b: mg.xlogy(a * (a > 0), b),
}


@pytest.mark.filterwarnings(
    "ignore:invalid value encountered:RuntimeWarning"
)  # 0 * log(0), masked: as minigrad filters
@pytest.mark.parametrize("name", list(DECLARED))
def test_each_declared_op_takes_the_batch_as_its_entries_one_by_one(name):
    a, b = _t(RNG.standard_normal((3, 4))), _t(np.abs(RNG.standard_normal((3, 4))) + 0.5)
    assert DECLARED[name](a.detach().requires_grad_(), b.detach().requires_grad_())._backward.__code__ in BATCHING_RULES
    out, pull = func.vjp(DECLARED[name], a, b)
    cotangents = RNG.standard_normal((5,) + tuple(out.shape))
    _, called = _events_of("closure_called", lambda: func.vmap(pull)(_t(cotangents)))
    nodes = [node for _, _, node, *_ in called]
    assert len(nodes) == len({id(n) for n in nodes})  # each rule once, on the batch
    assert all(n._backward.__code__ in BATCHING_RULES for n in nodes)
    batched = func.vmap(pull)(_t(cotangents))
    for got, want in zip(batched, _pulled_entry_by_entry(pull, cotangents)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("transform", [func.jacrev, func.jacfwd], ids=lambda t: t.__name__)
def test_a_jacobian_of_the_identity_is_its_own_array_each_call(transform):
    x = _t(X)
    first, second = transform(lambda v: v)(x), transform(lambda v: v * 1.0)(x)
    assert not np.shares_memory(first.array, second.array)
    first.array[0, 0] = 7.0  # the user's to write
    np.testing.assert_array_equal(transform(lambda v: v)(x).numpy(), np.eye(len(X)))


def test_a_hook_that_writes_into_its_gradient_leaves_the_next_jacobian_right():
    def f(v):
        y = (_t(W) @ v).tanh()
        y.register_hook(lambda g: g.mul_(2))  # g is a row of jacrev's basis: written in place
        return y

    t = np.tanh(W @ X)
    for _ in range(3):
        np.testing.assert_allclose(func.jacrev(f)(_t(X)).numpy(), 2 * (1 - t * t)[:, None] * W, rtol=1e-12)
