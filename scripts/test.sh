#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test that
# needs no GPU under ctest: the lit + FileCheck suite (one ctest entry), the
# GoogleTest unit tests (one entry per TEST) and the runtime's Python tests.
# Tests marked `REQUIRES: ptxas` run where a CUDA toolkit is found and are
# reported as unsupported by lit elsewhere.
#
#   scripts/test.sh [ctest arguments...]     e.g. -R target, -L ..., -V
#
# BUILD and JOBS as for scripts/build.sh; SAN_BUILD (default: $BUILD-san) is the sanitizer
# build, KILN_SANITIZE=0 skips it. The last line printed is ctest's
# summary ("N% tests passed, N tests failed out of N"), and the exit status is
# ctest's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
export BUILD

# The sanitizer build (docs/testing.md): Kiln's code with ASan and UBSan, its tools, unit tests
# and the libFuzzer targets, built with clang in a folder of its own; the main build's ctest runs
# its whole ctest (lit suite, unit tests, fuzz smoke runs) as one entry, `sanitizers`.
# KILN_SANITIZE=0 leaves it out.
SAN_BUILD=${SAN_BUILD:-$BUILD-san}
main_args=${CMAKE_ARGS:-}
if [ "${KILN_SANITIZE:-1}" != 0 ]; then
  CLANG=${KILN_CLANG:-clang-22}
  BUILD=$SAN_BUILD BUILD_TYPE=Release \
    CMAKE_ARGS="-DCMAKE_C_COMPILER=$CLANG -DCMAKE_CXX_COMPILER=${CLANG/clang/clang++} -DKILN_SANITIZE=ON" \
    "$ROOT/scripts/build.sh"
  main_args="$main_args -DKILN_SANITIZE_BUILD_DIR=$SAN_BUILD"
else
  main_args="$main_args -DKILN_SANITIZE_BUILD_DIR="
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
