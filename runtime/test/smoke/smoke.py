"""GPU smoke test of the Kiln runtime with hand-written kernels (tma_copy.cu, naive_matmul.cu).

    python3 runtime/test/smoke/smoke.py <folder with the cubins and manifests>

Needs a Hopper GPU and PyTorch. Every case prints PASS/FAIL; the last line is
"N passed, N failed". run.sh builds everything and calls this.
"""

import ctypes
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import torch  # noqa: E402

import kiln  # noqa: E402

DIR = sys.argv[1] if len(sys.argv) > 1 else "."
results = []


def case(fn):
    try:
        fn()
        results.append(True)
        print("PASS", fn.__name__)
    except Exception:
        results.append(False)
        print("FAIL", fn.__name__)
        traceback.print_exc()
    sys.stdout.flush()


def expect_error(fn, *needles):
    try:
        fn()
    except kiln.KilnError as e:
        for n in needles:
            assert n in str(e), "message %r lacks %r" % (str(e), n)
        print("   (%s: %s)" % (e.status, e))
        return
    raise AssertionError("no KilnError")


copy = kiln.load(os.path.join(DIR, "tma_copy.kiln.json"))
copy2 = kiln.load(os.path.join(DIR, "tma_copy_cluster.kiln.json"))
mm = kiln.load(os.path.join(DIR, "naive_matmul.kiln.json"))
mmv = kiln.load(os.path.join(DIR, "naive_matmul_variants.kiln.json"))
print(copy)
print(mm)
print(mmv, mmv.entries)


def bf16(*shape):
    return torch.randn(*shape, device="cuda").to(torch.bfloat16)


def tma_load_and_tma_store():
    a = bf16(256, 512)
    c = copy(a)  # c contiguous: its optional map is encoded, the kernel stores with TMA
    torch.cuda.synchronize()
    assert c.shape == a.shape and c.dtype == a.dtype
    assert torch.equal(c, a)


def odd_shapes_clip_at_the_edges():
    for m, k in [(100, 72), (1, 8), (65, 64), (129, 136)]:
        a = bf16(m, k)
        c = copy(a)
        torch.cuda.synchronize()
        assert torch.equal(c, a), (m, k)


def optional_map_skipped_uses_pointer_path():
    a = bf16(100, 72)
    buf = torch.full((100, 75), float("nan"), device="cuda", dtype=torch.bfloat16)
    c = buf[:, :72]  # 150-byte rows: no tensor map, tma_ok = 0, stores through pointer + stride
    copy(a, out=c)
    torch.cuda.synchronize()
    assert torch.equal(c, a)
    assert torch.isnan(buf[:, 72:].float()).all(), "wrote past the view"


def misaligned_input_is_refused():
    base = bf16(100, 80)
    expect_error(lambda: copy(base[:, 1:73]), "param 'a'", "16-byte aligned")


def unpadded_stride_is_refused():
    base = bf16(100, 75)
    expect_error(lambda: copy(base[:, :72]), "param 'a'", "pad it to a multiple of 8 elements")


def wrong_dtype_is_refused():
    expect_error(lambda: copy(torch.zeros(64, 64, device="cuda")), "param 'a'", "float32")


def empty_launches_nothing():
    a = torch.empty(0, 64, device="cuda", dtype=torch.bfloat16)
    c = copy(a)
    torch.cuda.synchronize()
    assert c.shape == (0, 64)


def side_stream():
    a = bf16(512, 256)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        c = copy(a)
    s.synchronize()
    assert torch.equal(c, a)
    c2 = torch.empty_like(a)
    copy(a, out=c2, stream=s)
    s.synchronize()
    assert torch.equal(c2, a)


def cluster_launch_rounds_the_grid():
    a = bf16(64, 192)  # 3 tiles along x, rounded up to 4 for the 2-CTA cluster
    c = copy2(a)
    torch.cuda.synchronize()
    assert torch.equal(c, a)


def repeated_launches_reuse_cached_maps():
    a = bf16(256, 256)
    c = torch.empty_like(a)
    for _ in range(200):
        copy(a, out=c)
    b = bf16(256, 256)
    copy(b, out=c)  # new pointer: re-encoded
    torch.cuda.synchronize()
    assert torch.equal(c, b)


def cuda_graph_capture():
    a = bf16(128, 128)
    c = torch.empty_like(a)
    copy(a, out=c)  # load the module outside the capture
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        with torch.cuda.graph(g, stream=s):
            copy(a, out=c)
    c.zero_()
    g.replay()
    torch.cuda.synchronize()
    assert torch.equal(c, a)


