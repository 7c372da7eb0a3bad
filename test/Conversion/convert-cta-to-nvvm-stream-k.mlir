// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm=chip=sm_90a | FileCheck %s

// convert-cta-to-nvvm of a stream-K walk on sm_90a: the workspace entry
// parameter and its manifest entries, the walk's split rule (a partial last
// wave of at most 33% of the clusters, with at least one full wave), and the
// join: each part of a split tile stores its registers as float4s after the
// workspace's 64 KiB counter area, its warpgroup syncs and counts its
// arrival (atom.acq_rel), a barrier reduction tells the warpgroup whether it
// came second, and the second adds the other part's float4s and resets the
// counter.

// CHECK-LABEL: llvm.func @stream_k(
// The workspace is the last entry parameter.
// CHECK-SAME:    %{{[a-z0-9]+}}: !llvm.ptr<1>) attributes {
// CHECK-SAME:    {dim = "N", kind = "dim"}, {kind = "workspace"}]
// The split rule and the K steps, for the runtime's cost rule.
// CHECK-SAME:    stream_k = {join_steps = 16 : i64, k = ["K", 64], max_tail_percent = 33 : i64}
// Two parts x 256 math threads x 64 registers x 4 bytes.
// CHECK-SAME:    workspace_per_cta = 131072 : i64
// The split rule: rem * 100 <= clusters * 33, rem != 0, total >= clusters,
// and the join (16 K steps) costs less than the split saves:
// kt * (clusters - rem) > 16 * clusters.
// CHECK:         %[[REM:.*]] = arith.remui %[[TOTAL:.*]], %[[G:.*]] : i32
// CHECK-DAG:     arith.constant 100 : i32
// CHECK-DAG:     arith.constant 33 : i32
// CHECK-DAG:     arith.cmpi ule
// CHECK-DAG:     %[[SAVED:.*]] = arith.subi %[[G]], %[[REM]] : i32
// CHECK-DAG:     arith.constant 16 : i32
// CHECK-DAG:     arith.cmpi ugt
// CHECK-DAG:     arith.cmpi ne, %[[REM]]
// CHECK-DAG:     arith.cmpi uge, %[[TOTAL]], %[[G]] : i32
// Sums after the counter area.
// CHECK:         arith.constant 65536 : i64
// A part publishes its 16 float4s, then its warpgroup counts its arrival.
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK:         nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att "atom.acq_rel.gpu.global.add.u32 $0, [$1], 1;", "=r,l,~{memory}"
// CHECK:         bar.red.or.pred
// The second to arrive loads the other part's 16 float4s (one batch: all 64
// adds come after the last load), adds them, clears the counter.
// CHECK-COUNT-16: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-64: arith.addf
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
cta.program @stream_k(%arg0: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %arg1: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %arg2: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %arg3: index {cta.dim = #cta.dim<M>}, %arg4: index {cta.dim = #cta.dim<K>}, %arg5: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %0 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %1 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %2 = cta.alloc : <64x128xbf16, stages = 2, swizzle = "128B">
  %3 = cta.ring {consumers = 2 : i64} : <4>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %4 = cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
      %5 = arith.subi %k_end, %k_begin : index
      %6 = arith.ceildivui %5, %c64 : index
      %7 = cta.produce %3 at %carried count %6 : <4> {
      ^bb0(%kb: index, %slot: index):
        %8 = arith.muli %kb, %c64 : index
        %9 = arith.addi %k_begin, %8 : index
        cta.load %arg0[%m0, %9] -> %0[%slot] signal %3 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
        cta.load %arg1[%n0, %9] -> %1[%slot] signal %3 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
      }
      cta.yield %7 : index
    } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 8, regs = 232> {
    %4 = cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
      %5 = arith.subi %k_end, %k_begin : index
      %6 = arith.ceildivui %5, %c64 : index
      %7 = cta.warpgroup_index : index
      %c64_0 = arith.constant 64 : index
      %8 = arith.muli %7, %c64_0 : index
      %9 = cta.acc_zero : <64x128xf32>
      %10:2 = cta.consume %3 at %carried count %6 iter_args(%9 : !cta.acc<64x128xf32>) : <4> -> !cta.acc<64x128xf32> {
      ^bb0(%kb: index, %slot: index, %carried_1: !cta.acc<64x128xf32>):
        %11 = arith.muli %kb, %c64 : index
        %12 = arith.addi %k_begin, %11 : index
        %13 = cta.mma %0[%slot] rows %8, %1[%slot], %carried_1 {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, <128x64xbf16, stages = 4, swizzle = "128B">, <64x128xf32>
        cta.yield %13 : !cta.acc<64x128xf32>
      }
      %sums, %complete = cta.stream_k_join %10#1 partial %partial k[%k_begin, %k_end) of %arg4 : !cta.acc<64x128xf32> -> !cta.acc<64x128xf32>
      scf.if %complete {
        %11 = arith.addi %m0, %8 : index
        cta.store %sums -> %arg2[%11, %n0] staging %2[%7] : !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%arg6: f32):
          %12 = arith.truncf %arg6 : f32 to bf16
          cta.yield %12 : bf16
        }
      }
      cta.yield %10#0 : index
    } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// Partial sums move as float4s: 6 registers per thread (a 64x12
