"""``minigrad demo``: run the built-in example headless and print its gradients."""

from __future__ import annotations

EXAMPLE = """\
import minigrad as mg

a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True, name="a")
b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True, name="b")
c = a * b
d = c.tanh()
loss = (d + a * a).sum()
loss.backward()
print("loss  =", loss)
print("a.grad =", a.grad)
print("b.grad =", b.grad)
"""


def register(sub) -> None:
    p = sub.add_parser(
        "demo",
        help="run the built-in example and print its gradients",
        description="Run the built-in example (the one minigrad-tui opens) and print its gradients.",
    )
    p.add_argument("--source", action="store_true", help="print the example's source instead of running it")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.source:
        print(EXAMPLE, end="")
        return 0
    exec(compile(EXAMPLE, "<minigrad demo>", "exec"), {"__name__": "__main__"})
    return 0
