"""Checks for lesson 10: your engine against minigrad on the same expressions (values and gradients,
seeded random inputs), the events it emits, predictions against the recorded demo, and the
planted bug found from the buggy engine's trace."""

import functools
import math

import minigrad as mg
from minigrad.course import check
from minigrad.course.cases import float_tuples, rng
from minigrad.course.checking import load_reference, this_lesson
from minigrad.course.expect import expect, expect_close, expect_equal, expect_len, expect_prediction, expect_type
from minigrad.course.recording import as_array, contributions_into, incoming_grads, record_call, record_demo
from minigrad.course.tracediff import explained_by_trace

LESSON = this_lesson()

# the same expressions for both engines: each takes three operands of either kind
EXPRESSIONS = {
    "tanh(a * b + c)": lambda a, b, c: (a * b + c).tanh(),
    "a * a + b ** 3 - c / a": lambda a, b, c: a * a + b**3 - c / a,
    "relu(a * b) + exp(b - c) * 0.5": lambda a, b, c: (a * b).relu() + (b - c).exp() * 0.5,
    "tanh(2 * a - 1) * (b + 1) / c": lambda a, b, c: (2 * a - 1).tanh() * (b + 1) / c,
}


def numeric(f, args, i, eps=1e-6):
    hi, lo = list(args), list(args)
    hi[i] += eps
    lo[i] -= eps
    return (f(*hi) - f(*lo)) / (2 * eps)


# ---------------------------------------------------------------- 10.1 rules as closures
@check("ex1_rules", "mul_rule, tanh_rule and pow_rule return the output and the rule")
def _(ex):
    out, rule = expect_len(ex.mul_rule(3.0, -2.0), 2, "mul_rule(3, -2) returns (out, rule)")
    expect_close(out, -6.0, "mul_rule(3, -2)'s output")
    expect_close(expect_len(rule(0.5), 2, "mul_rule's rule(0.5)"), [-1.0, 1.5], "mul_rule(3, -2)'s rule(0.5)")
    out, rule = ex.tanh_rule(0.3)
    t = math.tanh(0.3)
    expect_close(out, t, "tanh_rule(0.3)'s output")
    expect_close(expect_len(rule(2.0), 1, "tanh_rule's rule(2)"), [2 * (1 - t * t)], "tanh_rule(0.3)'s rule(2)")
    out, rule = ex.pow_rule(1.5, 3)
    expect_close(out, 3.375, "pow_rule(1.5, 3)'s output")
    expect_close(rule(1.0), [3 * 1.5**2], "pow_rule(1.5, 3)'s rule(1)")


