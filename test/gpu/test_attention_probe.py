"""The hand-written sm_90a attention program (kernels/attention_probe.mlir) against float32.

The program is pipelined cta IR, not compiled from a .kiln source: it exercises what the
attention lowering will emit (register fragments: cta.frag_map, cta.reduce_rows, cta.convert,
an MMA with its lhs in registers) before the compiler builds such programs itself. It computes
causal (top-left) attention of one head, D = 128, with V as stored ([T, D], read by the P V MMA
as an MN-major rhs). Every check draws new random inputs, poisons the output with NaN and compares
||out - ref|| / ||ref|| with a float32 reference from the same bf16 inputs.
"""
import math

import pytest
import torch

D = 128
# Lengths that are not multiples of the 128-row tiles, one shorter than a tile, S != T.
SHAPES = [(128, 128), (256, 256), (1, 1), (17, 17), (127, 127), (1000, 1000), (4097, 4097),
          (300, 1000), (1000, 300)]


def reference(q, k, v):
    s = (q.float() @ k.float().T) / math.sqrt(D)
    s.masked_fill_(torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(s, dim=-1) @ v.float()


@pytest.mark.parametrize("s,t", SHAPES)
def test_causal_attention(load, s, t):
    kernel = load("attention_probe")
    q = torch.randn(s, D, device="cuda", dtype=torch.bfloat16)
    k = torch.randn(t, D, device="cuda", dtype=torch.bfloat16)
    v = torch.randn(t, D, device="cuda", dtype=torch.bfloat16)
    o = torch.full((s, D), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel(q, k, v, out=o)
    torch.cuda.synchronize()
    ref = reference(q, k, v)
    err = ((o.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert err < 1e-2, f"S={s} T={t}: relative error {err:.3e}"
