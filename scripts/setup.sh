#!/usr/bin/env bash
# Installs what Kiln needs to build and test, only what is missing, and reports
# the CUDA toolkit it will use.
#
#   scripts/setup.sh [--dry-run] [--env-file PATH]
#
#   --dry-run        say what would be installed (and how), install nothing
#   --env-file PATH  also write the CUDA toolkit found as shell assignments
#                    (KILN_PTXAS, KILN_CUDA_ROOT, KILN_PTXAS_OK) for
#                    scripts/build.sh to pass to cmake
#
# Debian/Ubuntu only: packages are checked with `dpkg -s` and installed with
# apt-get (through sudo when not root). `apt-get update` runs only when
# something must be installed, so a machine that has everything touches no
# package index. KILN_SETUP_ASSUME_MISSING="pkg ..." treats packages as missing
# (with --dry-run: a way to check the install path without uninstalling).
#
# The CUDA toolkit is not a Debian package Kiln can use (ptxas must know PTX
# 8.8, CUDA >= 12.9), so it is only looked for: $KILN_PTXAS, $CUDA_HOME,
# /usr/local/cuda, then PATH, the order the compiler itself uses. Without it the
# compiler still builds, `kiln compile` can write PTX but no cubin, and the lit
# tests marked `REQUIRES: ptxas` are reported as unsupported.
set -euo pipefail

# What the build needs: CMake + Ninja + a C++17 compiler; LLVM/MLIR 22.1
# (libMLIR.so, mlir-tblgen, FileCheck, lit, not); GoogleTest for the unit
# tests; nlohmann-json for the manifest; python3 for lit and the runtime's
# Python tests; venv, pip, setuptools and wheel for the test that pip-installs
# the Python package offline into a fresh virtual environment (test/install);
# clang 22 and its runtimes (libFuzzer, UBSan) for the fuzz + UBSan build
# scripts/test.sh adds (docs/testing.md).
PACKAGES=(
  cmake ninja-build g++ python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libgtest-dev nlohmann-json3-dev
  python3-venv python3-pip python3-setuptools python3-wheel
  clang-22 libclang-rt-22-dev
)
# The oldest ptxas that accepts the PTX the compiler emits (`+ptx88`).
MIN_CUDA_MAJOR=12
MIN_CUDA_MINOR=9

