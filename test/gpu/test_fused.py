"""Fused kernels against a float32 reference on fresh random inputs.

Two families (fused_cases.py lists the kernels, their inputs and references):

- dual GEMMs: two products of one x in one kernel, combined in the epilogue
  (examples/swiglu.kiln's `swiglu`, `swiglu_f16`, `swiglu_tiles` with 128x64 tiles, `geglu`)
  or stored as two outputs (`dual_out`);
- contraction epilogues that read extra inputs: a bias per column, a scale per row, a
  residual [M, N] (`linear_bias_residual`, `linear_row_scale`, `linear_f16_bias`).

Every check draws new random inputs, poisons each output with NaN so an unwritten element
fails, and compares ||out - ref|| / ||ref|| with a float32 reference computed on the GPU from
the same bf16/f16 inputs: below 1e-2 for 16-bit outputs, 1e-4 for f32 outputs. Shapes cut
tiles at every edge, have K below one K step, N whose output rows are not 16-byte multiples
(the direct-store epilogue), and the LLM shapes the benchmarks use.
"""
import pytest
import torch

from fused_cases import ALL, CASES, DUAL_GEMMS, operand, relative_error, tolerance

DEVICE = "cuda"

ODD_SHAPES = [(1, 1, 8), (3, 40, 8), (127, 129, 72), (129, 257, 136), (64, 1001, 64),
              (1000, 1000, 1000), (4097, 72, 64)]
LARGE_SHAPES = [(4096, 4096, 4096)]
MODEL_SHAPES = [(256, 14336, 4096)]                          # a batch of tokens, Llama-3-8B MLP
BENCH_SHAPES = [(1024, 14336, 4096), (2048, 8192, 4096)]    # bench/bench_swiglu.py, not slow
SLOW_BENCH_SHAPES = [(4096, 14336, 4096), (8192, 8192, 4096)]
# Candidates for running every entry (schedule variant) of a kernel.
CHOICE_SHAPES = [(128, 128, 64), (300, 500, 256), (1024, 1024, 512), (2048, 2048, 512),
                 (4096, 4096, 512), (8192, 8192, 256), (256, 14336, 256), (512, 4096, 256),
                 (1024, 14336, 256), (1, 4096, 256), (64, 8192, 256), (4096, 2304, 256),
                 (640, 7232, 256)]


@pytest.fixture(autouse=True)
def exact_float32_reference(device):
    """The float32 references must not run on TF32 tensor cores (about 1e-3 error)."""
    saved = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    yield
    torch.backends.cuda.matmul.allow_tf32 = saved


def sync():
    torch.cuda.synchronize()


def poisoned(shape, dtype):
    return torch.full(shape, float("nan"), device=DEVICE, dtype=dtype)


