"""Stream-K tails: kernels whose last tiles' K steps are split between clusters and joined
through the runtime's workspace, against a float32 reference.

Shapes are chosen so that the tile count is not a multiple of the grid on a 132-SM GPU
(and on any other: the many tile counts below cover both cases), with K giving from one to
many K steps per tile, and edges cut at every tile boundary. Outputs are poisoned with NaN.
Repeated launches check that the workspace is left clean (a stale ready flag would add a
previous launch's partial sums); two streams at once check that each gets its own.
"""
import pytest
import torch
import torch.nn.functional as F
from conftest import for_each_entry

# (M, N, K): tile counts from below one wave to several waves plus a partial one.
SHAPES = [(2000, 3000, 1000), (2100, 3000, 1000), (4097, 2049, 72), (3000, 5000, 64),
          (1000, 7000, 4104), (4096, 4096, 520), (129, 257, 144), (5000, 3333, 8),
          (8192, 2048, 4096)]


def split_shapes():
    """Shapes whose tile count is w waves of this GPU plus a partial wave small enough to
    split (at most a third of a wave), for one CTA per SM (128x256 tiles) and for clusters
    of two (256x128 cluster tiles): M gets the tile rows, with an edge tile, N one column.
    K gives each tile enough 64-element steps for the split to outweigh its join (kt * (G -
    T mod G) > 16 G, target::streamKJoinSteps), with a partial last step in three of them."""
    if not torch.cuda.is_available():
        return []
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    shapes = []
    for waves, extra, k in [(1, 1, 4104), (2, sms // 4, 2056), (3, sms // 3 - 1, 3000),
                            (1, 7, 8192)]:
        tiles = waves * sms + extra
        shapes.append((128 * tiles - 37, 200, k))
    return shapes


def relative_error(out, ref):
    return ((out.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def bf16(rows, cols):
    return torch.randn(rows, cols, device="cuda").to(torch.bfloat16)


def swiglu_reference(x, w1, w2):
    return F.silu(x.float() @ w1.float().T) * (x.float() @ w2.float().T)


@pytest.mark.parametrize("m,n,k", SHAPES + split_shapes())
def test_matmul_stream_k(load, m, n, k):
    kernel = load("matmul_sk_f32")
    a, b = bf16(m, k), bf16(n, k)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    kernel(a, b, out=c)
    torch.cuda.synchronize()
    assert not torch.isnan(c).any(), f"{torch.isnan(c).sum().item()} output elements not written"
    err = relative_error(c, a.float() @ b.float().T)
    assert err < 1e-5, f"relative error {err:.3e}"


def check_swiglu(kernel, m, n, k):
    """One launch on fresh inputs into a poisoned output, against the float32 reference."""
    x, w1, w2 = bf16(m, k), bf16(n, k), bf16(n, k)
    y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(x, w1, w2, out=y)
    torch.cuda.synchronize()
    assert not torch.isnan(y).any(), f"{m}x{n}x{k}: {torch.isnan(y).sum().item()} not written"
    err = relative_error(y, swiglu_reference(x, w1, w2))
    assert err < 1e-2, f"{m}x{n}x{k}: relative error {err:.3e}"


@pytest.mark.parametrize("m,n,k", SHAPES + split_shapes())
def test_swiglu_stream_k(load, m, n, k):
    check_swiglu(load("swiglu_sk_c2"), m, n, k)


def test_repeated_launches_leave_the_workspace_clean(load):
    kernel = load("matmul_sk_f32")
    m, n, k = 2000, 3000, 1000
    outs = []
    for _ in range(5):
        a, b = bf16(m, k), bf16(n, k)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
        kernel(a, b, out=c)
        outs.append((a, b, c))
    torch.cuda.synchronize()
    for a, b, c in outs:
        err = relative_error(c, a.float() @ b.float().T)
        assert err < 1e-5, f"relative error {err:.3e}"


def test_two_streams_get_their_own_workspace(load):
    kernel = load("swiglu_sk_c2")
    m, n, k = 2100, 3000, 1000
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    cases = []
    for s in streams:
        x, w1, w2 = bf16(m, k), bf16(n, k), bf16(n, k)
        y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        cases.append((s, x, w1, w2, y))
    torch.cuda.synchronize()
    for _ in range(3):
        for s, x, w1, w2, y in cases:
            with torch.cuda.stream(s):
                kernel(x, w1, w2, out=y)
    torch.cuda.synchronize()
    for s, x, w1, w2, y in cases:
        err = relative_error(y, swiglu_reference(x, w1, w2))
        assert err < 1e-2, f"relative error {err:.3e}"


def test_variants_of_one_kernel_share_the_workspace(load):
    """The default SwiGLU has three entries (128x128, 128x112, 128x64) and one workspace per
    stream; each entry must find its arrival counters zero whatever another entry stored
    before (an earlier layout kept counters among the partial sums, and alternating entries
    corrupted them: unwritten outputs). Shapes that pick different entries, alternated."""
    kernel = load("swiglu")
    shapes = [(4096, 14336, 1024), (256, 14336, 1024), (512, 1024, 1024), (8192, 8192, 512)]
    for _ in range(2):
        for m, n, k in shapes:
            check_swiglu(kernel, m, n, k)


def halves_shapes():
    """Shapes for the split-K tail (`@schedule(split_k = true)`) on this GPU: a tile count of
    w waves plus a partial wave of at most half the clusters, whose tiles are then cut into two
    K halves (for 2x1 clusters of 128x256 tiles and for the variants' single CTAs), and fewer
    tiles than half the clusters (every tile split). K gives each half more K steps than a
    join costs (kt - kt / 2 > 16, target::streamKJoinSteps), each with a partial last K
    step; M and N end inside a tile."""
    if not torch.cuda.is_available():
        return []
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    clusters = sms // 2
    shapes = [(2000, 1000, 4104),            # 8 x 4 cluster tiles: all split
              (129, 257, 2100)]              # one cluster tile: split
    for waves, extra, k in [(1, 1, 4104), (1, clusters // 2, 2056), (2, clusters // 3, 3000)]:
        tiles = waves * clusters + extra     # cluster tiles of 256 x 256, one column
        shapes.append((256 * tiles - 37, 200, k))
    return shapes


@pytest.mark.parametrize("m,n,k", SHAPES + halves_shapes())
def test_matmul_split_k(load, m, n, k):
    """Every entry of the split-K kernel (the 2x1-cluster primary and its single-CTA
    variants, whose tile counts differ), against the float32 reference, into a poisoned
    output."""
    kernel = load("matmul_split_f32")
    a, b = bf16(m, k), bf16(n, k)
    ref = a.float() @ b.float().T

    def check(entry):
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
        kernel(a, b, out=c)
        torch.cuda.synchronize()
        assert not torch.isnan(c).any(), f"{entry}: {torch.isnan(c).sum().item()} not written"
        err = relative_error(c, ref)
        assert err < 1e-5, f"{entry}: relative error {err:.3e}"

    for_each_entry(kernel, check)


def test_split_k_is_deterministic(load):
    """Two halves' sums are added in one order whichever arrives last: repeated launches on
    the same inputs give the same bits, on shapes where every tile and where a partial last
    wave is split."""
    kernel = load("matmul_split_f32")
    for m, n, k in halves_shapes()[:3]:
        a, b = bf16(m, k), bf16(n, k)
        outs = []
        for _ in range(4):
            c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
            kernel(a, b, out=c)
            outs.append(c)
        torch.cuda.synchronize()
        for c in outs[1:]:
            assert torch.equal(c, outs[0]), f"{m}x{n}x{k}: launches differ"
