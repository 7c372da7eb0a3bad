#!/usr/bin/env python3
"""One small launch of each fused kernel, for compute-sanitizer (scripts/gpu_check.sh):

    compute-sanitizer --tool memcheck --error-exitcode 9 python3 test/gpu/sanitize_swiglu.py

By default it launches `swiglu` on 200 x 300 x 136 (edge tiles in M, N and K; output rows of
600 bytes, so the direct-store epilogue); `--all` adds every other kernel of fused_cases.py
whose artifact exists, `--shape M,N,K` picks another shape. Only Kiln's kernels run on the
GPU: inputs, references and checks are on the host, and PyTorch's caching allocator is off,
so every tensor is its own allocation and an access past one is an error memcheck sees
(with the cache on, it would land in a neighbouring block). Exit status: 0 when every launched
kernel matched its reference (1e-2 relative error, no NaN left in the poisoned outputs), 1
otherwise, 2 when no artifact was there to launch.
"""
import argparse
import os
import pathlib
import sys

os.environ["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"  # before torch initializes CUDA

import torch  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "runtime" / "python"))

import kiln  # noqa: E402
from fused_cases import ALL, CASES, relative_error, tolerance  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--artifacts", default=os.environ.get(
        "KILN_ARTIFACTS", str(ROOT / ".device-carry" / "artifacts")))
    parser.add_argument("--all", action="store_true", help="every fused kernel, not only swiglu")
    parser.add_argument("--shape", default="200,300,136", help="M,N,K")
    args = parser.parse_args()
    m, n, k = (int(v) for v in args.shape.split(","))
    names = ["swiglu"] + ([x for x in ALL if x != "swiglu"] if args.all else [])

    torch.manual_seed(0)
    launched, failed = 0, []
    for name in names:
        path = pathlib.Path(args.artifacts) / f"{name}.kiln.json"
        if not path.exists():
            print(f"{name}: SKIP, {path} was not built")
            continue
        case = CASES[name]
        kernel = kiln.load(str(path))
        host_inputs = case.inputs(m, n, k, "cpu")
        inputs = [t.cuda() for t in host_inputs]  # copies, no kernels
        outs = [torch.full((m, n), float("nan"), dtype=dtype).cuda() for _, dtype in case.outputs]
        kernel(*inputs, out=outs[0] if len(outs) == 1 else tuple(outs))
        torch.cuda.synchronize()
        launched += 1
        refs = case.reference(*host_inputs)
        for (oname, dtype), out, ref in zip(case.outputs, outs, refs):
            out = out.cpu()
            nan = torch.isnan(out).sum().item()
            err = relative_error(out, ref)
            ok = nan == 0 and err < tolerance(dtype)
            print(f"{name}.{oname} {m}x{n}x{k} entry {kernel.last_entry}: relative error "
                  f"{err:.2e}, {nan} unwritten: {'ok' if ok else 'FAILED'}", flush=True)
            if not ok:
                failed.append(f"{name}.{oname}")
    if failed:
        print("FAILED: " + ", ".join(failed))
        return 1
    if not launched:
        print("nothing launched: no artifact of " + ", ".join(names))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