DRY_RUN=0
ENV_FILE=
while [ $# -gt 0 ]; do
  case $1 in
    --dry-run) DRY_RUN=1 ;;
    --env-file) ENV_FILE=${2:?--env-file needs a path}; shift ;;
    --env-file=*) ENV_FILE=${1#--env-file=} ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "setup: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

say() { echo "setup: $*"; }

# --- Debian packages ---------------------------------------------------------

# A package counts as present only when fully installed; `dpkg -s` also
# succeeds for removed packages whose configuration files remain. (The output
# is captured first: `dpkg -s | grep -q` can fail under pipefail when grep
# exits before dpkg has written everything.)
installed() {
  local info
  info=$(dpkg -s "$1" 2>/dev/null) || return 1
  grep -q '^Status: install ok installed' <<< "$info"
}

install_packages() {
  if ! command -v dpkg >/dev/null || ! command -v apt-get >/dev/null; then
    say "not a Debian/Ubuntu system (no dpkg/apt-get); install these yourself if missing:"
    say "  ${PACKAGES[*]}"
    return 0
  fi

  local missing=() p
  for p in "${PACKAGES[@]}"; do
    if [[ " ${KILN_SETUP_ASSUME_MISSING:-} " == *" $p "* ]] || ! installed "$p"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "all ${#PACKAGES[@]} packages present (${PACKAGES[*]})"
    return 0
  fi

  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then
      sudo=(sudo)
    elif [ $DRY_RUN = 0 ]; then
      say "missing: ${missing[*]}; run as root or install sudo" >&2
      exit 1
    fi
  fi
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
  say "missing: ${missing[*]}"
  if [ $DRY_RUN = 1 ]; then
    say "dry run; would run:"
    say "  ${apt[*]} update"
    say "  ${apt[*]} install -y --no-install-recommends ${missing[*]}"
    return 0
  fi
  "${apt[@]}" update
  if ! "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; then
    # The usual cause: a release whose archive has no LLVM 22.
    if ! apt-cache show libmlir-22-dev >/dev/null 2>&1; then
      local codename
      codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
      say "this release's package archive has no LLVM/MLIR 22; add LLVM's own archive and rerun:" >&2
      say "  wget -qO- https://apt.llvm.org/llvm-snapshot.gpg.key | sudo tee /etc/apt/trusted.gpg.d/apt.llvm.org.asc" >&2
      say "  echo 'deb http://apt.llvm.org/$codename/ llvm-toolchain-$codename-22 main' | sudo tee /etc/apt/sources.list.d/llvm-22.list" >&2
    fi
    exit 1
  fi
}

# --- CUDA toolkit --------------------------------------------------------------

# $KILN_PTXAS from the caller is an explicit choice; the result is set below.
KILN_PTXAS_FROM_ENV=${KILN_PTXAS:-}
KILN_PTXAS=
KILN_CUDA_ROOT=
KILN_PTXAS_OK=0

find_cuda() {
  local candidate
  # Same order as compiler/Target/Ptxas.cpp's findPtxas(), which takes
  # $KILN_PTXAS as given: a wrong one is reported, not silently replaced.
  if [ -n "$KILN_PTXAS_FROM_ENV" ]; then
    if [ -x "$KILN_PTXAS_FROM_ENV" ]; then
      KILN_PTXAS=$KILN_PTXAS_FROM_ENV
    else
      say "\$KILN_PTXAS=$KILN_PTXAS_FROM_ENV is not an executable; unset it or fix it"
    fi
  else
    for candidate in "${CUDA_HOME:+$CUDA_HOME/bin/ptxas}" /usr/local/cuda/bin/ptxas \
                     "$(command -v ptxas 2>/dev/null || true)"; do
      if [ -n "$candidate" ] && [ -x "$candidate" ]; then
        KILN_PTXAS=$candidate
        break
      fi
    done
  fi

  # cuda.h (the runtime's CUDA Driver API): next to ptxas first, so the
  # compiler and the runtime use one toolkit.
  local roots=()
  [ -n "$KILN_PTXAS" ] && roots+=("$(cd "$(dirname "$KILN_PTXAS")/.." && pwd)")
  [ -n "${CUDA_HOME:-}" ] && roots+=("$CUDA_HOME")
  roots+=(/usr/local/cuda /usr)
  for candidate in "${roots[@]}"; do
    if [ -f "$candidate/include/cuda.h" ]; then
      KILN_CUDA_ROOT=$candidate
      break
    fi
  done

  if [ -n "$KILN_PTXAS" ]; then
    local version major minor
    version=$("$KILN_PTXAS" --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1.\2/p')
    major=${version%%.*}
    minor=${version#*.}
    if [ -z "$version" ]; then
      say "ptxas: $KILN_PTXAS (version unknown; it must be CUDA >= $MIN_CUDA_MAJOR.$MIN_CUDA_MINOR)"
      KILN_PTXAS_OK=1
    elif [ "$major" -gt $MIN_CUDA_MAJOR ] ||
         { [ "$major" -eq $MIN_CUDA_MAJOR ] && [ "$minor" -ge $MIN_CUDA_MINOR ]; }; then
      say "ptxas: $KILN_PTXAS (CUDA $version)"
      KILN_PTXAS_OK=1
    else
      say "ptxas: $KILN_PTXAS is CUDA $version, but Kiln's PTX needs CUDA >= $MIN_CUDA_MAJOR.$MIN_CUDA_MINOR; not using it"
      KILN_PTXAS=
    fi
  fi
  if [ $KILN_PTXAS_OK = 0 ]; then
    say "no usable CUDA toolkit (ptxas) found in \$KILN_PTXAS, \$CUDA_HOME, /usr/local/cuda or PATH:"
    say "  the compiler and all tests that do not need ptxas still build and run;"
    say "  kiln compile can write PTX (--emit=ptx) but no cubin, and the lit tests"
    say "  marked 'REQUIRES: ptxas' are reported as unsupported."
    say "  For cubins install CUDA >= $MIN_CUDA_MAJOR.$MIN_CUDA_MINOR and set CUDA_HOME."
  fi
  if [ -n "$KILN_CUDA_ROOT" ]; then
    say "cuda.h: $KILN_CUDA_ROOT/include/cuda.h (the runtime and kiln-run are built)"
  else
    say "no cuda.h: the runtime builds only its driver-free parts (manifest, argument checks);"
    say "  launching kernels needs the CUDA toolkit headers and a driver."
  fi
}

install_packages
find_cuda

if [ -n "$ENV_FILE" ]; then
  mkdir -p "$(dirname "$ENV_FILE")"
  {
    echo "# written by scripts/setup.sh"
    printf 'KILN_PTXAS=%q\n' "$KILN_PTXAS"
    printf 'KILN_PTXAS_OK=%q\n' "$KILN_PTXAS_OK"
    printf 'KILN_CUDA_ROOT=%q\n' "$KILN_CUDA_ROOT"
  } > "$ENV_FILE"
fi
