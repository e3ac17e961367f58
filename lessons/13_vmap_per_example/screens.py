"""The screens of this lesson: the debugger transcripts its README quotes and its diagram.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, transcript


def _passes(trace):
    """(the first pass of the loop, the vmap pass): the demo's first backward() and first grad() passes."""
    started = trace.find("pass_started")
    loop = next(e.pass_id for e in started if e.pass_kind == "backward")
    vmapped = next(e.pass_id for e in started if e.pass_kind == "grad")
    return loop, vmapped


def _sum_rule(trace, pass_id):
    return next(e.seq for e in trace.find("closure_called", pass_id=pass_id) if trace.nodes[e.node].op == "sum")


@transcript("batched_forward")
def _():
    trace = demo_trace()
    _, vmapped = _passes(trace)
    start = trace.find("pass_started", pass_id=vmapped)[0].seq
    loop_ended = max(e.seq for e in trace.find("pass_finished") if e.seq < start)
    made = [
        e.seq for e in trace.find("node_created") if loop_ended < e.seq < start and (e.info.op or e.info.requires_grad)
    ]
    return trace, made


@transcript("sum_rule_both_ways")
def _():
    trace = demo_trace()
    loop, vmapped = _passes(trace)
    return trace, [_sum_rule(trace, loop), _sum_rule(trace, vmapped)]


@transcript("vmap_pass")
def _():
    trace = demo_trace()
    _, vmapped = _passes(trace)
    seeded = trace.find("seeded", pass_id=vmapped)[0].seq
    last_rule = trace.find("closure_called", pass_id=vmapped)[-1].seq
    into_grad = [e.seq for e in trace.find("grad_accumulated", pass_id=vmapped) if e.into == "grad"]
    return trace, [seeded, last_rule, *into_grad]


@diagram("vmap_pass")
def _():
    from minigrad import viz

    trace = demo_trace()
    _, vmapped = _passes(trace)
    into_grad = [e for e in trace.find("grad_accumulated", pass_id=vmapped) if e.into == "grad"]
    return viz.draw(trace, step=into_grad[-1].seq)
