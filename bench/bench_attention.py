#!/usr/bin/env python3
"""Attention forward, bf16: Kiln against torch's scaled_dot_product_attention backends.

The FlashAttention-3 setting (batch x seqlen = 16k tokens, 16 heads, head dim 128, causal and
not, seqlen 1k..16k) plus head dims 64 and 256 and grouped-query attention (32 query heads over
4 KV heads). Contenders: SDPA with the cuDNN, flash and memory-efficient backends (each pinned
with torch.nn.attention.sdpa_kernel), and Kiln's kernels compiled from .kiln sources
(examples/attention.kiln for causal head dim 128, test/gpu/kernels/attention_full.kiln,
attention_d64.kiln, attention_d64_full.kiln, attention_d256.kiln, attention_d256_full.kiln,
attention_gqa.kiln and attention_gqa_full.kiln;
scripts/build_gpu_artifacts.sh builds them into $KILN_ARTIFACTS). A form without a Kiln kernel says why in the Kiln column.
A varlen row packs sequences of lengths drawn from 1..8192 (causal, 16 heads, head dim 128):
Kiln's attention_varlen.kiln on the offsets against SDPA on jagged nested tensors (the flash and
cuDNN backends, the ones PyTorch routes them to) and a loop of per-sequence SDPA calls.

Each backend's output is checked once against a float32 reference on the same inputs (relative
error; a backend that fails the check is reported, not timed). Timing as the other benchmarks
(common.time_interleaved: CUDA-graph replays, interleaved rounds, medians). TFLOP/s counts
4 * B * H * S * T * D flops, halved for causal (FlashAttention's convention). Last, the
causal / non-causal time ratio at 16k with both kernels timed in the same rounds. Writes JSON.
"""
import argparse
import json
import math
import os
import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from common import bar_plot, environment, relative_error, short, time_interleaved

TOKENS = 16384
SEQLENS = [1024, 2048, 4096, 8192, 16384]
QUICK_SEQLENS = [2048, 16384]
BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}
TOLERANCE = 2e-2


