"""Row reductions of a product as outputs (`r = sum(y, axis = -1)`, docs/language.md): each
tile's rows reduced in registers, the column tiles combined into the f32 output with atomics
after the runtime filled it with the reduction's identity. Against float32 references on fresh
random inputs, outputs poisoned, shapes cut inside tiles; each entry of the kernel."""
import pytest
import torch

from conftest import for_each_entry

SHAPES = [(1, 64, 64), (17, 200, 72), (128, 256, 64), (300, 1000, 264), (257, 4100, 136),
          (1000, 513, 1000)]


def bf16(*shape):
    return (torch.randn(*shape, device="cuda") * 0.5).to(torch.bfloat16)


def close(out, ref, tol):
    err = ((out.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    return err < tol, err


@pytest.mark.parametrize("m,n,k", SHAPES)
def test_row_sum_beside_the_product(load, m, n, k):
    kernel = load("gemm_row_sum")
    x, w = bf16(m, k), bf16(n, k)
    y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    r = torch.full((m,), float("nan"), device="cuda")
    kernel(x, w, out=(y, r))
    torch.cuda.synchronize()
    ref = x.float() @ w.float().T
    ok, err = close(y, ref, 1e-2)
    assert ok, f"y: relative error {err:.2e}"
    # r sums the bf16-rounded y, as the program says.
    ok, err = close(r, y.float().sum(dim=-1), 1e-5)
    assert ok, f"r: relative error {err:.2e}"


@pytest.mark.parametrize("m,n,k", SHAPES)
def test_row_max_and_sum_of_squares(load, m, n, k):
    kernel = load("gemm_row_stats")
    x, w = bf16(m, k), bf16(n, k)
    rmax, rsq = kernel(x, w)
    torch.cuda.synchronize()
    ref = x.float() @ w.float().T
    assert rmax.shape == (m,) and rsq.shape == (m,)
    ok, err = close(rmax, ref.max(dim=-1).values, 1e-5)
    assert ok, f"rmax: relative error {err:.2e}"
    ok, err = close(rsq, (ref * ref).sum(dim=-1), 1e-4)
    assert ok, f"rsq: relative error {err:.2e}"


def test_every_entry_and_repeated_launches(load):
    """Each entry (pinned) into the same outputs, launched twice: the runtime re-initializes
    the accumulated outputs before every launch, so nothing accumulates across launches."""
    kernel = load("gemm_row_stats")
    m, n, k = 300, 1000, 264
    x, w = bf16(m, k), bf16(n, k)
    ref = x.float() @ w.float().T
    rmax = torch.full((m,), float("nan"), device="cuda")
    rsq = torch.full((m,), float("nan"), device="cuda")
    def check(entry):
        for _ in range(2):
            kernel(x, w, out=(rmax, rsq))
        torch.cuda.synchronize()
        assert close(rmax, ref.max(dim=-1).values, 1e-5)[0], entry
        assert close(rsq, (ref * ref).sum(dim=-1), 1e-4)[0], entry
    for_each_entry(kernel, check)


def test_in_a_graph_replay(load):
    kernel = load("gemm_row_sum")
    m, n, k = 257, 4100, 136
    x, w = bf16(m, k), bf16(n, k)
    y = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    r = torch.empty(m, device="cuda")
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
        assert close(r, y.float().sum(dim=-1), 1e-5)[0]


def test_a_strided_accumulated_output_is_refused(load, kiln_module):
    kernel = load("gemm_row_sum")
    x, w = bf16(64, 64), bf16(64, 64)
    y = torch.empty(64, 64, device="cuda", dtype=torch.bfloat16)
    r = torch.empty(64, 2, device="cuda")[:, 0]
    with pytest.raises(kiln_module.KilnError, match="must be contiguous"):
        kernel(x, w, out=(y, r))
