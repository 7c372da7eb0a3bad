"""Attention compiled from .kiln sources (examples/attention.kiln, kernels/attention_*.kiln)
against a float32 torch reference.

Each case draws new random bf16/f16 inputs, poisons the output with NaN, runs the kernel and
compares ||out - ref|| / ||ref|| with softmax(mask(score(q k^T))) v computed in float32 from the
same inputs. Lengths cover one row, lengths that are not multiples of the 128-row query and key
tiles, and S != T in both directions (causal masks are top-left aligned, as
scaled_dot_product_attention(is_causal=True)).
"""
import math

import pytest
import torch

# (S, T): one row, not multiples of 128, one past a tile, S != T both ways.
LENGTHS = [(1, 1), (17, 17), (127, 127), (1000, 1000), (4097, 4097), (300, 1000), (1000, 300),
           (128, 128), (1, 4097)]
TOLERANCE = 1e-2


def reference(q, k, v, causal, score=None):
    """float32 attention over the last two axes; k and v broadcast along size-1 axes."""
    d = q.shape[-1]
    s = (q.float() @ k.float().transpose(-1, -2)) / math.sqrt(d)
    if score is not None:
        s = score(s)
    if causal:
        rows, cols = s.shape[-2:]
        s = s.masked_fill(torch.ones(rows, cols, dtype=torch.bool, device=s.device).triu(1),
                          float("-inf"))
    return torch.softmax(s, dim=-1) @ v.float()


