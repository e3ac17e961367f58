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


@diagram("jvp")
def _():
    """The forward-mode part whole: x0 and v are make_dual's inputs, f(x0) and J v unpack_dual's outputs.

    The trace records make_dual and unpack_dual without these edges (nothing requires grad, and the tangent
    unpack_dual returns is the sum rule's own result, no node of the demo's), so the figure adds them, with the
    values the trace recorded: the dual ``x`` gets ``v`` as its tangent, ``y_tangent`` the tangent of ``y``.
    """
    from minigrad.course.recording import record_demo
    from minigrad.trace.status import NodeStatus
    from minigrad.viz import Diagram
    from minigrad.viz.dot import to_dot
    from minigrad.viz.model import VEdge, VNode
    from minigrad.viz.options import Options
    from minigrad.viz.steps import graph_at_step

    trace = record_demo()
    events = trace.find("tangent_computed")
    unpack = next(e for e in events if e.op == "unpack_dual")
    options = Options(title="forward mode: make_dual(x0, v) through y = sum(tanh(x * x)), then unpack_dual(y)")
    graph = graph_at_step(trace, unpack.seq, options)
    primal, tangent = trace.node("x0").id, trace.node("v").id
    dual = events[0].parents[0]  # the mul's operand: the tensor make_dual returned
    y = unpack.parents[0]
    for nid in (primal, tangent):
        graph.nodes[nid].role = "input"
    x = graph.nodes[dual]
    x.op, x.role, x.parents, x.tangents = (
        "make_dual",
        "intermediate",
        (primal, tangent),
        ((0, graph.nodes[tangent].data),),
    )
    graph.nodes[unpack.node].tangents = ()  # unpack_dual's primal carries no tangent
    jvp = max(trace.nodes) + 1
    graph.nodes[jvp] = VNode(
        id=jvp, name="y_tangent", op="unpack_dual", data=unpack.tangents[0], role="output", parents=(y,)
    )
    graph.edges += [VEdge(primal, dual, 0), VEdge(tangent, dual, 1), VEdge(y, jvp, 0)]
    for node in graph.nodes.values():
        node.state = NodeStatus.FORWARD
    for edge in graph.edges:  # the whole part at once: no step's edge is the one sending a tangent now
        edge.state, edge.label = None, None
    return Diagram(to_dot(graph, options), graph)


@diagram("both_ways")
def _():
    from minigrad import viz
    from minigrad.course.recording import record_demo

    trace = record_demo()
    xr = trace.node("xr").id
    into_xr = [e for e in trace.find("grad_accumulated") if e.target == xr and e.into == "grad"]
    return viz.draw(trace, step=into_xr[0].seq)
