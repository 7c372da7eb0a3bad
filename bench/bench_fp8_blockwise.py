#!/usr/bin/env python3
"""Kiln's fp8 GEMM with f32 block scales (DeepSeek-style) vs torch, e4m3 in, bf16 out.

c = a @ b^T with a e4m3 scaled per 1x128 block and b per 128x128 block
(examples/gemm_fp8_blockwise.kiln with its pinned 128x128x128 tile, and
test/gpu/kernels/fp8_blockwise.kiln with the compiler's choice) against
`F.scaled_mm(a, b.T, sa, BlockWise1x128, sb.T, BlockWise128x128)` (cuBLASLt's block-scaled fp8
GEMM, CUDA 12.9+; the activation scales passed outer-dim-major as it asks) and, for scale, the
bf16 GEMM of the same shape on operands dequantized ahead (cuBLAS via torch.matmul). Kiln's
result is checked against a float32 reference of the dequantized operands first (relative error
< 1e-2). Timing as in bench_matmul.py (common.time_interleaved). TFLOP/s = 2*M*N*K / time.
Writes JSON. Shapes are multiples of 128 (cuBLASLt's block scaling asks for them).
"""
import argparse
import json

import torch
import torch.nn.functional as F

from common import (artifact, environment, load_kernel, parse_shapes, print_row, relative_error,
                    time_against_baselines)

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 14336, 4096), (4096, 7168, 2048),
          (256, 7168, 2048)]
QUICK_SHAPES = SHAPES[:1] + SHAPES[2:3]
BASELINES = ["F.scaled_mm blockwise", "bf16 matmul"]
TOLERANCE = 1e-2
BLOCK = 128


def dequantized(a, sa, b, sb):
    m, k = a.shape
    n = b.shape[0]
    sa_full = sa.repeat_interleave(BLOCK, dim=1)[:, :k]
    sb_full = sb.repeat_interleave(BLOCK, dim=0)[:n].repeat_interleave(BLOCK, dim=1)[:, :k]
    return a.float() * sa_full, b.float() * sb_full


def bench_shape(kernel, m, n, k, args):
    flops = 2.0 * m * n * k
    row = {"m": m, "n": n, "k": k, "flops": flops, "baselines": {}}
    f8, bf16 = torch.float8_e4m3fn, torch.bfloat16
    a = (torch.randn(m, k, device="cuda") * 2).to(f8)
    b = (torch.randn(n, k, device="cuda") * 2).to(f8)
    kb = -(-k // BLOCK)
    sa = torch.rand(m, kb, device="cuda") * 0.02 + 0.001
    sb = torch.rand(-(-n // BLOCK), kb, device="cuda") * 0.02 + 0.001
    c = torch.full((m, n), float("nan"), device="cuda", dtype=bf16)

    kernel((a, sa), (b, sb), out=c)
    torch.cuda.synchronize()
    a32, b32 = dequantized(a, sa, b, sb)
    ref = a32 @ b32.T
    row["kiln_rel_err"] = err = relative_error(c, ref)
    if not err < TOLERANCE:
        row["error"] = f"Kiln's result is wrong: relative error {err:.3e} (tolerance {TOLERANCE})"
        return row

    def scaled_mm():
        sa_outer = sa.t().contiguous().t()
        return lambda: F.scaled_mm(a, b.T, sa_outer, F.ScalingType.BlockWise1x128, sb.T,
                                   F.ScalingType.BlockWise128x128, output_dtype=bf16)

    def bf16_matmul():
        a16, b16 = a32.to(bf16), b32.to(bf16)
        return lambda: a16 @ b16.T

    baselines = {"F.scaled_mm blockwise": scaled_mm, "bf16 matmul": bf16_matmul}
    time_against_baselines(row, lambda: kernel((a, sa), (b, sb), out=c), baselines, ref,
                           args.iters)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="bench_fp8_blockwise.json")
    parser.add_argument("--iters", type=int, default=60)
    parser.add_argument("--quick", action="store_true", help="4096^3 and 4096x14336x4096")
    parser.add_argument("--shapes", help="MxNxK,... instead of the default shapes")
    args = parser.parse_args()

    kernels = {name: load_kernel(artifact(name))
               for name in ("gemm_fp8_blockwise", "fp8_blockwise")}
    shapes = parse_shapes(args.shapes) if args.shapes else QUICK_SHAPES if args.quick else SHAPES
    results = {}
    for name, kernel in kernels.items():
        rows = []
        for m, n, k in shapes:
            row = bench_shape(kernel, m, n, k, args)
            row["entry"] = kernel.last_entry
            rows.append(row)
            print_row(f"{name} {m}x{n}x{k}", row, BASELINES)
            torch.cuda.empty_cache()
        results[name] = rows
    with open(args.out, "w") as f:
        json.dump(dict(environment(), flops_per_launch="2*M*N*K", iters=args.iters,
                       baselines=BASELINES, kernels=results), f, indent=2)
    return 1 if any("kiln_tflops" not in r for rows in results.values() for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
