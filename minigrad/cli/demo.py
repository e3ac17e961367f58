"""``minigrad demo``: run the built-in example (:mod:`minigrad.examples`) headless and print its gradients."""

from __future__ import annotations

from minigrad import examples


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
        print(examples.source("demo"), end="")
        return 0
    examples.run("demo")
    return 0
