// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Every cta op, type and attribute round-trips through its custom assembly
// (and through the generic form): the IR of a GEMM, attention, a grouped GEMM
// and a dual GEMM before cta-pipeline, and of warp-specialized programs after
// it.

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

// CHECK-LABEL: cta.program @types(
// CHECK:         cta.alloc : <128x64xbf16>
// CHECK-NEXT:    cta.alloc : <128x64xbf16, stages = 4>
// CHECK-NEXT:    cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
// CHECK-NEXT:    cta.alloc : <64x32xf16, swizzle = "64B">
// CHECK-NEXT:    cta.alloc : <64x16xf16, swizzle = "32B">
// CHECK-NEXT:    cta.alloc : <64x8xf16, swizzle = "none">
// CHECK-NEXT:    cta.alloc : <128x256xf4E2M1FN>
// CHECK-NEXT:    cta.alloc : <64x64xi32>
// One stage is the default and is not printed.
// CHECK-NEXT:    cta.alloc : <32x32xf32>
// CHECK-NEXT:    cta.acc_zero : <64x256xf32>
// CHECK-NEXT:    cta.ring {consumers = 2 : i64} : <4>
// CHECK-NEXT:    cta.ring {cluster_size = 2 : i64, consumers = 1 : i64} : <2>
// CHECK-NEXT:    %[[F32:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[BF16:.*]] = arith.constant 1.000000e+00 : bf16
// Fragments in each layout: 2-D acc and lhs tiles, 1-D rows and cols vectors.
// CHECK-NEXT:    cta.splat %[[F32]] : f32 -> <64x128xf32, acc>
// CHECK-NEXT:    cta.splat %[[BF16]] : bf16 -> <64x128xbf16, lhs>
// CHECK-NEXT:    cta.splat %[[F32]] : f32 -> <64xf32, rows>
// CHECK-NEXT:    cta.splat %[[F32]] : f32 -> <128xf32, cols>
// CHECK-NEXT:    cta.return
cta.program @types() {
  %0 = cta.alloc : !cta.buffer<128x64xbf16>
  %1 = cta.alloc : !cta.buffer<128x64xbf16, stages = 4>
  %2 = cta.alloc : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">
  %3 = cta.alloc : !cta.buffer<64x32xf16, swizzle = "64B">
  %4 = cta.alloc : !cta.buffer<64x16xf16, swizzle = "32B">
  %5 = cta.alloc : !cta.buffer<64x8xf16, swizzle = none>
  %6 = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %7 = cta.alloc : !cta.buffer<64x64xi32>
  %8 = cta.alloc : !cta.buffer<32x32xf32, stages = 1>
  %9 = cta.acc_zero : !cta.acc<64x256xf32>
  %10 = cta.ring {consumers = 2 : i64} : !cta.ring<4>
  %11 = cta.ring {consumers = 1 : i64, cluster_size = 2 : i64} : !cta.ring<2>
  %f32 = arith.constant 1.0 : f32
  %bf16 = arith.constant 1.0 : bf16
  %12 = cta.splat %f32 : f32 -> !cta.frag<64x128xf32, acc>
  %13 = cta.splat %bf16 : bf16 -> !cta.frag<64x128xbf16, lhs>
  %14 = cta.splat %f32 : f32 -> !cta.frag<64xf32, rows>
  %15 = cta.splat %f32 : f32 -> !cta.frag<128xf32, cols>
  cta.return
}

// Types stand alone too, outside the ops that usually carry them; buffer
// parameters may come in any order.
// CHECK-LABEL: cta.program @standalone_types()
// CHECK-SAME:    attributes {types = [!cta.buffer<16x16xbf16, stages = 2, swizzle = "32B">, !cta.acc<64x8xf32>, !cta.ring<8>,
// CHECK-SAME:    !cta.frag<64x128xf32, acc>, !cta.frag<64x128xf16, lhs>, !cta.frag<64xf32, rows>, !cta.frag<128xi32, cols>]}
cta.program @standalone_types() attributes {
    types = [!cta.buffer<16x16xbf16, swizzle = "32B", stages = 2>, !cta.acc<64x8xf32>, !cta.ring<8>,
             !cta.frag<64x128xf32, acc>, !cta.frag<64x128xf16, lhs>, !cta.frag<64xf32, rows>, !cta.frag<128xi32, cols>]} {
  cta.return
}

