#!/bin/sh
# Regenerates the captured ptxas -v reports (*.log) next to their PTX inputs.
# The parser tests read these logs, so they run without ptxas; the live tests
# re-run ptxas and compare. Run from anywhere: sh capture.sh [path/to/ptxas]
set -u
cd "$(dirname "$0")"
PTXAS=${1:-${KILN_PTXAS:-/usr/local/cuda/bin/ptxas}}
out=$(mktemp -d)
for ptx in *.ptx; do
  name=${ptx%.ptx}
  arch=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' "$ptx")
  "$PTXAS" -arch="$arch" -v -O3 "$ptx" -o "$out/$name.cubin" > "$name.log" 2>&1
done
"$PTXAS" -arch=sm_90a -v -O3 --warn-on-spills spill_heavy.ptx \
  -o "$out/spill_heavy.cubin" > spill_heavy.warn-spills.log 2>&1
"$PTXAS" --version | sed -n 's/^Cuda compilation tools, //p' > ptxas-version.txt
rm -rf "$out"