// accumulator) do not.
cta.program @stream_k(%arg0: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %arg1: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %arg2: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %arg3: index {cta.dim = #cta.dim<M>}, %arg4: index {cta.dim = #cta.dim<K>}, %arg5: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %0 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %1 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %2 = cta.alloc : <64x128xbf16, stages = 2, swizzle = "128B">
  %3 = cta.ring {consumers = 2 : i64} : <4>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %4 = cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
      %5 = arith.subi %k_end, %k_begin : index
      %6 = arith.ceildivui %5, %c64 : index
      %7 = cta.produce %3 at %carried count %6 : <4> {
      ^bb0(%kb: index, %slot: index):
        %8 = arith.muli %kb, %c64 : index
        %9 = arith.addi %k_begin, %8 : index
        cta.load %arg0[%m0, %9] -> %0[%slot] signal %3 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
        cta.load %arg1[%n0, %9] -> %1[%slot] signal %3 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
      }
      cta.yield %7 : index
    } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 8, regs = 232> {
    %4 = cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
      %5 = arith.subi %k_end, %k_begin : index
      %6 = arith.ceildivui %5, %c64 : index
      %7 = cta.warpgroup_index : index
      %c64_0 = arith.constant 64 : index
      %8 = arith.muli %7, %c64_0 : index
      %9 = cta.acc_zero : <64x128xf32>
      %10:2 = cta.consume %3 at %carried count %6 iter_args(%9 : !cta.acc<64x128xf32>) : <4> -> !cta.acc<64x128xf32> {
      ^bb0(%kb: index, %slot: index, %carried_1: !cta.acc<64x128xf32>):
        %11 = arith.muli %kb, %c64 : index
        %12 = arith.addi %k_begin, %11 : index
        %13 = cta.mma %0[%slot] rows %8, %1[%slot], %carried_1 {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, <128x64xbf16, stages = 4, swizzle = "128B">, <64x128xf32>
        cta.yield %13 : !cta.acc<64x128xf32>
      }
      %z12 = cta.acc_zero : <64x12xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: stream-K partial tiles move 4 registers at a time; 6 per thread is not a multiple of 4}}
      %s12, %c12 = cta.stream_k_join %z12 partial %partial k[%k_begin, %k_end) of %arg4 : !cta.acc<64x12xf32> -> !cta.acc<64x12xf32>
      %sums, %complete = cta.stream_k_join %10#1 partial %partial k[%k_begin, %k_end) of %arg4 : !cta.acc<64x128xf32> -> !cta.acc<64x128xf32>
      scf.if %complete {
        %11 = arith.addi %m0, %8 : index
        cta.store %sums -> %arg2[%11, %n0] staging %2[%7] : !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%arg6: f32):
          %12 = arith.truncf %arg6 : f32 to bf16
          cta.yield %12 : bf16
        }
      }
      cta.yield %10#0 : index
    } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// Each warpgroup of the role counts its arrivals in 16 bytes of the CTA's
