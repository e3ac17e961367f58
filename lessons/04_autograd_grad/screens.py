"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, steps_of, transcript


@transcript("save_restore")
def _():
    trace = demo_trace()
    return trace, [
        *steps_of(trace, "pass_started"),
        *steps_of(trace, "grads_saved"),
        *steps_of(trace, "grads_restored"),
        *steps_of(trace, "pass_finished"),
    ]


@transcript("into_a")
def _():
    trace = demo_trace()
    a = trace.node("a").id
    return trace, [e.seq for e in trace.events if e.kind == "grad_accumulated" and e.target == a]


@diagram("grads_saved")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo()
    return viz.draw(trace, step=trace.find("grads_saved")[0].seq)
