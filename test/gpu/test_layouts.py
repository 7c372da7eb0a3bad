"""Operand layouts: weights stored [K, N] (`a @ b`, read MN-major by the MMA) against a float32
reference on fresh random inputs, outputs poisoned with NaN.

b [K, N] needs 16-byte aligned rows (N a multiple of 8 for 16-bit types); M and K are cut at
every edge, K also below one K step, and views with row strides wider than N.
"""
import pytest
import torch

from conftest import for_each_entry
from test_grouped import check as check_groups, guarded_output, offsets_of, randn, ROUTINGS
from test_matmul import relative_error

# (artifact, operand dtype, output dtype)
KERNELS = [
    ("kn_matmul", torch.bfloat16, torch.bfloat16),      # 128x256, 2x1 cluster; 128x64 variant
    ("kn_f16_tiles", torch.float16, torch.float32),     # 128x128, no cluster
    ("kn_t112", torch.bfloat16, torch.bfloat16),        # 112 columns: 32-byte swizzled rhs
]

SHAPES = [(1, 8, 8), (1000, 1000, 1000), (4097, 8, 72), (127, 8184, 64), (129, 264, 72),
          (256, 512, 64), (3, 40, 8), (1024, 8, 4096), (300, 2000, 520)]
LARGE = [(4096, 4096, 4096)]


def check(kernel, in_dtype, out_dtype, m, n, k, tol):
    a = torch.randn(m, k, device="cuda", dtype=in_dtype)
    b = torch.randn(k, n, device="cuda", dtype=in_dtype)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=out_dtype)
    kernel(a, b, out=c)
    torch.cuda.synchronize()
    ref = a.float() @ b.float()
    assert not torch.isnan(c).any(), f"{torch.isnan(c).sum().item()} output elements not written"
    err = relative_error(c, ref)
    assert err < tol, f"relative error {err:.3e} >= {tol}"


@pytest.mark.parametrize("name,in_dtype,out_dtype", KERNELS)
@pytest.mark.parametrize("m,n,k", SHAPES + LARGE)
def test_kn_weights(load, name, in_dtype, out_dtype, m, n, k):
    tol = 1e-5 if out_dtype == torch.float32 else 1e-2
    check(load(name), in_dtype, out_dtype, m, n, k, tol)


@pytest.mark.parametrize("m,n,k", [(1000, 1000, 1000), (129, 264, 72)])
def test_kn_every_entry_pinned(load, m, n, k):
    """Each entry of kn_matmul (the rhs read MN-major by every variant, ping-pong included),
    pinned."""
    kernel = load("kn_matmul")
    assert len(kernel.entries) == 8, kernel.entries
    for_each_entry(kernel, lambda entry: check(kernel, torch.bfloat16, torch.bfloat16, m, n, k,
                                               1e-2))


def test_kn_strided_views(load):
    """b a view with a wider row stride, the output a view: nothing outside it is written."""
    kernel = load("kn_matmul")
    a = torch.randn(513, 264, device="cuda", dtype=torch.bfloat16)
    big_b = torch.randn(264, 1024, device="cuda", dtype=torch.bfloat16)
    b = big_b[:, 8:712]
    big_c = torch.full((513, 1000), float("nan"), device="cuda", dtype=torch.bfloat16)
    c = big_c[:, 16:720]
    kernel(a, b, out=c)
    torch.cuda.synchronize()
    assert relative_error(c, a.float() @ b.float()) < 1e-2
    assert torch.isnan(big_c[:, :16]).all() and torch.isnan(big_c[:, 720:]).all()


def test_kn_matches_nk(load):
    """The same product from b [K, N] and from its transpose stored [N, K]: equal up to the
    summation order of one K step."""
    kn, nk = load("kn_matmul"), load("matmul")
    a = torch.randn(777, 1024, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(1024, 1536, device="cuda", dtype=torch.bfloat16)
    c1, c2 = kn(a, b), nk(a, b.T.contiguous())
    torch.cuda.synchronize()
    assert relative_error(c1, c2.float()) < 1e-2


@pytest.mark.parametrize("m,n,k", [(1000, 1000, 1000), (129, 264, 72), (2048, 2816, 2048)])
@pytest.mark.parametrize("name,w1_kn", [("kn_swiglu", True), ("swiglu_mixed", False)])
def test_swiglu_layouts(load, name, w1_kn, m, n, k):
    """silu(x @ w1) * (x @ w2) with both weights [K, N] (one MMA per product), and
    silu(x @ w1^T) * (x @ w2) with w1 [N, K] and w2 [K, N]: each product reads its own layout
    in the one kernel."""
    kernel = load(name)
    x = randn(m, k, scale=k ** -0.25)
    w1 = randn(k, n, scale=k ** -0.25) if w1_kn else randn(n, k, scale=k ** -0.25)
    w2 = randn(k, n, scale=k ** -0.25)
    y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(x, w1, w2, out=y)
    torch.cuda.synchronize()
    up = x.float() @ (w1.float() if w1_kn else w1.float().T)
    ref = torch.nn.functional.silu(up) * (x.float() @ w2.float())
    assert not torch.isnan(y).any()
    assert relative_error(y, ref) < 1e-2


@pytest.mark.parametrize("routing", ["uniform", "skewed", "empty_experts", "small_experts"])
def test_moe_kn(load, routing):
    """grouped(x, offsets) @ w with the experts stored [E, K, N]."""
    kernel = load("moe_kn")
    counts = ROUTINGS[routing]()
    n, k = 272, 200
    offsets = offsets_of(counts)
    t = int(offsets[-1])
    x = randn(t, k, scale=k ** -0.25)
    w = randn(len(counts), k, n, scale=k ** -0.25)
    buf, y = guarded_output(t, n, torch.bfloat16)
    kernel(x, w, offsets, out=y)
    torch.cuda.synchronize()

    def expected(rows, groups):
        out = torch.empty(len(groups), n, device="cuda")
        g = torch.tensor(groups, device="cuda")
        for e in g.unique().tolist():
            sel = (g == e).nonzero().flatten()
            out[sel] = x[rows[sel]].float() @ w[e].float()
        return out
    check_groups(y, buf, expected, offsets, routing)


@pytest.mark.parametrize("m,n,k2", [(1000, 1000, 1000), (129, 264, 72), (64, 8, 16)])
def test_contraction_extent_expression(load, m, n, k2):
    """a: [M, K*2], b: [N, K*2]: K binds from the even extent, the K loop runs over all of it."""
    kernel = load("matmul_k2")
    a = torch.randn(m, k2, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k2, device="cuda", dtype=torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(a, b, out=c)
    torch.cuda.synchronize()
    assert not torch.isnan(c).any()
    assert relative_error(c, a.float() @ b.float().T) < 1e-2


def test_contraction_extent_expression_odd_extent(load):
    """An extent that K*2 cannot take is refused before launch, naming the rule."""
    kernel = load("matmul_k2")
    a = torch.randn(64, 24, device="cuda", dtype=torch.bfloat16)[:, :23]
    b = torch.randn(64, 24, device="cuda", dtype=torch.bfloat16)[:, :23]
    with pytest.raises(Exception, match=r"extent 23, expected K\*2 = 22 with K = 11"):
        kernel(a, b)

