"""Checks for lesson 13: per-example gradients by hand; a Function's batching rule against a loop, with
feedback by trace; predictions against the recorded demo; DP-SGD's clipping, per example."""

import ast
import functools
import math

import numpy as np

import minigrad as mg
from minigrad import func
from minigrad.course import check
from minigrad.course.cases import rng
from minigrad.course.checking import load_module, load_reference, this_lesson
from minigrad.course.expect import expect, expect_close, expect_equal, expect_prediction, expect_type
from minigrad.course.recording import as_array, record_call
from minigrad.course.tracediff import explained_by_trace

LESSON = this_lesson()
W0 = [0.5, -1.0]


def squared_error(w, x, y):
    residual = (w * x).sum() - y
    return residual * residual


# ---------------------------------------------------------------- 13.1 by hand
def warm_up_gradients():
    """The warm-up batch's per-example gradients, by vmap(grad) (float64)."""
    w = mg.tensor(W0, dtype=mg.float64)
    xb = mg.tensor([[2.0, 0.0], [1.0, -1.0], [0.0, 4.0]], dtype=mg.float64)
    yb = mg.tensor([0.0, 1.0, 1.0], dtype=mg.float64)
    return func.vmap(func.grad(squared_error), in_dims=(None, 0, 0))(w, xb, yb)


@check("ex1_by_hand", "the per-example gradients and the batch's gradient match minigrad's")
def _(ex):
    grads = warm_up_gradients()
    expect_prediction(ex.per_example_gradients(), grads.numpy(), "the gradient of each example", rtol=1e-3)
    expect_prediction(ex.batch_gradient(), grads.sum(0).numpy(), "the gradient of the summed loss", rtol=1e-3)


@check("ex1_by_hand", "the norms and the clipped sum match minigrad's")
def _(ex):
    grads = warm_up_gradients()
    norms = grads.square().sum(1).sqrt()
    clipped = grads * (5.0 / norms).clamp(max=1.0).unsqueeze(1)
    expect_prediction(ex.gradient_norms(), norms.numpy(), "the norm of each example's gradient", rtol=1e-3)
    expect_prediction(ex.clipped_sum(), clipped.sum(0).numpy(), "the sum of the gradients clipped to 5", rtol=1e-3)


# ---------------------------------------------------------------- 13.2 a batching rule
def logsumexp_rows(z: np.ndarray) -> np.ndarray:
    m = z.max(axis=1, keepdims=True)
    return (m + np.log(np.exp(z - m).sum(axis=1, keepdims=True)))[:, 0]


def softmax_regression(logsumexp):
    """One example's cross-entropy, log-sum-exp(W x) - (W x) · y for a one-hot y, through ``logsumexp``."""

    def loss(W, x, y):
        z = W @ x
        return logsumexp.apply(z) - (z * y).sum()

    return loss


@check("ex2_batching_rule", "vmap(grad(loss)) through LogSumExp gives each example's gradient, as a loop does")
def _(ex):
    r = rng(31)
    W = mg.tensor(r.normal(size=(3, 2)), dtype=mg.float64)
    xb = mg.tensor(r.normal(size=(3, 2)), dtype=mg.float64)  # as many examples as classes: a rule that
    yb = mg.tensor(np.eye(3)[[0, 2, 2]], dtype=mg.float64)  # mixes up the two dims runs and gives wrong numbers
    reference = load_reference("ex2_batching_rule").LogSumExp

    def per_example(logsumexp):
        return lambda: func.vmap(func.grad(softmax_regression(logsumexp)), in_dims=(None, 0, 0))(W, xb, yb)

    by_loop = np.stack(
        [func.grad(softmax_regression(reference))(W, x, y).numpy() for x, y in zip(xb.unbind(0), yb.unbind(0))]
    )
    with explained_by_trace(per_example(ex.LogSumExp), per_example(reference)):
        got = per_example(ex.LogSumExp)()
        expect_close(got.numpy(), by_loop, "the per-example gradients of W through your rule")


