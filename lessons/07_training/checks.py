"""Checks for lesson 7: minigrad's own Linear and optimizers as oracles, gradcheck, held-out
accuracy on the moons, and predictions against a recorded trace."""

import numpy as np

import minigrad as mg
from minigrad import nn
from minigrad.course import check
from minigrad.course.expect import expect, expect_close, expect_equal, expect_gradcheck, expect_len, expect_prediction
from minigrad.course.recording import contributions_into, pass_ids, record_call


@check("ex2_linear", "registers weight [out, in] and bias [out] as parameters, in the uniform ±1/sqrt(in) range")
def _(ex):
    layer = ex.Linear(64, 10)
    params = dict(layer.named_parameters())
    expect_equal(sorted(params), ["bias", "weight"], "the names named_parameters() gives")
    expect_equal(list(params["weight"].shape), [10, 64], "the weight's shape for Linear(64, 10)")
    expect_equal(list(params["bias"].shape), [10], "the bias's shape for Linear(64, 10)")
    w = params["weight"].detach().numpy()
    expect(
        np.abs(w).max() <= 1 / 8,
        "the largest |weight| of Linear(64, 10)",
        "at most 1/sqrt(64) = 0.125",
        np.abs(w).max(),
    )
    assert w.std() > 0.05, f"weights look degenerate (std {w.std():.3g}); draw them uniformly over the range"
    assert (w < 0).any() and (w > 0).any(), "the range is symmetric around zero"


@check("ex2_linear", "forward equals x @ W.T + b (as nn.functional.linear), with gradients for W, b and x")
def _(ex):
    rng = np.random.default_rng(70)
    layer = ex.Linear(5, 3)
    x = mg.tensor(rng.standard_normal((4, 5)).astype(np.float32), requires_grad=True)
    out = layer(x)
    want = nn.functional.linear(x, layer.weight, layer.bias)
    expect_close(out.detach(), want.detach(), "Linear(5, 3) of a 4x5 batch, against x @ W.T + b", rtol=1e-6, atol=1e-6)
    out.sum().backward()
    expect(layer.weight.grad is not None, "weight.grad after backward", "a gradient", None)
    expect(layer.bias.grad is not None, "bias.grad after backward", "a gradient", None)
    expect_close(layer.bias.grad, np.full(3, 4.0), "bias.grad after sum(layer(x)).backward() on 4 rows")


@check("ex2_linear", "gradcheck in float64 for the input; W.grad = Gᵀx and b.grad = ΣG for a random G")
def _(ex):
    rng = np.random.default_rng(71)
    layer = ex.Linear(3, 2).double()
    x = mg.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    expect_gradcheck(layer, (x,), "gradcheck of your Linear(3, 2) in float64")
    G = rng.standard_normal((4, 2))
    (layer(x) * mg.tensor(G)).sum().backward()
    expect_close(layer.weight.grad, G.T @ x.detach().numpy(), "W.grad for a random G (Gᵀx)", rtol=1e-12)
    expect_close(layer.bias.grad, G.sum(0), "b.grad for a random G (ΣG over the rows)", rtol=1e-12)


def regression_problem(seed):
    rng = np.random.default_rng(seed)
    X = mg.tensor(rng.standard_normal((32, 4)))
    Y = mg.tensor(rng.standard_normal((32, 3)))
    W0, b0 = rng.standard_normal((3, 4)), rng.standard_normal(3)
    return X, Y, W0, b0


def run_optimizer(cls, options, seed, steps=15):
    X, Y, W0, b0 = regression_problem(seed)
    W = mg.tensor(W0, requires_grad=True)
    b = mg.tensor(b0, requires_grad=True)
    opt = cls([W, b], **options)
    for _ in range(steps):
        loss = (((X @ W.T + b).tanh() - Y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return W.detach().numpy(), b.detach().numpy()


@check("ex3_optimizers", "SGDMomentum follows minigrad.optim.SGD(momentum=m) for 15 steps")
def _(ex):
    for lr, m in [(0.1, 0.9), (0.5, 0.0), (0.05, 0.5)]:
        got = run_optimizer(ex.SGDMomentum, {"lr": lr, "momentum": m}, 72)
        want = run_optimizer(mg.optim.SGD, {"lr": lr, "momentum": m}, 72)
        for name, g, w in zip(("W", "b"), got, want):
            expect_close(g, w, f"{name} after 15 steps of SGDMomentum(lr={lr}, momentum={m})", rtol=1e-10)


@check("ex3_optimizers", "Adam follows minigrad.optim.Adam for 15 steps")
def _(ex):
    for lr, betas in [(0.01, (0.9, 0.999)), (0.1, (0.5, 0.9))]:
        got = run_optimizer(ex.Adam, {"lr": lr, "betas": betas}, 73)
        want = run_optimizer(mg.optim.Adam, {"lr": lr, "betas": betas}, 73)
        for name, g, w in zip(("W", "b"), got, want):
            expect_close(g, w, f"{name} after 15 steps of Adam(lr={lr}, betas={betas})", rtol=1e-10)


@check("ex3_optimizers", "step() skips parameters without a gradient and records no graph")
def _(ex):
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0], requires_grad=True)
    for make in (lambda p: ex.SGDMomentum(p, lr=0.1), lambda p: ex.Adam(p, lr=0.1)):
        opt = make([a, b])
        (a * a).sum().backward()
        before = b.detach().numpy().copy()
        opt.step()
        expect_close(
            b.detach(), before, f"{type(opt).__name__}: b, which had no .grad (it must not move)", rtol=0, atol=0
        )
        expect(
            a.is_leaf and a.grad_fn is None,
            f"{type(opt).__name__}: a after step()",
            "a leaf (update p.data, no graph)",
            a.grad_fn,
        )
        opt.zero_grad()


