// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-pipeline | FileCheck %s

// cta-pipeline: the producer/consumer split of a sequential tile walk, the
// register and thread budgets, what it leaves alone, and its error paths.

// The K loop of the tile walk becomes a ring filled by a producer and
// drained by two consumer warpgroups: loaded buffers get `stages` stages and
// the staging buffer one row slice per consumer; the producer walks the same
// tiles and fills one stage per K step, each consumer multiplies its 64-row
// slice of the lhs and stores it. The ring's empty barrier waits for both
// consumers of both CTAs of the cluster; registers move from the producer
// (40) to the consumers (232); the block has 3 warpgroups.
// CHECK-LABEL: cta.program @matmul(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[B:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = "M"}
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = "K"}
// CHECK-SAME:    %[[N:[^:]*]]: index {cta.dim = "N"})
// CHECK-SAME:    attributes {cta.block = array<i64: 384, 1, 1>, cta.chip = "sm_90a"
// CHECK-NEXT:    %[[SA:.*]] = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
// CHECK-NEXT:    %[[SB:.*]] = cta.alloc : <256x64xbf16, stages = 4, swizzle = "128B">
// CHECK-NEXT:    %[[SC:.*]] = cta.alloc : <64x128xbf16, stages = 2, swizzle = "128B">
// CHECK-NEXT:    %[[RING:.*]] = cta.ring {cluster_size = 2 : i64, consumers = 2 : i64} : <4>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[STEP:.*]] = arith.constant 64 : index
// CHECK:         cta.warp_specialize attributes {consumer_regs = 232 : i64, consumer_warpgroups = 2 : i64, producer_regs = 40 : i64} producer {
// CHECK-NEXT:      %{{.*}} = cta.tile_loop(%[[M]], %[[N]]) tile [128, 256] iter_args(%[[C0]] : index) -> (index) {
// CHECK-NEXT:      ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %[[POS:.*]]: index):
// CHECK-NEXT:        %[[COUNT:.*]] = arith.ceildivui %[[K]], %[[STEP]] : index
// CHECK-NEXT:        %[[NEXT:.*]] = cta.produce %[[RING]] at %[[POS]] count %[[COUNT]] : <4> {
// CHECK-NEXT:        ^bb0(%[[KB:.*]]: index, %[[SLOT:.*]]: index):
// CHECK-NEXT:          %[[K0:.*]] = arith.muli %[[KB]], %[[STEP]] : index
// CHECK-NEXT:          cta.load %[[A]][%[[M0]], %[[K0]]] -> %[[SA]][%[[SLOT]]] signal %[[RING]] : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
// CHECK-NEXT:          cta.load %[[B]][%[[N0]], %[[K0]]] -> %[[SB]][%[[SLOT]]] signal %[[RING]] {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> <256x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
// CHECK-NEXT:        }
// CHECK-NEXT:        cta.yield %[[NEXT]] : index
// CHECK-NEXT:      } {cluster = array<i64: 2, 1>, group_m = 8 : i64, persistent}
// CHECK-NEXT:    } consumers {
// CHECK-NEXT:      %{{.*}} = cta.tile_loop(%[[M]], %[[N]]) tile [128, 256] iter_args(%[[C0]] : index) -> (index) {
// CHECK-NEXT:      ^bb0(%[[CM0:.*]]: index, %[[CN0:.*]]: index, %[[CPOS:.*]]: index):
// CHECK-NEXT:        %[[CCOUNT:.*]] = arith.ceildivui %[[K]], %[[STEP]] : index
// CHECK-NEXT:        %[[WG:.*]] = cta.warpgroup_index : index
// CHECK-NEXT:        %[[ROWS:.*]] = arith.constant 64 : index
// CHECK-NEXT:        %[[ROW:.*]] = arith.muli %[[WG]], %[[ROWS]] : index
// CHECK-NEXT:        %[[Z:.*]] = cta.acc_zero : <64x256xf32>
// CHECK-NEXT:        %[[RES:.*]]:2 = cta.consume %[[RING]] at %[[CPOS]] count %[[CCOUNT]] iter_args(%[[Z]] : !cta.acc<64x256xf32>) : <4> -> !cta.acc<64x256xf32> {
// CHECK-NEXT:        ^bb0(%{{.*}}: index, %[[CSLOT:.*]]: index, %[[ACC:.*]]: !cta.acc<64x256xf32>):
// CHECK:               %[[P:.*]] = cta.mma %[[SA]][%[[CSLOT]]] rows %[[ROW]], %[[SB]][%[[CSLOT]]], %[[ACC]] {transpose_b} : <128x64xbf16, stages = 4, swizzle = "128B">, <256x64xbf16, stages = 4, swizzle = "128B">, <64x256xf32>
// CHECK-NEXT:          cta.yield %[[P]] : !cta.acc<64x256xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[R0:.*]] = arith.addi %[[CM0]], %[[ROW]] : index
// CHECK-NEXT:        cta.store %[[RES]]#1 -> %[[C]][%[[R0]], %[[CN0]]] staging %[[SC]][%[[WG]]] : !cta.acc<64x256xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
// CHECK-NEXT:        ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:          %[[T:.*]] = arith.truncf %[[E]] : f32 to bf16
// CHECK-NEXT:          cta.yield %[[T]] : bf16
// CHECK-NEXT:        }
// CHECK-NEXT:        cta.yield %[[RES]]#0 : index
// CHECK-NEXT:      } {cluster = array<i64: 2, 1>, group_m = 8 : i64, persistent}
// CHECK-NEXT:    }
// CHECK-NEXT:    cta.return
// CHECK-NOT:     cta.mainloop
cta.program @matmul(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "a", cta.role = "input", cta.shape = ["M", "K"]},
                    %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "b", cta.role = "input", cta.shape = ["N", "K"]},
                    %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = "c", cta.role = "output", cta.shape = ["M", "N"]},
                    %M: index {cta.dim = "M"}, %K: index {cta.dim = "K"}, %N: index {cta.dim = "N"})
    attributes {cta.chip = "sm_90a", cta.cluster = array<i64: 2, 1>,
                cta.schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<256x64xbf16, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  cta.tile_loop (%M, %N) tile [128, 256] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x256xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x256xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, swizzle = "128B">
      cta.load %b[%n0, %k0] -> %sb {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<256x64xbf16, swizzle = "128B">
      %next = cta.mma %sa, %sb, %acc {transpose_b} : !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.buffer<256x64xbf16, swizzle = "128B">, !cta.acc<128x256xf32>
      cta.yield %next : !cta.acc<128x256xf32>
    }
    cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x256xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16, swizzle = "128B"> {
    ^bb0(%e: f32):
      %t = arith.truncf %e : f32 to bf16
      cta.yield %t : bf16
    }
  } {persistent, group_m = 8 : i64, cluster = array<i64: 2, 1>}
  cta.return
}

