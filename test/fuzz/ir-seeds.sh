#!/usr/bin/env bash
# Writes seeds for kiln-fuzz-pipeline: the IR of every .kiln kernel under SOURCE... that the
# frontend accepts, at two points of the pipeline: fused and scheduled (--emit=tile) and
# pipelined (--emit=cta), for both chips. (Tile IR before fusion comes from the lit tests.)
# Scheduled tile IR compiles for its own chip only: its first line names it (`// chip: sm_90a`,
# which the fuzzer reads; CompileHarness.h).
#
#   test/fuzz/ir-seeds.sh KILN OUTDIR SOURCE...
set -euo pipefail
kiln=$1 out=$2
shift 2
mkdir -p "$out"
rm -f "$out"/*.mlir
n=0
while IFS= read -r -d '' src; do
  for chip in sm_90a sm_100a; do
    for emit in tile cta; do
      dst="$out/$(printf %04d $n)-$emit-$chip.mlir"
      if "$kiln" compile "$src" --chip "$chip" --emit="$emit" -o "$dst" >/dev/null 2>&1; then
        if [ "$emit" = tile ]; then sed -i "1i // chip: $chip" "$dst"; fi
        n=$((n + 1))
      else
        rm -f "$dst"
      fi
    done
  done
done < <(find "$@" -name '*.kiln' -not -path '*/Frontend/*' -print0 | sort -z)
echo "ir-seeds: $n seeds in $out"
