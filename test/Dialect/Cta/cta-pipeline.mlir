// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-pipeline | FileCheck %s

// cta-pipeline: the producer/math split of a sequential tile walk, the
// register and thread budgets it takes from the chip and the program's
// #cta.schedule, the row slicing of accumulators and fragments, what it
// leaves alone, and its error paths.

// The K loop of the tile walk becomes a ring filled by a producer role and
// drained by a math role of two warpgroups: loaded buffers get `stages`
// stages and the staging buffer one row slice per warpgroup; the producer
// walks the same tiles and fills one stage per K step, each math warpgroup
// multiplies its 64-row slice of the lhs and stores it. The ring's empty
// barrier waits for both warpgroups of both CTAs of the cluster; registers
// move from the producer (40) to the math role (232, sm_90a's split for two
// warpgroups); the block has 3 warpgroups.
// CHECK-LABEL: cta.program @matmul(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[B:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>>
// CHECK-SAME:    %[[M:[^:]*]]: index {cta.dim = #cta.dim<M>}
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = #cta.dim<K>}
// CHECK-SAME:    %[[N:[^:]*]]: index {cta.dim = #cta.dim<N>})
// CHECK-SAME:    attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 2, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>}
// CHECK-NEXT:    %[[SA:.*]] = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
// CHECK-NEXT:    %[[SB:.*]] = cta.alloc : <256x64xbf16, stages = 4, swizzle = "128B">
// CHECK-NEXT:    %[[SC:.*]] = cta.alloc : <64x128xbf16, stages = 2, swizzle = "128B">
// CHECK-NEXT:    %[[RING:.*]] = cta.ring {cluster_size = 2 : i64, consumers = 2 : i64} : <4>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[STEP:.*]] = arith.constant 64 : index
// CHECK:         cta.warp_specialize
// CHECK-NEXT:      #cta.role<producer, warps = 4, regs = 40> {
// CHECK-NEXT:      %{{.*}} = cta.tile_loop static (%[[M]], %[[N]]) tile [128, 256] iter_args(%[[C0]] : index) -> (index) {
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
// CHECK-NEXT:    }
// CHECK-NEXT:      #cta.role<math, warps = 8, regs = 232> {
// CHECK-NEXT:      %{{.*}} = cta.tile_loop static (%[[M]], %[[N]]) tile [128, 256] iter_args(%[[C0]] : index) -> (index) {
// CHECK-NEXT:      ^bb0(%[[CM0:.*]]: index, %[[CN0:.*]]: index, %[[CPOS:.*]]: index):
// CHECK-NEXT:        %[[CCOUNT:.*]] = arith.ceildivui %[[K]], %[[STEP]] : index
// CHECK-NEXT:        %[[WG:.*]] = cta.warpgroup_index : index
// CHECK-NEXT:        %[[ROWS:.*]] = arith.constant 64 : index
// CHECK-NEXT:        %[[ROW:.*]] = arith.muli %[[WG]], %[[ROWS]] : index
// CHECK-NEXT:        %[[Z:.*]] = cta.acc_zero : <64x256xf32>
// CHECK-NEXT:        %[[RES:.*]]:2 = cta.consume %[[RING]] at %[[CPOS]] count %[[CCOUNT]] iter_args(%[[Z]] : !cta.acc<64x256xf32>) : <4> -> !cta.acc<64x256xf32> {
// CHECK-NEXT:        ^bb0(%{{.*}}: index, %[[CSLOT:.*]]: index, %[[ACC:.*]]: !cta.acc<64x256xf32>):
// CHECK:               %[[P:.*]] = cta.mma %[[SA]][%[[CSLOT]]] rows %[[ROW]], %[[SB]][%[[CSLOT]]], %[[ACC]] {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, <256x64xbf16, stages = 4, swizzle = "128B">, <64x256xf32>
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
cta.program @matmul(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>},
                    %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>},
                    %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>},
                    %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {chip = #cta.chip<sm_90a>, cluster = array<i64: 2, 1>,
                schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<256x64xbf16, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %N) tile [128, 256] {
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

// Ping-pong: each math warpgroup owns every second tile of the walk, whole
// (a 128x128 accumulator, the lhs from row 0, no row offset in the store),
// and stages it in its own slot of a 128-row staging buffer; the ring's
// stages are read by one warpgroup each (consumers = 1); a warpgroup waits
// for its turn before its K loop and passes it on after it, and both step
// the ring position past every tile's K steps.
// CHECK-LABEL: cta.program @pingpong(
// CHECK:         %[[SC:.*]] = cta.alloc : <128x128xbf16, stages = 2, swizzle = "128B">
// CHECK:         %[[RING:.*]] = cta.ring {cluster_size = 2 : i64, consumers = 1 : i64} : <5>
// CHECK:         #cta.role<math, warps = 8, regs = 232> {
// CHECK-NEXT:      %[[WG:.*]] = cta.warpgroup_index : index
// CHECK-NEXT:      cta.mma_turn start %[[WG]] of 2
// CHECK-NEXT:      %{{.*}}:2 = cta.tile_loop static (%{{.*}}, %{{.*}}) tile [128, 128] iter_args(%[[C0:.*]], %[[C0]] : index, index) -> (index, index) {
// CHECK-NEXT:      ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %[[POS:.*]]: index, %[[I:.*]]: index):
// CHECK-NEXT:        %[[COUNT:.*]] = arith.ceildivui
// CHECK-NEXT:        %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:        %[[PARITY:.*]] = arith.remui %[[I]], %[[TWO]] : index
// CHECK-NEXT:        %[[MINE:.*]] = arith.cmpi eq, %[[PARITY]], %[[WG]] : index
// CHECK-NEXT:        scf.if %[[MINE]] {
// CHECK-NEXT:          %[[Z:.*]] = cta.acc_zero : <128x128xf32>
// CHECK-NEXT:          cta.mma_turn wait %[[WG]] of 2
// CHECK-NEXT:          %[[RES:.*]]:2 = cta.consume %[[RING]] at %[[POS]] count %[[COUNT]] iter_args(%[[Z]] : !cta.acc<128x128xf32>) : <5> -> !cta.acc<128x128xf32> {
// CHECK:                 cta.mma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} {transpose_b} : !cta.buffer<128x64xbf16, stages = 5, swizzle = "128B">, <128x64xbf16, stages = 5, swizzle = "128B">, <128x128xf32>
// CHECK:               }
// CHECK-NEXT:          cta.mma_turn pass %[[WG]] of 2
// CHECK-NEXT:          cta.store %[[RES]]#1 -> %{{.*}}[%[[M0]], %[[N0]]] staging %[[SC]][%[[WG]]]
// CHECK-NEXT:          ^bb0
// CHECK-NEXT:            arith.truncf
// CHECK-NEXT:            cta.yield
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addi %[[POS]], %[[COUNT]] : index
// CHECK-NEXT:        %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:        %[[NEXTI:.*]] = arith.addi %[[I]], %[[ONE]] : index
// CHECK-NEXT:        cta.yield %[[NEXT]], %[[NEXTI]] : index, index
cta.program @pingpong(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>},
                      %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>},
                      %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>},
                      %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {chip = #cta.chip<sm_90a>, cluster = array<i64: 2, 1>,
                schedule = #cta.schedule<stages = 5, math_warpgroups = 2, pingpong = true>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %N) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x128xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, swizzle = "128B">
      cta.load %b[%n0, %k0] -> %sb {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, swizzle = "128B">
      %next = cta.mma %sa, %sb, %acc {transpose_b} : !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.acc<128x128xf32>
      cta.yield %next : !cta.acc<128x128xf32>
    }
    cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16, swizzle = "128B"> {
    ^bb0(%e: f32):
      %t = arith.truncf %e : f32 to bf16
      cta.yield %t : bf16
    }
  } {persistent, group_m = 8 : i64, cluster = array<i64: 2, 1>}
  cta.return
}

