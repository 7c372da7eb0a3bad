#!/usr/bin/env python3
"""Kiln matmul vs cuBLAS over the GEMM shape grid (issue 20's), bf16 and fp16, in one process.

Grid: M in {1, 16, 64, 128, 256, 512, 1024, 4096} x (N, K) in {(4096, 4096), (14336, 4096),
(4096, 14336), (28672, 8192)}, plus the squares 1024..8192. C = A @ B^T with B stored [N, K]
(nn.Linear weights), the examples/matmul.kiln kernel (and test/gpu/kernels/matmul_f16.kiln for
fp16), each launch choosing its entry (the runtime's variant choice).

Timing is triton's do_bench method, which is how decode GEMMs are usually quoted: before every
sample the L2 is flushed (a 256 MB buffer zeroed), then CUDA events around one launch. The
flush keeps the GPU busy longer than either caller needs to issue its launch, so host overhead
is hidden for both, and the weights come from device memory as in a model's forward pass.
Medians of interleaved rounds. With --model every entry is also timed pinned, which checks the runtime's variant choice (the
chosen entry's time over the fastest's). A same-run device copy gives the bandwidth ceiling: achieved
bandwidth = (A + B + C bytes) / time, and its fraction of the copy's.

Writes JSON and a heat map (PNG) of the Kiln / cuBLAS speed ratio with each cell's achieved
fraction of the copy bandwidth.
"""
import argparse
import json
import math
import os
import statistics
import sys

import torch

from common import Flushed, environment, kiln, load_kernel

MS = [1, 16, 64, 128, 256, 512, 1024, 4096]
NKS = [(4096, 4096), (14336, 4096), (4096, 14336), (28672, 8192)]
SQUARES = [1024, 2048, 4096, 8192]
QUICK_MS = [1, 16, 128, 1024]


def copy_bandwidth(flushed, samples):
    """Bytes read + written per second by a 1 GiB device-to-device copy (TB/s)."""
    src = torch.empty(512 * 1024 * 1024, dtype=torch.int16, device="cuda")
    dst = torch.empty_like(src)
    ms = flushed.time({"copy": lambda: dst.copy_(src)}, samples)["copy"]
    del src, dst
    return 2 * 1024 ** 3 / ms / 1e9


def relative_error(out, ref):
    return ((out.float() - ref).norm() / ref.norm()).item()


def pinned(kernel, entry, fn):
    """fn with `entry` pinned for its duration (Kernel.pinned_entry)."""
    def run():
        kernel.pinned_entry = entry
        try:
            fn()
        finally:
            kernel.pinned_entry = None
    return run


def measure(kernel, dtype, m, n, k, flushed, samples, model):
    a = torch.randn(m, k, device="cuda", dtype=dtype)
    b = torch.randn(n, k, device="cuda", dtype=dtype)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
    kernel(a, b, out=c)
    ref = a.float() @ b.float().T
    err = relative_error(c, ref)
    entry = kernel.last_entry
    d = torch.empty(m, n, device="cuda", dtype=dtype)
    fns = {"kiln": lambda: kernel(a, b, out=c), "cublas": lambda: torch.matmul(a, b.T, out=d)}
    if model:
        # Every entry pinned in turn (the check of the runtime's cost rule), each checked too.
        for e in kernel.entries:
            pinned(kernel, e, lambda: kernel(a, b, out=c))()
            err = max(err, relative_error(c, ref))
            fns["entry " + e] = pinned(kernel, e, lambda: kernel(a, b, out=c))
    times = flushed.time(fns, samples)
    nbytes = (m * k + n * k + m * n) * a.element_size()
    flops = 2.0 * m * n * k
    row = {"m": m, "n": n, "k": k, "entry": entry, "rel_err": err,
           "kiln_us": times["kiln"] * 1e3, "cublas_us": times["cublas"] * 1e3,
           "ratio": times["cublas"] / times["kiln"],
           "kiln_tbs": nbytes / times["kiln"] / 1e9, "cublas_tbs": nbytes / times["cublas"] / 1e9,
           "kiln_tflops": flops / times["kiln"] / 1e9,
           "cublas_tflops": flops / times["cublas"] / 1e9}
    if model:
        entries = {e: times["entry " + e] * 1e3 for e in kernel.entries}
        best = min(entries, key=entries.get)
        row.update(entries_us=entries, best_entry=best,
                   model_loss=entries[entry] / entries[best])
    return row


