"""minigrad.func with pytree arguments and outputs (nested tuples, lists, dicts of tensors), as torch.func.

Against loops over the batch, against torch.func when installed, and a few cases of PyTorch's own
test/functorch/test_eager_transforms.py written again in our words.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import func


def _t(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def _model():
    mg.manual_seed(0)
    return mg.nn.Sequential(mg.nn.Linear(4, 6), mg.nn.Tanh(), mg.nn.Linear(6, 3)).double()


def _batch(n=5):
    rng = np.random.default_rng(0)
    return _t(rng.standard_normal((n, 4))), mg.tensor(rng.integers(0, 3, size=n))


def _assert_trees_close(ours, theirs, rtol=1e-10):
    """Two trees of the same structure (ours of minigrad tensors, theirs of torch or minigrad ones)."""
    if isinstance(ours, (dict, tuple, list)):
        assert type(ours) is type(theirs)
    if isinstance(ours, dict):
        assert list(ours) == list(theirs)
        for k in ours:
            _assert_trees_close(ours[k], theirs[k], rtol)
    elif isinstance(ours, (tuple, list)):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _assert_trees_close(a, b, rtol)
    else:
        np.testing.assert_allclose(ours.numpy(), theirs.detach().numpy(), rtol=rtol, atol=1e-12)


def test_per_example_gradients_of_a_parameter_dict_equal_a_loop():
    model = _model()
    params = {k: v.detach() for k, v in model.named_parameters()}
    xb, yb = _batch()

    def loss(params, x, y):
        return F.cross_entropy(func.functional_call(model, params, (x,)), y)

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # every op by its batching rule
        per_example = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, xb, yb)
    assert list(per_example) == list(params)
    for i in range(5):
        one = func.grad(loss)(params, xb[i], yb[i])
        for name in params:
            assert per_example[name].shape == (5,) + params[name].shape
            np.testing.assert_allclose(per_example[name][i].numpy(), one[name].numpy(), rtol=1e-12)
    mean = func.grad(loss)(params, xb, yb)
    model.zero_grad()
    F.cross_entropy(model(xb), yb).backward()
    for name, p in model.named_parameters():
        np.testing.assert_allclose(mean[name].numpy(), p.grad.numpy(), rtol=1e-12)
        assert not mean[name].requires_grad


def test_per_example_gradients_against_torch_func():
    torch = pytest.importorskip("torch")
    import torch.func as tf

    model = _model()
    params = {k: v.detach() for k, v in model.named_parameters()}
    xb, yb = _batch()
    reference = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.Tanh(), torch.nn.Linear(6, 3)).double()
    theirs_params = {k: torch.tensor(v.numpy()) for k, v in params.items()}

    def loss(params, x, y):
        return F.cross_entropy(func.functional_call(model, params, (x,)), y)

    def loss_torch(params, x, y):
        return torch.nn.functional.cross_entropy(tf.functional_call(reference, params, (x,)), y)

    ours = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, xb, yb)
    theirs = tf.vmap(tf.grad(loss_torch), in_dims=(None, 0, 0))(
        theirs_params, torch.tensor(xb.numpy()), torch.tensor(yb.numpy())
    )
    _assert_trees_close(ours, theirs)
    ours_value = func.grad_and_value(loss)(params, xb, yb)
    theirs_value = tf.grad_and_value(loss_torch)(theirs_params, torch.tensor(xb.numpy()), torch.tensor(yb.numpy()))
    _assert_trees_close(ours_value, theirs_value)


def test_per_example_gradients_of_a_cnn_with_parameters_and_buffers_against_torch_func():
    torch = pytest.importorskip("torch")
    import torch.func as tf

    mg.manual_seed(0)
    nn, tnn = mg.nn, torch.nn
    model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(64, 3)).double()
    reference = tnn.Sequential(tnn.Conv2d(1, 4, 3), tnn.BatchNorm2d(4), tnn.ReLU(), tnn.Flatten(), tnn.Linear(64, 3))
    model.eval(), reference.double().eval()
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}
    rng = np.random.default_rng(6)
    xb, yb = rng.standard_normal((5, 1, 6, 6)), rng.integers(0, 3, 5)

    def loss(params, buffers, x, y):
        out = func.functional_call(model, (params, buffers), (x.unsqueeze(0),))
        return F.cross_entropy(out, y.unsqueeze(0))

    def loss_torch(params, buffers, x, y):
        out = tf.functional_call(reference, (params, buffers), (x.unsqueeze(0),))
        return torch.nn.functional.cross_entropy(out, y.unsqueeze(0))

    dims = (None, None, 0, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        ours = func.vmap(func.grad(loss), in_dims=dims)(params, buffers, _t(xb), mg.tensor(yb))
    theirs = tf.vmap(tf.grad(loss_torch), in_dims=dims)(
        {k: torch.tensor(v.numpy()) for k, v in params.items()},
        {k: torch.tensor(v.numpy()) for k, v in buffers.items()},
        torch.tensor(xb),
        torch.tensor(yb),
    )
    _assert_trees_close(ours, theirs)
    model.train()  # running statistics updated in place per example: refused, as torch.func refuses it
    with pytest.raises(RuntimeError, match="^Batch norm got a batched tensor as input while the running_mean"):
        func.vmap(func.grad(loss), in_dims=dims)(params, buffers, _t(xb), mg.tensor(yb))


def _pytree_f(a, b):
    (p, q), r = a, b["r"]
    return {"sum": (p * q).sin() + r[0], "pair": [p.tanh() * r, q.exp()]}


def _pytree_args(lib):
    rng = np.random.default_rng(1)
    p, q, r = rng.standard_normal(3), rng.standard_normal(3), rng.standard_normal(3)
    make = _t if lib is mg else lib.tensor
    return (make(p), make(q)), {"r": make(r)}


def test_jacobians_and_hessian_of_pytrees_against_torch_func():
    torch = pytest.importorskip("torch")
    import torch.func as tf

    ours_args, theirs_args = _pytree_args(mg), _pytree_args(torch)
    for argnums in (0, 1, (0, 1), (1, 0)):
        ours = func.jacrev(_pytree_f, argnums=argnums)(*ours_args)
        _assert_trees_close(ours, tf.jacrev(_pytree_f, argnums=argnums)(*theirs_args))
        _assert_trees_close(func.jacfwd(_pytree_f, argnums=argnums)(*ours_args), ours)

    def scalar(a, b):
        out = _pytree_f(a, b)
        return out["sum"].sum() * out["pair"][0].sum() + out["pair"][1].sum()

    _assert_trees_close(func.hessian(scalar)(*ours_args), tf.hessian(scalar)(*theirs_args))


def test_vjp_and_jvp_of_pytrees_against_torch_func():
    torch = pytest.importorskip("torch")
    import torch.func as tf

    ours_args, theirs_args = _pytree_args(mg), _pytree_args(torch)
    ours_out, ours_fn = func.vjp(_pytree_f, *ours_args)
    theirs_out, theirs_fn = tf.vjp(_pytree_f, *theirs_args)
    _assert_trees_close(ours_out, theirs_out)
    rng = np.random.default_rng(2)
    c = rng.standard_normal((3, 3))
    _assert_trees_close(
        ours_fn({"sum": _t(c[0]), "pair": [_t(c[1]), _t(c[2])]}),
        theirs_fn({"sum": torch.tensor(c[0]), "pair": [torch.tensor(c[1]), torch.tensor(c[2])]}),
    )
    tangents = ((_t(c[0]), _t(c[1])), {"r": _t(c[2])})
    theirs_tangents = ((torch.tensor(c[0]), torch.tensor(c[1])), {"r": torch.tensor(c[2])})
    _assert_trees_close(func.jvp(_pytree_f, ours_args, tangents), tf.jvp(_pytree_f, theirs_args, theirs_tangents))


def test_transforms_of_a_dict_compose_inside_vmap_as_torch_funcs():
    torch = pytest.importorskip("torch")
    import torch.func as tf

    rng = np.random.default_rng(5)
    arrays = {"a": rng.standard_normal((4, 3)), "b": rng.standard_normal((4, 3))}
    ours = {k: _t(v) for k, v in arrays.items()}
    theirs = {k: torch.tensor(v) for k, v in arrays.items()}

    def f(p):
        return (p["a"].sin() * p["b"]).sum()

    def composed(fn):
        return {
            "grad_grad": fn.grad(lambda p: sum(v.sum() for v in fn.grad(f)(p).values())),
            "vmap_jacrev": fn.vmap(fn.jacrev(f)),
            "vmap_jacfwd": fn.vmap(fn.jacfwd(f)),
            "vmap_hessian": fn.vmap(fn.hessian(f)),
            "vmap_jvp": fn.vmap(lambda p, t: fn.jvp(f, (p,), (t,))),
            "jacrev_chunked": fn.jacrev(lambda p: p["a"] * p["b"], chunk_size=2),
            "jacfwd_jacfwd": fn.jacfwd(fn.jacfwd(lambda p: {"y": f(p) * p["a"], "z": p["b"].exp()})),
            "jacrev_jacfwd": fn.jacrev(fn.jacfwd(lambda p: {"y": f(p) * p["a"], "z": p["b"].exp()})),
        }

    mine, reference = composed(func), composed(tf)
    for name in mine:
        args = (ours, ours) if name == "vmap_jvp" else (ours,)
        theirs_args = (theirs, theirs) if name == "vmap_jvp" else (theirs,)
        _assert_trees_close(mine[name](*args), reference[name](*theirs_args))


def test_vjp_inside_vmap_takes_a_tree_of_batched_cotangents():
    args = _pytree_args(mg)
    cotangents = {"sum": _t(np.ones((2, 3))), "pair": [_t(np.zeros((2, 3))), _t(np.full((2, 3), 2.0))]}

    def pull(c):
        return func.vjp(_pytree_f, *args)[1](c)

    batched = func.vmap(pull)(cotangents)
    for i in range(2):
        one = pull({"sum": cotangents["sum"][i], "pair": [c[i] for c in cotangents["pair"]]})
        np.testing.assert_allclose(batched[0][0][i].numpy(), one[0][0].numpy(), rtol=1e-12)
        np.testing.assert_allclose(batched[1]["r"][i].numpy(), one[1]["r"].numpy(), rtol=1e-12)


# ---------------------------------------------------------------- from PyTorch's test_eager_transforms.py
def test_grad_of_a_tuple_and_a_dict_argument():
    x = _t(0.7)

    def f(pair, named):
        first, second = pair
        return 1 * first + 2 * second + 3 * named["foo"]

    args = ((x, x), {"foo": x})  # one tensor three times: three separate leaves
    gx, gy = func.grad(f)(*args)
    assert (gx.item(), gy.item()) == (1.0, 2.0)
    ((gx, gy),) = func.grad(f, argnums=(0,))(*args)
    assert (gx.item(), gy.item()) == (1.0, 2.0)
    (gx, gy), gz = func.grad(f, argnums=(0, 1))(*args)
    assert (gx.item(), gy.item(), gz["foo"].item()) == (1.0, 2.0, 3.0)


def test_vjp_with_a_pytree_aux():
    x = _t([0.1, -0.4, 0.9])

    def f(x):
        return x.sin(), {"a": x.cos(), "b": [x.tan()]}

    out, vjp_fn, aux = func.vjp(f, x, has_aux=True)
    np.testing.assert_allclose(out.numpy(), np.sin(x.numpy()))
    np.testing.assert_allclose(aux["a"].numpy(), np.cos(x.numpy()))
    np.testing.assert_allclose(aux["b"][0].numpy(), np.tan(x.numpy()))
    assert not aux["a"].requires_grad
    v = _t([1.0, 2.0, 3.0])
    (gx,) = vjp_fn(v)
    np.testing.assert_allclose(gx.numpy(), v.numpy() * np.cos(x.numpy()))
    for bad in (1, 1.0, "abc"):
        with pytest.raises(RuntimeError, match="Expected tensors, got unsupported type"):
            func.vjp(lambda x: (x, bad), x, has_aux=True)  # noqa: B023
        with pytest.raises(RuntimeError, match="Expected tensors, got unsupported type"):
            func.vjp(lambda x: (x, [x, bad]), x, has_aux=True)  # noqa: B023


def test_jacrev_of_a_dict_output_by_a_dict_input():
    x, y = _t([1.0, 2.0, 3.0]), _t([4.0, 5.0])

    def f(inputs):
        return {"double": inputs["x"] * 2, "total": inputs["y"].sum()}

    jac = func.jacrev(f)({"x": x, "y": y})
    np.testing.assert_allclose(jac["double"]["x"].numpy(), 2 * np.eye(3))
    np.testing.assert_allclose(jac["double"]["y"].numpy(), np.zeros((3, 2)))
    np.testing.assert_allclose(jac["total"]["x"].numpy(), np.zeros(3))
    np.testing.assert_allclose(jac["total"]["y"].numpy(), np.ones(2))
    _assert_trees_close(func.jacfwd(f)({"x": x, "y": y}), jac)


# ---------------------------------------------------------------- errors, in torch.func's words
def test_a_leaf_that_is_not_a_tensor_is_refused():
    x = _t([1.0, 2.0])
    message = "Thing passed to transform API must be Tensor, got <class 'float'>"
    with pytest.raises(ValueError, match=message):
        func.grad(lambda p: p["a"].sum())({"a": x, "b": 1.0})
    with pytest.raises(ValueError, match=message):
        func.vjp(lambda p: p["a"].sum(), {"a": x, "b": 1.0})
    with pytest.raises(ValueError, match="got <class 'int'>"):
        func.jacrev(lambda p: p["a"].sum())({"a": x, "b": 2})
    with pytest.raises(ValueError, match="got <class 'NoneType'>"):
        func.jacfwd(lambda p: p[0].sum())([x, None])
    with pytest.raises(RuntimeError, match=r"jvp\(f, primals, tangents\): Expected primals to only contain Tensors"):
        func.jvp(lambda p: p["a"].sum(), ({"a": 1.0},), ({"a": 1.0},))


def test_argnums_out_of_range_or_repeated_are_refused():
    x = _t([1.0, 2.0])
    with pytest.raises(RuntimeError, match="Got argnum=2, but only 1 positional inputs"):
        func.grad(lambda p: p.sum(), argnums=2)({"a": x})
    with pytest.raises(RuntimeError, match="Got argnum=-3, but only 2 positional inputs"):
        func.jacrev(lambda p, q: p, argnums=(0, -3))(x, x)
    with pytest.raises(RuntimeError, match=r"argnums elements must be unique, got \(0, -2\)"):
        func.grad(lambda p, q: p.sum(), argnums=(0, -2))(x, x)
    with pytest.raises(RuntimeError, match="argnum must be int, got: <class 'str'>"):
        func.jacfwd(lambda p: p, argnums=("0",))(x)


def test_tangents_and_cotangents_must_have_the_structure_of_primals_and_outputs():
    x = _t([1.0, 2.0])
    with pytest.raises(
        RuntimeError,
        match=r"Got primals with structure TreeSpec\(tuple, None, \[TreeSpec\(dict, \['a'\], \[\*\]\)\]\) and "
        r"tangents with structure TreeSpec\(tuple, None, \[TreeSpec\(dict, \['b'\], \[\*\]\)\]\)",
    ):
        func.jvp(lambda p: p["a"].sum(), ({"a": x},), ({"b": x},))
    with pytest.raises(RuntimeError, match="Expected primals and tangents to have the same python structure"):
        func.jvp(lambda p: p[0].sum(), ((x, x),), ([x, x],))
    _, vjp_fn = func.vjp(lambda p: {"y": p * 2, "z": p.sum()}, x)
    with pytest.raises(
        RuntimeError,
        match=r"cotangents: \{'y': \*\}, primal output: \{'y': \*, 'z': \*\}",
    ):
        vjp_fn({"y": x})


def test_error_texts_equal_torch_funcs():
    torch = pytest.importorskip("torch")
    import torch.func as tf

    def message(case, lib, fn, x):
        try:
            case(lib, fn, x)
        except (RuntimeError, ValueError) as e:
            return type(e), str(e)
        raise AssertionError("no error")

    cases = [
        lambda lib, fn, x: fn.grad(lambda p: p["a"].sum())({"a": x, "b": 1.0}),
        lambda lib, fn, x: fn.grad(lambda p, q: p.sum(), argnums=(0, 0))(x, x),
        lambda lib, fn, x: fn.grad(lambda p: p.sum(), argnums=1)({"a": x}),
        lambda lib, fn, x: fn.jvp(lambda p: p["a"].sum(), ({"a": x},), ({"b": x},)),
        lambda lib, fn, x: fn.jvp(lambda p, q: p.sum(), (x, x), (x,)),
        lambda lib, fn, x: fn.jvp(lambda p: p[0].sum(), ((x, x),), ([x, x],)),
        lambda lib, fn, x: fn.vjp(lambda p: {"y": p * 2, "z": p.sum()}, x)[1]((x, x)),
        lambda lib, fn, x: fn.vjp(lambda p: (p, "aux"), x, has_aux=True),
        lambda lib, fn, x: fn.vmap(lambda p: p["a"], in_dims=({"a": 0},))({"a": x, "b": x}),
        lambda lib, fn, x: fn.vmap(lambda p: p, in_dims=(0, 0))({"a": x, "b": x}),
        lambda lib, fn, x: fn.vmap(lambda p: p, in_dims=([0, None],))((x, x)),
        lambda lib, fn, x: fn.vmap(lambda p: p, out_dims={"a": 0})({"b": x}),
    ]
    for case in cases:
        ours = message(case, mg, func, _t([1.0, 2.0]))
        assert ours == message(case, torch, tf, torch.tensor([1.0, 2.0]))