@check("ex5_find_the_bug", "grad_when_step_runs() is what the buggy loop leaves in .grad for step()")
def _(ex):
    X, y = mg.data.make_moons(40, noise=0.1, seed=3)
    model, losses = ex.buggy_train(X, y, steps=2)
    want = [p.grad for p in model.parameters()]
    assert all(g is None for g in want), "sanity: zero_grad() sets every .grad to None"
    assert losses[0] == losses[1], "sanity: the buggy loop does not learn"
    expect_prediction(ex.grad_when_step_runs(), None, "every parameter's .grad when step() runs")


@check("ex5_find_the_bug", "train_moons: at least 95% accuracy on 400 new moons points")
def _(ex):
    X, y = mg.data.make_moons(200, noise=0.1, seed=7)
    model = ex.train_moons(X, y)
    X_test, y_test = mg.data.make_moons(400, noise=0.1, seed=8)
    with mg.no_grad():
        logits = model(mg.tensor(X_test))
    expect_equal(list(logits.shape), [400, 2], "the shape of your model's logits for 400 points")
    accuracy = float((logits.numpy().argmax(1) == y_test).mean())
    expect(accuracy >= 0.95, "held-out accuracy on 400 new points", "at least 95%", f"{accuracy:.1%}")


def forgotten_zero_grad():
    w = mg.tensor(2.0, requires_grad=True, name="w")
    optimizer = mg.optim.SGD([w], lr=0.1)
    for _ in range(2):
        loss = (w * 3.0 - 1.0) ** 2
        loss.backward()  # no optimizer.zero_grad() before it!
        optimizer.step()
    return w


@check("ex4_predict_trace", "predict_w_grad_after_each_pass() is w.grad after each recorded pass")
def _(ex):
    trace, _ = record_call(forgotten_zero_grad)
    want = [contributions_into(trace, "w", pid, into="grad")[-1].after.values.item() for pid in pass_ids(trace)]
    got = [float(v) for v in ex.predict_w_grad_after_each_pass()]
    expect_prediction(got, want, "w.grad after passes 1 and 2", rtol=1e-6)


@check("ex4_predict_trace", "predict_final_w() is w after the second step")
def _(ex):
    _, w = record_call(forgotten_zero_grad)
    expect_prediction(ex.predict_final_w(), w.item(), "w after the second step", rtol=0, atol=1e-5)


@check("ex1_sgd_by_hand", "loss, gradient and new w of each step match minigrad's SGD on (3w - 1)**2")
def _(ex):
    for w0, lr in [(2.0, 0.05), (-1.0, 0.1)]:
        w = mg.tensor(w0, dtype=mg.float64, requires_grad=True)
        optimizer = mg.optim.SGD([w], lr=lr)
        want = []
        for _ in range(3):
            loss = (w * 3.0 - 1.0) ** 2
            optimizer.zero_grad()
            loss.backward()
            g = w.grad.item()
            optimizer.step()
            want.append((loss.item(), g, w.item()))
        rows = expect_len(ex.sgd_steps(w0, lr, 3), 3, f"sgd_steps({w0}, {lr}, 3), one row per step")
        for k, (row, right) in enumerate(zip(rows, want), 1):
            where = f"step {k} from w0 = {w0}, lr = {lr}"
            expect_close(
                expect_len(row, 3, f"{where}: (loss, gradient, new w)"),
                right,
                f"(loss, gradient, new w) at {where}",
                rtol=1e-12,
            )
