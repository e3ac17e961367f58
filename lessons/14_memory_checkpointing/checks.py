"""Checks for the memory lesson: saved bytes by hand and measured from traces, a recomputing Function
within a memory budget (feedback by trace), predictions against the demo's recorded trace, and a
checkpoint whose recomputation must be the forward's."""

import functools

import numpy as np

import minigrad as mg
from minigrad import nn
from minigrad.course import check
from minigrad.course.cases import rng
from minigrad.course.checking import load_reference
from minigrad.course.expect import expect, expect_close, expect_equal, expect_prediction
from minigrad.course.recording import record_call
from minigrad.course.tracediff import explained_by_trace
from minigrad.trace import record
from minigrad.utils.checkpoint import checkpoint


def measure():
    return load_reference("ex2_saved_bytes")


def first_pass(trace) -> tuple:
    """``(trace, the id of its first top-level pass)``: the arguments of saved_bytes."""
    return trace, passes(trace)[0]


def passes(trace) -> list:
    """The ids of the trace's top-level passes, in order (pass ids count every pass the process ran)."""
    return [ev.pass_id for ev in trace.find("pass_started") if ev.depth == 1]


def running_example(batch, widths, dtype, seed, checkpointed=False):
    """The lesson's network of these sizes, recorded from its forward through its backward pass."""
    draw = rng(seed)
    x = mg.tensor(draw.standard_normal((batch, widths[0])), dtype=dtype)
    weights = [
        mg.tensor(draw.standard_normal((i, o)) / np.sqrt(i), dtype=dtype, requires_grad=True)
        for i, o in zip(widths, widths[1:])
    ]

    def hidden(h):
        for W in weights[:-1]:
            h = (h @ W).tanh()
        return h

    with record() as trace:
        h = checkpoint(hidden, x, use_reentrant=False) if checkpointed else hidden(x)
        y = h @ weights[-1]
        (y * y).mean().backward()
    return trace


SIZES = [(2, [2, 3, 3, 1]), (4, [3, 5, 2]), (8, [4, 8, 8, 8, 2]), (1, [6, 1, 1]), (16, [2, 32, 16, 4])]
DTYPES = [(mg.float32, 4), (mg.float64, 8)]


@check("ex1_bytes_by_hand", "saved_bytes_by_hand is what the rules keep, for networks of many sizes")
def _(ex):
    for batch, widths in SIZES:
        for dtype, itemsize in DTYPES:
            want = measure().saved_bytes(*first_pass(running_example(batch, widths, dtype, seed=batch)))
            got = ex.saved_bytes_by_hand(batch, widths, itemsize)
            expect_equal(got, want, f"saved_bytes_by_hand({batch}, {widths}, {itemsize})")


@check("ex1_bytes_by_hand", "checkpointed_bytes_by_hand is what the rules keep with the hidden layers checkpointed")
def _(ex):
    for batch, widths in SIZES:
        for dtype, itemsize in DTYPES:
            trace = running_example(batch, widths, dtype, seed=batch, checkpointed=True)
            want = measure().saved_bytes(*first_pass(trace))
            got = ex.checkpointed_bytes_by_hand(batch, widths, itemsize)
            expect_equal(got, want, f"checkpointed_bytes_by_hand({batch}, {widths}, {itemsize})")


def mlp(depth, width, seed):
    """``depth`` layers of Linear(width, width) and tanh, as a list of modules."""
    mg.manual_seed(seed)
    return [nn.Sequential(nn.Linear(width, width), nn.Tanh()) for _ in range(depth)]


def apply_all(layers, x):
    for layer in layers:
        x = layer(x)
    return x


def recorded_mlp(forward, depth, width=8, batch=4, seed=0):
    """``(trace, parameters)`` of ``forward(layers, x)``'s square sum and its backward pass."""
    layers = mlp(depth, width, seed)
    x = mg.tensor(rng(seed).standard_normal((batch, width)), dtype=mg.float32)
    with record() as trace:
        forward(layers, x).square().sum().backward()
    return trace, [p for layer in layers for p in layer.parameters()]


