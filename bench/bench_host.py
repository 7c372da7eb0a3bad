#!/usr/bin/env python3
"""Host time per call from Python: torch.matmul, Kiln kernel calls (with `out=`, which reuse a
cached prepared launch, and without, which allocate the output: the first call of a configuration
checks everything in Python, later ones only allocate and launch) and a
prepared launch (`kernel.prepare`), on a tiny matmul whose GPU time is below the host's, in one
process.

    bench_host.py [--shape 128x128x128] [--calls 400] [--reps 30]

Each sample issues `calls` launches back to back and takes the host time to issue them (the
queue never fills: calls stay below the driver's launch queue); the median over `reps` samples
is reported per call, in microseconds, and as a ratio to torch.matmul (issue: a prepared launch at
<= 1.0x torch.matmul's host time).
"""
import argparse
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(__file__))
from common import artifact, load_kernel  # noqa: E402


def per_call_us(fn, calls, reps):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
        torch.cuda.synchronize()
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shape", default="128x128x128")
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--reps", type=int, default=30)
    args = parser.parse_args()
    m, n, k = (int(x) for x in args.shape.split("x"))
    kernel = load_kernel(artifact("matmul"))
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    c1, c2, c3 = (torch.empty(m, n, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    prepared = kernel.prepare(a, b, out=c3)
    bt = b.T
    fns = {"torch.matmul": lambda: torch.matmul(a, bt, out=c1),
           "torch.matmul, new output": lambda: torch.matmul(a, bt),
           "kiln call": lambda: kernel(a, b, out=c2),
           "kiln call, new output": lambda: kernel(a, b),
           "kiln prepared": prepared}
    # Interleaved rounds, as the GPU benchmarks do: clocks and caches affect all alike.
    results = {name: [] for name in fns}
    for _ in range(3):
        for name, fn in fns.items():
            results[name].append(per_call_us(fn, args.calls, args.reps))
    torch_us = statistics.median(results["torch.matmul"])
    ref = a.float() @ b.float().T
    for out in (c2, c3):
        err = ((out.float() - ref).norm() / ref.norm()).item()
        if not err < 1e-2:
            print(f"relative error {err:.2e}: WRONG")
            return 1
    for name, samples in results.items():
        us = statistics.median(samples)
        print(f"{name:22s} {us:6.2f} us per call  ({us / torch_us:.2f}x torch.matmul)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