def padded_view(t, fill=float("nan")):
    """`t` copied into the middle of a larger NaN-filled buffer: a view whose base is 16 bytes
    into it and whose rows are padded (row stride > extent, still a multiple of 16 bytes), so
    a kernel that ignores strides or offsets reads NaN and fails."""
    step = 16 // t.element_size()  # elements per 16 bytes
    if t.dim() == 1:
        big = torch.full((t.shape[0] + 2 * step,), fill, device=t.device, dtype=t.dtype)
        view = big[step:step + t.shape[0]]
    else:
        rows, cols = t.shape
        width = -(-(cols + 2 * step) // step) * step
        big = torch.full((rows, width), fill, device=t.device, dtype=t.dtype)
        view = big[:, step:step + cols]
    view.copy_(t)
    return big, view


def launch(kernel, case, inputs, out=None):
    """kernel(*inputs, out=out). An [M, N] epilogue input (the residual) whose rows are not
    16-byte multiples may be refused, if this build reads it only through a tensor map; the
    runtime must then say so, naming the param, and the check is skipped with its message."""
    try:
        return kernel(*inputs, out=out)
    except Exception as e:  # kiln.KilnError; the module is imported by the `load` fixture
        message = str(e)
        if (type(e).__name__ == "KilnError" and "multiple of 16 bytes" in message
                and any(f"param '{name}'" in message for name in case.row_inputs)):
            pytest.skip(f"{case.name}: this build refuses [M, N] inputs with rows that are "
                        f"not 16-byte multiples: {message}")
        raise


def expect_close(case, name, out, ref, dtype, what=""):
    assert out.dtype == dtype, f"{case.name}.{name}: dtype {out.dtype}, expected {dtype}"
    assert tuple(out.shape) == tuple(ref.shape), f"{case.name}.{name}: shape {tuple(out.shape)}"
    nan = torch.isnan(out).sum().item()
    assert nan == 0, (f"{case.name}.{name}{what}: {nan} of {out.numel()} output elements not "
                      f"written (NaN), first at {torch.isnan(out).nonzero()[:4].tolist()}")
    err = relative_error(out, ref)
    tol = tolerance(dtype)
    assert err < tol, f"{case.name}.{name}{what}: relative error {err:.3e} >= {tol}"


def out_arg(outs):
    return outs[0] if len(outs) == 1 else tuple(outs)


def check(kernel, case, m, n, k, inputs=None):
    if inputs is None:
        inputs = case.inputs(m, n, k, DEVICE)
    outs = [poisoned((m, n), dtype) for _, dtype in case.outputs]
    launch(kernel, case, inputs, out=out_arg(outs))
    sync()
    refs = case.reference(*inputs)
    for (name, dtype), out, ref in zip(case.outputs, outs, refs):
        expect_close(case, name, out, ref, dtype, f" at {m}x{n}x{k}")


# -- shapes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("m,n,k", ODD_SHAPES)
def test_odd_shapes(load, name, m, n, k):
    check(load(name), CASES[name], m, n, k)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("m,n,k", LARGE_SHAPES)
def test_large(load, name, m, n, k):
    check(load(name), CASES[name], m, n, k)


@pytest.mark.parametrize("name", DUAL_GEMMS + ["dual_out"])
@pytest.mark.parametrize("m,n,k", MODEL_SHAPES)
def test_model_shapes(load, name, m, n, k):
    check(load(name), CASES[name], m, n, k)


@pytest.mark.parametrize("m,n,k", BENCH_SHAPES)
def test_bench_shapes(load, m, n, k):
    check(load("swiglu"), CASES["swiglu"], m, n, k)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["swiglu", "swiglu_f16"])
@pytest.mark.parametrize("m,n,k", SLOW_BENCH_SHAPES)
def test_bench_shapes_slow(load, name, m, n, k):
    check(load(name), CASES[name], m, n, k)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["linear_bias_residual"])
def test_epilogue_8192(load, name):
    check(load(name), CASES[name], 8192, 8192, 8192)


# -- calling conventions ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_allocates_outputs_and_is_repeatable(load, name):
    case, kernel = CASES[name], load(name)
    m, n, k = 300, 520, 200
    inputs = case.inputs(m, n, k, DEVICE)
    first = launch(kernel, case, inputs)
    second = launch(kernel, case, inputs)
    sync()
    if len(case.outputs) == 1:
        first, second = (first,), (second,)
    assert isinstance(first, tuple) and len(first) == len(case.outputs), type(first)
    refs = case.reference(*inputs)
    for (oname, dtype), a, b, ref in zip(case.outputs, first, second, refs):
        assert a.device.type == "cuda" and tuple(a.shape) == (m, n), (a.device, a.shape)
        expect_close(case, oname, a, ref, dtype, " (allocated by the kernel)")
        # Same inputs, same schedule, no split-K: bit-identical (no race, no stale state).
        assert torch.equal(a, b), f"{name}.{oname}: two launches on the same inputs differ"


