"""What the benchmarks share: the timing method, the environment record, the correctness
check and the bar plot.

Timing (docs/performance.md, "Method"): each sample is one replay of a CUDA graph holding
10 back-to-back launches, timed with CUDA events, so host launch overhead is excluded for
every contender; the contenders are interleaved in rounds so clocks and thermals affect all
alike, and the reported time is the median.
"""
import datetime
import os
import statistics
import subprocess
import sys

import torch

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))
import kiln  # noqa: E402,F401  (re-exported for the benchmarks)


def artifact(name):
    """Default path of a compiled kernel's manifest: $KILN_ARTIFACTS (scripts/gpu_check.sh sets
    it), else .device-carry/artifacts."""
    return os.path.join(os.environ.get("KILN_ARTIFACTS", ".device-carry/artifacts"),
                        f"{name}.kiln.json")


def load_kernel(path):
    """kiln.load(path), exiting with a message (status 2) when the artifact is missing."""
    if not os.path.exists(path):
        print(f"{path} does not exist: build it with scripts/build_gpu_artifacts.sh "
              f"(or pass --artifact)", file=sys.stderr)
        sys.exit(2)
    return kiln.load(path)


def time_ms(fn, iters, warmup, launches_per_replay=10):
    """Median time of one launch of `fn`, in ms.

    The launches are captured in a CUDA graph and replayed, so the number is
    GPU time, not Python and driver launch overhead (which would dominate
    small shapes). Each of `iters` samples times one replay of
    `launches_per_replay` back-to-back launches.
    """
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(launches_per_replay):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / launches_per_replay)
    return statistics.median(times)


