#!/usr/bin/env python3
"""A/B timing of several builds of one kernel in one process (before/after a change).

    bench_ab.py matmul a.kiln.json b.kiln.json [--shapes 4096x4096x4096,...]
    bench_ab.py swiglu a.kiln.json b.kiln.json [--shapes ...]
    bench_ab.py epilogue a.kiln.json b.kiln.json [--shapes ...]
    bench_ab.py attention a.kiln.json b.kiln.json [--shapes 4x16x4096x256,...] [--causal]
    bench_ab.py grouped a.kiln.json b.kiln.json [--shapes 64x256x2816x2048s,...]
    bench_ab.py matmul a.kiln.json@a_128x128 a.kiln.json  (an entry pinned; the cost rule's choice)

Each artifact computes the same function (matmul: a @ b.T; swiglu: silu(x @ w1.T) *
(x @ w2.T); epilogue: relu(x @ w.T + bias) + r; attention: softmax(q @ k.T / sqrt(D)) @ v,
causal with --causal, shapes B x H x S x D; grouped: grouped(x, offsets) @ w^T, shapes
experts x tokens per expert x N x K, a trailing "s" for bench_grouped.py's skewed routing of the
same tokens); every one is checked against a float32 reference,
then all of them and the usual baseline (cuBLAS via torch.matmul, torch.compile of the SwiGLU,
cuDNN's scaled_dot_product_attention, torch._grouped_mm) are timed
interleaved (bench/common.py: CUDA-graph replays, medians). Prints TFLOP/s per artifact
and its ratio to the first one, so a change is measured against its predecessor on the
same GPU in the same run. With --control the first artifact is loaded a second time and timed as
one more contender ("NAME again"): the difference between the two copies is the run's noise
floor, which a change must clear (grouped GEMMs under skewed routing moved 0.94-1.07x between
copies of one cubin on an H100, docs/performance.md). With --flush each sample is one launch
after the L2 is flushed (common.Flushed, the GEMM grid's method: bench_gemm_grid.py) instead of
a graph replay of back-to-back launches, so operands come from device memory as in the grid.
"""
import argparse
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.dirname(__file__))
from common import (Flushed, load_kernel, parse_shapes, relative_error,  # noqa: E402
                    time_interleaved)

DEFAULT_SHAPES = {
    "matmul": "4096x4096x4096,8192x8192x8192,4096x14336x4096",
    "swiglu": "4096x14336x4096,8192x8192x4096,256x14336x4096",
    "epilogue": "4096x4096x4096,8192x8192x8192",
    "attention": "4x16x4096x256,1x16x16384x256,16x16x1024x256",
    "grouped": "64x256x2816x2048,64x256x2816x2048s,128x128x1536x4096,8x4096x4096x7168",
}


def grouped_case(shape):
    """Inputs, float32 reference, flops and the torch._grouped_mm baseline of a grouped GEMM
    (experts, tokens per expert, N, K, skewed), with bench_grouped.py's routings."""
    from bench_grouped import counts_of, grouped_reference
    experts, per_expert, n, k, skewed = shape
    counts = counts_of(experts, "skewed" if skewed else "uniform", experts * per_expert)
    t = sum(counts)
    scale = k ** -0.25
    x = (torch.randn(t, k, device="cuda") * scale).to(torch.bfloat16)
    w = (torch.randn(experts, n, k, device="cuda") * scale).to(torch.bfloat16)
    offsets = torch.tensor([0] + torch.tensor(counts).cumsum(0).tolist(), dtype=torch.int32,
                           device="cuda")
    ends = offsets[1:]
    return ((x, w, offsets), grouped_reference(x, w, counts), 2.0 * t * n * k,
            ("_grouped_mm", lambda: torch._grouped_mm(x, w.transpose(-2, -1), offs=ends)))


def parse_grouped_shapes(text):
    return [tuple(int(x) for x in shape.rstrip("s").split("x")) + (shape.endswith("s"),)
            for shape in text.split(",") if shape]


