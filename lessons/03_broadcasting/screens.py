"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, step_of, steps_of, transcript


@transcript("forward")
def _():
    trace = demo_trace()
    return trace, steps_of(trace, "node_created")[3:5]


@transcript("reduction")
def _():
    trace = demo_trace()
    closure = steps_of(trace, "closure_called", "h")[0]
    reduced = steps_of(trace, "grad_reduced")
    into_b = [e.seq for e in trace.find("grad_accumulated") if e.target == trace.node("b").id]
    return trace, [closure, *reduced, *into_b]


@transcript("matmul")
def _():
    trace = demo_trace()
    return trace, steps_of(trace, "closure_called", "y")


@diagram("unbroadcast")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo()
    return viz.draw(trace, step=step_of(trace, "grad_reduced", "h"))
