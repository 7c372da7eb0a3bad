//===- Passes.td - passes over the tile dialect ---------------------------===//

#ifndef KILN_TILE_PASSES_TD
#define KILN_TILE_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileFuseAttention : Pass<"tile-fuse-attention", "::kiln::tile::KernelOp"> {
  let summary = "replace attention written as math by one tile.attention";
  let description = [{
    Recognizes the chain the frontend emits for
    `o = softmax(mask(score(q @ k^T))) @ v` and replaces it by one
    `tile.attention`, so the `[.., S, T]` score matrix is no longer a tensor
    of the program. The chain, from the first product on:

    - `tile.matmul` of `q [.., S, D]` and `k [.., T, D]` with `transpose_b`
      (rank 3 to 5; each batch or head axis of `k` is `q`'s or 1);
    - any number of score modifiers: `tile.map`s that read only the scores
      (and constants) and keep them f32, and `tile.score_mod`s, composed in
      order into the op's `score` region;
    - any number of masks: `causal` sets `mask_kind = causal`, predicates
      are and-ed into the `mask` region;
    - `tile.softmax` (over the last axis, the key axis `T`);
    - optionally a `tile.map` that only rounds P (to v's type: `p_type`);
    - `tile.matmul` of P and `v [.., T, Dv]`, neither transposed;
    - optionally a `tile.map` that only converts the output to bf16, f16 or
      f32, which becomes the op's result type.

    Every intermediate must have that one use. A chain that does not fit
    (the scores or P also returned or read elsewhere, a modifier after a
    mask or reading another tensor, a second product contracting P over S,
    `v^T`, rank 2) stays as it is, with a remark at its softmax that says
    why; a softmax that reaches no product is not attention and gets none.
    The op carries the location of `q @ k^T`.

    Before (`examples/attention.kiln`):
    ```mlir
    %0 = tile.matmul %q, %k {transpose_b} : ... -> tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>
    %1 = tile.map %0 : ... {
    ^bb0(%x: f32):
      %c = arith.constant 0.0883883461 : f32
      %y = arith.mulf %x, %c : f32
      tile.yield %y : f32
    }
    %2 = tile.mask %1 causal : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>> {
    }
    %3 = tile.softmax %2 : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>
    %4 = tile.map %3 : ... -> tensor<?x?x?x?xbf16, #tile.dims<B, H, S, T>> { truncf }
    %5 = tile.matmul %4, %v : ... -> tensor<?x?x?x128xf32, #tile.dims<B, H, S, 128>>
    %6 = tile.map %5 : ... -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> { truncf }
    ```
    After:
    ```mlir
    %6 = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : ...
        -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> score {
    ^bb0(%s: f32, %i: index, %j: index):
      %c = arith.constant 0.0883883461 : f32
      %y = arith.mulf %s, %c : f32
      tile.yield %y : f32
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileFuseEpilogues : Pass<"tile-fuse-epilogues", "::kiln::tile::KernelOp"> {
  let summary = "absorb elementwise consumers of a contraction into its epilogue";
  let description = [{
    Rewrites each `tile.matmul` into a `tile.contract` and then folds into its
    epilogue region every `tile.map` that reads outputs of that contraction
    (and of no other) element by element (bias adds, activations, scaling,
    casts, a product of two sibling-fused accumulators), so the result is
    written once, in its final dtype.

    Before:
    ```mlir
    %0 = tile.matmul %a, %b {transpose_b} : ... -> tensor<?x?xf32, #tile.dims<M, N>>
    %1 = tile.map %0 : tensor<?x?xf32, ...> -> tensor<?x?xbf16, ...> {
    ^bb0(%x: f32):
      %t = arith.truncf %x : f32 to bf16
      tile.yield %t : bf16
    }
    ```
    After:
    ```mlir
    %1 = tile.contract (%a, %b : ...) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false,
                                                 transpose_b = true>]
        -> tensor<?x?xbf16, ...> {
    ^bb0(%acc: f32):
      %t = arith.truncf %acc : f32 to bf16
      tile.yield %t : bf16
    }
    ```
    Maps whose other inputs broadcast to the output (a bias row) become
    `epilogue_inputs`. A contraction output that other ops still read stays
    an output of the fused contraction (its epilogue yields it too).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileApplyFusionPlugins : Pass<"tile-apply-fusion-plugins", "::mlir::ModuleOp"> {
  let summary = "apply the fusion patterns plugins registered for one stage";
  let description = [{
    Runs the rewrite patterns that plugins (shared libraries loaded with
    `--load-pass-plugin=<path>`) registered with
    `kiln::tile::registerFusionPatterns` for `stage`, so a user can add a
    fusion without rebuilding Kiln. The compile pipeline runs it twice:
    `stage=before` on the frontend's IR, and `stage=after` once Kiln's own
    fusions have built the `tile.contract`s, before the schedule is chosen.
    With nothing registered for the stage it changes nothing.

    Each plugin's patterns run with the greedy driver on their own, in the
    order the plugins were loaded, and only they run: no folding, no
    constant CSE, no region simplification, so the IR changes only where a
    pattern matched. A plugin whose patterns do not converge, or whose result
    does not verify, is an error that names it.

    With the example plugin `examples/extending/` (torch's exact GELU to its
    tanh approximation) loaded, `stage=after` turns
    ```mlir
    %c = tile.contract (...) [...] -> tensor<?x?xbf16, #tile.dims<M, N>> {
    ^bb0(%acc: f32):
      %s = arith.mulf %acc, %cst_rsqrt2 : f32
      %e = math.erf %s : f32
      %o = arith.addf %cst_1, %e : f32
      %h = arith.mulf %acc, %cst_half : f32
      %g = arith.mulf %h, %o : f32
      %t = arith.truncf %g : f32 to bf16
      tile.yield %t : bf16
    }
    ```
    into
    ```mlir
    %c = tile.contract (...) [...] -> tensor<?x?xbf16, #tile.dims<M, N>> {
    ^bb0(%acc: f32):
      ...
      %u = arith.mulf %cst_sqrt_2_over_pi, %inner : f32
      %th = math.tanh %u : f32
      ...
      %t = arith.truncf %g : f32 to bf16
      tile.yield %t : bf16
    }
    ```
  }];
  let options = [
    Option<"stage", "stage", "::kiln::tile::FusionStage",
           /*default=*/"::kiln::tile::FusionStage::AfterBuiltinFusions",
           "which registrations to apply: before or after Kiln's own fusions",
           [{::llvm::cl::values(
             clEnumValN(::kiln::tile::FusionStage::BeforeBuiltinFusions,
                        "before", "on the frontend's IR"),
             clEnumValN(::kiln::tile::FusionStage::AfterBuiltinFusions,
                        "after", "on fused IR, before scheduling"))}]>,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def TileFuseSiblings : Pass<"tile-fuse-siblings", "::kiln::tile::KernelOp"> {
  let summary = "run contractions that share an operand and K as one K loop";
  let description = [{
    Merges `tile.contract`s that read a common tensor, contract the same K
    and produce the same `[M, N]` tile into one contract with one
    accumulator per product, so the kernel loads the shared tile once per
    stage and issues every MMA chain in one K loop:

    - when one contract's result is only an epilogue input of the other
      (SwiGLU after `tile-fuse-epilogues`: `silu(acc1) * up`), it is
      computed in registers from its own accumulator and never stored;
    - when both are independent (two outputs from one `x`), the merged
      contract has both outputs and its epilogue yields one value for each.

    Before (SwiGLU, after tile-fuse-epilogues):
    ```mlir
    %up = tile.contract (%x, %w2 : ...) [#tile.mma<lhs = 0, rhs = 1, ...>] -> tensor<...xf32> {
    ^bb0(%acc: f32):
      tile.yield %acc : f32
    }
    %y = tile.contract (%x, %w1 : ...) epilogue_inputs(%up : ...)
        [#tile.mma<lhs = 0, rhs = 1, ...>] -> tensor<...xbf16> {
    ^bb0(%acc: f32, %u: f32):
      ...silu(%acc) * %u, truncf...
    }
    ```
    After:
    ```mlir
    %y = tile.contract (%x, %w2, %w1 : ...)
        [#tile.mma<lhs = 0, rhs = 1, ...>, #tile.mma<lhs = 0, rhs = 2, ...>]
        -> tensor<...xbf16> {
    ^bb0(%acc_up: f32, %acc_gate: f32):
      ...silu(%acc_gate) * %acc_up, truncf...
    }
    ```
    Candidates that cannot share a loop (different K or output dims,
    different operand types, a result used elsewhere) stay as they are, each
    with a remark saying why.
  }];
}

def TileSelectSchedule : Pass<"tile-select-schedule", "::mlir::ModuleOp"> {
  let summary = "choose tile shape, stages, cluster and warp roles per contraction";
  let description = [{
    Attaches a `#tile.schedule` to every `tile.contract`, starting from the
    chip's defaults, applying the kernel's `@schedule(...)` hints, and
    checking the result against the chip: shared memory for the stage ring
    and the epilogue staging buffer, accumulator registers per thread, MMA
    shape rules and cluster size. Each choice is explained in a remark
    (`-mlir-pass-statistics`-free: run with `--mlir-print-op-on-diagnostic`
    off and read the `remark:` lines); hints that cannot fit are errors that
    say which budget they exceed.

    ```mlir
    %c = tile.contract (...) [...] {schedule = #tile.schedule<tile_m = 128,
        tile_n = 256, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1,
        consumers = 2, persistent = true, group_m = 8>} -> ...
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target chip: sm_90a or sm_100a">,
  ];
}

#endif // KILN_TILE_PASSES_TD
