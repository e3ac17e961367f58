import minigrad as mg
from minigrad.autograd import forward_ad as fwAD

x = mg.tensor([0.5, -1.0])
with fwAD.dual_level():
    xd = fwAD.make_dual(x, mg.tensor([1.0, 0.0]))
    h = xd * xd
    y = h.tanh().sum()
    value, dy = fwAD.unpack_dual(y)
print(value, dy)