// 64: at most four warpgroups.
cta.program @stream_k(%arg0: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %arg1: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %arg2: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %arg3: index {cta.dim = #cta.dim<M>}, %arg4: index {cta.dim = #cta.dim<K>}, %arg5: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 768, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %0 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %1 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %2 = cta.alloc : <64x128xbf16, stages = 2, swizzle = "128B">
  %3 = cta.ring {consumers = 2 : i64} : <4>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %4 = cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
      %5 = arith.subi %k_end, %k_begin : index
      %6 = arith.ceildivui %5, %c64 : index
      %7 = cta.produce %3 at %carried count %6 : <4> {
      ^bb0(%kb: index, %slot: index):
        %8 = arith.muli %kb, %c64 : index
        %9 = arith.addi %k_begin, %8 : index
        cta.load %arg0[%m0, %9] -> %0[%slot] signal %3 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
        cta.load %arg1[%n0, %9] -> %1[%slot] signal %3 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
      }
      cta.yield %7 : index
    } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 20, regs = 232> {
    %4 = cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
      %5 = arith.subi %k_end, %k_begin : index
      %6 = arith.ceildivui %5, %c64 : index
      %7 = cta.warpgroup_index : index
      %c64_0 = arith.constant 64 : index
      %8 = arith.muli %7, %c64_0 : index
      %9 = cta.acc_zero : <64x128xf32>
      %10:2 = cta.consume %3 at %carried count %6 iter_args(%9 : !cta.acc<64x128xf32>) : <4> -> !cta.acc<64x128xf32> {
      ^bb0(%kb: index, %slot: index, %carried_1: !cta.acc<64x128xf32>):
        %11 = arith.muli %kb, %c64 : index
        %12 = arith.addi %k_begin, %11 : index
        %13 = cta.mma %0[%slot] rows %8, %1[%slot], %carried_1 {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, <128x64xbf16, stages = 4, swizzle = "128B">, <64x128xf32>
        cta.yield %13 : !cta.acc<64x128xf32>
      }
      // expected-error@+1 {{convert-cta-to-nvvm: a stream-K join in a role of 640 threads needs more than the 64 counter bytes a CTA has}}
      %sums, %complete = cta.stream_k_join %10#1 partial %partial k[%k_begin, %k_end) of %arg4 : !cta.acc<64x128xf32> -> !cta.acc<64x128xf32>
      scf.if %complete {
        %11 = arith.addi %m0, %8 : index
        cta.store %sums -> %arg2[%11, %n0] staging %2[%7] : !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%arg6: f32):
          %12 = arith.truncf %arg6 : f32 to bf16
          cta.yield %12 : bf16
        }
      }
      cta.yield %10#0 : index
    } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// A stream-K walk in halves (split-K of a partial last wave): the last
