"""Lesson 10 demo: L = tanh(a * b + c) * a on a Value engine of your own, stepped by minigrad's debugger.

    minigrad lesson debug 10             your engine (ex2_value.py); the reference one until yours runs
    minigrad lesson debug 10 reference   the reference engine
    minigrad lesson debug 10 buggy       the engine with a planted bug (exercise 10.4)

Then the same expression on minigrad's tensors: the two engines must agree.
"""

import sys
from pathlib import Path

import minigrad as mg
from minigrad.course import find_lesson
from minigrad.course.checking import load_module

HERE = Path(globals().get("__file__", "demo.py")).resolve().parent  # a notebook cell has no __file__
ENGINES = {
    "yours": HERE / "ex2_value.py",
    "reference": find_lesson(10).path / "reference" / "ex2_value.py",
    "buggy": HERE / "buggy_value.py",
}


def load_engine(which: str):
    """(the Value class of one engine, the engine's name); yours falls back to the reference while it is unfinished."""
    engine = load_module(ENGINES[which], f"lesson10_{which}_engine")
    if which == "yours":
        try:
            engine.Value(1.0) * engine.Value(2.0) + 1.0
        except NotImplementedError:
            print("your engine (ex2_value.py) is not finished yet: stepping the reference engine")
            return load_engine("reference")
    return engine.Value, which


def build(Value):
    """The lesson's running example: returns L (and a, for its gradient)."""
    a = Value(2.0)
    b = Value(-3.0)
    c = Value(10.0)
    d = a * b
    e = d + c
    f = e.tanh()
    L = f * a
    return L, a


which = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] in ENGINES else "yours"
Value, stepped = load_engine(which)
L, a = build(Value)
L.backward()
engine = "your engine:" if stepped == "yours" else f"{stepped} engine:"
print(f"{engine:<18} L = {L.data:.6f}   dL/da = {a.grad:.6f}")

ta = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
tL = ((ta * -3.0 + 10.0).tanh()) * ta
tL.backward()
print(f"{'minigrad:':<18} L = {tL.item():.6f}   dL/da = {ta.grad.item():.6f}")