// -----

// Reductions of the product's rows and columns (a GEMM's `sum(y, axis =
// -1)` and `sum(y, axis = -2)`): each math warpgroup maps and reduces its
// 64-row slice; the rows vector is stored and the columns combined at the
// slice's first row (the tile's plus 64 per warpgroup), so a column
// reduction leaves out the slice's rows at or past M.
// CHECK-LABEL: cta.program @reductions(
// CHECK:         #cta.role<math, warps = 8, regs = 232> {
// CHECK:           ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %{{.*}}: index):
// CHECK:             %[[WG:.*]] = cta.warpgroup_index : index
// CHECK:             %[[ROW:.*]] = arith.muli %[[WG]], %{{.*}} : index
// CHECK:             %[[RES:.*]]:2 = cta.consume
// CHECK:             %[[V:.*]] = cta.frag_map %[[RES]]#1 : !cta.acc<64x128xf32> -> !cta.frag<64x128xf32, acc> {
// CHECK:             %[[R:.*]] = cta.reduce_rows sum %[[V]] : !cta.frag<64x128xf32, acc> -> <64xf32, rows>
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[M0]], %[[ROW]] : index
// CHECK-NEXT:        cta.store_rows %[[R]] -> %{{.*}}[%[[AT]]] combine sum : !cta.frag<64xf32, rows> -> memref<?xf32>
// CHECK-NEXT:        %[[FROM:.*]] = arith.addi %[[M0]], %[[ROW]] : index
// CHECK-NEXT:        cta.combine_cols max %[[V]] rows[%[[FROM]], %{{.*}}) -> %{{.*}}[%[[N0]]] : !cta.frag<64x128xf32, acc> -> memref<?xf32>
cta.program @reductions(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>},
                        %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>},
                        %r: memref<?xf32> {cta.param = #cta.param<"r", output, [M]>},
                        %c: memref<?xf32> {cta.param = #cta.param<"c", output, [N]>},
                        %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %N) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x128xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, swizzle = "128B">
      cta.load %b[%n0, %k0] -> %sb : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, swizzle = "128B">
      %next = cta.mma %sa, %sb, %acc {transpose_b} : !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.acc<128x128xf32>
      cta.yield %next : !cta.acc<128x128xf32>
    }
    %v = cta.frag_map %acc : !cta.acc<128x128xf32> -> !cta.frag<128x128xf32, acc> {
    ^bb0(%i: index, %j: index, %x: f32):
      cta.yield %x : f32
    }
    %rows = cta.reduce_rows sum %v : !cta.frag<128x128xf32, acc> -> !cta.frag<128xf32, rows>
    cta.store_rows %rows -> %r[%m0] combine sum : !cta.frag<128xf32, rows> -> memref<?xf32>
    cta.combine_cols max %v rows [%m0, %M) -> %c[%n0] : !cta.frag<128x128xf32, acc> -> memref<?xf32>
  } {persistent}
  cta.return
}

// -----

// Vectors read in the K loop (an fp8 GEMM's block scales) run in the math
// role: a rows vector's row starts at the warpgroup's first row and has its
// 64 rows; a cols vector is the whole tile's.
// CHECK-LABEL: cta.program @scale_reads(
// CHECK:         #cta.role<producer
// CHECK-NOT:       cta.read_vector
// CHECK:         #cta.role<math, warps = 8, regs = 232> {
// CHECK:           ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %{{.*}}: index):
// CHECK:             %[[WG:.*]] = cta.warpgroup_index : index
// CHECK:             %[[ROW:.*]] = arith.muli %[[WG]], %{{.*}} : index
// CHECK:             cta.consume
// CHECK:               %[[AT:.*]] = arith.addi %[[M0]], %[[ROW]] : index
// CHECK-NEXT:          cta.read_vector %{{.*}}[%[[AT]], %{{.*}}] : memref<?x?xf32> -> !cta.frag<64xf32, rows>
// CHECK-NEXT:          cta.read_vector %{{.*}}[%[[N0]], %{{.*}}] : memref<?x?xf32> -> !cta.frag<128xf32, cols>
cta.program @scale_reads(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>},
                         %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>},
                         %sa: memref<?x?xf32> {cta.param = #cta.param<"sa", input, [M, K]>},
                         %sb: memref<?x?xf32> {cta.param = #cta.param<"sb", input, [N, K]>},
                         %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %sta = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  %stb = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %N) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x128xf32>):
      cta.load %a[%m0, %k0] -> %sta : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, swizzle = "128B">
      cta.load %b[%n0, %k0] -> %stb : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, swizzle = "128B">
      %rows = cta.read_vector %sa[%m0, %k0] : memref<?x?xf32> -> !cta.frag<128xf32, rows>
      %cols = cta.read_vector %sb[%n0, %k0] : memref<?x?xf32> -> !cta.frag<128xf32, cols>
      %p = cta.mma %sta, %stb, %acc {transpose_b} : !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.acc<128x128xf32>
      %next = cta.frag_map %p, %rows, %cols : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>, !cta.frag<128xf32, cols> -> !cta.acc<128x128xf32> {
      ^bb0(%i: index, %j: index, %x: f32, %r: f32, %c: f32):
        %s = arith.mulf %r, %c : f32
        %y = arith.mulf %x, %s : f32
        cta.yield %y : f32
      }
      cta.yield %next : !cta.acc<128x128xf32>
    }
  } {persistent}
  cta.return
}

// -----

