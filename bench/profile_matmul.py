#!/usr/bin/env python3
"""Launches one compiled kernel a few times at one shape, for ncu:

  ncu -k regex:matmul --launch-skip 3 --launch-count 1 --section SpeedOfLight \
      python3 bench/profile_matmul.py out/matmul.kiln.json 4096 4096 4096
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "runtime", "python"))
import kiln  # noqa: E402

path, m, n, k = sys.argv[1], *map(int, sys.argv[2:5])
kernel = kiln.load(path)
a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
for _ in range(5):
    kernel(a, b, out=c)
torch.cuda.synchronize()
print("ran", kernel.last_entry)
