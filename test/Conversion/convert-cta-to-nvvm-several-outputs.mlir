// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm | FileCheck %s

// convert-cta-to-nvvm on tiles with several stores (a contraction with
// several outputs): each store has its own tensor map and tma_ok flag, its
// destination its own pointer and stride; stores of one element type share
// a staging buffer, and each store's first staging block waits until every
// earlier bulk store has read its data out of shared memory.

// y = acc + bias (bf16), u = acc (f32), g = acc (bf16, y's staging buffer).
// CHECK-LABEL: llvm.func @three_stores(
// CHECK-SAME:    %[[MAP_A:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[MAP_Y:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[MAP_U:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[MAP_G:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[OK_Y:[^:]*]]: i32, %[[OK_U:[^:]*]]: i32, %[[OK_G:[^:]*]]: i32,
// CHECK-SAME:    %[[PTR_Y:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_Y:[^:]*]]: i64,
// CHECK-SAME:    %[[PTR_BIAS:[^:]*]]: !llvm.ptr<1>,
// CHECK-SAME:    %[[PTR_U:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_U:[^:]*]]: i64,
// CHECK-SAME:    %[[PTR_G:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_G:[^:]*]]: i64,
// CHECK-SAME:    %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32)
// CHECK-SAME:    {kind = "tma_ok", map = 1 : i64}, {kind = "tma_ok", map = 2 : i64}, {kind = "tma_ok", map = 3 : i64},
// CHECK-SAME:    {kind = "pointer", param = "y"}, {axis = 0 : i64, kind = "stride", param = "y"},
// CHECK-SAME:    {kind = "pointer", param = "bias"},
// CHECK-SAME:    {kind = "pointer", param = "u"}, {axis = 0 : i64, kind = "stride", param = "u"},
// CHECK-SAME:    {kind = "pointer", param = "g"}, {axis = 0 : i64, kind = "stride", param = "g"},
// CHECK-SAME:    {box = [64, 64], element = "bf16", l2_promotion = "none", oob_fill = "zero", optional = true, param = "y", swizzle = "128B"},
// CHECK-SAME:    {box = [32, 64], element = "f32", l2_promotion = "none", oob_fill = "zero", optional = true, param = "u", swizzle = "128B"},
// CHECK-SAME:    {box = [64, 64], element = "bf16", l2_promotion = "none", oob_fill = "zero", optional = true, param = "g", swizzle = "128B"}],
// Two staging buffers: bf16 (16 KiB, after a's two 8 KiB stages) and f32.
// CHECK:         %[[S16:.*]] = llvm.getelementptr %{{.*}}[%c16384_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         %[[S32:.*]] = llvm.getelementptr %{{.*}}[%c32768_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// Store y: its flag, the bias load, its staging buffer and map.
// CHECK:         arith.cmpi ne, %[[OK_Y]], %{{.*}} : i32
// CHECK:         llvm.getelementptr %[[S16]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-DAG:     nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-DAG:     llvm.getelementptr %[[PTR_BIAS]]
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_Y]]
// CHECK:         llvm.getelementptr %[[PTR_Y]]
// Store u: its own (f32) staging buffer and map; it reads no input.
// CHECK:         arith.cmpi ne, %[[OK_U]], %{{.*}} : i32
// CHECK:         llvm.getelementptr %[[S32]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NOT:     llvm.getelementptr %[[PTR_BIAS]]
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_U]]
// CHECK:         llvm.getelementptr %[[PTR_U]]
// Store g: y's staging buffer again; its first block waits for y's and u's
// bulk stores.
// CHECK:         arith.cmpi ne, %[[OK_G]], %{{.*}} : i32
// CHECK:         llvm.getelementptr %[[S16]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NOT:     llvm.getelementptr %[[PTR_BIAS]]
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_G]]
// CHECK:         llvm.getelementptr %[[PTR_G]]
// The role waits for all three before its warps exit.
// CHECK:         nvvm.cp.async.bulk.wait_group 0
// CHECK-NEXT:    }
// CHECK:         llvm.return
cta.program @three_stores(%a: memref<?x?xf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>},
                          %bias: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"bias", input, [N]>},
                          %y: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y", output, [M, N]>},
                          %u: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"u", output, [M, N]>},
                          %g: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"g", output, [M, N]>},
                          %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {block = array<i64: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %sa = cta.alloc : !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">
  %s16 = cta.alloc : !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">
  %s32 = cta.alloc : !cta.buffer<64x32xf32, stages = 2, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
      %end = cta.tile_loop static (%M, %N) tile [64, 64] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %count = arith.ceildivui %K, %c64 : index
        %next = cta.produce %ring at %pos count %count : !cta.ring<2> {
        ^bb0(%kb: index, %slot: index):
          %k0 = arith.muli %kb, %c64 : index
          cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xf16, strided<[?, 1]>> -> !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        }
        cta.yield %next : index
      }
    }
    #cta.role<math, warps = 4, regs = 232> {
      %end = cta.tile_loop static (%M, %N) tile [64, 64] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %count = arith.ceildivui %K, %c64 : index
        %wg = cta.warpgroup_index : index
        %zero = cta.acc_zero : !cta.acc<64x64xf32>
        %res:2 = cta.consume %ring at %pos count %count iter_args(%zero : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x64xf32> {
        ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
          %p = cta.mma %sa[%slot], %sa[%slot], %acc {transpose_b} : !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, !cta.acc<64x64xf32>
          cta.yield %p : !cta.acc<64x64xf32>
        }
        cta.store %res#1 inputs(%bias per_col : memref<?xf32, strided<[1]>>)
            -> %y[%m0, %n0] staging %s16[%wg] : !cta.acc<64x64xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%x: f32, %b: f32):
          %xb = arith.addf %x, %b : f32
          %t = arith.truncf %xb : f32 to bf16
          cta.yield %t : bf16
        }
        cta.store %res#1 -> %u[%m0, %n0] staging %s32[%wg] : !cta.acc<64x64xf32> -> memref<?x?xf32, strided<[?, 1]>>, !cta.buffer<64x32xf32, stages = 2, swizzle = "128B"> {
        ^bb0(%x: f32):
          cta.yield %x : f32
        }
        cta.store %res#1 -> %g[%m0, %n0] staging %s16[%wg] : !cta.acc<64x64xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%x: f32):
          %t = arith.truncf %x : f32 to bf16
          cta.yield %t : bf16
        }
        cta.yield %res#0 : index
      }
    }
  cta.return
}
