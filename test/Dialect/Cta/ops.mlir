// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Every cta op and type round-trips through its custom assembly (and through
// the generic form).

//===----------------------------------------------------------------------===//
// Types
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
  cta.return
}

// Types stand alone too, outside the ops that usually carry them; buffer
// parameters may come in any order.
// CHECK-LABEL: cta.program @standalone_types()
// CHECK-SAME:    attributes {types = [!cta.buffer<16x16xbf16, stages = 2, swizzle = "32B">, !cta.acc<64x8xf32>, !cta.ring<8>]}
cta.program @standalone_types() attributes {
    types = [!cta.buffer<16x16xbf16, swizzle = "32B", stages = 2>, !cta.acc<64x8xf32>, !cta.ring<8>]} {
  cta.return
}

//===----------------------------------------------------------------------===//
// A program before cta-pipeline: tile loop, K loop, loads, MMA, store
//===----------------------------------------------------------------------===//

// CHECK-LABEL: cta.program @sequential(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "a", cta.role = "input", cta.shape = ["M", "K"]}
// CHECK-SAME:    %[[B:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "b", cta.role = "input", cta.shape = ["N", "K"]}
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "c", cta.role = "output", cta.shape = ["M", "N"]}
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = "M"}
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = "K"}
// CHECK-SAME:    %[[N:[^:]*]]: index {cta.dim = "N"})
// CHECK-SAME:    attributes {cta.chip = "sm_90a", cta.cluster = array<i64: 2, 1>}
// CHECK:         %[[SA:.*]] = cta.alloc : <128x64xbf16>
// CHECK:         %[[SB:.*]] = cta.alloc : <256x64xbf16>
// CHECK:         %[[SC:.*]] = cta.alloc : <128x128xbf16>
// CHECK:         cta.tile_loop(%[[M]], %[[N]]) tile [128, 256] {
// CHECK-NEXT:    ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index):
// CHECK-NEXT:      %[[Z:.*]] = cta.acc_zero : <128x256xf32>
// CHECK-NEXT:      %[[R:.*]] = cta.mainloop %[[K]] step 64 iter_args(%[[Z]] : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
// CHECK-NEXT:      ^bb0(%[[K0:.*]]: index, %[[ACC:.*]]: !cta.acc<128x256xf32>):
// CHECK-NEXT:        cta.load %[[A]][%[[M0]], %[[K0]]] -> %[[SA]] : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16>
// CHECK-NEXT:        cta.load %[[B]][%[[N0]], %[[K0]]] -> %[[SB]] {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> <256x64xbf16>
// CHECK-NEXT:        %[[NEXT:.*]] = cta.mma %[[SA]], %[[SB]], %[[ACC]] {transpose_b} : <128x64xbf16>, <256x64xbf16>, <128x256xf32>
// CHECK-NEXT:        cta.yield %[[NEXT]] : !cta.acc<128x256xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      cta.store %[[R]] -> %[[C]][%[[M0]], %[[N0]]] staging %[[SC]] : !cta.acc<128x256xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
// CHECK-NEXT:      ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:        %[[T:.*]] = arith.truncf %[[E]] : f32 to bf16
// CHECK-NEXT:        cta.yield %[[T]] : bf16
// CHECK-NEXT:      }
// CHECK-NEXT:    } {cluster = array<i64: 2, 1>, group_m = 8 : i64, persistent}
// CHECK-NEXT:    cta.return
cta.program @sequential(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "a", cta.role = "input", cta.shape = ["M", "K"]},
                        %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "b", cta.role = "input", cta.shape = ["N", "K"]},
                        %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "c", cta.role = "output", cta.shape = ["M", "N"]},
                        %M: index {cta.dim = "M"}, %K: index {cta.dim = "K"}, %N: index {cta.dim = "N"})
    attributes {cta.chip = "sm_90a", cta.cluster = array<i64: 2, 1>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  %sb = cta.alloc : !cta.buffer<256x64xbf16>
  %sc = cta.alloc : !cta.buffer<128x128xbf16>
  cta.tile_loop (%M, %N) tile [128, 256] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x256xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x256xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16>
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

// Tile loops carry values; a mainloop may carry several accumulators and an
// MMA may read a K-major rhs (no transpose_b). Stores may go without staging and
// take several accumulators.
// CHECK-LABEL: cta.program @variants(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xf16>
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xf32>
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = "M"}
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[SA:.*]] = cta.alloc : <64x64xf16>
// CHECK:         %[[SB:.*]] = cta.alloc : <64x32xf16>
// CHECK:         %[[END:.*]] = cta.tile_loop(%[[M]], %[[M]]) tile [64, 32] iter_args(%[[C0]] : index) -> (index) {
// CHECK-NEXT:    ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %[[POS:.*]]: index):
// CHECK:           %[[Z:.*]] = cta.acc_zero : <64x32xf32>
// CHECK:           %[[L:.*]]:2 = cta.mainloop %[[M]] step 32 iter_args(%[[Z]], %[[Z]] : !cta.acc<64x32xf32>, !cta.acc<64x32xf32>) -> !cta.acc<64x32xf32>, !cta.acc<64x32xf32> {
// CHECK-NEXT:      ^bb0(%[[K0:.*]]: index, %[[X0:.*]]: !cta.acc<64x32xf32>, %[[X1:.*]]: !cta.acc<64x32xf32>):
// CHECK-NEXT:        cta.yield %[[X1]], %[[X0]] : !cta.acc<64x32xf32>, !cta.acc<64x32xf32>
// CHECK-NEXT:      }
// CHECK:           %[[P:.*]] = cta.mma %[[SA]], %[[SB]], %[[Z]] : <64x64xf16>, <64x32xf16>, <64x32xf32>
// CHECK:           cta.store %[[P]], %[[Z]] -> %[[C]][%[[M0]], %[[N0]]] : !cta.acc<64x32xf32>, !cta.acc<64x32xf32> -> memref<?x?xf32> {
// CHECK-NEXT:      ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        cta.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK:           cta.yield %[[POS]] : index
// CHECK-NEXT:    }{{$}}
cta.program @variants(%a: memref<?x?xf16> {cta.param = "a"}, %c: memref<?x?xf32> {cta.param = "c"},
                      %M: index {cta.dim = "M"}) {
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : !cta.buffer<64x64xf16>
  %sb = cta.alloc : !cta.buffer<64x32xf16>
  %end = cta.tile_loop (%M, %M) tile [64, 32] iter_args(%c0 : index) -> (index) {
  ^bb0(%m0: index, %n0: index, %pos: index):
    %zero = cta.acc_zero : !cta.acc<64x32xf32>
    %l:2 = cta.mainloop %M step 32 iter_args(%zero, %zero : !cta.acc<64x32xf32>, !cta.acc<64x32xf32>)
        -> !cta.acc<64x32xf32>, !cta.acc<64x32xf32> {
    ^bb0(%k0: index, %x0: !cta.acc<64x32xf32>, %x1: !cta.acc<64x32xf32>):
      cta.yield %x1, %x0 : !cta.acc<64x32xf32>, !cta.acc<64x32xf32>
    }
    %p = cta.mma %sa, %sb, %zero : !cta.buffer<64x64xf16>, !cta.buffer<64x32xf16>, !cta.acc<64x32xf32>
    cta.store %p, %zero -> %c[%m0, %n0] : !cta.acc<64x32xf32>, !cta.acc<64x32xf32> -> memref<?x?xf32> {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      cta.yield %s : f32
    }
    cta.yield %pos : index
  }
  cta.return
}

