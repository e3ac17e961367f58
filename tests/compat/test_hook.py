"""The torch import hook in-process: what ``import torch`` gives while it is installed, the one message
a missing name raises, and that nothing of it is left (a real torch comes back) once uninstalled."""

import importlib.util
import sys

import numpy as np
import pytest

import minigrad as mg
from minigrad.compat import MissingTorchName, install_torch, torch_installed, uninstall_torch
from minigrad.compat.hook import TorchModule

REAL_TORCH = importlib.util.find_spec("torch") is not None


@pytest.fixture
def torch():
    with install_torch():
        import torch

        yield torch
    assert not torch_installed()


def test_torch_and_its_modules_are_minigrads(torch):
    import torch.nn as nn
    import torch.nn.functional as F
    import torch.optim
    import torch.utils.data
    from torch.utils.data import DataLoader, TensorDataset

    assert isinstance(torch, TorchModule)
    assert torch.tensor is mg.tensor and torch.Tensor is mg.Tensor and torch.float32 is mg.float32
    assert nn.Linear is mg.nn.Linear and nn.functional is F and F.cross_entropy is mg.nn.functional.cross_entropy
    assert torch.optim.AdamW is mg.optim.AdamW and torch.optim.lr_scheduler.StepLR is mg.optim.lr_scheduler.StepLR
    assert DataLoader is mg.data.DataLoader and TensorDataset is mg.data.TensorDataset
    assert torch.autograd.grad is mg.autograd.grad and torch.func.vmap is mg.func.vmap
    assert torch.linalg.vector_norm is mg.linalg.vector_norm
    assert torch.special.expit is mg.sigmoid
    assert torch.nn.utils.clip_grad_norm_ is mg.nn.utils.clip_grad_norm_
    assert torch.from_numpy is mg.from_numpy and torch.is_tensor(torch.zeros(1))


def test_a_missing_name_raises_one_message_naming_it(torch):
    with pytest.raises(MissingTorchName) as caught:
        torch.fft.rfft(torch.zeros(4))
    assert str(caught.value) == "minigrad has no torch.fft.rfft (not implemented); see README 'PyTorch coverage'"
    assert isinstance(caught.value, AttributeError)
    with pytest.raises(MissingTorchName, match=r"^minigrad has no torch\.nn\.TransformerEncoderLayerX "):
        torch.nn.TransformerEncoderLayerX()
    with pytest.raises(MissingTorchName, match=r"no torch\.sparse\.mm "):
        import torch.sparse

        torch.sparse.mm(torch.eye(2), torch.eye(2))


def test_a_missing_tensor_method_raises_the_message_while_installed():
    x = mg.ones(2)
    with install_torch():
        with pytest.raises(
            MissingTorchName, match=r"^minigrad has no torch\.Tensor\.no_such_method \(not implemented\)"
        ):
            x.no_such_method()
        assert not hasattr(x, "no_such_method") and getattr(x, "no_such_method", 1) == 1
        with pytest.raises(AttributeError) as private:
            x._no_such_field()
        assert type(private.value) is AttributeError
    with pytest.raises(AttributeError) as after:
        x.no_such_method()
    assert type(after.value) is AttributeError and "__getattr__" not in vars(mg.Tensor)


def test_torch_constants_and_size(torch):
    assert torch.inf == float("inf") and torch.pi == pytest.approx(3.14159265) and torch.nan != torch.nan
    assert torch.zeros(2, 3).shape == torch.Size([2, 3]) and isinstance(torch.zeros(1).shape, torch.Size)


def test_hasattr_and_getattr_with_a_default_keep_working(torch):
    assert not hasattr(torch, "no_such_function")
    assert getattr(torch.nn.functional, "no_such_function", "default") == "default"
    assert hasattr(torch, "fft") and hasattr(torch.cuda, "is_available")


def test_a_deleted_name_is_gone_until_set_again_as_on_torchs_modules():
    """nanoGPT's model.py attends by hand when ``hasattr(F, "scaled_dot_product_attention")`` is False;
    a program deletes the name to get that path, as on PyTorch < 2.0."""
    with install_torch():
        import torch.nn.functional as F

        assert F.relu is mg.nn.functional.relu  # looked up once: kept in the module's dict
        del F.scaled_dot_product_attention, F.relu
        assert not hasattr(F, "scaled_dot_product_attention") and not hasattr(F, "relu")
        assert "relu" not in dir(F) and "scaled_dot_product_attention" not in F.__all__
        with pytest.raises(AttributeError, match="^module 'torch.nn.functional' has no attribute 'relu'$") as caught:
            F.relu(mg.ones(1))
        assert type(caught.value) is AttributeError  # not "minigrad has no ...": the program removed it
        with pytest.raises(AttributeError, match="has no attribute 'relu'"):
            del F.relu
        with pytest.raises(AttributeError, match="has no attribute 'no_such_function'"):
            del F.no_such_function
        F.relu = mg.nn.functional.gelu
        assert F.relu is mg.nn.functional.gelu and "relu" in dir(F)
    assert hasattr(mg.nn.functional, "scaled_dot_product_attention")  # minigrad's own module keeps it
    with install_torch():
        import torch.nn.functional as F

        assert F.relu is mg.nn.functional.relu and hasattr(F, "scaled_dot_product_attention")