// Fragment layouts, warp roles of each kind (a role that keeps its registers
// prints no count) and the program's schedule.
// CHECK-LABEL: cta.program @attributes()
// CHECK-SAME:    layouts = [#cta.frag_layout<acc>, #cta.frag_layout<lhs>, #cta.frag_layout<rows>, #cta.frag_layout<cols>]
// CHECK-SAME:    roles = [#cta.role<producer, warps = 4, regs = 40>, #cta.role<math, warps = 8, regs = 232>, #cta.role<mma, warps = 1>, #cta.role<epilogue, warps = 4>]
// CHECK-SAME:    schedule = #cta.schedule<stages = 4, math_warpgroups = 2>
cta.program @attributes() attributes {
    layouts = [#cta.frag_layout<acc>, #cta.frag_layout<lhs>, #cta.frag_layout<rows>, #cta.frag_layout<cols>],
    roles = [#cta.role<producer, warps = 4, regs = 40>, #cta.role<math, warps = 8, regs = 232>,
             #cta.role<mma, warps = 1>, #cta.role<epilogue, warps = 4, regs = 0>],
    schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  cta.return
}

// Swizzle attributes print quoted (128B alone would lex as a number and a
// keyword); `none` parses bare.
// CHECK-LABEL: cta.program @swizzle_attrs()
// CHECK-SAME:    attributes {s128 = #cta.swizzle<"128B">, s32 = #cta.swizzle<"32B">, s64 = #cta.swizzle<"64B">, snone = #cta.swizzle<"none">}
cta.program @swizzle_attrs() attributes {s128 = #cta.swizzle<"128B">, s32 = #cta.swizzle<"32B">,
                                         s64 = #cta.swizzle<"64B">, snone = #cta.swizzle<none>} {
  cta.return
}

//===----------------------------------------------------------------------===//
// Tile walks
//===----------------------------------------------------------------------===//

// Each walk and the names its body arguments print with: the tile origin,
// batch coordinates before it, a grouped walk's group and end row around it,
// then the carried values.
// CHECK-LABEL: cta.program @walks(
// CHECK-SAME:    %[[OFF:[^:]*]]: memref<?xi32> {cta.param = #cta.param<"offsets", input, [D0]>}
// CHECK-SAME:    %[[B:[^:]*]]: index {cta.dim = #cta.dim<B>}
// CHECK-SAME:    %[[H:[^:]*]]: index {cta.dim = #cta.dim<H>}
// CHECK-SAME:    %[[E:[^:]*]]: index {cta.dim = #cta.dim<E>}
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = #cta.dim<M>}
// CHECK-SAME:    %[[N:[^:]*]]: index {cta.dim = #cta.dim<N>})
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    cta.tile_loop static (%[[M]], %[[N]]) tile [128, 256] {
// CHECK-NEXT:    ^bb0(%m0: index, %n0: index):
// CHECK-NEXT:    }
// CHECK-NEXT:    cta.tile_loop batched (%[[B]], %[[H]], %[[M]], %[[N]]) tile [1, 1, 128, 128] {
// CHECK-NEXT:    ^bb0(%batch: index, %batch_0: index, %m0: index, %n0: index):
// CHECK-NEXT:    } {persistent}
// CHECK-NEXT:    %{{.*}} = cta.tile_loop grouped offsets(%[[OFF]] : memref<?xi32>, %[[E]]) (%[[M]], %[[N]]) tile [128, 128] iter_args(%[[C0]] : index) -> (index) {
// CHECK-NEXT:    ^bb0(%group: index, %m0: index, %n0: index, %m_end: index, %row_tile: index, %carried: index):
// CHECK-NEXT:      cta.yield %carried : index
// CHECK-NEXT:    } {persistent}
cta.program @walks(%offsets: memref<?xi32> {cta.param = #cta.param<"offsets", input, [D0]>}, %B: index {cta.dim = #cta.dim<B>}, %H: index {cta.dim = #cta.dim<H>},
                   %E: index {cta.dim = #cta.dim<E>}, %M: index {cta.dim = #cta.dim<M>}, %N: index {cta.dim = #cta.dim<N>}) {
  %c0 = arith.constant 0 : index
  cta.tile_loop static (%M, %N) tile [128, 256] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.tile_loop batched (%B, %H, %M, %N) tile [1, 1, 128, 128] {
  ^bb0(%b: index, %h: index, %m0: index, %n0: index):
  } {persistent}
  %end = cta.tile_loop grouped offsets(%offsets : memref<?xi32>, %E) (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
  ^bb0(%g: index, %m0: index, %n0: index, %m_end: index, %row_tile: index, %pos: index):
    cta.yield %pos : index
  } {persistent}
  cta.return
}

// A stream-K walk: each unit is a K range of a tile and a partial-sum slot;
// the join says whether this part completes its tile.
// CHECK-LABEL: cta.program @stream_k(
// CHECK:         %{{.*}} = cta.tile_loop stream_k (%{{.*}}, %{{.*}}, %{{.*}}) tile [128, 256, 64] iter_args(%{{.*}} : index) -> (index) {
// CHECK-NEXT:    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
// CHECK-NEXT:      %[[ACC:.*]] = cta.acc_zero : <64x256xf32>
// CHECK-NEXT:      %sums, %complete = cta.stream_k_join %[[ACC]] partial %partial k[%k_begin, %k_end) of %{{.*}} : !cta.acc<64x256xf32> -> !cta.acc<64x256xf32>
// CHECK:         } {group_m = 8 : i64, persistent}
cta.program @stream_k(%M: index {cta.dim = #cta.dim<M>}, %N: index {cta.dim = #cta.dim<N>}, %K: index {cta.dim = #cta.dim<K>}) {
  %c0 = arith.constant 0 : index
  %end = cta.tile_loop stream_k (%M, %N, %K) tile [128, 256, 64] iter_args(%c0 : index) -> (index) {
  ^bb0(%m0: index, %n0: index, %kb: index, %ke: index, %slot: index, %pos: index):
    %acc = cta.acc_zero : <64x256xf32>
    %sum, %done = cta.stream_k_join %acc partial %slot k [%kb, %ke) of %K : !cta.acc<64x256xf32> -> !cta.acc<64x256xf32>
    cta.yield %pos : index
  } {persistent, group_m = 8 : i64}
  cta.return
}

// A stream-K walk in halves (split-K of a partial last wave).
// CHECK-LABEL: cta.program @stream_k_halves(
// CHECK:         } {group_m = 8 : i64, halves, persistent}
cta.program @stream_k_halves(%M: index {cta.dim = #cta.dim<M>}, %N: index {cta.dim = #cta.dim<N>}, %K: index {cta.dim = #cta.dim<K>}) {
  cta.tile_loop stream_k (%M, %N, %K) tile [128, 256, 64] {
  ^bb0(%m0: index, %n0: index, %kb: index, %ke: index, %slot: index):
    %acc = cta.acc_zero : <64x256xf32>
    %sum, %done = cta.stream_k_join %acc partial %slot k [%kb, %ke) of %K : !cta.acc<64x256xf32> -> !cta.acc<64x256xf32>
  } {persistent, halves, group_m = 8 : i64}
  cta.return
}

//===----------------------------------------------------------------------===//
// Before cta-pipeline: tile walk, K loop, loads, MMAs, register math, stores
//===----------------------------------------------------------------------===//

// A GEMM: a static walk, a K loop of two loads (one multicast) and one MMA,
// a staged store.
// CHECK-LABEL: cta.program @sequential(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}
// CHECK-SAME:    %[[B:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = #cta.dim<M>}
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = #cta.dim<K>}
// CHECK-SAME:    %[[N:[^:]*]]: index {cta.dim = #cta.dim<N>})
// CHECK-SAME:    attributes {chip = #cta.chip<sm_90a>, cluster = array<i64: 2, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>}
// CHECK:         %[[SA:.*]] = cta.alloc : <128x64xbf16>
// CHECK:         %[[SB:.*]] = cta.alloc : <256x64xbf16>
// CHECK:         %[[SC:.*]] = cta.alloc : <128x128xbf16>
// CHECK:         cta.tile_loop static (%[[M]], %[[N]]) tile [128, 256] {
// CHECK-NEXT:    ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index):
// CHECK-NEXT:      %[[Z:.*]] = cta.acc_zero : <128x256xf32>
// CHECK-NEXT:      %[[R:.*]] = cta.mainloop %[[K]] step 64 iter_args(%[[Z]] : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
// CHECK-NEXT:      ^bb0(%[[K0:.*]]: index, %[[ACC:.*]]: !cta.acc<128x256xf32>):
// CHECK-NEXT:        cta.load %[[A]][%[[M0]], %[[K0]]] -> %[[SA]] rows_within %[[M]] : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16>
// CHECK-NEXT:        cta.load %[[B]][%[[N0]], %[[K0]]] -> %[[SB]] {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> <256x64xbf16>
// CHECK-NEXT:        %[[NEXT:.*]] = cta.mma %[[SA]], %[[SB]], %[[ACC]] {transpose_b} : !cta.buffer<128x64xbf16>, <256x64xbf16>, <128x256xf32>
// CHECK-NEXT:        cta.yield %[[NEXT]] : !cta.acc<128x256xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      cta.store %[[R]] -> %[[C]][%[[M0]], %[[N0]]] staging %[[SC]] : !cta.acc<128x256xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
// CHECK-NEXT:      ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:        %[[T:.*]] = arith.truncf %[[E]] : f32 to bf16
// CHECK-NEXT:        cta.yield %[[T]] : bf16
// CHECK-NEXT:      }
// CHECK-NEXT:    } {cluster = array<i64: 2, 1>, group_m = 8 : i64, persistent}
// CHECK-NEXT:    cta.return
cta.program @sequential(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>},
                        %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>},
                        %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>},
                        %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {chip = #cta.chip<sm_90a>, cluster = array<i64: 2, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  %sb = cta.alloc : !cta.buffer<256x64xbf16>
  %sc = cta.alloc : !cta.buffer<128x128xbf16>
  cta.tile_loop static (%M, %N) tile [128, 256] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x256xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x256xf32>):
      cta.load %a[%m0, %k0] -> %sa rows_within %M : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16>
      cta.load %b[%n0, %k0] -> %sb {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<256x64xbf16>
      %next = cta.mma %sa, %sb, %acc {transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<256x64xbf16>, !cta.acc<128x256xf32>
      cta.yield %next : !cta.acc<128x256xf32>
    }
    cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x256xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
    ^bb0(%e: f32):
      %t = arith.truncf %e : f32 to bf16
      cta.yield %t : bf16
    }
  } {persistent, group_m = 8 : i64, cluster = array<i64: 2, 1>}
  cta.return
}

// Tile loops carry values; a mainloop may carry several accumulators and
// values of other types, and an MMA may read a K-major rhs (no transpose_b).
// Stores may go without staging and take several accumulators.
// CHECK-LABEL: cta.program @variants(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xf16>
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xf32>
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = #cta.dim<M>}
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[SA:.*]] = cta.alloc : <64x64xf16>
// CHECK:         %[[SB:.*]] = cta.alloc : <64x32xf16>
// CHECK:         %[[END:.*]] = cta.tile_loop static (%[[M]], %[[M]]) tile [64, 32] iter_args(%[[C0]] : index) -> (index) {
// CHECK-NEXT:    ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %[[POS:.*]]: index):
// CHECK:           %[[Z:.*]] = cta.acc_zero : <64x32xf32>
// CHECK:           %[[L:.*]]:3 = cta.mainloop %[[M]] step 32 iter_args(%[[Z]], %[[Z]], %[[POS]] : !cta.acc<64x32xf32>, !cta.acc<64x32xf32>, index) -> !cta.acc<64x32xf32>, !cta.acc<64x32xf32>, index {
// CHECK-NEXT:      ^bb0(%[[K0:.*]]: index, %[[X0:.*]]: !cta.acc<64x32xf32>, %[[X1:.*]]: !cta.acc<64x32xf32>, %[[I:.*]]: index):
// CHECK-NEXT:        cta.yield %[[X1]], %[[X0]], %[[I]] : !cta.acc<64x32xf32>, !cta.acc<64x32xf32>, index
// CHECK-NEXT:      }
// CHECK:           %[[P:.*]] = cta.mma %[[SA]], %[[SB]], %[[Z]] : !cta.buffer<64x64xf16>, <64x32xf16>, <64x32xf32>
// CHECK:           cta.store %[[P]], %[[Z]] -> %[[C]][%[[M0]], %[[N0]]] : !cta.acc<64x32xf32>, !cta.acc<64x32xf32> -> memref<?x?xf32> {
// CHECK-NEXT:      ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        cta.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK:           cta.yield %[[L]]#2 : index
// CHECK-NEXT:    }{{$}}
cta.program @variants(%a: memref<?x?xf16> {cta.param = #cta.param<"a", input, [M, K]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>},
                      %M: index {cta.dim = #cta.dim<M>}) {
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : !cta.buffer<64x64xf16>
  %sb = cta.alloc : !cta.buffer<64x32xf16>
  %end = cta.tile_loop static (%M, %M) tile [64, 32] iter_args(%c0 : index) -> (index) {
  ^bb0(%m0: index, %n0: index, %pos: index):
    %zero = cta.acc_zero : !cta.acc<64x32xf32>
    %l:3 = cta.mainloop %M step 32 iter_args(%zero, %zero, %pos : !cta.acc<64x32xf32>, !cta.acc<64x32xf32>, index)
        -> !cta.acc<64x32xf32>, !cta.acc<64x32xf32>, index {
    ^bb0(%k0: index, %x0: !cta.acc<64x32xf32>, %x1: !cta.acc<64x32xf32>, %i: index):
      cta.yield %x1, %x0, %i : !cta.acc<64x32xf32>, !cta.acc<64x32xf32>, index
    }
    %p = cta.mma %sa, %sb, %zero : !cta.buffer<64x64xf16>, !cta.buffer<64x32xf16>, !cta.acc<64x32xf32>
    cta.store %p, %zero -> %c[%m0, %n0] : !cta.acc<64x32xf32>, !cta.acc<64x32xf32> -> memref<?x?xf32> {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      cta.yield %s : f32
    }
    cta.yield %l#2 : index
  }
  cta.return
}

// Attention: a batched walk over (batch, heads, query tiles), rank-4 loads
// and store, a K loop carrying the output accumulator and the running row
// maxima and sums (rows fragments). S = Q K^T overwrites a zero tile
// (accumulate false); the online softmax reads S and the row vectors with
// frag_map and reduce_rows; the output is rescaled in place (a frag_map to an
// accumulator); P is converted to an lhs fragment and multiplies V from
// registers; the epilogue stores an acc fragment.
// CHECK-LABEL: cta.program @attention(
// CHECK-SAME:    %[[Q:[^:]*]]: memref<?x?x?x?xbf16> {cta.param = #cta.param<"q",
// CHECK-SAME:    %[[K:[^:]*]]: memref<?x?x?x?xbf16> {cta.param = #cta.param<"k",
// CHECK-SAME:    %[[V:[^:]*]]: memref<?x?x?x?xbf16> {cta.param = #cta.param<"v",
// CHECK-SAME:    %[[O:[^:]*]]: memref<?x?x?x?xbf16> {cta.param = #cta.param<"o",
// CHECK-SAME:    %[[B:[^:]*]]: index {cta.dim = #cta.dim<B>}
// CHECK-SAME:    %[[H:[^:]*]]: index {cta.dim = #cta.dim<H>}
// CHECK-SAME:    %[[S:[^:]*]]: index {cta.dim = #cta.dim<S>}
// CHECK-SAME:    %[[D:[^:]*]]: index {cta.dim = #cta.dim<D>})
// CHECK-SAME:    schedule = #cta.schedule<stages = 2, math_warpgroups = 2>
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT:    %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[FZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[SQ:.*]] = cta.alloc : <128x128xbf16>
// CHECK-NEXT:    %[[SK:.*]] = cta.alloc : <128x128xbf16>
// CHECK-NEXT:    %[[SV:.*]] = cta.alloc : <128x128xbf16>
// CHECK-NEXT:    %[[SO:.*]] = cta.alloc : <128x128xbf16>
// CHECK-NEXT:    cta.tile_loop batched (%[[B]], %[[H]], %[[S]], %[[D]]) tile [1, 1, 128, 128] {
// CHECK-NEXT:    ^bb0(%[[BI:.*]]: index, %[[HI:.*]]: index, %[[M0:.*]]: index, %[[N0:.*]]: index):
// CHECK-NEXT:      cta.load %[[Q]][%[[BI]], %[[HI]], %[[M0]], %[[C0]]] -> %[[SQ]] : memref<?x?x?x?xbf16> -> <128x128xbf16>
// CHECK-NEXT:      %[[ZERO:.*]] = cta.acc_zero : <128x128xf32>
// CHECK-NEXT:      %[[MI:.*]] = cta.splat %[[NINF]] : f32 -> <128xf32, rows>
// CHECK-NEXT:      %[[LI:.*]] = cta.splat %[[FZERO]] : f32 -> <128xf32, rows>
// CHECK-NEXT:      %[[RES:.*]]:3 = cta.mainloop %[[S]] step 128 iter_args(%[[ZERO]], %[[MI]], %[[LI]] : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows>) -> !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows> {
// CHECK-NEXT:      ^bb0(%[[K0:.*]]: index, %[[ACC:.*]]: !cta.acc<128x128xf32>, %[[MOLD:.*]]: !cta.frag<128xf32, rows>, %[[LOLD:.*]]: !cta.frag<128xf32, rows>):
// CHECK-NEXT:        cta.load %[[K]][%[[BI]], %[[HI]], %[[K0]], %[[C0]]] -> %[[SK]] : memref<?x?x?x?xbf16> -> <128x128xbf16>
// CHECK-NEXT:        cta.load %[[V]][%[[BI]], %[[HI]], %[[K0]], %[[C0]]] -> %[[SV]] : memref<?x?x?x?xbf16> -> <128x128xbf16>
// CHECK-NEXT:        %[[SS:.*]] = cta.mma %[[SQ]], %[[SK]], %[[ZERO]] accumulate %[[FALSE]] {transpose_b} : !cta.buffer<128x128xbf16>, <128x128xbf16>, <128x128xf32>
// CHECK-NEXT:        %[[SM:.*]] = cta.frag_map %[[SS]], %[[MOLD]] : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc> {
// CHECK-NEXT:        ^bb0(%{{.*}}: index, %{{.*}}: index, %[[X:.*]]: f32, %[[XM:.*]]: f32):
// CHECK-NEXT:          %[[MX:.*]] = arith.maximumf %[[X]], %[[XM]] : f32
// CHECK-NEXT:          cta.yield %[[MX]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[MNEW:.*]] = cta.reduce_rows max %[[SM]] : !cta.frag<128x128xf32, acc> -> <128xf32, rows>
// CHECK-NEXT:        %[[P:.*]] = cta.frag_map %[[SS]], %[[MNEW]] : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc> {
// CHECK:               math.exp2
// CHECK:             }
// CHECK-NEXT:        %[[PL:.*]] = cta.frag_map %[[P]], %[[LOLD]], %[[MOLD]], %[[MNEW]] : !cta.frag<128x128xf32, acc>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc> {
// CHECK-NEXT:        ^bb0(%{{.*}}: index, %[[COL:.*]]: index, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK:               arith.cmpi eq, %[[COL]], %[[C0]] : index
// CHECK:             }
// CHECK-NEXT:        %[[LNEW:.*]] = cta.reduce_rows sum %[[PL]] : !cta.frag<128x128xf32, acc> -> <128xf32, rows>
// CHECK-NEXT:        %[[RESC:.*]] = cta.frag_map %[[ACC]], %[[MOLD]], %[[MNEW]] : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows> -> !cta.acc<128x128xf32> {
// CHECK:             }
// CHECK-NEXT:        %[[P16:.*]] = cta.convert %[[P]] : !cta.frag<128x128xf32, acc> -> <128x128xbf16, lhs>
// CHECK-NEXT:        %[[NEXT:.*]] = cta.mma %[[P16]], %[[SV]], %[[RESC]] : !cta.frag<128x128xbf16, lhs>, <128x128xbf16>, <128x128xf32>
// CHECK-NEXT:        cta.yield %[[NEXT]], %[[MNEW]], %[[LNEW]] : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[OUT:.*]] = cta.frag_map %[[RES]]#0, %[[RES]]#2 : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc> {
// CHECK:           }
// CHECK-NEXT:      cta.store %[[OUT]] -> %[[O]][%[[BI]], %[[HI]], %[[M0]], %[[N0]]] staging %[[SO]] : !cta.frag<128x128xf32, acc> -> memref<?x?x?x?xbf16>, !cta.buffer<128x128xbf16> {
cta.program @attention(%q: memref<?x?x?x?xbf16> {cta.param = #cta.param<"q", input, [B, H, S, D]>},
                       %k: memref<?x?x?x?xbf16> {cta.param = #cta.param<"k", input, [B, H, S, D]>},
                       %v: memref<?x?x?x?xbf16> {cta.param = #cta.param<"v", input, [B, H, S, D]>},
                       %o: memref<?x?x?x?xbf16> {cta.param = #cta.param<"o", output, [B, H, S, D]>},
                       %B: index {cta.dim = #cta.dim<B>}, %H: index {cta.dim = #cta.dim<H>}, %S: index {cta.dim = #cta.dim<S>}, %D: index {cta.dim = #cta.dim<D>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 2>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %ninf = arith.constant 0xFF800000 : f32
  %fzero = arith.constant 0.0 : f32
  %sq = cta.alloc : !cta.buffer<128x128xbf16>
  %sk = cta.alloc : !cta.buffer<128x128xbf16>
  %sv = cta.alloc : !cta.buffer<128x128xbf16>
  %so = cta.alloc : !cta.buffer<128x128xbf16>
  cta.tile_loop batched (%B, %H, %S, %D) tile [1, 1, 128, 128] {
  ^bb0(%b: index, %h: index, %m0: index, %n0: index):
    cta.load %q[%b, %h, %m0, %c0] -> %sq : memref<?x?x?x?xbf16> -> !cta.buffer<128x128xbf16>
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %m_init = cta.splat %ninf : f32 -> !cta.frag<128xf32, rows>
    %l_init = cta.splat %fzero : f32 -> !cta.frag<128xf32, rows>
    %res:3 = cta.mainloop %S step 128 iter_args(%zero, %m_init, %l_init : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows>)
        -> !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows> {
    ^bb0(%k0: index, %acc: !cta.acc<128x128xf32>, %m_old: !cta.frag<128xf32, rows>, %l_old: !cta.frag<128xf32, rows>):
      cta.load %k[%b, %h, %k0, %c0] -> %sk : memref<?x?x?x?xbf16> -> !cta.buffer<128x128xbf16>
      cta.load %v[%b, %h, %k0, %c0] -> %sv : memref<?x?x?x?xbf16> -> !cta.buffer<128x128xbf16>
      // S = Q K^T, overwriting the zero tile.
      %s = cta.mma %sq, %sk, %zero accumulate %false {transpose_b} : !cta.buffer<128x128xbf16>, !cta.buffer<128x128xbf16>, !cta.acc<128x128xf32>
      // m_new = max(m_old, rowmax(S)).
      %sm = cta.frag_map %s, %m_old : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc> {
      ^bb0(%i: index, %j: index, %x: f32, %m: f32):
        %y = arith.maximumf %x, %m : f32
        cta.yield %y : f32
      }
      %m_new = cta.reduce_rows max %sm : !cta.frag<128x128xf32, acc> -> !cta.frag<128xf32, rows>
      // P = exp2(S - m_new).
      %p = cta.frag_map %s, %m_new : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc> {
      ^bb0(%i: index, %j: index, %x: f32, %m: f32):
        %d = arith.subf %x, %m : f32
        %e = math.exp2 %d : f32
        cta.yield %e : f32
      }
      // l_new = rowsum(P) + l_old * exp2(m_old - m_new), folded into column 0.
      %pl = cta.frag_map %p, %l_old, %m_old, %m_new : !cta.frag<128x128xf32, acc>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc> {
      ^bb0(%i: index, %j: index, %x: f32, %l: f32, %mo: f32, %mn: f32):
        %d = arith.subf %mo, %mn : f32
        %alpha = math.exp2 %d : f32
        %scaled = arith.mulf %l, %alpha : f32
        %first = arith.cmpi eq, %j, %c0 : index
        %carry = arith.select %first, %scaled, %fzero : f32
        %y = arith.addf %x, %carry : f32
        cta.yield %y : f32
      }
      %l_new = cta.reduce_rows sum %pl : !cta.frag<128x128xf32, acc> -> !cta.frag<128xf32, rows>
      // O = O * exp2(m_old - m_new) + P V, P in registers; O stays an accumulator.
      %rescaled = cta.frag_map %acc, %m_old, %m_new : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows> -> !cta.acc<128x128xf32> {
      ^bb0(%i: index, %j: index, %x: f32, %mo: f32, %mn: f32):
        %d = arith.subf %mo, %mn : f32
        %alpha = math.exp2 %d : f32
        %y = arith.mulf %x, %alpha : f32
        cta.yield %y : f32
      }
      %p16 = cta.convert %p : !cta.frag<128x128xf32, acc> -> !cta.frag<128x128xbf16, lhs>
      %next = cta.mma %p16, %sv, %rescaled : !cta.frag<128x128xbf16, lhs>, !cta.buffer<128x128xbf16>, !cta.acc<128x128xf32>
      cta.yield %next, %m_new, %l_new : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows>
    }
    %out = cta.frag_map %res#0, %res#2 : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc> {
    ^bb0(%i: index, %j: index, %x: f32, %l: f32):
      %y = arith.divf %x, %l : f32
      cta.yield %y : f32
    }
    cta.store %out -> %o[%b, %h, %m0, %n0] staging %so : !cta.frag<128x128xf32, acc> -> memref<?x?x?x?xbf16>, !cta.buffer<128x128xbf16> {
    ^bb0(%x: f32):
      %t = arith.truncf %x : f32 to bf16
      cta.yield %t : bf16
    }
  } {persistent}
  cta.return
}

// A grouped GEMM (mixture of experts): a grouped walk over the row segments
// of `offsets`, each expert's weights a rank-3 source indexed by the group,
// and a store that stops at the group's end row.
// CHECK-LABEL: cta.program @grouped_gemm(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x",
// CHECK-SAME:    %[[W:[^:]*]]: memref<?x?x?xbf16, strided<[?, ?, 1]>> {cta.param = #cta.param<"w",
// CHECK-SAME:    %[[OFF:[^:]*]]: memref<?xi32> {cta.param = #cta.param<"offsets",
// CHECK-SAME:    %[[BIAS:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"bias",
// CHECK-SAME:    %[[SCALE:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"scale",
// CHECK-SAME:    %[[Y:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y",
// CHECK-SAME:    %[[E:[^:]*]]: index {cta.dim = #cta.dim<E>}
// CHECK-SAME:    %[[T:[^:]*]]: index {cta.dim = #cta.dim<T>}
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = #cta.dim<K>}
// CHECK-SAME:    %[[N:[^:]*]]: index {cta.dim = #cta.dim<N>})
// CHECK:         %[[SX:.*]] = cta.alloc : <128x64xbf16>
// CHECK-NEXT:    %[[SW:.*]] = cta.alloc : <128x64xbf16>
// CHECK-NEXT:    %[[SY:.*]] = cta.alloc : <128x128xbf16>
// CHECK-NEXT:    cta.tile_loop grouped offsets(%[[OFF]] : memref<?xi32>, %[[E]]) (%[[T]], %[[N]]) tile [128, 128] {
// CHECK-NEXT:    ^bb0(%[[G:.*]]: index, %[[M0:.*]]: index, %[[N0:.*]]: index, %[[MEND:.*]]: index, %{{.*}}: index):
// CHECK-NEXT:      %[[Z:.*]] = cta.acc_zero : <128x128xf32>
// CHECK-NEXT:      %[[ACC:.*]] = cta.mainloop %[[K]] step 64 iter_args(%[[Z]] : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
// CHECK-NEXT:      ^bb0(%[[K0:.*]]: index, %[[IT:.*]]: !cta.acc<128x128xf32>):
// CHECK-NEXT:        cta.load %[[X]][%[[M0]], %[[K0]]] -> %[[SX]] : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16>
// CHECK-NEXT:        cta.load %[[W]][%[[G]], %[[N0]], %[[K0]]] -> %[[SW]] : memref<?x?x?xbf16, strided<[?, ?, 1]>> -> <128x64xbf16>
// CHECK-NEXT:        %[[NEXT:.*]] = cta.mma %[[SX]], %[[SW]], %[[IT]] {transpose_b}
// CHECK-NEXT:        cta.yield %[[NEXT]] : !cta.acc<128x128xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      cta.store %[[ACC]] inputs(%[[BIAS]] per_group_col, %[[SCALE]] per_group : memref<?x?xf32, strided<[?, 1]>>, memref<?x?xf32, strided<[?, 1]>>) -> %[[Y]][%[[M0]], %[[N0]]] row_limit %[[MEND]] group %[[G]] staging %[[SY]] : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
// CHECK:         } {persistent}
cta.program @grouped_gemm(%x: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x", input, [T, K]>},
                          %w: memref<?x?x?xbf16, strided<[?, ?, 1]>> {cta.param = #cta.param<"w", input, [E, N, K]>},
                          %offsets: memref<?xi32> {cta.param = #cta.param<"offsets", input, [G]>},
                          %bias: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"bias", input, [E, N]>},
                          %scale: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"scale", input, [E, 1]>},
                          %y: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y", output, [T, N]>},
                          %E: index {cta.dim = #cta.dim<E>}, %T: index {cta.dim = #cta.dim<T>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %sx = cta.alloc : !cta.buffer<128x64xbf16>
  %sw = cta.alloc : !cta.buffer<128x64xbf16>
  %sy = cta.alloc : !cta.buffer<128x128xbf16>
  cta.tile_loop grouped offsets(%offsets : memref<?xi32>, %E) (%T, %N) tile [128, 128] {
  ^bb0(%e: index, %m0: index, %n0: index, %m_end: index, %row_tile: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %it: !cta.acc<128x128xf32>):
      cta.load %x[%m0, %k0] -> %sx : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16>
      cta.load %w[%e, %n0, %k0] -> %sw : memref<?x?x?xbf16, strided<[?, ?, 1]>> -> !cta.buffer<128x64xbf16>
      %next = cta.mma %sx, %sw, %it {transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<128x64xbf16>, !cta.acc<128x128xf32>
      cta.yield %next : !cta.acc<128x128xf32>
    }
    cta.store %acc inputs(%bias per_group_col, %scale per_group : memref<?x?xf32, strided<[?, 1]>>, memref<?x?xf32, strided<[?, 1]>>) -> %y[%m0, %n0] row_limit %m_end group %e staging %sy : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
    ^bb0(%v: f32, %b: f32, %s: f32):
      %scaled = arith.mulf %v, %s : f32
      %biased = arith.addf %scaled, %b : f32
      %t = arith.truncf %biased : f32 to bf16
      cta.yield %t : bf16
    }
  } {persistent}
  cta.return
}

// A packed dual GEMM (SwiGLU): both weight tiles fill one rhs buffer side by
// side (dst_rows), one wide MMA, split_cols gives the two products, and the
// store reads them with one epilogue input of each kind (the region takes
// the stored values, then the inputs, in order).
// CHECK-LABEL: cta.program @dual_gemm(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x",
// CHECK-SAME:    %[[W1:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w1",
// CHECK-SAME:    %[[W2:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w2",
// CHECK-SAME:    %[[BIAS:[^:]*]]: memref<?xbf16, strided<[1]>> {cta.param = #cta.param<"bias",
// CHECK-SAME:    %[[SCALE:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"scale",
// CHECK-SAME:    %[[RES:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"res",
// CHECK-SAME:    %[[ALPHA:[^:]*]]: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"alpha",
// CHECK-SAME:    %[[Y:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y",
// CHECK:         %[[SX:.*]] = cta.alloc : <128x64xbf16>
// CHECK-NEXT:    %[[SW:.*]] = cta.alloc : <256x64xbf16>
// CHECK-NEXT:    %[[SY:.*]] = cta.alloc : <128x128xbf16>
// CHECK-NEXT:    cta.tile_loop static
// CHECK-NEXT:    ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index):
// CHECK-NEXT:      %[[Z:.*]] = cta.acc_zero : <128x256xf32>
// CHECK-NEXT:      %[[ACC:.*]] = cta.mainloop
// CHECK-NEXT:      ^bb0(%[[K0:.*]]: index, %[[IT:.*]]: !cta.acc<128x256xf32>):
// CHECK-NEXT:        cta.load %[[X]][%[[M0]], %[[K0]]] -> %[[SX]] :
// CHECK-NEXT:        cta.load %[[W1]][%[[N0]], %[[K0]]] -> %[[SW]] {dst_rows = array<i64: 0, 128>} : memref<?x?xbf16, strided<[?, 1]>> -> <256x64xbf16>
// CHECK-NEXT:        cta.load %[[W2]][%[[N0]], %[[K0]]] -> %[[SW]] {dst_rows = array<i64: 128, 256>} : memref<?x?xbf16, strided<[?, 1]>> -> <256x64xbf16>
// CHECK-NEXT:        %[[P:.*]] = cta.mma %[[SX]], %[[SW]], %[[IT]] {transpose_b} : !cta.buffer<128x64xbf16>, <256x64xbf16>, <128x256xf32>
// CHECK-NEXT:        cta.yield %[[P]] : !cta.acc<128x256xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[PARTS:.*]]:2 = cta.split_cols %[[ACC]] : <128x256xf32> -> !cta.acc<128x128xf32>, !cta.acc<128x128xf32>
// CHECK-NEXT:      cta.store %[[PARTS]]#0, %[[PARTS]]#1 inputs(%[[BIAS]] per_col, %[[SCALE]] per_row, %[[RES]] tile, %[[ALPHA]] scalar : memref<?xbf16, strided<[1]>>, memref<?x?xf32, strided<[?, 1]>>, memref<?x?xbf16, strided<[?, 1]>>, memref<?xf32, strided<[1]>>) -> %[[Y]][%[[M0]], %[[N0]]] staging %[[SY]] : !cta.acc<128x128xf32>, !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
// CHECK-NEXT:      ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32, %[[BV:.*]]: bf16, %[[S:.*]]: f32, %[[R:.*]]: bf16, %[[AL:.*]]: f32):
// CHECK-NEXT:        %[[BF:.*]] = arith.extf %[[BV]] : bf16 to f32
// CHECK-NEXT:        %[[GB:.*]] = arith.addf %[[G]], %[[BF]] : f32
// CHECK-NEXT:        %[[GU:.*]] = arith.mulf %[[GB]], %[[U]] : f32
// CHECK-NEXT:        %[[GS:.*]] = arith.mulf %[[GU]], %[[S]] : f32
// CHECK-NEXT:        %[[RF:.*]] = arith.extf %[[R]] : bf16 to f32
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[GS]], %[[RF]] : f32
// CHECK-NEXT:        %[[OUT:.*]] = arith.mulf %[[SUM]], %[[AL]] : f32
// CHECK-NEXT:        %[[TR:.*]] = arith.truncf %[[OUT]] : f32 to bf16
// CHECK-NEXT:        cta.yield %[[TR]] : bf16
// CHECK-NEXT:      }
cta.program @dual_gemm(%x: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x", input, [M, K]>},
                       %w1: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w1", input, [N, K]>},
                       %w2: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w2", input, [N, K]>},
                       %bias: memref<?xbf16, strided<[1]>> {cta.param = #cta.param<"bias", input, [N]>},
                       %scale: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"scale", input, [M, 1]>},
                       %res: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"res", input, [M, N]>},
                       %alpha: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"alpha", input, [1]>},
                       %y: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y", output, [M, N]>},
                       %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %sx = cta.alloc : !cta.buffer<128x64xbf16>
  %sw = cta.alloc : !cta.buffer<256x64xbf16>
  %sy = cta.alloc : !cta.buffer<128x128xbf16>
  cta.tile_loop static (%M, %N) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x256xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
    ^bb0(%k0: index, %it: !cta.acc<128x256xf32>):
      cta.load %x[%m0, %k0] -> %sx : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16>
      cta.load %w1[%n0, %k0] -> %sw {dst_rows = array<i64: 0, 128>} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<256x64xbf16>
      cta.load %w2[%n0, %k0] -> %sw {dst_rows = array<i64: 128, 256>} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<256x64xbf16>
      %next = cta.mma %sx, %sw, %it {transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<256x64xbf16>, !cta.acc<128x256xf32>
      cta.yield %next : !cta.acc<128x256xf32>
    }
    %gate, %up = cta.split_cols %acc : !cta.acc<128x256xf32> -> !cta.acc<128x128xf32>, !cta.acc<128x128xf32>
    cta.store %gate, %up inputs(%bias per_col, %scale per_row, %res tile, %alpha scalar : memref<?xbf16, strided<[1]>>, memref<?x?xf32, strided<[?, 1]>>, memref<?x?xbf16, strided<[?, 1]>>, memref<?xf32, strided<[1]>>)
        -> %y[%m0, %n0] staging %sy : !cta.acc<128x128xf32>, !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
    ^bb0(%g: f32, %u: f32, %bv: bf16, %s: f32, %r: bf16, %al: f32):
      %bf = arith.extf %bv : bf16 to f32
      %gb = arith.addf %g, %bf : f32
      %gu = arith.mulf %gb, %u : f32
      %gs = arith.mulf %gu, %s : f32
      %rf = arith.extf %r : bf16 to f32
      %sum = arith.addf %gs, %rf : f32
      %out = arith.mulf %sum, %al : f32
      %t = arith.truncf %out : f32 to bf16
      cta.yield %t : bf16
    }
  }
  cta.return
}

// Register math on its own: a frag_map over an accumulator with a row and a
// column vector (its body named row, col, x...), sums of accumulator rows, a
// conversion to f16 feeding an MMA from registers with an explicit
// accumulate flag, a split into three parts, and a store of accumulators next
// to an acc fragment with a row limit.
// CHECK-LABEL: cta.program @fragments(
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = #cta.dim<M>})
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:    %[[ACC:.*]] = cta.acc_zero : <64x192xf32>
// CHECK-NEXT:    %[[ROWS:.*]] = cta.splat %[[ONE]] : f32 -> <64xf32, rows>
// CHECK-NEXT:    %[[COLS:.*]] = cta.splat %[[ONE]] : f32 -> <192xf32, cols>
// CHECK-NEXT:    %[[F:.*]] = cta.frag_map %[[ACC]], %[[ROWS]], %[[COLS]] : !cta.acc<64x192xf32>, !cta.frag<64xf32, rows>, !cta.frag<192xf32, cols> -> !cta.frag<64x192xf32, acc> {
// CHECK-NEXT:    ^bb0(%row: index, %col: index, %x: f32, %x_0: f32, %x_1: f32):
// CHECK-NEXT:      %[[XR:.*]] = arith.mulf %x, %x_0 : f32
// CHECK-NEXT:      %[[XC:.*]] = arith.addf %[[XR]], %x_1 : f32
// CHECK-NEXT:      cta.yield %[[XC]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    cta.reduce_rows sum %[[ACC]] : !cta.acc<64x192xf32> -> <64xf32, rows>
// CHECK-NEXT:    cta.reduce_rows max %[[F]] : !cta.frag<64x192xf32, acc> -> <64xf32, rows>
// CHECK-NEXT:    %[[H:.*]] = cta.convert %[[ACC]] : !cta.acc<64x192xf32> -> <64x192xf16, lhs>
// CHECK-NEXT:    %[[SB:.*]] = cta.alloc : <192x64xf16>
// CHECK-NEXT:    %[[Z:.*]] = cta.acc_zero : <64x64xf32>
// CHECK-NEXT:    %[[R:.*]] = cta.mma %[[H]], %[[SB]], %[[Z]] accumulate %[[TRUE]] : !cta.frag<64x192xf16, lhs>, <192x64xf16>, <64x64xf32>
// CHECK-NEXT:    %[[P:.*]]:3 = cta.split_cols %[[ACC]] : <64x192xf32> -> !cta.acc<64x64xf32>, !cta.acc<64x64xf32>, !cta.acc<64x64xf32>
// CHECK-NEXT:    %[[G:.*]] = cta.splat %[[ONE]] : f32 -> <64x64xf32, acc>
// CHECK-NEXT:    cta.store %[[P]]#2, %[[G]], %[[R]] -> %[[C]][%[[M]], %[[M]]] row_limit %[[M]] : !cta.acc<64x64xf32>, !cta.frag<64x64xf32, acc>, !cta.acc<64x64xf32> -> memref<?x?xf32> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
cta.program @fragments(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>}) {
  %one = arith.constant 1.0 : f32
  %true = arith.constant true
  %acc = cta.acc_zero : !cta.acc<64x192xf32>
  %rows = cta.splat %one : f32 -> !cta.frag<64xf32, rows>
  %cols = cta.splat %one : f32 -> !cta.frag<192xf32, cols>
  %f = cta.frag_map %acc, %rows, %cols : !cta.acc<64x192xf32>, !cta.frag<64xf32, rows>, !cta.frag<192xf32, cols> -> !cta.frag<64x192xf32, acc> {
  ^bb0(%i: index, %j: index, %x: f32, %r: f32, %col: f32):
    %y = arith.mulf %x, %r : f32
    %z = arith.addf %y, %col : f32
    cta.yield %z : f32
  }
  %sum = cta.reduce_rows sum %acc : !cta.acc<64x192xf32> -> !cta.frag<64xf32, rows>
  %max = cta.reduce_rows max %f : !cta.frag<64x192xf32, acc> -> !cta.frag<64xf32, rows>
  %h = cta.convert %acc : !cta.acc<64x192xf32> -> !cta.frag<64x192xf16, lhs>
  %sb = cta.alloc : !cta.buffer<192x64xf16>
  %z64 = cta.acc_zero : !cta.acc<64x64xf32>
  %r = cta.mma %h, %sb, %z64 accumulate %true : !cta.frag<64x192xf16, lhs>, !cta.buffer<192x64xf16>, !cta.acc<64x64xf32>
  %p:3 = cta.split_cols %acc : !cta.acc<64x192xf32> -> !cta.acc<64x64xf32>, !cta.acc<64x64xf32>, !cta.acc<64x64xf32>
  %g = cta.splat %one : f32 -> !cta.frag<64x64xf32, acc>
  cta.store %p#2, %g, %r -> %c[%M, %M] row_limit %M : !cta.acc<64x64xf32>, !cta.frag<64x64xf32, acc>, !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%x: f32, %y: f32, %w: f32):
    %z = arith.addf %x, %y : f32
    %zw = arith.addf %z, %w : f32
    cta.yield %zw : f32
  }
  cta.return
}

//===----------------------------------------------------------------------===//
// After cta-pipeline: ring, warp roles, produce/consume
//===----------------------------------------------------------------------===//

// The GEMM above, warp-specialized: a producer role fills ring stages
// (loads with a slot and the ring they signal), a math role of two
// warpgroups each multiplies its 64-row slice of the lhs and stores it
// through its own staging stage.
// CHECK-LABEL: cta.program @pipelined(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[B:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = #cta.dim<M>}
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = #cta.dim<K>}
// CHECK-SAME:    %[[N:[^:]*]]: index {cta.dim = #cta.dim<N>})
// CHECK-SAME:    attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>}
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[SA:.*]] = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
// CHECK-NEXT:    %[[SB:.*]] = cta.alloc : <256x64xbf16, stages = 4, swizzle = "128B">
// CHECK-NEXT:    %[[SC:.*]] = cta.alloc : <64x128xbf16, stages = 2, swizzle = "128B">
// CHECK-NEXT:    %[[RING:.*]] = cta.ring {cluster_size = 2 : i64, consumers = 2 : i64} : <4>
// CHECK-NEXT:    cta.warp_specialize
// CHECK-NEXT:      #cta.role<producer, warps = 4, regs = 40> {
// CHECK-NEXT:      %{{.*}} = cta.tile_loop static (%[[M]], %[[N]]) tile [128, 256] iter_args(%[[C0]] : index) -> (index) {
// CHECK-NEXT:      ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %[[POS:.*]]: index):
// CHECK-NEXT:        %[[COUNT:.*]] = arith.ceildivui %[[K]], %[[C64]] : index
// CHECK-NEXT:        %[[NEXT:.*]] = cta.produce %[[RING]] at %[[POS]] count %[[COUNT]] : <4> {
// CHECK-NEXT:        ^bb0(%[[KB:.*]]: index, %[[SLOT:.*]]: index):
// CHECK-NEXT:          %[[K0:.*]] = arith.muli %[[KB]], %[[C64]] : index
// CHECK-NEXT:          cta.load %[[A]][%[[M0]], %[[K0]]] -> %[[SA]][%[[SLOT]]] signal %[[RING]] : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
// CHECK-NEXT:          cta.load %[[B]][%[[N0]], %[[K0]]] -> %[[SB]][%[[SLOT]]] signal %[[RING]] {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> <256x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
// CHECK-NEXT:        }
// CHECK-NEXT:        cta.yield %[[NEXT]] : index
// CHECK-NEXT:      } {cluster = array<i64: 2, 1>, persistent}
// CHECK-NEXT:    }
// CHECK-NEXT:      #cta.role<math, warps = 8, regs = 232> {
// CHECK-NEXT:      %{{.*}} = cta.tile_loop static (%[[M]], %[[N]]) tile [128, 256] iter_args(%[[C0]] : index) -> (index) {
// CHECK-NEXT:      ^bb0(%[[CM0:.*]]: index, %[[CN0:.*]]: index, %[[CPOS:.*]]: index):
// CHECK-NEXT:        %[[CCOUNT:.*]] = arith.ceildivui %[[K]], %[[C64]] : index
// CHECK-NEXT:        %[[WG:.*]] = cta.warpgroup_index : index
// CHECK-NEXT:        %[[ROW:.*]] = arith.muli %[[WG]], %[[C64]] : index
// CHECK-NEXT:        %[[Z:.*]] = cta.acc_zero : <64x256xf32>
// CHECK-NEXT:        %[[RES:.*]]:2 = cta.consume %[[RING]] at %[[CPOS]] count %[[CCOUNT]] iter_args(%[[Z]] : !cta.acc<64x256xf32>) : <4> -> !cta.acc<64x256xf32> {
// CHECK-NEXT:        ^bb0(%[[CKB:.*]]: index, %[[CSLOT:.*]]: index, %[[ACC:.*]]: !cta.acc<64x256xf32>):
// CHECK-NEXT:          %[[P:.*]] = cta.mma %[[SA]][%[[CSLOT]]] rows %[[ROW]], %[[SB]][%[[CSLOT]]], %[[ACC]] {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, <256x64xbf16, stages = 4, swizzle = "128B">, <64x256xf32>
// CHECK-NEXT:          cta.yield %[[P]] : !cta.acc<64x256xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[R0:.*]] = arith.addi %[[CM0]], %[[ROW]] : index
// CHECK-NEXT:        cta.store %[[RES]]#1 -> %[[C]][%[[R0]], %[[CN0]]] staging %[[SC]][%[[WG]]] : !cta.acc<64x256xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
// CHECK-NEXT:        ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:          %[[T:.*]] = arith.truncf %[[E]] : f32 to bf16
// CHECK-NEXT:          cta.yield %[[T]] : bf16
// CHECK-NEXT:        }
// CHECK-NEXT:        cta.yield %[[RES]]#0 : index
// CHECK-NEXT:      } {cluster = array<i64: 2, 1>, persistent}
// CHECK-NEXT:    }
// CHECK-NEXT:    cta.return
cta.program @pipelined(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>},
                       %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>},
                       %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>},
                       %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {chip = #cta.chip<sm_90a>, block = array<i64: 384, 1, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %sa = cta.alloc : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<256x64xbf16, stages = 4, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B">
  %ring = cta.ring {consumers = 2 : i64, cluster_size = 2 : i64} : !cta.ring<4>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
      %end = cta.tile_loop static (%M, %N) tile [128, 256] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %count = arith.ceildivui %K, %c64 : index
        %next = cta.produce %ring at %pos count %count : !cta.ring<4> {
        ^bb0(%kb: index, %slot: index):
          %k0 = arith.muli %kb, %c64 : index
          cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
          cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<256x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
        }
        cta.yield %next : index
      } {persistent, cluster = array<i64: 2, 1>}
    }
    #cta.role<math, warps = 8, regs = 232> {
      %end = cta.tile_loop static (%M, %N) tile [128, 256] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %count = arith.ceildivui %K, %c64 : index
        %wg = cta.warpgroup_index : index
        %row = arith.muli %wg, %c64 : index
        %zero = cta.acc_zero : !cta.acc<64x256xf32>
        %res:2 = cta.consume %ring at %pos count %count iter_args(%zero : !cta.acc<64x256xf32>) : !cta.ring<4> -> !cta.acc<64x256xf32> {
        ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x256xf32>):
          %p = cta.mma %sa[%slot] rows %row, %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, !cta.buffer<256x64xbf16, stages = 4, swizzle = "128B">, !cta.acc<64x256xf32>
          cta.yield %p : !cta.acc<64x256xf32>
        }
        %r0 = arith.addi %m0, %row : index
        cta.store %res#1 -> %c[%r0, %n0] staging %sc[%wg] : !cta.acc<64x256xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%e: f32):
          %t = arith.truncf %e : f32 to bf16
          cta.yield %t : bf16
        }
        cta.yield %res#0 : index
      } {persistent, cluster = array<i64: 2, 1>}
    }
  cta.return
}

