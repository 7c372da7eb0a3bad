#!/usr/bin/env bash
# Compiles what the GPU checks run (examples/*.kiln that lower today and
# test/gpu/kernels/*.kiln) into .device-carry/artifacts, and copies the
# nlohmann-json headers the standalone runtime build needs. Run here (where
# LLVM/MLIR are), then carry .device-carry to the GPU machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
KILN=$BUILD/bin/kiln
CARRY=$ROOT/.device-carry
rm -rf "$CARRY/artifacts"
mkdir -p "$CARRY/artifacts" "$CARRY/include"
cp -r /usr/include/nlohmann "$CARRY/include/"
for src in "$ROOT/examples/matmul.kiln" "$ROOT"/test/gpu/kernels/*.kiln "$ROOT"/bench/variants/*.kiln; do
  name=$(basename "$src" .kiln)
  "$KILN" compile "$src" --chip sm_90a -o "$CARRY/artifacts/$name.cubin"
  "$KILN" compile "$src" --chip sm_90a --emit=ptx -o "$CARRY/artifacts/$name.ptx"
done
ls -l "$CARRY/artifacts"
