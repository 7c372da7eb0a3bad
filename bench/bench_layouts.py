#!/usr/bin/env python3
"""Weights stored [K, N] against [N, K]: the same product `a @ b` from Kiln's kn_matmul (b [K, N],
read MN-major) and matmul (b^T stored [N, K]), and cuBLAS (torch.matmul) on each layout, timed
interleaved in one process (bench/common.py: CUDA-graph replays, medians).

    bench_layouts.py [--shapes 4096x4096x4096,...] [--iters 60]

Prints TFLOP/s and the [K, N] / [N, K] speed ratio of Kiln (issue: >= 0.98x).
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from common import artifact, load_kernel, parse_shapes, relative_error, time_interleaved  # noqa: E402

SHAPES = "4096x4096x4096,8192x8192x8192,4096x14336x4096,512x4096x4096,2048x2048x2048"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", default=SHAPES)
    parser.add_argument("--iters", type=int, default=60)
    args = parser.parse_args()
    kn, nk = load_kernel(artifact("kn_matmul")), load_kernel(artifact("matmul"))
    status = 0
    for m, n, k in parse_shapes(args.shapes):
        torch.manual_seed(0)
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
        bt = b.T.contiguous()
        ref = a.float() @ b.float()
        c1 = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        c2, c3, c4 = torch.empty_like(c1), torch.empty_like(c1), torch.empty_like(c1)
        kn(a, b, out=c1)
        nk(a, bt, out=c2)
        torch.cuda.synchronize()
        for name, out in (("kiln [K,N]", c1), ("kiln [N,K]", c2)):
            err = relative_error(out, ref)
            if not err < 1e-2:
                print(f"{name}: relative error {err:.2e} at {m}x{n}x{k}: WRONG")
                status = 1
        fns = {"kiln [K,N]": lambda: kn(a, b, out=c1),
               "kiln [N,K]": lambda: nk(a, bt, out=c2),
               "cuBLAS [K,N]": lambda: torch.matmul(a, b, out=c3),
               "cuBLAS [N,K]": lambda: torch.matmul(a, bt.T, out=c4)}
        medians, errors = time_interleaved(fns, args.iters)
        flops = 2.0 * m * n * k
        cells = [f"{name} {flops / medians[name] / 1e9:6.1f}" if name in medians
                 else f"{name} failed: {errors.get(name)}" for name in fns]
        ratio = medians["kiln [N,K]"] / medians["kiln [K,N]"]
        vs = medians["cuBLAS [K,N]"] / medians["kiln [K,N]"]
        print(f"{m:>5}x{n}x{k}  " + "  ".join(cells) +
              f"  [K,N]/[N,K] {ratio:.3f}x  [K,N] vs cuBLAS {vs:.3f}x", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
