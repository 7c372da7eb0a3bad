#!/usr/bin/env python3
"""What a row or column reduction of the product costs beside the GEMM, bf16 in, f32 out.

`y = x @ w^T` with `r = sum(f32(y), axis = -1)` (test/gpu/kernels/gemm_row_sum.kiln) and with
`c = sum(f32(y), axis = -2)` (gemm_col_sum.kiln), each against the plain Kiln GEMM
(examples/matmul.kiln: what the fused reduction adds) and against what a framework runs:
`y = x @ w.T; y.float().sum(dim)` eagerly and under torch.compile (compiled once per shape). Each
result is checked against a float32 reference first. Timing as in the other benchmarks
(common.time_interleaved: CUDA-graph replays, interleaved rounds, medians), in microseconds per
launch; the ratios are each contender's time over the fused kernel's. Writes JSON.
"""
import argparse
import json

import torch

from common import artifact, environment, load_kernel, parse_shapes, relative_error, short, \
    time_interleaved

SHAPES = [(4096, 4096, 4096), (4096, 14336, 4096), (16, 4096, 4096), (8192, 8192, 8192)]
QUICK_SHAPES = SHAPES[:3]
REDUCTIONS = {"row": ("gemm_row_sum", -1), "col": ("gemm_col_sum", 0)}


def bench_shape(kernels, matmul, m, n, k, args):
    bf16 = torch.bfloat16
    x = (torch.randn(m, k, device="cuda") * k ** -0.25).to(bf16)
    w = (torch.randn(n, k, device="cuda") * k ** -0.25).to(bf16)
    y = torch.full((m, n), float("nan"), device="cuda", dtype=bf16)
    row = {"m": m, "n": n, "k": k, "reductions": {}}
    for name, (kernel, dim) in kernels.items():
        out = torch.full((m,) if dim == -1 else (n,), float("nan"), device="cuda")
        entry = row["reductions"][name] = {}
        kernel(x, w, out=(y, out))
        torch.cuda.synchronize()
        entry["y_rel_err"] = relative_error(y, x.float() @ w.float().T)
        entry["rel_err"] = relative_error(out, y.float().sum(dim=dim))
        if not (entry["y_rel_err"] < 1e-2 and entry["rel_err"] < 1e-5):
            entry["error"] = f"Kiln's result is wrong: y {entry['y_rel_err']:.2e}, " \
                             f"{name} sum {entry['rel_err']:.2e}"
            continue

        def torch_fn(dim=dim):
            yy = x @ w.T
            return yy, yy.float().sum(dim=dim)

        fns = {"kiln": lambda kernel=kernel, out=out: kernel(x, w, out=(y, out)),
               "kiln matmul alone": lambda: matmul(x, w, out=y),
               "eager": torch_fn}
        if not args.no_compile:
            torch._dynamo.reset()
            compiled = torch.compile(torch_fn, dynamic=False)
            try:
                got = compiled()[1]
                torch.cuda.synchronize()
                entry["torch.compile_rel_err"] = relative_error(got, y.float().sum(dim=dim))
                fns["torch.compile"] = compiled
            except Exception as e:  # noqa: BLE001  (a failing baseline is reported)
                entry["torch.compile"] = short(f"{type(e).__name__}: {e}")
        medians, errors = time_interleaved(fns, args.iters)
        if "kiln" not in medians:
            entry["error"] = f"timing Kiln failed: {errors.get('kiln')}"
            continue
        entry["us"] = {name: 1e3 * t for name, t in medians.items()}
        entry["over_fused"] = {name: t / medians["kiln"] for name, t in medians.items()}
        entry["timing_errors"] = errors
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="bench_reductions.json")
    parser.add_argument("--iters", type=int, default=60)
    parser.add_argument("--quick", action="store_true", help="the first three shapes")
    parser.add_argument("--shapes", help="MxNxK,... instead of the default shapes")
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    args = parser.parse_args()

    kernels = {name: load_kernel(artifact(kernel)) for name, (kernel, _) in REDUCTIONS.items()}
    kernels = {name: (kernel, REDUCTIONS[name][1]) for name, kernel in kernels.items()}
    matmul = load_kernel(artifact("matmul"))
    shapes = parse_shapes(args.shapes) if args.shapes else QUICK_SHAPES if args.quick else SHAPES
    rows = []
    for m, n, k in shapes:
        row = bench_shape(kernels, matmul, m, n, k, args)
        rows.append(row)
        for name, entry in row["reductions"].items():
            if "error" in entry:
                print(f"{m}x{n}x{k} {name}: {entry['error']}", flush=True)
                continue
            us = entry["us"]
            others = "  ".join(f"{c} {t:8.1f} ({entry['over_fused'][c]:.3f}x)"
                               for c, t in us.items() if c != "kiln")
            print(f"{m}x{n}x{k} {name} sum: fused {us['kiln']:8.1f} us  {others}", flush=True)
        torch.cuda.empty_cache()
    with open(args.out, "w") as f:
        json.dump(dict(environment(), iters=args.iters, rows=rows), f, indent=2)
    return 1 if any("error" in e for r in rows for e in r["reductions"].values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
