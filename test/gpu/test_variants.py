"""Kernels with schedule variants: the runtime picks one per launch.

examples/matmul.kiln has no schedule hints, so the compiler emits the default
128x256 kernel and 128x64, 128x128 and 128x128 ping-pong variants; the runtime
launches a variant when the big tiles would leave SMs idle. Each must be
correct, and the choice must follow the manifest's cost rule.
"""
import json

import pytest
import torch

from conftest import ARTIFACTS


def manifest(name):
    with open(ARTIFACTS / f"{name}.kiln.json") as f:
        return json.load(f)


def test_matmul_ships_a_small_tile_variant(load):
    load("matmul")
    m = manifest("matmul")
    entries = [m["entry"]] + [v["entry"] for v in m.get("variants", [])]
    assert entries == ["matmul", "matmul_128x64", "matmul_128x128", "matmul_128x128pp",
                       "matmul_128x224", "matmul_128x192", "matmul_64x64pp",
                       "matmul_64x32pp"], entries
    assert m["launch"]["tile_cost"] > 0 and all(v["launch"]["tile_cost"] > 0 for v in m["variants"])
    # Only the 128x128 ping-pong variant's last epilogue is a cost of its own (the 64-row ones
    # are costed like the cooperative 128x64 tile).
    assert [v["launch"].get("tail_cost", 0) > 0 for v in m["variants"]] == [
        False, False, True, False, False, False, False]


@pytest.mark.parametrize("m,n,k,expected", [
    (1024, 1024, 1024, "matmul_128x64"),   # 32 big tiles for 132 SMs
    (300, 500, 256, "matmul_64x32pp"),    # one wave of the smallest tile
    (1, 4096, 4096, "matmul_64x32pp"),     # decode: 128 CTAs stream the weights
    (128, 4096, 4096, "matmul_64x64pp"),   # 128 64x64 tiles, one wave; 64x32 ties in two
    (4096, 4096, 4096, "matmul"),          # several waves of big tiles
    (2048, 2048, 2048, "matmul"),          # one full wave of big tiles
    (512, 4096, 1024, "matmul_128x128"),   # one wave of 128x128, two of 128x64; ping-pong
                                           # ties at one tile per CTA
    # 3.4 waves of 128x256 tiles, 3.9 of 128x224: the 7/8-wide tile fills the last wave.
    (1024, 14336, 512, "matmul_128x224"),
    # 2.2 waves of 128x256 tiles (2304 = 9 x 256), 2.9 of 128x192 (12 x 192).
    (4096, 2304, 512, "matmul_128x192"),
    # One row tile: the default's 2x1 clusters leave half their CTAs without rows.
    (100, 28672, 256, "matmul_128x128"),
])
def test_choice_and_result(load, m, n, k, expected):
    matmul = load("matmul")
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    matmul(a, b, out=c)
    torch.cuda.synchronize()
    assert not torch.isnan(c).any()
    ref = a.float() @ b.float().T
    assert ((c.float() - ref).norm() / ref.norm()).item() < 1e-2
    chosen = getattr(matmul, "last_entry", None)
    if chosen is None:
        pytest.skip("this runtime does not report which entry ran")
    if torch.cuda.get_device_properties(0).multi_processor_count != 132:
        pytest.skip("the expected choices assume 132 SMs")
    assert chosen == expected


def test_pinned_entry_runs_and_is_explained(load):
    """A pinned entry runs whatever the cost rule would choose, and is correct; `explain`
    lists every entry's cost and names the pin; None gives the choice back."""
    matmul = load("matmul")
    m, n, k = 1000, 1000, 512
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    ref = a.float() @ b.float().T
    chosen = matmul.entry_for(a, b)
    try:
        for entry in matmul.entries:
            matmul.pinned_entry = entry
            assert matmul.pinned_entry == entry and matmul.entry_for(a, b) == entry
            c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            matmul(a, b, out=c)
            torch.cuda.synchronize()
            assert matmul.last_entry == entry
            assert ((c.float() - ref).norm() / ref.norm()).item() < 1e-2, entry
            text = matmul.explain(a, b)
            assert f"pinned: variant {matmul.entries.index(entry)} '{entry}' runs" in text, text
            assert all(f"'{e}'" in text for e in matmul.entries)
    finally:
        matmul.pinned_entry = None
    assert matmul.pinned_entry is None and matmul.entry_for(a, b) == chosen
    assert "pinned" not in matmul.explain(a, b)
    with pytest.raises(Exception, match="no entry"):
        matmul.pinned_entry = "matmul_1x1"


def test_swiglu_explains_its_stream_k_split(load):
    """The SwiGLU's primary walks stream-K (its manifest says how it splits); at 768 x 14336
    its 336 cluster tiles are 5 waves of 66 clusters and 6 tiles, which the walk splits. The
    explanation shows the split's rounds by the join estimate (336 / 66 + 16 of 32 K steps);
    the cost stays 6 whole waves (costing the rounds chose the primary at such shapes, where
    it ran 0.92-0.98x the 128x112 variant), so the 128x112 variant runs."""
    swiglu = load("swiglu")
    rule = manifest("swiglu")["launch"]["stream_k"]
    assert rule == {"max_tail_percent": 33, "k": ["K", 64], "join_steps": 16}, rule
    assert all("stream_k" not in v["launch"] for v in manifest("swiglu")["variants"])
    m, n, k = 768, 14336, 2048
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w1, w2 = (torch.randn(n, k, device="cuda", dtype=torch.bfloat16) for _ in range(2))
    y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    swiglu(x, w1, w2, out=y)
    torch.cuda.synchronize()
    ref = torch.nn.functional.silu(x.float() @ w1.float().T) * (x.float() @ w2.float().T)
    assert ((y.float() - ref).norm() / ref.norm()).item() < 1e-2
    if torch.cuda.get_device_properties(0).multi_processor_count != 132:
        pytest.skip("the expected choice assumes 132 SMs")
    assert swiglu.last_entry == "swiglu_128x112"
    text = swiglu.explain(x, w1, w2)
    assert "'swiglu': 672 CTAs, 6 waves of 132 (stream-K split: ~5.59091 rounds with the " \
        "join)" in text, text
