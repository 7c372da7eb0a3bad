#!/usr/bin/env python3
"""Kiln's fused SwiGLU (one dual-GEMM kernel) vs what PyTorch users run, bf16, in one process.

y = silu(x @ w1^T) * (x @ w2^T), x [M, K], w1 and w2 [N, K] (nn.Linear weights). Baselines:

- torch.compile of `F.silu(x @ w1.T) * (x @ w2.T)`, compiled once per shape (dynamic=False)
  and warmed up before capture (Inductor: two cuBLAS GEMMs and a fused pointwise kernel);
- merged: one GEMM against the concatenated weight `w12 = cat([w1, w2])` (prepared outside the
  timed region), then `F.silu(h[:, :N]) * h[:, N:]`, what checkpoints with a fused gate/up
  projection do;
- eager: `F.silu(x @ w1.T) * (x @ w2.T)`.

For each shape: fresh random inputs (randn * K^-1/4, so the products have unit variance and
silu sees a sensible range), Kiln's result checked against a float32 reference (relative error
< 1e-2; a shape that fails is not timed and makes the exit status 1), then every contender
timed as bench_matmul.py does (common.time_interleaved: CUDA-graph replays of 10 launches,
median of >= 100 samples in 3 interleaved rounds). A baseline that fails to compile or to be
captured is reported with its error; the others go on. TFLOP/s count 2 GEMMs: 4*M*N*K flops.
Prints a table, writes JSON and a PNG plot.
"""
import argparse
import json

import torch
import torch.nn.functional as F

from common import (artifact, bar_plot, environment, load_kernel, parse_shapes, relative_error,
                    time_against_baselines)

SHAPES = [(4096, 14336, 4096), (8192, 8192, 4096), (256, 14336, 4096), (1024, 14336, 4096),
          (2048, 8192, 4096)]
QUICK_SHAPES = SHAPES[:3]
BASELINES = ["torch.compile", "merged", "eager"]
TOLERANCE = 1e-2


def swiglu_eager(x, w1, w2):
    return F.silu(x @ w1.T) * (x @ w2.T)


def swiglu_merged(x, w12, n):
    h = x @ w12.T
    return F.silu(h[:, :n]) * h[:, n:]


def bench_shape(swiglu, m, n, k, args):
    flops = 4.0 * m * n * k
    row = {"m": m, "n": n, "k": k, "flops": flops, "baselines": {}}
    x = (torch.randn(m, k, device="cuda") * k ** -0.25).to(torch.bfloat16)
    w1 = (torch.randn(n, k, device="cuda") * k ** -0.25).to(torch.bfloat16)
    w2 = (torch.randn(n, k, device="cuda") * k ** -0.25).to(torch.bfloat16)
    y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    w12 = torch.cat([w1, w2])

    swiglu(x, w1, w2, out=y)
    torch.cuda.synchronize()
    ref = F.silu(x.float() @ w1.float().T) * (x.float() @ w2.float().T)
    err = relative_error(y, ref)
    row["kiln_rel_err"] = err
    if not err < TOLERANCE:  # NaN fails too
        row["error"] = f"Kiln's result is wrong: relative error {err:.3e} (tolerance {TOLERANCE})"
        return row

    def compiled():
        torch._dynamo.reset()  # a fresh compilation for this shape
        c = torch.compile(swiglu_eager, dynamic=False)
        return lambda: c(x, w1, w2)

    baselines = {
        "torch.compile": "skipped (--no-compile)" if args.no_compile else compiled,
        "merged": lambda: lambda: swiglu_merged(x, w12, n),
        "eager": lambda: lambda: swiglu_eager(x, w1, w2),
    }
    medians = time_against_baselines(row, lambda: swiglu(x, w1, w2, out=y), baselines, ref,
                                     args.iters)
    if "error" in row:
        return row
    # Which schedule variant the runtime's cost rule launched for this shape.
    row["kiln_entry"] = getattr(swiglu, "last_entry", None)
    kt = medians["kiln"]
    best = [name for name in ("torch.compile", "merged") if name in medians]
    if best:
        fastest = min(best, key=lambda name: medians[name])
        row["best_torch"] = fastest
        row["kiln_speedup_vs_best"] = medians[fastest] / kt
    return row


