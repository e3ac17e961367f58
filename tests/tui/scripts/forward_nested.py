import minigrad as mg
from minigrad import func

x = mg.tensor([0.5, -1.0])
e0 = mg.tensor([1.0, 0.0])


def slope(x):
    return func.jvp(lambda y: (y * y).tanh(), (x,), (e0,))[1]


value, curvature = func.jvp(slope, (x,), (e0,))
print(value, curvature)