@check("ex2_batching_rule", "vmap(LogSumExp.apply) gives each row's log-sum-exp, for batches of several shapes")
def _(ex):
    r = rng(13)
    for batch, n in [(3, 4), (4, 4), (1, 5), (6, 2)]:
        z = r.normal(size=(batch, n)) * 3
        got = func.vmap(ex.LogSumExp.apply)(mg.tensor(z, dtype=mg.float64))
        expect_type(got, mg.Tensor, f"vmap(LogSumExp.apply) on a batch of {batch} vectors of {n}")
        expect_close(got.numpy(), logsumexp_rows(z), f"vmap(LogSumExp.apply) on a batch of {batch} vectors of {n}")


@check(
    "ex2_batching_rule", "the rule makes as many tensors for a batch of 6 as for a batch of 2: no loop over the rows"
)
def _(ex):
    made = []
    for size in (2, 6):
        trace, _ = record_call(func.vmap(ex.LogSumExp.apply), mg.tensor(rng(size).normal(size=(size, 4))))
        made.append(len(trace.find("node_created")))
    expect(made[0] == made[1], "the tensors your rule makes for a batch of 2 and for a batch of 6", "as many", made)


@check("ex2_batching_rule", "each row is made stable by its own largest entry: rows [1000, 0] and [-1000, -999]")
def _(ex):
    z = np.array([[1000.0, 0.0], [-1000.0, -999.0]])
    got = func.vmap(ex.LogSumExp.apply)(mg.tensor(z, dtype=mg.float64))
    expect_close(got.numpy(), logsumexp_rows(z), "vmap(LogSumExp.apply) on rows [1000, 0] and [-1000, -999]")


# ---------------------------------------------------------------- 13.3 predictions
@functools.cache
def prediction_trace():
    """Exercise 13.3's run(), recorded (the reference's copy: the learner predicts, and may edit theirs)."""
    trace, _ = record_call(load_reference("ex3_predict_trace").run)
    return trace


def vmap_passes(trace) -> list[int]:
    """The ids of run()'s grad() passes, the ones vmap(grad(loss)) runs, in order."""
    return [e.pass_id for e in trace.find("pass_started") if e.pass_kind == "grad"]


def as_list(got):
    return list(got) if isinstance(got, (tuple, list)) else got


@check("ex3_predict_trace", "the backward passes of the loop and of vmap(grad(loss)), counted in the recorded run")
def _(ex):
    trace = prediction_trace()
    loop = [e for e in trace.find("pass_started") if e.pass_kind == "backward"]
    expect_prediction(ex.predict_passes_of_the_loop(), len(loop), "backward passes of run()'s loop")
    expect_prediction(
        ex.predict_passes_of_vmap_grad(), len(vmap_passes(trace)), "passes of vmap(grad(loss)) with chunk_size=2"
    )


@check("ex3_predict_trace", "the seed of the last vmap pass and sum's captured axes in the vmap passes")
def _(ex):
    trace = prediction_trace()
    last = vmap_passes(trace)[-1]
    seed = as_array(trace.find("seeded", pass_id=last)[0].grad)
    expect_prediction(ex.predict_seed_of_the_last_vmap_pass(), seed.tolist(), "the seed of the last vmap pass")
    rule = next(e for e in trace.find("closure_called", pass_id=last) if trace.nodes[e.node].op == "sum")
    axes = next(c.text for c in rule.captured if c.name == "axes")
    got = ex.predict_sum_axes_in_the_vmap_pass()
    expect_prediction(as_list(got), list(ast.literal_eval(axes)), "the axes sum's rule captured in the vmap passes")


@check("ex3_predict_trace", "the shape of the gradient the first vmap pass accumulates into its copy of w")
def _(ex):
    trace = prediction_trace()
    first = vmap_passes(trace)[0]
    into_grad = [e for e in trace.find("grad_accumulated", pass_id=first) if e.into == "grad"]
    shape = list(as_array(into_grad[-1].contribution).shape)
    got = ex.predict_shape_of_the_per_example_gradient()
    expect_prediction(as_list(got), shape, "the per-example gradient's shape in the first vmap pass")


# ---------------------------------------------------------------- 13.4 the planted bug
def buggy():
    return load_module(LESSON.path / "buggy_clipping.py", f"lesson{LESSON.number}_buggy_clipping")


