#!/usr/bin/env bash
# The whole GPU check in one command, for a Hopper machine with nvcc, cmake,
# PyTorch and pytest but no LLVM/MLIR: builds the runtime standalone, runs
# test/gpu (correctness of every compiled kernel through the Python, C++ and
# C APIs), the compute-sanitizer sweep (below), and the benchmarks
# (bench_matmul, then bench_swiglu and bench_epilogue when their kernels were
# built). Needs .device-carry from scripts/build_gpu_artifacts.sh.
#   scripts/gpu_check.sh [--quick] [--no-bench] [--sanitize-only | --no-sanitize]
# --quick leaves out the slow tests and runs the benchmarks' short shape lists
# (meant to stay within about 6 minutes on an H100/H200, the full run within
# 10); --no-bench skips the benchmarks. BENCH_ARGS are extra arguments for
# bench_matmul.py.
#
# The compute-sanitizer sweep runs each tool of $SANITIZERS (default: memcheck
# racecheck synccheck initcheck) over the matmul host example (C++ API) and
# over one launch of every compiled kernel at each edge shape of
# $SANITIZE_SHAPES (default "200,300,144 1,8,16 257,264,528": partial tiles in
# M, N and K, a single tile smaller than every tile size, several tiles with a
# K remainder) through test/gpu/sanitize_kernels.py. --sanitize-only runs just
# the runtime build and the sweep; --no-sanitize leaves the sweep out.
#
# Results go to $OUT (default /tmp/kiln-gpu-check), at most 8 files:
#   check.log          device, runtime build, compute-sanitizer runs and benchmark output
#   pytest.log         (with per-test times: --durations=0)
#   bench_matmul.json  bench_matmul.png  bench_swiglu.json  bench_swiglu.png  bench_epilogue.json
#   bench_fp8.json     (the fp8 GEMM and the fp8 SwiGLU)
#   bench_fp8_blockwise.json (fp8 with f32 block scales against F.scaled_mm's blockwise mode)
#   bench_grouped.json bench_grouped.png (grouped GEMM and grouped SwiGLU against torch._grouped_mm)
#   bench_gemm_grid.json (the GEMM shape grid; bench/bench_gemm_grid.py draws its heat map)
#   bench_reductions.json (row and column sums of the product beside the GEMM)
#   (bench_layouts and bench_batched print [K, N] weights against [N, K] and batched matmuls
#   against torch.bmm to the log only)
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
OUT=${OUT:-/tmp/kiln-gpu-check}
mkdir -p "$OUT"
QUICK=0; BENCH=1; SANITIZE=1; TESTS=1
for arg in "$@"; do
  case $arg in
    --quick) QUICK=1 ;;
    --no-bench) BENCH=0 ;;
    --no-sanitize) SANITIZE=0 ;;
    --sanitize-only) TESTS=0; BENCH=0 ;;
    *) echo "gpu_check: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
SANITIZERS=${SANITIZERS:-memcheck racecheck synccheck initcheck}
SANITIZE_SHAPES=${SANITIZE_SHAPES:-200,300,144 1,8,16 257,264,528}
export KILN_ARTIFACTS=$ROOT/.device-carry/artifacts
export KILN_RUNTIME_LIB=$ROOT/build-rt/lib/libkiln_runtime.so
export PYTHONPATH=$ROOT/runtime/python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1
LOG=$OUT/check.log
: > "$LOG"
status=0

# run [-t N|all] TITLE CMD...: runs CMD with its output appended to check.log
# under a header. The console gets the header, then the last N lines of the
# output (-t N), all of it as it comes (-t all), or nothing (no -t) unless it
# fails (then its last 30 lines). A failure sets the exit status; the checks go on.
run() {
  local show=0 title rc=0 tmp
  if [ "$1" = -t ]; then show=$2; shift 2; fi
  title=$1; shift
  tmp=$(mktemp)
  echo "== $title"
  if [ "$show" = all ]; then
    "$@" 2>&1 | tee "$tmp" || rc=$?
  else
    "$@" > "$tmp" 2>&1 || rc=$?
    if [ "$show" != 0 ]; then tail -n "$show" "$tmp"; fi
  fi
  { printf '\n== %s\n$ %s\n' "$title" "$*"; cat "$tmp"; } >> "$LOG"
  if [ $rc != 0 ]; then
    if [ "$show" = 0 ]; then tail -n 30 "$tmp"; fi
    echo "FAILED (exit $rc): $title" | tee -a "$LOG"
    status=1
  fi
  rm -f "$tmp"
}
# note TEXT: a line on the console and in check.log.
note() { echo "$*" | tee -a "$LOG"; }

