#!/usr/bin/env python3
"""Kiln's fp8 GEMM and fp8 SwiGLU with row-wise scales vs torch, e4m3 in, bf16 out.

c = (a @ b^T) * sa * sb (examples/matmul_fp8.kiln: a, b e4m3; sa f32[M, 1], sb f32[N])
against `torch._scaled_mm(a, b.T, scale_a=sa, scale_b=sb.view(1, N), out_dtype=bf16)` (cuBLAS's
fp8 GEMM with row-wise scales, what fp8 inference calls) and, for scale, the bf16 GEMM of
the same shape (cuBLAS via torch.matmul). Kiln's result is checked against a float32
reference first (relative error < 1e-2). Timing as in bench_matmul.py
(common.time_interleaved). TFLOP/s = 2*M*N*K / time. Writes JSON (and a plot with --plot).

The SwiGLU part: y = silu((x @ w1^T) * sx * s1) * ((x @ w2^T) * sx * s2)
(test/gpu/kernels/swiglu_fp8.kiln, one dual-GEMM kernel) against torch.compile and eager of the
same with two `torch._scaled_mm` calls (bf16 out) and the gate; TFLOP/s = 4*M*N*K / time.
"""
import argparse
import json
import os

import torch

from common import (artifact, bar_plot, environment, load_kernel, parse_shapes, print_row,
                    relative_error, time_against_baselines)

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 14336, 4096)]
QUICK_SHAPES = SHAPES[:1] + SHAPES[2:]
BASELINES = ["torch._scaled_mm", "bf16 matmul"]
SWIGLU_SHAPES = [(4096, 14336, 4096), (8192, 8192, 4096), (256, 14336, 4096)]
SWIGLU_BASELINES = ["torch.compile", "eager"]
TOLERANCE = 1e-2


def bench_shape(kernel, m, n, k, args):
    flops = 2.0 * m * n * k
    row = {"m": m, "n": n, "k": k, "flops": flops, "baselines": {}}
    f8, bf16 = torch.float8_e4m3fn, torch.bfloat16
    a = torch.randn(m, k, device="cuda").to(f8)
    b = torch.randn(n, k, device="cuda").to(f8)
    sa = torch.rand(m, 1, device="cuda") * 0.01 + 0.001
    sb = torch.rand(n, device="cuda") * 0.01 + 0.001
    c = torch.full((m, n), float("nan"), device="cuda", dtype=bf16)

    kernel(a, b, sa, sb, out=c)
    torch.cuda.synchronize()
    ref = (a.float() @ b.float().T) * sa * sb
    row["kiln_rel_err"] = err = relative_error(c, ref)
    if not err < TOLERANCE:
        row["error"] = f"Kiln's result is wrong: relative error {err:.3e} (tolerance {TOLERANCE})"
        return row

    def scaled_mm():
        sb_row = sb.view(1, n)
        return lambda: torch._scaled_mm(a, b.T, scale_a=sa, scale_b=sb_row, out_dtype=bf16)

    def bf16_matmul():
        # The same product in bf16, scales folded into the operands.
        a16, b16 = (a.float() * sa).to(bf16), (b.float() * sb[:, None]).to(bf16)
        return lambda: a16 @ b16.T

    baselines = {"torch._scaled_mm": scaled_mm, "bf16 matmul": bf16_matmul}
    time_against_baselines(row, lambda: kernel(a, b, sa, sb, out=c), baselines, ref, args.iters)
    return row


def swiglu_scaled(x, w1, w2, sx, s1, s2):
    bf16 = torch.bfloat16
    g = torch._scaled_mm(x, w1.T, scale_a=sx, scale_b=s1, out_dtype=bf16)
    u = torch._scaled_mm(x, w2.T, scale_a=sx, scale_b=s2, out_dtype=bf16)
    return torch.nn.functional.silu(g) * u


