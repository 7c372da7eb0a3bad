#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), configures the build once and
# builds incrementally with Ninja.
#
#   scripts/build.sh [ninja targets...]     (default: everything)
#
# Environment:
#   BUILD       build folder (default: build/ in the repository)
#   JOBS        parallel compile jobs (default: ninja's choice, one per core + 2)
#   BUILD_TYPE  CMake build type of a new build folder (default: Release)
#   CMAKE_ARGS  extra arguments for the configure step
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}

"$ROOT/scripts/setup.sh" --env-file "$BUILD/.kiln-setup.env"
# KILN_PTXAS, KILN_CUDA_ROOT: the toolkit setup.sh found (or empty).
. "$BUILD/.kiln-setup.env"

# Configure when the arguments change (below): a CUDA toolkit installed since the
# last run changes KILN_PTXAS. An empty KILN_PTXAS turns the ptxas tests off
# instead of letting CMake pick a toolkit setup.sh rejected (too old for the PTX
# Kiln emits).
cmake_args=(-S "$ROOT" -B "$BUILD" -DKILN_PTXAS="$KILN_PTXAS")
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake_args+=(-G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}")
elif ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$BUILD/CMakeCache.txt"; then
  echo "build: $BUILD was configured with another generator than Ninja;" \
       "remove it or choose another folder with BUILD=..." >&2
  exit 1
fi
# /usr (Debian's nvidia-cuda-dev) is where FindCUDAToolkit looks anyway.
if [ -n "$KILN_CUDA_ROOT" ] && [ "$KILN_CUDA_ROOT" != /usr ]; then
  cmake_args+=(-DCUDAToolkit_ROOT="$KILN_CUDA_ROOT")
fi
# shellcheck disable=SC2206  # CMAKE_ARGS is a list of words on purpose
cmake_args+=(${CMAKE_ARGS:-})

# Configuring again is only needed when these arguments change (a new
# toolkit, other CMAKE_ARGS): ninja re-runs CMake itself when a CMakeLists.txt
# changes. Skipping it keeps a rebuild of an up-to-date tree at ninja's
# no-op cost.
args_file=$BUILD/.kiln-configure.args
if [ -f "$BUILD/CMakeCache.txt" ] && [ -f "$args_file" ] &&
   [ "$(cat "$args_file")" = "${cmake_args[*]}" ]; then
  echo "build: configured as before (cmake ${cmake_args[*]})"
else
  echo "build: cmake ${cmake_args[*]}"
  cmake "${cmake_args[@]}" > "$BUILD/.kiln-configure.log" 2>&1 || {
    cat "$BUILD/.kiln-configure.log"
    rm -f "$args_file"
    echo "build: configuring $BUILD failed" >&2
    exit 1
  }
  printf '%s' "${cmake_args[*]}" > "$args_file"
  grep -E '^-- (ptxas|Kiln runtime)' "$BUILD/.kiln-configure.log" | sed 's/^-- /build: /' || true
fi

ninja_args=(-C "$BUILD")
[ -n "${JOBS:-}" ] && ninja_args+=(-j "$JOBS")
echo "build: ninja ${ninja_args[*]} $*"
start=$SECONDS
ninja "${ninja_args[@]}" "$@"
echo "build: up to date in $BUILD ($((SECONDS - start)) s)"