// -----

// One consumer warpgroup: it owns every row (its row offset is still
// computed), the staging buffer keeps one stage and takes no slot, the block
// has 2 warpgroups and the consumer gets 240 registers (the most setmaxnreg
// gives out here). Index arithmetic of the tile body runs in both roles.
// CHECK-LABEL: cta.program @one_consumer(
// CHECK-SAME:    attributes {cta.block = array<i64: 256, 1, 1>
// CHECK:         %[[SC:.*]] = cta.alloc : <64x64xf32, swizzle = "128B">
// CHECK:         cta.ring {consumers = 1 : i64} : <3>
// CHECK:         cta.warp_specialize attributes {consumer_regs = 240 : i64, consumer_warpgroups = 1 : i64, producer_regs = 40 : i64} producer {
// CHECK:           cta.tile_loop
// CHECK-NEXT:      ^bb0(%[[M0:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:        %[[HALF:.*]] = arith.addi %[[M0]], %[[M0]] : index
// CHECK:             cta.produce
// CHECK:               cta.load %{{.*}}[%[[HALF]], %{{.*}}]
// CHECK:         } consumers {
// CHECK:           cta.tile_loop
// CHECK-NEXT:      ^bb0(%[[CM0:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:        %{{.*}} = arith.addi %[[CM0]], %[[CM0]] : index
// CHECK:             cta.consume
// CHECK:               cta.mma %{{.*}}[%{{.*}}] rows %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} {transpose_b} : <64x64xf16, stages = 3, swizzle = "128B">, <64x64xf16, stages = 3, swizzle = "128B">, <64x64xf32>
// CHECK:             cta.store %{{.*}}#1 -> %{{.*}}[%{{.*}}, %{{.*}}] staging %[[SC]] : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x64xf32, swizzle = "128B"> {
cta.program @one_consumer(%a: memref<?x?xf16> {cta.param = "a"}, %c: memref<?x?xf32> {cta.param = "c"},
                          %M: index {cta.dim = "M"})
    attributes {cta.schedule = #tile.schedule<tile_m = 64, tile_n = 64, tile_k = 64, stages = 3, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = false, group_m = 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xf16, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<64x64xf32, swizzle = "128B">
  cta.tile_loop (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %half = arith.addi %m0, %m0 : index
    %zero = cta.acc_zero : !cta.acc<64x64xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
      cta.load %a[%half, %k0] -> %sa : memref<?x?xf16> -> !cta.buffer<64x64xf16, swizzle = "128B">
      %next = cta.mma %sa, %sa, %acc {transpose_b} : !cta.buffer<64x64xf16, swizzle = "128B">, !cta.buffer<64x64xf16, swizzle = "128B">, !cta.acc<64x64xf32>
      cta.yield %next : !cta.acc<64x64xf32>
    }
    cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x64xf32, swizzle = "128B"> {
    ^bb0(%e: f32):
      cta.yield %e : f32
    }
  }
  cta.return
}