def attention_case(shape, causal):
    """Inputs, float32 reference (of batch entry 0: the whole one does not fit), flops and the
    cuDNN baseline of an attention shape B x H x S x D."""
    b, h, s, d = shape
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    scores = (q[0].float() @ k[0].float().transpose(-1, -2)) / d ** 0.5
    if causal:
        scores.masked_fill_(torch.ones(s, s, device="cuda", dtype=torch.bool).triu(1),
                            float("-inf"))
    ref = torch.softmax(scores, dim=-1) @ v[0].float()
    flops = 4.0 * b * h * s * s * d / (2 if causal else 1)

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return (q, k, v), ref, flops, ("cuDNN", cudnn)


def parse_attention_shapes(text):
    return [tuple(int(x) for x in shape.split("x")) for shape in text.split(",") if shape]


def load_pinned(spec):
    """(name, kernel) of an artifact path, or of PATH@ENTRY: that artifact with every launch
    running ENTRY (one of its variants' entry symbols) instead of the cost rule's choice."""
    path, _, entry = spec.partition("@")
    kernel = load_kernel(path)
    name = os.path.basename(path).replace(".kiln.json", "")
    if entry:
        if entry not in kernel.entries:
            sys.exit(f"{path} has no entry {entry} (entries: {', '.join(kernel.entries)})")
        kernel.pinned_entry = entry
        name += "@" + entry
    return name, kernel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=sorted(DEFAULT_SHAPES))
    parser.add_argument("artifacts", nargs="+")
    parser.add_argument("--shapes")
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--causal", action="store_true", help="attention: the causal mask")
    parser.add_argument("--control", action="store_true",
                        help="also time a second copy of the first artifact (the noise floor)")
    parser.add_argument("--flush", action="store_true",
                        help="one launch per sample after an L2 flush (the GEMM grid's method)")
    args = parser.parse_args()
    flushed = Flushed() if args.flush else None
    kernels = {}
    for spec in args.artifacts + (args.artifacts[:1] if args.control else []):
        name, kernel = load_pinned(spec)
        kernels[name + (" again" if name in kernels else "")] = kernel
    names = list(kernels)
    status = 0
    parse = {"attention": parse_attention_shapes, "grouped": parse_grouped_shapes}.get(
        args.kind, parse_shapes)
    shapes = parse(args.shapes or DEFAULT_SHAPES[args.kind])
    for shape in shapes:
        torch.manual_seed(0)
        label = "x".join(str(x) for x in shape if not isinstance(x, bool))
        if args.kind == "attention":
            inputs, ref, flops, baseline = attention_case(shape, args.causal)
        elif args.kind == "grouped":
            inputs, ref, flops, baseline = grouped_case(shape)
            label += " skewed" if shape[-1] else ""
        elif args.kind == "matmul":
            m, n, k = shape
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
            inputs, ref = (a, b), a.float() @ b.float().T
            flops = 2.0 * m * n * k
            c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            baseline = ("cuBLAS", lambda: torch.matmul(a, b.T, out=c))
        elif args.kind == "epilogue":
            m, n, k = shape
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
            m, n, k = shape
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
            like = inputs[0] if args.kind == "attention" else ref
            out = torch.full_like(like, float("nan"), dtype=torch.bfloat16)
            kernel(*inputs, out=out)
            torch.cuda.synchronize()
            err = relative_error(out[0] if args.kind == "attention" else out, ref)
            if not err < 1e-2:
                print(f"{name}: relative error {err:.2e} at {label}: WRONG")
                status = 1
            fns[name] = (lambda kernel=kernel, out=out: kernel(*inputs, out=out))
        fns[baseline[0]] = baseline[1]
        if flushed:
            medians, errors = flushed.time(fns, args.iters), {}
        else:
            medians, errors = time_interleaved(fns, args.iters)
        cells = []
        for name in names + [baseline[0]]:
            if name in medians:
                tflops = flops / medians[name] / 1e9
                ratio = medians[names[0]] / medians[name] if names[0] in medians else float("nan")
                cells.append(f"{name} {tflops:6.1f} ({ratio:.3f}x)")
            else:
                cells.append(f"{name} failed: {errors.get(name)}")
        print(f"{label:>16}  " + "  ".join(cells), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