def random_gradients(batch: int, seed: int) -> dict:
    """Per-example gradients of a model with a (2, 2) weight and a (2,) bias, some examples far above norm 1."""
    r = rng(seed)
    scale = np.where(np.arange(batch) % 2 == 0, 3.0, 0.2)
    return {
        "W": mg.tensor(r.normal(size=(batch, 2, 2)) * scale[:, None, None], dtype=mg.float64),
        "b": mg.tensor(r.normal(size=(batch, 2)) * scale[:, None], dtype=mg.float64),
    }


def norms_by_loop(grads: dict) -> np.ndarray:
    return np.array(
        [
            math.sqrt(sum(float((g.numpy()[i] ** 2).sum()) for g in grads.values()))
            for i in range(next(iter(grads.values())).shape[0])
        ]
    )


@check("ex4_find_the_bug", "example_norms() is the norm of each example's whole gradient")
def _(ex):
    for batch, seed in [(4, 1), (1, 2), (7, 3)]:
        grads = random_gradients(batch, seed)
        got = ex.example_norms(grads)
        expect_type(got, mg.Tensor, "example_norms(grads)")
        expect_close(got.numpy(), norms_by_loop(grads), f"example_norms of {batch} examples' gradients of W and b")
    m = buggy()
    clipped = m.clip_per_example(m.per_example_gradients(m.PARAMS, m.XB, m.YB), 1.0)
    expect(
        float(ex.example_norms(clipped).numpy().max()) > 1.0 + 1e-6,
        "the largest example_norms of buggy_clipping's clipped gradients",
        "more than 1.0 (the bug shows)",
        float(ex.example_norms(clipped).numpy().max()),
    )


@check("ex4_find_the_bug", "worst_case_ratio() is how far the buggy clipping can exceed max_norm")
def _(ex):
    expect_prediction(ex.worst_case_ratio(), math.sqrt(2.0), "the worst case ratio for two parameters", rtol=1e-3)


@check("ex4_find_the_bug", "clip_per_example() bounds each example's whole gradient and keeps its direction")
def _(ex):
    for batch, seed in [(4, 4), (5, 5)]:
        grads = random_gradients(batch, seed)
        before = norms_by_loop(grads)
        clipped = ex.clip_per_example(grads, 1.0)
        after = norms_by_loop(clipped)
        for i in range(batch):
            if before[i] <= 1.0:
                for name, g in grads.items():
                    expect_close(
                        clipped[name].numpy()[i], g.numpy()[i], f"example {i} (norm {before[i]:.3g}) of {name}"
                    )
            else:
                expect_close(after[i], 1.0, f"the norm of example {i} (norm {before[i]:.3g} before clipping) after it")
                for name, g in grads.items():
                    expect_close(
                        clipped[name].numpy()[i],
                        g.numpy()[i] / before[i],
                        f"example {i}'s gradient of {name}, scaled by 1 / its whole norm {before[i]:.3g}",
                    )


# ---------------------------------------------------------------- 13.5 a DP-SGD step
def models():
    """(description, a float64 model made afresh from a seed): a linear layer and a small network."""
    from minigrad import nn

    def linear():
        mg.manual_seed(5)
        return nn.Linear(3, 2).double()

    def network():
        mg.manual_seed(6)
        return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)).double()

    return [("nn.Linear(3, 2)", linear), ("Sequential(Linear(3, 4), Tanh, Linear(4, 2))", network)]


def batch(size: int, seed: int):
    r = rng(seed)
    return mg.tensor(r.normal(size=(size, 3)), dtype=mg.float64), mg.tensor(
        r.normal(size=(size, 2)) * 3, dtype=mg.float64
    )


def gradients_by_loop(model, xb, yb) -> dict:
    """Each example's gradients by its own backward pass, stacked: {name: array (B, *shape)}."""
    rows = {name: [] for name, _ in model.named_parameters()}
    for x, y in zip(xb.unbind(0), yb.unbind(0)):
        model.zero_grad()
        (model(x) - y).square().sum().backward()
        for name, p in model.named_parameters():
            rows[name].append(p.grad.numpy().copy())
    model.zero_grad()
    return {name: np.stack(r) for name, r in rows.items()}


