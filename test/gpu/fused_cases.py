"""Inputs and float32 references for the fused kernels (test_fused.py, sanitize_swiglu.py).

One Case per compiled artifact: how to draw fresh inputs for M x N x K (in the kernel's
parameter order), and what the kernel must compute from them, in float32 from the same
low-precision values. Operands are scaled by K^-1/4 so every product x @ w^T has entries of
about unit variance whatever K is: silu and gelu then see values where they are not just the
identity or zero, and bias and residual are of the same size as the product.

No CUDA is touched at import; `device` defaults to "cuda" and may be "cpu" (the sanitizer
script draws its inputs on the host so that only Kiln's kernels run on the GPU).
"""
import torch
import torch.nn.functional as F

BF16, F16, F32 = torch.bfloat16, torch.float16, torch.float32


def relative_error(out, ref):
    """||out - ref|| / ||ref||, in float32."""
    return ((out.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def tolerance(out_dtype):
    """Relative error allowed for an output of this dtype (one rounding of the f32 result)."""
    return 1e-4 if out_dtype == F32 else 1e-2


def gemm(a, b):
    """a @ b^T in float32 from the low-precision values (f32 accumulation, as the kernels)."""
    return a.float() @ b.float().T


def operand(rows, k, dtype, device="cuda"):
    """A [rows, k] matmul operand: randn * K^-1/4 (a product of two has unit variance)."""
    return (torch.randn(rows, k, device=device) * k ** -0.25).to(dtype)


def vector(shape, dtype, scale=1.0, device="cuda"):
    return (torch.randn(*shape, device=device) * scale).to(dtype)


class Case:
    """A compiled kernel under test.

    inputs(m, n, k, device) -> tuple of input tensors in the manifest's parameter order;
    reference(*inputs) -> one float32 tensor per output; outputs: [(name, torch dtype)];
    row_inputs: names of [M, N] inputs whose rows are as wide as an output's (for N with
    rows that are not 16-byte multiples, see test_fused.launch)."""

    def __init__(self, name, dtype, outputs, inputs, reference, row_inputs=()):
        self.name = name
        self.dtype = dtype
        self.outputs = outputs
        self.inputs = inputs
        self.reference = reference
        self.row_inputs = row_inputs

    def __repr__(self):
        return self.name


def _dual_inputs(dtype):
    def make(m, n, k, device="cuda"):
        return (operand(m, k, dtype, device), operand(n, k, dtype, device),
                operand(n, k, dtype, device))
    return make


def _gated(act):
    def reference(x, w1, w2):
        return [act(gemm(x, w1)) * gemm(x, w2)]
    return reference


def _bias_residual_inputs(m, n, k, device="cuda"):
    return (operand(m, k, BF16, device), operand(n, k, BF16, device),
            vector((n,), BF16, 0.5, device), vector((m, n), BF16, 1.0, device))


def _bias_residual_reference(x, w, bias, r):
    return [F.relu(gemm(x, w) + bias.float()) + r.float()]


def _row_scale_inputs(m, n, k, device="cuda"):
    return (operand(m, k, BF16, device), operand(n, k, BF16, device),
            vector((m, 1), F32, 1.0, device), vector((n,), F32, 0.5, device))


def _row_scale_reference(x, w, s, bias):
    return [gemm(x, w) * s + bias]


def _f16_bias_inputs(m, n, k, device="cuda"):
    return (operand(m, k, F16, device), operand(n, k, F16, device),
            vector((n,), F16, 0.5, device))


def _f16_bias_reference(x, w, bias):
    return [gemm(x, w) + bias.float()]


def _dual_out_reference(x, w1, w2):
    return [gemm(x, w1), F.silu(gemm(x, w2))]


CASES = {c.name: c for c in [
    # examples/swiglu.kiln: swiglu(x: bf16[M, K], w1: bf16[N, K], w2: bf16[N, K]) -> y: bf16[M, N]
    Case("swiglu", BF16, [("y", BF16)], _dual_inputs(BF16), _gated(F.silu)),
    Case("swiglu_f16", F16, [("y", F16)], _dual_inputs(F16), _gated(F.silu)),
    Case("swiglu_tiles", BF16, [("y", BF16)], _dual_inputs(BF16), _gated(F.silu)),
    Case("swiglu_t112", BF16, [("y", BF16)], _dual_inputs(BF16), _gated(F.silu)),
    Case("geglu", BF16, [("y", BF16)], _dual_inputs(BF16), _gated(F.gelu)),  # exact (erf) GELU
    Case("dual_out", BF16, [("y1", BF16), ("y2", BF16)], _dual_inputs(BF16), _dual_out_reference),
    Case("linear_bias_residual", BF16, [("y", BF16)], _bias_residual_inputs,
         _bias_residual_reference, row_inputs=("r",)),
    Case("linear_pp", BF16, [("y", BF16)], _bias_residual_inputs,  # ping-pong schedule
         _bias_residual_reference, row_inputs=("r",)),
    Case("linear_row_scale", BF16, [("y", BF16)], _row_scale_inputs, _row_scale_reference),
    Case("linear_f16_bias", F16, [("y", F32)], _f16_bias_inputs, _f16_bias_reference),
]}

DUAL_GEMMS = ["swiglu", "swiglu_f16", "swiglu_tiles", "swiglu_t112", "geglu"]
EPILOGUE_INPUTS = ["linear_bias_residual", "linear_pp", "linear_row_scale", "linear_f16_bias"]
ALL = DUAL_GEMMS + ["dual_out"] + EPILOGUE_INPUTS