@check("ex1_rules", "chain matches finite differences on random inputs")
def _(ex):
    def y(x, w, b):
        return math.tanh(x * w + b) ** 2

    for x, w, b in float_tuples(-2.0, 2.0, 3, 40, seed=101):
        call = f"chain({x:.4g}, {w:.4g}, {b:.4g})"
        got = expect_len(ex.chain(x, w, b), 4, f"{call} returns (y, dy/dx, dy/dw, dy/db)")
        want = [y(x, w, b)] + [numeric(y, (x, w, b), i) for i in range(3)]
        expect_close(got, want, f"{call}: (y, dy/dx, dy/dw, dy/db)", rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------- 10.2 the engine
def run_both(ex, name, args):
    """(value, grads) of expression ``name`` on the learner's engine and on minigrad."""
    f = EXPRESSIONS[name]
    mine = [ex.Value(x) for x in args]
    out = f(*mine)
    expect_type(out, ex.Value, f"{name} on your engine")
    out.backward()
    tensors = [mg.tensor(x, dtype=mg.float64, requires_grad=True) for x in args]
    ref = f(*tensors)
    ref.backward()
    return (out.data, [v.grad for v in mine]), (ref.item(), [t.grad.item() for t in tensors])


def engine_runs(ex, f, args):
    """``f`` on the values ``args`` (named a, b, c) and its backward pass, on the learner's engine and
    on the reference engine: the two runs explained_by_trace compares."""

    def run(Value):
        def go():
            f(*(Value(x, name=n) for x, n in zip(args, "abc"))).backward()

        return go

    return run(ex.Value), run(load_reference("ex2_value").Value)


def agree(ex, name, args):
    with explained_by_trace(*engine_runs(ex, EXPRESSIONS[name], args), rtol=1e-7, atol=1e-10):
        (value, grads), (want_value, want_grads) = run_both(ex, name, args)
        where = f"{name} at a, b, c = {args}"
        expect_close(value, want_value, f"the value of {where}", rtol=1e-9, atol=1e-12)
        expect_close(grads, want_grads, f"the gradients (a, b, c) of {where}, against minigrad", rtol=1e-7, atol=1e-10)


@check("ex2_value", "values and gradients match minigrad on four expressions at fixed points")
def _(ex):
    for name in EXPRESSIONS:
        agree(ex, name, (0.7, -1.3, 1.1))
        agree(ex, name, (1.5, 0.4, 0.6))


@check("ex2_value", "values and gradients match minigrad on random inputs")
def _(ex):
    names = sorted(EXPRESSIONS)
    draw = rng(102)
    for k, (a, c) in enumerate(float_tuples(0.5, 2.0, 2, 30, seed=103)):
        b = float(draw.uniform(-2.0, 2.0))
        agree(ex, names[k % len(names)], (a, b, c))


@check("ex2_value", "a node used twice receives both contributions (a * a, a + a, a * b + a)")
def _(ex):
    for text, f, want in [
        ("a * a", lambda a, b: a * a, 6.0),
        ("a + a", lambda a, b: a + a, 2.0),
        ("a * b + a", lambda a, b: a * b + a, 5.0),
    ]:
        with explained_by_trace(*engine_runs(ex, f, (3.0, 4.0))):
            a, b = ex.Value(3.0), ex.Value(4.0)
            f(a, b).backward()
            expect_close(a.grad, want, f"a.grad after ({text}).backward() with a = 3, b = 4")


@check("ex2_value", "a 5 000-deep chain works (topological order without recursion)")
def _(ex):
    x = ex.Value(1.0)
    y = x
    for _ in range(5000):
        y = y * 1.0001
    y.backward()
    expect_close(x.grad, 1.0001**5000, "x.grad after a chain of 5 000 multiplications by 1.0001", rtol=1e-9)


@check("ex2_value", "backward emits the events the debugger steps: every node entered once, before + g = after")
def _(ex):
    def run():
        a, b, c = ex.Value(2.0), ex.Value(-3.0), ex.Value(10.0)
        L = (a * b + c).tanh() * a
        L.backward()
        return a

    with explained_by_trace(*engine_runs(ex, lambda a, b, c: (a * b + c).tanh() * a, (2.0, -3.0, 10.0))):
        check_events(*record_call(run))


def check_events(trace, a):
    kinds = [e.kind for e in trace.events if e.pass_id is not None]
    expect(kinds[:2] == ["pass_started", "seeded"], "the pass's first events", "pass_started, seeded", kinds[:2])
    expect_equal(kinds[-1], "pass_finished", "the pass's last event")
    entered = [e.node for e in trace.find("node_entered")]
    expect_equal(len(entered), 7, "node_entered events (one per node: a, b, c, a*b, +c, tanh, *a)")
    expect_equal(len(set(entered)), 7, "distinct nodes entered")
    expect_equal(len(trace.find("closure_called")), 4, "closure_called events (one per node made by an op)")
    for e in trace.find("grad_accumulated"):
        before = 0.0 if e.before is None else float(as_array(e.before))
        what = f"{trace.nodes[e.node].label} -> {trace.nodes[e.target].label}: the after of before + contribution"
        expect_close(float(as_array(e.after)), before + float(as_array(e.contribution)), what)
    (into_a,) = incoming_grads(trace, "a")
    expect_close(into_a, a.grad, "the gradient entering a (its node_entered event) against a.grad")


# ---------------------------------------------------------------- 10.3 predictions
@functools.cache
def demo_trace(engine: str):
    return record_demo(LESSON, argv=(engine,))


def first_pass(trace):
    return next(e.pass_id for e in trace.events if e.kind == "pass_started")


@check("ex3_predict_trace", "predict_third_entered() is the third node_entered of the pass")
def _(ex):
    trace = demo_trace("reference")
    entered = [trace.nodes[e.node].label for e in trace.find("node_entered", pass_id=first_pass(trace))]
    expect_prediction(ex.predict_third_entered(), entered[2], "the third node entered")


@check("ex3_predict_trace", "predict_contributions_into_a() counts the grad_accumulated events into a")
def _(ex):
    trace = demo_trace("reference")
    want = len(contributions_into(trace, "a", pass_id=first_pass(trace)))
    expect_prediction(ex.predict_contributions_into_a(), want, "contributions into a")


@check("ex3_predict_trace", "predict_before_second_into_a() is that event's before")
def _(ex):
    trace = demo_trace("reference")
    second = contributions_into(trace, "a", pass_id=first_pass(trace))[1]
    expect_prediction(ex.predict_before_second_into_a(), as_array(second.before), "a.grad before the second", rtol=1e-4)


@check("ex3_predict_trace", "predict_a_grad() is the gradient entering a")
def _(ex):
    trace = demo_trace("reference")
    (want,) = incoming_grads(trace, "a", pass_id=first_pass(trace))
    expect_prediction(ex.predict_a_grad(), want, "the gradient entering a", rtol=1e-4)


# ---------------------------------------------------------------- 10.4 the planted bug
def entered_by_name(trace):
    return {
        trace.nodes[e.node].label: float(as_array(e.grad))
        for e in trace.find("node_entered", pass_id=first_pass(trace))
    }


@functools.cache
def the_bug():
    """(the first node entered with a wrong gradient, the op whose rule sent it, the right gradient),
    from the buggy and the reference engines' traces of the demo."""
    right, wrong = demo_trace("reference"), demo_trace("buggy")
    want, got = entered_by_name(right), entered_by_name(wrong)
    order = [wrong.nodes[e.node].label for e in wrong.find("node_entered", pass_id=first_pass(wrong))]
    first = next(n for n in order if not math.isclose(got[n], want[n], rel_tol=1e-9))
    child = next(
        e for e in wrong.find("grad_accumulated", pass_id=first_pass(wrong)) if wrong.nodes[e.target].label == first
    )
    return first, wrong.nodes[child.node].op, want[first]


@check("ex4_find_the_bug", "first_wrong_node() and wrong_op() are where the buggy pass goes wrong")
def _(ex):
    node, op, _ = the_bug()
    expect_prediction(ex.first_wrong_node(), node, "the first node entered with a wrong gradient")
    expect_prediction(ex.wrong_op(), op, "the op whose rule is wrong")


@check("ex4_find_the_bug", "right_gradient_of_first_wrong_node() is the reference engine's")
def _(ex):
    node, _, want = the_bug()
    expect_prediction(ex.right_gradient_of_first_wrong_node(), want, "the right gradient entering that node", rtol=1e-4)


@check("ex4_find_the_bug", "fixed_rule is the wrong op's rule, corrected: it matches finite differences")
def _(ex):
    _, op, _ = the_bug()
    f = {"tanh": math.tanh}[op]
    for x in (-1.5, 0.0, 0.4, 4.0):
        out, rule = expect_len(ex.fixed_rule(x), 2, f"fixed_rule({x}) returns (out, rule)")
        expect_close(out, f(x), f"fixed_rule({x})'s output (the op's value)")
        expect_close(
            rule(1.0), [numeric(f, (x,), 0)], f"fixed_rule({x})'s rule(1), by finite differences", rtol=1e-6, atol=1e-9
        )