// -----

// Programs without a tile walk, or whose tiles run no K loop, are left alone.
// CHECK-LABEL: cta.program @no_tiles()
// CHECK-NOT:     cta.block
// CHECK-NEXT:    cta.return
cta.program @no_tiles() {
  cta.return
}
// CHECK-LABEL: cta.program @no_mainloop(
// CHECK-NOT:     cta.warp_specialize
// CHECK:         cta.tile_loop
cta.program @no_mainloop(%m: index {cta.dim = "M"}) {
  cta.tile_loop (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// Already pipelined: nothing sequential is left to pipeline.
// CHECK-LABEL: cta.program @pipelined(
// CHECK-COUNT-1: cta.warp_specialize
cta.program @pipelined(%m: index {cta.dim = "M"}) attributes {cta.block = array<i64: 384, 1, 1>} {
  %ring = cta.ring {consumers = 2 : i64} : !cta.ring<2>
  cta.warp_specialize attributes {consumer_warpgroups = 2 : i64, producer_regs = 40 : i64, consumer_regs = 232 : i64} producer {
  } consumers {
  }
  cta.return
}

// -----

// expected-error@+1 {{cta-pipeline: the program has no cta.schedule}}
cta.program @f(%M: index {cta.dim = "M"}) {
  cta.tile_loop (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<64x64xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
      cta.yield %acc : !cta.acc<64x64xf32>
    }
  }
  cta.return
}

// -----

cta.program @f(%c: memref<?x?xf32> {cta.param = "c"}, %M: index {cta.dim = "M"})
    attributes {cta.schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 64, stages = 3, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = false, group_m = 1>} {
  %sc = cta.alloc : !cta.buffer<63x64xf32>
  cta.tile_loop (%M, %M) tile [128, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x64xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<128x64xf32>) -> !cta.acc<128x64xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x64xf32>):
      cta.yield %acc : !cta.acc<128x64xf32>
    }
    // expected-error@+1 {{cta-pipeline: staging rows do not split across consumers}}
    cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x64xf32> -> memref<?x?xf32>, !cta.buffer<63x64xf32> {
    ^bb0(%e: f32):
      cta.yield %e : f32
    }
  }
  cta.return
}

// -----

// Tile bodies this pass cannot split (cta-pipeline-unsupported.mlir checks
// that they fail the pass).

// expected-error@+1 {{cta-pipeline: expected one cta.tile_loop, found several}}
cta.program @f(%M: index {cta.dim = "M"}) {
  cta.tile_loop (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.tile_loop (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @f(%M: index {cta.dim = "M"}) {
  cta.tile_loop (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<64x64xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
      cta.yield %acc : !cta.acc<64x64xf32>
    }
    // expected-error@+1 {{cta-pipeline: one cta.mainloop per tile is supported}}
    %acc2 = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
    ^bb0(%k1: index, %it: !cta.acc<64x64xf32>):
      cta.yield %it : !cta.acc<64x64xf32>
    }
  }
  cta.return
}

// -----

cta.program @f(%a: memref<?x?xf16> {cta.param = "a"}, %M: index {cta.dim = "M"}) {
  %sa = cta.alloc : !cta.buffer<64x64xf16>
  cta.tile_loop (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{cta-pipeline: copies and MMAs must be inside the cta.mainloop}}
    cta.load %a[%m0, %n0] -> %sa : memref<?x?xf16> -> !cta.buffer<64x64xf16>
  }
  cta.return
}