// Attention's math role: a consumer carrying the output accumulator and the
// running row maxima (its body named kb, slot, carried...); Q is a
// single-stage buffer whose rows each warpgroup selects, K and V are ring
// stages, and P feeds the second MMA from registers.
// CHECK-LABEL: cta.program @pipelined_attention(
// CHECK:         %[[FALSE:.*]] = arith.constant false
// CHECK:         %[[SQ:.*]] = cta.alloc : <128x128xbf16, swizzle = "128B">
// CHECK-NEXT:    %[[SK:.*]] = cta.alloc : <128x128xbf16, stages = 2, swizzle = "128B">
// CHECK-NEXT:    %[[SV:.*]] = cta.alloc : <128x128xbf16, stages = 2, swizzle = "128B">
// CHECK-NEXT:    %[[RING:.*]] = cta.ring {consumers = 2 : i64} : <2>
// CHECK-NEXT:    cta.warp_specialize
// CHECK-NEXT:      #cta.role<producer, warps = 4, regs = 40> {
// CHECK-NEXT:      cta.load
// CHECK-NEXT:    }
// CHECK-NEXT:      #cta.role<math, warps = 8, regs = 232> {
// CHECK-NEXT:      %[[WG:.*]] = cta.warpgroup_index : index
// CHECK-NEXT:      %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %[[WG]], %[[C64]] : index
// CHECK-NEXT:      %[[ZERO:.*]] = cta.acc_zero : <64x128xf32>
// CHECK-NEXT:      %[[MI:.*]] = cta.splat %{{.*}} : f32 -> <64xf32, rows>
// CHECK-NEXT:      %{{.*}}:3 = cta.consume %[[RING]] at %{{.*}} count %{{.*}} iter_args(%[[ZERO]], %[[MI]] : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>) : <2> -> !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> {
// CHECK-NEXT:      ^bb0(%kb: index, %slot: index, %carried: !cta.acc<64x128xf32>, %carried_0: !cta.frag<64xf32, rows>):
// CHECK-NEXT:        %[[S:.*]] = cta.mma %[[SQ]] rows %[[ROW]], %[[SK]][%slot], %[[ZERO]] accumulate %[[FALSE]] {transpose_b} : !cta.buffer<128x128xbf16, swizzle = "128B">, <128x128xbf16, stages = 2, swizzle = "128B">, <64x128xf32>
// CHECK-NEXT:        %[[MNEW:.*]] = cta.reduce_rows max %[[S]] : !cta.acc<64x128xf32> -> <64xf32, rows>
// CHECK-NEXT:        %[[P:.*]] = cta.frag_map %[[S]], %[[MNEW]] : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> -> !cta.frag<64x128xf32, acc> {
// CHECK:             }
// CHECK-NEXT:        %[[P16:.*]] = cta.convert %[[P]] : !cta.frag<64x128xf32, acc> -> <64x128xbf16, lhs>
// CHECK-NEXT:        %[[O:.*]] = cta.mma %[[P16]], %[[SV]][%slot], %carried : !cta.frag<64x128xbf16, lhs>, <128x128xbf16, stages = 2, swizzle = "128B">, <64x128xf32>
// CHECK-NEXT:        cta.yield %[[O]], %[[MNEW]] : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
cta.program @pipelined_attention(%q: memref<?x?x?x?xbf16> {cta.param = #cta.param<"q", input, [D0, D1, D2, D3]>}, %S: index {cta.dim = #cta.dim<S>})
    attributes {chip = #cta.chip<sm_90a>, block = array<i64: 384, 1, 1>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %ninf = arith.constant 0xFF800000 : f32
  %sq = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  %sk = cta.alloc : !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">
  %sv = cta.alloc : !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">
  %ring = cta.ring {consumers = 2 : i64} : !cta.ring<2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
      cta.load %q[%c0, %c0, %c0, %c0] -> %sq : memref<?x?x?x?xbf16> -> !cta.buffer<128x128xbf16, swizzle = "128B">
    }
    #cta.role<math, warps = 8, regs = 232> {
      %wg = cta.warpgroup_index : index
      %c64 = arith.constant 64 : index
      %row = arith.muli %wg, %c64 : index
      %zero = cta.acc_zero : !cta.acc<64x128xf32>
      %m_init = cta.splat %ninf : f32 -> !cta.frag<64xf32, rows>
      %res:3 = cta.consume %ring at %c0 count %S iter_args(%zero, %m_init : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>) : !cta.ring<2> -> !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x128xf32>, %m_old: !cta.frag<64xf32, rows>):
        %s = cta.mma %sq rows %row, %sk[%slot], %zero accumulate %false {transpose_b} : !cta.buffer<128x128xbf16, swizzle = "128B">, !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">, !cta.acc<64x128xf32>
        %m_new = cta.reduce_rows max %s : !cta.acc<64x128xf32> -> !cta.frag<64xf32, rows>
        %p = cta.frag_map %s, %m_new : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> -> !cta.frag<64x128xf32, acc> {
        ^bb0(%i: index, %j: index, %x: f32, %m: f32):
          %d = arith.subf %x, %m : f32
          %e = math.exp2 %d : f32
          cta.yield %e : f32
        }
        %p16 = cta.convert %p : !cta.frag<64x128xf32, acc> -> !cta.frag<64x128xbf16, lhs>
        %o = cta.mma %p16, %sv[%slot], %acc : !cta.frag<64x128xbf16, lhs>, !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">, !cta.acc<64x128xf32>
        cta.yield %o, %m_new : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>
      }
    }
  cta.return
}

