"""Compiled matmul kernels against a float32 reference on fresh random inputs.

Every check draws new random inputs, poisons the output with NaN so an
unwritten element fails, and compares ||out - ref|| / ||ref|| (the reference is
float32 on the GPU from the same bf16/f16 inputs). Shapes include the issue's
odd ones: tiles cut at every edge, K smaller than one K step, output rows that
are not 16-byte aligned (which take the direct-store epilogue).
"""
import pytest
import torch

from conftest import for_each_entry, host_binary, run

# (artifact, operand dtype, output dtype)
KERNELS = [
    ("matmul", torch.bfloat16, torch.bfloat16),
    ("matmul_f16", torch.float16, torch.float16),
    ("matmul_tiles", torch.bfloat16, torch.bfloat16),
    ("matmul_f32out", torch.bfloat16, torch.float32),
    ("matmul_t96", torch.bfloat16, torch.bfloat16),      # 64-byte swizzled staging
    ("matmul_t48f32", torch.bfloat16, torch.float32),    # the same for 32-bit outputs
    ("matmul_c4", torch.bfloat16, torch.bfloat16),       # 4x1 clusters
    ("matmul_pp", torch.bfloat16, torch.bfloat16),       # ping-pong, 128x128 on 2x1 clusters
    ("matmul_pp64", torch.bfloat16, torch.bfloat16),     # ping-pong, 64x256
    ("matmul_t224", torch.bfloat16, torch.bfloat16),     # 128x224: two 112-column staging blocks
    ("matmul_t192", torch.bfloat16, torch.bfloat16),     # 128x192: 32-column staging blocks
]

ODD_SHAPES = [(1, 1, 1), (1000, 1000, 1000), (4097, 1, 72), (127, 8191, 64), (129, 257, 72),
              (256, 512, 64), (3, 40, 8), (1024, 8, 4096)]
LARGE_SHAPES = [(4096, 4096, 4096)]
SLOW_SHAPES = [(8192, 8192, 8192)]