// T mod G tiles are split when they fit two clusters each (rem * 2 <= G),
// rem != 0, and the half of a tile's K steps saved outweighs the join
// (kt - kt / 2 > 16); the whole tiles are the rest; cluster c takes half
// c mod 2 of tile (whole tiles + c / 2), which meets its other half in slot
// c / 2. The join is a stream-K walk's.
// CHECK-LABEL: llvm.func @stream_k_halves(
// The manifest's rule: halves, up to half a wave.
// CHECK-SAME:    stream_k = {join_steps = 16 : i64, k = ["K", 64], max_tail_percent = 50 : i64, split = "halves"}
// CHECK:         %[[KT:.*]] = arith.ceildivui %{{.*}}, %c64_i32 : i32
// CHECK-NEXT:    %[[REM:.*]] = arith.remui %[[TOTAL:.*]], %[[G:.*]] : i32
// CHECK:         %[[HAS_TAIL:.*]] = arith.cmpi ne, %[[REM]], %{{.*}} : i32
// CHECK:         %[[TWICE:.*]] = arith.muli %[[REM]], %c2_i32{{.*}} : i32
// CHECK-NEXT:    %[[FITS:.*]] = arith.cmpi ule, %[[TWICE]], %[[G]] : i32
// CHECK:         %[[HALF:.*]] = arith.divui %[[KT]], %{{.*}} : i32
// CHECK-NEXT:    %[[SAVED:.*]] = arith.subi %[[KT]], %[[HALF]] : i32
// CHECK:         %[[PAYS:.*]] = arith.cmpi ugt, %[[SAVED]], %c16_i32 : i32
// CHECK-NEXT:    %[[BOTH:.*]] = arith.andi %[[HAS_TAIL]], %[[FITS]] : i1
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.andi %[[BOTH]], %[[PAYS]] : i1
// CHECK:         %[[TAIL:.*]] = arith.select %[[SPLIT]], %[[REM]], %{{.*}} : i32
// CHECK-NEXT:    %[[WHOLE:.*]] = arith.subi %[[TOTAL]], %[[TAIL]] : i32
// The half: c mod 2, the slot c / 2.
// CHECK:         arith.remui %{{.*}}, %{{.*}} : i32
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att "atom.acq_rel.gpu.global.add.u32 $0, [$1], 1;", "=r,l,~{memory}"
cta.program @stream_k_halves(%arg0: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %arg1: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %arg2: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %arg3: index {cta.dim = #cta.dim<M>}, %arg4: index {cta.dim = #cta.dim<K>}, %arg5: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %0 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %1 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %2 = cta.alloc : <64x128xbf16, stages = 2, swizzle = "128B">
  %3 = cta.ring {consumers = 2 : i64} : <4>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %4 = cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
      %5 = arith.subi %k_end, %k_begin : index
      %6 = arith.ceildivui %5, %c64 : index
      %7 = cta.produce %3 at %carried count %6 : <4> {
      ^bb0(%kb: index, %slot: index):
        %8 = arith.muli %kb, %c64 : index
        %9 = arith.addi %k_begin, %8 : index
        cta.load %arg0[%m0, %9] -> %0[%slot] signal %3 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
        cta.load %arg1[%n0, %9] -> %1[%slot] signal %3 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
      }
      cta.yield %7 : index
    } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent, halves}
  }
    #cta.role<math, warps = 8, regs = 232> {
    %4 = cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
      %5 = arith.subi %k_end, %k_begin : index
      %6 = arith.ceildivui %5, %c64 : index
      %7 = cta.warpgroup_index : index
      %c64_0 = arith.constant 64 : index
      %8 = arith.muli %7, %c64_0 : index
      %9 = cta.acc_zero : <64x128xf32>
      %10:2 = cta.consume %3 at %carried count %6 iter_args(%9 : !cta.acc<64x128xf32>) : <4> -> !cta.acc<64x128xf32> {
      ^bb0(%kb: index, %slot: index, %carried_1: !cta.acc<64x128xf32>):
        %11 = arith.muli %kb, %c64 : index
        %12 = arith.addi %k_begin, %11 : index
        %13 = cta.mma %0[%slot] rows %8, %1[%slot], %carried_1 {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, <128x64xbf16, stages = 4, swizzle = "128B">, <64x128xf32>
        cta.yield %13 : !cta.acc<64x128xf32>
      }
      %sums, %complete = cta.stream_k_join %10#1 partial %partial k[%k_begin, %k_end) of %arg4 : !cta.acc<64x128xf32> -> !cta.acc<64x128xf32>
      scf.if %complete {
        %11 = arith.addi %m0, %8 : index
        cta.store %sums -> %arg2[%11, %n0] staging %2[%7] : !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%arg6: f32):
          %12 = arith.truncf %arg6 : f32 to bf16
          cta.yield %12 : bf16
        }
      }
      cta.yield %10#0 : index
    } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent, halves}
  }
  cta.return
}