// One math warpgroup: it owns every row (its row offset is still computed),
// the staging buffer keeps one stage and takes no slot, the block has 2
// warpgroups and the math role gets 240 registers (the most setmaxnreg
// gives out here). Index arithmetic of the tile body runs in both roles.
// CHECK-LABEL: cta.program @one_consumer(
// CHECK-SAME:    attributes {block = array<i64: 256, 1, 1>
// CHECK:         %[[SC:.*]] = cta.alloc : <64x64xf32, swizzle = "128B">
// CHECK:         cta.ring {consumers = 1 : i64} : <3>
// CHECK:         cta.warp_specialize
// CHECK-NEXT:      #cta.role<producer, warps = 4, regs = 40> {
// CHECK:           cta.tile_loop
// CHECK-NEXT:      ^bb0(%[[M0:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:        %[[HALF:.*]] = arith.addi %[[M0]], %[[M0]] : index
// CHECK:             cta.produce
// CHECK:               cta.load %{{.*}}[%[[HALF]], %{{.*}}]
// CHECK:           #cta.role<math, warps = 4, regs = 240> {
// CHECK:           cta.tile_loop
// CHECK-NEXT:      ^bb0(%[[CM0:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:        %{{.*}} = arith.addi %[[CM0]], %[[CM0]] : index
// CHECK:             cta.consume
// CHECK:               cta.mma %{{.*}}[%{{.*}}] rows %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} {transpose_b} : !cta.buffer<64x64xf16, stages = 3, swizzle = "128B">, <64x64xf16, stages = 3, swizzle = "128B">, <64x64xf32>
// CHECK:             cta.store %{{.*}}#1 -> %{{.*}}[%{{.*}}, %{{.*}}] staging %[[SC]] : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x64xf32, swizzle = "128B"> {
cta.program @one_consumer(%a: memref<?x?xf16> {cta.param = #cta.param<"a", input, [M, K]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>},
                          %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 3, math_warpgroups = 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xf16, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<64x64xf32, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
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

// Three math warpgroups split a 192-row tile into 64-row slices and share
// what the producer leaves of the register file: 152 registers each; the
// block has 4 warpgroups.
// CHECK-LABEL: cta.program @three_consumers(
// CHECK-SAME:    attributes {block = array<i64: 512, 1, 1>
// CHECK:         cta.ring {consumers = 3 : i64} : <2>
// CHECK:         #cta.role<producer, warps = 4, regs = 40>
// CHECK:         #cta.role<math, warps = 12, regs = 152>
// CHECK:           %[[WG:.*]] = cta.warpgroup_index : index
// CHECK-NEXT:      %[[ROWS:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %[[WG]], %[[ROWS]] : index
// CHECK-NEXT:      cta.acc_zero : <64x128xf32>
// CHECK:           cta.mma %{{.*}}[%{{.*}}] rows %[[ROW]], {{.*}} : !cta.buffer<192x64xbf16, stages = 2>, <128x64xbf16, stages = 2>, <64x128xf32>
cta.program @three_consumers(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16> {cta.param = #cta.param<"b", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 3>} {
  %sa = cta.alloc : !cta.buffer<192x64xbf16>
  %sb = cta.alloc : !cta.buffer<128x64xbf16>
  cta.tile_loop static (%M, %M) tile [192, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<192x128xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<192x128xf32>) -> !cta.acc<192x128xf32> {
    ^bb0(%k0: index, %it: !cta.acc<192x128xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<192x64xbf16>
      cta.load %b[%n0, %k0] -> %sb : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
      %next = cta.mma %sa, %sb, %it {transpose_b} : !cta.buffer<192x64xbf16>, !cta.buffer<128x64xbf16>, !cta.acc<192x128xf32>
      cta.yield %next : !cta.acc<192x128xf32>
    }
  }
  cta.return
}

// -----

// A packed dual GEMM: both weight tiles fill row bands of one ring stage,
// the math role's wide MMA runs on its row slice, and the split_cols after
// the K loop moves into the math role after the consume, on the sliced
// accumulator. The stores keep their epilogue inputs; two stores of bf16
// share one staging buffer (split into warpgroup slices once), the f32 store
// keeps its own.
// CHECK-LABEL: cta.program @dual_gemm(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xbf16> {cta.param = #cta.param<"x", input, [M, K]>}
// CHECK-SAME:    %[[W1:[^:]*]]: memref<?x?xbf16> {cta.param = #cta.param<"w1", input, [M, K]>}
// CHECK-SAME:    %[[W2:[^:]*]]: memref<?x?xbf16> {cta.param = #cta.param<"w2", input, [M, K]>}
// CHECK-SAME:    %[[BIAS:[^:]*]]: memref<?xbf16> {cta.param = #cta.param<"bias", input, [D0]>}
// CHECK-SAME:    %[[Y:[^:]*]]: memref<?x?xbf16> {cta.param = #cta.param<"y", input, [M, K]>}
// CHECK-SAME:    %[[G:[^:]*]]: memref<?x?xbf16> {cta.param = #cta.param<"g", input, [M, K]>}
// CHECK-SAME:    %[[Z:[^:]*]]: memref<?x?xf32> {cta.param = #cta.param<"z", input, [M, K]>}
// CHECK-NEXT:    %[[SX:.*]] = cta.alloc : <128x64xbf16, stages = 3, swizzle = "128B">
// CHECK-NEXT:    %[[SW:.*]] = cta.alloc : <256x64xbf16, stages = 3, swizzle = "128B">
// CHECK-NEXT:    %[[SY:.*]] = cta.alloc : <64x128xbf16, stages = 2, swizzle = "128B">
// CHECK-NEXT:    %[[SZ:.*]] = cta.alloc : <64x32xf32, stages = 2, swizzle = "128B">
// CHECK:         #cta.role<producer, warps = 4, regs = 40> {
// CHECK:             cta.load %[[X]][%{{.*}}, %[[K0:.*]]] -> %[[SX]][%[[SLOT:.*]]] signal
// CHECK-NEXT:        cta.load %[[W1]][%{{.*}}, %[[K0]]] -> %[[SW]][%[[SLOT]]] signal %{{.*}} {dst_rows = array<i64: 0, 128>}
// CHECK-NEXT:        cta.load %[[W2]][%{{.*}}, %[[K0]]] -> %[[SW]][%[[SLOT]]] signal %{{.*}} {dst_rows = array<i64: 128, 256>}
// CHECK-NEXT:      }
// CHECK-NOT:       cta.split_cols
// CHECK:         #cta.role<math, warps = 8, regs = 232> {
// CHECK:           ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %{{.*}}: index):
// CHECK:           %[[WG:.*]] = cta.warpgroup_index : index
// CHECK:           %[[ROW:.*]] = arith.muli %[[WG]], %{{.*}} : index
// CHECK-NEXT:      %[[ZERO:.*]] = cta.acc_zero : <64x256xf32>
// CHECK-NEXT:      %[[RES:.*]]:2 = cta.consume %{{.*}} iter_args(%[[ZERO]] : !cta.acc<64x256xf32>) : <3> -> !cta.acc<64x256xf32> {
// CHECK:             cta.mma %[[SX]][%{{.*}}] rows %[[ROW]], %[[SW]][%{{.*}}], %{{.*}} {transpose_b} : !cta.buffer<128x64xbf16, stages = 3, swizzle = "128B">, <256x64xbf16, stages = 3, swizzle = "128B">, <64x256xf32>
// CHECK:           }
// CHECK-NEXT:      %[[PARTS:.*]]:2 = cta.split_cols %[[RES]]#1 : <64x256xf32> -> !cta.acc<64x128xf32>, !cta.acc<64x128xf32>
// CHECK-NEXT:      %[[R0:.*]] = arith.addi %[[M0]], %[[ROW]] : index
// CHECK-NEXT:      cta.store %[[PARTS]]#0, %[[PARTS]]#1 inputs(%[[BIAS]] per_col : memref<?xbf16>) -> %[[Y]][%[[R0]], %[[N0]]] staging %[[SY]][%[[WG]]] : !cta.acc<64x128xf32>, !cta.acc<64x128xf32> -> memref<?x?xbf16>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
// CHECK-NEXT:      ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: bf16):
// CHECK:           %[[R1:.*]] = arith.addi %[[M0]], %[[ROW]] : index
// CHECK-NEXT:      cta.store %[[PARTS]]#0 -> %[[G]][%[[R1]], %[[N0]]] staging %[[SY]][%[[WG]]] : !cta.acc<64x128xf32> -> memref<?x?xbf16>, !cta.buffer<64x128xbf16, stages = 2, swizzle = "128B"> {
// CHECK:           %[[R2:.*]] = arith.addi %[[M0]], %[[ROW]] : index
// CHECK-NEXT:      cta.store %[[PARTS]]#1 -> %[[Z]][%[[R2]], %[[N0]]] staging %[[SZ]][%[[WG]]] : !cta.acc<64x128xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, stages = 2, swizzle = "128B"> {
cta.program @dual_gemm(%x: memref<?x?xbf16> {cta.param = #cta.param<"x", input, [M, K]>}, %w1: memref<?x?xbf16> {cta.param = #cta.param<"w1", input, [M, K]>}, %w2: memref<?x?xbf16> {cta.param = #cta.param<"w2", input, [M, K]>},
                       %bias: memref<?xbf16> {cta.param = #cta.param<"bias", input, [D0]>}, %y: memref<?x?xbf16> {cta.param = #cta.param<"y", input, [M, K]>}, %g: memref<?x?xbf16> {cta.param = #cta.param<"g", input, [M, K]>},
                       %z: memref<?x?xf32> {cta.param = #cta.param<"z", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 3, math_warpgroups = 2>} {
  %sx = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  %sw = cta.alloc : !cta.buffer<256x64xbf16, swizzle = "128B">
  %sy = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  %sz = cta.alloc : !cta.buffer<128x32xf32, swizzle = "128B">
  cta.tile_loop static (%M, %N) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x256xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
    ^bb0(%k0: index, %it: !cta.acc<128x256xf32>):
      cta.load %x[%m0, %k0] -> %sx : memref<?x?xbf16> -> !cta.buffer<128x64xbf16, swizzle = "128B">
      cta.load %w1[%n0, %k0] -> %sw {dst_rows = array<i64: 0, 128>} : memref<?x?xbf16> -> !cta.buffer<256x64xbf16, swizzle = "128B">
      cta.load %w2[%n0, %k0] -> %sw {dst_rows = array<i64: 128, 256>} : memref<?x?xbf16> -> !cta.buffer<256x64xbf16, swizzle = "128B">
      %next = cta.mma %sx, %sw, %it {transpose_b} : !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.buffer<256x64xbf16, swizzle = "128B">, !cta.acc<128x256xf32>
      cta.yield %next : !cta.acc<128x256xf32>
    }
    %gate, %up = cta.split_cols %acc : !cta.acc<128x256xf32> -> !cta.acc<128x128xf32>, !cta.acc<128x128xf32>
    cta.store %gate, %up inputs(%bias per_col : memref<?xbf16>) -> %y[%m0, %n0] staging %sy : !cta.acc<128x128xf32>, !cta.acc<128x128xf32> -> memref<?x?xbf16>, !cta.buffer<128x128xbf16, swizzle = "128B"> {
    ^bb0(%a: f32, %b: f32, %bv: bf16):
      %bf = arith.extf %bv : bf16 to f32
      %ab = arith.mulf %a, %b : f32
      %s = arith.addf %ab, %bf : f32
      %t = arith.truncf %s : f32 to bf16
      cta.yield %t : bf16
    }
    cta.store %gate -> %g[%m0, %n0] staging %sy : !cta.acc<128x128xf32> -> memref<?x?xbf16>, !cta.buffer<128x128xbf16, swizzle = "128B"> {
    ^bb0(%a: f32):
      %t = arith.truncf %a : f32 to bf16
      cta.yield %t : bf16
    }
    cta.store %up -> %z[%m0, %n0] staging %sz : !cta.acc<128x128xf32> -> memref<?x?xf32>, !cta.buffer<128x32xf32, swizzle = "128B"> {
    ^bb0(%a: f32):
      cta.yield %a : f32
    }
  }
  cta.return
}

// -----

// Two accumulators and a row vector carried through the K loop (a dual GEMM
// too wide to pack, and a running row statistic): the consume carries each,
// sliced to the warpgroup's 64 rows, and runs both MMAs on the shared lhs
// slice. Register math around the K loop runs in the math role alone, on the
// slice: the rows splat before it is cut to 64 rows, the ops after it (a
// column vector, which keeps its 192 columns, and a frag_map reading the
// consume's results) follow the consume in order.
// CHECK-LABEL: cta.program @two_accumulators(
// CHECK-SAME:    block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[SA:.*]] = cta.alloc : <128x64xbf16, stages = 2>
// CHECK-NEXT:    %[[S1:.*]] = cta.alloc : <192x64xbf16, stages = 2>
// CHECK-NEXT:    %[[S2:.*]] = cta.alloc : <192x64xbf16, stages = 2>
// CHECK:         #cta.role<producer, warps = 4, regs = 40> {
// CHECK-COUNT-3:       cta.load
// CHECK-NOT:           cta.mma
// CHECK:         #cta.role<math, warps = 8, regs = 232> {
// CHECK:           ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %{{.*}}: index):
// CHECK:             %[[ROW:.*]] = arith.muli
// CHECK-NEXT:        %[[ZERO:.*]] = cta.acc_zero : <64x192xf32>
// CHECK-NEXT:        %[[RI:.*]] = cta.splat %[[ONE]] : f32 -> <64xf32, rows>
// CHECK-NEXT:        %[[RES:.*]]:4 = cta.consume %{{.*}} iter_args(%[[ZERO]], %[[ZERO]], %[[RI]] : !cta.acc<64x192xf32>, !cta.acc<64x192xf32>, !cta.frag<64xf32, rows>) : <2> -> !cta.acc<64x192xf32>, !cta.acc<64x192xf32>, !cta.frag<64xf32, rows> {
// CHECK-NEXT:        ^bb0(%{{.*}}: index, %[[SLOT:.*]]: index, %[[G:.*]]: !cta.acc<64x192xf32>, %[[U:.*]]: !cta.acc<64x192xf32>, %[[R:.*]]: !cta.frag<64xf32, rows>):
// CHECK:               %[[PG:.*]] = cta.mma %[[SA]][%[[SLOT]]] rows %[[ROW]], %[[S1]][%[[SLOT]]], %[[G]] {transpose_b} : {{.*}}, <64x192xf32>
// CHECK-NEXT:          %[[PU:.*]] = cta.mma %[[SA]][%[[SLOT]]] rows %[[ROW]], %[[S2]][%[[SLOT]]], %[[U]] {transpose_b} : {{.*}}, <64x192xf32>
// CHECK-NEXT:          cta.yield %[[PG]], %[[PU]], %[[R]] : !cta.acc<64x192xf32>, !cta.acc<64x192xf32>, !cta.frag<64xf32, rows>
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[COLS:.*]] = cta.splat %[[ONE]] : f32 -> <192xf32, cols>
// CHECK-NEXT:        %[[H:.*]] = cta.frag_map %[[RES]]#1, %[[RES]]#3, %[[COLS]] : !cta.acc<64x192xf32>, !cta.frag<64xf32, rows>, !cta.frag<192xf32, cols> -> !cta.frag<64x192xf32, acc> {
// CHECK:             }
// CHECK-NEXT:        %[[R0:.*]] = arith.addi %[[M0]], %[[ROW]] : index
// CHECK-NEXT:        cta.store %[[H]], %[[RES]]#2 -> %{{.*}}[%[[R0]], %[[N0]]] : !cta.frag<64x192xf32, acc>, !cta.acc<64x192xf32> -> memref<?x?xf32> {
cta.program @two_accumulators(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %b1: memref<?x?xbf16> {cta.param = #cta.param<"b1", input, [M, K]>}, %b2: memref<?x?xbf16> {cta.param = #cta.param<"b2", input, [M, K]>},
                              %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 2>} {
  %one = arith.constant 1.0 : f32
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  %s1 = cta.alloc : !cta.buffer<192x64xbf16>
  %s2 = cta.alloc : !cta.buffer<192x64xbf16>
  cta.tile_loop static (%M, %M) tile [128, 192] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x192xf32>
    %rinit = cta.splat %one : f32 -> !cta.frag<128xf32, rows>
    %acc:3 = cta.mainloop %K step 64 iter_args(%zero, %zero, %rinit : !cta.acc<128x192xf32>, !cta.acc<128x192xf32>, !cta.frag<128xf32, rows>)
        -> !cta.acc<128x192xf32>, !cta.acc<128x192xf32>, !cta.frag<128xf32, rows> {
    ^bb0(%k0: index, %g: !cta.acc<128x192xf32>, %u: !cta.acc<128x192xf32>, %r: !cta.frag<128xf32, rows>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
      cta.load %b1[%n0, %k0] -> %s1 : memref<?x?xbf16> -> !cta.buffer<192x64xbf16>
      cta.load %b2[%n0, %k0] -> %s2 : memref<?x?xbf16> -> !cta.buffer<192x64xbf16>
      %pg = cta.mma %sa, %s1, %g {transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<192x64xbf16>, !cta.acc<128x192xf32>
      %pu = cta.mma %sa, %s2, %u {transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<192x64xbf16>, !cta.acc<128x192xf32>
      cta.yield %pg, %pu, %r : !cta.acc<128x192xf32>, !cta.acc<128x192xf32>, !cta.frag<128xf32, rows>
    }
    %cols = cta.splat %one : f32 -> !cta.frag<192xf32, cols>
    %h = cta.frag_map %acc#0, %acc#2, %cols : !cta.acc<128x192xf32>, !cta.frag<128xf32, rows>, !cta.frag<192xf32, cols> -> !cta.frag<128x192xf32, acc> {
    ^bb0(%i: index, %j: index, %x: f32, %rv: f32, %cv: f32):
      %d = arith.subf %x, %rv : f32
      %e = arith.mulf %d, %cv : f32
      cta.yield %e : f32
    }
    cta.store %h, %acc#1 -> %c[%m0, %n0] : !cta.frag<128x192xf32, acc>, !cta.acc<128x192xf32> -> memref<?x?xf32> {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      cta.yield %s : f32
    }
  }
  cta.return
}

// -----

// Programs without a tile walk, or whose tiles run no K loop, are left alone
// (they need no schedule or chip).
// CHECK-LABEL: cta.program @no_tiles()
// CHECK-NOT:     cta.block
// CHECK-NEXT:    cta.return
cta.program @no_tiles() {
  cta.return
}
// CHECK-LABEL: cta.program @no_mainloop(
// CHECK-NOT:     cta.warp_specialize
// CHECK:         cta.tile_loop static
cta.program @no_mainloop(%m: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// Already pipelined: nothing sequential is left to pipeline.
// CHECK-LABEL: cta.program @pipelined(
// CHECK-COUNT-1: cta.warp_specialize
cta.program @pipelined(%m: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %ring = cta.ring {consumers = 2 : i64} : !cta.ring<2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    }
    #cta.role<math, warps = 8, regs = 232> {
    }
  cta.return
}

// -----

// expected-error@+1 {{cta-pipeline: the program has no schedule}}
cta.program @f(%M: index {cta.dim = #cta.dim<M>}) attributes {chip = #cta.chip<sm_90a>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
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

// A ring of one stage would leave the copies without a slot (found by
// kiln-fuzz-pipeline: the copies failed the verifier after the pass).
// expected-error@+1 {{cta-pipeline: stages = 1: a pipeline needs 2 stages at least}}
cta.program @one_stage(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 1, math_warpgroups = 2>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x128xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
      cta.yield %acc : !cta.acc<128x128xf32>
    }
  }
  cta.return
}

// -----

// The register budgets come from the chip: a program must name a known one.
// expected-error@+1 {{cta-pipeline: the program names no chip}}
cta.program @f(%M: index {cta.dim = #cta.dim<M>}) attributes {schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
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

cta.program @f(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 3, math_warpgroups = 2>} {
  %sc = cta.alloc : !cta.buffer<63x64xf32>
  cta.tile_loop static (%M, %M) tile [128, 64] {
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
cta.program @f(%M: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// A batched walk (a batched matmul) is pipelined like a static one: both
// roles walk the same units, and the producer loads at the unit's batch
// index.
// CHECK-LABEL: cta.program @batched(
// CHECK:         cta.warp_specialize
// CHECK:           cta.tile_loop batched (%{{.*}}, %{{.*}}, %{{.*}}) tile [1, 128, 128]
// CHECK-NEXT:      ^bb0(%[[B:[^:]*]]: index, %[[M0:[^:]*]]: index, %{{[^:]*}}: index
// CHECK:             cta.load %{{.*}}[%[[B]], %[[M0]], %{{.*}}] -> %{{.*}}[%{{.*}}] signal
// Each math warpgroup stores its 64 rows: the row index (not the batch
// index) moves down by the warpgroup's offset.
// CHECK:           cta.tile_loop batched (%{{.*}}, %{{.*}}, %{{.*}}) tile [1, 128, 128]
// CHECK-NEXT:      ^bb0(%[[B2:[^:]*]]: index, %[[M2:[^:]*]]: index, %[[N2:[^:]*]]: index
// CHECK:             %[[ROW:.*]] = arith.addi %[[M2]], %{{.*}} : index
// CHECK-NEXT:        cta.store %{{.*}} -> %{{.*}}[%[[B2]], %[[ROW]], %[[N2]]]
cta.program @batched(%q: memref<?x?x?xbf16> {cta.param = #cta.param<"q", input, [D0, D1, D2]>}, %o: memref<?x?x?xbf16> {cta.param = #cta.param<"o", output, [D0, D1, D1]>}, %B: index {cta.dim = #cta.dim<B>}, %S: index {cta.dim = #cta.dim<S>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 2>} {
  %sq = cta.alloc : !cta.buffer<128x64xbf16>
  %so = cta.alloc : !cta.buffer<128x64xbf16>
  cta.tile_loop batched (%B, %S, %S) tile [1, 128, 128] {
  ^bb0(%b: index, %m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %S step 64 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %it: !cta.acc<128x128xf32>):
      cta.load %q[%b, %m0, %k0] -> %sq : memref<?x?x?xbf16> -> !cta.buffer<128x64xbf16>
      cta.yield %it : !cta.acc<128x128xf32>
    }
    cta.store %acc -> %o[%b, %m0, %n0] staging %so : !cta.acc<128x128xf32> -> memref<?x?x?xbf16>, !cta.buffer<128x64xbf16> {
    ^bb0(%v: f32):
      %t = arith.truncf %v : f32 to bf16
      cta.yield %t : bf16
    }
  }
  cta.return
}

// -----

// A grouped walk (mixture of experts) is pipelined like a static one: both
// roles walk the same groups' tiles (the offsets and the group count go with
// each clone), the producer loads group %e's rhs and the math warpgroups
// store no row past the group's end.
// CHECK-LABEL: cta.program @grouped(
// CHECK: cta.warp_specialize
// CHECK-NEXT: #cta.role<producer
// CHECK: cta.tile_loop grouped offsets(%[[OFF:.*]] : memref<?xi32>, %[[E:.*]]) (%[[T:.*]], %[[N:.*]]) tile [128, 128] iter_args
// CHECK-NEXT: ^bb0(%[[G:.*]]: index, %[[M0:.*]]: index, %[[N0:.*]]: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK: cta.produce
// CHECK: cta.load %{{.*}}[%[[M0]], %{{.*}}] -> %{{.*}}[%{{.*}}] signal
// CHECK: cta.load %{{.*}}[%[[G]], %[[N0]], %{{.*}}] -> %{{.*}}[%{{.*}}] signal
// CHECK: } {persistent}
// CHECK: #cta.role<math
// CHECK: cta.tile_loop grouped offsets(%[[OFF]] : memref<?xi32>, %[[E]]) (%[[T]], %[[N]]) tile [128, 128] iter_args
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %[[END:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK: cta.consume
// CHECK: cta.store %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] row_limit %[[END]] staging
cta.program @grouped(%x: memref<?x?xbf16> {cta.param = #cta.param<"x", input, [T, K]>},
               %w: memref<?x?x?xbf16> {cta.param = #cta.param<"w", input, [E, N, K]>},
               %offsets: memref<?xi32> {cta.param = #cta.param<"offsets", input, [E+1]>},
               %y: memref<?x?xbf16> {cta.param = #cta.param<"y", output, [T, N]>},
               %E: index {cta.dim = #cta.dim<E>}, %T: index {cta.dim = #cta.dim<T>},
               %N: index {cta.dim = #cta.dim<N>}, %K: index {cta.dim = #cta.dim<K>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 2>} {
  %sx = cta.alloc : !cta.buffer<128x64xbf16>
  %sw = cta.alloc : !cta.buffer<128x64xbf16>
  %sc = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  cta.tile_loop grouped offsets(%offsets : memref<?xi32>, %E) (%T, %N) tile [128, 128] {
  ^bb0(%e: index, %m0: index, %n0: index, %m_end: index, %row_tile: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %it: !cta.acc<128x128xf32>):
      cta.load %x[%m0, %k0] -> %sx : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
      cta.load %w[%e, %n0, %k0] -> %sw : memref<?x?x?xbf16> -> !cta.buffer<128x64xbf16>
      %p = cta.mma %sx, %sw, %it {transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<128x64xbf16>, !cta.acc<128x128xf32>
      cta.yield %p : !cta.acc<128x128xf32>
    }
    cta.store %acc -> %y[%m0, %n0] row_limit %m_end staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
    ^bb0(%v: f32):
      %t = arith.truncf %v : f32 to bf16
      cta.yield %t : bf16
    }
  } {persistent}
  cta.return
}

// -----

cta.program @f(%M: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%M, %M) tile [64, 64] {
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

cta.program @f(%a: memref<?x?xf16> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>}) {
  %sa = cta.alloc : !cta.buffer<64x64xf16>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{cta-pipeline: copies and MMAs must be inside the cta.mainloop}}
    cta.load %a[%m0, %n0] -> %sa : memref<?x?xf16> -> !cta.buffer<64x64xf16>
  }
  cta.return
}

// -----

cta.program @f(%M: index {cta.dim = #cta.dim<M>}) {
  %sa = cta.alloc : !cta.buffer<64x64xf16>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{cta-pipeline: copies and MMAs must be inside the cta.mainloop}}
    %p = cta.mma %sa, %sa, %zero {transpose_b} : !cta.buffer<64x64xf16>, !cta.buffer<64x64xf16>, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

// Register math in the K loop that reads the carried values (a running row
// maximum) runs in the math role only: the producer copies just the loads
// and what their coordinates are computed from (regression: it copied every
// op and crashed on the unmapped carried value). A non-tile value carried out
// of the K loop and used after it is computed after the consume, in order
// (regression: crashed).
// CHECK-LABEL: cta.program @register_math_in_k_loop(
// CHECK:         #cta.role<producer, warps = 4, regs = 40> {
// CHECK-NOT:       cta.reduce_rows
// CHECK:           cta.load
// CHECK:         #cta.role<math, warps = 4, regs = 240> {
// CHECK:           %[[RES:.*]]:4 = cta.consume
// CHECK:             cta.reduce_rows max
// CHECK:           }
// CHECK-NEXT:      %{{.*}} = arith.addi %[[RES]]#3, %[[RES]]#3 : index
cta.program @register_math_in_k_loop(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : !cta.buffer<64x64xbf16>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %ninf = arith.constant 0xFF800000 : f32
    %m = cta.splat %ninf : f32 -> !cta.frag<64xf32, rows>
    %r:3 = cta.mainloop %M step 64 iter_args(%z, %m, %c0 : !cta.acc<64x64xf32>, !cta.frag<64xf32, rows>, index) -> !cta.acc<64x64xf32>, !cta.frag<64xf32, rows>, index {
    ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>, %max: !cta.frag<64xf32, rows>, %count: index):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
      %p = cta.mma %sa, %sa, %acc {transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
      %rowmax = cta.reduce_rows max %p : !cta.acc<64x64xf32> -> !cta.frag<64xf32, rows>
      %next = arith.addi %count, %k0 : index
      cta.yield %p, %rowmax, %next : !cta.acc<64x64xf32>, !cta.frag<64xf32, rows>, index
    }
    %twice = arith.addi %r#2, %r#2 : index
  }
  cta.return
}

// -----

// Tile rows that do not split evenly across the math warpgroups would leave
// rows uncomputed (regression: 128 rows over 3 warpgroups gave 42-row
// slices).
cta.program @uneven_rows(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 3>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  // expected-error@+1 {{cta-pipeline: 128 tile rows do not split across 3 math warpgroups}}
  cta.tile_loop static (%M, %M) tile [128, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x64xf32>
    %r = cta.mainloop %M step 64 iter_args(%z : !cta.acc<128x64xf32>) -> !cta.acc<128x64xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x64xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
      cta.yield %acc : !cta.acc<128x64xf32>
    }
  }
  cta.return
}

// -----

// Tensor-memory accumulators (sm_100a): an epilogue warpgroup (first, so
// that its warps are warpgroup 0 and read their own TMEM lane quarters), a
// producer warp and an MMA warp. The MMA warp takes a zeroed accumulator set
// (cta.acc_acquire), runs the K loop into it and hands it over
// (cta.acc_commit); the epilogue waits for it (cta.acc_wait, "filled" when
// the tile had K steps), stores it and frees it (cta.acc_release). Each role
// carries its own ring positions; acc_stages = 2 makes two sets.
// CHECK-LABEL: cta.program @tmem_roles(
// CHECK-SAME:    block = array<i64: 192, 1, 1>
// CHECK:         %[[RING:.*]] = cta.ring {consumers = 1 : i64} : <4>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ACCS:.*]] = cta.acc_ring {consumers = 1 : i64} : <2, [<128x256xf32>]>
// CHECK-NEXT:    cta.warp_specialize
// CHECK-NEXT:      #cta.role<epilogue, warps = 4> {
// CHECK-NEXT:      cta.tile_loop static (%{{.*}}, %{{.*}}) tile [128, 256] iter_args(%[[C0]] : index) -> (index) {
// CHECK-NEXT:      ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index, %[[EPOS:.*]]: index):
// CHECK-NEXT:        %[[COUNT:.*]] = arith.ceildivui
// CHECK-NEXT:        %[[FILLED:.*]] = arith.cmpi ugt, %[[COUNT]], %[[C0]] : index
// CHECK-NEXT:        %[[ACC:.*]] = cta.acc_wait %[[ACCS]] at %[[EPOS]] filled %[[FILLED]] : <2, [<128x256xf32>]> -> !cta.acc<128x256xf32>
// CHECK-NEXT:        cta.store %[[ACC]] -> %{{.*}}[%[[M0]], %[[N0]]] staging %{{.*}} : !cta.acc<128x256xf32>
// CHECK:             cta.acc_release %[[ACCS]] at %[[EPOS]] : <2, [<128x256xf32>]>
// CHECK-NEXT:        %[[ENEXT:.*]] = arith.addi %[[EPOS]], %[[C1]] : index
// CHECK-NEXT:        cta.yield %[[ENEXT]] : index
// CHECK:           #cta.role<producer, warps = 1> {
// CHECK:             cta.produce %[[RING]]
// CHECK:           #cta.role<mma, warps = 1> {
// CHECK-NEXT:      cta.tile_loop static (%{{.*}}, %{{.*}}) tile [128, 256] iter_args(%[[C0]], %[[C0]] : index, index) -> (index, index) {
// CHECK-NEXT:      ^bb0(%{{.*}}: index, %{{.*}}: index, %[[POS:.*]]: index, %[[APOS:.*]]: index):
// CHECK-NEXT:        %[[KCOUNT:.*]] = arith.ceildivui
// CHECK-NEXT:        %[[ZERO:.*]] = cta.acc_acquire %[[ACCS]] at %[[APOS]] : <2, [<128x256xf32>]> -> !cta.acc<128x256xf32>
// CHECK-NEXT:        %[[RES:.*]]:2 = cta.consume %[[RING]] at %[[POS]] count %[[KCOUNT]] iter_args(%[[ZERO]] : !cta.acc<128x256xf32>)
// CHECK:               cta.mma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} {transpose_b}
// CHECK:             cta.acc_commit %[[ACCS]] at %[[APOS]], %[[RES]]#1 : <2, [<128x256xf32>]>, !cta.acc<128x256xf32>
// CHECK-NEXT:        %[[ANEXT:.*]] = arith.addi %[[APOS]], %[[C1]] : index
// CHECK-NEXT:        cta.yield %[[RES]]#0, %[[ANEXT]] : index, index
cta.program @tmem_roles(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16> {cta.param = #cta.param<"b", input, [M, K]>},
                        %c: memref<?x?xbf16> {cta.param = #cta.param<"c", output, [M, K]>},
                        %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>})
    attributes {chip = #cta.chip<sm_100a>, schedule = #cta.schedule<stages = 4, math_warpgroups = 1, acc_stages = 2>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<256x64xbf16, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [128, 256] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x256xf32>
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x256xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<128x64xbf16, swizzle = "128B">
      cta.load %b[%n0, %k0] -> %sb : memref<?x?xbf16> -> !cta.buffer<256x64xbf16, swizzle = "128B">
      %next = cta.mma %sa, %sb, %acc {transpose_b} : !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.buffer<256x64xbf16, swizzle = "128B">, !cta.acc<128x256xf32>
      cta.yield %next : !cta.acc<128x256xf32>
    }
    cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x256xf32> -> memref<?x?xbf16>, !cta.buffer<128x128xbf16, swizzle = "128B"> {
    ^bb0(%e: f32):
      %t = arith.truncf %e : f32 to bf16
      cta.yield %t : bf16
    }
  } {persistent, group_m = 8 : i64}
  cta.return
}

// -----

// Tensor-memory accumulators are read by one epilogue warpgroup.
// expected-error@+1 {{cta-pipeline: sm_100a reads a tile's tensor-memory accumulators with one epilogue warpgroup; the schedule has math_warpgroups = 2}}
cta.program @tmem_two_warpgroups(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_100a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 2>} {
  %sa = cta.alloc : !cta.buffer<256x64xbf16>
  cta.tile_loop static (%M, %M) tile [256, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<256x128xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<256x128xf32>) -> !cta.acc<256x128xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<256x128xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<256x64xbf16>
      cta.yield %acc : !cta.acc<256x128xf32>
    }
  }
  cta.return
}

// -----

// Only accumulators zeroed per tile travel from the MMA warp to the
// epilogue.
cta.program @tmem_row_vector(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_100a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %one = arith.constant 1.0 : f32
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %r = cta.splat %one : f32 -> !cta.frag<128xf32, rows>
    // expected-error@+1 {{cta-pipeline: not implemented yet with tensor-memory accumulators: a K loop carrying '!cta.frag<128xf32, rows>' (only accumulators zeroed per tile)}}
    %acc:2 = cta.mainloop %M step 64 iter_args(%zero, %r : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>) -> !cta.acc<128x128xf32>, !cta.frag<128xf32, rows> {
    ^bb0(%k0: index, %acc: !cta.acc<128x128xf32>, %rr: !cta.frag<128xf32, rows>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
      cta.yield %acc, %rr : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>
    }
  }
  cta.return
}

// -----

// Accumulator sets are a tensor-memory schedule.
// expected-error@+1 {{cta-pipeline: acc_stages = 2 needs tensor-memory accumulators; sm_90a keeps them in registers}}
cta.program @acc_stages_sm90(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 2, acc_stages = 2>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x128xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
      cta.yield %acc : !cta.acc<128x128xf32>
    }
  }
  cta.return
}

// -----

// Block scales (sm_100a, NVFP4): the scale-factor buffers are filled by the
// producer with their operands, become rings of the same stages, and the
// MMA reads each stage's atoms (scale_slots).
// CHECK-LABEL: cta.program @nvfp4
// CHECK:         %[[SFA:.*]] = cta.alloc : <128x16xf8E4M3FN, stages = 3>
// CHECK:         %[[SFB:.*]] = cta.alloc : <128x16xf8E4M3FN, stages = 3>
// CHECK:         cta.produce
// CHECK:           cta.load %{{.*}} -> %[[SFA]][%[[PSLOT:.*]]] signal
// CHECK:         cta.consume
// CHECK-NEXT:    ^bb0(%{{.*}}: index, %[[SLOT:.*]]: index,
// CHECK:           cta.mma %{{.*}}[%[[SLOT]]], %{{.*}}[%[[SLOT]]], %{{.*}} scales(%[[SFA]], %[[SFB]]) scale_slots(%[[SLOT]], %[[SLOT]]) {scale_block = 16 : i64, transpose_b}
cta.program @nvfp4(%a: memref<?x?xf4E2M1FN, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>},
                   %as: memref<?x?x?x?xf8E4M3FN, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"a.scale", input, [D0, D1, D2, D3]>},
                   %c: memref<?x?xf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, K]>},
                   %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_100a>, schedule = #cta.schedule<stages = 3, math_warpgroups = 1>} {
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : !cta.buffer<128x256xf4E2M1FN, swizzle = "128B">
  %sfa = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %sfb = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %sc = cta.alloc : !cta.buffer<128x64xf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %M step 256 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x128xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xf4E2M1FN, strided<[?, 1]>> -> !cta.buffer<128x256xf4E2M1FN, swizzle = "128B">
      cta.load %as[%m0, %k0, %c0, %c0] -> %sfa : memref<?x?x?x?xf8E4M3FN, strided<[?, ?, ?, 1]>> -> !cta.buffer<128x16xf8E4M3FN>
      cta.load %as[%n0, %k0, %c0, %c0] -> %sfb : memref<?x?x?x?xf8E4M3FN, strided<[?, ?, ?, 1]>> -> !cta.buffer<128x16xf8E4M3FN>
      %next = cta.mma %sa, %sa, %acc scales(%sfa, %sfb) {transpose_b, scale_block = 16 : i64} : !cta.buffer<128x256xf4E2M1FN, swizzle = "128B">, !cta.buffer<128x256xf4E2M1FN, swizzle = "128B">, !cta.acc<128x128xf32>, !cta.buffer<128x16xf8E4M3FN>, !cta.buffer<128x16xf8E4M3FN>
      cta.yield %next : !cta.acc<128x128xf32>
    }
    cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xf16, strided<[?, 1]>>, !cta.buffer<128x64xf16, swizzle = "128B"> {
    ^bb0(%e: f32):
      %t = arith.truncf %e : f32 to f16
      cta.yield %t : f16
    }
  } {persistent, group_m = 8 : i64}
  cta.return
}

// -----

// A stream-K walk: both roles walk the same tile parts (every coordinate of
// the walk maps to the clone's), each runs its part's K range, and a store
// the join guards is sliced by warpgroup like any other.
// CHECK-LABEL: cta.program @stream_k(
// CHECK:         #cta.role<producer, warps = 4, regs = 40> {
// CHECK-NEXT:    cta.tile_loop stream_k (%{{.*}}, %{{.*}}, %{{.*}}) tile [128, 128, 64] iter_args(%{{.*}} : index) -> (index) {
// CHECK-NEXT:    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
// CHECK-NEXT:      %[[SPAN:.*]] = arith.subi %k_end, %k_begin : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.ceildivui %[[SPAN]], %{{.*}} : index
// CHECK-NEXT:      cta.produce %{{.*}} at %carried count %[[COUNT]]
// CHECK:             %[[K:.*]] = arith.addi %k_begin, %{{.*}} : index
// CHECK-NEXT:        cta.load %{{.*}}[%m0, %[[K]]]
// CHECK:         #cta.role<math, warps = 8, regs = 232> {
// CHECK-NEXT:    cta.tile_loop stream_k
// CHECK:           %[[WG:.*]] = cta.warpgroup_index : index
// CHECK:           %[[ROW:.*]] = arith.muli %[[WG]], %{{.*}} : index
// CHECK:           %[[ACC:.*]]:2 = cta.consume
// CHECK:           %sums, %complete = cta.stream_k_join %[[ACC]]#1 partial %partial k[%k_begin, %k_end) of %{{.*}} : !cta.acc<64x128xf32> -> !cta.acc<64x128xf32>
// CHECK-NEXT:      scf.if %complete {
// CHECK-NEXT:        %[[M:.*]] = arith.addi %m0, %[[ROW]] : index
// CHECK-NEXT:        cta.store %sums -> %{{.*}}[%[[M]], %n0] staging %{{.*}}[%[[WG]]] : !cta.acc<64x128xf32>
cta.program @stream_k(%arg0: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %arg1: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %arg2: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %arg3: index {cta.dim = #cta.dim<M>}, %arg4: index {cta.dim = #cta.dim<K>}, %arg5: index {cta.dim = #cta.dim<N>}) attributes {chip = #cta.chip<sm_90a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 2>} {
  %0 = cta.alloc : <128x64xbf16, swizzle = "128B">
  %1 = cta.alloc : <128x64xbf16, swizzle = "128B">
  %2 = cta.alloc : <128x128xbf16, swizzle = "128B">
  cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] {
  ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index):
    %3 = cta.acc_zero : <128x128xf32>
    %4 = arith.subi %k_end, %k_begin : index
    %5 = cta.mainloop %4 step 64 iter_args(%3 : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %carried: !cta.acc<128x128xf32>):
      %6 = arith.addi %k_begin, %k0 : index
      cta.load %arg0[%m0, %6] -> %0 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, swizzle = "128B">
      cta.load %arg1[%n0, %6] -> %1 : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, swizzle = "128B">
      %7 = cta.mma %0, %1, %carried {transpose_b} : !cta.buffer<128x64xbf16, swizzle = "128B">, <128x64xbf16, swizzle = "128B">, <128x128xf32>
      cta.yield %7 : !cta.acc<128x128xf32>
    }
    %sums, %complete = cta.stream_k_join %5 partial %partial k[%k_begin, %k_end) of %arg4 : !cta.acc<128x128xf32> -> !cta.acc<128x128xf32>
    scf.if %complete {
      cta.store %sums -> %arg2[%m0, %n0] staging %2 : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16, swizzle = "128B"> {
      ^bb0(%arg6: f32):
        %6 = arith.truncf %arg6 : f32 to bf16
        cta.yield %6 : bf16
      }
    }
  } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
  cta.return
}

// -----

// Ping-pong takes turns between math warpgroups holding their accumulators
// in registers: not on sm_100a.
// expected-error@+1 {{cta-pipeline: pingpong needs register accumulators (sm_90a) and a walk of whole tiles (not stream_k)}}
cta.program @pingpong_tmem(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_100a>, schedule = #cta.schedule<stages = 2, math_warpgroups = 2, pingpong = true>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x128xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<128x128xf32>) -> !cta.acc<128x128xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x128xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
      cta.yield %acc : !cta.acc<128x128xf32>
    }
  }
  cta.return
}