//===----------------------------------------------------------------------===//
// A program after cta-pipeline: ring, warp roles, produce/consume
//===----------------------------------------------------------------------===//

// CHECK-LABEL: cta.program @pipelined(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[B:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = "M"}
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = "K"}
// CHECK-SAME:    %[[N:[^:]*]]: index {cta.dim = "N"})
// CHECK-SAME:    attributes {cta.block = array<i64: 384, 1, 1>, cta.chip = "sm_90a"}
// CHECK:         %[[SA:.*]] = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
// CHECK:         %[[SB:.*]] = cta.alloc : <256x64xbf16, stages = 4, swizzle = "128B">
// CHECK:         %[[SC:.*]] = cta.alloc : <64x128xbf16, stages = 2, swizzle = "128B">
// CHECK:         %[[RING:.*]] = cta.ring {cluster_size = 2 : i64, consumers = 2 : i64} : <4>
// CHECK:         cta.warp_specialize attributes {consumer_regs = 232 : i64, consumer_warpgroups = 2 : i64, producer_regs = 40 : i64} producer {
// CHECK-NEXT:      %[[PEND:.*]] = cta.tile_loop(%[[M]], %[[N]]) tile [128, 256] iter_args(%{{.*}} : index) -> (index) {
// CHECK-NEXT:      ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %[[POS:.*]]: index):
// CHECK-NEXT:        %[[KB_COUNT:.*]] = arith.ceildivui %[[K]], %{{.*}} : index
// CHECK-NEXT:        %[[NEXT:.*]] = cta.produce %[[RING]] at %[[POS]] count %[[KB_COUNT]] : <4> {
// CHECK-NEXT:        ^bb0(%[[KB:.*]]: index, %[[SLOT:.*]]: index):
// CHECK-NEXT:          %[[K0:.*]] = arith.muli %[[KB]], %{{.*}} : index
// CHECK-NEXT:          cta.load %[[A]][%[[M0]], %[[K0]]] -> %[[SA]][%[[SLOT]]] signal %[[RING]] : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
// CHECK-NEXT:          cta.load %[[B]][%[[N0]], %[[K0]]] -> %[[SB]][%[[SLOT]]] signal %[[RING]] {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> <256x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
// CHECK-NEXT:        }
// CHECK-NEXT:        cta.yield %[[NEXT]] : index
// CHECK-NEXT:      } {cluster = array<i64: 2, 1>, persistent}
// CHECK-NEXT:    } consumers {
// CHECK-NEXT:      %[[CEND:.*]] = cta.tile_loop(%[[M]], %[[N]]) tile [128, 256] iter_args(%{{.*}} : index) -> (index) {
// CHECK-NEXT:      ^bb0(%[[CM0:.*]]: index, %[[CN0:.*]]: index, %[[CPOS:.*]]: index):
// CHECK-NEXT:        %[[CCOUNT:.*]] = arith.ceildivui %[[K]], %{{.*}} : index
// CHECK-NEXT:        %[[WG:.*]] = cta.warpgroup_index : index
// CHECK-NEXT:        %[[ROW:.*]] = arith.muli %[[WG]], %{{.*}} : index
// CHECK-NEXT:        %[[Z:.*]] = cta.acc_zero : <64x256xf32>
// CHECK-NEXT:        %[[RES:.*]]:2 = cta.consume %[[RING]] at %[[CPOS]] count %[[CCOUNT]] iter_args(%[[Z]] : !cta.acc<64x256xf32>) : <4> -> !cta.acc<64x256xf32> {
// CHECK-NEXT:        ^bb0(%[[CKB:.*]]: index, %[[CSLOT:.*]]: index, %[[ACC:.*]]: !cta.acc<64x256xf32>):
// CHECK-NEXT:          %[[P:.*]] = cta.mma %[[SA]][%[[CSLOT]]] rows %[[ROW]], %[[SB]][%[[CSLOT]]], %[[ACC]] {transpose_b} : <128x64xbf16, stages = 4, swizzle = "128B">, <256x64xbf16, stages = 4, swizzle = "128B">, <64x256xf32>
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
cta.program @pipelined(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "a", cta.role = "input", cta.shape = ["M", "K"]},
                       %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "b", cta.role = "input", cta.shape = ["N", "K"]},
                       %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "c", cta.role = "output", cta.shape = ["M", "N"]},
                       %M: index {cta.dim = "M"}, %K: index {cta.dim = "K"}, %N: index {cta.dim = "N"})
    attributes {cta.chip = "sm_90a", cta.block = array<i64: 384, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %sa = cta.alloc : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<256x64xbf16, stages = 4, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B">
  %ring = cta.ring {consumers = 2 : i64, cluster_size = 2 : i64} : !cta.ring<4>
  cta.warp_specialize attributes {consumer_warpgroups = 2 : i64, producer_regs = 40 : i64, consumer_regs = 232 : i64} producer {
    %end = cta.tile_loop (%M, %N) tile [128, 256] iter_args(%c0 : index) -> (index) {
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
  } consumers {
    %end = cta.tile_loop (%M, %N) tile [128, 256] iter_args(%c0 : index) -> (index) {
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

// Swizzle attributes print quoted (128B alone would lex as a number and a
// keyword); `none` parses bare.
// CHECK-LABEL: cta.program @swizzle_attrs()
// CHECK-SAME:    attributes {s128 = #cta.swizzle<"128B">, s32 = #cta.swizzle<"32B">, s64 = #cta.swizzle<"64B">, snone = #cta.swizzle<"none">}
cta.program @swizzle_attrs() attributes {s128 = #cta.swizzle<"128B">, s32 = #cta.swizzle<"32B">,
                                         s64 = #cta.swizzle<"64B">, snone = #cta.swizzle<none>} {
  cta.return
}

// K loops and consumers without accumulators print no result types.
// CHECK-LABEL: cta.program @no_accumulators(
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = "K"})
// CHECK:         cta.mainloop %[[K]] step 64 {
// CHECK-NEXT:    ^bb0(%{{.*}}: index):
// CHECK-NEXT:      cta.yield
// CHECK-NEXT:    }
// CHECK:         %[[RING:.*]] = cta.ring {consumers = 1 : i64} : <2>
// CHECK:         %{{.*}} = cta.consume %[[RING]] at %[[K]] count %[[K]] : <2> {
// CHECK-NEXT:    ^bb0(%{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:      cta.yield
// CHECK-NEXT:    }
cta.program @no_accumulators(%k: index {cta.dim = "K"}) {
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