// Roles of any kind and size, in any order (sm_100a's epilogue warpgroups,
// producer warp and MMA warp); a role that keeps its registers prints no
// count; an empty role region prints empty.
// CHECK-LABEL: cta.program @roles(
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = #cta.dim<K>})
// CHECK:         %[[RING:.*]] = cta.ring {consumers = 1 : i64} : <4>
// CHECK-NEXT:    cta.warp_specialize
// CHECK-NEXT:      #cta.role<epilogue, warps = 8, regs = 232> {
// CHECK-NEXT:      cta.warpgroup_index : index
// CHECK-NEXT:    }
// CHECK-NEXT:      #cta.role<producer, warps = 1> {
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      cta.produce %[[RING]] at %[[C0]] count %[[K]] : <4> {
// CHECK-NEXT:      ^bb0(%kb: index, %slot: index):
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:      #cta.role<mma, warps = 1> {
// CHECK-NEXT:    }
// CHECK-NEXT:    cta.return
cta.program @roles(%k: index {cta.dim = #cta.dim<K>}) attributes {chip = #cta.chip<sm_100a>} {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<4>
  cta.warp_specialize
    #cta.role<epilogue, warps = 8, regs = 232> {
      %wg = cta.warpgroup_index : index
    }
    #cta.role<producer, warps = 1, regs = 0> {
      %c0 = arith.constant 0 : index
      %next = cta.produce %ring at %c0 count %k : !cta.ring<4> {
      ^bb0(%kb: index, %slot: index):
      }
    }
    #cta.role<mma, warps = 1> {
      cta.yield
    }
  cta.return
}

