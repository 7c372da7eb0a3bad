// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-compile{chip=sm_90a stop-after=tile})' 2>/dev/null | FileCheck %s --check-prefix=TILE
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-compile{chip=sm_90a stop-after=cta})' 2>/dev/null | FileCheck %s --check-prefix=CTA
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-compile{chip=sm_90a stop-after=llvm})' 2>/dev/null | FileCheck %s --check-prefix=LLVM
// The defaults are sm_90a and the whole pipeline.
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-compile)' 2>/dev/null | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-compile{chip=sm_100a stop-after=tile})' 2>/dev/null | FileCheck %s --check-prefix=SM100
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-compile{chip=sm_100a})' 2>/dev/null | FileCheck %s --check-prefix=SM100-LLVM
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-compile{stop-after=tile})' --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// An unknown stage is an error (regression: it silently meant llvm).
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(kiln-compile{stop-after=ptx})' 2>&1 | FileCheck %s --check-prefix=BAD-STAGE
// Fusion plugins run first and again after Kiln's own fusions, before the
// schedule is chosen. CSE merges repeated products before fusion; attention
// fuses before epilogue fusion wraps its products in contracts; epilogue
// fusion runs again after sibling fusion (maps over several of a fused
// contraction's outputs). Fusion runs per kernel.
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-compile{stop-after=tile})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER:      builtin.module(
// ORDER-NEXT:   tile-apply-fusion-plugins{stage=before},
// ORDER-NEXT:   tile.kernel(
// ORDER-NEXT:     cse,
// ORDER-NEXT:     tile-fuse-attention,
// ORDER-NEXT:     tile-fuse-epilogues,
// ORDER-NEXT:     tile-fuse-siblings,
// ORDER-NEXT:     tile-fuse-epilogues
// ORDER-NEXT:   ),
// ORDER-NEXT:   tile-apply-fusion-plugins{stage=after},
// ORDER-NEXT:   tile-select-schedule{chip=sm_90a}
// ORDER-NEXT: )

// The registered kiln-compile pipeline on the tile IR the frontend emits for
// examples/matmul.kiln, stopped after each stage.

// TILE-LABEL: tile.kernel @matmul(
// TILE-SAME:    attributes {tile_cost =
// TILE-NOT:     tile.matmul
// TILE-NOT:     tile.map
// TILE:         %[[C:.*]] = tile.contract(%{{.*}}, %{{.*}} : {{.*}}) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>} -> tensor<?x?xbf16, #tile.dims<M, N>> {
// TILE:           arith.truncf
// TILE:         tile.return %[[C]]
// TILE-LABEL: tile.kernel @matmul_128x64(
// TILE-SAME:    variant_of = @matmul
// TILE:         {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 64, stages = 8, cluster_m = 1,

// CTA-NOT:     tile.
// CTA-LABEL: cta.program @matmul(
// CTA-SAME:    block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 2, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>
// CTA-SAME:    smem_bytes = 229504 : i64
// CTA:         cta.alloc {smem_offset = 0 : i64} : <128x64xbf16, stages = 4, swizzle = "128B">
// CTA-NEXT:    cta.alloc {smem_offset = 65536 : i64} : <256x64xbf16, stages = 4, swizzle = "128B">
// CTA-NEXT:    cta.alloc {smem_offset = 196608 : i64} : <64x128xbf16, stages = 2, swizzle = "128B">
// CTA-NEXT:    cta.ring {cluster_size = 2 : i64, consumers = 2 : i64, smem_offset = 229376 : i64} : <4>
// CTA:         cta.warp_specialize
// CTA-NEXT:      #cta.role<producer, warps = 4, regs = 40> {
// CTA:           cta.produce
// CTA:           #cta.role<math, warps = 8, regs = 232> {
// CTA:           cta.consume
// CTA:           cta.store
// CTA-NOT:     cta.mainloop
// CTA-LABEL: cta.program @matmul_128x64(
// CTA-SAME:    variant_of = @matmul
// CTA:         cta.warp_specialize

// LLVM:        module attributes {gpu.container_module} {
// LLVM-NEXT:     gpu.module @kiln_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">] {
// LLVM:            llvm.func @matmul(
// LLVM-SAME:         nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.kernel, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 384, 1, 1>
// After convert-nvvm-to-llvm, wgmma and the parity wait are inline assembly.
// LLVM:              llvm.inline_asm {{.*}}mbarrier.try_wait.parity.shared.b64
// LLVM:              llvm.inline_asm {{.*}}wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// LLVM:            llvm.func @matmul_128x64(
// LLVM-SAME:         nvvm.kernel, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 384, 1, 1>
// LLVM:              llvm.inline_asm {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// Everything is in the LLVM and NVVM dialects.
// LLVM-NOT:    {{^ *(%[^ ]+ = )?(tile|cta|scf|cf|arith|index|math|memref)\.}}

// SM100-LABEL: tile.kernel @matmul(
// SM100:         {schedule = #tile.schedule<tile_m = 256, tile_n = 256, tile_k = 64, stages = 6, cluster_m = 2, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 2>}
// SM100-NOT:   tile.kernel

// SM100-LLVM: gpu.module @kiln_kernels [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">]
// SM100-LLVM: nvvm.tcgen05.mma

// REMARK: remark: schedule for sm_90a: tile 128x256x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory
// BAD-STAGE: error: kiln-compile: unknown stop-after 'ptx'; expected tile, cta or llvm

// REMARK: remark: schedule for sm_90a: tile 128x64x64, 8 stages of 24 KiB + 16 KiB epilogue staging = 208 KiB of 227 KiB shared memory

tile.kernel @matmul(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
                    %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>}) {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %1 = tile.map %0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %1 : tensor<?x?xbf16, #tile.dims<M, N>>
}
