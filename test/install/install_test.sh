#!/usr/bin/env bash
# Kiln as an installed product, the way a C++ or Python user gets it:
#   1. `cmake --install` of the build into a fresh prefix: the layout (bin/, lib/ with a SONAME,
#      include/kiln/, lib/cmake/Kiln), no link to the NVIDIA driver, the installed compiler runs,
#      and the installed kiln-run starts and reports errors (a missing driver included);
#   2. downstream projects against that prefix (find_package(Kiln), Kiln::runtime): examples/host,
#      which calls the driver itself, and test/install/downstream, which uses only the runtime
#      and so starts, loads a kernel and reports a missing driver at its first launch;
#   3. `pip install --no-build-isolation` of runtime/python into a fresh virtual environment
#      (--system-site-packages, for the system's setuptools and wheel), KILN_PREFIX=<prefix>;
#   4. in that environment (check_package.py): import kiln, kiln.compile(examples/matmul.kiln,
#      chip="sm_90a") twice, the second from the cache, both timed; compiler errors; without a
#      driver, that the compiled kernel loads and its launch says the driver is missing.
#
#   install_test.sh <kiln build dir> <work dir>
#
# No GPU or NVIDIA driver is needed, and none is faked: the runtime loads libcuda.so.1 only when
# a launch needs it, and where there is none the test checks the message that says so. Without
# ptxas the compile steps are skipped (KILN_INSTALL_TEST_SKIPPED, which ctest reports as a skip).
set -euo pipefail
BUILD=$(cd "${1:?usage: install_test.sh <build dir> <work dir>}" && pwd)
WORK=${2:?usage: install_test.sh <build dir> <work dir>}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
PREFIX=$WORK/prefix

step() { echo "install-test: $*"; }
fail() { echo "install-test: FAILED: $*" >&2; exit 1; }

case ${KILN_PTXAS:-} in *-NOTFOUND|"") unset KILN_PTXAS ;; esac
HAVE_PTXAS=0
if [ -n "${KILN_PTXAS:-}" ] && [ -x "$KILN_PTXAS" ]; then HAVE_PTXAS=1; fi

# Is the NVIDIA driver here (what the runtime would dlopen for a launch)? Either way the test
# runs; without one it checks what a launch says. (Pipelines into grep below read all of their
# input: `grep -q` would stop early and, under pipefail, fail the pipeline with the writer's
# SIGPIPE.)
unset KILN_LIBCUDA
HAVE_DRIVER=0
if "${KILN_INSTALL_TEST_PYTHON:-python3}" -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' \
    > /dev/null 2>&1; then
  HAVE_DRIVER=1
  step "an NVIDIA driver is installed (libcuda.so.1)"
else
  step "no NVIDIA driver (libcuda.so.1): everything up to the first launch must work without it"
fi
NO_DRIVER="the NVIDIA driver (libcuda.so.1) could not be loaded (libcuda.so.1: cannot open"

# --- 1. cmake --install ------------------------------------------------------------------------
start=$SECONDS
cmake --install "$BUILD" --prefix "$PREFIX" > "$WORK/install.log" || { cat "$WORK/install.log"; fail "cmake --install"; }
for f in bin/kiln bin/kiln-opt bin/kiln-translate bin/kiln-run \
         include/kiln/runtime/kiln.h include/kiln/runtime/Runtime.h \
         lib/cmake/Kiln/KilnConfig.cmake lib/cmake/Kiln/KilnConfigVersion.cmake \
         lib/cmake/Kiln/KilnTargets.cmake lib/libkiln_runtime.so; do
  [ -e "$PREFIX/$f" ] || fail "the install has no $f"
done
soname=$(objdump -p "$PREFIX/lib/libkiln_runtime.so" | awk '$1 == "SONAME" { print $2 }')
[ -n "$soname" ] && [ "$soname" != libkiln_runtime.so ] || fail "libkiln_runtime.so has SONAME '$soname'"
[ -e "$PREFIX/lib/$soname" ] || fail "the install has no lib/$soname"
step "installed into $PREFIX in $((SECONDS - start)) s; libkiln_runtime.so has SONAME $soname"
# The runtime loads the driver when a launch needs it; linking it would keep the library and
# kiln-run from even starting on a machine without one.
for f in lib/libkiln_runtime.so bin/kiln-run; do
  if objdump -p "$PREFIX/$f" | grep 'NEEDED *libcuda' > /dev/null; then
    fail "$f links the NVIDIA driver: $(objdump -p "$PREFIX/$f" | grep NEEDED | tr -s ' ' | tr '\n' ',')"
  fi
done
# The compiler's internal static libraries stay in the build.
stray=$(find "$PREFIX/lib" -maxdepth 1 -name '*.a')
[ -z "$stray" ] || fail "the install has static libraries: $stray"
# Nothing of the build tree may leak into the installed files.
if grep -rl --include='*.cmake' "$BUILD\|$SRC" "$PREFIX/lib/cmake"; then
  fail "the installed CMake files name the build or source tree"
