#!/usr/bin/env python3
"""Launches compiled grouped GEMMs a few times at bench_ab.py's grouped shapes, for ncu:

  ncu -k regex:moe_up --launch-skip 2 --launch-count 2 \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum \
      python3 bench/profile_grouped.py a.kiln.json [b.kiln.json ...] \
      --shapes 64x256x2816x2048,64x256x2816x2048s

Every artifact runs on the same inputs (bench_ab.py's grouped_case: seeded routings, `s` for
the skewed one), shape by shape, artifact by artifact, `--launches` times each, so the ncu
report lists the kernels in that order; the results are checked against the float32 reference.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from bench_ab import DEFAULT_SHAPES, grouped_case, parse_grouped_shapes  # noqa: E402
from common import load_kernel, relative_error  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("artifacts", nargs="+")
    parser.add_argument("--shapes", default=DEFAULT_SHAPES["grouped"])
    parser.add_argument("--launches", type=int, default=4)
    args = parser.parse_args()
    kernels = [(os.path.basename(p), load_kernel(p)) for p in args.artifacts]
    for shape in parse_grouped_shapes(args.shapes):
        inputs, ref, _, _ = grouped_case(shape)
        for name, kernel in kernels:
            for _ in range(args.launches):
                y = kernel(*inputs)
            torch.cuda.synchronize()
            print(f"{shape} {name}: relative error {relative_error(y, ref):.1e}", flush=True)


if __name__ == "__main__":
    main()