// K loops and consumers without carried values print no result types.
// CHECK-LABEL: cta.program @no_accumulators(
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = #cta.dim<K>})
// CHECK:         cta.mainloop %[[K]] step 64 {
// CHECK-NEXT:    ^bb0(%k0: index):
// CHECK-NEXT:      cta.yield
// CHECK-NEXT:    }
// CHECK:         %[[RING:.*]] = cta.ring {consumers = 1 : i64} : <2>
// CHECK:         %{{.*}} = cta.consume %[[RING]] at %[[K]] count %[[K]] : <2> {
// CHECK-NEXT:    ^bb0(%kb: index, %slot: index):
// CHECK-NEXT:      cta.yield
// CHECK-NEXT:    }
cta.program @no_accumulators(%k: index {cta.dim = #cta.dim<K>}) {
  cta.mainloop %k step 64 {
  ^bb0(%k0: index):
    cta.yield
  }
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %next = cta.consume %ring at %k count %k : !cta.ring<2> {
  ^bb0(%kb: index, %slot: index):
    cta.yield
  }
  cta.return
}

// -----

// A map over row vectors yields a row vector (online softmax's running
// maxima); extra attributes on cta.warp_specialize round-trip after the
// roles.
// CHECK-LABEL: cta.program @vector_map(
// CHECK:         cta.frag_map %{{.*}}, %{{.*}} : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
// CHECK:         cta.warp_specialize
// CHECK:         } attributes {tag}
cta.program @vector_map(%M: index {cta.dim = #cta.dim<M>}) {
  %one = arith.constant 1.0 : f32
  %a = cta.splat %one : f32 -> !cta.frag<64xf32, rows>
  %m = cta.frag_map %a, %a : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
  ^bb0(%i: index, %j: index, %x: f32, %y: f32):
    %s = arith.maximumf %x, %y : f32
    cta.yield %s : f32
  }
  cta.warp_specialize
    #cta.role<producer, warps = 4> {
    } attributes {tag}
  cta.return
}