fi

"$PREFIX/bin/kiln" --version > "$WORK/version.txt" || fail "the installed kiln --version"
head -n 1 "$WORK/version.txt" | grep "^kiln $(cat "$SRC/VERSION")\$" > /dev/null ||
  fail "kiln --version says '$(head -n 1 "$WORK/version.txt")', VERSION says $(cat "$SRC/VERSION")"
"$PREFIX/bin/kiln-opt" --help > /dev/null || fail "the installed kiln-opt does not start"
"$PREFIX/bin/kiln-translate" --help > /dev/null || fail "the installed kiln-translate does not start"
if [ $HAVE_PTXAS = 1 ]; then
  "$PREFIX/bin/kiln" compile "$SRC/examples/matmul.kiln" --chip sm_90a -o "$WORK/out/matmul.cubin" ||
    fail "the installed kiln compile"
  [ -s "$WORK/out/matmul.kiln.json" ] || fail "the installed kiln wrote no manifest"
else
  "$PREFIX/bin/kiln" compile "$SRC/examples/matmul.kiln" --chip sm_90a --emit=ptx -o "$WORK/out/matmul.ptx" ||
    fail "the installed kiln compile --emit=ptx"
fi

# kiln-run starts without a driver: --help, and a missing manifest is its runtime error.
"$PREFIX/bin/kiln-run" --help > /dev/null || fail "the installed kiln-run --help"
set +e
out=$("$PREFIX/bin/kiln-run" "$WORK/missing.kiln.json" --dims M=64 2>&1); status=$?
set -e
[ $status = 1 ] && grep -q "missing.kiln.json: cannot read the manifest" <<< "$out" ||
  fail "kiln-run on a missing manifest exited $status: $out"
if [ $HAVE_PTXAS = 1 ]; then
  # The compiled matmul: read and checked, then launched, which needs the driver.
  set +e
  out=$("$PREFIX/bin/kiln-run" "$WORK/out/matmul.kiln.json" --dims M=64,N=64,K=64 --iters 0 2>&1); status=$?
  set -e
  echo "  kiln-run out/matmul.kiln.json --dims M=64,N=64,K=64 -> exit $status: $(head -n 1 <<< "$out")"
  if [ $HAVE_DRIVER = 0 ]; then
    [ $status = 1 ] && grep -qF "kiln-run: $NO_DRIVER" <<< "$out" &&
      grep -qF "compiling one does not" <<< "$out" ||
      fail "kiln-run without a driver exited $status: $out"
  else
    [ $status = 0 ] || [ $status = 1 ] || fail "kiln-run on the compiled matmul exited $status: $out"
  fi
fi

# --- 2. a downstream project: examples/host against the install --------------------------------
start=$SECONDS
gen=()
if command -v ninja > /dev/null; then gen=(-G Ninja); fi
cmake -S "$SRC/examples/host" -B "$WORK/host" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" > "$WORK/host-configure.log" 2>&1 ||
  { cat "$WORK/host-configure.log"; fail "configuring examples/host against the install"; }
grep -q "Kiln $(cat "$SRC/VERSION") from $PREFIX/lib/cmake/Kiln" "$WORK/host-configure.log" ||
  { cat "$WORK/host-configure.log"; fail "examples/host did not find the installed Kiln"; }
cmake --build "$WORK/host" > "$WORK/host-build.log" 2>&1 ||
  { cat "$WORK/host-build.log"; fail "building examples/host against the install"; }
step "examples/host configured and built against the install in $((SECONDS - start)) s"
for exe in matmul_host_cpp matmul_host_c; do
  bin=$WORK/host/$exe
  objdump -p "$bin" | grep "NEEDED *$soname" > /dev/null || fail "$exe does not link $soname"
  # They make their buffers with the driver API, so they link the driver themselves and cannot
  # start without it (test/install/downstream below is the runtime alone).
  objdump -p "$bin" | grep "NEEDED *libcuda.so.1" > /dev/null || fail "$exe does not link libcuda.so.1"
  if [ $HAVE_DRIVER = 0 ]; then
    echo "  $exe: built; not run (it calls the driver itself, and there is none)"
    continue
  fi
  # It starts (the installed library resolves) and reports the runtime's error for a missing file.
  set +e
  out=$("$bin" "$WORK/missing.kiln.json" 2>&1); status=$?
  set -e
  [ $status = 2 ] || fail "$exe on a missing manifest exited $status: $out"
  grep -q "missing.kiln.json" <<< "$out" || fail "$exe on a missing manifest said: $out"
  ldd "$bin" | grep "$soname => $PREFIX/lib/$soname" > /dev/null || fail "$exe does not load the installed $soname: $(ldd "$bin")"
  if [ $HAVE_PTXAS = 1 ]; then
    # The real kernel: loads (C++ and C APIs); without a GPU it stops at the first CUDA call.
    set +e
    out=$("$bin" "$WORK/out/matmul.kiln.json" 64 64 64 2>&1); status=$?
    set -e
    echo "  $exe out/matmul.kiln.json 64 64 64 -> exit $status: $(head -n 1 <<< "$out")"
    [ $status = 0 ] || [ $status = 2 ] || fail "$exe on the compiled matmul exited $status: $out"
  fi