@check("ex2_saved_bytes", "tensor_bytes and saved_bytes measure the running example's activations")
def _(ex):
    trace = running_example(2, [2, 3, 3, 1], mg.float32, seed=0)
    h2 = trace.node(trace.find("closure_called")[2].captured[0].tensor_id)
    expect_equal(ex.tensor_bytes(h2), 24, f"tensor_bytes of a float32 tensor of shape {list(h2.shape)}")
    expect_equal(
        ex.saved_bytes(*first_pass(trace)), 56, "saved_bytes of the running example's pass (h1 24 + h2 24 + y 8)"
    )


@check("ex2_saved_bytes", "saved_bytes and peak_saved_bytes agree with the reference on many networks")
def _(ex):
    for depth, width, batch in [(1, 3, 2), (4, 8, 4), (6, 5, 3), (9, 4, 1)]:
        for use_checkpoint in (False, True):

            def forward(layers, x, use_checkpoint=use_checkpoint):
                if not use_checkpoint:
                    return apply_all(layers, x)
                half = len(layers) // 2 or 1
                h = checkpoint(lambda t: apply_all(layers[:half], t), x, use_reentrant=False)
                return apply_all(layers[half:], h)

            trace, _ = recorded_mlp(forward, depth, width, batch)
            what = f"a {depth}-layer network of width {width}, batch {batch}" + (
                ", its first half checkpointed" if use_checkpoint else ""
            )
            at = first_pass(trace)
            expect_equal(ex.saved_bytes(*at), measure().saved_bytes(*at), f"saved_bytes of {what}")
            expect_equal(ex.peak_saved_bytes(*at), measure().peak_saved_bytes(*at), f"peak_saved_bytes of {what}")


def recompute_run(recompute):
    """A two-layer block of fixed weights through ``recompute``, and the backward pass of its square sum."""

    def run():
        x = mg.tensor([[1.0, -0.5, 2.0], [0.25, 1.0, -1.0]], requires_grad=True, name="x")
        W1 = mg.tensor([[0.5, -1.0], [1.0, 0.5], [-0.5, 0.25]], requires_grad=True, name="W1")
        W2 = mg.tensor([[1.0, -0.5, 0.5], [0.25, 1.0, -1.0]], requires_grad=True, name="W2")
        out = recompute.apply(lambda t: ((t @ W1).tanh() @ W2).tanh(), x, W1, W2)
        out.square().sum().backward()
        return x, W1, W2

    return run


@check("ex3_recompute", "Recompute gives the gradients of the plain block, for its input and its weights")
def _(ex):
    reference = load_reference("ex3_recompute").Recompute
    with explained_by_trace(recompute_run(ex.Recompute), recompute_run(reference)):
        got = recompute_run(ex.Recompute)()
        want = recompute_run(reference)()
        for name, g, w in zip(("x", "W1", "W2"), got, want):
            expect(g.grad is not None, f"{name}.grad after backward through Recompute", "a gradient", None)
            expect_close(g.grad, w.grad.numpy(), f"{name}.grad after backward through Recompute", rtol=1e-5)


@check("ex3_recompute", "Recompute keeps only its input and parameters, and recomputes in a nested pass")
def _(ex):
    plain, _ = recorded_mlp(apply_all, 4)
    mine, _ = recorded_mlp(
        lambda layers, x: ex.Recompute.apply(
            lambda t: apply_all(layers, t), x, *[p for layer in layers for p in layer.parameters()]
        ),
        4,
    )
    one = 4 * 8 * 4  # one activation of batch 4, width 8, float32
    expect_equal(
        measure().saved_bytes(*first_pass(mine)), one, "the bytes saved around a 4-layer Recompute (its output only)"
    )
    expect(
        measure().saved_bytes(*first_pass(plain)) == 4 * one, "the plain 4-layer network's saved bytes", 4 * one, None
    )
    nested = [ev for ev in mine.find("pass_started") if ev.depth == 2]
    expect_equal(len(nested), 1, "the nested passes during backward through one Recompute")


