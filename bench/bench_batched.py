#!/usr/bin/env python3
"""Batched matmul against torch.bmm (cuBLAS) in one process (bench/common.py: CUDA-graph
replays, medians): Kiln's bmm_kn (torch.bmm's layout, b [B, K, N]) and bmm (b [B, N, K]) on the
same product.

    bench_batched.py [--shapes B:MxNxK,...] [--iters 60]
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from common import artifact, load_kernel, relative_error, time_interleaved  # noqa: E402

SHAPES = "32:1024x1024x128,8:4096x4096x4096,64:512x512x64,16:2048x2048x512"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", default=SHAPES)
    parser.add_argument("--iters", type=int, default=60)
    args = parser.parse_args()
    kn, nk = load_kernel(artifact("bmm_kn")), load_kernel(artifact("bmm"))
    status = 0
    for item in args.shapes.split(","):
        batch, dims = item.split(":")
        b = int(batch)
        m, n, k = (int(x) for x in dims.split("x"))
        torch.manual_seed(0)
        a = torch.randn(b, m, k, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(b, k, n, device="cuda", dtype=torch.bfloat16)
        wt = w.transpose(1, 2).contiguous()
        ref = a.float() @ w.float()
        c1 = torch.empty(b, m, n, device="cuda", dtype=torch.bfloat16)
        c2, c3 = torch.empty_like(c1), torch.empty_like(c1)
        kn(a, w, out=c1)
        nk(a, wt, out=c2)
        torch.cuda.synchronize()
        for name, out in (("bmm_kn", c1), ("bmm", c2)):
            err = relative_error(out, ref)
            if not err < 1e-2:
                print(f"{name}: relative error {err:.2e} at {item}: WRONG")
                status = 1
        entry = kn.last_entry

        def primary():
            # The default tile alone (what ran before batched kernels had variants).
            kn.pinned_entry = kn.entries[0]
            try:
                kn(a, w, out=c1)
            finally:
                kn.pinned_entry = None

        fns = {"kiln [B,K,N]": lambda: kn(a, w, out=c1),
               "kiln [B,N,K]": lambda: nk(a, wt, out=c2),
               "torch.bmm": lambda: torch.bmm(a, w, out=c3)}
        if entry != kn.entries[0]:
            fns["kiln [B,K,N] default tile"] = primary
        medians, errors = time_interleaved(fns, args.iters)
        flops = 2.0 * b * m * n * k
        cells = [f"{name} {flops / medians[name] / 1e9:6.1f}" if name in medians
                 else f"{name} failed: {errors.get(name)}" for name in fns]
        ratios = [f"{name} {medians['torch.bmm'] / medians[name]:.3f}x"
                  for name in ("kiln [B,K,N]", "kiln [B,N,K]") if name in medians]
        print(f"B={b:<3} {m}x{n}x{k}  " + "  ".join(cells) + "  vs torch.bmm: " +
              ", ".join(ratios) + f"  [{entry}]", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
