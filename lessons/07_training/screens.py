"""The screens of this lesson: the debugger transcripts its README quotes and its diagrams.

Made by ``python lessons/make_transcripts.py`` and ``python lessons/make_diagrams.py``, each in a fresh
process (see minigrad.course.screens).
"""

from minigrad.course.screens import demo_trace, diagram, transcript


@transcript("two_steps")
def _():
    trace = demo_trace()
    w = trace.node("w").id
    first_two = [e.pass_id for e in trace.find("pass_started")][:2]

    def about_w(e) -> bool:
        entered = e.kind == "node_entered" and e.node_id == w
        return entered or (e.kind == "grad_accumulated" and e.target == w and e.into == "grad")

    return trace, [e.seq for e in trace.events if e.pass_id in first_two and about_w(e)]


@transcript("cross_entropy")
def _():
    trace = demo_trace()
    first = next(e for e in trace.events if e.kind == "closure_called" and trace.nodes[e.node].op == "cross_entropy")
    return trace, [first.seq]


@diagram("mlp_graph")
def _():
    import minigrad as mg
    from minigrad import nn, viz
    from minigrad.nn import functional as F

    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 2))
    X, y = mg.data.make_moons(4, seed=0)
    loss = F.cross_entropy(model(mg.tensor(X)), mg.tensor(y))
    loss.name = "loss"
    return viz.draw(loss, fields=("name", "op", "shape"), title="cross_entropy(model(x), target) for a 2-3-2 MLP")