def label(row):
    return f"{row['m']}x{row['n']}x{row['k']}"


def cell(row, name):
    b = row.get("baselines", {}).get(name, {})
    if "tflops" not in b:
        text = "-" if "error" not in b else (
            "skipped" if b["error"].startswith("skipped") else "error")
        return f"{text:>16}"
    return f"{b['tflops']:7.1f} ({b['kiln_speedup']:5.2f}x)"


def print_table(rows):
    head = f"{'M x N x K':>18} {'Kiln':>7} " + " ".join(f"{n:>16}" for n in BASELINES)
    print("\nTFLOP/s (4*M*N*K flops per launch); (x) = Kiln's speedup over that baseline")
    print(head + f"  {'vs best of compile/merged':>26}")
    for row in rows:
        kiln = f"{row['kiln_tflops']:7.1f}" if "kiln_tflops" in row else f"{'FAIL':>7}"
        best = (f"{row['kiln_speedup_vs_best']:.2f}x ({row['best_torch']})"
                if "kiln_speedup_vs_best" in row else "-")
        print(f"{label(row):>18} {kiln} " + " ".join(cell(row, n) for n in BASELINES)
              + f"  {best:>26}")
    for row in rows:
        if "error" in row:
            print(f"{label(row)}: {row['error']}")
        for name, b in row.get("baselines", {}).items():
            if "error" in b:
                print(f"{label(row)} {name}: {b['error']}")


def main():
    parser = argparse.ArgumentParser(description="Kiln SwiGLU vs torch (bf16)")
    parser.add_argument("--artifact", default=artifact("swiglu"))
    parser.add_argument("--out", default="bench_swiglu.json")
    parser.add_argument("--plot", default="bench_swiglu.png")
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--quick", action="store_true",
                        help="only " + ", ".join("x".join(map(str, s)) for s in QUICK_SHAPES))
    parser.add_argument("--shapes", help="MxNxK,... instead of the default shapes")
    parser.add_argument("--no-compile", action="store_true", help="skip the torch.compile baseline")
    args = parser.parse_args()

    swiglu = load_kernel(args.artifact)
    shapes = parse_shapes(args.shapes) if args.shapes else QUICK_SHAPES if args.quick else SHAPES
    rows = []
    for m, n, k in shapes:
        row = bench_shape(swiglu, m, n, k, args)
        rows.append(row)
        if "kiln_tflops" in row:
            parts = [f"{name} {b['tflops']:.1f}" for name, b in row["baselines"].items()
                     if "tflops" in b]
            print(f"{label(row):>18}  kiln {row['kiln_tflops']:7.1f} TFLOP/s  "
                  f"[{row.get('kiln_entry')}]  ({', '.join(parts)})  "
                  f"err {row['kiln_rel_err']:.1e}", flush=True)
        else:
            print(f"{label(row):>18}  {row.get('error')}", flush=True)
        torch.cuda.empty_cache()
    print_table(rows)

    result = dict(environment(), kernel=args.artifact, flops_per_launch="4*M*N*K",
                  iters=args.iters, baselines=BASELINES, rows=rows)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    series = {"Kiln": [r.get("kiln_tflops") for r in rows]}
    for name in BASELINES:
        series[name] = [r.get("baselines", {}).get(name, {}).get("tflops") for r in rows]
    bar_plot(args.plot, [label(r) for r in rows], series, "TFLOP/s (bf16, 4·M·N·K)",
             f"SwiGLU on {result['device']}, {result['date']}")
    failed = [label(r) for r in rows if "kiln_tflops" not in r]
    if failed:
        print("Kiln failed at " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
