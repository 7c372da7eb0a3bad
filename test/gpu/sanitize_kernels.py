#!/usr/bin/env python3
"""One launch of every compiled kernel at edge shapes, for compute-sanitizer (scripts/gpu_check.sh):

    compute-sanitizer --tool initcheck --error-exitcode 9 python3 test/gpu/sanitize_kernels.py

Launches each artifact `*.kiln.json` in $KILN_ARTIFACTS (default .device-carry/artifacts) once per
shape of `--shapes` (default: 200,300,144 with edge tiles in M, N and K; 1,8,16, one partial tile
smaller than every tile; 257,264,528, several tiles and a K remainder; K a multiple of 16 so fp8
operands have the 16-byte rows TMA needs), binding the dims M, N, K; attention kernels get
S = M queries and T = N keys in 2 batches of 2 heads (B, H, HKV, G = 2; BH = 3); varlen attention
TQ = M packed queries and TK = N keys in B = 2 sequences whose offsets (like every i32 input) are
random in [0, 4): not monotone, which must not send an access outside memory either;
grouped GEMMs (mixture of experts) T = N rows in E = 3 groups, their offsets random the same way.
Inputs are random host tensors copied to the GPU, outputs are allocated by the runtime, and
PyTorch's caching allocator is off, so the only kernels on the GPU are Kiln's and every tensor is
its own allocation (an access past one is an error memcheck sees). Correctness is pytest's job
(test/gpu); this only launches. A shape the runtime refuses for a kernel (an alignment rule) and
a kernel with a dim not bound here or that takes the tensor cores' block-scale atoms (MXFP8, NVFP4) are reported
as SKIP; f32 block scales (fp8 scaled in software) are random tensors like the data. Every entry
of a kernel with variants runs (the runtime would pick the narrow one at these shapes): each is
loaded from a copy of the manifest in which it is the only entry. Exit status: 0 when every launch
completed, 1 when one failed, 2 when nothing was launched.
"""
import argparse
import json
import os
import tempfile
import pathlib
import sys

os.environ["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"  # before torch initializes CUDA

import torch  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "runtime" / "python"))

import kiln  # noqa: E402

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
          "i32": torch.int32, "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}


def extent(expr, dims):
    """The value of a manifest dim expression for `dims` (the runtime's parser, through
    kiln._dimexpr); KeyError for an unbound name."""
    from kiln._dimexpr import DimExpr
    return DimExpr(expr).evaluate(dims)


def entry_manifests(path, directory):
    """(entry, manifest path) for every entry of the manifest at `path`: the manifest itself when
    it has no variants, else one copy per entry with that entry's tensor maps, kernel args and
    launch as the only ones (written to `directory`, next to a link to the cubin)."""
    manifest = json.loads(path.read_text())
    variants = manifest.get("variants", [])
    if not variants:
        return [(manifest["entry"], path)]
    cubin = pathlib.Path(directory) / manifest["cubin"]
    if not cubin.exists():
        cubin.symlink_to(path.parent / manifest["cubin"])
    result = []
    for variant in [None] + variants:
        single = {k: v for k, v in manifest.items() if k != "variants"}
        if variant is not None:
            single.update({k: variant[k] for k in ("entry", "tensor_maps", "kernel_args", "launch")})
        target = pathlib.Path(directory) / (single["entry"] + ".kiln.json")
        target.write_text(json.dumps(single))
        result.append((single["entry"], target))
    return result


def random_input(param, dims):
    shape = [extent(e, dims) for e in param.shape]
    dtype = DTYPES[param.dtype]
    if dtype == torch.int32:
        host = torch.randint(0, 4, shape, dtype=dtype)
    else:
        host = torch.randn(shape).to(dtype)
    return host.cuda()  # a copy, no kernel


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--artifacts", default=os.environ.get(
        "KILN_ARTIFACTS", str(ROOT / ".device-carry" / "artifacts")))
    parser.add_argument("--shapes", default="200,300,144 1,8,16 257,264,528",
                        help="space-separated M,N,K triples")
    parser.add_argument("--only", default="", help="comma-separated kernel names (default: all)")
    args = parser.parse_args()
    shapes = [tuple(int(v) for v in s.split(",")) for s in args.shapes.split()]
    only = set(filter(None, args.only.split(",")))

    torch.manual_seed(0)
    launched, skipped, failed = 0, 0, []
    scratch = tempfile.TemporaryDirectory()
    runs = []
    for path in sorted(pathlib.Path(args.artifacts).glob("*.kiln.json")):
        name = path.name[:-len(".kiln.json")]
        if only and name not in only:
            continue
        runs += [(name, manifest) for _, manifest in entry_manifests(path, scratch.name)]
    for name, path in runs:
        kernel = kiln.load(str(path))
        # f32 block scales (fp8 scaled in software) are plain tensors; the tensor cores' scale
        # atoms (MXFP8, NVFP4) run on sm_100a only.
        if any(p.role == "scale" and p.dtype != "f32" for p in kernel.params):
            print(f"{name}: SKIP, block-scaled inputs are not generated here")
            skipped += 1
            continue
        for m, n, k in shapes:
            dims = {"M": m, "N": n, "K": k, "S": m, "T": n, "B": 2, "H": 2, "HKV": 2, "G": 2,
                    "BH": 3, "TQ": m, "TK": n, "E": 3}
            try:
                inputs = []
                for p in kernel.params:
                    if p.role != "input":
                        continue
                    scales = [random_input(q, dims) for q in kernel.params
                              if q.role == "scale" and q.scale_of == p.name]
                    data = random_input(p, dims)
                    inputs.append((data, *scales) if scales else data)
            except KeyError as e:
                print(f"{name}: SKIP, dim {e} is not one this script binds")
                skipped += 1
                break
            try:
                kernel(*inputs)
            except kiln.KilnError as e:
                print(f"{name} {m}x{n}x{k}: SKIP, the runtime refuses the shape: {e}")
                skipped += 1
                continue
            try:
                torch.cuda.synchronize()
            except RuntimeError as e:
                print(f"{name} {m}x{n}x{k}: FAILED: {e}")
                failed.append(f"{name} {m}x{n}x{k}")
                continue
            launched += 1
            print(f"{name} {m}x{n}x{k} entry {kernel.last_entry}: launched", flush=True)
    print(f"{launched} launches, {skipped} skipped, {len(failed)} failed")
    if failed:
        print("FAILED: " + ", ".join(failed))
        return 1
    return 0 if launched else 2


if __name__ == "__main__":
    sys.exit(main())
