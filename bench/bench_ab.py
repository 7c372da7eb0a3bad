#!/usr/bin/env python3
"""A/B timing of several builds of one kernel in one process (before/after a change).

    bench_ab.py matmul a.kiln.json b.kiln.json [--shapes 4096x4096x4096,...]
    bench_ab.py swiglu a.kiln.json b.kiln.json [--shapes ...]
    bench_ab.py epilogue a.kiln.json b.kiln.json [--shapes ...]

Each artifact computes the same function (matmul: a @ b.T; swiglu: silu(x @ w1.T) *
(x @ w2.T); epilogue: relu(x @ w.T + bias) + r); every one is checked against a float32 reference, then all of them and
the usual baseline (cuBLAS via torch.matmul, or torch.compile of the SwiGLU) are timed
interleaved (bench/common.py: CUDA-graph replays, medians). Prints TFLOP/s per artifact
and its ratio to the first one, so a change is measured against its predecessor on the
same GPU in the same run.
"""
import argparse
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from common import load_kernel, parse_shapes, relative_error, time_interleaved  # noqa: E402

DEFAULT_SHAPES = {
    "matmul": "4096x4096x4096,8192x8192x8192,4096x14336x4096",
    "swiglu": "4096x14336x4096,8192x8192x4096,256x14336x4096",
    "epilogue": "4096x4096x4096,8192x8192x8192",
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=sorted(DEFAULT_SHAPES))
    parser.add_argument("artifacts", nargs="+")
    parser.add_argument("--shapes")
    parser.add_argument("--iters", type=int, default=100)
    args = parser.parse_args()
    kernels = {os.path.basename(p).replace(".kiln.json", ""): load_kernel(p) for p in args.artifacts}
    names = list(kernels)
    status = 0
    for m, n, k in parse_shapes(args.shapes or DEFAULT_SHAPES[args.kind]):
        torch.manual_seed(0)
        if args.kind == "matmul":
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
            inputs, ref = (a, b), a.float() @ b.float().T
            flops = 2.0 * m * n * k
            c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            baseline = ("cuBLAS", lambda: torch.matmul(a, b.T, out=c))
        elif args.kind == "epilogue":
            scale = k ** -0.25
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16) * scale
            w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16) * scale
            bias = (torch.randn(n, device="cuda") * 0.5).to(torch.bfloat16)
            r = torch.randn(m, n, device="cuda", dtype=torch.bfloat16)
            inputs = (x, w, bias, r)
            ref = F.relu(x.float() @ w.float().T + bias.float()) + r.float()
            flops = 2.0 * m * n * k
            compiled = torch.compile(lambda x, w, bias, r: F.relu(F.linear(x, w, bias)) + r,
                                     dynamic=False)
            baseline = ("torch.compile", lambda: compiled(x, w, bias, r))
        else:
            scale = k ** -0.25
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16) * scale
            w1 = torch.randn(n, k, device="cuda", dtype=torch.bfloat16) * scale
            w2 = torch.randn(n, k, device="cuda", dtype=torch.bfloat16) * scale
            inputs = (x, w1, w2)
            ref = F.silu(x.float() @ w1.float().T) * (x.float() @ w2.float().T)
            flops = 4.0 * m * n * k
            compiled = torch.compile(lambda x, w1, w2: F.silu(x @ w1.T) * (x @ w2.T), dynamic=False)
            baseline = ("torch.compile", lambda: compiled(x, w1, w2))
        fns = {}
        for name, kernel in kernels.items():
            out = torch.full_like(ref, float("nan"), dtype=torch.bfloat16)
            kernel(*inputs, out=out)
            torch.cuda.synchronize()
            err = relative_error(out, ref)
            if not err < 1e-2:
                print(f"{name}: relative error {err:.2e} at {m}x{n}x{k}: WRONG")
                status = 1
            fns[name] = (lambda kernel=kernel, out=out: kernel(*inputs, out=out))
        fns[baseline[0]] = baseline[1]
        medians, errors = time_interleaved(fns, args.iters)
        cells = []
        for name in names + [baseline[0]]:
            if name in medians:
                tflops = flops / medians[name] / 1e9
                ratio = medians[names[0]] / medians[name] if names[0] in medians else float("nan")
                cells.append(f"{name} {tflops:6.1f} ({ratio:.3f}x)")
            else:
                cells.append(f"{name} failed: {errors.get(name)}")
        print(f"{m:>6}x{n}x{k}  " + "  ".join(cells), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
