// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm | FileCheck %s

// convert-cta-to-nvvm on dual GEMMs: copies that fill a band of buffer rows
// (dst_rows), one wide wgmma chain whose accumulator is split by columns,
// and stages whose batch holds the MMAs of several accumulators.

// SwiGLU with 128-column tiles, packed (as convert-tile-to-cta and
// cta-pipeline leave it): w1 and w2 fill rows [0, 128) and [128, 256) of one
// 256-row stage, so a stage expects 16 KiB of x and 2 x 16 KiB of weights.
// Each math warpgroup runs one m64n256 chain per K step (one batch: one
// fence, four k16 wgmmas, one commit), and the 128-register halves of its
// accumulator are the two products the epilogue multiplies.
// CHECK-LABEL: llvm.func @swiglu(
// CHECK-SAME:    %[[MAP_X:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[MAP_W1:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[MAP_W2:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[MAP_Y:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %{{[^:]*}}: i32, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: i64, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32)
// Each weight's box is its 128-row band.
// CHECK-SAME:    kernel_args = [{kind = "tensor_map", map = 0 : i64}, {kind = "tensor_map", map = 1 : i64}, {kind = "tensor_map", map = 2 : i64}, {kind = "tensor_map", map = 3 : i64},
// CHECK-SAME:    {kind = "tma_ok", map = 3 : i64}, {kind = "pointer", param = "y"}, {axis = 0 : i64, kind = "stride", param = "y"},
// CHECK-SAME:    {box = [64, 128], element = "bf16", l2_promotion = "256B", oob_fill = "zero", optional = false, param = "w1", swizzle = "128B"},
// CHECK-SAME:    {box = [64, 128], element = "bf16", l2_promotion = "256B", oob_fill = "zero", optional = false, param = "w2", swizzle = "128B"},
// The wide buffer starts after the four 16 KiB stages of x.
// CHECK:         %[[SW:.*]] = llvm.getelementptr %{{.*}}[%c65536_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32 : !llvm.ptr<3>, i32
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP_X]],
// CHECK:         %[[STAGE1:.*]] = llvm.getelementptr %[[SW]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %[[STAGE1]], %[[MAP_W1]],
// CHECK:         %[[STAGE2:.*]] = llvm.getelementptr %[[SW]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// w2's rows start 128 rows x 128 bytes into the stage.
// CHECK:         %[[BAND2:.*]] = llvm.getelementptr %[[STAGE2]][%c16384_i32{{(_[0-9]+)?}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %[[BAND2]], %[[MAP_W2]],
// CHECK:         nvvm.setmaxregister  increase 232
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-NOT:     nvvm.wgmma.fence
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NEXT:    nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// The split, on the accumulator as pinned after the last batch: registers
// [0, 64) are the first part, [64, 128) the second.
// CHECK:         %[[WIDE:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "", "=f,
// CHECK:         %[[R0:.*]] = llvm.extractvalue %[[WIDE]][0] : !llvm.struct<(f32, {{.*}})>
// CHECK-NEXT:    llvm.insertvalue %[[R0]], %{{.*}}[0] : !llvm.struct<(f32, {{.*}})>
// CHECK:         %[[R64:.*]] = llvm.extractvalue %[[WIDE]][64] : !llvm.struct<(f32, {{.*}})>
// CHECK-NEXT:    llvm.insertvalue %[[R64]], %{{.*}}[0] : !llvm.struct<(f32, {{.*}})>
// CHECK:         %[[R127:.*]] = llvm.extractvalue %[[WIDE]][127] : !llvm.struct<(f32, {{.*}})>
// CHECK-NEXT:    llvm.insertvalue %[[R127]], %{{.*}}[63] : !llvm.struct<(f32, {{.*}})>
// CHECK:         arith.mulf
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_Y]]
cta.program @swiglu(%x: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x", input, [M, K]>},
                    %w1: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w1", input, [N, K]>},
                    %w2: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w2", input, [N, K]>},
                    %y: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y", output, [M, N]>},
                    %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sx = cta.alloc : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">
  %sw = cta.alloc : !cta.buffer<256x64xbf16, stages = 4, swizzle = "128B">
  %sy = cta.alloc : !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B">
  %ring = cta.ring {consumers = 2 : i64} : !cta.ring<4>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
      %end = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %count = arith.ceildivui %K, %c64 : index
        %next = cta.produce %ring at %pos count %count : !cta.ring<4> {
        ^bb0(%kb: index, %slot: index):
          %k0 = arith.muli %kb, %c64 : index
          cta.load %x[%m0, %k0] -> %sx[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
          cta.load %w1[%n0, %k0] -> %sw[%slot] signal %ring {dst_rows = array<i64: 0, 128>} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<256x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
          cta.load %w2[%n0, %k0] -> %sw[%slot] signal %ring {dst_rows = array<i64: 128, 256>} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<256x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
        }
        cta.yield %next : index
      } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
    }
    #cta.role<math, warps = 8, regs = 232> {
      %end = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %count = arith.ceildivui %K, %c64 : index
        %wg = cta.warpgroup_index : index
        %row = arith.muli %wg, %c64 : index
        %zero = cta.acc_zero : !cta.acc<64x256xf32>
        %res:2 = cta.consume %ring at %pos count %count iter_args(%zero : !cta.acc<64x256xf32>) : !cta.ring<4> -> !cta.acc<64x256xf32> {
        ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x256xf32>):
          %p = cta.mma %sx[%slot] rows %row, %sw[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, !cta.buffer<256x64xbf16, stages = 4, swizzle = "128B">, !cta.acc<64x256xf32>
          cta.yield %p : !cta.acc<64x256xf32>
        }
        %parts:2 = cta.split_cols %res#1 : !cta.acc<64x256xf32> -> !cta.acc<64x128xf32>, !cta.acc<64x128xf32>
        %r0 = arith.addi %m0, %row : index
        cta.store %parts#0, %parts#1 -> %y[%r0, %n0] staging %sy[%wg] : !cta.acc<64x128xf32>, !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%g: f32, %u: f32):
          %gu = arith.mulf %g, %u : f32
          %t = arith.truncf %gu : f32 to bf16
          cta.yield %t : bf16
        }
        cta.yield %res#0 : index
      } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
    }
  cta.return
}

