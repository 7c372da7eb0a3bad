"""Row and column reductions of a product as outputs (`r = sum(y, axis = -1)`,
`c = sum(y, axis = -2)`, docs/language.md): each tile's rows (columns) reduced in registers, the
column (row) tiles combined into the f32 output with atomics after the runtime filled it with
the reduction's identity. Against float32 references on fresh random inputs, outputs poisoned,
shapes cut inside tiles (M = 1 and 17 leave most of a tile's rows outside the product, which a
column reduction must leave out); each entry of the kernels."""
import pytest
import torch

from conftest import for_each_entry

SHAPES = [(1, 64, 64), (17, 200, 72), (128, 256, 64), (300, 1000, 264), (257, 4100, 136),
          (1000, 513, 1000), (4100, 40, 64)]
# The reduced axis of the [M, N] product, and the kernels that reduce it.
AXES = {"rows": (-1, "gemm_row_sum", "gemm_row_stats"),
        "cols": (0, "gemm_col_sum", "gemm_col_stats")}


def bf16(*shape):
    return (torch.randn(*shape, device="cuda") * 0.5).to(torch.bfloat16)


def close(out, ref, tol):
    err = ((out.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    return err < tol, err


def extent(axis, m, n):
    """The reduction's length: M for a row reduction's output, N for a column reduction's."""
    return m if axis == -1 else n


@pytest.mark.parametrize("axes", AXES)
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_sum_beside_the_product(load, axes, m, n, k):
    axis, sum_kernel, _ = AXES[axes]
    kernel = load(sum_kernel)
    x, w = bf16(m, k), bf16(n, k)
    y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    r = torch.full((extent(axis, m, n),), float("nan"), device="cuda")
    kernel(x, w, out=(y, r))
    torch.cuda.synchronize()
    ref = x.float() @ w.float().T
    ok, err = close(y, ref, 1e-2)
    assert ok, f"y: relative error {err:.2e}"
    # r sums the bf16-rounded y, as the program says.
    ok, err = close(r, y.float().sum(dim=axis), 1e-5)
    assert ok, f"{axes} sum: relative error {err:.2e}"


@pytest.mark.parametrize("axes", AXES)
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_max_and_sum_of_squares(load, axes, m, n, k):
    axis, _, stats_kernel = AXES[axes]
    kernel = load(stats_kernel)
    x, w = bf16(m, k), bf16(n, k)
    rmax, rsq = kernel(x, w)
    torch.cuda.synchronize()
    ref = x.float() @ w.float().T
    assert rmax.shape == (extent(axis, m, n),) and rsq.shape == rmax.shape
    ok, err = close(rmax, ref.max(dim=axis).values, 1e-5)
    assert ok, f"{axes} max: relative error {err:.2e}"
    ok, err = close(rsq, (ref * ref).sum(dim=axis), 1e-4)
    assert ok, f"{axes} sum of squares: relative error {err:.2e}"


@pytest.mark.parametrize("axes", AXES)
def test_max_of_negative_products(load, axes):
    """Every element negative, shapes cut inside the tiles: an element outside the product
    (a row past M, a column past N) counted as 0 instead of left out would show as a maximum
    of 0."""
    axis, _, stats_kernel = AXES[axes]
    kernel = load(stats_kernel)
    m, n, k = 17, 300, 64
    x = bf16(m, k).abs() + 0.1
    w = -(bf16(n, k).abs() + 0.1)
    rmax, _ = kernel(x, w)
    torch.cuda.synchronize()
    ref = (x.float() @ w.float().T).max(dim=axis).values
    assert (ref < 0).all()
    ok, err = close(rmax, ref, 1e-5)
    assert ok, f"{axes} max: relative error {err:.2e}"


@pytest.mark.parametrize("axes", AXES)
def test_every_entry_and_repeated_launches(load, axes):
    """Each entry (pinned) into the same outputs, launched twice: the runtime re-initializes
    the accumulated outputs before every launch, so nothing accumulates across launches."""
    axis, _, stats_kernel = AXES[axes]
    kernel = load(stats_kernel)
    m, n, k = 300, 1000, 264
    x, w = bf16(m, k), bf16(n, k)
    ref = x.float() @ w.float().T
    rmax = torch.full((extent(axis, m, n),), float("nan"), device="cuda")
    rsq = torch.full((extent(axis, m, n),), float("nan"), device="cuda")
    def check(entry):
        for _ in range(2):
            kernel(x, w, out=(rmax, rsq))
        torch.cuda.synchronize()
        assert close(rmax, ref.max(dim=axis).values, 1e-5)[0], entry
        assert close(rsq, (ref * ref).sum(dim=axis), 1e-4)[0], entry
    for_each_entry(kernel, check)


@pytest.mark.parametrize("axes", AXES)
def test_in_a_graph_replay(load, axes):
    axis, sum_kernel, _ = AXES[axes]
    kernel = load(sum_kernel)
    m, n, k = 257, 4100, 136
    x, w = bf16(m, k), bf16(n, k)
    y = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    r = torch.empty(extent(axis, m, n), device="cuda")
    kernel(x, w, out=(y, r))
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        kernel(x, w, out=(y, r))
    for _ in range(3):
        x.copy_(bf16(m, k))
        r.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        assert close(r, y.float().sum(dim=axis), 1e-5)[0]


@pytest.mark.parametrize("axes", AXES)
def test_a_strided_accumulated_output_is_refused(load, kiln_module, axes):
    axis, sum_kernel, _ = AXES[axes]
    kernel = load(sum_kernel)
    x, w = bf16(64, 64), bf16(64, 64)
    y = torch.empty(64, 64, device="cuda", dtype=torch.bfloat16)
    r = torch.empty(64, 2, device="cuda")[:, 0]
    with pytest.raises(kiln_module.KilnError, match="must be contiguous"):
        kernel(x, w, out=(y, r))


@pytest.mark.parametrize("b,m,n,k", [(3, 17, 200, 72), (2, 300, 1000, 264), (5, 1, 64, 64)])
def test_batched_rows_and_columns(load, b, m, n, k):
    kernel = load("bmm_reductions")
    x, w = bf16(b, m, k), bf16(b, n, k)
    r = torch.full((b, m), float("nan"), device="cuda")
    c = torch.full((b, n), float("nan"), device="cuda")
    def check(entry):
        kernel(x, w, out=(r, c))
        torch.cuda.synchronize()
        ref = x.float() @ w.float().transpose(-1, -2)
        assert close(r, ref.sum(dim=-1), 1e-4)[0], entry
        assert close(c, ref.max(dim=-2).values, 1e-5)[0], entry
    for_each_entry(kernel, check)


def test_rank4_with_a_shared_weight(load):
    kernel = load("bmm_shared_reductions")
    b, h, m, n, k = 2, 3, 130, 300, 136
    x, w = bf16(b, h, m, k), bf16(n, k)
    y, r, c = kernel(x, w)
    torch.cuda.synchronize()
    ref = x.float() @ w.float().T
    assert close(y, ref, 1e-2)[0]
    assert close(r, y.float().max(dim=-1).values, 1e-5)[0]
    assert close(c, y.float().sum(dim=-2), 1e-5)[0]
