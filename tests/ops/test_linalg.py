"""Matrix products: matmul in every rank combination, mm/bmm/mv/dot/outer, einsum; grads and errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck
from tests.conftest import rand64

MATMUL_SHAPES = [
    ((3,), (3,)),
    ((3,), (3, 4)),
    ((2, 3), (3,)),
    ((2, 3), (3, 4)),
    ((2, 2, 3), (3, 4)),
    ((2, 3), (5, 3, 4)),
    ((1, 2, 3), (4, 3, 2)),
    ((4, 1, 2, 3), (5, 3, 2)),
    ((3,), (2, 3, 4)),
    ((2, 2, 3), (3,)),
]


@pytest.mark.parametrize("sa, sb", MATMUL_SHAPES)
def test_matmul_values_and_gradcheck(sa, sb):
    a, b = rand64(*sa, seed=1), rand64(*sb, seed=2)
    out = a @ b
    np.testing.assert_allclose(out.detach().numpy(), a.array @ b.array)
    assert out.shape == np.matmul(a.array, b.array).shape
    assert gradcheck(lambda x, y: x @ y, (a, b))


@pytest.mark.parametrize("sa, sb", [((2, 3), (3, 4)), ((3,), (2, 3, 4)), ((2, 2, 3), (3,))])
def test_matmul_second_derivatives(sa, sb):
    assert gradgradcheck(lambda x, y: (x @ y) ** 2, (rand64(*sa, seed=3), rand64(*sb, seed=4)))


def test_matmul_non_contiguous_operands():
    a, b = rand64(3, 2, seed=5), rand64(4, 3, seed=6)
    assert gradcheck(lambda x, y: x.mT @ y.T, (a, b))
    assert gradcheck(lambda x, y: x[::2] @ y[1:, ::2], (rand64(4, 3, seed=7), rand64(4, 4, seed=8)))


@pytest.mark.parametrize("view", ["contiguous", "batch_transposed", "strided_rows"])
def test_batch_of_matrices_times_one_matrix(view):
    """[*, n, k] @ [k, m]: whether or not the batch's rows fold into one matrix, the values and both
    gradients (b's summed over every row of the batch) are matmul's."""
    base = {"contiguous": (2, 3, 4, 5), "batch_transposed": (3, 2, 4, 5), "strided_rows": (2, 3, 8, 5)}[view]
    a = rand64(*base, seed=11)
    pick = {
        "contiguous": lambda x: x,
        "batch_transposed": lambda x: x.transpose(0, 1),
        "strided_rows": lambda x: x[:, :, ::2],
    }[view]
    b = rand64(5, 6, seed=12)
    np.testing.assert_allclose((pick(a) @ b).detach().numpy(), np.matmul(pick(a).detach().numpy(), b.array))
    assert gradcheck(lambda x, y: pick(x) @ y, (a, b))
    assert gradgradcheck(lambda x, y: (pick(x) @ y) ** 2, (a, b))


@pytest.mark.parametrize(
    "sa, sb", [((4, 1), (1, 3)), ((2, 4, 1), (2, 1, 3)), ((3, 1, 4, 1), (2, 1, 3)), ((4, 1), (5, 1, 3))]
)
def test_columns_times_rows(sa, sb):
    """An inner dim of 1 (outer products, batched or broadcast): matmul's values, shape and gradients."""
    a, b = rand64(*sa, seed=13), rand64(*sb, seed=14)
    out = a @ b
    np.testing.assert_array_equal(out.detach().numpy(), np.matmul(a.array, b.array))
    assert gradcheck(lambda x, y: x @ y, (a, b))
    assert gradgradcheck(lambda x, y: (x @ y) ** 2, (a, b))
    ints = mg.tensor(np.arange(np.prod(sa)).reshape(sa)) @ mg.tensor(np.arange(np.prod(sb)).reshape(sb))
    assert ints.dtype == mg.int64
    np.testing.assert_array_equal(
        ints.numpy(), np.matmul(np.arange(np.prod(sa)).reshape(sa), np.arange(np.prod(sb)).reshape(sb))
    )


@pytest.mark.parametrize(
    "sa, batch", [((3, 2, 4), (3,)), ((2, 3, 2, 4), (3,)), ((1, 2, 4), (3,)), ((2, 1, 2, 4), (2, 3))]
)
def test_batch_times_one_matrix_broadcast_over_it(sa, batch):
    """b an expanded view (stride 0, as vmap lifts an unbatched weight): matmul's values, shape and gradients,
    also where b's batch is wider than a's."""
    a, b = rand64(*sa, seed=15), rand64(4, 5, seed=16)

    def f(x, y):
        return x @ y.expand(*batch, 4, 5)

    out = f(a, b)
    np.testing.assert_allclose(out.detach().numpy(), np.matmul(a.array, np.broadcast_to(b.array, (*batch, 4, 5))))
    assert gradcheck(f, (a, b))
    assert gradgradcheck(lambda x, y: f(x, y) ** 2, (a, b))


@pytest.mark.parametrize("sa, wide", [((1, 4), (6, 4)), ((1, 1, 4), (2, 6, 4))])
def test_rows_one_row_repeats(sa, wide):
    """a an expanded view whose rows are one row (as vmap lifts jacfwd's primal): that row's product, copied into
    a result of its own, with matmul's gradients."""
    a, b = rand64(*sa, seed=17), rand64(4, 5, seed=18)

    def f(x, y):
        return x.expand(*wide) @ y

    out = f(a, b)
    np.testing.assert_allclose(out.detach().numpy(), np.matmul(np.broadcast_to(a.array, wide), b.array), rtol=1e-15)
    rows = out.array.reshape(-1, 5)
    rows[0] = 0.0  # its own memory: the other rows keep their values
    assert not np.allclose(rows[1], 0.0)
    assert gradcheck(f, (a, b))


def test_matmul_grad_only_for_inputs_that_require_it():
    a, b = rand64(2, 3, seed=1), rand64(3, 4, seed=2, requires_grad=False)
    (a @ b).sum().backward()
    assert b.grad is None
    np.testing.assert_allclose(a.grad.numpy(), np.ones((2, 4)) @ b.array.T)


def test_rmatmul_with_numpy_array():
    b = rand64(3, 2, seed=1)
    out = np.ones((2, 3)) @ b
    assert isinstance(out, mg.Tensor)
    np.testing.assert_allclose(out.detach().numpy(), np.ones((2, 3)) @ b.array)


@pytest.mark.parametrize(
    "fn, text",
    [
        (lambda: mg.ones(2, 3) @ mg.ones(4, 5), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
        (lambda: mg.ones(2, 3) @ mg.ones(4), "size mismatch, got input (2), mat (2x3), vec (4)"),
        (lambda: mg.ones(3) @ mg.ones(4), "inconsistent tensor size, expected tensor [3] and src [4]"),
        (lambda: mg.ones(2, 2, 3) @ mg.ones(3, 4, 5), "matmul: shapes [2, 2, 3] and [3, 4, 5] cannot be multiplied"),
        (
            lambda: mg.ones(2) @ mg.tensor(1.0),
            "both arguments to matmul need to be at least 1D, but they are 1D and 0D",
        ),
        (lambda: mg.ones(2, 2) @ mg.ones(2, 2, dtype=mg.float64), "same dtype, but got: float32 != float64"),
        (lambda: mg.mm(mg.ones(2), mg.ones(2, 2)), "self must be a matrix"),
        (lambda: mg.mm(mg.ones(2, 2), mg.ones(2)), "mat2 must be a matrix"),
        (lambda: mg.bmm(mg.ones(2, 2), mg.ones(2, 2, 2)), "batch1 must be a 3D tensor"),
        (lambda: mg.bmm(mg.ones(2, 3, 4), mg.ones(3, 4, 5)), "[2, 4] but got: [3, 4]"),
        (lambda: mg.mv(mg.ones(2, 3), mg.ones(2, 3)), "got 1, 2, 2"),
        (lambda: mg.dot(mg.ones(2, 2), mg.ones(2)), "1D tensors expected, but got 2D and 1D tensors"),
        (lambda: mg.dot(mg.ones(2), mg.ones(3)), "expected tensor [2] and src [3] to have the same number"),
        (lambda: mg.dot(mg.ones(2), mg.ones(2, dtype=mg.float64)), "same dtype, but found float32 and float64"),
        (lambda: mg.outer(mg.ones(2, 2), mg.ones(3)), "outer: Expected 1-D argument self, but got 2-D"),
    ],
)
def test_product_errors(fn, text):
    with pytest.raises(RuntimeError) as info:
        fn()
    assert text in str(info.value)


def test_matmul_type_and_device_errors():
    with pytest.raises(TypeError, match=r"matmul\(\): argument 'other' \(position 2\) must be Tensor, not int"):
        mg.matmul(mg.ones(2), 3)
    fake = mg.ones(2)
    fake.device = mg.Device("cuda", 0)  # a second device, faked: the check runs before any array work
    with pytest.raises(RuntimeError, match="cpu and cuda:0"):
        mg.ones(2) @ fake


@pytest.mark.parametrize(
    "fn, shapes, op",
    [
        (mg.mm, ((2, 3), (3, 4)), "MmBackward"),
        (mg.bmm, ((2, 2, 3), (2, 3, 4)), "BmmBackward"),
        (mg.mv, ((2, 3), (3,)), "MvBackward"),
        (mg.dot, ((3,), (3,)), "DotBackward"),
        (mg.outer, ((3,), (4,)), "OuterBackward"),
    ],
)
def test_named_products(fn, shapes, op):
    a, b = rand64(*shapes[0], seed=1), rand64(*shapes[1], seed=2)
    out = fn(a, b)
    expected = np.multiply.outer(a.array, b.array) if fn is mg.outer else a.array @ b.array
    np.testing.assert_allclose(out.detach().numpy(), expected)
    assert repr(out.grad_fn) == f"<{op}>"
    assert gradcheck(fn, (a, b))


def test_outer_promotes_like_mul():
    out = mg.outer(mg.tensor([1, 2]), mg.tensor([0.5, 1.0], requires_grad=True))
    assert out.dtype == mg.float32
    out.sum().backward()


# ---------------------------------------------------------------- einsum
EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("ij->ji", [(2, 3)]),
    ("i,i->", [(3,), (3,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]),
    ("i,i->i", [(1,), (3,)]),
    ("...i->i", [(2, 3, 4)]),
    ("b i, b i -> b", [(3, 2), (1, 2)]),
    ("bhqd,bhkd->bhqk", [(1, 2, 3, 2), (1, 2, 4, 2)]),
    ("ab...,b->a...", [(2, 3, 2), (3,)]),
]


@pytest.mark.parametrize("eq, shapes", EINSUM_CASES)
def test_einsum_values_and_gradcheck(eq, shapes):
    xs = [rand64(*s, seed=i) for i, s in enumerate(shapes)]
    out = mg.einsum(eq, *xs)
    broadcast = [np.broadcast_to(x.array, s) for x, s in zip(xs, shapes)]
    np.testing.assert_allclose(out.detach().numpy(), _numpy_einsum(eq, broadcast, shapes))
    assert gradcheck(lambda *t: mg.einsum(eq, *t), xs)


def _numpy_einsum(eq, arrays, shapes):
    if eq == "i,i->i":
        return arrays[0] * arrays[1]
    if eq == "...i->i":  # NumPy refuses to sum ellipsis dims missing from the output; PyTorch sums them
        return arrays[0].reshape(-1, shapes[0][-1]).sum(0)
    if eq == "b i, b i -> b":
        return (arrays[0] * arrays[1]).sum(-1)
    return np.einsum(eq, *arrays)


def test_einsum_list_form_and_second_derivative():
    a, b = rand64(2, 3, seed=1), rand64(3, 2, seed=2)
    np.testing.assert_allclose(mg.einsum("ij,jk->ik", [a, b]).detach().numpy(), a.array @ b.array)
    assert gradgradcheck(lambda x, y: mg.einsum("ij,jk->ik", x, y) ** 2, (a, b))


@pytest.mark.parametrize(
    "eq, shapes, text",
    [
        ("ii->i", [(2, 3)], "subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"),
        ("ij,jk->ik", [(2, 3), (4, 5)], "subscript j has size 4 for operand 1 which does not broadcast"),
        ("ij->k", [(2, 3)], "output subscript k does not appear in the equation for any input operand"),
        ("ij->ii", [(2, 3)], "output subscript i appears more than once"),
        ("ij", [(2, 3, 4)], "number of subscripts in the equation (2) does not match the number of dimensions (3)"),
        ("i,j", [(2,)], "fewer operands were provided"),
        ("i", [(2,), (2,)], "more operands were provided"),
        ("i1", [(2, 2)], "invalid subscript"),
    ],
)
def test_einsum_errors(eq, shapes, text):
    with pytest.raises(RuntimeError) as info:
        mg.einsum(eq, *[mg.ones(*s) for s in shapes])
    assert text in str(info.value)


def test_einsum_dtype_mismatch():
    with pytest.raises(RuntimeError, match="operand 0 is float32 and operand 1 is float64"):
        mg.einsum("i,i->", mg.ones(2), mg.ones(2, dtype=mg.float64))


# ---------------------------------------------------------------- hypothesis
@settings(max_examples=20, deadline=None)
@given(
    batch=st.lists(st.integers(1, 3), max_size=2),
    n=st.integers(1, 3),
    k=st.integers(1, 3),
    m=st.integers(1, 3),
    data=st.data(),
)
def test_batched_matmul_broadcasting_family(batch, n, k, m, data):
    b_batch = [1 if data.draw(st.booleans()) else s for s in batch]
    a_batch = batch[data.draw(st.integers(0, len(batch))) :]
    a = rand64(*a_batch, n, k, seed=1)
    b = rand64(*b_batch, k, m, seed=2)
    np.testing.assert_allclose((a @ b).detach().numpy(), np.matmul(a.array, b.array))
    assert gradcheck(lambda x, y: x @ y, (a, b))


# ---------------------------------------------------------------- PyTorch parity
@pytest.mark.parametrize("sa, sb", MATMUL_SHAPES)
def test_torch_parity_matmul_grads(sa, sb):
    torch = pytest.importorskip("torch")
    a, b = rand64(*sa, seed=1), rand64(*sb, seed=2)
    ta, tb = torch.tensor(a.array, requires_grad=True), torch.tensor(b.array, requires_grad=True)
    out, tout = a @ b, ta @ tb
    w = np.random.default_rng(3).standard_normal(out.shape)
    (out * mg.tensor(w)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy())
    np.testing.assert_allclose(a.grad.numpy(), ta.grad.numpy())
    np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy())


def test_torch_parity_einsum_grads():
    torch = pytest.importorskip("torch")
    for eq, shapes in EINSUM_CASES:
        xs = [rand64(*s, seed=i) for i, s in enumerate(shapes)]
        txs = [torch.tensor(x.array, requires_grad=True) for x in xs]
        out, tout = mg.einsum(eq, *xs), torch.einsum(eq, *txs)
        (out**2).sum().backward()
        (tout**2).sum().backward()
        for x, tx in zip(xs, txs):
            np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), err_msg=eq)
