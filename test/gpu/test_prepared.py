"""Prepared launches (`kernel.prepare(...)`, docs/runtime.md "Prepared launches"): checked and
packed once, then launched again and again. Each test compares against a float32 reference on
fresh random inputs with poisoned outputs, as a plain call would be."""
import pytest
import torch

from test_grouped import offsets_of
from test_matmul import relative_error


def test_prepared_matches_a_call_and_sees_new_data(load):
    """The prepared launch computes what a call computes, and reads the tensors' current
    contents each time (data written in place between launches is used)."""
    kernel = load("matmul")
    a = torch.randn(300, 264, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(520, 264, device="cuda", dtype=torch.bfloat16)
    c = torch.full((300, 520), float("nan"), device="cuda", dtype=torch.bfloat16)
    prepared = kernel.prepare(a, b, out=c)
    torch.cuda.synchronize()
    assert torch.isnan(c).all(), "prepare launched the kernel"
    assert prepared() is c
    torch.cuda.synchronize()
    assert relative_error(c, a.float() @ b.float().T) < 1e-2
    for _ in range(3):
        a.copy_(torch.randn_like(a))
        c.fill_(float("nan"))
        prepared()
        torch.cuda.synchronize()
        assert relative_error(c, a.float() @ b.float().T) < 1e-2


def test_prepared_allocates_outputs_once(load):
    kernel = load("swiglu")
    x = torch.randn(129, 256, device="cuda", dtype=torch.bfloat16) * 0.25
    w1 = torch.randn(272, 256, device="cuda", dtype=torch.bfloat16) * 0.25
    w2 = torch.randn(272, 256, device="cuda", dtype=torch.bfloat16) * 0.25
    prepared = kernel.prepare(x, w1, w2)
    y = prepared.outputs
    assert y.shape == (129, 272) and prepared() is y
    torch.cuda.synchronize()
    ref = torch.nn.functional.silu(x.float() @ w1.float().T) * (x.float() @ w2.float().T)
    assert relative_error(y, ref) < 1e-2


def test_prepared_on_another_stream_and_in_a_graph(load):
    """A prepared launch runs on any stream of its device, and inside CUDA-graph capture."""
    kernel = load("matmul")
    a = torch.randn(640, 320, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(384, 320, device="cuda", dtype=torch.bfloat16)
    c = torch.full((640, 384), float("nan"), device="cuda", dtype=torch.bfloat16)
    prepared = kernel.prepare(a, b, out=c)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        prepared()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    assert relative_error(c, a.float() @ b.float().T) < 1e-2
    c.fill_(float("nan"))
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        prepared()
    a.copy_(torch.randn_like(a))
    graph.replay()
    torch.cuda.synchronize()
    assert relative_error(c, a.float() @ b.float().T) < 1e-2


def test_stream_k_prepared_launch_keeps_its_stream(load, kiln_module):
    """A stream-K kernel's workspace belongs to the stream it was prepared for: another stream
    is refused with a message, its own stream runs."""
    kernel = load("matmul_sk_f32")
    a = torch.randn(16987, 72, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(200, 72, device="cuda", dtype=torch.bfloat16)
    c = torch.full((16987, 200), float("nan"), device="cuda")
    prepared = kernel.prepare(a, b, out=c)
    with pytest.raises(kiln_module.KilnError, match="prepared for another stream"):
        prepared(stream=torch.cuda.Stream())
    prepared()
    torch.cuda.synchronize()
    assert relative_error(c, a.float() @ b.float().T) < 1e-5


def test_prepared_empty_grid(load):
    kernel = load("matmul")
    a = torch.randn(0, 64, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(128, 64, device="cuda", dtype=torch.bfloat16)
    prepared = kernel.prepare(a, b)
    assert prepared().shape == (0, 128)


def test_prepared_checks_arguments_once(load, kiln_module):
    kernel = load("matmul")
    a = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(128, 32, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(kiln_module.KilnError, match="param 'b' axis 1: extent 32"):
        kernel.prepare(a, b)


def test_prepared_grouped_launch_keeps_the_checking_mode(load, kiln_module):
    """The checking mode reads the offsets before each prepared launch, so a routing that
    turns bad after preparing is refused."""
    kernel = load("moe_grouped")
    x = torch.randn(300, 64, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(2, 136, 64, device="cuda", dtype=torch.bfloat16)
    offsets = offsets_of([100, 200])
    prepared = kernel.prepare(x, w, offsets)
    kernel.check_offsets = True
    try:
        prepared()
        offsets.copy_(torch.tensor([0, 200, 50], dtype=torch.int32, device="cuda"))
        with pytest.raises(kiln_module.KilnError, match="offsets never decrease"):
            prepared()
    finally:
        kernel.check_offsets = False


def test_calls_with_out_reuse_their_prepared_launch(load):
    """`kernel(a, b, out=c)` again with the same tensors launches a cached prepared launch: it
    reads the tensors' current contents, and new tensors, shapes, views or a stream of their own
    get a launch of their own (each checked against the reference)."""
    kernel = load("matmul")
    a = torch.randn(300, 264, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(520, 264, device="cuda", dtype=torch.bfloat16)
    c = torch.full((300, 520), float("nan"), device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        a.copy_(torch.randn_like(a))
        c.fill_(float("nan"))
        assert kernel(a, b, out=c) is c
        torch.cuda.synchronize()
        assert relative_error(c, a.float() @ b.float().T) < 1e-2
    # Another configuration each: fewer rows (a view), a new output, another stream.
    a2, c2 = a[:17], torch.full((17, 520), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(a2, b, out=c2)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    c.fill_(float("nan"))
    with torch.cuda.stream(side):
        kernel(a, b, out=c)
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    assert relative_error(c2, a2.float() @ b.float().T) < 1e-2
    assert relative_error(c, a.float() @ b.float().T) < 1e-2
    # Errors are still reported by the checked path on a configuration's first call.
    with pytest.raises(Exception, match="dtype"):
        kernel(a.float(), b, out=c)


def test_the_call_cache_keeps_no_tensor_alive(load):
    import gc
    import weakref
    kernel = load("matmul")
    a = torch.randn(128, 64, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(128, 64, device="cuda", dtype=torch.bfloat16)
    kernel(a, b, out=c)
    torch.cuda.synchronize()
    refs = [weakref.ref(t) for t in (a, b, c)]
    del a, b, c
    gc.collect()
    assert all(r() is None for r in refs)


def test_many_configurations_stay_correct(load):
    """More configurations than the cache keeps, cycled twice: evicted ones are prepared
    again, none is launched with another's arguments."""
    kernel = load("matmul")
    cases = []
    for m in range(1, 41, 2):
        a = torch.randn(m, 128, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(96, 128, device="cuda", dtype=torch.bfloat16)
        cases.append((a, b, torch.empty(m, 96, device="cuda", dtype=torch.bfloat16)))
    for _ in range(2):
        for a, b, c in cases:
            c.fill_(float("nan"))
            kernel(a, b, out=c)
        torch.cuda.synchronize()
        for a, b, c in cases:
            assert relative_error(c, a.float() @ b.float().T) < 1e-2


def test_allocating_calls_reuse_their_checks(load):
    """`kernel(a, b)` again with the same inputs skips the Python checks and the shape
    inference but allocates new outputs each time: results alive together are distinct
    tensors, each correct; the inputs' current contents are read."""
    kernel = load("swiglu")
    x = torch.randn(129, 256, device="cuda", dtype=torch.bfloat16) * 0.25
    w1 = torch.randn(272, 256, device="cuda", dtype=torch.bfloat16) * 0.25
    w2 = torch.randn(272, 256, device="cuda", dtype=torch.bfloat16) * 0.25
    results = []
    for _ in range(3):
        x.copy_(torch.randn_like(x) * 0.25)
        y = kernel(x, w1, w2)
        torch.cuda.synchronize()
        ref = torch.nn.functional.silu(x.float() @ w1.float().T) * (x.float() @ w2.float().T)
        assert y.shape == (129, 272) and relative_error(y, ref) < 1e-2
        results.append(y)
    assert len({y.data_ptr() for y in results}) == 3
    # Other inputs (here: fewer rows) are a configuration of their own.
    y = kernel(x[:5], w1, w2)
    torch.cuda.synchronize()
    assert y.shape == (5, 272)
    ref = torch.nn.functional.silu(x[:5].float() @ w1.float().T) * (x[:5].float() @ w2.float().T)
    assert relative_error(y, ref) < 1e-2
