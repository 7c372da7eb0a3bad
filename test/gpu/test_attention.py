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


@pytest.mark.parametrize("name,d,causal,dtype", [
    ("attention", 128, True, torch.bfloat16), ("attention_full", 128, False, torch.bfloat16),
    ("attention_d64_full", 64, False, torch.bfloat16),
    ("attention_d256_full", 256, False, torch.bfloat16),
    ("attention_f16", 128, True, torch.float16)])
def test_moving_maxima(load, name, d, causal, dtype):
    """Keys whose scale rises along the sequence, so that the running maxima of every other
    query row jump by far more than 2^8 (in base 2) between key blocks while the rows between
    keep the maximum of their first block: the output is rescaled in the blocks that move a
    row's maximum and left alone in the others (lazy maxima), in warps that hold both kinds of
    row. (Head dim 256 keeps lazy maxima; the others move theirs every block, and are checked
    on the same inputs.)"""
    b, h, s, t = 1, 2, 700, 1000
    ramp = torch.linspace(0.05, 6.0, t, device="cuda", dtype=torch.float32)[:, None]
    q = randn(b, h, s, d, dtype=dtype)
    q[..., ::2, :] *= 0.02
    k = (randn(b, h, t, d, dtype=torch.float32) * ramp).to(dtype)
    check(load(name), q, k, randn(b, h, t, d, dtype=dtype), causal=causal)


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


def packed_offsets(lengths, start=0):
    """int32 offsets on the device of sequences of `lengths` packed from row `start`."""
    offsets = [start]
    for n in lengths:
        offsets.append(offsets[-1] + n)
    return torch.tensor(offsets, dtype=torch.int32, device="cuda")


def varlen_reference(q, k, v, cu_q, cu_k, causal, scale):
    """float32 attention of each packed sequence over its own keys (causal: top-left within the
    sequence); q [.., TQ, D], k and v [.., TK, D] with k's and v's leading axes q's or 1. Rows
    outside every sequence are NaN (not written)."""
    out = torch.full(q.shape[:-1] + (v.shape[-1],), float("nan"), device="cuda")
    lse = torch.full(q.shape[:-1], float("nan"), device="cuda")
    cq, ck = cu_q.tolist(), cu_k.tolist()
    for b in range(len(cq) - 1):
        q0, q1, k0, k1 = cq[b], cq[b + 1], ck[b], ck[b + 1]
        if q1 <= q0:
            continue
        s = (q[..., q0:q1, :].float() @ k[..., k0:k1, :].float().transpose(-1, -2)) * scale
        if causal:
            i = torch.arange(q1 - q0, device="cuda")[:, None]
            j = torch.arange(k1 - k0, device="cuda")[None, :]
            s = s.masked_fill(j > i, float("-inf"))
        out[..., q0:q1, :] = torch.softmax(s, dim=-1) @ v[..., k0:k1, :].float()
        lse[..., q0:q1] = torch.logsumexp(s, dim=-1)
    return out, lse


def compare_varlen(o, ref, what):
    """NaN exactly where the reference is (rows not written, rows without keys), relative
    norm error elsewhere."""
    nan = torch.isnan(ref)
    assert torch.equal(torch.isnan(o.float()), nan), f"{what}: NaN rows differ"
    err = ((o.float()[~nan] - ref[~nan]).norm() / ref[~nan].norm().clamp_min(1e-30)).item()
    assert err < TOLERANCE, f"{what}: relative error {err:.3e}"


VARLEN_CASES = [
    [1],                                  # one row
    [17, 0, 300, 1, 128, 129],            # an empty sequence, tile edges
    [1000, 4097],                         # long ones
    [5] * 40,                             # many short sequences (several per query tile)
]