def test_dual_out_into_one_buffer(load):
    """Both outputs of dual_out as adjacent column blocks of one tensor (a fused [M, 2N]
    projection): each must land in its own half, nothing outside them is written."""
    case, kernel = CASES["dual_out"], load("dual_out")
    m, n, k = 513, 704, 264
    x, w1, w2 = case.inputs(m, n, k, DEVICE)
    big = poisoned((m, 2 * n + 32), torch.bfloat16)
    y1, y2 = big[:, 16:16 + n], big[:, 16 + n:16 + 2 * n]
    result = kernel(x, w1, w2, out=(y1, y2))
    sync()
    assert isinstance(result, tuple) and len(result) == 2
    assert result[0].data_ptr() == y1.data_ptr() and result[1].data_ptr() == y2.data_ptr()
    ref1, ref2 = case.reference(x, w1, w2)
    expect_close(case, "y1", y1, ref1, torch.bfloat16)
    expect_close(case, "y2", y2, ref2, torch.bfloat16)
    assert torch.isnan(big[:, :16]).all() and torch.isnan(big[:, 16 + 2 * n:]).all(), \
        "written outside the two output views"


def test_dual_out_needs_both_outputs(load, kiln_module):
    case, kernel = CASES["dual_out"], load("dual_out")
    x, w1, w2 = case.inputs(64, 64, 64, DEVICE)
    with pytest.raises(kiln_module.KilnError, match="2 entries"):
        kernel(x, w1, w2, out=(poisoned((64, 64), torch.bfloat16),))


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("m,n,k", [(300, 704, 264), (129, 257, 136)])
def test_strided_views(load, name, m, n, k):
    """Every input and output as a view into a larger NaN-filled buffer (16 bytes in, rows
    padded): results match, and nothing outside the output views is written."""
    case, kernel = CASES[name], load(name)
    inputs = [padded_view(t)[1] for t in case.inputs(m, n, k, DEVICE)]
    outs = [padded_view(poisoned((m, n), dtype)) for _, dtype in case.outputs]
    launch(kernel, case, inputs, out=out_arg([view for _, view in outs]))
    sync()
    for (oname, dtype), (big, view), ref in zip(case.outputs, outs, case.reference(*inputs)):
        expect_close(case, oname, view, ref, dtype, " (strided view)")
        outside = ~torch.isnan(big)
        step = 16 // big.element_size()
        outside[:, step:step + n] = False
        assert not outside.any(), (
            f"{name}.{oname}: {outside.sum().item()} elements written outside the view, rows "
            f"{outside.any(1).nonzero().flatten()[:8].tolist()}, buffer columns "
            f"{outside.any(0).nonzero().flatten()[:8].tolist()}")


@pytest.mark.parametrize("name", ["swiglu", "dual_out"])
def test_weight_halves_of_one_tensor(load, name):
    """w1 and w2 as the two halves of one merged [2N, K] weight (as checkpoints store the
    gate/up projection): contiguous views, the second at an offset."""
    case, kernel = CASES[name], load(name)
    m, n, k = 1000, 1000, 1000
    x = operand(m, k, case.dtype, DEVICE)
    w12 = operand(2 * n, k, case.dtype, DEVICE)
    check(kernel, case, m, n, k, inputs=(x, w12[:n], w12[n:]))
    # And the same tensor twice: silu(h) * h.
    check(kernel, case, m, n, k, inputs=(x, w12[:n], w12[:n]))


@pytest.mark.parametrize("name", DUAL_GEMMS)
@pytest.mark.parametrize("k", [100, 36, 8])
def test_k_residue_in_padded_rows(load, name, k):
    """K not a multiple of 8 elements, rows padded to 16 bytes with large values: the copies
    must read zeros past K, not the padding."""
    case, kernel = CASES[name], load(name)
    padded = (k + 7) // 8 * 8 + 8

    def padded_operand(rows):
        big = torch.full((rows, padded), 100.0, device=DEVICE, dtype=case.dtype)
        big[:, :k] = operand(rows, k, case.dtype, DEVICE)
        return big[:, :k]

    check(kernel, case, 300, 200, k, inputs=(padded_operand(300), padded_operand(200),
                                             padded_operand(200)))