def relative_error(out, ref):
    return ((out.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def check(kernel, in_dtype, out_dtype, m, n, k, tol):
    a = torch.randn(m, k, device="cuda", dtype=in_dtype)
    b = torch.randn(n, k, device="cuda", dtype=in_dtype)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=out_dtype)
    kernel(a, b, out=c)
    torch.cuda.synchronize()
    ref = a.float() @ b.float().T
    assert not torch.isnan(c).any(), f"{torch.isnan(c).sum().item()} output elements not written"
    err = relative_error(c, ref)
    assert err < tol, f"relative error {err:.3e} >= {tol}"


@pytest.mark.parametrize("name,in_dtype,out_dtype", KERNELS)
@pytest.mark.parametrize("m,n,k", ODD_SHAPES)
def test_odd_shapes(load, name, in_dtype, out_dtype, m, n, k):
    tol = 1e-5 if out_dtype == torch.float32 else 1e-2
    check(load(name), in_dtype, out_dtype, m, n, k, tol)


@pytest.mark.parametrize("name,in_dtype,out_dtype", KERNELS)
@pytest.mark.parametrize("m,n,k", LARGE_SHAPES)
def test_large(load, name, in_dtype, out_dtype, m, n, k):
    tol = 1e-5 if out_dtype == torch.float32 else 1e-2
    check(load(name), in_dtype, out_dtype, m, n, k, tol)


@pytest.mark.slow
@pytest.mark.parametrize("name,in_dtype,out_dtype", KERNELS[:2])
@pytest.mark.parametrize("m,n,k", SLOW_SHAPES)
def test_8192(load, name, in_dtype, out_dtype, m, n, k):
    check(load(name), in_dtype, out_dtype, m, n, k, 1e-2)


@pytest.mark.parametrize("m,n,k", [(1000, 1000, 1000), (129, 257, 72), (300, 2000, 520)])
@pytest.mark.parametrize("name,in_dtype,out_dtype", [k for k in KERNELS if k[0] in ("matmul", "matmul_f16")])
def test_every_entry_pinned(load, name, in_dtype, out_dtype, m, n, k):
    """Each entry of a kernel with variants (128x64, 128x128, 128x224, 128x192; 128x128, 64x64
    and 64x32 ping-pong), pinned, at shapes cut at every tile edge, whatever the cost rule would
    choose."""
    kernel = load(name)
    assert len(kernel.entries) == 8, kernel.entries
    for_each_entry(kernel, lambda entry: check(kernel, in_dtype, out_dtype, m, n, k, 1e-2))


@pytest.mark.parametrize("m,n,k", [(1000, 1000, 1000), (4097, 1, 72), (2048, 2048, 512)])
def test_fused_epilogue(load, m, n, k):
    kernel = load("matmul_silu")
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(a, b, out=c)
    torch.cuda.synchronize()
    ref = torch.nn.functional.silu((a.float() @ b.float().T) * 0.125)
    assert not torch.isnan(c).any()
    assert relative_error(c, ref) < 1e-2


def test_allocates_output_and_is_repeatable(load):
    matmul = load("matmul")
    a = torch.randn(300, 200, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(500, 200, device="cuda", dtype=torch.bfloat16)
    c1 = matmul(a, b)
    c2 = matmul(a, b)
    torch.cuda.synchronize()
    assert c1.shape == (300, 500) and c1.dtype == torch.bfloat16
    # Same inputs, same schedule: bit-identical (no race, no uninitialized state).
    assert torch.equal(c1, c2)
    assert relative_error(c1, a.float() @ b.float().T) < 1e-2


def test_strided_inputs_and_output(load):
    matmul = load("matmul")
    big_a = torch.randn(513, 384, device="cuda", dtype=torch.bfloat16)
    big_b = torch.randn(700, 512, device="cuda", dtype=torch.bfloat16)
    a, b = big_a[:, :264], big_b[:, 8:272]  # row strides 768 and 1024 bytes
    big_c = torch.full((513, 1000), float("nan"), device="cuda", dtype=torch.bfloat16)
    c = big_c[:, 16:716]
    matmul(a, b, out=c)
    torch.cuda.synchronize()
    assert not torch.isnan(c).any()
    assert relative_error(c, a.float() @ b.float().T) < 1e-2
    # Nothing outside the output view was touched.
    left, right = ~torch.isnan(big_c[:, :16]), ~torch.isnan(big_c[:, 716:])
    assert not left.any() and not right.any(), (
        f"written outside the view: {left.sum().item()} left, {right.sum().item()} right, "
        f"rows {right.any(1).nonzero().flatten()[:8].tolist()}, "
        f"columns {(716 + right.any(0).nonzero().flatten()[:8]).tolist()}")


@pytest.mark.parametrize("k", [100, 36, 8])
def test_k_residue_in_padded_rows(load, k):
    # K is not a multiple of 8 elements but the rows are padded to 16 bytes:
    # the copies must read zeros past K, not the padding.
    matmul = load("matmul")
    padded = (k + 7) // 8 * 8 + 8
    big_a = torch.randn(300, padded, device="cuda", dtype=torch.bfloat16) * 100
    big_b = torch.randn(200, padded, device="cuda", dtype=torch.bfloat16) * 100
    a, b = big_a[:, :k], big_b[:, :k]
    c = torch.full((300, 200), float("nan"), device="cuda", dtype=torch.bfloat16)
    matmul(a, b, out=c)
    torch.cuda.synchronize()
    assert relative_error(c, a.float() @ b.float().T) < 1e-2


def test_current_stream(load):
    matmul = load("matmul")
    a = torch.randn(640, 320, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(384, 320, device="cuda", dtype=torch.bfloat16)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        c = matmul(a, b)
    stream.synchronize()
    assert relative_error(c, a.float() @ b.float().T) < 1e-2


def test_unaligned_operand_rows_are_an_error(load, kiln_module):
    # bf16 rows of 65 elements are 130 bytes: no tensor map can describe them.
    matmul = load("matmul")
    a = torch.randn(129, 65, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(257, 65, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(kiln_module.KilnError, match="multiple of 16 bytes"):
        matmul(a, b)


def test_argument_errors(load, kiln_module):
    matmul = load("matmul")
    a = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(kiln_module.KilnError, match="dtype|bf16"):
        matmul(a.half(), torch.randn(64, 64, device="cuda", dtype=torch.float16))
    with pytest.raises(kiln_module.KilnError, match="K"):
        matmul(a, torch.randn(64, 32, device="cuda", dtype=torch.bfloat16))
    with pytest.raises(kiln_module.KilnError, match="contiguous|stride"):
        matmul(a.T, a)


@pytest.mark.parametrize("binary", ["matmul_host_cpp", "matmul_host_c"])
@pytest.mark.parametrize("shape", [("256", "256", "512"), ("100", "72", "40"), ("1000", "1000", "1000")])
def test_host_apis(load, binary, shape):
    load("matmul")  # skips when the artifact is missing
    from conftest import ARTIFACTS
    result = run([host_binary(binary), str(ARTIFACTS / "matmul.kiln.json"), *shape])
    assert result.returncode == 0, result.stdout + result.stderr


def test_persistent_grid_holds_only_resident_clusters(load):
    """A persistent grid of 4-CTA clusters holds only the clusters that run at once
    (the driver's occupancy, below SMs / 4 on an H100): a cluster that had to wait
    for another would walk its whole share of tiles late (1.5x the time)."""
    import re
    import sys
    load("matmul_c4")  # skips when the artifact is missing
    from conftest import ARTIFACTS
    script = (
        "import sys, torch; sys.path.insert(0, %r); import kiln\n"
        "k = kiln.load(%r)\n"
        "a = torch.randn(8192, 512, device='cuda', dtype=torch.bfloat16)\n"
        "k(a, a)\n"
        "torch.cuda.synchronize()\n"
    ) % (str(ARTIFACTS.parents[1] / "runtime" / "python"), str(ARTIFACTS / "matmul_c4.kiln.json"))
    result = run(["env", "KILN_DEBUG=1", sys.executable, "-c", script])
    assert result.returncode == 0, result.stdout + result.stderr
    grid = re.search(r"grid \[(\d+), 1, 1\]", result.stderr)
    assert grid, result.stderr
    ctas = int(grid.group(1))
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    assert ctas % 4 == 0 and ctas <= sms, (ctas, sms)

    # Timed against the 2x1-cluster matmul at the same shape: same tiles and
    # pipeline, so a grid with non-resident clusters would show as ~1.5x.
    from statistics import median
    a = torch.randn(8192, 4096, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 4096, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(8192, 8192, device="cuda", dtype=torch.bfloat16)
    times = {}
    for name in ("matmul", "matmul_c4"):
        kernel = load(name)
        for _ in range(3):
            kernel(a, b, out=c)
        samples = []
        for _ in range(10):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            kernel(a, b, out=c)
            end.record()
            end.synchronize()
            samples.append(start.elapsed_time(end))
        times[name] = median(samples)
    assert times["matmul_c4"] < 1.25 * times["matmul"], times