// -----

// A band copy multicast across a 2x1 cluster: each CTA copies half of the
// band's rows (box [64, 64]) at row n0 + 64 * rank, into the band
// (16 KiB into the stage) plus 64 rows x 128 bytes per rank; the stage still
// expects the whole band.
// CHECK-LABEL: llvm.func @band_multicast(
// CHECK-SAME:    %[[MAP_W:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant}
// CHECK-SAME:    tensor_maps = [{box = [64, 64], element = "bf16", l2_promotion = "256B", oob_fill = "zero", optional = false, param = "w", swizzle = "128B"}],
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32 : !llvm.ptr<3>, i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[SLICE:.*]] = arith.muli %[[RANK]], %c8192_i32 : i32
// CHECK:         %[[SLICE_ROW:.*]] = arith.muli %[[RANK]], %c64_i32{{.*}} : i32
// CHECK:         %[[ROW:.*]] = arith.addi %{{.*}}, %[[SLICE_ROW]] : i32
// CHECK:         %[[BAND:.*]] = llvm.getelementptr %{{.*}}[%c16384_i32{{(_[0-9]+)?}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         %[[LOCAL:.*]] = llvm.getelementptr %[[BAND]][%[[SLICE]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         %[[DST:.*]] = llvm.addrspacecast %[[LOCAL]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[MAP_W]], %{{.*}}, box[%{{.*}}, %[[ROW]]] multicast_mask = %c3_i16 : !llvm.ptr<7>, !llvm.ptr
cta.program @band_multicast(%w: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w", input, [N, K]>},
                            %N: index {cta.dim = #cta.dim<N>}, %K: index {cta.dim = #cta.dim<K>})
    attributes {block = array<i64: 256, 1, 1>, cluster = array<i64: 2, 1>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sw = cta.alloc : !cta.buffer<256x64xbf16, stages = 2, swizzle = "128B">
  %ring = cta.ring {cluster_size = 2 : i64, consumers = 1 : i64} : !cta.ring<2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
      %end = cta.tile_loop static (%N, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %count = arith.ceildivui %K, %c64 : index
        %next = cta.produce %ring at %pos count %count : !cta.ring<2> {
        ^bb0(%kb: index, %slot: index):
          %k0 = arith.muli %kb, %c64 : index
          cta.load %w[%n0, %k0] -> %sw[%slot] signal %ring {dst_rows = array<i64: 128, 256>, multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<256x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        }
        cta.yield %next : index
      } {cluster = array<i64: 2, 1>}
    }
    #cta.role<math, warps = 4, regs = 232> {
    }
  cta.return
}

// -----

// Unpacked (2 x 192 columns): a stage's batch holds both products' MMAs, one
// fence and one commit around eight m64n192 wgmmas; both accumulators are
// carried through the K loop and stored together.
// CHECK-LABEL: llvm.func @wide(
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-NOT:     nvvm.wgmma.fence
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 192, k = 16>
// CHECK-NOT:     nvvm.wgmma.fence
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT:     nvvm.wgmma.mma_async
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT:     nvvm.wgmma.mma_async
// CHECK:         arith.mulf
cta.program @wide(%x: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x", input, [M, K]>},
                  %w1: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w1", input, [N, K]>},
                  %w2: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w2", input, [N, K]>},
                  %y: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y", output, [M, N]>},
                  %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {block = array<i64: 384, 1, 1>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sx = cta.alloc : !cta.buffer<128x64xbf16, stages = 3, swizzle = "128B">
  %s1 = cta.alloc : !cta.buffer<192x64xbf16, stages = 3, swizzle = "128B">
  %s2 = cta.alloc : !cta.buffer<192x64xbf16, stages = 3, swizzle = "128B">
  %sy = cta.alloc : !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B">
  %ring = cta.ring {consumers = 2 : i64} : !cta.ring<3>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
      %end = cta.tile_loop static (%M, %N) tile [128, 192] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %count = arith.ceildivui %K, %c64 : index
        %next = cta.produce %ring at %pos count %count : !cta.ring<3> {
        ^bb0(%kb: index, %slot: index):
          %k0 = arith.muli %kb, %c64 : index
          cta.load %x[%m0, %k0] -> %sx[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, stages = 3, swizzle = "128B">, !cta.ring<3>
          cta.load %w1[%n0, %k0] -> %s1[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<192x64xbf16, stages = 3, swizzle = "128B">, !cta.ring<3>
          cta.load %w2[%n0, %k0] -> %s2[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<192x64xbf16, stages = 3, swizzle = "128B">, !cta.ring<3>
        }
        cta.yield %next : index
      }
    }
    #cta.role<math, warps = 8, regs = 232> {
      %end = cta.tile_loop static (%M, %N) tile [128, 192] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %count = arith.ceildivui %K, %c64 : index
        %wg = cta.warpgroup_index : index
        %row = arith.muli %wg, %c64 : index
        %z1 = cta.acc_zero : !cta.acc<64x192xf32>
        %z2 = cta.acc_zero : !cta.acc<64x192xf32>
        %res:3 = cta.consume %ring at %pos count %count iter_args(%z1, %z2 : !cta.acc<64x192xf32>, !cta.acc<64x192xf32>) : !cta.ring<3> -> !cta.acc<64x192xf32>, !cta.acc<64x192xf32> {
        ^bb0(%kb: index, %slot: index, %g: !cta.acc<64x192xf32>, %u: !cta.acc<64x192xf32>):
          %pg = cta.mma %sx[%slot] rows %row, %s1[%slot], %g {transpose_b} : !cta.buffer<128x64xbf16, stages = 3, swizzle = "128B">, !cta.buffer<192x64xbf16, stages = 3, swizzle = "128B">, !cta.acc<64x192xf32>
          %pu = cta.mma %sx[%slot] rows %row, %s2[%slot], %u {transpose_b} : !cta.buffer<128x64xbf16, stages = 3, swizzle = "128B">, !cta.buffer<192x64xbf16, stages = 3, swizzle = "128B">, !cta.acc<64x192xf32>
          cta.yield %pg, %pu : !cta.acc<64x192xf32>, !cta.acc<64x192xf32>
        }
        %r0 = arith.addi %m0, %row : index
        cta.store %res#1, %res#2 -> %y[%r0, %n0] staging %sy[%wg] : !cta.acc<64x192xf32>, !cta.acc<64x192xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%eg: f32, %eu: f32):
          %gu = arith.mulf %eg, %eu : f32
          %t = arith.truncf %gu : f32 to bf16
          cta.yield %t : bf16
        }
        cta.yield %res#0 : index
      }
    }
  cta.return
}
