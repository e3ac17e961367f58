"""``minigrad run --torch`` (and ``trace --torch``) run unmodified PyTorch scripts in a fresh process, from
a folder of their own; the losses equal PyTorch's from the same initial weights."""

import importlib.util
import subprocess
import sys
import textwrap

import numpy as np
import pytest

REAL_TORCH = importlib.util.find_spec("torch") is not None

#: The script of issue 30, unchanged.
TRAIN = """\
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
net = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3)).to(device)
opt = torch.optim.AdamW(net.parameters(), lr=1e-2)
x = torch.from_numpy(np.random.default_rng(0).random((8, 1, 8, 8), dtype=np.float32))
y = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
for step in range(3):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
"""

#: The same training, from the initial weights in sys.argv[1], printing every step's loss.
TRAIN_FROM_WEIGHTS = TRAIN.replace(
    ".to(device)\n",
    '.to(device)\nnet.load_state_dict({k: torch.from_numpy(v) for k, v in np.load(__import__("sys").argv[1]).items()})\n',
).replace("    opt.step()\n", '    opt.step()\n    print(f"{loss:.9f}")\n')


def _run(tmp_path, script: str, *args, command=("run", "--torch")):
    (tmp_path / "script.py").write_text(textwrap.dedent(script))
    return subprocess.run(
        [sys.executable, "-m", "minigrad", *command, "script.py", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_issues_script_runs_unchanged(tmp_path):
    done = _run(tmp_path, TRAIN)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("loss ") and len(done.stdout.split()) == 2
    assert 0.0 < float(done.stdout.split()[1]) < 3.0


@pytest.mark.skipif(not REAL_TORCH, reason="needs a real torch installed")
def test_losses_equal_torchs_from_the_same_initial_weights(tmp_path):
    rng = np.random.default_rng(1)
    shapes = {"0.weight": (4, 1, 3, 3), "0.bias": (4,), "4.weight": (3, 4), "4.bias": (3,)}
    np.savez(tmp_path / "init.npz", **{k: rng.uniform(-0.5, 0.5, s).astype(np.float32) for k, s in shapes.items()})
    ours = _run(tmp_path, TRAIN_FROM_WEIGHTS, "init.npz")
    assert ours.returncode == 0, ours.stderr
    theirs = subprocess.run(
        [sys.executable, "script.py", "init.npz"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert theirs.returncode == 0, theirs.stderr
    mine, torchs = ours.stdout.splitlines(), theirs.stdout.splitlines()
    assert len(mine) == len(torchs) == 4 and mine[-1] == torchs[-1]  # "loss 1.0986", to its four decimals
    np.testing.assert_allclose([float(v) for v in mine[:3]], [float(v) for v in torchs[:3]], rtol=1e-5)


def test_a_missing_name_raises_the_message_from_the_scripts_line(tmp_path):
    done = _run(tmp_path, "import torch\nx = torch.zeros(4)\ny = torch.fft.rfft(x)\n")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].endswith(
        "MissingTorchName: minigrad has no torch.fft.rfft (not implemented); see README 'PyTorch coverage'"
    )
    assert 'script.py", line 3, in <module>' in done.stderr and "runpy" not in done.stderr


def test_cpu_only_queries_compile_and_bfloat16(tmp_path):
    script = """\
        import torch
        import torch.distributed as dist
        import torch.nn.parallel
        torch.cuda.manual_seed_all(0)
        torch.set_float32_matmul_precision("high")
        scaler = torch.amp.GradScaler(enabled=False)
        print(torch.cuda.is_available(), torch.backends.mps.is_available(), torch.backends.cudnn.is_available())
        print(torch.accelerator.is_available(), dist.is_available(), scaler.is_enabled())
        f = torch.compile(lambda x: x + 1)
        print(f(torch.tensor(1.0)).item())
        try:
            torch.ones(2, dtype=torch.bfloat16)
        except NotImplementedError as exc:
            print(exc)
    """
    done = _run(tmp_path, script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "False False False",
        "False False False",
        "2.0",
        "minigrad has no torch.bfloat16 tensors (not implemented); see README 'PyTorch coverage'; use torch.float32",
    ]
    assert done.stderr == "minigrad: torch.compile(<lambda>) returns it unchanged (minigrad does not compile)\n"


def test_arguments_and_exit_code_reach_the_script(tmp_path):
    done = _run(tmp_path, "import sys, torch\nprint(sys.argv[1:])\nsys.exit(3)\n", "--lr", "0.1")
    assert done.returncode == 3 and done.stdout == "['--lr', '0.1']\n"


@pytest.mark.skipif(not REAL_TORCH, reason="needs a real torch installed")
def test_without_torch_flag_a_real_torch_is_imported(tmp_path):
    done = _run(tmp_path, "import torch\nprint(type(torch).__name__, torch.cuda.is_available())\n", command=("run",))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "module False\n"


def test_a_missing_script_exits_2(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "minigrad", "run", "--torch", "nope.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 2 and "can't open file 'nope.py'" in done.stderr


def test_trace_records_a_torch_script(tmp_path):
    done = _run(tmp_path, TRAIN, "-o", "run.jsonl", command=("trace", "--torch"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("loss ")
    shown = subprocess.run(
        [sys.executable, "-m", "minigrad", "trace", "show", "run.jsonl", "--kind", "pass_started", "--brief"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert shown.returncode == 0, shown.stderr
    passes = [line.split("pass_started")[1].strip() for line in shown.stdout.splitlines()[2:]]
    assert passes == [f"backward() pass {k} from loss" for k in (1, 2, 3)]
