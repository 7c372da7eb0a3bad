"""Batched matmuls (leading axes that broadcast) against a float32 reference on fresh random
inputs, outputs poisoned with NaN: torch.bmm's layouts ([B, K, N] and [B, N, K]), a rank-4
activation times one shared weight with a bias, a size-1 batch axis; M, N, K cut at every
tile edge.
"""
import pytest
import torch

from conftest import for_each_entry
from test_matmul import relative_error


def randn(*shape, scale=1.0):
    return (torch.randn(*shape, device="cuda") * scale).to(torch.bfloat16)


SHAPES = [(1, 1, 8, 8), (3, 129, 264, 72), (32, 1024, 1024, 128), (5, 1000, 1000, 1000),
          (2, 4097, 8, 64), (7, 3, 40, 8)]


@pytest.mark.parametrize("b,m,n,k", SHAPES)
@pytest.mark.parametrize("layout", ["nk", "kn"])
def test_bmm(load, layout, b, m, n, k):
    """c[i] = a[i] @ w[i]^T (w [B, N, K]) or a[i] @ w[i] (w [B, K, N], torch.bmm's)."""
    kernel = load("bmm" if layout == "nk" else "bmm_kn")
    a = randn(b, m, k)
    w = randn(b, n, k) if layout == "nk" else randn(b, k, n)
    c = torch.full((b, m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(a, w, out=c)
    torch.cuda.synchronize()
    ref = a.float() @ (w.float().transpose(1, 2) if layout == "nk" else w.float())
    assert not torch.isnan(c).any(), f"{torch.isnan(c).sum().item()} elements not written"
    assert relative_error(c, ref) < 1e-2


@pytest.mark.parametrize("b,h,m,n,k", [(2, 3, 129, 264, 72), (1, 16, 300, 512, 256)])
def test_shared_weight_and_bias(load, b, h, m, n, k):
    kernel = load("bmm_shared_w")
    x, w = randn(b, h, m, k, scale=k ** -0.25), randn(n, k, scale=k ** -0.25)
    bias = torch.randn(n, device="cuda")
    y = torch.full((b, h, m, n), float("nan"), device="cuda", dtype=torch.float16)
    kernel(x, w, bias, out=y)
    torch.cuda.synchronize()
    ref = x.float() @ w.float().T + bias
    assert not torch.isnan(y).any()
    assert relative_error(y, ref) < 1e-2


def test_size_one_batch_axis(load):
    kernel = load("bmm_one")
    a, w = randn(4, 200, 136), randn(1, 72, 136)
    c = torch.full((4, 200, 72), float("nan"), device="cuda")
    kernel(a, w, out=c)
    torch.cuda.synchronize()
    assert relative_error(c, a.float() @ w.float().transpose(1, 2)) < 1e-5


def test_strided_batches(load):
    """Operands that are views: a batch stride wider than M * K, b a slice of a larger tensor."""
    kernel = load("bmm")
    big_a = randn(4, 300, 256)
    a = big_a[:, 10:210, :128]
    big_w = randn(4, 200, 192)
    w = big_w[:, :136, 64:192]
    c = torch.full((4, 200, 136), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(a, w, out=c)
    torch.cuda.synchronize()
    assert relative_error(c, a.float() @ w.float().transpose(1, 2)) < 1e-2


@pytest.mark.parametrize("b,m,n,k", [(3, 129, 264, 72), (2, 4097, 8, 64), (5, 300, 1000, 520)])
@pytest.mark.parametrize("name", ["bmm", "bmm_kn", "bmm_shared_w"])
def test_every_entry_of_a_batched_kernel(load, name, b, m, n, k):
    """Batched kernels ship the dense variants (128x64, 128x128 without a cluster, 128x128,
    64x64 and 64x32 ping-pong): each entry, pinned, walks every batch entry's tiles and is
    correct."""
    kernel = load(name)
    assert len(kernel.entries) == 8, kernel.entries
    if name == "bmm_shared_w":
        a, w = randn(b, 2, m, k, scale=k ** -0.25), randn(n, k, scale=k ** -0.25)
        bias = torch.randn(n, device="cuda")
        out_shape, ref = (b, 2, m, n), a.float() @ w.float().T + bias
        args, out_dtype = (a, w, bias), torch.float16
    else:
        a = randn(b, m, k)
        w = randn(b, n, k) if name == "bmm" else randn(b, k, n)
        ref = a.float() @ (w.float().transpose(1, 2) if name == "bmm" else w.float())
        out_shape, args, out_dtype = (b, m, n), (a, w), torch.bfloat16
    def check(entry):
        c = torch.full(out_shape, float("nan"), device="cuda", dtype=out_dtype)
        kernel(*args, out=c)
        torch.cuda.synchronize()
        assert not torch.isnan(c).any(), f"{entry}: {torch.isnan(c).sum().item()} not written"
        assert relative_error(c, ref) < 1e-2, entry
    for_each_entry(kernel, check)
