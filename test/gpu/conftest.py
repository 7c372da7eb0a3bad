"""Shared fixtures for the GPU checks (pytest + torch on a Hopper machine).

The kernels are compiled elsewhere (scripts/build_gpu_artifacts.sh) into
$KILN_ARTIFACTS; the runtime library comes from $KILN_RUNTIME_LIB. A check that
cannot run here (no GPU, not sm_90, artifact missing) is skipped with the
reason, never passed.
"""
import os
import pathlib
import subprocess

import pytest

torch = pytest.importorskip("torch")

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = pathlib.Path(os.environ.get("KILN_ARTIFACTS", ROOT / ".device-carry" / "artifacts"))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: large shapes (8192^3) and long runs")


@pytest.fixture(scope="session")
def device():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    major, minor = torch.cuda.get_device_capability()
    if (major, minor) != (9, 0):
        pytest.skip(f"the sm_90a kernels need compute capability 9.0, this is {major}.{minor}")
    return torch.device("cuda")


@pytest.fixture(scope="session")
def kiln_module():
    try:
        import kiln  # noqa: F401  (runtime/python on PYTHONPATH)
    except ImportError:
        import sys
        sys.path.insert(0, str(ROOT / "runtime" / "python"))
        import kiln  # noqa: F401
    return kiln


@pytest.fixture(scope="session")
def load(device, kiln_module):  # device first: no GPU skips before anything is imported
    cache = {}

    def _load(name):
        path = ARTIFACTS / f"{name}.kiln.json"
        if not path.exists():
            pytest.skip(f"{path} was not built (run scripts/build_gpu_artifacts.sh)")
        if name not in cache:
            cache[name] = kiln_module.load(str(path))
        return cache[name]

    return _load


def for_each_entry(kernel, check):
    """Runs check(entry) with `kernel` pinned to each of its entries (Kernel.pinned_entry) and
    asserts that entry ran; the runtime's own choice is restored afterwards, also when a check
    fails (kernels are shared between tests through `load`)."""
    try:
        for entry in kernel.entries:
            kernel.pinned_entry = entry
            check(entry)
            assert kernel.last_entry == entry
    finally:
        kernel.pinned_entry = None


def host_binary(name):
    path = ROOT / "build-rt" / "bin" / name
    if not path.exists():
        pytest.skip(f"{path} was not built (scripts/gpu_check.sh builds it)")
    return str(path)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)