def test_star_imports_take_the_torch_names(torch):
    names = {}
    exec("from torch.nn import *", names)  # noqa: S102  (the statement under test)
    assert names["Linear"] is mg.nn.Linear and names["functional"] is torch.nn.functional


def test_minigrads_own_modules_are_not_torch_names(torch):
    # minigrad.trace is the debugger's recorder; torch.trace is a matrix function minigrad lacks
    with pytest.raises(MissingTorchName, match=r"torch\.trace "):
        torch.trace(torch.eye(2))
    assert "trace" not in dir(torch) and "viz" not in dir(torch) and "tensor" in dir(torch)


def test_a_missing_module_raises_module_not_found_with_the_message(torch):
    with pytest.raises(ModuleNotFoundError, match=r"^minigrad has no torch\.no_such_module \(not implemented\)"):
        import torch.no_such_module  # noqa: F401
    import torch.fft as fft  # torch has it: importable, its names missing

    with pytest.raises(MissingTorchName, match=r"torch\.fft\.rfft"):
        fft.rfft(torch.ones(4))
    from torch.distributions.normal import Normal  # a module minigrad has, under torch's path

    assert Normal(0.0, 1.0).log_prob(torch.tensor(0.0)).item() == pytest.approx(-0.9189385)


def test_multi_process_names_import_and_raise_when_called(torch):
    from torch.distributed import destroy_process_group, init_process_group
    from torch.nn.parallel import DistributedDataParallel

    assert torch.distributed.is_available() is False and torch.distributed.is_initialized() is False
    for fn in (init_process_group, destroy_process_group, DistributedDataParallel):
        with pytest.raises(NotImplementedError, match="minigrad has no torch"):
            fn()


def test_cpu_only_queries_answer_as_torchs_cpu_build(torch):
    assert torch.cuda.is_available() is False and torch.cuda.device_count() == 0
    assert torch.cuda.manual_seed_all(0) is None and torch.cuda.manual_seed(0) is None
    assert torch.cuda.is_bf16_supported() is False and torch.cuda.memory_allocated() == 0
    torch.cuda.empty_cache()
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        torch.cuda.synchronize()
    for backend in (torch.backends.cudnn, torch.backends.mps, torch.backends.mkldnn):
        assert backend.is_available() is False
    assert torch.backends.mps.is_built() is False and torch.backends.cuda.is_built() is False
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = True
    assert torch.accelerator.is_available() is False and torch.accelerator.current_accelerator() is None
    assert torch.accelerator.device_count() == 0 and torch.mps.is_available() is False
    assert torch.version.cuda is None and torch.__version__.startswith("2.8.0+minigrad")


def test_disabled_grad_scaler_and_autocast_change_nothing(torch):
    scaler = torch.amp.GradScaler(enabled=False)
    net = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    before = net.weight.detach().numpy().copy()
    loss = net(torch.ones(1, 2)).sum()
    assert scaler.scale(loss) is loss and not scaler.is_enabled() and scaler.get_scale() == 1.0
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    scaler.step(opt)
    scaler.update()
    assert not np.array_equal(net.weight.detach().numpy(), before)
    with pytest.warns(UserWarning, match="GradScaler is enabled, but CUDA is not available"):
        assert not torch.cuda.amp.GradScaler().is_enabled()
    with pytest.warns(UserWarning, match="device_type of 'cuda'"), torch.autocast(device_type="cuda"):
        pass
    with torch.autocast(device_type="cpu", enabled=False):
        pass
    with pytest.raises(NotImplementedError, match="minigrad has no torch.autocast on the CPU"):
        torch.autocast(device_type="cpu", dtype=torch.bfloat16)


def test_compile_returns_the_function_with_a_one_line_notice(torch, capsys):
    net = torch.nn.Linear(2, 2)
    assert torch.compile(net) is net

    @torch.compile(mode="reduce-overhead")
    def f(x):
        return x * 2

    assert f(torch.tensor(2.0)).item() == 4.0
    notices = capsys.readouterr().err.splitlines()
    assert notices == [
        "minigrad: torch.compile(Linear) returns it unchanged (minigrad does not compile)",
        "minigrad: torch.compile(f) returns it unchanged (minigrad does not compile)",
    ]


