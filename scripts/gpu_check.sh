#!/usr/bin/env bash
# The whole GPU check in one command, for a Hopper machine with nvcc, cmake,
# PyTorch and pytest but no LLVM/MLIR: builds the runtime standalone, runs
# test/gpu (correctness of every compiled kernel through the Python, C++ and
# C APIs), compute-sanitizer memcheck + racecheck on a small shape, and the
# benchmarks. Needs .device-carry from scripts/build_gpu_artifacts.sh.
#   scripts/gpu_check.sh [--quick] [--no-bench]
# Logs and results go to $OUT (default /tmp/kiln-gpu-check).
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
OUT=${OUT:-/tmp/kiln-gpu-check}
mkdir -p "$OUT"
QUICK=0; BENCH=1
for arg in "$@"; do
  case $arg in --quick) QUICK=1 ;; --no-bench) BENCH=0 ;; esac
done
export KILN_ARTIFACTS=$ROOT/.device-carry/artifacts
export KILN_RUNTIME_LIB=$ROOT/build-rt/lib/libkiln_runtime.so
export PYTHONPATH=$ROOT/runtime/python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1
status=0
step() { echo "== $*"; "$@" || { echo "FAILED: $*"; status=1; }; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/device.txt"
GEN=$(command -v ninja >/dev/null && echo Ninja || echo "Unix Makefiles")
step cmake -S runtime -B build-rt -G "$GEN" -DKILN_BUILD_TESTS=OFF \
  -DKILN_NLOHMANN_INCLUDE="$ROOT/.device-carry/include" > "$OUT/cmake.log"
step cmake --build build-rt -j "$(nproc)" > "$OUT/build.log" 2>&1 || tail -30 "$OUT/build.log"

PYTEST_ARGS=(-q -rs test/gpu --junitxml="$OUT/pytest.xml")
[ $QUICK = 1 ] && PYTEST_ARGS+=(-m "not slow")
step python3 -m pytest "${PYTEST_ARGS[@]}" > "$OUT/pytest.log" 2>&1
tail -40 "$OUT/pytest.log"

# compute-sanitizer on the C++ host example (small shape, edge tiles).
M=$KILN_ARTIFACTS/matmul.kiln.json
for tool in memcheck racecheck; do
  step compute-sanitizer --tool $tool --error-exitcode 9 build-rt/bin/matmul_host_cpp "$M" 200 300 136 \
    > "$OUT/sanitizer-$tool.log" 2>&1
  tail -3 "$OUT/sanitizer-$tool.log"
done

if [ $BENCH = 1 ]; then
  step python3 bench/bench_matmul.py --out "$OUT/bench_matmul.json" --plot "$OUT/bench_matmul.png" \
    $([ $QUICK = 1 ] && echo --quick) ${BENCH_ARGS:-}
fi
echo "gpu_check: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
