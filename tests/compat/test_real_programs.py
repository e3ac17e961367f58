"""Issue 30's acceptance: two well-known PyTorch programs run unchanged (``import torch``) through
``minigrad run --torch``, and their losses equal PyTorch's from the same initial weights.

The programs are in ``programs/``, beside this file, each crediting its source and carrying its license:

- ``nanogpt/`` holds nanoGPT's ``model.py``, ``train.py`` and ``configurator.py`` unchanged (Andrej Karpathy,
  MIT License, https://github.com/karpathy/nanoGPT). ``train.py`` runs as its README runs it on a CPU
  (``--device=cpu --compile=False``, scaled down) on a tiny token dataset, and resumes from its checkpoint.
  ``train_tiny.py`` is a learner's copy of ``train.py``'s loop cut down to a tiny config, with batches
  from a seeded NumPy generator so that both frameworks train on the same ones: AdamW from ``configure_optimizers``'s weight-decay groups, the warmup-cosine
  learning rate written into the param groups, gradient accumulation, ``clip_grad_norm_``, a disabled
  ``GradScaler``, ``estimate_loss`` under ``@torch.no_grad()``, ``generate`` with ``top_k``, and train.py's
  checkpoint saved with ``torch.save`` and resumed (``--init-from resume``).
- ``mnist_main.py`` is pytorch/examples' ``mnist/main.py`` (Pytorch contributors, BSD 3-Clause License,
  https://github.com/pytorch/examples): ``Net``, ``train`` and ``test`` unchanged, with Adadelta and StepLR,
  on synthetic MNIST-shaped data instead of torchvision's download.

Each program runs under minigrad, which writes its initial weights as ``.npz``; PyTorch (when installed)
runs the same script from those weights. nanoGPT also goes the other way, from torch's own initial weights,
with its hand-written attention (``--slow-attention``: as on PyTorch < 2.0) and a cropped block size.
Without PyTorch the minigrad runs are still checked: every loss finite, the training learns, a reloaded
run trains the same, and the paths with and without scaled_dot_product_attention agree. nanoGPT is also
recorded by ``minigrad trace --torch`` and stepped to its end in ``minigrad-tui --torch``.
"""

import asyncio
import importlib.util
import math
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REAL_TORCH = importlib.util.find_spec("torch") is not None


def needs_torch(test):
    """A comparison with PyTorch, run in a process of its own (its import alone takes seconds): marked slow
    and torch, and skipped without a real torch."""
    for mark in (pytest.mark.slow, pytest.mark.torch, pytest.mark.skipif(not REAL_TORCH, reason="needs a real torch")):
        test = mark(test)
    return test


PROGRAMS = Path(__file__).parent / "programs"
MNIST_ARGS = ("--batch-size", "16", "--test-batch-size", "32", "--epochs", "2", "--log-interval", "1")
MNIST_ARGS += ("--train-size", "64", "--test-size", "32")


def _run(folder: Path, *command: str) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def _under_minigrad(folder: Path, script: str, *args: str) -> str:
    return _run(folder, sys.executable, "-m", "minigrad", "run", "--torch", script, *args).stdout