def bench_swiglu_shape(kernel, m, n, k, args):
    flops = 4.0 * m * n * k
    row = {"m": m, "n": n, "k": k, "flops": flops, "baselines": {}}
    f8, bf16 = torch.float8_e4m3fn, torch.bfloat16
    x, w1, w2 = (torch.randn(r, k, device="cuda").to(f8) for r in (m, n, n))
    sx = torch.rand(m, 1, device="cuda") * 0.01 + 0.001
    s1 = torch.rand(n, device="cuda") * 0.01 + 0.001
    s2 = torch.rand(n, device="cuda") * 0.01 + 0.001
    y = torch.full((m, n), float("nan"), device="cuda", dtype=bf16)

    kernel(x, w1, w2, sx, s1, s2, out=y)
    torch.cuda.synchronize()
    ref = (torch.nn.functional.silu((x.float() @ w1.float().T) * sx * s1)
           * ((x.float() @ w2.float().T) * sx * s2))
    row["kiln_rel_err"] = err = relative_error(y, ref)
    if not err < TOLERANCE:
        row["error"] = f"Kiln's result is wrong: relative error {err:.3e} (tolerance {TOLERANCE})"
        return row
    s1r, s2r = s1.view(1, n), s2.view(1, n)

    def compiled():
        torch._dynamo.reset()
        c = torch.compile(swiglu_scaled, dynamic=False)
        return lambda: c(x, w1, w2, sx, s1r, s2r)

    baselines = {"torch.compile": compiled,
                 "eager": lambda: lambda: swiglu_scaled(x, w1, w2, sx, s1r, s2r)}
    time_against_baselines(row, lambda: kernel(x, w1, w2, sx, s1, s2, out=y), baselines, ref,
                           args.iters)
    return row


def main():
    parser = argparse.ArgumentParser(description="Kiln fp8 GEMM (row-wise scales) vs torch._scaled_mm")
    parser.add_argument("--artifact", default=artifact("matmul_fp8"))
    parser.add_argument("--out", default="bench_fp8.json")
    parser.add_argument("--plot", default="", help="PNG path (default: no plot)")
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="only 4096^3 and 4096x14336x4096")
    parser.add_argument("--shapes", help="MxNxK,... instead of the default shapes")
    parser.add_argument("--swiglu-artifact", default=artifact("swiglu_fp8"),
                        help="the fp8 SwiGLU kernel ('' or a missing file: skip that part)")
    args = parser.parse_args()

    kernel = load_kernel(args.artifact)
    shapes = parse_shapes(args.shapes) if args.shapes else QUICK_SHAPES if args.quick else SHAPES
    rows = []
    for m, n, k in shapes:
        rows.append(bench_shape(kernel, m, n, k, args))
        print_row(f"{m}x{n}x{k}", rows[-1], BASELINES)
        torch.cuda.empty_cache()
    swiglu_rows = []
    if args.swiglu_artifact and os.path.exists(args.swiglu_artifact):
        swiglu = load_kernel(args.swiglu_artifact)
        print("fp8 SwiGLU (TFLOP/s = 4*M*N*K / time)", flush=True)
        for m, n, k in (SWIGLU_SHAPES[:1] + SWIGLU_SHAPES[2:] if args.quick else SWIGLU_SHAPES):
            swiglu_rows.append(bench_swiglu_shape(swiglu, m, n, k, args))
            print_row(f"{m}x{n}x{k}", swiglu_rows[-1], SWIGLU_BASELINES)
            torch.cuda.empty_cache()

    result = dict(environment(), kernel=args.artifact, flops_per_launch="2*M*N*K",
                  iters=args.iters, baselines=BASELINES, rows=rows,
                  swiglu=dict(kernel=args.swiglu_artifact, flops_per_launch="4*M*N*K",
                              baselines=SWIGLU_BASELINES, rows=swiglu_rows))
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    if args.plot:
        series = {"Kiln": [r.get("kiln_tflops") for r in rows]}
        for name in BASELINES:
            series[name] = [r.get("baselines", {}).get(name, {}).get("tflops") for r in rows]
        bar_plot(args.plot, [f"{r['m']}x{r['n']}x{r['k']}" for r in rows], series,
                 "TFLOP/s (fp8 e4m3)", f"fp8 GEMM with row-wise scales on {result['device']}")
    return 1 if any("kiln_tflops" not in r for r in rows + swiglu_rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