def test_jit_script_and_trace_return_what_they_are_given_with_a_one_line_notice(torch, capsys):
    import torch.jit

    net = torch.nn.Linear(2, 2)
    assert torch.jit.script(net) is net and torch.jit.trace(net, torch.ones(1, 2)) is net

    @torch.jit.script
    def f(x):
        return x * 2

    @torch.jit.ignore
    def g(x):
        return x

    assert f(torch.tensor(2.0)).item() == 4.0 and g(3) == 3
    assert not torch.jit.is_scripting() and not torch.jit.is_tracing()
    assert capsys.readouterr().err.splitlines() == [
        "minigrad: torch.jit.script(Linear) returns it unchanged (minigrad does not compile)",
        "minigrad: torch.jit.trace(Linear) returns it unchanged (minigrad does not compile)",
        "minigrad: torch.jit.script(f) returns it unchanged (minigrad does not compile)",
    ]
    with pytest.raises(MissingTorchName, match="minigrad has no torch.jit.save"):
        torch.jit.save(net, "net.pt")


def test_matmul_precision_and_determinism_settings(torch):
    torch.set_float32_matmul_precision("high")
    assert torch.get_float32_matmul_precision() == "high"
    torch.set_float32_matmul_precision("highest")
    with pytest.raises(RuntimeError, match="'highest', 'high' or 'medium'"):
        torch.set_float32_matmul_precision("fast")
    torch.use_deterministic_algorithms(True)
    assert torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(False)


def test_bfloat16_can_be_named_and_compared_but_not_computed_in(torch):
    assert torch.float32 != torch.bfloat16 and torch.bfloat16 not in (torch.float16, torch.float32)
    assert repr(torch.bfloat16) == "torch.bfloat16" and isinstance(torch.float32, torch.dtype)
    message = r"minigrad has no torch\.bfloat16 tensors \(not implemented\)"
    with pytest.raises(NotImplementedError, match=message):
        torch.zeros(2, dtype=torch.bfloat16)
    with pytest.raises(NotImplementedError, match=message):
        torch.ones(2).to(torch.bfloat16)


def test_data_parallel_without_gpus_runs_the_module(torch):
    net = torch.nn.Linear(2, 3)
    wrapped = torch.nn.DataParallel(net)
    assert torch.nn.DataParallel is torch.nn.parallel.DataParallel
    x = torch.ones(4, 2)
    np.testing.assert_array_equal(wrapped(x).detach().numpy(), net(x).detach().numpy())
    assert set(wrapped.state_dict()) == {"module.weight", "module.bias"}


def test_reachable_after_a_plain_import_minigrad():
    assert mg.compat.install_torch is install_torch


def test_a_nested_install_leaves_the_hook_installed_and_uninstall_removes_it():
    install_torch()
    try:
        with install_torch():
            import torch

            assert isinstance(torch, TorchModule)
        assert torch_installed()
        import torch

        assert isinstance(torch, TorchModule)
    finally:
        uninstall_torch()
    assert not torch_installed() and not isinstance(sys.modules.get("torch"), TorchModule)
    assert not any(isinstance(m, TorchModule) for m in sys.modules.values())


@pytest.mark.skipif(not REAL_TORCH, reason="needs a real torch installed")
def test_a_real_torch_is_set_aside_and_restored():
    import torch as real

    with install_torch():
        import torch

        assert torch is not real and isinstance(torch, TorchModule)
    import torch

    assert torch is real and sys.modules["torch.nn"] is real.nn
    assert not isinstance(sys.modules.get("torch.nn.functional"), TorchModule)


def test_no_torch_module_of_the_hook_is_found_without_it():
    with install_torch():
        import torch.cuda  # noqa: F401
    try:
        import torch
    except ImportError:  # no real torch here: nothing answers the name
        return
    assert not isinstance(torch, TorchModule)


def test_layers_import_from_torch_nn_modules_paths_as_word_language_model_does(torch):
    from torch.nn.modules.activation import MultiheadAttention
    from torch.nn.modules.linear import Linear, NonDynamicallyQuantizableLinear
    from torch.nn.modules.rnn import LSTM

    assert LSTM is torch.nn.LSTM and MultiheadAttention is torch.nn.MultiheadAttention
    layer = NonDynamicallyQuantizableLinear(2, 3)
    assert isinstance(layer, Linear) and layer(torch.ones(1, 2)).shape == (1, 3)


def test_serialization_safe_globals_are_accepted_and_load_is_minigrads(torch, tmp_path):
    import torch.serialization as serialization

    serialization.add_safe_globals([dict])
    assert serialization.get_safe_globals() == []
    path = tmp_path / "w.pt"
    torch.save({"w": torch.ones(2)}, path)
    with serialization.safe_globals([dict]):
        assert serialization.load(path)["w"].tolist() == [1.0, 1.0]
