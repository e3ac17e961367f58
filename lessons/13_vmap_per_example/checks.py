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
from minigrad.course.expect import expect, expect_close, expect_prediction, expect_type
from minigrad.course.recording import as_array, record_call, record_demo
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


@check("ex2_batching_rule", "each row is made stable by its own largest entry: rows [1000, 0] and [-1000, -999]")
def _(ex):
    z = np.array([[1000.0, 0.0], [-1000.0, -999.0]])
    got = func.vmap(ex.LogSumExp.apply)(mg.tensor(z, dtype=mg.float64))
    expect_close(got.numpy(), logsumexp_rows(z), "vmap(LogSumExp.apply) on rows [1000, 0] and [-1000, -999]")


# ---------------------------------------------------------------- 13.3 predictions
@functools.cache
def demo_trace():
    return record_demo(LESSON)


def vmap_pass(trace) -> int:
    """The id of the demo's first grad() pass: the one vmap(grad(loss)) runs on the three examples."""
    return next(e.pass_id for e in trace.find("pass_started") if e.pass_kind == "grad")


@check("ex3_predict_trace", "the backward passes of the loop and of vmap(grad(loss)), counted in recorded runs")
def _(ex):
    trace = demo_trace()
    loop = [e for e in trace.find("pass_started") if e.pass_kind == "backward"]
    expect_prediction(ex.predict_passes_of_the_loop(), len(loop), "backward passes of the demo's loop")
    w = mg.tensor(W0, dtype=mg.float64)
    xb = mg.tensor([[1.0, 2.0], [3.0, 0.0], [-1.0, 1.0]], dtype=mg.float64)
    yb = mg.tensor([1.0, 0.0, 2.0], dtype=mg.float64)
    recorded, _ = record_call(func.vmap(func.grad(squared_error), in_dims=(None, 0, 0)), w, xb, yb)
    expect_prediction(
        ex.predict_passes_of_vmap_grad(), len(recorded.find("pass_started")), "backward passes of vmap(grad(loss))"
    )


@check("ex3_predict_trace", "the seed and sum's captured axes in the vmap pass")
def _(ex):
    trace = demo_trace()
    pass_id = vmap_pass(trace)
    seed = as_array(trace.find("seeded", pass_id=pass_id)[0].grad)
    expect_prediction(ex.predict_seed_of_the_vmap_pass(), seed.tolist(), "the seed of the vmap pass")
    rule = next(e for e in trace.find("closure_called", pass_id=pass_id) if trace.nodes[e.node].op == "sum")
    axes = next(c.text for c in rule.captured if c.name == "axes")
    got = ex.predict_sum_axes_in_the_vmap_pass()
    expect_prediction(
        list(got) if isinstance(got, (tuple, list)) else got,
        list(ast.literal_eval(axes)),
        "the axes sum's rule captured in the vmap pass",
    )


@check("ex3_predict_trace", "the shape of the gradient the vmap pass accumulates into its copy of w")
def _(ex):
    trace = demo_trace()
    pass_id = vmap_pass(trace)
    into_grad = [e for e in trace.find("grad_accumulated", pass_id=pass_id) if e.into == "grad"]
    shape = list(as_array(into_grad[-1].contribution).shape)
    got = ex.predict_shape_of_the_per_example_gradient()
    expect_prediction(list(got) if isinstance(got, (tuple, list)) else got, shape, "the per-example gradient's shape")


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
