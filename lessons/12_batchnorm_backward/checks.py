"""Checks for lesson 12: batch norm's forward and scale/shift gradients against minigrad, predictions
against a recorded pass, the three path terms against the contributions a recorded pass sends
into x, and the Functions and fixes against the reference's run, event by event."""

import contextlib
import functools

import numpy as np

import minigrad as mg
from minigrad.autograd import grad
from minigrad.course import check
from minigrad.course.cases import rng
from minigrad.course.checking import load_reference
from minigrad.course.expect import expect, expect_close, expect_equal, expect_gradcheck, expect_len, expect_prediction
from minigrad.course.recording import as_array, contributions_into, record_call
from minigrad.course.tracediff import explained_by_trace

EPS = 1e-5


def batches(n: int, seed: int) -> list:
    """``n`` float64 batches of shape (N, D), N in 2..6 and D in 1..3, the demo's column first."""
    draw = rng(seed)
    out = [np.array([[1.0], [8.0], [4.0], [5.0]])]
    while len(out) < n:
        shape = (int(draw.integers(2, 7)), int(draw.integers(1, 4)))
        out.append(draw.normal(draw.uniform(-3, 3), draw.uniform(0.3, 4), shape))
    return out


def layer_params(d: int, seed: int) -> tuple:
    """``(gamma, beta, w)`` for a batch of ``d`` columns: w, the gradient arriving at y, is (N, D) later."""
    draw = rng(seed)
    return draw.uniform(0.5, 3, d), draw.uniform(-1, 1, d), draw


def composed(x, gamma, beta, eps=EPS):
    """The demo's batch norm over dim 0, every node named as in demo.py."""
    mu = x.mean(dim=0)
    mu.name = "mu"
    dev = x - mu
    dev.name = "dev"
    var = (dev**2).mean(dim=0)
    inv_std = (var + eps) ** -0.5
    inv_std.name = "inv_std"
    xc = x - mu
    xc.name = "xc"
    xhat = xc * inv_std
    xhat.name = "xhat"
    return gamma * xhat + beta, xhat, inv_std


def leaves(x, gamma, beta, w):
    """Named float64 leaves for a run (w needs no gradient: it is the gradient arriving at y)."""

    def leaf(values, name, requires_grad=True):
        return mg.tensor(values, dtype=mg.float64, requires_grad=requires_grad, name=name)

    return leaf(x, "x"), leaf(gamma, "gamma"), leaf(beta, "beta"), leaf(w, "w", requires_grad=False)


def shown(a) -> list:
    return np.round(np.asarray(a), 3).tolist()


# ---------------------------------------------------------------- 12.1
@check("ex1_by_hand", "forward_by_hand: mean, biased variance and xhat of many batches, as minigrad computes them")
def _(ex):
    draw = rng(121)
    cases = [[1.0, 8.0, 4.0, 5.0], [2.0, 2.0, 2.0], [-1.5, 0.5]]
    cases += [draw.normal(0, 3, int(draw.integers(2, 9))).round(3).tolist() for _ in range(20)]
    for xs in cases:
        for eps in (EPS, 0.1):
            call = f"forward_by_hand({xs}, eps={eps})"
            got = expect_len(ex.forward_by_hand(list(xs), eps), 3, call)
            x = mg.tensor(xs, dtype=mg.float64)
            mu = x.mean()
            var = ((x - mu) ** 2).mean()
            xhat = (x - mu) * (var + eps) ** -0.5
            expect_close(got[0], mu, f"mu from {call}", rtol=1e-9)
            expect_close(got[1], var, f"var from {call} (the biased variance: divide by N)", rtol=1e-9, atol=1e-12)
            expect_close(got[2], xhat, f"xhat from {call}", rtol=1e-9, atol=1e-9)


@check("ex1_by_hand", "scale_shift_grads: dgamma and dbeta as the engine computes them, on many inputs")
def _(ex):
    draw = rng(122)
    for _ in range(25):
        n = int(draw.integers(1, 8))
        xhat, dy = draw.normal(0, 1, n).round(3), draw.normal(0, 2, n).round(3)
        gamma = mg.tensor(1.5, dtype=mg.float64, requires_grad=True)
        beta = mg.tensor(-0.5, dtype=mg.float64, requires_grad=True)
        y = gamma * mg.tensor(xhat, dtype=mg.float64) + beta
        dgamma, dbeta = grad(y, (gamma, beta), grad_outputs=mg.tensor(dy, dtype=mg.float64))
        call = f"scale_shift_grads({xhat.tolist()}, {dy.tolist()})"
        got = expect_len(ex.scale_shift_grads(xhat.tolist(), dy.tolist()), 2, call)
        expect_close(got[0], dgamma, f"dgamma from {call}", rtol=1e-9, atol=1e-12)
        expect_close(got[1], dbeta, f"dbeta from {call}", rtol=1e-9, atol=1e-12)


