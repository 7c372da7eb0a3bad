"""fp8 GEMMs with f32 block scales, dense and grouped (DeepSeek-style: a is e4m3 with one f32
scale per 1x128 block, b e4m3 with one per 128x128 block; docs/language.md): each K block's
product scaled in registers and added to the running sum. Against a float32 reference of the
dequantized operands on fresh random inputs and scales, outputs poisoned, shapes cut inside tiles
and K blocks; each entry of the kernel."""
import pytest
import torch

from conftest import for_each_entry

SHAPES = [(1, 64, 128), (200, 300, 208), (128, 128, 128), (257, 1000, 528), (1000, 257, 1040),
          (64, 4100, 256), (4096, 512, 2048)]
BLOCK = 128


def e4m3(*shape):
    return (torch.randn(*shape, device="cuda") * 2).to(torch.float8_e4m3fn)


def scales(*shape):
    """Positive f32 scales over a few binades, as per-block amax scaling gives."""
    exponent = torch.randint(-4, 4, shape, device="cuda").float()
    return torch.exp2(exponent) * (0.75 + 0.5 * torch.rand(*shape, device="cuda"))


def operands(m, n, k):
    a, b = e4m3(m, k), e4m3(n, k)
    kb = -(-k // BLOCK)
    sa, sb = scales(m, kb), scales(-(-n // BLOCK), kb)
    return a, sa, b, sb


def reference(a, sa, b, sb):
    """The product of the dequantized operands; b's scales are per 128x128 block, or per row
    (1x128) when sb has one row per row of b."""
    m, k = a.shape
    n = b.shape[0]
    sa_full = sa.repeat_interleave(BLOCK, dim=1)[:, :k]
    sb_rows = sb if sb.shape[0] == n else sb.repeat_interleave(BLOCK, dim=0)[:n]
    sb_full = sb_rows.repeat_interleave(BLOCK, dim=1)[:, :k]
    return (a.float() * sa_full) @ (b.float() * sb_full).T


def close(out, ref, tol=1e-2):
    err = ((out.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    return err < tol, err


@pytest.mark.parametrize("kernel_name", ["fp8_blockwise", "gemm_fp8_blockwise"])
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_matches_the_dequantized_product(load, kernel_name, m, n, k):
    kernel = load(kernel_name)
    a, sa, b, sb = operands(m, n, k)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel((a, sa), (b, sb), out=c)
    torch.cuda.synchronize()
    ok, err = close(c, reference(a, sa, b, sb))
    assert ok, f"relative error {err:.2e}"


def check_every_entry(kernel, a, sa, b, sb):
    """Each entry of `kernel` against the dequantized product, the output poisoned first."""
    ref = reference(a, sa, b, sb)
    c = torch.empty(a.shape[0], b.shape[0], device="cuda", dtype=torch.bfloat16)

    def check(entry):
        c.fill_(float("nan"))
        kernel((a, sa), (b, sb), out=c)
        torch.cuda.synchronize()
        ok, err = close(c, ref)
        assert ok, f"{entry}: relative error {err:.2e}"
    for_each_entry(kernel, check)


def test_every_entry(load):
    check_every_entry(load("fp8_blockwise"), *operands(300, 1000, 528))


@pytest.mark.parametrize("m,n,k", [(1, 64, 128), (300, 1000, 528), (257, 130, 1040)])
def test_per_row_weight_scales(load, m, n, k):
    """1x128 blocks on the weights too (test/gpu/kernels/fp8_blockwise_rows.kiln): each output
    column takes its own weight row's scales; every entry of the kernel."""
    kb = -(-k // BLOCK)
    check_every_entry(load("fp8_blockwise_rows"), e4m3(m, k), scales(m, kb), e4m3(n, k),
                      scales(n, kb))


def test_each_scale_block_is_applied_to_its_own_block(load):
    """One K block and one weight block scaled far from the others: a scale read for the wrong
    block (row, K block or weight block) shows as a large error."""
    kernel = load("fp8_blockwise")
    m, n, k = 256, 384, 512
    a, sa, b, sb = operands(m, n, k)
    sa.fill_(1.0)
    sb.fill_(1.0)
    sa[37, 2] = 64.0
    sb[1, 3] = 1.0 / 64
    c = kernel((a, sa), (b, sb))
    torch.cuda.synchronize()
    ok, err = close(c, reference(a, sa, b, sb))
    assert ok, f"relative error {err:.2e}"


def test_a_scale_of_the_wrong_shape_is_refused(load, kiln_module):
    kernel = load("fp8_blockwise")
    a, sa, b, sb = operands(128, 128, 256)
    with pytest.raises(kiln_module.KilnError):
        kernel((a, sa[:, :1].contiguous()), (b, sb))


@pytest.mark.parametrize("tokens", [[0, 130, 1, 257, 64, 0, 300, 17], [200], [96] * 64])
def test_grouped_experts(load, tokens):
    """examples/moe_fp8_blockwise.kiln: each expert's tokens (some empty, some fewer than a
    tile, one expert, 64) against the dequantized product with that expert's weight."""
    kernel = load("moe_fp8_blockwise")
    experts, t, n, k = len(tokens), sum(tokens), 384, 528
    kb = -(-k // BLOCK)
    x, xs = e4m3(t, k), scales(t, kb)
    w, ws = e4m3(experts, n, k), scales(experts, -(-n // BLOCK), kb)
    bounds = [0]
    for count in tokens:
        bounds.append(bounds[-1] + count)
    offsets = torch.tensor(bounds, device="cuda", dtype=torch.int32)
    y = torch.full((t, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel((x, xs), (w, ws), offsets, out=y)
    torch.cuda.synchronize()
    for e in range(experts):
        lo, hi = bounds[e], bounds[e + 1]
        if lo == hi:
            continue
        ok, err = close(y[lo:hi], reference(x[lo:hi], xs[lo:hi], w[e], ws[e]))
        assert ok, f"expert {e} ({hi - lo} tokens): relative error {err:.2e}"


def swiglu(gate, up):
    return gate * torch.sigmoid(gate) * up


@pytest.mark.parametrize("m,n,k", [(1, 64, 128), (200, 300, 208), (257, 1000, 528)])
def test_swiglu(load, m, n, k):
    """Both products packed into one MMA: each half of the accumulator takes its own weight's
    scales (a swapped scale shows as a large error)."""
    kernel = load("fp8_blockwise_swiglu")
    kb = -(-k // BLOCK)
    x, xs = e4m3(m, k), scales(m, kb)
    w1, s1 = e4m3(n, k), scales(-(-n // BLOCK), kb)
    w2, s2 = e4m3(n, k), scales(-(-n // BLOCK), kb) * 8
    y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    def check(entry):
        y.fill_(float("nan"))
        kernel((x, xs), (w1, s1), (w2, s2), out=y)
        torch.cuda.synchronize()
        ref = swiglu(reference(x, xs, w1, s1), reference(x, xs, w2, s2))
        ok, err = close(y, ref)
        assert ok, f"{entry}: relative error {err:.2e}"
    for_each_entry(kernel, check)


def test_grouped_swiglu(load):
    kernel = load("moe_fp8_swiglu")
    tokens = [0, 130, 1, 257, 64, 0, 300, 17]
    experts, t, n, k = len(tokens), sum(tokens), 320, 528
    kb = -(-k // BLOCK)
    x, xs = e4m3(t, k), scales(t, kb)
    w1, s1 = e4m3(experts, n, k), scales(experts, -(-n // BLOCK), kb)
    w2, s2 = e4m3(experts, n, k), scales(experts, -(-n // BLOCK), kb)
    bounds = [0]
    for count in tokens:
        bounds.append(bounds[-1] + count)
    offsets = torch.tensor(bounds, device="cuda", dtype=torch.int32)
    y = torch.full((t, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel((x, xs), (w1, s1), (w2, s2), offsets, out=y)
    torch.cuda.synchronize()
    for e in range(experts):
        lo, hi = bounds[e], bounds[e + 1]
        if lo == hi:
            continue
        ref = swiglu(reference(x[lo:hi], xs[lo:hi], w1[e], s1[e]),
                     reference(x[lo:hi], xs[lo:hi], w2[e], s2[e]))
        ok, err = close(y[lo:hi], ref)
        assert ok, f"expert {e} ({hi - lo} tokens): relative error {err:.2e}"
