"""Checks for lesson 9: run on the CPU everywhere; with a CUDA GPU (`minigrad.cuda_is_available()`)
they also move to it and compare with the CPU results."""

import warnings

import numpy as np

import minigrad as mg
from minigrad import nn
from minigrad.course import check
from minigrad.course.recording import incoming_grads, record_call

DEVICES = ["cpu"] + (["cuda"] if mg.cuda_is_available() else [])


def batch():
    a = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = mg.tensor([0, 1])
    return {"inputs": (a, [b, b * 2]), "meta": {"size": 2, "name": "toy", "extra": None}, "raw": np.ones(3)}, a


@check("ex2_to_device", "keeps the structure and every non-tensor, moves every tensor")
def _(ex):
    for device in DEVICES:
        original, _ = batch()
        moved = ex.to_device(original, device)
        assert isinstance(moved, dict) and set(moved) == {"inputs", "meta", "raw"}, "the dict's keys must stay"
        assert isinstance(moved["inputs"], tuple) and isinstance(moved["inputs"][1], list), "tuples/lists stay"
        assert moved["meta"] == {"size": 2, "name": "toy", "extra": None}, "non-tensors must be left as they are"
        assert moved["raw"] is original["raw"], "a NumPy array is not a Tensor: leave it alone"
        tensors = [moved["inputs"][0], *moved["inputs"][1]]
        for t, src in zip(tensors, [original["inputs"][0], *original["inputs"][1]]):
            assert isinstance(t, mg.Tensor) and t.device == device, f"a tensor is on {t.device}, expected {device}"
            np.testing.assert_array_equal(t.cpu().detach().numpy(), src.detach().numpy())


@check("ex2_to_device", "moved tensors stay in the graph: gradients flow back to the CPU original")
def _(ex):
    for device in DEVICES:
        original, a = batch()
        moved = ex.to_device(original, device)
        (moved["inputs"][0] ** 2).sum().backward()
        assert a.grad is not None, "the moved tensor lost its graph: use .to(), not a copy of the data"
        assert a.grad.device == "cpu"
        np.testing.assert_allclose(a.grad.numpy(), 2 * a.detach().numpy())


@check("ex3_predict", "matches the model's own argmax on the CPU, for a model on every available device")
def _(ex):
    mg.manual_seed(9)
    X, _ = mg.data.make_moons(50, noise=0.2, seed=9)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
    with mg.no_grad():
        want = model(mg.tensor(X)).numpy().argmax(1)
    for device in DEVICES:
        model.to(device)
        got = ex.predict(model, X)
        assert isinstance(got, np.ndarray), f"predict must return a NumPy array, got {type(got).__name__}"
        np.testing.assert_array_equal(got, want, err_msg=f"predictions with the model on {device}")


def move_and_square(device, dtype):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True, name="x")  # float32, on the CPU
    xd = x.to(device, dtype)
    (xd * xd).sum().backward()


def cases():
    yield "cpu", mg.float32, True, True
    yield "cpu", mg.float64, True, False
    if mg.cuda_is_available():
        yield "cuda", mg.float32, False, True


@check("ex4_predict_trace", "predict_to_nodes() matches the recorded 'to' nodes")
def _(ex):
    for device, dtype, same_device, same_dtype in cases():
        trace, _ = record_call(move_and_square, device, dtype)
        want = sum(info.op == "to" for info in trace.nodes.values())
        got = ex.predict_to_nodes(same_device, same_dtype)
        assert got == want, f"to({device}, {dtype}): you predicted {got} 'to' nodes, the trace has {want}"


@check("ex4_predict_trace", "predict_x_grad_device() and predict_x_grad() match x's node_entered event")
def _(ex):
    for device, dtype, _, _ in cases():
        trace, _ = record_call(move_and_square, device, dtype)
        (entered,) = trace.find("node_entered", "x")
        got = ex.predict_x_grad_device(str(mg.device(device)))
        assert got == entered.grad.device, f"computing on {device}: predicted {got}, trace shows {entered.grad.device}"
        (values,) = incoming_grads(trace, "x")
        np.testing.assert_allclose(ex.predict_x_grad(), values, err_msg=f"the gradient entering x ({device})")


@check("ex1_device_agnostic", "pick_device() follows mg.cuda_is_available(); model_device() is the first parameter's")
def _(ex):
    want = "cuda" if mg.cuda_is_available() else "cpu"
    got = ex.pick_device()
    assert got == want, f"pick_device() on this machine: expected {want!r}, got {got!r}"
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1)).to(want)
    got = ex.model_device(model)
    assert str(got) == str(mg.device(want)), f"model_device of a model on {want}: expected {mg.device(want)}, got {got}"


@check("ex5_find_the_bug", "op_of_x() is the op of the node the buggy x names")
def _(ex):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trace, grad = record_call(ex.buggy_gradient)
    assert grad is None, "sanity: the buggy x has no .grad"
    want = trace.node("x").op or "leaf"
    got = ex.op_of_x()
    assert got == want, f"the op of the node x names: expected {want!r}, got {got!r}"


@check("ex5_find_the_bug", "fixed_gradient() is 2x = [2, 4, 6], in float32 on the CPU, for every device")
def _(ex):
    for device in DEVICES:
        g = ex.fixed_gradient(device)
        assert g is not None, f"computing on {device}: x.grad is None; read the gradient of the leaf you made"
        assert str(g.device) == "cpu" and g.dtype == mg.float32, (
            f"x.grad lives where x does: got {g.dtype} on {g.device}"
        )
        np.testing.assert_allclose(g.numpy(), [2.0, 4.0, 6.0], err_msg=f"x.grad computing on {device}")