@check("ex5_dp_sgd_step", "per_example_gradients() gives each example's gradients, in one pass, leaving .grad alone")
def _(ex):
    for description, make in models():
        model = make()
        xb, yb = batch(4, 51)
        want = gradients_by_loop(make(), xb, yb)
        trace, got = record_call(ex.per_example_gradients, model, xb, yb)
        expect_type(got, dict, f"per_example_gradients({description}, ...)")
        expect_equal(sorted(got), sorted(want), f"the names per_example_gradients({description}, ...) returns")
        for name in want:
            expect_close(got[name].numpy(), want[name], f"each example's gradient of {name} in {description}")
        passes = len(trace.find("pass_started"))
        expect(passes == 1, f"the backward passes per_example_gradients ran for 4 examples of {description}", 1, passes)
        left = [name for name, p in model.named_parameters() if p.grad is not None]
        expect(not left, f"the parameters of {description} whose .grad per_example_gradients changed", "none", left)


def step_by_loop(model, xb, yb, lr, max_norm, per_parameter: bool = False) -> dict:
    """The parameters after one noiseless DP-SGD step, from per-example gradients by a loop: {name: array}.
    ``per_parameter`` clips each parameter's gradient by its own norm instead (exercise 13.4's bug)."""
    grads = gradients_by_loop(model, xb, yb)

    def squared_norms(g):
        return (g.reshape(len(g), -1) ** 2).sum(1)

    whole = np.sqrt(sum(squared_norms(g) for g in grads.values()))
    out = {}
    for name, p in model.named_parameters():
        g = grads[name]
        norms = np.sqrt(squared_norms(g)) if per_parameter else whole
        factors = np.minimum(1.0, max_norm / norms).reshape((-1,) + (1,) * (g.ndim - 1))
        out[name] = p.detach().numpy() - lr * (g * factors).sum(0) / len(xb)
    return out


def explain_per_parameter_clipping(model, want: dict, per_parameter: dict) -> None:
    """Fail with a word on the cause when the step clipped each parameter by its own norm (exercise 13.4's bug)."""
    params = dict(model.named_parameters())
    got_per_parameter = all(np.allclose(params[name].detach().numpy(), per_parameter[name]) for name in want)
    differs = any(not np.allclose(per_parameter[name], want[name]) for name in want)
    if got_per_parameter and differs:
        raise AssertionError(
            "your step clips each parameter's gradient by that parameter's own norm; an example's norm covers all "
            "of its parameters together (exercise 13.4): one factor per example"
        )


@check("ex5_dp_sgd_step", "dp_sgd_step() without noise moves each parameter by the clipped, averaged gradient")
def _(ex):
    for description, make in models():
        for max_norm in (0.5, 100.0):  # most examples clipped; none clipped
            xb, yb = batch(5, 52)
            want = step_by_loop(make(), xb, yb, lr=0.1, max_norm=max_norm)
            model = make()
            ex.dp_sgd_step(model, xb, yb, lr=0.1, max_norm=max_norm, noise_multiplier=0.0)
            explain_per_parameter_clipping(
                model, want, step_by_loop(make(), xb, yb, lr=0.1, max_norm=max_norm, per_parameter=True)
            )
            for name, p in model.named_parameters():
                expect_close(
                    p.detach().numpy(), want[name], f"{name} of {description} after a step with max_norm={max_norm}"
                )


@check("ex5_dp_sgd_step", "dp_sgd_step() adds the noise as described, in named_parameters() order")
def _(ex):
    reference = load_reference("ex5_dp_sgd_step")
    for description, make in models():
        xb, yb = batch(3, 53)
        mine, theirs = make(), make()
        ex.dp_sgd_step(mine, xb, yb, 0.1, 1.0, 1.3, generator=mg.Generator().manual_seed(7))
        reference.dp_sgd_step(theirs, xb, yb, 0.1, 1.0, 1.3, generator=mg.Generator().manual_seed(7))
        for (name, p), (_, q) in zip(mine.named_parameters(), theirs.named_parameters()):
            expect_close(
                p.detach().numpy(),
                q.detach().numpy(),
                f"{name} of {description} after a noisy step (noise_multiplier=1.3)",
            )