def _under_torch(folder: Path, script: str, *args: str) -> str:
    return _run(folder, sys.executable, script, *args).stdout


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> Path:
    """A folder of its own holding a copy of the programs, as a learner's project folder."""
    folder = tmp_path_factory.mktemp("programs")
    shutil.copytree(PROGRAMS, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


@pytest.fixture(scope="module")
def nanogpt(programs) -> Path:
    """nanoGPT's folder: its model.py, train.py and configurator.py, and the learner's train_tiny.py."""
    return programs / "nanogpt"


def _nanogpt_losses(out: str) -> list[float]:
    """The losses of every iteration, then estimate_loss()'s train and val losses."""
    steps = [float(v) for v in re.findall(r"^iter \d+: loss (\S+)$", out, re.M)]
    (estimated,) = re.findall(r"^step \d+: train loss (\S+), val loss (\S+)$", out, re.M)
    return steps + [float(v) for v in estimated]


@pytest.fixture(scope="module")
def nanogpt_run(nanogpt) -> str:
    return _under_minigrad(nanogpt, "train_tiny.py", "--save-init", "gpt_init.npz")


def test_nanogpt_trains_under_minigrad(nanogpt_run):
    assert "num decayed parameter tensors: 10, with 6,784 parameters" in nanogpt_run
    assert "num non-decayed parameter tensors: 18, with 448 parameters" in nanogpt_run
    assert "using fused AdamW: False" in nanogpt_run and "sample shape (1, 8)" in nanogpt_run
    losses = _nanogpt_losses(nanogpt_run)
    assert len(losses) == 7 + 2 and all(math.isfinite(v) for v in losses)
    assert losses[0] == pytest.approx(math.log(32), rel=0.02)  # small initial weights: near uniform over 32 tokens
    assert losses[6] < losses[0] - 0.2 and losses[7] < losses[0] - 0.2


def test_nanogpt_from_its_saved_weights_trains_the_same(nanogpt, nanogpt_run):
    """load_state_dict of both tied keys (wte and lm_head share one weight) keeps them tied."""
    assert _under_minigrad(nanogpt, "train_tiny.py", "--load-init", "gpt_init.npz") == nanogpt_run


@needs_torch
def test_nanogpt_losses_equal_torchs_from_the_same_weights(nanogpt, nanogpt_run):
    theirs = _under_torch(nanogpt, "train_tiny.py", "--load-init", "gpt_init.npz")
    np.testing.assert_allclose(_nanogpt_losses(nanogpt_run), _nanogpt_losses(theirs), rtol=1e-4)
    assert "sample shape (1, 8)" in theirs


def test_nanogpt_resumed_from_its_checkpoint_trains_as_without_a_stop(tmp_path, nanogpt, nanogpt_run):
    """train.py's checkpoint (state_dicts of the model and of AdamW with its step counts and moments, and
    Python values) saved by torch.save and resumed by torch.load(map_location=...)."""
    out_dir = str(tmp_path / "out")
    first = _under_minigrad(nanogpt, "train_tiny.py", "--max-iters", "3", "--out-dir", out_dir)
    assert f"saving checkpoint to {out_dir}" in first
    resumed = _under_minigrad(nanogpt, "train_tiny.py", "--out-dir", out_dir, "--init-from", "resume")
    assert resumed.startswith(f"Resuming training from {out_dir}\n")
    assert re.findall(r"^iter (\d+):", resumed, re.M) == ["4", "5", "6"]
    assert _nanogpt_losses(resumed) == _nanogpt_losses(nanogpt_run)[4:]


#: The command line of nanoGPT's README for a CPU, scaled down to a 2-layer GPT on a 32-token dataset.
TRAIN_PY_ARGS = (
    "--dataset=tiny --device=cpu --compile=False --eval_iters=2 --eval_interval=4 --log_interval=1 --block_size=8"
    " --batch_size=4 --n_layer=2 --n_head=2 --n_embd=16 --lr_decay_iters=8 --warmup_iters=2 --dropout=0.0"
    " --gradient_accumulation_steps=2 --learning_rate=1e-2 --out_dir=out"
).split()


def test_nanogpts_own_train_py_trains_and_resumes_unchanged(nanogpt):
    """train.py with configurator.py's --key=value overrides: torch.randint batches from np.memmap'd .bin
    files, meta.pkl's vocab size, a GradScaler it asks for and minigrad disables (as torch's CPU build),
    estimate_mfu, checkpoints every eval_interval, and init_from=resume from the last one."""
    data = nanogpt / "data" / "tiny"
    data.mkdir(parents=True, exist_ok=True)
    stream = ((np.arange(3000) + (np.random.default_rng(0).random(3000) < 0.1)) % 32).astype(np.uint16)
    stream[:2700].tofile(data / "train.bin")
    stream[2700:].tofile(data / "val.bin")
    with open(data / "meta.pkl", "wb") as f:  # as nanoGPT's data/shakespeare_char/prepare.py writes it
        pickle.dump({"vocab_size": 32}, f)

    trained = _under_minigrad(nanogpt, "train.py", *TRAIN_PY_ARGS, "--max_iters=8")
    assert "found vocab_size = 32 (inside data/tiny/meta.pkl)" in trained
    assert trained.count("saving checkpoint to out") == 2  # at steps 4 and 8
    evals = [float(v) for v in re.findall(r"^step \d+: train loss \S+, val loss (\S+)$", trained, re.M)]
    iters = re.findall(r"^iter (\d+): loss (\S+), time \S+ms, mfu \S+%$", trained, re.M)
    assert [int(i) for i, _ in iters] == list(range(9)) and len(evals) == 3
    losses = [float(v) for _, v in iters] + evals
    assert all(math.isfinite(v) for v in losses) and evals[2] < evals[0] - 0.2

    resumed = _under_minigrad(nanogpt, "train.py", *TRAIN_PY_ARGS, "--max_iters=12", "--init_from=resume")
    assert "Resuming training from out" in resumed
    assert re.findall(r"^iter (\d+):", resumed, re.M) == ["8", "9", "10", "11", "12"]


def test_nanogpt_with_slow_attention_trains_as_with_sdpa(nanogpt, nanogpt_run):
    """Without F.scaled_dot_product_attention model.py masks with its tril buffer and masked_fill(-inf)."""
    slow = _under_minigrad(nanogpt, "train_tiny.py", "--slow-attention")
    assert slow.count("WARNING: using slow attention.") == 2  # once per block
    np.testing.assert_allclose(_nanogpt_losses(slow), _nanogpt_losses(nanogpt_run), rtol=1e-6)


def test_nanogpt_with_dropout_learns(nanogpt):
    losses = _nanogpt_losses(_under_minigrad(nanogpt, "train_tiny.py", "--dropout", "0.2"))
    assert all(math.isfinite(v) for v in losses) and losses[6] < losses[0] - 0.1 and losses[7] < losses[0] - 0.1


@needs_torch
def test_nanogpt_from_torchs_own_weights_with_slow_attention_and_a_cropped_block_equals_torch(tmp_path, nanogpt):
    """torch's state_dict (its initial weights, the causal-mask buffers, the tied weight twice) loads;
    crop_block_size slices wpe into a new Parameter and each mask buffer, as train.py does."""
    options = ("--slow-attention", "--crop-block-size")
    theirs = _under_torch(nanogpt, "train_tiny.py", *options, "--save-init", str(tmp_path / "torch_init.npz"))
    ours = _under_minigrad(nanogpt, "train_tiny.py", *options, "--load-init", str(tmp_path / "torch_init.npz"))
    np.testing.assert_allclose(_nanogpt_losses(ours), _nanogpt_losses(theirs), rtol=1e-4)
    assert "sample shape (1, 8)" in ours


def test_nanogpt_traced_shows_the_learners_lines(tmp_path, nanogpt, nanogpt_run):
    from minigrad.trace import Trace

    out = _run(
        nanogpt,
        sys.executable,
        "-m",
        "minigrad",
        "trace",
        "--torch",
        "train_tiny.py",
        "-o",
        str(tmp_path / "gpt.jsonl"),
    )
    assert out.stdout == nanogpt_run
    trace = Trace.load(tmp_path / "gpt.jsonl")
    assert len(trace.find("pass_started")) == 7 * 2  # one backward per micro step
    split = [n for n in trace.nodes.values() if n.op == "split"]
    assert split and all(n.source.file.endswith("model.py") for n in split)
    assert split[0].source.text == "q, k, v  = self.c_attn(x).split(self.n_embd, dim=2)"


def test_nanogpt_steps_to_its_end_in_the_debugger(nanogpt):
    """``minigrad-tui --torch train_nanogpt.py``: continued to the end, the script printed what it prints under
    ``minigrad run --torch``, and the debugger's trace holds its graphs."""
    pytest.importorskip("textual")
    from minigrad.cli.run import torch_imports
    from tests.tui.helpers import debugger, press

    async def continue_to_the_end():
        with torch_imports(True):
            async with debugger("--torch", str(nanogpt / "train_tiny.py"), "--max-iters", "1") as (app, pilot):
                await press(app, pilot, "c")
                return app.source.state, app.source.output.text(), len(app.session.trace.find("pass_started"))

    state, output, passes = asyncio.run(continue_to_the_end())
    assert state == "finished" and passes == 2 * 2  # two iterations of two micro steps
    assert output == _under_minigrad(nanogpt, "train_tiny.py", "--max-iters", "1")


#: What a learner prints of the two programs' models and of loading weights (a notebook shows the same).
PRINT_MODELS = """\
import torch
from mnist_main import Net
from nanogpt.model import GPT, GPTConfig

print(GPT(GPTConfig(block_size=8, vocab_size=32, n_layer=1, n_head=2, n_embd=16, dropout=0.1)))
print(Net())
print(Net().load_state_dict(Net().state_dict()))
"""


@needs_torch
def test_the_printed_models_are_torchs(programs):
    (programs / "print_models.py").write_text(PRINT_MODELS)
    ours = _under_minigrad(programs, "print_models.py")
    assert "(resid_dropout): Dropout(p=0.1, inplace=False)" in ours
    assert ours == _under_torch(programs, "print_models.py")


def _mnist_results(out: str) -> tuple[list[float], list[float], list[int]]:
    """The logged training losses, and each epoch's test loss and number of correct answers."""
    train = [float(v) for v in re.findall(r"\tLoss: (\S+)$", out, re.M)]
    tests = re.findall(r"^Test set: Average loss: (\S+), Accuracy: (\d+)/32 ", out, re.M)
    return train, [float(loss) for loss, _ in tests], [int(correct) for _, correct in tests]


#: A learner's second script: the model main.py saved (--save-model), evaluated by main.py's own test().
TEST_SAVED_MODEL = """\
import numpy as np
import torch
from torch.utils.data import DataLoader
from mnist_main import Net, synthetic_mnist, test

rng = np.random.default_rng(1)
synthetic_mnist(rng, 64)  # the training set main.py drew first
model = Net()
loaded = model.load_state_dict(torch.load("mnist_cnn.pt", weights_only=True))
print(loaded.missing_keys, loaded.unexpected_keys)
test(model, torch.device("cpu"), DataLoader(synthetic_mnist(rng, 32), batch_size=32))
"""


def test_mnist_example_trains_under_minigrad_with_dropout_and_its_saved_model_tests_the_same(programs):
    trained = _under_minigrad(programs, "mnist_main.py", *MNIST_ARGS, "--save-model")
    train, test_losses, correct = _mnist_results(trained)
    assert len(train) == 8 and len(test_losses) == 2 and all(math.isfinite(v) for v in train + test_losses)
    assert test_losses[1] < test_losses[0] < math.log(10)  # below chance's loss, and falling
    assert correct[1] >= 16  # chance gets about 3 of 32
    (programs / "test_saved_model.py").write_text(TEST_SAVED_MODEL)
    tested = _under_minigrad(programs, "test_saved_model.py")
    assert tested.startswith("[] []\n")
    assert _mnist_results(tested)[1:] == ([test_losses[1]], [correct[1]])


@needs_torch
def test_mnist_example_losses_equal_torchs_from_the_same_weights(programs):
    ours = _under_minigrad(programs, "mnist_main.py", *MNIST_ARGS, "--no-dropout", "--save-init", "net_init.npz")
    theirs = _under_torch(programs, "mnist_main.py", *MNIST_ARGS, "--no-dropout", "--load-init", "net_init.npz")
    (our_train, our_tests, our_correct), (train, tests, correct) = _mnist_results(ours), _mnist_results(theirs)
    assert len(our_train) == 8 and len(our_tests) == 2
    np.testing.assert_allclose(our_train, train, rtol=1e-4)
    np.testing.assert_allclose(our_tests, tests, rtol=1e-4)
    assert our_correct == correct
