"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

import warnings

from minigrad.course.screens import demo_trace, diagram, step_of, steps_of, transcript

VANISHING = "op:sigmoid if |g| < 1e-2"  # the breakpoints section 1 sets: the README names them
EXPLODING = "op:relu if |g| > 1e4"


def stops(trace, spec: str) -> list[int]:
    """The steps where the debugger's ``c`` stops for the breakpoint ``spec``, replayed over ``trace``."""
    from minigrad.trace import HitCounter, parse_breakpoint

    breakpoint_, hits = parse_breakpoint(spec), HitCounter(trace)
    return [e.seq for e in trace.events if breakpoint_.matches(e, hits)]


@transcript("vanishing")
def _():
    trace = demo_trace(quiet_warnings=True)
    return trace, [*steps_of(trace, "node_entered", "s12"), *stops(trace, VANISHING)]


@transcript("exploding")
def _():
    trace = demo_trace(quiet_warnings=True)
    return trace, [*steps_of(trace, "node_entered", "r12"), *stops(trace, EXPLODING)]


@transcript("nan_at_root")
def _():
    trace = demo_trace(quiet_warnings=True)
    return trace, [*steps_of(trace, "node_entered", "root"), *steps_of(trace, "closure_called", "root")]


@transcript("stale")
def _():
    trace = demo_trace(quiet_warnings=True)
    return trace, steps_of(trace, "closure_called", "scaled")


@transcript("refused")
def _():
    trace = demo_trace(quiet_warnings=True)
    last = trace.find("pass_started")[-1].pass_id
    scaled2 = trace.node("scaled2").id
    return trace, [
        e.seq
        for e in trace.events
        if e.pass_id == last and (e.kind == "error" or (e.kind == "closure_called" and e.node_id == scaled2))
    ]


@diagram("nan_at_sqrt")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        trace = record_demo()
    return viz.draw(trace, step=step_of(trace, "closure_called", "root"))
