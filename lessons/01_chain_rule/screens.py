"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, pass_steps, steps_of, transcript


@transcript("top")
def _():
    trace = demo_trace()
    first_handoff = steps_of(trace, "grad_accumulated", "f")[0]
    return trace, [s for s in pass_steps(trace, 1) if s <= first_handoff]


@transcript("add")
def _():
    trace = demo_trace()
    return trace, [*steps_of(trace, "closure_called", "e"), *steps_of(trace, "grad_accumulated", "e")]


@transcript("leaves")
def _():
    trace = demo_trace()
    leaves = [e.seq for e in trace.find("grad_accumulated") if e.into == "grad"]
    return trace, sorted([*steps_of(trace, "closure_called", "d"), *leaves])


@diagram("graph")
def _():
    import minigrad as mg
    from minigrad import viz

    a = mg.tensor(2.0, requires_grad=True, name="a")
    b = mg.tensor(-3.0, requires_grad=True, name="b")
    c = mg.tensor(6.5, requires_grad=True, name="c")
    d = a * b
    d.name = "d"
    e = d + c
    e.name = "e"
    f = e.tanh()
    f.name = "f"
    f.backward(retain_graph=True)
    return viz.draw(f, title="f = tanh(a * b + c) after f.backward(): data and gradient of every node")
