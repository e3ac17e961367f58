"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, steps_of, transcript


@transcript("to_rule")
def _():
    trace = demo_trace()
    v = trace.node("v").id
    into_v = [e.seq for e in trace.find("grad_accumulated") if e.target == v]
    return trace, [*steps_of(trace, "node_created", "vd"), *steps_of(trace, "closure_called", "vd"), *into_v]


@diagram("demo_graph")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo()
    return viz.draw(trace, step=trace.find("pass_finished")[-1].seq, fields=("name", "op", "shape", "device"))