def cases(quick):
    """(name, batch, q heads, kv heads, seqlen, head dim, causal) of each measured form."""
    seqlens = QUICK_SEQLENS if quick else SEQLENS
    out = []
    for causal in (False, True):
        for s in seqlens:
            out.append(("fa3", TOKENS // s, 16, 16, s, 128, causal))
    for d in (64, 256):
        for causal in (False, True):
            out.append((f"d{d}", TOKENS // 4096, 16, 16, 4096, d, causal))
    for causal in (False, True):
        out.append(("gqa8", TOKENS // 4096, 32, 4, 4096, 128, causal))
    return out


def reference(q, k, v, causal):
    """float32 attention, one head group at a time (the scores of all heads do not fit)."""
    groups = q.shape[1] // k.shape[1]
    out = torch.empty(q.shape, device=q.device, dtype=torch.float32)
    scale = 1.0 / math.sqrt(q.shape[-1])
    for b in range(q.shape[0]):
        for h in range(q.shape[1]):
            s = (q[b, h].float() @ k[b, h // groups].float().T) * scale
            if causal:
                s.masked_fill_(torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf"))
            out[b, h] = torch.softmax(s, dim=-1) @ v[b, h // groups].float()
    return out


# (head dim, causal, grouped-query) -> the artifact that computes it.
KILN_KERNELS = {(128, True, False): "attention", (128, False, False): "attention_full",
                (64, True, False): "attention_d64", (64, False, False): "attention_d64_full",
                (128, True, True): "attention_gqa",
                (128, False, True): "attention_gqa_full",
                (256, True, False): "attention_d256", (256, False, False): "attention_d256_full"}


def kiln_fn(q, k, v, causal):
    """A callable running Kiln's kernel for this form, or the reason there is none."""
    gqa = q.shape[1] != k.shape[1]
    name = KILN_KERNELS.get((q.shape[-1], causal, gqa))
    if name is None:
        return None, "no Kiln kernel for this form yet"
    path = os.path.join(os.environ.get("KILN_ARTIFACTS", ".device-carry/artifacts"),
                        name + ".kiln.json")
    if not os.path.exists(path):
        return None, f"{path} was not built"
    import kiln
    kernel = kiln.load(path)
    o = torch.empty_like(q)
    if gqa:  # the query heads of one key/value head as an axis of their own
        b, hq, s, d = q.shape
        hkv = k.shape[1]
        args = (q.view(b, hkv, hq // hkv, s, d), k.unsqueeze(2), v.unsqueeze(2))
        out = o.view(b, hkv, hq // hkv, s, d)
    else:
        args, out = (q, k, v), o

    def run():
        kernel(*args, out=out)
        return o
    return run, None


def sdpa(backend, q, k, v, causal):
    gqa = q.shape[1] != k.shape[1]

    def run():
        with sdpa_kernel(backend):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=gqa)
    return run


def bench_case(case, args):
    name, b, hq, hkv, s, d, causal = case
    flops = 4.0 * b * hq * s * s * d / (2 if causal else 1)
    row = {"form": name, "batch": b, "heads": hq, "kv_heads": hkv, "seqlen": s, "head_dim": d,
           "causal": causal, "flops": flops, "contenders": {}}
    torch.manual_seed(0)
    q = torch.randn(b, hq, s, d, device="cuda", dtype=torch.bfloat16)
    k = torch.randn(b, hkv, s, d, device="cuda", dtype=torch.bfloat16)
    v = torch.randn(b, hkv, s, d, device="cuda", dtype=torch.bfloat16)
    # The reference of one batch entry keeps the check affordable at 16k tokens.
    ref = reference(q[:1], k[:1], v[:1], causal)
    fns = {}
    for label, backend in BACKENDS.items():
        fn = sdpa(backend, q, k, v, causal)
        try:
            out = fn()
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001  (a backend that cannot run this form)
            row["contenders"][label] = {"error": short(e)}
            continue
        err = relative_error(out[:1], ref)
        if not err < TOLERANCE:
            row["contenders"][label] = {"error": f"relative error {err:.3e}"}
            continue
        row["contenders"][label] = {"rel_err": err}
        fns[label] = fn
    fn, why = kiln_fn(q, k, v, causal)
    if fn is None:
        row["contenders"]["kiln"] = {"error": why}
    else:
        try:
            out = fn()
            torch.cuda.synchronize()
            err = relative_error(out[:1], ref)
            if err < TOLERANCE:
                row["contenders"]["kiln"] = {"rel_err": err}
                fns["kiln"] = fn
            else:
                row["contenders"]["kiln"] = {"error": f"relative error {err:.3e}"}
        except Exception as e:  # noqa: BLE001
            row["contenders"]["kiln"] = {"error": short(e)}
    medians, errors = time_interleaved(fns, args.iters)
    for label, ms in medians.items():
        row["contenders"][label].update({"ms": ms, "tflops": flops / ms / 1e9})
    for label, error in errors.items():
        row["contenders"][label] = {"error": short(error)}
    return row


def causal_ratio(args, seqlen=16384):
    """The causal kernel's time over the non-causal one's at `seqlen` (the FA3 setting: 16k
    tokens, 16 heads, head dim 128), both timed in the same interleaved rounds (their rows of
    the table are timed minutes apart, and clocks drift between them), for Kiln and cuDNN."""
    b, h, d = TOKENS // seqlen, 16, 128
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, seqlen, d, device="cuda", dtype=torch.bfloat16)
               for _ in range(3))
    fns = {}
    for causal in (False, True):
        fn, why = kiln_fn(q, k, v, causal)
        if fn is None:
            return {"error": why}
        fns[f"kiln_causal={causal}"] = fn
        fns[f"cudnn_causal={causal}"] = sdpa(BACKENDS["cudnn"], q, k, v, causal)
    medians, errors = time_interleaved(fns, 5 * args.iters, rounds=5)
    out = {"seqlen": seqlen, "ms": medians}
    for who in ("kiln", "cudnn"):
        full, causal = medians.get(f"{who}_causal=False"), medians.get(f"{who}_causal=True")
        if full and causal:
            out[f"{who}_causal_over_full"] = causal / full
    if errors:
        out["errors"] = {name: short(e) for name, e in errors.items()}
    return out


VARLEN_HEADS, VARLEN_DIM, VARLEN_MAX = 16, 128, 8192


def bench_varlen(args):
    """Causal attention over packed sequences of random lengths in 1..VARLEN_MAX (seeded)."""
    gen = torch.Generator().manual_seed(0)
    lengths = torch.randint(1, VARLEN_MAX + 1, (8,), generator=gen).tolist()
    h, d = VARLEN_HEADS, VARLEN_DIM
    offsets = [0]
    for n in lengths:
        offsets.append(offsets[-1] + n)
    total = offsets[-1]
    flops = sum(4.0 * h * n * n * d / 2 for n in lengths)
    row = {"form": "varlen", "batch": len(lengths), "heads": h, "kv_heads": h, "seqlen": total,
           "head_dim": d, "causal": True, "flops": flops, "lengths": lengths, "contenders": {}}
    torch.manual_seed(0)
    # PyTorch's packed layout: [tokens, heads, head dim].
    q, k, v = (torch.randn(total, h, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    cu = torch.tensor(offsets, dtype=torch.int32, device="cuda")
    # The reference of the first sequence keeps the check affordable.
    n0 = lengths[0]
    ref = reference(q[None, :n0].transpose(1, 2), k[None, :n0].transpose(1, 2),
                    v[None, :n0].transpose(1, 2), True)[0].transpose(0, 1)
    fns = {}

    def check(label, fn):
        try:
            out = fn()
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001
            row["contenders"][label] = {"error": short(e)}
            return
        err = relative_error(out[:n0], ref)
        if err < TOLERANCE:
            row["contenders"][label] = {"rel_err": err}
            fns[label] = fn
        else:
            row["contenders"][label] = {"error": f"relative error {err:.3e}"}

    # Jagged nested tensors [B, j, H, D] -> [B, H, j, D], built once (a user holds them already),
    # with their length bounds given so that SDPA does not read them back from the device.
    offsets_dev = torch.tensor(offsets, dtype=torch.int64, device="cuda")
    qn, kn, vn = (torch.nested.nested_tensor_from_jagged(
        x, offsets_dev, min_seqlen=min(lengths), max_seqlen=max(lengths)).transpose(1, 2)
        for x in (q, k, v))
    for label, backend in (("cudnn", BACKENDS["cudnn"]), ("flash", BACKENDS["flash"])):
        def nested(backend=backend):
            with sdpa_kernel(backend):
                o = F.scaled_dot_product_attention(qn, kn, vn, is_causal=True)
            return o.transpose(1, 2).values()
        check(label, nested)

    def loop():
        outs = []
        for i in range(len(lengths)):
            a, b = offsets[i], offsets[i + 1]
            outs.append(F.scaled_dot_product_attention(
                q[None, a:b].transpose(1, 2), k[None, a:b].transpose(1, 2),
                v[None, a:b].transpose(1, 2), is_causal=True)[0].transpose(0, 1))
        return torch.cat(outs)
    check("loop", loop)

    path = os.path.join(os.environ.get("KILN_ARTIFACTS", ".device-carry/artifacts"),
                        "attention_varlen.kiln.json")
    if os.path.exists(path):
        import kiln
        kernel = kiln.load(path)
        o = torch.empty_like(q)
        views = tuple(x.transpose(0, 1) for x in (q, k, v))  # [heads, tokens, d], no copy

        def run():
            kernel(*views, cu, cu, out=o.transpose(0, 1))
            return o
        check("kiln", run)
    else:
        row["contenders"]["kiln"] = {"error": f"{path} was not built"}
    medians, errors = time_interleaved(fns, args.iters)
    for label, ms in medians.items():
        row["contenders"][label].update({"ms": ms, "tflops": flops / ms / 1e9})
    for label, error in errors.items():
        row["contenders"][label] = {"error": short(error)}
    best = min((c["ms"] for label, c in row["contenders"].items()
                if label != "kiln" and "ms" in c), default=None)
    if best and "ms" in row["contenders"].get("kiln", {}):
        row["kiln_over_best_sdpa"] = best / row["contenders"]["kiln"]["ms"]
    print(f"varlen: {len(lengths)} sequences {lengths}, {total} tokens, causal, H {h}, D {d}")
    for label, c in row["contenders"].items():
        print(f"    {label:6}: " + (f"{c['tflops']:7.1f} TFLOP/s  {c['ms']:.3f} ms" if "ms" in c
                                    else c["error"]))
    if "kiln_over_best_sdpa" in row:
        print(f"    kiln / best SDPA: {row['kiln_over_best_sdpa']:.3f}x")
    return row


def plot(rows, path, device):
    """TFLOP/s of Kiln, cuDNN, flash (and, for varlen, the loop of SDPA calls) per form."""
    labels, series = [], {"kiln": [], "cudnn": [], "flash": [], "sdpa loop": []}
    for row in rows:
        c = row["contenders"]
        label = row["form"] if row["form"] == "varlen" else (
            f"{row['form']} {row['seqlen'] // 1024}k" + (" causal" if row["causal"] else ""))
        labels.append(label)
        for name, key in (("kiln", "kiln"), ("cudnn", "cudnn"), ("flash", "flash"),
                          ("sdpa loop", "loop")):
            series[name].append(c.get(key, {}).get("tflops"))
    bar_plot(path, labels, series, "TFLOP/s",
             f"Attention forward, bf16 ({device}): Kiln against SDPA backends")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="seqlens 2k and 16k only")
    parser.add_argument("--iters", type=int, default=30)
    parser.add_argument("--json", default="bench_attention.json")
    parser.add_argument("--varlen-only", action="store_true", help="only the varlen row")
    parser.add_argument("--plot", default="", help="also draw the figures as a PNG")
    parser.add_argument("--plot-from", default="",
                        help="draw --plot from this saved JSON instead of measuring")
    args = parser.parse_args()
    if args.plot_from:
        with open(args.plot_from) as f:
            saved = json.load(f)
        plot(saved["rows"], args.plot, saved["environment"].get("device", "GPU"))
        return
    # A backend that cannot run a form (GQA on the memory-efficient kernel) says why in a
    # UserWarning per call; the table reports it once.
    warnings.filterwarnings("ignore", category=UserWarning)
    rows = []
    names = ["kiln", *BACKENDS]
    print(f"{'form':6} {'B':>3} {'Hq':>3} {'Hkv':>3} {'S':>6} {'D':>4} {'causal':>6}   "
          + "  ".join(f"{name:>16}" for name in names) + "   kiln/cudnn kiln/flash")
    for case in [] if args.varlen_only else cases(args.quick):
        row = bench_case(case, args)
        rows.append(row)
        cells = []
        c = row["contenders"]
        for name in names:
            cells.append(f"{c[name]['tflops']:9.1f} TFLOP/s" if "tflops" in c[name]
                         else f"{'n/a':>16}")
        for base in ("cudnn", "flash"):
            if "ms" in c["kiln"] and "ms" in c[base]:
                row[f"kiln_over_{base}"] = c[base]["ms"] / c["kiln"]["ms"]
                cells.append(f"{row[f'kiln_over_{base}']:10.3f}")
            else:
                cells.append(f"{'n/a':>10}")
        print(f"{row['form']:6} {row['batch']:3d} {row['heads']:3d} {row['kv_heads']:3d} "
              f"{row['seqlen']:6d} {row['head_dim']:4d} {str(row['causal']):>6}   "
              + "  ".join(cells), flush=True)
        for name in names:
            if "error" in row["contenders"][name]:
                print(f"    {name}: {row['contenders'][name]['error']}")
    rows.append(bench_varlen(args))
    ratio = {} if args.varlen_only else causal_ratio(args)
    if "kiln_causal_over_full" in ratio:
        print(f"causal / non-causal time at 16k, interleaved in 5 rounds: Kiln "
              f"{ratio['kiln_causal_over_full']:.3f}, cuDNN "
              f"{ratio.get('cudnn_causal_over_full', float('nan')):.3f}", flush=True)
    elif ratio:
        print(f"causal / non-causal at 16k: {ratio.get('error') or ratio.get('errors')}")
    env = environment()
    with open(args.json, "w") as f:
        json.dump({"environment": env, "rows": rows, "causal_ratio_16k": ratio}, f, indent=1)
    if args.plot:
        plot(rows, args.plot, env.get("device", "GPU"))


if __name__ == "__main__":
    main()
