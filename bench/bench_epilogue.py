#!/usr/bin/env python3
"""Kiln's linear layer with a fused bias + ReLU + residual epilogue vs torch, bf16.

y = relu(x @ w^T + bias) + r (test/gpu/kernels/linear_bias_residual.kiln) against eager
`F.relu(F.linear(x, w, bias)) + r` (cuBLAS with its bias epilogue, then two pointwise
kernels) and torch.compile of the same (compiled once per shape, dynamic=False, warmed up
before capture). Kiln's result is checked against a float32 reference first (relative error
< 1e-2). Timing as in bench_matmul.py (common.time_interleaved). TFLOP/s = 2*M*N*K / time.
Writes JSON (and a plot with --plot).
"""
import argparse
import json

import torch
import torch.nn.functional as F

from common import (artifact, bar_plot, environment, load_kernel, parse_shapes, print_row,
                    relative_error, time_against_baselines)

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]
QUICK_SHAPES = SHAPES[:1]
BASELINES = ["torch.compile", "eager"]
TOLERANCE = 1e-2


def linear_bias_residual(x, w, bias, r):
    return F.relu(F.linear(x, w, bias)) + r


def bench_shape(kernel, m, n, k, args):
    flops = 2.0 * m * n * k
    row = {"m": m, "n": n, "k": k, "flops": flops, "baselines": {}}
    bf16 = torch.bfloat16
    x = (torch.randn(m, k, device="cuda") * k ** -0.25).to(bf16)
    w = (torch.randn(n, k, device="cuda") * k ** -0.25).to(bf16)
    bias = (torch.randn(n, device="cuda") * 0.5).to(bf16)
    r = torch.randn(m, n, device="cuda").to(bf16)
    y = torch.full((m, n), float("nan"), device="cuda", dtype=bf16)

    kernel(x, w, bias, r, out=y)
    torch.cuda.synchronize()
    ref = F.relu(x.float() @ w.float().T + bias.float()) + r.float()
    row["kiln_rel_err"] = err = relative_error(y, ref)
    if not err < TOLERANCE:
        row["error"] = f"Kiln's result is wrong: relative error {err:.3e} (tolerance {TOLERANCE})"
        return row

    def compiled():
        torch._dynamo.reset()
        c = torch.compile(linear_bias_residual, dynamic=False)
        return lambda: c(x, w, bias, r)

    baselines = {
        "torch.compile": "skipped (--no-compile)" if args.no_compile else compiled,
        "eager": lambda: lambda: linear_bias_residual(x, w, bias, r),
    }
    time_against_baselines(row, lambda: kernel(x, w, bias, r, out=y), baselines, ref, args.iters)
    return row


def main():
    parser = argparse.ArgumentParser(description="Kiln linear+bias+relu+residual vs torch (bf16)")
    parser.add_argument("--artifact", default=artifact("linear_bias_residual"))
    parser.add_argument("--out", default="bench_epilogue.json")
    parser.add_argument("--plot", default="", help="PNG path (default: no plot)")
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="only 4096^3")
    parser.add_argument("--shapes", help="MxNxK,... instead of the default shapes")
    parser.add_argument("--no-compile", action="store_true", help="skip the torch.compile baseline")
    args = parser.parse_args()

    kernel = load_kernel(args.artifact)
    shapes = parse_shapes(args.shapes) if args.shapes else QUICK_SHAPES if args.quick else SHAPES
    rows = []
    for m, n, k in shapes:
        row = bench_shape(kernel, m, n, k, args)
        rows.append(row)
        print_row(f"{m}x{n}x{k}", row, BASELINES)
        torch.cuda.empty_cache()

    result = dict(environment(), kernel=args.artifact, flops_per_launch="2*M*N*K",
                  iters=args.iters, baselines=BASELINES, rows=rows)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    if args.plot:
        series = {"Kiln": [r.get("kiln_tflops") for r in rows]}
        for name in BASELINES:
            series[name] = [r.get("baselines", {}).get(name, {}).get("tflops") for r in rows]
        bar_plot(args.plot, [f"{r['m']}x{r['n']}x{r['k']}" for r in rows], series,
                 "TFLOP/s (bf16)", f"linear + bias + relu + residual on {result['device']}")
    return 1 if any("kiln_tflops" not in r for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
