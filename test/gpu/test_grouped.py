"""Grouped GEMM (mixture of experts) compiled from .kiln sources (examples/moe_grouped.kiln,
examples/moe_swiglu.kiln, kernels/moe_*.kiln) against a float32 torch reference.

Rows offsets[e] .. offsets[e+1] of x [T, K] multiply expert e's weight w[e] ([N, K]). The
offsets stay on the device. Each case draws new random inputs, poisons the output with NaN
(inside a larger buffer whose guard rows must stay NaN), runs the kernel and compares each
row with the product of the group it belongs to; rows outside every group must stay
unwritten. Routings: uniform, Dirichlet(0.3)-skewed, some empty experts, one expert, 1024
experts, token counts that are not multiples of 8 or of the 128-row tile, and bad offsets
(docs/language.md, "Grouped products": what each case means).
"""
import re

import pytest
import torch

TOLERANCE = 1e-2
GUARD = 64  # poisoned rows on each side of the output


def randn(*shape, dtype=torch.bfloat16, scale=1.0):
    return (torch.randn(*shape, device="cuda") * scale).to(dtype)


def offsets_of(counts, start=0):
    """int32 offsets on the device of groups of `counts` rows packed from row `start`."""
    offsets = [start]
    for n in counts:
        offsets.append(offsets[-1] + n)
    return torch.tensor(offsets, dtype=torch.int32, device="cuda")


