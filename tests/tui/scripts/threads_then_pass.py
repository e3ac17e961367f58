import threading

import minigrad as mg


def one_pass():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()


workers = [threading.Thread(target=one_pass) for _ in range(5)]  # five passes in other threads first
for worker in workers:
    worker.start()
for worker in workers:
    worker.join()


def inner_pass(g):
    b = mg.tensor([2.0], requires_grad=True)
    with mg.enable_grad():
        mg.autograd.grad((b * b).sum(), b)  # a pass nested in the one running this hook
    return g


a = mg.tensor([3.0], requires_grad=True, name="a")
a.register_hook(inner_pass)
loss = (a * a).sum()
loss.backward()
again = (a * 2.0).sum()
again.backward()