// The two fp8 formats multiply each other (e4m3 activations, e5m2 weights).
// CHECK-LABEL: cta.program @fp8_mixed(
// CHECK:         cta.mma %{{.*}}, %{{.*}}, %{{.*}} {transpose_b} : !cta.buffer<64x128xf8E4M3FN>, <64x128xf8E5M2>, <64x64xf32>
cta.program @fp8_mixed() {
  %a = cta.alloc : !cta.buffer<64x128xf8E4M3FN>
  %b = cta.alloc : !cta.buffer<64x128xf8E5M2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<64x128xf8E4M3FN>, !cta.buffer<64x128xf8E5M2>, !cta.acc<64x64xf32>
  cta.return
}

// Accumulator hand-off between an MMA role and an epilogue role (sm_100a):
// a ring of two sets of two accumulators.
// CHECK-LABEL: cta.program @acc_ring(
// CHECK-SAME:    #cta.schedule<stages = 4, math_warpgroups = 1, acc_stages = 2>
// CHECK:         %[[R:.*]] = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>, <128x64xf32>]>
// CHECK:         #cta.role<epilogue, warps = 4> {
// CHECK:           %{{.*}}:2 = cta.acc_wait %[[R]] at %{{.*}} filled %{{.*}} : <2, [<128x128xf32>, <128x64xf32>]> -> !cta.acc<128x128xf32>, !cta.acc<128x64xf32>
// CHECK:           cta.acc_release %[[R]] at %{{.*}} : <2, [<128x128xf32>, <128x64xf32>]>
// CHECK:         #cta.role<mma, warps = 1> {
// CHECK:           %[[Z:.*]]:2 = cta.acc_acquire %[[R]] at %{{.*}} : <2, [<128x128xf32>, <128x64xf32>]> -> !cta.acc<128x128xf32>, !cta.acc<128x64xf32>
// CHECK:           cta.acc_commit %[[R]] at %{{.*}}, %[[Z]]#0, %[[Z]]#1 : <2, [<128x128xf32>, <128x64xf32>]>, !cta.acc<128x128xf32>, !cta.acc<128x64xf32>
cta.program @acc_ring() attributes {schedule = #cta.schedule<stages = 4, math_warpgroups = 1, acc_stages = 2>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %r = cta.acc_ring {consumers = 1} : !cta.acc_ring<2, [!cta.acc<128x128xf32>, !cta.acc<128x64xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
      %a:2 = cta.acc_wait %r at %c0 filled %true : !cta.acc_ring<2, [!cta.acc<128x128xf32>, !cta.acc<128x64xf32>]> -> !cta.acc<128x128xf32>, !cta.acc<128x64xf32>
      cta.acc_release %r at %c0 : !cta.acc_ring<2, [!cta.acc<128x128xf32>, !cta.acc<128x64xf32>]>
    }
    #cta.role<mma, warps = 1> {
      %z:2 = cta.acc_acquire %r at %c0 : !cta.acc_ring<2, [!cta.acc<128x128xf32>, !cta.acc<128x64xf32>]> -> !cta.acc<128x128xf32>, !cta.acc<128x64xf32>
      cta.acc_commit %r at %c0, %z#0, %z#1 : !cta.acc_ring<2, [!cta.acc<128x128xf32>, !cta.acc<128x64xf32>]>, !cta.acc<128x128xf32>, !cta.acc<128x64xf32>
    }
  cta.return
}