def persistent_cluster_matmul():
    for m, n, k in [(256, 256, 512), (100, 72, 40), (1, 1, 1), (300, 200, 128)]:
        a, b = bf16(m, k), bf16(n, k)
        c = mm(a, b)
        torch.cuda.synchronize()
        ref = a.float() @ b.float().T
        err = (c.float() - ref).abs().max().item()
        assert err <= 1e-2 * ref.abs().max().item() + 1e-2, (m, n, k, err)


def variants_are_chosen_per_launch():
    # 16x16 tiles (cost 4, clusters of 2) or 8x8 tiles (cost 1.1, the dims first in its parameter
    # list): outputs that fit one wave either way take the 8x8 entry; where it needs 4x the waves
    # (16*SMs x 16 with an even SM count: 1 wave against 4), the primary. Both must compute the
    # same product.
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    seen = set()
    for m, n, k in [(64, 64, 32), (100, 72, 40), (1, 1, 1), (16 * sms, 16, 32), (2048, 2048, 64),
                    (1000, 1000, 16)]:
        a, b = bf16(m, k), bf16(n, k)
        want = mmv.entry_for(a, b)
        c = mmv(a, b)
        torch.cuda.synchronize()
        assert mmv.last_entry == want, (m, n, k, mmv.last_entry, want)
        seen.add(want)
        ref = a.float() @ b.float().T
        err = (c.float() - ref).abs().max().item()
        assert err <= 1e-2 * ref.abs().max().item() + 1e-2, (m, n, k, want, err)
        print("   %dx%dx%d on %d SMs: %s" % (m, n, k, sms, want))
    assert seen == {"naive_matmul", "naive_matmul_8"}, seen
    empty = mmv(bf16(0, 16), bf16(16, 16))
    assert empty.shape == (0, 16)


def host_pointer_is_refused():
    lib = kiln._lib.library()
    host = ctypes.create_string_buffer(64 * 64 * 2 + 64)
    addr = (ctypes.addressof(host) + 15) & ~15
    shape = (ctypes.c_int64 * 2)(64, 64)
    dev = torch.empty(64, 64, device="cuda", dtype=torch.bfloat16)
    args = (kiln._lib.CTensor * 2)(kiln._lib.CTensor(addr, 0, 2, shape, None),
                                   kiln._lib.CTensor(dev.data_ptr(), 0, 2, shape, None))
    status = lib.kiln_launch(copy._handle, args, 2, None)
    message = lib.kiln_last_error().decode()
    print("   (%d: %s)" % (status, message))
    assert status == 4 and "cannot be accessed by the device" in message, message


def launch_from_a_thread_without_a_context():
    # A fresh thread has no current context: the runtime must retain and use the primary context
    # of the tensors' device (the one PyTorch allocated in).
    import threading
    lib = kiln._lib.library()
    a = bf16(128, 64)
    c = torch.zeros_like(a)
    torch.cuda.synchronize()
    shape = (ctypes.c_int64 * 2)(128, 64)
    args = (kiln._lib.CTensor * 2)(kiln._lib.CTensor(a.data_ptr(), 0, 2, shape, None),
                                   kiln._lib.CTensor(c.data_ptr(), 0, 2, shape, None))
    out = {}

    def worker():
        cuda = ctypes.CDLL("libcuda.so.1")
        ctx = ctypes.c_void_p()
        cuda.cuCtxGetCurrent(ctypes.byref(ctx))
        out["before"] = ctx.value
        out["status"] = lib.kiln_launch(copy._handle, args, 2, None)
        out["message"] = lib.kiln_last_error().decode()
        out["sync"] = cuda.cuCtxSynchronize()

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert out["before"] is None, "the thread already had a context"
    assert out["status"] == 0, out["message"]
    assert out["sync"] == 0
    assert torch.equal(c, a)


def launch_overhead():
    import time
    a = bf16(64, 64)
    c = torch.empty_like(a)
    for _ in range(100):
        copy(a, out=c)
    torch.cuda.synchronize()
    n = 5000
    t0 = time.perf_counter()
    for _ in range(n):
        copy(a, out=c)
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    print("   Python call + launch, same buffers: %.1f us per call" % ((t1 - t0) / n * 1e6))


for fn in [launch_from_a_thread_without_a_context, launch_overhead, tma_load_and_tma_store, odd_shapes_clip_at_the_edges,
           optional_map_skipped_uses_pointer_path, misaligned_input_is_refused,
           unpadded_stride_is_refused, wrong_dtype_is_refused, empty_launches_nothing,
           side_stream, cluster_launch_rounds_the_grid, repeated_launches_reuse_cached_maps,
           cuda_graph_capture, persistent_cluster_matmul, variants_are_chosen_per_launch,
           host_pointer_is_refused]:
    case(fn)

print("%d passed, %d failed" % (results.count(True), results.count(False)))
sys.exit(0 if all(results) else 1)