def check(kernel, q, k, v, causal, score=None):
    out_shape = q.shape[:-1] + (v.shape[-1],)
    o = torch.full(out_shape, float("nan"), device="cuda", dtype=q.dtype)
    kernel(q, k, v, out=o)
    torch.cuda.synchronize()
    ref = reference(q, k, v, causal, score)
    err = ((o.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert err < TOLERANCE, f"q {tuple(q.shape)} k {tuple(k.shape)}: relative error {err:.3e}"


def randn(*shape, dtype=torch.bfloat16):
    return torch.randn(*shape, device="cuda", dtype=dtype)


@pytest.mark.parametrize("s,t", LENGTHS)
def test_causal(load, s, t):
    kernel = load("attention")
    b, h = 2, 3
    check(kernel, randn(b, h, s, 128), randn(b, h, t, 128), randn(b, h, t, 128), causal=True)


@pytest.mark.parametrize("s,t", LENGTHS)
def test_not_causal(load, s, t):
    kernel = load("attention_full")
    b, h = 1, 2
    check(kernel, randn(b, h, s, 128), randn(b, h, t, 128), randn(b, h, t, 128), causal=False)


@pytest.mark.parametrize("s,t", [(17, 17), (1000, 1000), (300, 1000)])
def test_head_dim_64(load, s, t):
    kernel = load("attention_d64")
    check(kernel, randn(2, 2, s, 64), randn(2, 2, t, 64), randn(2, 2, t, 64), causal=True)


@pytest.mark.parametrize("s,t", [(1, 1), (17, 17), (191, 97), (1000, 1000), (300, 4097)])
def test_head_dim_64_not_causal(load, s, t):
    """Three math warpgroups (192 query rows) and 96 keys per step."""
    kernel = load("attention_d64_full")
    check(kernel, randn(2, 3, s, 64), randn(2, 3, t, 64), randn(2, 3, t, 64), causal=False)


@pytest.mark.parametrize("s,t", [(1, 1), (17, 17), (127, 1000), (1000, 300), (4097, 4097)])
def test_head_dim_256(load, s, t):
    """64 x 256 outputs per warpgroup, 32 keys per step, one query stage."""
    kernel = load("attention_d256")
    check(kernel, randn(1, 2, s, 256), randn(1, 2, t, 256), randn(1, 2, t, 256), causal=True)


@pytest.mark.parametrize("s,t", [(17, 17), (1000, 300), (300, 1000)])
def test_head_dim_256_not_causal(load, s, t):
    kernel = load("attention_d256_full")
    check(kernel, randn(2, 2, s, 256), randn(2, 2, t, 256), randn(2, 2, t, 256), causal=False)


@pytest.mark.parametrize("s,t", [(17, 17), (1000, 1000), (1000, 300)])
def test_fp16(load, s, t):
    kernel = load("attention_f16")
    f16 = torch.float16
    check(kernel, randn(2, 2, s, 128, dtype=f16), randn(2, 2, t, 128, dtype=f16),
          randn(2, 2, t, 128, dtype=f16), causal=True)


def check_grouped(kernel, s, t, causal):
    """8 query heads per key/value head, through a size-1 head axis of k and v."""
    b, hkv, g = 2, 2, 8
    check(kernel, randn(b, hkv, g, s, 128), randn(b, hkv, 1, t, 128), randn(b, hkv, 1, t, 128),
          causal=causal)


@pytest.mark.parametrize("s,t", [(17, 17), (1000, 1000), (127, 300)])
def test_grouped_query(load, s, t):
    check_grouped(load("attention_gqa"), s, t, causal=True)


@pytest.mark.parametrize("s,t", [(17, 17), (1000, 1000), (300, 1000)])
def test_grouped_query_not_causal(load, s, t):
    """Without a mask: a rank-5 walk whose units visit every key block."""
    check_grouped(load("attention_gqa_full"), s, t, causal=False)


@pytest.mark.parametrize("s,t", [(17, 17), (1000, 300), (300, 1000)])
def test_rank_5(load, s, t):
    """Five axes, none broadcast (its producer at 32 registers)."""
    kernel = load("attention_rank5")
    check(kernel, randn(2, 2, 2, s, 128), randn(2, 2, 2, t, 128), randn(2, 2, 2, t, 128),
          causal=True)


@pytest.mark.parametrize("s,t", [(17, 17), (1000, 300), (300, 1000)])
def test_soft_capped_rank_3(load, s, t):
    kernel = load("attention_softcap")
    check(kernel, randn(3, s, 128), randn(3, t, 128), randn(3, t, 128), causal=False,
          score=lambda x: torch.tanh(x / 30.0) * 30.0)


def masked_scores(q, k, scale, score=None, keep=None):
    """float32 scores of q k^T times `scale`, modified by `score` and -inf where `keep(i, j)`
    is false."""
    s = (q.float() @ k.float().transpose(-1, -2)) * scale
    if score is not None:
        s = score(s)
    if keep is not None:
        rows, cols = s.shape[-2:]
        i = torch.arange(rows, device=s.device)[:, None]
        j = torch.arange(cols, device=s.device)[None, :]
        s = s.masked_fill(~keep(i, j), float("-inf"))
    return s


def check_with_lse(kernel, q, k, v, s, lse_first=False, lse_dtype=torch.float32,
                   lse_tolerance=1e-3):
    """Runs a kernel with outputs (o, lse) (or (lse, o)) into NaN-poisoned tensors and compares
    both with float32 torch from the scores `s`: rows torch leaves NaN (every key masked) must be
    NaN in o and -inf in lse; elsewhere o to TOLERANCE (relative norm) and lse to
    `lse_tolerance` (absolute, scaled by max(1, |lse|))."""
    o = torch.full(q.shape[:-1] + (v.shape[-1],), float("nan"), device="cuda", dtype=q.dtype)
    lse = torch.full(q.shape[:-1], float("nan"), device="cuda", dtype=lse_dtype)
    kernel(q, k, v, out=(lse, o) if lse_first else (o, lse))
    torch.cuda.synchronize()
    ref_o = torch.softmax(s, dim=-1) @ v.float()
    ref_lse = torch.logsumexp(s, dim=-1)
    dead = torch.isneginf(ref_lse)
    assert torch.equal(torch.isneginf(lse.float()), dead), "-inf rows differ from torch's"
    assert torch.isnan(o[dead]).all(), "rows without keys are not NaN (0/0) in o"
    live = ~dead
    if not live.any():
        return
    err = ((o.float()[live] - ref_o[live]).norm() / ref_o[live].norm().clamp_min(1e-30)).item()
    assert err < TOLERANCE, f"q {tuple(q.shape)} k {tuple(k.shape)}: o relative error {err:.3e}"
    got, want = lse.float()[live], ref_lse[live]
    lse_err = ((got - want).abs() / want.abs().clamp_min(1.0)).max().item()
    assert lse_err < lse_tolerance, (
        f"q {tuple(q.shape)} k {tuple(k.shape)}: lse error {lse_err:.3e}")


@pytest.mark.parametrize("s,t", LENGTHS)
def test_log_sum_exp(load, s, t):
    """The second output lse = logsumexp(s) (f32 [B, H, S]) next to o, causal."""
    kernel = load("attention_lse")
    q, k, v = randn(2, 3, s, 128), randn(2, 3, t, 128), randn(2, 3, t, 128)
    scores = masked_scores(q, k, 1 / math.sqrt(128), keep=lambda i, j: j <= i)
    check_with_lse(kernel, q, k, v, scores)


@pytest.mark.parametrize("s,t", [(1, 1), (17, 17), (191, 97), (1000, 1000), (300, 4097)])
def test_log_sum_exp_window(load, s, t):
    """lse first and rounded to bf16, f16 inputs, soft-capping and a strict causal window:
    query row 0 keeps no key (o NaN, lse -inf)."""
    kernel = load("attention_lse_window")
    q = randn(3, s, 64, dtype=torch.float16)
    k, v = randn(3, t, 64, dtype=torch.float16), randn(3, t, 64, dtype=torch.float16)
    scores = masked_scores(q, k, 0.125, score=lambda x: torch.tanh(x / 30.0) * 30.0,
                           keep=lambda i, j: (j < i) & (i - j <= 100))
    # bf16 keeps 8 bits: a relative rounding of 2^-8 (plus tanh.approx in the scores).
    check_with_lse(kernel, q, k, v, scores, lse_first=True, lse_dtype=torch.bfloat16,
                   lse_tolerance=1e-2)


KILN_RUN_CASES = [
    ("attention", "attention-causal", "B=2,H=3,S=1000,T=300"),
    ("attention", "attention-causal", "B=1,H=2,S=17,T=4097"),
    ("attention_full", "attention", "B=1,H=2,S=300,T=1000"),
    ("attention_gqa", "attention-causal", "B=1,HKV=2,G=4,S=127,T=300"),
    ("attention_gqa_full", "attention", "B=1,HKV=2,G=4,S=300,T=127"),
    ("attention_d64", "attention-causal", "B=2,H=2,S=1000,T=1000"),
    ("attention_d64_full", "attention", "B=2,H=2,S=193,T=1000"),
    ("attention_d256", "attention-causal", "B=1,H=2,S=300,T=1000"),
]


@pytest.mark.parametrize("name,ref,dims", KILN_RUN_CASES)
def test_kiln_run_check(device, name, ref, dims):
    """kiln-run --check with the attention host reference passes on the compiled kernels."""
    from conftest import ARTIFACTS, host_binary, run
    manifest = ARTIFACTS / f"{name}.kiln.json"
    if not manifest.exists():
        pytest.skip(f"{manifest} was not built (run scripts/build_gpu_artifacts.sh)")
    result = run([host_binary("kiln-run"), str(manifest), "--dims", dims, "--check", "--ref",
                  ref, "--iters", "0"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "mismatches: PASS" in result.stdout, result.stdout


def test_kiln_run_check_names_the_wrong_reference(device):
    """The causal kernel checked against the full softmax fails, naming the first bad element:
    the reference can tell the two apart."""
    from conftest import ARTIFACTS, host_binary, run
    manifest = ARTIFACTS / "attention.kiln.json"
    if not manifest.exists():
        pytest.skip(f"{manifest} was not built (run scripts/build_gpu_artifacts.sh)")
    result = run([host_binary("kiln-run"), str(manifest), "--dims", "B=1,H=1,S=200,T=200",
                  "--check", "--ref", "attention", "--iters", "0"])
    assert result.returncode == 1, result.stdout + result.stderr
    assert "first mismatch at entry 0, query 0" in result.stdout, result.stdout
