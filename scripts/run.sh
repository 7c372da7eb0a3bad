#!/usr/bin/env bash
# The main job: install what is missing, build the compiler, compile every
# example in examples/ for sm_90a into out/ (and for sm_100a into out/sm_100a/,
# checked by ptxas only), and, on a Hopper GPU, run the sm_90a ones.
#
#   scripts/run.sh
#
# For each examples/<name>.kiln:
#   - it lowers:   out/<name>.cubin + out/<name>.kiln.json (the launch manifest;
#                  <name>.<kernel>.kiln.json when a file holds several kernels);
#                  without a CUDA toolkit (ptxas) out/<name>.ptx instead;
#   - a lowering stage does not exist yet for it: the compiler's located
#                  "not implemented yet" error is shown, and that is not a failure;
#   - any other error fails the script (exit 1).
# On a machine whose first GPU has compute capability 9.0 it also builds the
# runtime and runs each compiled kernel with kiln-run --check (a host reference
# in double precision), plus the PyTorch GPU checks when torch and pytest are
# installed.
#
# Environment: BUILD (default build/), OUT (default out/), JOBS, CHIP (sm_90a).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=${OUT:-$ROOT/out}
CHIP=${CHIP:-sm_90a}
export BUILD
cd "$ROOT"

# Print paths relative to the repository when they are inside it.
rel() { local p=$1; echo "${p#"$ROOT"/}"; }

# --- GPU? ------------------------------------------------------------------------
gpu=none
if command -v nvidia-smi >/dev/null &&
   cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1) &&
   [ -n "$cap" ]; then
  gpu=$cap
fi

# --- build --------------------------------------------------------------------------
targets=(kiln kiln-opt kiln-translate)
"$ROOT/scripts/build.sh" "${targets[@]}"
. "$BUILD/.kiln-setup.env" # KILN_PTXAS, KILN_CUDA_ROOT, as build.sh used them
KILN=$BUILD/bin/kiln

# --- compile the examples -------------------------------------------------------------
mkdir -p "$OUT"
compiled=()      # names with artifacts in $OUT
pending=()       # "name|message" for stages not implemented yet
failed=()        # names that hit any other error
blackwell_only=() # names whose products only sm_100a has (NVFP4, MXFP8)
if [ -n "$KILN_PTXAS" ]; then
  what=cubin
  export KILN_PTXAS # the same ptxas setup.sh accepted
else
  what=ptx
fi
echo
echo "== compiling examples/*.kiln for $CHIP ($what)"
for src in "$ROOT"/examples/*.kiln; do
  name=$(basename "$src" .kiln)
  log=$OUT/$name.log
  # Stale artifacts of an earlier run must not pass for this run's.
  rm -f "$OUT/$name.cubin" "$OUT/$name.ptx" "$OUT/$name".*kiln.json "$log"
  if [ $what = cubin ]; then
    cmd=("$KILN" compile "$(rel "$src")" --chip "$CHIP" -o "$(rel "$OUT")/$name.cubin")
  else
    cmd=("$KILN" compile "$(rel "$src")" --chip "$CHIP" --emit=ptx -o "$(rel "$OUT")/$name.ptx")
  fi
  status=0
  "${cmd[@]}" > "$log" 2>&1 || status=$?
  if [ $status = 0 ]; then
    compiled+=("$name")
    printf '  %-20s ok\n' "$name"
    rm -f "$log"
    continue
  fi
  # Accepted: exit 1 where every error is a located "<pass>: not
  # implemented yet: ..." (a crash exits otherwise), or says the kernel
  # needs sm_100a (block-scaled NVFP4/MXFP8 products; compiled below).
  errors=$(grep -c ': error: ' "$log" || true)
  if [ $status = 1 ] && [ "$errors" -gt 0 ] &&
     [ "$errors" = "$(grep -c ': error: .*need sm_100a' "$log" || true)" ]; then
    blackwell_only+=("$name")
    rm -f "$log"
    printf '  %-20s needs sm_100a (compiled for it below)\n' "$name"
    continue
  fi
  pending_errors=$(grep -c ': error: .*not implemented yet' "$log" || true)
  if [ $status = 1 ] && [ "$errors" -gt 0 ] && [ "$errors" = "$pending_errors" ]; then
    first=$(grep -m 1 ': error: .*not implemented yet' "$log")
    pending+=("$name|$first")
    rm -f "$log"
    printf '  %-20s not lowered yet (%s)\n' "$name" \
      "$(sed -n 's/.*: error: \([A-Za-z0-9_-]*\): not implemented yet.*/\1/p' <<< "$first")"
    continue
  fi
  failed+=("$name")
  printf '  %-20s FAILED (exit %s): %s\n' "$name" "$status" "${cmd[*]}"
  sed 's/^/      /' "$log"