def skewed_counts(experts, tokens, alpha, seed):
    """Token counts per expert drawn from a Dirichlet(alpha) routing of `tokens` tokens."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        p = torch.distributions.Dirichlet(torch.full((experts,), alpha)).sample()
        counts = torch.multinomial(p, tokens, replacement=True).bincount(minlength=experts)
    return counts.tolist()


def guarded_output(t, n, dtype):
    """A NaN [T, N] view into a NaN buffer with GUARD rows before and after it."""
    buf = torch.full((t + 2 * GUARD, n), float("nan"), device="cuda", dtype=dtype)
    return buf, buf[GUARD:GUARD + t]


def group_rows(offsets, t):
    """Per group e, the rows [begin, end) it writes: offsets read as at least 0, a decreasing
    pair an empty group, rows clipped to [0, T)."""
    o = [max(v, 0) for v in offsets.tolist()]
    return [(min(o[e], t), min(max(o[e + 1], o[e]), t)) for e in range(len(o) - 1)]


def check(y, buf, expected_of, offsets, what):
    """Rows of exactly one group equal that group's product; rows of several groups equal
    one of them; rows of none and the guard rows stay NaN."""
    t = y.shape[0]
    owners = [[] for _ in range(t)]
    for e, (begin, end) in enumerate(group_rows(offsets, t)):
        for r in range(begin, end):
            owners[r].append(e)
    assert torch.isnan(buf[:GUARD].float()).all() and torch.isnan(buf[GUARD + t:].float()).all(), \
        f"{what}: rows outside [0, T) were written"
    free = torch.tensor([not o for o in owners], device="cuda", dtype=torch.bool)
    assert torch.isnan(y[free].float()).all(), f"{what}: rows outside every group were written"
    single = [r for r in range(t) if len(owners[r]) == 1]
    if single:
        rows = torch.tensor(single, device="cuda")
        groups = [owners[r][0] for r in single]
        got = y[rows].float()
        ref = expected_of(rows, groups)
        err = ((got - ref).norm() / ref.norm().clamp_min(1e-30)).item()
        assert err < TOLERANCE, f"{what}: relative error {err:.3e}"
    # Groups that overlap (offsets that are not monotone) race on their common rows: each
    # element there is one of the groups' values.
    for r in range(t):
        if len(owners[r]) > 1:
            row = torch.tensor([r], device="cuda")
            refs = torch.stack([expected_of(row, [e])[0] for e in owners[r]])
            got = y[r].float()
            near = ((got[None] - refs).abs() <= TOLERANCE * refs.abs() + 0.05).any(0)
            assert near.all(), f"{what}: row {r} has elements of no group's product"

def moe_inputs(counts, n, k, dtype=torch.bfloat16, weights=1):
    """Offsets of `counts`, their row count T, x [T, K] and `weights` weights [E, N, K] of
    unit-variance products."""
    offsets = offsets_of(counts)
    t = int(offsets[-1])
    x = randn(t, k, dtype=dtype, scale=k ** -0.25)
    ws = [randn(len(counts), n, k, dtype=dtype, scale=k ** -0.25) for _ in range(weights)]
    return offsets, t, x, *ws


def product_rows(x, w):
    """rows, groups -> x[rows] @ w[group]^T in float32, one group at a time."""
    def expected(rows, groups):
        out = torch.empty(len(groups), w.shape[1], device="cuda")
        g = torch.tensor(groups, device="cuda")
        for e in g.unique().tolist():
            sel = (g == e).nonzero().flatten()
            out[sel] = x[rows[sel]].float() @ w[e].float().T
        return out
    return expected


ROUTINGS = {
    "uniform": lambda: [256] * 8,
    "skewed": lambda: skewed_counts(16, 3001, 0.3, seed=1),
    "empty_experts": lambda: [0, 130, 0, 0, 7, 129, 0, 1, 256, 0],
    "one_expert": lambda: [1000],
    "one_token": lambda: [1],
    "small_experts": lambda: [3, 5, 1, 9, 17, 2, 64, 33] * 4,
    "experts_1024": lambda: skewed_counts(1024, 4099, 1.0, seed=2),
}


@pytest.mark.parametrize("name", ["moe_grouped", "moe_pp"])
@pytest.mark.parametrize("routing", ROUTINGS)
def test_moe_grouped(load, routing, name):
    """examples/moe_grouped.kiln, bf16: y = grouped(x, offsets) @ w^T; N and K not multiples
    of the tile. moe_pp: the same under the ping-pong schedule."""
    kernel = load(name)
    counts = ROUTINGS[routing]()
    n, k = 200, 328
    offsets, t, x, w = moe_inputs(counts, n, k)
    buf, y = guarded_output(t, n, torch.bfloat16)
    kernel(x, w, offsets, out=y)
    torch.cuda.synchronize()
    check(y, buf, product_rows(x, w), offsets, routing)


@pytest.mark.parametrize("n,row_stride", [(203, 208), (201, 201), (256, 264)])
def test_moe_grouped_output_strides(load, n, row_stride):
    """A group's last tile leaves through stores that stop at the group's end: 16-byte pieces
    where the output's rows are 16-byte aligned (its tensor map encodes), the row's last piece
    cut element by element where N is not a multiple of 8 (203 columns in rows of 208), single
    elements where the rows are not aligned (201 columns, contiguous). The columns between N
    and the row stride must stay unwritten."""
    kernel = load("moe_grouped")
    counts = ROUTINGS["small_experts"]() + skewed_counts(8, 900, 0.3, seed=3)
    offsets, t, x, w = moe_inputs(counts, n, 200)
    rows = torch.full((t + 2 * GUARD, row_stride), float("nan"), device="cuda",
                      dtype=torch.bfloat16)
    buf, y = rows[:, :n], rows[GUARD:GUARD + t, :n]
    kernel(x, w, offsets, out=y)
    torch.cuda.synchronize()
    check(y, buf, product_rows(x, w), offsets, f"N {n}, rows of {row_stride}")
    assert torch.isnan(rows[:, n:].float()).all(), "columns past N were written"


def test_moe_f16_f32_out(load):
    """fp16 operands, f32 output, skewed routing with empty experts."""
    kernel = load("moe_f16")
    counts = skewed_counts(12, 777, 0.3, seed=3)
    n, k = 384, 512
    offsets, t, x, w = moe_inputs(counts, n, k, dtype=torch.float16)
    buf, y = guarded_output(t, n, torch.float32)
    kernel(x, w, offsets, out=y)
    torch.cuda.synchronize()
    check(y, buf, product_rows(x, w), offsets, "f16")


def test_moe_gate(load):
    """The router weight of each token scales its row (a [T, 1] epilogue input)."""
    kernel = load("moe_gate")
    counts = skewed_counts(8, 1500, 0.3, seed=4)
    n, k = 256, 256
    offsets, t, x, w = moe_inputs(counts, n, k)
    gate = torch.rand(t, 1, device="cuda")
    buf, y = guarded_output(t, n, torch.bfloat16)
    kernel(x, w, offsets, gate, out=y)
    torch.cuda.synchronize()
    plain = product_rows(x, w)
    check(y, buf, lambda rows, groups: plain(rows, groups) * gate[rows], offsets, "gate")


@pytest.mark.parametrize("routing", ["skewed", "empty_experts", "small_experts"])
def test_moe_bias(load, routing):
    """A bias [E, N] and a scale [E, 1] per expert (per_group(b, offsets)): each row adds
    its own expert's row of b, never a neighbour's, also in tiles that cross experts."""
    kernel = load("moe_bias")
    counts = ROUTINGS[routing]()
    n, k = 272, 128
    offsets, t, x, w = moe_inputs(counts, n, k)
    experts = len(counts)
    b = randn(experts, n, scale=4.0)
    s = torch.rand(experts, 1, device="cuda") + 0.5
    buf, y = guarded_output(t, n, torch.bfloat16)
    kernel(x, w, offsets, b, s, out=y)
    torch.cuda.synchronize()
    plain = product_rows(x, w)

    def expected(rows, groups):
        g = torch.tensor(groups, device="cuda")
        return plain(rows, groups) * s[g] + b[g].float()
    check(y, buf, expected, offsets, routing)


@pytest.mark.parametrize("routing", ["uniform", "skewed", "empty_experts"])
def test_moe_swiglu(load, routing):
    """examples/moe_swiglu.kiln: silu(grouped(x) @ w1^T) * (grouped(x) @ w2^T) in one kernel."""
    kernel = load("moe_swiglu")
    counts = ROUTINGS[routing]()
    n, k = 272, 256
    offsets, t, x, w1, w2 = moe_inputs(counts, n, k, weights=2)
    buf, y = guarded_output(t, n, torch.bfloat16)
    kernel(x, w1, w2, offsets, out=y)
    torch.cuda.synchronize()
    up, gate = product_rows(x, w1), product_rows(x, w2)
    check(y, buf, lambda rows, groups: torch.nn.functional.silu(up(rows, groups))
          * gate(rows, groups), offsets, routing)


# Offsets that break the contract (monotone from 0 to T): never an access outside the
# tensors; rows outside [0, T) are never written.
BAD_OFFSETS = {
    "last_below_T": ([0, 100, 250], 300),     # rows 250..300 belong to no group: unwritten
    "last_above_T": ([0, 100, 500], 300),     # group 1 clipped at T
    "negative": ([-50, 20, 300], 300),        # read as 0
    "far_negative": ([-2**31, -7, 300], 300),
    "not_monotone": ([0, 200, 50, 300], 300),  # group 1 empty; groups 0 and 2 overlap
    "huge": ([0, 2**31 - 1, 2**31 - 1], 300),  # group 0 clipped at T, group 1 past it
    "decreasing": ([300, 200, 100, 0], 300),   # every group empty
}


@pytest.mark.parametrize("case", BAD_OFFSETS)
def test_bad_offsets(load, case):
    kernel = load("moe_grouped")
    values, t = BAD_OFFSETS[case]
    n, k = 136, 64
    offsets = torch.tensor(values, dtype=torch.int32, device="cuda")
    x, w = randn(t, k), randn(len(values) - 1, n, k)
    buf, y = guarded_output(t, n, torch.bfloat16)
    kernel(x, w, offsets, out=y)
    torch.cuda.synchronize()
    check(y, buf, product_rows(x, w), offsets, case)


def test_graph_replay_with_new_offsets(load):
    """A CUDA graph captured once and replayed after the offsets changed on the device
    computes the new routing (nothing about the routing reaches the host)."""
    kernel = load("moe_grouped")
    e, n, k, t = 8, 256, 256, 1024
    x, w = randn(t, k, scale=k ** -0.25), randn(e, n, k, scale=k ** -0.25)
    offsets = offsets_of([128] * 8)
    buf, y = guarded_output(t, n, torch.bfloat16)
    kernel(x, w, offsets, out=y)  # warm-up (module load) outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        kernel(x, w, offsets, out=y)
    for counts in ([1024, 0, 0, 0, 0, 0, 0, 0], skewed_counts(8, 1024, 0.3, seed=5),
                   [0, 0, 0, 0, 0, 0, 0, 1024]):
        offsets.copy_(offsets_of(counts))
        buf.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        check(y, buf, product_rows(x, w), offsets, f"replay {counts}")


CHECK_MESSAGES = {
    "last_below_T": "offsets[2] = 250: the last group ends at T = 300",
    "last_above_T": "offsets[2] = 500 is past the 300 rows of T",
    "negative": "offsets[0] = -50: the first group starts at row 0",
    "not_monotone": "offsets[2] = 50 is below offsets[1] = 200: offsets never decrease",
    "decreasing": "offsets[0] = 300: the first group starts at row 0",
}


@pytest.mark.parametrize("case", CHECK_MESSAGES)
def test_checking_mode_names_the_first_bad_entry(load, kiln_module, case):
    """kernel.check_offsets = True: a launch with bad offsets raises, naming the entry, and
    writes nothing; good offsets launch as usual."""
    kernel = load("moe_grouped")
    values, t = BAD_OFFSETS[case]
    n, k = 136, 64
    x, w = randn(t, k), randn(len(values) - 1, n, k)
    buf, y = guarded_output(t, n, torch.bfloat16)
    kernel.check_offsets = True
    try:
        with pytest.raises(kiln_module.KilnError, match=re.escape(CHECK_MESSAGES[case])):
            kernel(x, w, torch.tensor(values, dtype=torch.int32, device="cuda"), out=y)
        torch.cuda.synchronize()
        assert torch.isnan(buf.float()).all(), "a refused launch wrote its output"
        good = offsets_of([100, 0, 200][:len(values) - 1] + [0] * (len(values) - 4))
        good[-1] = t
        kernel(x, w, good, out=y)
        torch.cuda.synchronize()
        check(y, buf, product_rows(x, w), good, f"{case}, checked")
    finally:
        kernel.check_offsets = False


KILN_RUN_GROUPED = [
    # (kernel, extra args): the reference is chosen from the manifest's group offsets.
    ("moe_grouped", []),
    ("moe_swiglu", []),
    ("moe_grouped", ["--ref", "grouped"]),
]


@pytest.mark.parametrize("name,extra", KILN_RUN_GROUPED)
def test_kiln_run_check_grouped(device, name, extra):
    """kiln-run --check checks a grouped kernel per expert (one empty, some smaller than a
    tile); with every offset zero it fails, saying no row belongs to a group."""
    from conftest import ARTIFACTS, host_binary, run
    manifest = ARTIFACTS / f"{name}.kiln.json"
    if not manifest.exists():
        pytest.skip(f"{manifest} was not built (run scripts/build_gpu_artifacts.sh)")
    base = [host_binary("kiln-run"), str(manifest), "--dims", "T=1008,K=520,N=300,E=8",
            "--check", "--iters", "0"] + extra
    result = run(base + ["--values", "offsets=0,0,130,131,400,401,700,1000,1008"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "mismatches: PASS" in result.stdout, result.stdout
    result = run(base)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "no row belongs to a group" in result.stdout, result.stdout


@pytest.mark.parametrize("experts,tokens", [(0, 37), (3, 0)])
def test_no_work(load, experts, tokens):
    """No expert (offsets [0]) or no token: nothing is launched and nothing written; no error."""
    kernel = load("moe_grouped")
    n, k = 64, 64
    x, w = randn(tokens, k), randn(experts, n, k)
    offsets = torch.zeros(experts + 1, dtype=torch.int32, device="cuda")
    buf, y = guarded_output(tokens, n, torch.bfloat16)
    kernel(x, w, offsets, out=y)
    torch.cuda.synchronize()
    assert torch.isnan(buf.float()).all(), "a launch without work wrote its output"
