"""The screens of this lesson: the debugger transcripts its README quotes and its diagram.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, step_of, steps_of, transcript


def top_passes(trace) -> list:
    return [ev.pass_id for ev in trace.find("pass_started") if ev.depth == 1]


@transcript("saved")
def _():
    trace = demo_trace()
    return trace, [*steps_of(trace, "closure_called", "y"), *steps_of(trace, "closure_called", "h2")]


@transcript("freed")
def _():
    trace = demo_trace()
    first, second = top_passes(trace)[:2]
    return trace, [
        *[ev.seq for ev in trace.find("graph_freed") if ev.pass_id == first],
        *[ev.seq for ev in trace.find("error") if ev.pass_id == second],
    ]


@transcript("recompute")
def _():
    trace = demo_trace()
    entered = trace.find("node_entered", "h2c")[0]
    third = entered.pass_id
    made = [ev.seq for ev in trace.find("node_created") if ev.pass_id == third and ev.info.op is not None]
    nested = [ev for ev in trace.events if ev.depth == 2]
    ends = [ev.seq for ev in nested if ev.kind in ("pass_started", "graph_freed")]
    into = [ev.seq for ev in trace.find("grad_accumulated", "h2c") if ev.pass_id == third]
    return trace, [entered.seq, *made, *ends, *into]


@diagram("recomputed")
def _():
    from minigrad import viz

    trace = demo_trace()
    nested = next(ev.pass_id for ev in trace.events if ev.depth == 2)
    first_rule = next(ev for ev in trace.find("closure_called") if ev.pass_id == nested)
    return viz.draw(trace, step=step_of(trace, "closure_called", trace.nodes[first_rule.node].label))