done

# The same kernels for Blackwell: ptxas checks them, nothing runs them here
# (docs/architecture.md, "What stands behind sm_100a").
blackwell=()
hopper_only=()
if [ "$CHIP" = sm_90a ] && [ $((${#compiled[@]} + ${#blackwell_only[@]})) -gt 0 ]; then
  echo
  echo "== compiling for sm_100a into $(rel "$OUT")/sm_100a/ ($what; compile-verified, not run)"
  mkdir -p "$OUT/sm_100a"
  for name in "${compiled[@]}" "${blackwell_only[@]}"; do
    src=$ROOT/examples/$name.kiln
    rm -f "$OUT/sm_100a/$name".*
    if [ $what = cubin ]; then
      cmd=("$KILN" compile "$(rel "$src")" --chip sm_100a -o "$(rel "$OUT")/sm_100a/$name.cubin")
    else
      cmd=("$KILN" compile "$(rel "$src")" --chip sm_100a --emit=ptx -o "$(rel "$OUT")/sm_100a/$name.ptx")
    fi
    log=$OUT/sm_100a/$name.log
    status=0
    "${cmd[@]}" > "$log" 2>&1 || status=$?
    if [ $status = 0 ]; then
      blackwell+=("$name")
      rm -f "$log"
      printf '  %-20s ok\n' "$name"
      continue
    fi
    # Accepted as for sm_90a: every error a located "not implemented yet"
    # (a form that lowers on sm_90a only, such as fp8 with f32 block scales).
    errors=$(grep -c ': error: ' "$log" || true)
    pending_errors=$(grep -c ': error: .*not implemented yet' "$log" || true)
    if [ $status = 1 ] && [ "$errors" -gt 0 ] && [ "$errors" = "$pending_errors" ]; then
      hopper_only+=("$name")
      printf '  %-20s not lowered for sm_100a yet: %s\n' "$name" \
        "$(grep -m 1 ': error: ' "$log" | sed 's/^.*: error: //')"
      rm -f "$log"
      continue
    fi
    failed+=("sm_100a/$name")
    printf '  %-20s FAILED (exit %s): %s\n' "$name" "$status" "${cmd[*]}"
    sed 's/^/      /' "$log"
  done
fi

echo
echo "== results in $(rel "$OUT")/"
for name in "${compiled[@]}"; do
  for f in "$OUT/$name".cubin "$OUT/$name".ptx "$OUT/$name".*kiln.json; do
    [ -e "$f" ] && printf '  %-34s %8d bytes\n' "$(rel "$f")" "$(stat -c %s "$f")"
  done
done
for name in "${blackwell[@]}"; do
  for f in "$OUT/sm_100a/$name".cubin "$OUT/sm_100a/$name".ptx "$OUT/sm_100a/$name".*kiln.json; do
    [ -e "$f" ] && printf '  %-34s %8d bytes\n' "$(rel "$f")" "$(stat -c %s "$f")"
  done
done
if [ $what = ptx ]; then
  echo "  (PTX only: no usable ptxas. Install CUDA >= 12.9 and set CUDA_HOME for cubins + manifests.)"
fi
if [ ${#pending[@]} -gt 0 ]; then
  echo
  echo "== not lowered yet (a stage of the compiler does not implement them; not an error)"
  for entry in "${pending[@]}"; do
    name=${entry%%|*}
    message=${entry#*|}
    echo "  $name:"
    echo "    $message"
  done
fi

example=examples/matmul.kiln
[ ${#compiled[@]} -gt 0 ] && example=examples/${compiled[0]}.kiln
k=$(rel "$KILN")
cat <<EOF

== inspect each lowering stage (see docs/architecture.md for the passes)
  $k compile $example --emit=ast     # the typed AST the frontend checked
  $k compile $example --emit=tile    # tile IR after fusion + schedule selection
  $k compile $example --emit=cta     # cta IR: tiling, smem layouts, pipeline, warp roles
  $k compile $example --emit=llvm    # NVVM + LLVM dialects
  $k compile $example --emit=ptx     # PTX (-o FILE to save it)
  $k compile $example --emit=tile --explain   # why this schedule (remarks)
  $k compile $example --emit=llvm --mlir-print-ir-after-all 2> passes.mlir   # IR after every pass
  $(rel "$BUILD")/bin/kiln-translate --import-kiln $example > k.mlir             # tile IR as the frontend emits it
  $(rel "$BUILD")/bin/kiln-opt k.mlir --pass-pipeline='builtin.module(kiln-compile{chip=$CHIP stop-after=cta})'
  $(rel "$BUILD")/bin/kiln-opt k.mlir --tile-fuse-epilogues --tile-select-schedule   # single passes
  $k compile $example --chip sm_100a --emit=ptx   # Blackwell: TMEM accumulators, tcgen05.mma
  $k compile $example --report --dims M=4096,N=4096,K=4096   # resources and the roofline floor
EOF

# --- run on a Hopper GPU ----------------------------------------------------------------
gpu_status=0
echo
if [ "$gpu" = none ]; then
  echo "== no GPU here (nvidia-smi missing or found no device): running the kernels needs a"
  echo "   Hopper GPU (compute capability 9.0, e.g. H100/H200). There, this script also runs them."
elif [ "$gpu" != 9.0 ]; then
  echo "== the GPU here has compute capability $gpu; the $CHIP kernels need a Hopper GPU (9.0)."
elif [ -z "$KILN_CUDA_ROOT" ]; then
  echo "== Hopper GPU found, but no CUDA toolkit headers (cuda.h) to build the runtime; install"
  echo "   the CUDA toolkit and set CUDA_HOME to run the kernels."
elif [ $what != cubin ]; then
  echo "== Hopper GPU found, but no usable ptxas to make cubins; install CUDA >= 12.9."
else
  echo "== running the compiled kernels on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  "$ROOT/scripts/build.sh" kiln-run kiln_runtime matmul_host_cpp matmul_host_c
  run_tool=$BUILD/bin/kiln-run
  for name in "${compiled[@]}"; do
    for manifest in "$OUT/$name".*kiln.json; do
      [ -e "$manifest" ] || continue
      # Every dim 1008: not a multiple of any tile, so edge tiles run too, and
      # a multiple of 16, so fp8 rows have the 16 bytes TMA needs.
      dims=$(python3 -c 'import json, sys
print(",".join(d + "=1008" for d in json.load(open(sys.argv[1]))["dims"]))' "$manifest")
      ref=()
      # Attention: 2 batches of 4 heads of 1008 queries and keys (1008 heads
      # would not fit), checked against the causal reference it computes.
      [ "$name" = attention ] && dims=B=2,H=4,S=1008,T=1008 ref=(--ref attention-causal)
      # Grouped GEMMs (mixture of experts): 8 experts over 1008 tokens, one
      # empty, some smaller than a tile, checked per expert.
      case $name in
        moe_grouped|moe_swiglu|moe_fp8_blockwise)
          dims=T=1008,K=1008,N=1008,E=8
          ref=(--values offsets=0,0,130,131,400,401,700,1000,1008) ;;
      esac
      echo "-- $(rel "$run_tool") $(rel "$manifest") --dims $dims --check ${ref[*]}"
      log=$OUT/$name.run.log
      status=0
      "$run_tool" "$manifest" --dims "$dims" --check "${ref[@]}" 2>&1 | tee "$log" || status=$?
      # (kiln-run's grouped reference takes no block scales.)
      if [ $status != 0 ] && grep -q -e 'kiln-run --check knows only' -e 'no block scales)' "$log"; then
        # No host reference for this computation: launch and time it only.
        echo "   (no host reference for this kernel; launching without --check; test/gpu checks it)"
        "$run_tool" "$manifest" --dims "$dims" || gpu_status=1
      elif [ $status != 0 ]; then
        gpu_status=1
      fi
    done
  done
  if python3 -c 'import torch, pytest' 2>/dev/null; then
    echo "-- PyTorch GPU checks (scripts/gpu_check.sh --quick --no-bench)"
    "$ROOT/scripts/build_gpu_artifacts.sh" > "$OUT/gpu_artifacts.log" 2>&1 || {
      cat "$OUT/gpu_artifacts.log"; gpu_status=1; }
    OUT=$OUT/gpu-check "$ROOT/scripts/gpu_check.sh" --quick --no-bench || gpu_status=1
  else
    echo "-- PyTorch GPU checks skipped (python3 cannot import torch and pytest);"
    echo "   with them installed: scripts/build_gpu_artifacts.sh && scripts/gpu_check.sh"
  fi
fi

echo
summary="${#compiled[@]} compiled, ${#blackwell[@]} compiled for sm_100a (not run), ${#hopper_only[@]} not lowered for sm_100a, ${#pending[@]} not lowered yet, ${#failed[@]} failed"
if [ ${#failed[@]} -gt 0 ] || [ $gpu_status != 0 ]; then
  [ $gpu_status != 0 ] && summary="$summary; GPU run FAILED"
  echo "run: FAIL ($summary)"
  exit 1
fi
echo "run: ok ($summary)"
