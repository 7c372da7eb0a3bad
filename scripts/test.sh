#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test that
# needs no GPU under ctest: the lit + FileCheck suite (one ctest entry), the
# GoogleTest unit tests (one entry per TEST) and the runtime's Python tests.
# Tests marked `REQUIRES: ptxas` run where a CUDA toolkit is found and are
# reported as unsupported by lit elsewhere.
#
#   scripts/test.sh [ctest arguments...]     e.g. -R target, -L ..., -V
#
# BUILD and JOBS as for scripts/build.sh. The last line printed is ctest's
# summary ("N% tests passed, N tests failed out of N"), and the exit status is
# ctest's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
export BUILD

"$ROOT/scripts/build.sh"

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