# ---------------------------------------------------------------- 12.2
def into_x(trace) -> list:
    """The contributions into x's pass gradient (not x.grad), in order."""
    return contributions_into(trace, "x", into="pass")


@functools.cache
def prediction_trace():
    """Exercise 12.2's run(), recorded (the reference's copy: the learner predicts, and may edit theirs)."""
    trace, _ = record_call(load_reference("ex2_predict_paths").run)
    return trace


@check("ex2_predict_paths", "predict_senders_into_x() names the nodes that send into x, in the pass's order")
def _(ex):
    trace = prediction_trace()
    want = [trace.nodes[e.node].label for e in into_x(trace)]
    expect_prediction(ex.predict_senders_into_x(), want, "the nodes that send a contribution into x")


@check("ex2_predict_paths", "predict_contributions_into_x() matches run()'s three grad_accumulated events into x")
def _(ex):
    want = [as_array(e.contribution).tolist() for e in into_x(prediction_trace())]
    expect_prediction(ex.predict_contributions_into_x(), want, "the contributions into x", rtol=1e-4, atol=1e-6)


@check("ex2_predict_paths", "predict_contributions_into_mu() matches run()'s two grad_accumulated events into mu")
def _(ex):
    want = [float(as_array(e.contribution)) for e in contributions_into(prediction_trace(), "mu")]
    expect_prediction(ex.predict_contributions_into_mu(), want, "the contributions into mu", rtol=1e-4, atol=1e-6)


def shared_run():
    """Exercise 12.2's run() with one `x - mu` for both the variance and xhat."""
    x, gamma, beta, w = leaves([1.0, 8.0, 4.0, 5.0], 2.0, 0.5, [-2.0, 1.0, 2.0, 1.0])
    mu = x.mean()
    xc = x - mu
    inv_std = ((xc**2).mean() + EPS) ** -0.5
    ((gamma * (xc * inv_std) + beta) * w).sum().backward()


@check("ex2_predict_paths", "predict_accumulations_if_shared() counts the contributions into x with one x - mu")
def _(ex):
    trace, _ = record_call(shared_run)
    want = len(into_x(trace))
    expect_prediction(ex.predict_accumulations_if_shared(), want, "the contributions into x with a shared x - mu")


# ---------------------------------------------------------------- 12.3
@check("ex3_three_terms", "each term equals the contribution its path sends into x, on random (N, D) batches")
def _(ex):
    terms = (("xc", ex.direct_term, "the direct path"), ("dev", ex.variance_term, "the variance path"))
    terms += (("mu", ex.mean_term, "the mean path"),)
    for k, xs in enumerate(batches(15, seed=123)):
        gamma, beta, draw = layer_params(xs.shape[1], seed=k)
        w = draw.normal(0, 1, xs.shape)

        def run(xs=xs, gamma=gamma, beta=beta, w=w):
            x, g, b, w_ = leaves(xs, gamma, beta, w)
            y, xhat, inv_std = composed(x, g, b)
            (y * w_).sum().backward()
            return xhat.detach(), inv_std.detach()

        trace, (xhat, inv_std) = record_call(run)
        sent = {trace.nodes[e.node].label: as_array(e.contribution) for e in into_x(trace)}
        dxhat = mg.tensor(w * gamma, dtype=mg.float64)
        for sender, term, path in terms:
            got = term(xhat, inv_std, dxhat)
            expect(got is not None, f"{term.__name__} for a batch of shape {list(xs.shape)}", "a Tensor", got)
            got = np.broadcast_to(got.numpy() if hasattr(got, "numpy") else np.asarray(got), xs.shape)
            what = f"{term.__name__}: {path}'s contribution ({sender} -> x) for x = {shown(xs)}"
            expect_close(got, sent[sender], what, rtol=1e-8, atol=1e-10)


# ---------------------------------------------------------------- 12.4
def function_runs(mine, reference, xs, gamma, beta, w):
    """``(fn(x, gamma, beta) * w).sum().backward()`` for the learner's and the reference's ``fn``."""

    def run(fn):
        def go():
            x, g, b, w_ = leaves(xs, gamma, beta, w)
            (fn(x, g, b, EPS) * w_).sum().backward()

        return go

    return run(mine), run(reference)


@check("ex4_batchnorm_function", "BatchNorm is one node, op 'BatchNorm'")
def _(ex):
    x, gamma, beta, _ = leaves([[1.0], [8.0], [4.0], [5.0]], [2.0], [0.5], [[0.0]])
    y = ex.batchnorm(x, gamma, beta)
    expect_equal(y.op, "BatchNorm", "the op of batchnorm's output (call BatchNorm.apply, not the ops one by one)")


