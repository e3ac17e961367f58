"""The screens of this lesson: the debugger transcripts its README quotes and its diagram.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, step_of, transcript


def into(trace, name: str) -> list[int]:
    """The steps of the pass's contributions into ``name`` (not into its ``.grad``)."""
    target = trace.node(name).id
    return [e.seq for e in trace.find("grad_accumulated") if e.target == target and e.into == "pass"]


@transcript("into_x")
def _():
    trace = demo_trace()
    return trace, into(trace, "x")


@transcript("into_mu")
def _():
    trace = demo_trace()
    return trace, [*into(trace, "mu"), step_of(trace, "closure_called", "mu")]


@transcript("variance_path")
def _():
    trace = demo_trace()
    steps = [step_of(trace, "closure_called", name) for name in ("xhat", "inv_std", "var", "sq")]
    return trace, steps


@diagram("paths_into_x")
def _():
    from minigrad import viz

    trace = demo_trace()
    return viz.draw(trace, step=into(trace, "x")[-1])