class Flushed:
    """do_bench-style timing: L2 flushed before each sample, events around one call."""

    def __init__(self):
        self.cache = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")

    def sample(self, fn):
        self.cache.zero_()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        return start, end

    def time(self, fns, samples, rounds=3, warmup=3):
        """name -> median ms over `rounds` interleaved rounds of samples // rounds each."""
        for fn in fns.values():
            for _ in range(warmup):
                fn()
        torch.cuda.synchronize()
        per_round = {name: [] for name in fns}
        for _ in range(rounds):
            for name, fn in fns.items():
                events = [self.sample(fn) for _ in range(max(1, samples // rounds))]
                torch.cuda.synchronize()
                per_round[name].append(statistics.median(s.elapsed_time(e) for s, e in events))
        return {name: statistics.median(v) for name, v in per_round.items()}


def time_interleaved(fns, iters, rounds=3, warmup=5):
    """Times every callable of `fns` (name -> fn) in `rounds` interleaved rounds of
    `iters // rounds + 1` samples each (time_ms); returns (name -> median ms over the rounds'
    medians, name -> error message). A contender that raises (a capture it does not support,
    say) is reported in the errors and left out of the later rounds; the others go on."""
    samples = {name: [] for name in fns}
    errors = {}
    for _ in range(rounds):
        for name, fn in fns.items():
            if name in errors:
                continue
            try:
                samples[name].append(time_ms(fn, iters // rounds + 1, warmup))
            except Exception as e:  # noqa: BLE001  (any failure is reported, not fatal)
                errors[name] = f"{type(e).__name__}: {e}".strip()
                try:
                    torch.cuda.synchronize()
                except Exception:  # noqa: BLE001
                    pass
    medians = {name: statistics.median(s) for name, s in samples.items()
               if s and name not in errors}
    return medians, errors


def short(error, limit=300):
    """An error message on one line, at most `limit` characters."""
    error = " ".join(str(error).split())
    return error if len(error) <= limit else error[:limit] + "..."


def time_against_baselines(row, kiln_fn, baselines, ref, iters):
    """Times `kiln_fn` and the baselines interleaved (time_interleaved) and fills `row` (with
    "flops" and an empty "baselines" dict): "kiln_ms" and "kiln_tflops", and per baseline
    {"rel_err", "ms", "tflops", "kiln_speedup"} or {"error"}. `baselines` maps each name to a
    function that makes the callable to time, or to a string saying why it is skipped; each
    baseline runs once first and is compared with `ref`. Sets row["error"] when Kiln could not
    be timed. Returns the medians (name -> ms)."""
    fns = {"kiln": kiln_fn}
    errors = {}
    for name, make in baselines.items():
        if isinstance(make, str):
            errors[name] = make
            continue
        try:
            fn = make()
            out = fn()  # compiles torch.compile's kernels; checks that the baseline agrees
            torch.cuda.synchronize()
            row["baselines"][name] = {"rel_err": relative_error(out, ref)}
            del out
            fns[name] = fn
        except Exception as e:  # noqa: BLE001  (a failing baseline is reported, not fatal)
            errors[name] = short(f"{type(e).__name__}: {e}")
            try:
                torch.cuda.synchronize()
            except Exception:  # noqa: BLE001
                pass

    medians, timing_errors = time_interleaved(fns, iters)
    errors.update({name: short(e) for name, e in timing_errors.items()})
    if "kiln" not in medians:
        row["error"] = f"timing Kiln failed: {errors.get('kiln')}"
        return medians
    kt = medians["kiln"]
    row["kiln_ms"], row["kiln_tflops"] = kt, row["flops"] / kt / 1e9
    for name in baselines:
        entry = row["baselines"].setdefault(name, {})
        if name in medians:
            t = medians[name]
            entry.update(ms=t, tflops=row["flops"] / t / 1e9, kiln_speedup=t / kt)
        else:
            entry["error"] = errors.get(name, "not timed")
    return medians


def print_row(shape, row, baselines):
    """One line per shape: Kiln's TFLOP/s, each baseline's with Kiln's speedup over it (or its
    error), Kiln's relative error; or the reason Kiln was not timed."""
    if "kiln_tflops" not in row:
        print(f"{shape:>16}  {row['error']}", flush=True)
        return
    parts = []
    for name in baselines:
        b = row["baselines"][name]
        parts.append(f"{name} {b['tflops']:6.1f} ({b['kiln_speedup']:.2f}x)"
                     if "tflops" in b else f"{name} error: {b['error']}")
    print(f"{shape:>16}  kiln {row['kiln_tflops']:6.1f} TFLOP/s  " + "  ".join(parts)
          + f"  err {row['kiln_rel_err']:.1e}", flush=True)


def relative_error(out, ref):
    """||out - ref|| / ||ref|| in float32."""
    return ((out.float() - ref.float()).norm() / ref.float().norm().clamp_min(1e-30)).item()


def driver_version():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown"


def environment():
    """Device, driver, date, torch version and the command line, for a result file."""
    return {"device": torch.cuda.get_device_name(), "driver": driver_version(),
            "date": datetime.date.today().isoformat(), "torch": torch.__version__,
            "command": " ".join(sys.argv)}


def parse_shapes(text):
    """'4096x14336x4096,256x14336x4096' -> [(4096, 14336, 4096), (256, 14336, 4096)]."""
    shapes = []
    for item in text.split(","):
        m, n, k = (int(v) for v in item.lower().split("x"))
        shapes.append((m, n, k))
    return shapes


def bar_plot(path, labels, series, ylabel, title):
    """Grouped bars, one group per label and one bar per series (name -> values, None for a
    missing value). Prints a message and draws nothing when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot")
        return
    x = range(len(labels))
    width = 0.8 / max(len(series), 1)
    fig, ax = plt.subplots(figsize=(max(9, 0.45 * len(labels) * len(series)), 4))
    for i, (name, values) in enumerate(series.items()):
        offset = (i - (len(series) - 1) / 2) * width
        ax.bar([j + offset for j in x], [v if v is not None else 0 for v in values], width,
               label=name)
    ax.set_xticks(list(x), labels, rotation=20)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