@check("ex4_batchnorm_function", "values and gradients match the composed batch norm's, on random (N, D) batches")
def _(ex):
    reference = load_reference("ex4_batchnorm_function").batchnorm
    for k, xs in enumerate(batches(15, seed=124)):
        gamma, beta, draw = layer_params(xs.shape[1], seed=10 + k)
        w = draw.normal(0, 1, xs.shape)
        with explained_by_trace(*function_runs(ex.batchnorm, reference, xs, gamma, beta, w), rtol=1e-9, atol=1e-10):
            x, g, b, w_ = leaves(xs, gamma, beta, w)
            y = ex.batchnorm(x, g, b, EPS)
            x2, g2, b2, _ = leaves(xs, gamma, beta, w)
            want, _, _ = composed(x2, g2, b2)
            where = f"for x = {shown(xs)}"
            expect_close(y.detach(), want.detach(), f"batchnorm's output {where}", rtol=1e-9, atol=1e-10)
            (y * w_).sum().backward()
            (want * w_).sum().backward()
            for name, got, right in (("x", x, x2), ("gamma", g, g2), ("beta", b, b2)):
                expect_close(got.grad, right.grad, f"{name}.grad {where}", rtol=1e-8, atol=1e-10)


@check("ex4_batchnorm_function", "gradcheck passes in float64, for x, gamma and beta")
def _(ex):
    draw = rng(125)
    for shape in [(4, 1), (3, 2)]:
        x = mg.tensor(draw.normal(0, 2, shape), dtype=mg.float64, requires_grad=True)
        gamma = mg.tensor(draw.uniform(0.5, 2, shape[1]), dtype=mg.float64, requires_grad=True)
        beta = mg.tensor(draw.uniform(-1, 1, shape[1]), dtype=mg.float64, requires_grad=True)

        def fn(x, gamma, beta):
            return ex.batchnorm(x, gamma, beta, EPS)

        expect_gradcheck(
            fn, (x, gamma, beta), f"gradcheck of batchnorm on a {list(shape)} batch", ("x", "gamma", "beta")
        )


# ---------------------------------------------------------------- 12.5
@check("ex5_find_the_bug", "contributions_into_x() and missing_path() match batchnorm_logged's recorded pass")
def _(ex):
    buggy = load_reference("ex5_find_the_bug")
    trace, _ = record_call(buggy.run_buggy)
    expect_prediction(ex.contributions_into_x(), len(into_x(trace)), "the contributions into x in run_buggy()")
    ops = [trace.nodes[e.node].op for e in into_x(trace)]
    assert ops == ["sub"], f"sanity: in run_buggy() only xc sends into x (sent by {ops})"
    expect_prediction(ex.missing_path(), "mean", "the path that no longer reaches x")


@contextlib.contextmanager
def explained_by_paths(run):
    """Run the block (a check's assertions); when it fails, record ``run()`` (the learner's pass) and name
    the nodes that send into x, above the block's message, when none of them is the batch's mean.

    (A fix that builds another graph than the reference's parts from it at its first node, so the
    feedback here is the paths into x rather than the first differing event.)"""
    try:
        yield
    except AssertionError as exc:
        trace, _ = record_call(run)
        senders = [trace.nodes[e.node] for e in into_x(trace)]
        if any(node.op == "mean" for node in senders):
            raise
        names = ", ".join(f"`{node.label}` ({node.op})" for node in senders) or "none"
        raise AssertionError(
            f"in your run {len(senders)} contribution(s) reach x, from {names}: none comes through the batch's mean\n"
            f"      {exc}"
        ) from None


@check("ex5_find_the_bug", "fixed_batchnorm: the composed batch norm's values and gradients, and it still logs")
def _(ex):
    for k, xs in enumerate(batches(10, seed=126)):
        gamma, beta, draw = layer_params(xs.shape[1], seed=20 + k)
        w = draw.normal(0, 1, xs.shape)
        mine, _ = function_runs(ex.fixed_batchnorm, ex.fixed_batchnorm, xs, gamma, beta, w)
        with explained_by_paths(mine):
            x, g, b, w_ = leaves(xs, gamma, beta, w)
            logged = len(ex.LOG)
            y = ex.fixed_batchnorm(x, g, b, EPS)
            x2, g2, b2, _ = leaves(xs, gamma, beta, w)
            want, _, _ = composed(x2, g2, b2)
            where = f"for x = {shown(xs)}"
            expect_close(y.detach(), want.detach(), f"fixed_batchnorm's output {where}", rtol=1e-9, atol=1e-10)
            (y * w_).sum().backward()
            (want * w_).sum().backward()
            expect_close(x.grad, x2.grad, f"x.grad {where}", rtol=1e-8, atol=1e-10)
        expect_equal(len(ex.LOG) - logged, 1, f"entries fixed_batchnorm adds to LOG {where}")
        entry = ex.LOG[-1]
        expect(isinstance(entry, dict), f"what fixed_batchnorm logs {where}", "a dict with 'mean' and 'var'", entry)
        expect_close(entry.get("mean"), xs.mean(axis=0), f"the mean it logs {where}", rtol=1e-9)
        expect_close(entry.get("var"), xs.var(axis=0), f"the variance it logs {where}", rtol=1e-9)