def heat_map(path, rows, copy_tbs, dtypes, ms, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(dtypes), figsize=(6.5 * len(dtypes), 0.6 * len(ms) + 2.2),
                             squeeze=False)
    for ax, dtype in zip(axes[0], dtypes):
        grid = [[math.nan] * len(NKS) for _ in ms]
        note = [[""] * len(NKS) for _ in ms]
        for r in rows:
            if r["dtype"] != dtype or (r["n"], r["k"]) not in NKS or r["m"] not in ms:
                continue
            i, j = ms.index(r["m"]), NKS.index((r["n"], r["k"]))
            grid[i][j] = r["ratio"]
            note[i][j] = f"{r['ratio']:.2f}x\n{100 * r['kiln_tbs'] / copy_tbs:.0f}% bw"
        image = ax.imshow(grid, cmap="RdYlGn", vmin=0.7, vmax=1.3, aspect="auto")
        for i in range(len(ms)):
            for j in range(len(NKS)):
                ax.text(j, i, note[i][j], ha="center", va="center", fontsize=7)
        ax.set_xticks(range(len(NKS)), [f"N {n}\nK {k}" for n, k in NKS], fontsize=8)
        ax.set_yticks(range(len(ms)), [f"M {m}" for m in ms], fontsize=8)
        ax.set_title(f"{dtype}: Kiln / cuBLAS speed (L2 flushed)", fontsize=10)
        fig.colorbar(image, ax=ax, fraction=0.046)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    artifacts = os.environ.get("KILN_ARTIFACTS", ".device-carry/artifacts")
    parser.add_argument("--bf16", default=os.path.join(artifacts, "matmul.kiln.json"))
    parser.add_argument("--f16", default=os.path.join(artifacts, "matmul_f16.kiln.json"))
    parser.add_argument("--dtypes", default="bf16,f16")
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--quick", action="store_true",
                        help=f"M in {QUICK_MS} only, bf16, no squares")
    parser.add_argument("--model", action="store_true",
                        help="also time every entry pinned, to check the runtime's variant "
                             "choice: per point the best entry and the chosen one's loss")
    parser.add_argument("--out", default="bench_gemm_grid.json")
    parser.add_argument("--plot", default="bench_gemm_grid.png", help="'' for no plot")
    args = parser.parse_args()

    dtypes = ["bf16"] if args.quick else args.dtypes.split(",")
    ms = QUICK_MS if args.quick else MS
    torch_dtype = {"bf16": torch.bfloat16, "f16": torch.float16}
    kernels = {d: load_kernel(getattr(args, d)) for d in dtypes}
    flushed = Flushed()
    copy_tbs = copy_bandwidth(flushed, args.samples)
    print(f"device copy: {copy_tbs:.2f} TB/s (read + write)", flush=True)

    shapes = [(m, n, k) for m in ms for n, k in NKS]
    if not args.quick:
        shapes += [(s, s, s) for s in SQUARES]
    rows = []
    for dtype in dtypes:
        for m, n, k in shapes:
            r = measure(kernels[dtype], torch_dtype[dtype], m, n, k, flushed, args.samples,
                        args.model)
            r["dtype"] = dtype
            r["kiln_copy_fraction"] = r["kiln_tbs"] / copy_tbs
            r["cublas_copy_fraction"] = r["cublas_tbs"] / copy_tbs
            rows.append(r)
            print(f"{dtype} {m:>5} x {n:>5} x {k:>5}  kiln {r['kiln_us']:8.1f} us "
                  f"({r['kiln_tbs']:.2f} TB/s, {100 * r['kiln_copy_fraction']:3.0f}% copy, "
                  f"{r['kiln_tflops']:6.1f} TFLOP/s, {r['entry']})  cuBLAS {r['cublas_us']:8.1f} us "
                  f"({100 * r['cublas_copy_fraction']:3.0f}% copy)  ratio {r['ratio']:.3f}  "
                  f"err {r['rel_err']:.1e}" +
                  (f"  best {r['best_entry']} (chosen {r['model_loss']:.3f}x its time)"
                   if args.model else ""), flush=True)
    ratios = [r["ratio"] for r in rows]
    geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    worst = min(rows, key=lambda r: r["ratio"])
    print(f"geometric mean {geomean:.3f}x over {len(rows)} points; lowest {worst['ratio']:.3f}x "
          f"at {worst['dtype']} {worst['m']} x {worst['n']} x {worst['k']}")
    if args.model:
        losses = [r["model_loss"] for r in rows]
        missed = [r for r in rows if r["entry"] != r["best_entry"]]
        print(f"variant choice: the fastest entry at {len(rows) - len(missed)} of {len(rows)} "
              f"points; the chosen one takes {statistics.mean(losses):.3f}x the best's time on "
              f"average, {max(losses):.3f}x at worst")
    env = environment()
    with open(args.out, "w") as f:
        json.dump({"environment": env, "copy_tbs": copy_tbs, "geomean": geomean, "rows": rows},
                  f, indent=1)
    if args.plot:
        heat_map(args.plot, rows, copy_tbs, dtypes, ms,
                 f"{env.get('device', '')}: geometric mean {geomean:.3f}x, "
                 f"device copy {copy_tbs:.2f} TB/s")
    bad = [r for r in rows if not r["rel_err"] < 1e-2]
    if bad:
        print(f"FAILED: {len(bad)} results differ from the float32 reference", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
