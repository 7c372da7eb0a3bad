#!/usr/bin/env python3
"""Kiln's grouped GEMM (mixture of experts) vs what PyTorch users run, bf16, in one process.

y = grouped(x, offsets) @ w^T: rows offsets[e] .. offsets[e+1] of x [T, K] times expert e's
weight w[e] ([N, K], nn.Linear's layout); the offsets stay on the device. Baselines:

- `torch._grouped_mm(x, w.transpose(-2, -1), offs=offsets[1:])` (CUTLASS grouped kernels; its
  offsets are the groups' int32 end rows, on the device);
- loop: one cuBLAS matmul per expert over host-side offsets (shown where there are few experts;
  its host loop is inside the timed graph, so only its GPU time counts).

And the MoE up-projection as one kernel (examples/moe_swiglu.kiln) against two
`_grouped_mm` calls and a `torch.compile`d SwiGLU of their results.

Each shape draws fresh inputs, checks Kiln against a float32 reference (relative error < 1e-2;
a failing shape is not timed and makes the exit status 1), then times every contender as
bench_matmul.py does (common.time_interleaved: CUDA-graph replays of 10 launches, medians of
interleaved rounds). TFLOP/s count 2 * T * N * K (4 * T * N * K for SwiGLU), T the routed
tokens. Prints a table, writes JSON and a PNG plot.
"""
import argparse
import json

import torch
import torch.nn.functional as F

from common import (artifact, bar_plot, environment, load_kernel, relative_error,
                    time_against_baselines)

# (name, experts, tokens per expert or None for skewed, total tokens, N, K, swiglu)
CASES = [
    ("64x256 uniform", 64, "uniform", 64 * 256, 2816, 2048, False),
    ("64x256 skewed", 64, "skewed", 64 * 256, 2816, 2048, False),
    ("128x128 uniform", 128, "uniform", 128 * 128, 1536, 4096, False),
    ("8x4096 uniform", 8, "uniform", 8 * 4096, 4096, 7168, False),
    ("swiglu 64x256", 64, "uniform", 64 * 256, 1408, 2048, True),
    ("swiglu 64x256 skewed", 64, "skewed", 64 * 256, 1408, 2048, True),
]
TOLERANCE = 1e-2