// A CTA pair (sm_100a): each CTA loads its half of the rhs rows (its rank
// picks the half) and the pair's MMA covers twice the rhs rows in columns.
// CHECK-LABEL: cta.program @cta_pair(
// CHECK:         %[[RANK:.*]] = cta.cluster_rank : index
// CHECK:         cta.load %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}} {cta_pair} : memref<?x?xbf16> -> <64x64xbf16>
// CHECK:         cta.mma %{{.*}}, %{{.*}}, %{{.*}} {cta_pair, transpose_b} : !cta.buffer<128x64xbf16>, <64x64xbf16>, <128x128xf32>
cta.program @cta_pair(%b: memref<?x?xbf16> {cta.param = #cta.param<"b", input, [M, K]>}) {
  %c64 = arith.constant 64 : index
  %rank = cta.cluster_rank : index
  %row = arith.muli %rank, %c64 : index
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  %sb = cta.alloc : !cta.buffer<64x64xbf16>
  cta.load %b[%row, %c64] -> %sb {cta_pair} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  %r = cta.mma %sa, %sb, %z {cta_pair, transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<128x128xf32>
  cta.return
}

// -----

// MMA turns between math warpgroups (ping-pong) round-trip.
// CHECK-LABEL: cta.program @turns(
// CHECK:         %[[WG:.*]] = cta.warpgroup_index : index
// CHECK-NEXT:    cta.mma_turn start %[[WG]] of 2
// CHECK-NEXT:    cta.mma_turn wait %[[WG]] of 2
// CHECK-NEXT:    cta.mma_turn pass %[[WG]] of 2
cta.program @turns() attributes {block = array<i64: 384, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 8, regs = 240> {
    %wg = cta.warpgroup_index : index
    cta.mma_turn start %wg of 2
    cta.mma_turn wait %wg of 2
    cta.mma_turn pass %wg of 2
  }
  cta.return
}

// -----

// A key step with explicit stages and asynchronous MMAs round-trips: the
// stage waits name their slots, S and O += P V are issued together, S is
// waited for with one MMA still in flight.
// CHECK-LABEL: cta.program @key_step(
// CHECK:         %[[KS:.*]] = cta.stage_wait %[[KR:.*]] at %[[POS:.*]] : <2>
// CHECK-NEXT:    %[[VS:.*]] = cta.stage_wait %[[VR:.*]] at %[[POS]] : <2>
// CHECK-NEXT:    %[[S:.*]] = cta.mma %{{.*}}, %{{.*}}[%[[KS]]], %{{.*}} {async, transpose_b}
// CHECK-NEXT:    %[[O:.*]] = cta.mma %{{.*}}, %{{.*}}[%[[VS]]], %{{.*}} {async}
// CHECK-NEXT:    %{{.*}} = cta.mma_wait %[[S]] later 1 : <64x64xf32>
// CHECK-NEXT:    cta.stage_release %[[KR]] at %[[POS]] : <2>
// CHECK-NEXT:    %{{.*}} = cta.mma_wait %[[O]] later 0 : <64x64xf32>
// CHECK-NEXT:    cta.stage_release %[[VR]] at %[[POS]] : <2>
cta.program @key_step() attributes {block = array<i64: 384, 1, 1>} {
  %sq = cta.alloc : !cta.buffer<64x64xbf16>
  %sk = cta.alloc : !cta.buffer<64x64xbf16, stages = 2>
  %sv = cta.alloc : !cta.buffer<64x64xbf16, stages = 2>
  %kr = cta.ring {consumers = 2 : i64} : !cta.ring<2>
  %vr = cta.ring {consumers = 2 : i64} : !cta.ring<2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 8, regs = 240> {
    %pos = arith.constant 0 : index
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %p = cta.convert %z : !cta.acc<64x64xf32> -> !cta.frag<64x64xbf16, lhs>
    %ks = cta.stage_wait %kr at %pos : !cta.ring<2>
    %vs = cta.stage_wait %vr at %pos : !cta.ring<2>
    %s = cta.mma %sq, %sk[%ks], %z {async, transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16, stages = 2>, !cta.acc<64x64xf32>
    %o = cta.mma %p, %sv[%vs], %z {async} : !cta.frag<64x64xbf16, lhs>, !cta.buffer<64x64xbf16, stages = 2>, !cta.acc<64x64xf32>
    %sr = cta.mma_wait %s later 1 : !cta.acc<64x64xf32>
    cta.stage_release %kr at %pos : !cta.ring<2>
    %or = cta.mma_wait %o later 0 : !cta.acc<64x64xf32>
    cta.stage_release %vr at %pos : !cta.ring<2>
  }
  cta.return
}

// -----

// A rows vector stored along the last axis (attention's log-sum-exp).
// CHECK-LABEL: cta.program @store_rows(
// CHECK:         cta.store_rows %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] : !cta.frag<64xf32, rows> -> memref<?x?xf32>
// CHECK:         cta.store_rows %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] row_limit %{{.*}} : !cta.frag<64xf32, rows> -> memref<?x?xbf16>
cta.program @store_rows(%a: memref<?x?xf32> {cta.param = #cta.param<"a", output, [M, M]>}, %b: memref<?x?xbf16> {cta.param = #cta.param<"b", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
    cta.store_rows %v -> %a[%c0, %c0] : !cta.frag<64xf32, rows> -> memref<?x?xf32>
    cta.store_rows %v -> %b[%c0, %c0] row_limit %c0 : !cta.frag<64xf32, rows> -> memref<?x?xbf16>
  }
  cta.return
}

// -----

// Vectors and scalars read from global f32 tensors (an fp8 GEMM's block
// scales), in a K loop before cta-pipeline.
// CHECK-LABEL: cta.program @reads(
// CHECK:         cta.read_vector %{{.*}}[%m0, %{{.*}}] : memref<?x?xf32> -> !cta.frag<128xf32, rows>
// CHECK:         cta.read_vector %{{.*}}[%n0, %{{.*}}] : memref<?x?xf32> -> !cta.frag<64xf32, cols>
// CHECK:         cta.read_scalar %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32>
cta.program @reads(%sa: memref<?x?xf32> {cta.param = #cta.param<"sa", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%M, %M) tile [128, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x64xf32>
    %r = cta.mainloop %M step 128 iter_args(%z : !cta.acc<128x64xf32>) -> !cta.acc<128x64xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x64xf32>):
      %rows = cta.read_vector %sa[%m0, %k0] : memref<?x?xf32> -> !cta.frag<128xf32, rows>
      %cols = cta.read_vector %sa[%n0, %k0] : memref<?x?xf32> -> !cta.frag<64xf32, cols>
      %one = cta.read_scalar %sa[%m0, %n0] : memref<?x?xf32>
      cta.yield %acc : !cta.acc<128x64xf32>
    }
  }
  cta.return
}

// -----

// Each column's reduction of a tile combined into a vector (a GEMM's
// `c = sum(y, axis = -2)`), in a tile walk before cta-pipeline and in a math
// role after it.
// CHECK-LABEL: cta.program @combine_cols(
// CHECK:         cta.combine_cols sum %{{.*}} rows[%m0, %{{.*}}) -> %{{.*}}[%n0] : !cta.frag<128x64xf32, acc> -> memref<?xf32>
// CHECK:         cta.combine_cols max %{{.*}} rows[%{{.*}}, %{{.*}}) -> %{{.*}}[%{{.*}}] : !cta.frag<64x64xf32, acc> -> memref<?xf32>
cta.program @combine_cols(%c: memref<?xf32> {cta.param = #cta.param<"c", output, [M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [128, 64] {
  ^bb0(%m0: index, %n0: index):
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<128x64xf32, acc>
    cta.combine_cols sum %v rows [%m0, %M) -> %c[%n0] : !cta.frag<128x64xf32, acc> -> memref<?xf32>
  }
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64x64xf32, acc>
    cta.combine_cols max %v rows [%c0, %M) -> %c[%c0] : !cta.frag<64x64xf32, acc> -> memref<?xf32>
  }
  cta.return
}

