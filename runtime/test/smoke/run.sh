#!/bin/bash
# GPU smoke test of the runtime on a Hopper machine, independent of the compiler:
#   runtime/test/smoke/run.sh [build dir (default build-rt)] [extra cmake args...]
# Builds the runtime standalone, compiles the hand-written kernels with nvcc, then runs the C++ and
# C host examples, kiln-run and smoke.py (PyTorch) against them, and against a compiled matmul if
# $KILN_MATMUL_MANIFEST (default out/matmul.kiln.json) exists. Pass
# -DKILN_NLOHMANN_INCLUDE=<dir> where nlohmann-json is not installed.
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=${1:-build-rt}
shift || true
cd "$ROOT"
GEN=$(command -v ninja >/dev/null && echo Ninja || echo "Unix Makefiles")
cmake -S runtime -B "$BUILD" -G "$GEN" "$@" >/dev/null || exit 1
cmake --build "$BUILD" -j "$(nproc)" >/dev/null || cmake --build "$BUILD" || exit 1
SMOKE="$BUILD/smoke"
mkdir -p "$SMOKE"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
for k in tma_copy naive_matmul; do
  "$NVCC" -arch=sm_90a -cubin -o "$SMOKE/$k.cubin" "runtime/test/smoke/$k.cu" || exit 1
done
cp runtime/test/smoke/*.kiln.json "$SMOKE/"

fail=0
step() { echo "== $*"; "$@" || { echo "FAILED: $*"; fail=1; }; }
step "$BUILD/bin/matmul_host_cpp" "$SMOKE/naive_matmul.kiln.json" 256 256 512
step "$BUILD/bin/matmul_host_c" "$SMOKE/naive_matmul.kiln.json" 100 72 40
step "$BUILD/bin/kiln-run" "$SMOKE/naive_matmul.kiln.json" --dims M=512,N=384,K=256 --check --iters 10
step "$BUILD/bin/kiln-run" "$SMOKE/tma_copy.kiln.json" --dims M=4096,K=4096 --iters 50 --verbose
step "$BUILD/bin/kiln-run" "$SMOKE/naive_matmul_variants.kiln.json" --dims M=96,N=80,K=64 --check --verbose
step "$BUILD/bin/kiln-run" "$SMOKE/naive_matmul_variants.kiln.json" --dims M=2048,N=2048,K=64 --check --verbose
step env KILN_RUNTIME_LIB="$BUILD/lib/libkiln_runtime.so" python3 runtime/test/smoke/smoke.py "$SMOKE"
# A compiled matmul, when there is one (kiln compile examples/matmul.kiln -o out/matmul.cubin).
MATMUL=${KILN_MATMUL_MANIFEST:-out/matmul.kiln.json}
if [ -f "$MATMUL" ]; then
  step "$BUILD/bin/kiln-run" "$MATMUL" --dims M=1000,N=1000,K=520 --check --iters 20
  step "$BUILD/bin/matmul_host_cpp" "$MATMUL" 256 256 512
  step "$BUILD/bin/matmul_host_c" "$MATMUL" 300 260 1000
else
  echo "== no $MATMUL: compiled matmul not checked"
fi
if [ -x "$BUILD/bin/KilnRuntimeTests" ]; then step "$BUILD/bin/KilnRuntimeTests" --gtest_brief=1; fi
echo "smoke: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
