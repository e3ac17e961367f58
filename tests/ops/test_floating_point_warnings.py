"""log(0), 0/0 and exp overflow give inf/nan silently, as in PyTorch; the user's own NumPy still warns."""

import subprocess
import sys

SCRIPT = """
import numpy as np
import minigrad as mg

x = mg.tensor([0.0, 1.0, 1000.0], requires_grad=True)
y = x.log() + x / x + x.exp() + x.sqrt() + (x * 1e38 * 1e38)
y.sum().backward()
assert not np.isfinite(x.grad.numpy()[0]) and np.isnan(y.detach().numpy()[0])
mg.nn.functional.cross_entropy(mg.tensor([[0.0, 1.0]]), mg.tensor([-100]))
np.log(np.zeros(1))  # the user's own NumPy call
print("done")
"""


def test_no_numpy_warning_from_minigrad_ops_but_the_users_own_warn():
    run = subprocess.run([sys.executable, "-W", "default", "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "done"
    warnings = [line for line in run.stderr.splitlines() if "Warning" in line]
    assert len(warnings) == 1 and warnings[0].startswith("<string>:10: RuntimeWarning: divide by zero"), run.stderr
