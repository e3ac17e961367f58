"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import diagram, transcript


@transcript("rule_of_f")
def _():
    from minigrad.course.recording import record_demo

    trace = record_demo(argv=("reference",))
    first = trace.find("pass_started")[0].pass_id
    rule = next(e.seq for e in trace.find("closure_called", "f") if e.pass_id == first)
    into_e = next(e.seq for e in trace.find("grad_accumulated") if e.pass_id == first and e.seq > rule)
    return trace, [rule, into_e]


@diagram("second_into_a")
def _():
    from minigrad import viz
    from minigrad.course.recording import contributions_into, record_demo

    trace = record_demo(argv=("reference",))
    first_pass = trace.find("pass_started")[0].pass_id
    return viz.draw(trace, step=contributions_into(trace, "a", pass_id=first_pass)[1].seq)