done

# A program that uses only Kiln::runtime: no libcuda link, so it starts without a driver, loads a
# kernel, and its first call that needs the GPU (prepare) says what is missing.
cmake -S "$SRC/test/install/downstream" -B "$WORK/downstream" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" > "$WORK/downstream-configure.log" 2>&1 ||
  { cat "$WORK/downstream-configure.log"; fail "configuring test/install/downstream against the install"; }
cmake --build "$WORK/downstream" > "$WORK/downstream-build.log" 2>&1 ||
  { cat "$WORK/downstream-build.log"; fail "building test/install/downstream against the install"; }
bin=$WORK/downstream/prepare_check
objdump -p "$bin" | grep "NEEDED *$soname" > /dev/null || fail "prepare_check does not link $soname"
if objdump -p "$bin" | grep 'NEEDED *libcuda' > /dev/null; then
  fail "Kiln::runtime made prepare_check link the NVIDIA driver"
fi
set +e
out=$("$bin" "$WORK/missing.kiln.json" 2>&1); status=$?
set -e
[ $status = 2 ] && grep -q "missing.kiln.json: cannot read the manifest" <<< "$out" ||
  fail "prepare_check on a missing manifest exited $status: $out"
if [ $HAVE_PTXAS = 1 ]; then
  set +e
  out=$("$bin" "$WORK/out/matmul.kiln.json" 2>&1); status=$?
  set -e
  echo "  prepare_check out/matmul.kiln.json -> exit $status: $(tr '\n' ' ' <<< "$out" | cut -c1-160)"
  grep -q "^loaded matmul for sm_90a$" <<< "$out" || fail "prepare_check did not load the matmul: $out"
  if [ $HAVE_DRIVER = 0 ]; then
    [ $status = 1 ] && grep -qF "prepare: device error: $NO_DRIVER" <<< "$out" ||
      fail "prepare_check without a driver exited $status: $out"
  else
    [ $status = 0 ] || [ $status = 1 ] || fail "prepare_check on the compiled matmul exited $status: $out"
  fi
fi
step "test/install/downstream (the runtime alone) built against the install and run"

# --- 3. pip install into a fresh virtual environment -------------------------------------------
# An interpreter whose venv sees setuptools and wheel (Debian: python3-venv, python3-setuptools,
# python3-wheel, python3-pip, which scripts/setup.sh installs).
PY=
for candidate in "${KILN_INSTALL_TEST_PYTHON:-}" python3 /usr/bin/python3; do
  [ -n "$candidate" ] || continue
  if "$candidate" -c "import venv, setuptools, wheel, pip" > /dev/null 2>&1; then
    PY=$(command -v "$candidate"); break
  fi
done
[ -n "$PY" ] || fail "no python3 with venv, setuptools, wheel and pip (Debian: python3-venv python3-setuptools python3-wheel python3-pip)"
start=$SECONDS
"$PY" -m venv --system-site-packages "$WORK/venv" || fail "$PY -m venv"
# The package builds in a copy of runtime/python, so the checkout gets no build/ or egg-info.
mkdir -p "$WORK/pkgsrc/runtime"
cp "$SRC/VERSION" "$WORK/pkgsrc/"
cp -r "$SRC/runtime/python" "$WORK/pkgsrc/runtime/python"
rm -rf "$WORK/pkgsrc/runtime/python/tests"
env -u PYTHONPATH -u KILN_RUNTIME_LIB -u KILN_COMPILER KILN_PREFIX="$PREFIX" \
  "$WORK/venv/bin/python" -m pip install --no-build-isolation --no-index --no-deps \
  --disable-pip-version-check "$WORK/pkgsrc/runtime/python" > "$WORK/pip.log" 2>&1 ||
  { cat "$WORK/pip.log"; fail "pip install --no-build-isolation runtime/python"; }
step "pip-installed runtime/python into a fresh venv ($PY) in $((SECONDS - start)) s"

# --- 4. the package, from outside the source tree ----------------------------------------------
args=()
[ $HAVE_PTXAS = 1 ] || args=(--no-ptxas)
(cd "$WORK" && env -u PYTHONPATH -u KILN_RUNTIME_LIB -u KILN_COMPILER \
  KILN_CACHE_DIR="$WORK/cache" "$WORK/venv/bin/python" "$SRC/test/install/check_package.py" \
  --venv "$WORK/venv" --prefix "$PREFIX" --example "$SRC/examples/matmul.kiln" "${args[@]}") ||
  fail "the installed Python package (check_package.py)"

if [ $HAVE_PTXAS = 0 ]; then
  echo "KILN_INSTALL_TEST_SKIPPED: no ptxas, so nothing was compiled to a cubin (layout, downstream build and pip install passed)"
fi
step "passed"
