"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, step_of, transcript


@transcript("at_h")
def _():
    trace = demo_trace()
    first = trace.find("pass_started")[0].pass_id
    h = trace.node("h").id
    into_h = [e.seq for e in trace.events if e.kind == "grad_accumulated" and e.target == h and e.pass_id == first]
    entered = [e.seq for e in trace.find("node_entered", "h") if e.pass_id == first]
    closure = [e.seq for e in trace.find("closure_called", "h") if e.pass_id == first]
    return trace, [*into_h, *entered, *closure]


@diagram("closure_at_h")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo()
    return viz.draw(trace, step=step_of(trace, "closure_called", "h"), captured=True)