note "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | tee -a "$LOG"
note "gpu_check $* at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%F %T') UTC"
names=""
for f in "$KILN_ARTIFACTS"/*.kiln.json; do [ -e "$f" ] && names="$names $(basename "$f" .kiln.json)"; done
note "artifacts:${names:- none in $KILN_ARTIFACTS}"

GEN=$(command -v ninja >/dev/null && echo Ninja || echo "Unix Makefiles")
run "configure the runtime" cmake -S runtime -B build-rt -G "$GEN" -DKILN_BUILD_TESTS=OFF \
  -DKILN_NLOHMANN_INCLUDE="$ROOT/.device-carry/include"
run "build the runtime" cmake --build build-rt -j "$(nproc)"

# pytest keeps its own log (the failures' tracebacks); a hung kernel ends the
# test after 300 s when pytest-timeout is there, and the run after 540 s.
PYTEST_ARGS=(-q -rs -p no:cacheprovider test/gpu --durations=0)
[ $QUICK = 1 ] && PYTEST_ARGS+=(-m "not slow")
python3 -c "import pytest_timeout" 2>/dev/null && PYTEST_ARGS+=(--timeout=300 --timeout-method=thread)
if [ $TESTS = 1 ]; then
  echo "== pytest test/gpu (log: pytest.log)"
  rc=0
  timeout 540 python3 -m pytest "${PYTEST_ARGS[@]}" > "$OUT/pytest.log" 2>&1 || rc=$?
  tail -40 "$OUT/pytest.log"
  printf '\n== pytest test/gpu: exit %s, %s\n' "$rc" "$(tail -1 "$OUT/pytest.log")" >> "$LOG"
  if [ $rc != 0 ]; then echo "FAILED (exit $rc): pytest"; status=1; fi
fi

# compute-sanitizer at edge shapes: the C++ host example (matmul) per shape,
# then one launch of every compiled kernel per shape from Python. Only Kiln's
# kernels run on the GPU there (inputs are copied from the host, outputs are
# only written), and PyTorch's caching allocator is off, so memcheck sees every
# allocation's end and initcheck only Kiln's reads.
if [ $SANITIZE = 1 ]; then
  M=$KILN_ARTIFACTS/matmul.kiln.json
  SK_SHAPE=$(python3 -c "import torch; print(f'{128 * (torch.cuda.get_device_properties(0).multi_processor_count + 1) - 37},200,72')")
  for tool in $SANITIZERS; do
    for shape in $SANITIZE_SHAPES; do
      # shellcheck disable=SC2086  # the shape's three numbers are arguments
      run -t 3 "compute-sanitizer $tool: matmul_host_cpp ${shape//,/x}" \
        timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 build-rt/bin/matmul_host_cpp "$M" ${shape//,/ }
    done
    run -t 4 "compute-sanitizer $tool: every kernel at $SANITIZE_SHAPES (sanitize_kernels.py)" \
      timeout 600 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 test/gpu/sanitize_kernels.py --shapes "$SANITIZE_SHAPES"
    # One tile more than the GPU has SMs (and clusters of 2): the stream-K
    # kernels split the last tiles' K steps and join them through the
    # workspace, which the shapes above are too small to do.
    run -t 4 "compute-sanitizer $tool: stream-K kernels at $SK_SHAPE (sanitize_kernels.py)" \
      timeout 600 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 test/gpu/sanitize_kernels.py --shapes "$SK_SHAPE" --only matmul_sk_f32,swiglu_sk_c2
  done
fi

# shellcheck disable=SC2086  # $Q and BENCH_ARGS are lists of words
if [ $BENCH = 1 ]; then
  Q=$([ $QUICK = 1 ] && echo --quick)
  run -t all "bench_matmul" timeout 480 python3 bench/bench_matmul.py --out "$OUT/bench_matmul.json" \
    --plot "$OUT/bench_matmul.png" $Q ${BENCH_ARGS:-}
  if [ -e "$KILN_ARTIFACTS/swiglu.kiln.json" ]; then
    run -t all "bench_swiglu" timeout 480 python3 bench/bench_swiglu.py \
      --artifact "$KILN_ARTIFACTS/swiglu.kiln.json" --out "$OUT/bench_swiglu.json" \
      --plot "$OUT/bench_swiglu.png" $Q
  else
    note "== bench_swiglu: skipped, $KILN_ARTIFACTS/swiglu.kiln.json was not built"
  fi
  if [ -e "$KILN_ARTIFACTS/linear_bias_residual.kiln.json" ]; then
    run -t all "bench_epilogue" timeout 300 python3 bench/bench_epilogue.py \
      --artifact "$KILN_ARTIFACTS/linear_bias_residual.kiln.json" --out "$OUT/bench_epilogue.json" \
      $Q
  else
    note "== bench_epilogue: skipped, $KILN_ARTIFACTS/linear_bias_residual.kiln.json was not built"
  fi
  if [ -e "$KILN_ARTIFACTS/matmul_fp8.kiln.json" ]; then
    run -t all "bench_fp8" timeout 300 python3 bench/bench_fp8.py \
      --artifact "$KILN_ARTIFACTS/matmul_fp8.kiln.json" --out "$OUT/bench_fp8.json" $Q
  else
    note "== bench_fp8: skipped, $KILN_ARTIFACTS/matmul_fp8.kiln.json was not built"
  fi
  if [ -e "$KILN_ARTIFACTS/gemm_fp8_blockwise.kiln.json" ] && [ -e "$KILN_ARTIFACTS/fp8_blockwise.kiln.json" ]; then
    run -t all "bench_fp8_blockwise" timeout 300 python3 bench/bench_fp8_blockwise.py \
      --out "$OUT/bench_fp8_blockwise.json" $Q
  else
    note "== bench_fp8_blockwise: skipped, gemm_fp8_blockwise / fp8_blockwise were not built"
  fi
  if [ -e "$KILN_ARTIFACTS/moe_grouped.kiln.json" ] && [ -e "$KILN_ARTIFACTS/moe_swiglu.kiln.json" ]; then
    run -t all "bench_grouped" timeout 300 python3 bench/bench_grouped.py \
      --artifacts "$KILN_ARTIFACTS" --out "$OUT/bench_grouped.json" --plot "$OUT/bench_grouped.png" \
      $([ $QUICK = 1 ] && echo --cases 0,2,3,4)
  else
    note "== bench_grouped: skipped, moe_grouped / moe_swiglu were not built"
  fi
  if [ -e "$KILN_ARTIFACTS/kn_matmul.kiln.json" ]; then
    run -t all "bench_layouts" timeout 200 python3 bench/bench_layouts.py --iters 60 \
      $([ $QUICK = 1 ] && echo --shapes 4096x4096x4096,8192x8192x8192)
  else
    note "== bench_layouts: skipped, kn_matmul was not built"
  fi
  if [ -e "$KILN_ARTIFACTS/bmm_kn.kiln.json" ]; then
    run -t all "bench_batched" timeout 200 python3 bench/bench_batched.py --iters 30 \
      $([ $QUICK = 1 ] && echo --shapes 32:1024x1024x128,8:4096x4096x4096)
  else
    note "== bench_batched: skipped, bmm_kn was not built"
  fi
  if [ -e "$KILN_ARTIFACTS/gemm_row_sum.kiln.json" ] && [ -e "$KILN_ARTIFACTS/gemm_col_sum.kiln.json" ]; then
    run -t all "bench_reductions" timeout 200 python3 bench/bench_reductions.py \
      --out "$OUT/bench_reductions.json" $Q
  else
    note "== bench_reductions: skipped, gemm_row_sum / gemm_col_sum were not built"
  fi
  if [ -e "$KILN_ARTIFACTS/matmul_f16.kiln.json" ]; then
    run -t all "bench_gemm_grid" timeout 300 python3 bench/bench_gemm_grid.py \
      --out "$OUT/bench_gemm_grid.json" --plot "" $Q
  else
    note "== bench_gemm_grid: skipped, matmul_f16 was not built"
  fi
fi
note "gpu_check: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