// -----

// A grouped walk with a leading batch axis (varlen attention's heads) and
// a scalar read of the offsets.
// CHECK-LABEL: cta.program @grouped_batched(
// CHECK:         cta.tile_loop grouped offsets(%{{.*}} : memref<?xi32>, %{{.*}}) (%{{.*}}, %{{.*}}, %{{.*}}) tile [1, 128, 128] {
// CHECK-NEXT:    ^bb0(%group: index, %batch: index, %m0: index, %n0: index, %m_end: index, %row_tile: index):
// CHECK-NEXT:      %{{.*}} = cta.read_index %{{.*}}[%group] : memref<?xi32>
cta.program @grouped_batched(%offsets: memref<?xi32> {cta.param = #cta.param<"cu", input, [B+1]>}, %B: index {cta.dim = #cta.dim<B>}, %H: index {cta.dim = #cta.dim<H>}, %T: index {cta.dim = #cta.dim<T>}) {
  cta.tile_loop grouped offsets(%offsets : memref<?xi32>, %B) (%H, %T, %T) tile [1, 128, 128] {
  ^bb0(%g: index, %h: index, %m0: index, %n0: index, %end: index, %row_tile: index):
    %start = cta.read_index %offsets[%g] : memref<?xi32>
  } {persistent}
  cta.return
}

// -----

// A longest-first batched walk in bands of %n batch entries.
// CHECK-LABEL: cta.program @banded(
// CHECK:         cta.tile_loop batched (%{{.*}}, %{{.*}}, %{{.*}}) tile [1, 128, 128] band(%{{.*}}) {
// CHECK:         } {longest_first, persistent}
cta.program @banded(%B: index {cta.dim = #cta.dim<B>}, %S: index {cta.dim = #cta.dim<S>}, %n: index {cta.dim = #cta.dim<N>}) {
  cta.tile_loop batched (%B, %S, %S) tile [1, 128, 128] band(%n) {
  ^bb0(%b: index, %m0: index, %n0: index):
  } {longest_first, persistent}
  cta.return
}

// Tensor-memory tiles that several roles name (sm_100a attention): O
// accumulated by the MMA warp from P in tensor memory and V read MN-major,
// rescaled in place and P written by the softmax warpgroup, which fills the
// P ring's stage itself (stage_acquire / stage_commit) and the MMA warp
// releases.
// CHECK-LABEL: cta.program @tmem_tiles(
// CHECK:         %[[O:.*]] = cta.tmem_alloc : <128x128xf32>
// CHECK:         %[[P:.*]] = cta.tmem_alloc : <128x128xbf16>
// CHECK:         #cta.role<epilogue, warps = 4> {
// CHECK:           %{{.*}} = cta.stage_acquire %[[R:.*]] at %{{.*}} : <1>
// CHECK:           cta.tmem_store %{{.*}} -> %[[P]] : <128x128xf32, acc>, <128x128xbf16>
// CHECK:           cta.tmem_update %[[O]] inputs(%{{.*}} : !cta.frag<128xf32, rows>) : <128x128xf32> {
// CHECK:           ^bb0(%row: index, %col: index, %x: f32, %x_{{.*}}: f32):
// CHECK:           cta.stage_commit %[[R]] at %{{.*}} : <1>
// CHECK:         #cta.role<mma, warps = 1> {
// CHECK:           %[[ACC:.*]] = cta.tmem_acc %[[O]] : <128x128xf32> -> <128x128xf32>
// CHECK:           cta.mma %[[P]], %{{.*}}, %[[ACC]] accumulate %{{.*}} : !cta.tmem<128x128xbf16>, <128x128xbf16>, <128x128xf32>
// CHECK:           cta.stage_release %[[R]] at %{{.*}} : <1>
cta.program @tmem_tiles() {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %one = arith.constant 1.0 : f32
  %sv = cta.alloc : !cta.buffer<128x128xbf16>
  %ring = cta.ring {consumers = 1} : !cta.ring<1>
  %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
  %p = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
      %alpha = cta.splat %one : f32 -> !cta.frag<128xf32, rows>
      %pf = cta.splat %one : f32 -> !cta.frag<128x128xf32, acc>
      %slot = cta.stage_acquire %ring at %c0 : !cta.ring<1>
      cta.tmem_store %pf -> %p : !cta.frag<128x128xf32, acc>, !cta.tmem<128x128xbf16>
      cta.tmem_update %o inputs(%alpha : !cta.frag<128xf32, rows>) : !cta.tmem<128x128xf32> {
      ^bb0(%row: index, %col: index, %x: f32, %a: f32):
        %y = arith.mulf %x, %a : f32
        cta.yield %y : f32
      }
      cta.stage_commit %ring at %c0 : !cta.ring<1>
    }
    #cta.role<mma, warps = 1> {
      %s = cta.stage_wait %ring at %c0 : !cta.ring<1>
      %acc = cta.tmem_acc %o : !cta.tmem<128x128xf32> -> !cta.acc<128x128xf32>
      %r = cta.mma %p, %sv, %acc accumulate %true : !cta.tmem<128x128xbf16>, !cta.buffer<128x128xbf16>, !cta.acc<128x128xf32>
      cta.stage_release %ring at %c0 : !cta.ring<1>
    }
  cta.return
}

// Rows times their factors (attention's rescale of its output, which the
// lowering skips where every factor a thread holds is 1): an accumulator
// stays one, an acc fragment one.
// CHECK-LABEL: cta.program @scale_rows()
// CHECK:         %[[F:.*]] = cta.splat %{{.*}} : f32 -> <64xf32, rows>
// CHECK-NEXT:    %{{.*}} = cta.scale_rows %{{.*}} by %[[F]] : !cta.acc<64x128xf32>, <64xf32, rows>
// CHECK:         %{{.*}} = cta.scale_rows %{{.*}} by %[[F]] : !cta.frag<64x128xf32, acc>, <64xf32, rows>
cta.program @scale_rows() {
  %half = arith.constant 0.5 : f32
  %o = cta.acc_zero : !cta.acc<64x128xf32>
  %alpha = cta.splat %half : f32 -> !cta.frag<64xf32, rows>
  %o2 = cta.scale_rows %o by %alpha : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>
  %p = cta.splat %half : f32 -> !cta.frag<64x128xf32, acc>
  %p2 = cta.scale_rows %p by %alpha : !cta.frag<64x128xf32, acc>, !cta.frag<64xf32, rows>
  cta.return
}
