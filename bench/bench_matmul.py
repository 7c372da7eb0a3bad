#!/usr/bin/env python3
"""Kiln matmul vs torch.matmul (cuBLAS), bf16, in one process.

For each shape: fresh random inputs, warm-up, then the median of >= 100 timed
samples of each (CUDA events around CUDA-graph replays of 10 back-to-back
launches, so host launch overhead is excluded for both; the two are
interleaved so clocks and thermals affect both alike). Prints a table with TFLOP/s and the
Kiln/cuBLAS ratio; writes JSON and a PNG plot.
"""
import argparse
import json
import os
import statistics

import torch

from common import bar_plot, environment, kiln, time_ms

VARIANT_SHAPES = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096)]
SHAPES = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192),
          (4096, 14336, 4096), (16384, 4096, 4096)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--artifact", default=os.path.join(
        os.environ.get("KILN_ARTIFACTS", ".device-carry/artifacts"), "matmul.kiln.json"))
    parser.add_argument("--out", default="bench_matmul.json")
    parser.add_argument("--plot", default="bench_matmul.png")
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--quick", action="store_true",
                        help="only 4096^3, 8192^3 and 4096x14336x4096 (the acceptance shapes)")
    parser.add_argument("--variants", action="store_true",
                        help="also time the schedule variants (bench/variants) at 4096^3, 8192^3")
    args = parser.parse_args()

    matmul = kiln.load(args.artifact)
    quick = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 14336, 4096)]
    shapes = quick if args.quick else SHAPES
    rows = []
    for m, n, k in shapes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        matmul(a, b, out=c)
        ref = torch.matmul(a, b.T)
        err = ((c.float() - ref.float()).norm() / ref.float().norm()).item()
        flops = 2.0 * m * n * k
        kiln_ms, cublas_ms = [], []
        for _ in range(3):  # interleave
            kiln_ms.append(time_ms(lambda: matmul(a, b, out=c), args.iters // 3 + 1, 5))
            cublas_ms.append(time_ms(lambda: torch.matmul(a, b.T, out=c), args.iters // 3 + 1, 5))
        kt, ct = statistics.median(kiln_ms), statistics.median(cublas_ms)
        rows.append({"m": m, "n": n, "k": k, "kiln_ms": kt, "cublas_ms": ct,
                     "kiln_tflops": flops / kt / 1e9, "cublas_tflops": flops / ct / 1e9,
                     "ratio": ct / kt, "rel_err_vs_cublas": err})
        r = rows[-1]
        print(f"{m:>6} x {n:>6} x {k:>6}  kiln {r['kiln_tflops']:7.1f} TFLOP/s  "
              f"cuBLAS {r['cublas_tflops']:7.1f} TFLOP/s  ratio {r['ratio']:.3f}  err {err:.1e}",
              flush=True)
        del a, b, c, ref
    variants = []
    if args.variants:
        folder = os.path.dirname(args.artifact)
        for name in sorted(os.listdir(folder)):
            if not (name.startswith("matmul_") and name.endswith(".kiln.json")):
                continue
            if not os.path.exists(os.path.join(os.path.dirname(__file__), "variants",
                                               name[:-len(".json")])):
                continue
            variant = kiln.load(os.path.join(folder, name))
            for m, n, k in VARIANT_SHAPES:
                a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
                b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
                c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
                t = time_ms(lambda: variant(a, b, out=c), args.iters, 10)
                ct = time_ms(lambda: torch.matmul(a, b.T, out=c), args.iters, 10)
                variants.append({"variant": name, "m": m, "n": n, "k": k,
                                 "tflops": 2.0 * m * n * k / t / 1e9, "ratio": ct / t})
                print(f"variant {name:28} {m}x{n}x{k}  {variants[-1]['tflops']:7.1f} TFLOP/s  "
                      f"ratio {variants[-1]['ratio']:.3f}", flush=True)
    result = dict(environment(), rows=rows, variants=variants)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    bar_plot(args.plot, [f"{r['m']}x{r['n']}x{r['k']}" for r in rows],
             {"Kiln": [r["kiln_tflops"] for r in rows],
              "cuBLAS": [r["cublas_tflops"] for r in rows]},
             "TFLOP/s (bf16)", f"matmul on {result['device']}, {result['date']}")


if __name__ == "__main__":
    main()
