#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test that
# needs no GPU under ctest: the lit + FileCheck suite (one ctest entry), the
# GoogleTest unit tests (one entry per TEST) and the runtime's Python tests.
# Tests marked `REQUIRES: ptxas` run where a CUDA toolkit is found and are
# reported as unsupported by lit elsewhere.
#
#   scripts/test.sh [ctest arguments...]     e.g. -R target, -L ..., -V
#
# BUILD and JOBS as for scripts/build.sh; FUZZ_BUILD (default: $BUILD-fuzz) is the fuzz +
# UBSan build, KILN_FUZZ=0 skips it. The last line printed is ctest's
# summary ("N% tests passed, N tests failed out of N"), and the exit status is
# ctest's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
export BUILD

# The fuzz + UBSan build (test/fuzz, docs/testing.md): Kiln's code with UBSan and the
# libFuzzer targets, built with clang in a folder of its own; the main build's ctest runs its
# tests as one entry, `fuzz-ubsan`. KILN_FUZZ=0 leaves it out.
FUZZ_BUILD=${FUZZ_BUILD:-$BUILD-fuzz}
main_args=${CMAKE_ARGS:-}
if [ "${KILN_FUZZ:-1}" != 0 ]; then
  CLANG=${KILN_CLANG:-clang-22}
  BUILD=$FUZZ_BUILD BUILD_TYPE=Release \
    CMAKE_ARGS="-DCMAKE_C_COMPILER=$CLANG -DCMAKE_CXX_COMPILER=${CLANG/clang/clang++} -DKILN_FUZZ=ON -DKILN_BUILD_TESTS=OFF" \
    "$ROOT/scripts/build.sh" kiln-fuzz-frontend kiln-fuzz-ir KilnFrontendTestsUBSan
  main_args="$main_args -DKILN_FUZZ_BUILD_DIR=$FUZZ_BUILD"
else
  main_args="$main_args -DKILN_FUZZ_BUILD_DIR="
fi
CMAKE_ARGS=$main_args "$ROOT/scripts/build.sh"

log=$BUILD/.kiln-ctest.log
start=$SECONDS
status=0
ctest --test-dir "$BUILD" --output-on-failure -j "${JOBS:-$(nproc)}" "$@" 2>&1 | tee "$log" ||
  status=$?
echo "test: ctest took $((SECONDS - start)) s; full log in $log"
# ctest prints its summary before the timing and the list of failures; repeat
# it so that it is the last line, which is what CI reads.
summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)
if [ -z "$summary" ]; then
  summary="0% tests passed, 0 tests failed out of 0"
  [ $status = 0 ] && status=1 # no tests found is a broken build, not a pass
fi
echo "$summary"
exit $status
