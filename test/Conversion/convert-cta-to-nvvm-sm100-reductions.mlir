// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm=chip=sm_100a | FileCheck %s

// Column reductions on sm_100a (cta.combine_cols): each thread holds its row
// of the tile, so a warp's 32 rows of a 32-column chunk are reduce-scattered
// over all five lane bits (tmemColumnReductionShuffleMasks: 16 shuffles at
// xor 16, 8 at 8, 4, 2, 1), after which lane l holds column l's value and
// combines it with one atomic. Compile-verified only: no Blackwell GPU has
// run it.

// An element map over a tensor-memory accumulator that only the column
// reduction reads: a loop over the whole 32-column chunks (its trip count
// opaque, so ptxas cannot hoist every chunk's tcgen05.ld), each chunk read,
// mapped, set to the identity in rows at or past M, reduce-scattered and
// combined; then the 16-column rest, padded to 32 with the identity (-inf for
// max), lane l writing only where l < 16 and the column is below N.
// CHECK-LABEL: llvm.func @combine_mapped_cols(
// CHECK-SAME:    %[[C:[^:]*]]: !llvm.ptr<1>, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32
// CHECK:         scf.for
// CHECK:           nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK:           arith.mulf
// CHECK:           %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:           arith.select %{{.*}}, %{{.*}}, %[[NINF]] : f32
// CHECK-COUNT-16:  nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c16_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK-COUNT-8:   nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c8_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK-COUNT-4:   nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK-COUNT-2:   nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c2_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK:           nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c1_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NOT:       nvvm.shfl.sync
// CHECK:           %[[REAL:.*]] = arith.cmpi ult, %{{.*}}, %c32_i32{{.*}} : i32
// CHECK:           %[[BELOW:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : i32
// CHECK:           %[[W:.*]] = arith.andi %[[REAL]], %[[BELOW]] : i1
// CHECK:           scf.if %[[W]] {
// CHECK:             llvm.getelementptr %[[C]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:             llvm.atomicrmw fmax %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr<1>, f32
// CHECK:         nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-COUNT-31: nvvm.shfl.sync bfly
// CHECK:         arith.cmpi ult, %{{.*}}, %c16_i32{{.*}} : i32
// CHECK:         llvm.atomicrmw fmax
// CHECK-NOT:     llvm.atomicrmw
cta.program @combine_mapped_cols(%x: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x", input, [M, N]>}, %c: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"c", output, [N]>}, %M: index {cta.dim = #cta.dim<M>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %sr = cta.acc_ring {consumers = 1 : i64} : <2, [<128x48xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    cta.tile_loop static (%M, %N) tile [128, 48] {
    ^bb0(%m0: index, %n0: index):
      %s = cta.acc_wait %sr at %c0 filled %true : <2, [<128x48xf32>]> -> !cta.acc<128x48xf32>
      %e = cta.frag_map %s : !cta.acc<128x48xf32> -> !cta.frag<128x48xf32, acc> {
      ^bb0(%row: index, %col: index, %v: f32):
        %y = arith.mulf %v, %v : f32
        cta.yield %y : f32
      }
      cta.combine_cols max %e rows [%m0, %M) -> %c[%n0] : !cta.frag<128x48xf32, acc> -> memref<?xf32, strided<[1]>>
      cta.acc_release %sr at %c0 : <2, [<128x48xf32>]>
    }
    cta.yield
  }
    #cta.role<producer, warps = 1> {
    cta.yield
  }
    #cta.role<mma, warps = 1> {
    cta.yield
  }
  cta.return
}

// -----

// A register tile (here a splat) combined the same way, chunk by chunk
// without a loop: 31 shuffles and one atomic add per 32 columns.
// CHECK-LABEL: llvm.func @combine_register_cols(
// CHECK-COUNT-31: nvvm.shfl.sync bfly
// CHECK:         llvm.atomicrmw fadd
// CHECK-COUNT-31: nvvm.shfl.sync bfly
// CHECK:         llvm.atomicrmw fadd
// CHECK-NOT:     llvm.atomicrmw
cta.program @combine_register_cols(%x: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x", input, [M, N]>}, %c: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"c", output, [N]>}, %M: index {cta.dim = #cta.dim<M>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    cta.tile_loop static (%M, %N) tile [128, 64] {
    ^bb0(%m0: index, %n0: index):
      %one = arith.constant 1.0 : f32
      %v = cta.splat %one : f32 -> !cta.frag<128x64xf32, acc>
      cta.combine_cols sum %v rows [%m0, %M) -> %c[%n0] : !cta.frag<128x64xf32, acc> -> memref<?xf32, strided<[1]>>
    }
    cta.yield
  }
    #cta.role<producer, warps = 1> {
    cta.yield
  }
    #cta.role<mma, warps = 1> {
    cta.yield
  }
  cta.return
}
