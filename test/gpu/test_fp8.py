"""Dense fp8 GEMMs (e4m3 / e5m2 operands, f32 accumulation) against a float32 reference.

Fresh random inputs (rounded to fp8 first, so the reference sees the same values), outputs
poisoned with NaN, shapes cut at every tile edge. K must give 16-byte rows (a multiple of 16
fp8 elements): anything else is a launch error, checked below.
"""
import pytest
import torch

from conftest import for_each_entry

F8 = torch.float8_e4m3fn
E5 = torch.float8_e5m2
ODD_SHAPES = [(1, 1, 16), (1000, 1000, 1008), (4097, 8, 128), (127, 8191, 64), (129, 257, 144),
              (3, 40, 16), (1024, 8, 4096), (256, 512, 128)]
LARGE_SHAPES = [(4096, 4096, 4096)]


def relative_error(out, ref):
    return ((out.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def fp8(rows, cols, dtype):
    return torch.randn(rows, cols, device="cuda").to(dtype)


def check_scaled(kernel, m, n, k):
    a, b = fp8(m, k, F8), fp8(n, k, F8)
    sa = torch.rand(m, 1, device="cuda") + 0.5
    sb = torch.rand(n, device="cuda") + 0.5
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(a, b, sa, sb, out=c)
    torch.cuda.synchronize()
    ref = (a.float() @ b.float().T) * sa * sb
    assert not torch.isnan(c).any(), f"{torch.isnan(c).sum().item()} output elements not written"
    err = relative_error(c, ref)
    assert err < 1e-2, f"relative error {err:.3e}"


@pytest.mark.parametrize("m,n,k", ODD_SHAPES + LARGE_SHAPES)
def test_matmul_fp8_row_scales(load, m, n, k):
    check_scaled(load("matmul_fp8"), m, n, k)


@pytest.mark.parametrize("m,n,k", [(1000, 1000, 1008), (129, 257, 144)])
def test_matmul_fp8_every_entry_pinned(load, m, n, k):
    """Each entry of the fp8 kernel (128x64, 128x128; 128x128, 64x64 and 64x32 ping-pong
    variants), pinned."""
    kernel = load("matmul_fp8")
    assert len(kernel.entries) == 8, kernel.entries
    for_each_entry(kernel, lambda entry: check_scaled(kernel, m, n, k))


@pytest.mark.parametrize("m,n,k", ODD_SHAPES + LARGE_SHAPES)
def test_mixed_formats_f32_out(load, m, n, k):
    kernel = load("matmul_e4m3_e5m2")
    a, b = fp8(m, k, F8), fp8(n, k, E5)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    kernel(a, b, out=c)
    torch.cuda.synchronize()
    ref = a.float() @ b.float().T
    assert not torch.isnan(c).any(), f"{torch.isnan(c).sum().item()} output elements not written"
    # Hopper's fp8 MMAs accumulate with fewer bits than f32 (measured on an H100: 1.1e-5 at
    # K = 16, 1.0e-4 at 128, 1.1e-3 at 4096, while a bf16 kernel on the same values is exact
    # to 1e-7), so the bound grows with K; a wrong tile or fragment gives errors near 1.
    err = relative_error(c, ref)
    assert err < 3e-5 * k ** 0.5, f"relative error {err:.3e} at K = {k}"


def test_k_must_give_16_byte_rows(load, kiln_module):
    kernel = load("matmul_fp8")
    a, b = fp8(64, 40, F8), fp8(64, 40, F8)
    sa, sb = torch.ones(64, 1, device="cuda"), torch.ones(64, device="cuda")
    with pytest.raises(kiln_module.KilnError, match="16|align|stride"):
        kernel(a, b, sa, sb)


def test_wrong_fp8_format_is_an_error(load, kiln_module):
    kernel = load("matmul_fp8")
    a, b = fp8(64, 64, E5), fp8(64, 64, F8)
    sa, sb = torch.ones(64, 1, device="cuda"), torch.ones(64, device="cuda")
    with pytest.raises(kiln_module.KilnError, match="e4m3|dtype"):
        kernel(a, b, sa, sb)


@pytest.mark.parametrize("m,n,k", ODD_SHAPES + LARGE_SHAPES)
def test_swiglu_fp8_row_scales(load, m, n, k):
    kernel = load("swiglu_fp8")
    x, w1, w2 = fp8(m, k, F8), fp8(n, k, F8), fp8(n, k, F8)
    sx = torch.rand(m, 1, device="cuda") * 0.1 + 0.05
    s1 = torch.rand(n, device="cuda") * 0.1 + 0.05
    s2 = torch.rand(n, device="cuda") * 0.1 + 0.05
    y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(x, w1, w2, sx, s1, s2, out=y)
    torch.cuda.synchronize()
    g = (x.float() @ w1.float().T) * sx * s1
    u = (x.float() @ w2.float().T) * sx * s2
    ref = torch.nn.functional.silu(g) * u
    assert not torch.isnan(y).any(), f"{torch.isnan(y).sum().item()} output elements not written"
    err = relative_error(y, ref)
    assert err < 1e-2, f"relative error {err:.3e}"