@check("ex3_recompute", "budget_forward keeps the plain gradients and at most half the peak, for 16, 25 and 36 layers")
def _(ex):
    reference = load_reference("ex3_recompute").budget_forward
    for depth in (16, 25, 36):
        plain, plain_params = recorded_mlp(apply_all, depth, seed=depth)
        runs = [
            functools.partial(recorded_mlp, forward, depth, seed=depth) for forward in (ex.budget_forward, reference)
        ]
        with explained_by_trace(*runs):
            mine, my_params = runs[0]()
            for i, (p, q) in enumerate(zip(my_params, plain_params)):
                what = f"parameter {i}'s gradient through budget_forward ({depth} layers)"
                expect(p.grad is not None, what, "a gradient", None)
                expect_close(p.grad, q.grad.numpy(), what, rtol=1e-5, atol=1e-7)
        budget = measure().peak_saved_bytes(*first_pass(plain)) // 2
        peak = measure().peak_saved_bytes(*first_pass(mine))
        expect(peak <= budget, f"the peak of saved bytes of budget_forward ({depth} layers)", f"<= {budget}", peak)


@functools.cache
def prediction_trace():
    """Exercise 14.4's run(), recorded (the reference's copy: the learner predicts, and may edit theirs)."""
    trace, _ = record_call(load_reference("ex4_predict_trace").run)
    return trace


def captured_names(trace, node) -> list:
    (ev,) = [ev for ev in trace.find("closure_called", node)]
    return [trace.nodes[c.tensor_id].label for c in ev.captured if c.kind in ("tensor", "weakref")]


@check("ex4_predict_trace", "predict_saved_by_y() and predict_saved_by_h() name what those rules captured")
def _(ex):
    trace = prediction_trace()
    expect_prediction(ex.predict_saved_by_y(), captured_names(trace, "y"), "the tensors y's rule captured")
    expect_prediction(ex.predict_saved_by_h(), captured_names(trace, "h"), "the tensors h's rule captured")


@check("ex4_predict_trace", "predict_rules_kept() names the nodes of the first pass whose rules graph_freed leaves")
def _(ex):
    trace = prediction_trace()
    (freed,) = [ev for ev in trace.find("graph_freed") if ev.pass_id == passes(trace)[0]]
    called = [ev.node for ev in trace.find("closure_called") if ev.pass_id == freed.pass_id]
    kept = [trace.nodes[n].label for n in called if n not in freed.nodes]
    expect_prediction(ex.predict_rules_kept(), kept, "the nodes whose rules survive the first pass")


@check("ex4_predict_trace", "predict_second_backward_fails_at() is the op of the second pass's error event")
def _(ex):
    trace = prediction_trace()
    (error,) = [ev for ev in trace.find("error") if ev.pass_id == passes(trace)[1]]
    expect_prediction(
        ex.predict_second_backward_fails_at(), trace.nodes[error.node].op, "the op where the second pass fails"
    )


@check("ex4_predict_trace", "predict_recomputed_nodes() counts the nodes the Checkpoint's rule makes")
def _(ex):
    trace = prediction_trace()
    (entered,) = trace.find("node_entered", "yc")
    made = [ev for ev in trace.find("node_created") if ev.pass_id == entered.pass_id and ev.info.op is not None]
    expect_prediction(ex.predict_recomputed_nodes(), len(made), "the nodes made by recomputation")


@check("ex5_lost_mask", "what_differs() names what the buggy recomputation draws anew")
def _(ex):
    expect_prediction(ex.what_differs(), "mask", "what changes between the forward and the recomputation")


@check("ex5_lost_mask", "fixed_forward gives the gradients of the block without a checkpoint")
def _(ex):
    reference = load_reference("ex5_lost_mask")
    for seed in (1, 2, 3):
        mine = functools.partial(reference.grads_of, ex.fixed_forward, seed)
        with explained_by_trace(mine, functools.partial(reference.grads_of, reference.fixed_forward, seed)):
            got = mine()
            want = reference.grads_of(lambda block, x: block(x), seed)
            expect(got is not None, "the weight's gradient through fixed_forward", "a gradient", None)
            expect_close(got, want.numpy(), f"the weight's gradient through fixed_forward (dropout seed {seed})")
