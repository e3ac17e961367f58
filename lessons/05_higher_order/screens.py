"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, transcript


def _inside_pass(trace, pass_id: int, kinds: tuple) -> list[int]:
    """Steps of ``kinds`` from pass ``pass_id``'s start to its end, nested events and new nodes included."""
    start = trace.find("pass_started", pass_id=pass_id)[0].seq
    end = trace.find("pass_finished", pass_id=pass_id)[0].seq
    return [e.seq for e in trace.events[start : end + 1] if e.kind in kinds]


@transcript("first_pass")
def _():
    trace = demo_trace()
    return trace, _inside_pass(trace, 1, ("node_created", "closure_called", "pass_finished"))


@transcript("second_pass")
def _():
    trace = demo_trace()
    return trace, _inside_pass(trace, 2, ("pass_started", "closure_called", "pass_finished"))


@transcript("third_pass")
def _():
    trace = demo_trace()
    return trace, _inside_pass(trace, 3, ("node_created", "node_entered", "pass_finished"))


@diagram("create_graph")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo()
    return viz.draw(trace, step=trace.find("pass_finished")[0].seq)