@pytest.mark.parametrize("lengths", VARLEN_CASES)
@pytest.mark.parametrize("layout", ["heads_first", "tokens_first"])
def test_varlen_causal(load, lengths, layout):
    """Packed sequences (FlashAttention's varlen), causal within each; the query and key
    lengths of a sequence differ (keys = queries + 7). With tokens_first the tensors are
    [tokens, H, 128] as PyTorch packs them, passed as their transpose(0, 1) views (no copy).
    Rows before the first and after the last sequence stay unwritten (NaN)."""
    kernel = load("attention_varlen")
    h = 3
    cu_q = packed_offsets(lengths, start=2)
    cu_k = packed_offsets([n + 7 for n in lengths])
    tq, tk = cu_q[-1].item() + 5, cu_k[-1].item()
    if layout == "heads_first":
        q, k, v = randn(h, tq, 128), randn(h, tk, 128), randn(h, tk, 128)
        o = torch.full((h, tq, 128), float("nan"), device="cuda", dtype=torch.bfloat16)
    else:
        q = randn(tq, h, 128).transpose(0, 1)
        k, v = randn(tk, h, 128).transpose(0, 1), randn(tk, h, 128).transpose(0, 1)
        o = torch.full((tq, h, 128), float("nan"), device="cuda",
                       dtype=torch.bfloat16).transpose(0, 1)
    kernel(q, k, v, cu_q, cu_k, out=o)
    torch.cuda.synchronize()
    ref, _ = varlen_reference(q, k, v, cu_q, cu_k, causal=True, scale=1 / math.sqrt(128))
    compare_varlen(o, ref, f"lengths {lengths[:6]}, {layout}")


@pytest.mark.parametrize("lengths", VARLEN_CASES)
def test_varlen_log_sum_exp(load, lengths):
    """Non-causal packed sequences with grouped-query heads (4 query heads per key/value
    head), f16, the log-sum-exp as a second output; query lengths differ from key lengths
    (keys = 2 * queries + 1)."""
    kernel = load("attention_varlen_lse")
    hkv, g = 2, 4
    cu_q = packed_offsets(lengths)
    cu_k = packed_offsets([2 * n + 1 for n in lengths])
    tq, tk = cu_q[-1].item(), cu_k[-1].item()
    q = randn(hkv, g, tq, 64, dtype=torch.float16)
    k = randn(hkv, 1, tk, 64, dtype=torch.float16)
    v = randn(hkv, 1, tk, 64, dtype=torch.float16)
    o = torch.full((hkv, g, tq, 64), float("nan"), device="cuda", dtype=torch.float16)
    lse = torch.full((hkv, g, tq), float("nan"), device="cuda")
    kernel(q, k, v, cu_q, cu_k, out=(o, lse))
    torch.cuda.synchronize()
    ref, ref_lse = varlen_reference(q, k, v, cu_q, cu_k, causal=False, scale=0.125)
    compare_varlen(o, ref, f"lengths {lengths[:6]}")
    assert torch.equal(torch.isnan(lse), torch.isnan(ref_lse)), "lse rows written differ"
    live = ~torch.isnan(ref_lse)
    err = ((lse[live] - ref_lse[live]).abs() / ref_lse[live].abs().clamp_min(1.0)).max().item()
    assert err < 1e-3, f"lse error {err:.3e}"


def test_varlen_offsets_on_device_change(load):
    """The offsets stay on the device: the same launch with other offsets (same tensor
    shapes) computes the other packing."""
    kernel = load("attention_varlen")
    h, tq, tk = 2, 600, 700
    q, k, v = randn(h, tq, 128), randn(h, tk, 128), randn(h, tk, 128)
    for lengths_q, lengths_k in [([100, 500], [350, 350]), ([599, 1], [1, 699])]:
        cu_q, cu_k = packed_offsets(lengths_q), packed_offsets(lengths_k)
        o = torch.full((h, tq, 128), float("nan"), device="cuda", dtype=torch.bfloat16)
        kernel(q, k, v, cu_q, cu_k, out=o)
        torch.cuda.synchronize()
        ref, _ = varlen_reference(q, k, v, cu_q, cu_k, causal=True, scale=1 / math.sqrt(128))
        compare_varlen(o, ref, f"lengths {lengths_q} / {lengths_k}")


KILN_RUN_CASES = [
    ("attention", "attention-causal", "B=2,H=3,S=1000,T=300"),
    ("attention", "attention-causal", "B=1,H=2,S=17,T=4097"),
    ("attention_full", "attention", "B=1,H=2,S=300,T=1000"),
    ("attention_gqa", "attention-causal", "B=1,HKV=2,G=4,S=127,T=300"),
    ("attention_gqa_full", "attention", "B=1,HKV=2,G=4,S=300,T=127"),
    ("attention_d64", "attention-causal", "B=2,H=2,S=1000,T=1000"),
    ("attention_d64_full", "attention", "B=2,H=2,S=193,T=1000"),
    ("attention_d256", "attention-causal", "B=1,H=2,S=300,T=1000"),
    ("attention_lse", "attention-causal", "B=1,H=2,S=300,T=1000"),  # o and its log-sum-exp
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
