"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, transcript


@transcript("tangents")
def _():
    trace = demo_trace()
    events = trace.find("tangent_computed")
    first_unpack = next(i for i, e in enumerate(events) if e.op == "unpack_dual")
    return trace, [e.seq for e in events[:first_unpack]]


@diagram("tangent_of_t")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo()
    return viz.draw(trace, step=next(e.seq for e in trace.find("tangent_computed") if e.op == "tanh"))


@diagram("both_ways")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo()
    xr = trace.node("xr").id
    into_xr = [e for e in trace.find("grad_accumulated") if e.target == xr and e.into == "grad"]
    return viz.draw(trace, step=into_xr[0].seq)
