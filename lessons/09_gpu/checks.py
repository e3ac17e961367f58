"""Checks for lesson 9: run on the CPU everywhere; with a CUDA GPU (`minigrad.cuda_is_available()`)
they also move to it and compare with the CPU results. The predictions of 9.4 are checked for a GPU
on every machine: they need none (a recorded run on one gives what `known_run` says)."""

import warnings

import numpy as np

import minigrad as mg
from minigrad import nn
from minigrad.course import check
from minigrad.course.expect import expect, expect_close, expect_equal, expect_prediction
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
        expect(isinstance(moved, dict), "to_device of a dict", "a dict", type(moved).__name__)
        expect_equal(sorted(moved), ["inputs", "meta", "raw"], "the keys of the moved dict")
        kinds = (type(moved["inputs"]).__name__, type(moved["inputs"][1]).__name__)
        expect_equal(kinds, ("tuple", "list"), "the containers of batch['inputs'] (a tuple holding a list)")
        expect_equal(moved["meta"], {"size": 2, "name": "toy", "extra": None}, "batch['meta'] (not tensors: as it was)")
        expect(moved["raw"] is original["raw"], "batch['raw']", "the same NumPy array (not a Tensor)", moved["raw"])
        tensors = [moved["inputs"][0], *moved["inputs"][1]]
        for t, src in zip(tensors, [original["inputs"][0], *original["inputs"][1]]):
            expect(
                isinstance(t, mg.Tensor) and t.device == device,
                "a moved tensor's device",
                device,
                getattr(t, "device", t),
            )
            expect_close(t, src, "a moved tensor's values", rtol=0, atol=0)


@check("ex2_to_device", "moved tensors stay in the graph: gradients flow back to the CPU original")
def _(ex):
    for device in DEVICES:
        original, a = batch()
        moved = ex.to_device(original, device)
        (moved["inputs"][0] ** 2).sum().backward()
        expect(
            a.grad is not None,
            f"a.grad after moving to {device} (use .to(), not a copy of the data)",
            "a gradient",
            None,
        )
        expect_equal(str(a.grad.device), "cpu", "the device of a.grad")
        expect_close(a.grad, 2 * a.detach().numpy(), "a.grad for sum(moved a ** 2)")


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
        expect(isinstance(got, np.ndarray), "what predict returns", "a NumPy array", type(got).__name__)
        expect_close(got, want, f"the predicted classes with the model on {device}", rtol=0, atol=0)


def move_and_square(device, dtype):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True, name="x")  # float32, on the CPU
    xd = x.to(device, dtype)
    (xd * xd).sum().backward()


# (device, dtype, same device as x, same dtype as x): x is float32 on the CPU
CASES = [
    ("cpu", mg.float32, True, True),
    ("cpu", mg.float64, True, False),
    ("cuda:0", mg.float32, False, True),
    ("cuda:0", mg.float64, False, False),
]


def recorded_run(device, dtype):
    """(number of 'to' nodes, device of the gradient entering x, its values) from a recorded run."""
    trace, _ = record_call(move_and_square, device, dtype)
    (entered,) = trace.find("node_entered", "x")
    (values,) = incoming_grads(trace, "x")
    return sum(info.op == "to" for info in trace.nodes.values()), str(entered.grad.device), values


def known_run(device, dtype, same_device, same_dtype):
    """What a recorded run gives, also for a GPU this machine lacks: to() records one node when it
    changes the device or the dtype and none otherwise; x's gradient is on x's device, the CPU."""
    if device == "cpu" or mg.cuda_is_available():
        return recorded_run(device, dtype)
    return (0 if same_device and same_dtype else 1), "cpu", np.array([2.0, 4.0, 6.0])


@check("ex4_predict_trace", "predict_to_nodes() matches the 'to' nodes of a run on the CPU and on a GPU")
def _(ex):
    for device, dtype, same_device, same_dtype in CASES:
        want, _, _ = known_run(device, dtype, same_device, same_dtype)
        expect_prediction(
            ex.predict_to_nodes(same_device, same_dtype),
            want,
            f"'to' nodes for x.to({device!r}, {dtype}) (same_device={same_device}, same_dtype={same_dtype})",
        )


@check("ex4_predict_trace", "predict_x_grad_device() and predict_x_grad() match x's node_entered, CPU and GPU")
def _(ex):
    for device, dtype, same_device, same_dtype in CASES:
        _, want_device, values = known_run(device, dtype, same_device, same_dtype)
        got = ex.predict_x_grad_device(device)
        expect_prediction(str(got), want_device, f"the device of the gradient entering x, computing on {device}")
        expect_prediction(ex.predict_x_grad(), values, f"the gradient entering x, computing on {device}")


@check("ex1_device_agnostic", "pick_device() follows mg.cuda_is_available(); model_device() is the first parameter's")
def _(ex):
    want = "cuda" if mg.cuda_is_available() else "cpu"
    expect_equal(ex.pick_device(), want, "pick_device() on this machine")
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1)).to(want)
    expect_equal(str(ex.model_device(model)), str(mg.device(want)), f"model_device of a model on {want}")


@check("ex5_find_the_bug", "op_of_x() is the op of the node the buggy x names")
def _(ex):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trace, grad = record_call(ex.buggy_gradient)
    assert grad is None, "sanity: the buggy x has no .grad"
    want = trace.node("x").op or "leaf"
    expect_prediction(ex.op_of_x(), want, "the op of the node x names")


@check("ex5_find_the_bug", "fixed_gradient() is 2x = [2, 4, 6], in float32 on the CPU, for every device")
def _(ex):
    for device in DEVICES:
        g = ex.fixed_gradient(device)
        what = f"x.grad computing on {device}"
        expect(g is not None, f"{what} (read the gradient of the leaf you made)", "a gradient", None)
        expect_equal(
            (str(g.device), str(g.dtype)), ("cpu", str(mg.float32)), f"{what}: where it lives (x's device, dtype)"
        )
        expect_close(g, [2.0, 4.0, 6.0], what)
