"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, step_of, steps_of, transcript


@transcript("into_b")
def _():
    trace = demo_trace()
    return trace, [
        *steps_of(trace, "seeded"),
        *steps_of(trace, "closure_called", "c"),
        *steps_of(trace, "grad_accumulated", "c"),
    ]


@transcript("into_a")
def _():
    trace = demo_trace()
    return trace, [
        *steps_of(trace, "closure_called", "b"),
        *steps_of(trace, "grad_accumulated", "b"),
        *steps_of(trace, "grad_accumulated", "a"),
    ]


@diagram("accumulation")
def _():
    import minigrad as mg
    from minigrad import viz
    from minigrad.trace import record

    with record() as trace:
        a = mg.tensor(3.0, requires_grad=True, name="a")
        b = a + a
        c = b * b
        c.backward()
    return viz.draw(trace, step=step_of(trace, "grad_accumulated", "b", 1))