def counts_of(experts, routing, tokens, seed=0):
    if routing == "uniform":
        return [tokens // experts] * experts
    # The same routing in every run (the Dirichlet draw uses the global generator).
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        p = torch.distributions.Dirichlet(torch.full((experts,), 0.3)).sample()
        return torch.multinomial(p, tokens, replacement=True).bincount(
            minlength=experts).tolist()


def grouped_reference(x, w, counts):
    out, row = [], 0
    for e, c in enumerate(counts):
        out.append(x[row:row + c].float() @ w[e].float().T)
        row += c
    return torch.cat(out)


def loop_mm(x, w, bounds, y):
    for e, (b, end) in enumerate(bounds):
        if end > b:
            torch.matmul(x[b:end], w[e].T, out=y[b:end])
    return y


def swiglu_fn(a, b):
    return F.silu(a) * b


def bench_case(kernels, case, args):
    name, experts, routing, tokens, n, k, swiglu = case
    counts = counts_of(experts, routing, tokens)
    t = sum(counts)
    flops = (4.0 if swiglu else 2.0) * t * n * k
    row = {"case": name, "experts": experts, "tokens": t, "n": n, "k": k, "flops": flops,
           "counts_max": max(counts), "counts_min": min(counts), "baselines": {}}
    scale = k ** -0.25
    x = (torch.randn(t, k, device="cuda") * scale).to(torch.bfloat16)
    offsets = torch.tensor([0] + torch.tensor(counts).cumsum(0).tolist(), dtype=torch.int32,
                           device="cuda")
    ends = offsets[1:]
    y = torch.full((t, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    if swiglu:
        w1 = (torch.randn(experts, n, k, device="cuda") * scale).to(torch.bfloat16)
        w2 = (torch.randn(experts, n, k, device="cuda") * scale).to(torch.bfloat16)
        kernel = kernels["moe_swiglu"]
        kernel(x, w1, w2, offsets, out=y)
        torch.cuda.synchronize()
        ref = F.silu(grouped_reference(x, w1, counts)) * grouped_reference(x, w2, counts)
        run = lambda: kernel(x, w1, w2, offsets, out=y)  # noqa: E731

        def compiled():
            torch._dynamo.reset()
            act = torch.compile(swiglu_fn, dynamic=False)

            def fn():
                a = torch._grouped_mm(x, w1.transpose(-2, -1), offs=ends)
                b = torch._grouped_mm(x, w2.transpose(-2, -1), offs=ends)
                return act(a, b)
            return fn
        baselines = {"2x _grouped_mm + compiled swiglu": compiled}
    else:
        w = (torch.randn(experts, n, k, device="cuda") * scale).to(torch.bfloat16)
        kernel = kernels["moe_grouped"]
        kernel(x, w, offsets, out=y)
        torch.cuda.synchronize()
        ref = grouped_reference(x, w, counts)
        run = lambda: kernel(x, w, offsets, out=y)  # noqa: E731
        bounds = list(zip(offsets[:-1].tolist(), offsets[1:].tolist()))
        ly = torch.empty_like(y)
        baselines = {
            "_grouped_mm": lambda: lambda: torch._grouped_mm(x, w.transpose(-2, -1), offs=ends),
            "loop": (lambda: lambda: loop_mm(x, w, bounds, ly)) if experts <= 16
            else "skipped (more than 16 experts)",
        }
    err = relative_error(y, ref)
    row["kiln_rel_err"] = err
    if not err < TOLERANCE:
        row["error"] = f"Kiln's result is wrong: relative error {err:.3e}"
        return row, list(baselines)
    medians = time_against_baselines(row, run, baselines, ref, args.iters)
    timed = [b for b in baselines if b in medians]
    if "kiln" in medians and timed:
        fastest = min(timed, key=lambda b: medians[b])
        row["best_torch"] = fastest
        row["kiln_speedup_vs_best"] = medians[fastest] / medians["kiln"]
    return row, list(baselines)


def main():
    parser = argparse.ArgumentParser(description="Kiln grouped GEMM vs torch (bf16)")
    parser.add_argument("--artifacts", default=None,
                        help="directory of moe_grouped / moe_swiglu manifests")
    parser.add_argument("--out", default="bench_grouped.json")
    parser.add_argument("--plot", default="bench_grouped.png")
    parser.add_argument("--iters", type=int, default=60)
    parser.add_argument("--cases", help="comma-separated case numbers (0-based) to run")
    args = parser.parse_args()

    def path(name):
        return f"{args.artifacts}/{name}.kiln.json" if args.artifacts else artifact(name)
    kernels = {name: load_kernel(path(name)) for name in ("moe_grouped", "moe_swiglu")}
    cases = [CASES[int(i)] for i in args.cases.split(",")] if args.cases else CASES
    rows = []
    for case in cases:
        row, names = bench_case(kernels, case, args)
        rows.append(row)
        if "kiln_tflops" in row:
            parts = [f"{b} {row['baselines'][b]['tflops']:.1f} "
                     f"({row['baselines'][b]['kiln_speedup']:.2f}x)"
                     if "tflops" in row["baselines"].get(b, {}) else
                     f"{b}: {row['baselines'].get(b, {}).get('error')}" for b in names]
            print(f"{row['case']:>22}  kiln {row['kiln_tflops']:6.1f} TFLOP/s  "
                  + "  ".join(parts) + f"  err {row['kiln_rel_err']:.1e}", flush=True)
        else:
            print(f"{row['case']:>22}  {row.get('error')}", flush=True)
        torch.cuda.empty_cache()
    result = dict(environment(), flops="2*T*N*K (4*T*N*K for SwiGLU)", iters=args.iters,
                  rows=rows)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    series = {"Kiln": [r.get("kiln_tflops") for r in rows],
              "best torch": [r["kiln_tflops"] / r["kiln_speedup_vs_best"]
                             if "kiln_speedup_vs_best" in r else None for r in rows]}
    bar_plot(args.plot, [r["case"] for r in rows], series, "TFLOP/s (bf16)",
             f"Grouped GEMM on {result['device']}, {result['date']}")
    failed = [r["case"] for r in rows if "kiln_tflops" not in r]
    if failed:
        print("Kiln failed at " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