@pytest.mark.parametrize("name", ["swiglu", "linear_bias_residual"])
def test_cuda_graph_replay(load, name):
    """Captured once, replayed on new data written into the same buffers (how the benchmarks
    time it, and how inference servers run it)."""
    case, kernel = CASES[name], load(name)
    m, n, k = 1000, 1000, 1000
    inputs = case.inputs(m, n, k, DEVICE)
    outs = [poisoned((m, n), dtype) for _, dtype in case.outputs]
    launch(kernel, case, inputs, out=out_arg(outs))  # loads the module, encodes the maps
    sync()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        kernel(*inputs, out=out_arg(outs))
    for replay in range(2):
        for t, fresh in zip(inputs, case.inputs(m, n, k, DEVICE)):
            t.copy_(fresh)
        for o in outs:
            o.fill_(float("nan"))
        graph.replay()
        sync()
        for (oname, dtype), out, ref in zip(case.outputs, outs, case.reference(*inputs)):
            expect_close(case, oname, out, ref, dtype, f" (graph replay {replay})")


@pytest.mark.parametrize("name", ALL)
def test_every_entry(load, name):
    """A kernel compiled with schedule variants: each entry runs (on a shape the runtime's
    cost rule gives it) and is correct."""
    case, kernel = CASES[name], load(name)
    entries = list(getattr(kernel, "entries", []))
    if len(entries) < 2:
        pytest.skip(f"{name} has one entry {entries}")
    missing = []
    for entry in entries:
        for m, n, k in CHOICE_SHAPES:
            inputs = case.inputs(m, n, k, DEVICE)
            if kernel.entry_for(*inputs) == entry:
                check(kernel, case, m, n, k, inputs=inputs)
                assert kernel.last_entry == entry, (kernel.last_entry, entry)
                break
        else:
            missing.append(entry)
    if missing:
        pytest.skip(f"no shape of {CHOICE_SHAPES} chooses {missing} on this device; the "
                    f"others ran and were correct")


# -- argument errors --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["swiglu", "linear_bias_residual"])
def test_unaligned_operand_rows_are_an_error(load, kiln_module, name):
    # 16-bit rows of 65 elements are 130 bytes: no tensor map can describe them.
    case, kernel = CASES[name], load(name)
    with pytest.raises(kiln_module.KilnError, match="multiple of 16 bytes"):
        kernel(*case.inputs(129, 256, 65, DEVICE))


def test_dual_gemm_argument_errors(load, kiln_module):
    case, kernel = CASES["swiglu"], load("swiglu")
    x, w1, w2 = case.inputs(64, 128, 64, DEVICE)
    with pytest.raises(kiln_module.KilnError, match="takes 3 inputs"):
        kernel(x, w1)
    with pytest.raises(kiln_module.KilnError, match="dtype|bf16"):
        kernel(x, w1, w2.half())
    with pytest.raises(kiln_module.KilnError, match="'w2'.*K|K.*'w2'"):
        kernel(x, w1, operand(128, 32, torch.bfloat16, DEVICE))
    with pytest.raises(kiln_module.KilnError, match="'w2'.*N|N.*'w2'"):
        kernel(x, w1, operand(64, 64, torch.bfloat16, DEVICE))


def test_epilogue_input_errors(load, kiln_module):
    case, kernel = CASES["linear_bias_residual"], load("linear_bias_residual")
    x, w, bias, r = case.inputs(64, 128, 64, DEVICE)
    with pytest.raises(kiln_module.KilnError, match="'bias'"):
        kernel(x, w, torch.cat([bias, bias[:8]]), r)
    with pytest.raises(kiln_module.KilnError, match="'r'"):
        kernel(x, w, bias, r[:, :120].contiguous())
    with pytest.raises(kiln_module.KilnError, match="'r'"):
        kernel(x, w, bias, r.T.contiguous().T)  # column-major residual

    case, kernel = CASES["linear_row_scale"], load("linear_row_scale")
    x, w, s, bias = case.inputs(64, 128, 64, DEVICE)
    with pytest.raises(kiln_module.KilnError, match="'s'"):
        kernel(x, w, s.reshape(64), bias)         # rank 1, expected [M, 1]
    with pytest.raises(kiln_module.KilnError, match="'s'"):
        kernel(x, w, s.expand(64, 2).contiguous(), bias)   # [M, 2]
    with pytest.raises(kiln_module.KilnError, match="dtype|f32"):
        kernel(x, w, s.bfloat16(), bias)
