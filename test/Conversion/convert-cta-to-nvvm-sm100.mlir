// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm=chip=sm_100a | FileCheck %s

// convert-cta-to-nvvm on sm_100a (the tcgen05 ChipLowering): the same cta
// IR as on sm_90a, with accumulators in tensor memory, tcgen05.mma issued by
// one thread and tcgen05.ld epilogues; and every error the sm_100a
// lowering reports. Encodings are pinned to the golden values of
// lowering-brief §5.10 (no Blackwell GPU has run this code).

// A pipelined 128x128 bf16 matmul: one TMA producer warpgroup, one math
// warpgroup owning a 128x128 f32 accumulator (128 TMEM columns).
// CHECK:       gpu.module @kiln_kernels [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">]
// CHECK:       llvm.func @matmul(
// Shared memory (the manifest's keys are sorted): a, b rings (2 x 16 KiB each), staging (16 KiB), 2 pairs of
// barriers, then the 4-byte TMEM address slot, rounded up to 128 bytes.
// CHECK-SAME:    chip = "sm_100a"
// CHECK-SAME:    launch = {block = [256, 1, 1], cluster = [1, 1, 1], dynamic_smem = 82176 : i64
// CHECK-SAME:    nvvm.kernel, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 256, 1, 1>
// Before the roles: warp 0 allocates 128 columns into the slot after the
// barriers and gives up its permit; the CTA barrier publishes the address.
// CHECK:         %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[%c82048_i32]
// CHECK-NEXT:    %[[COLS:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    nvvm.tcgen05.alloc %[[SLOT]], %[[COLS]] : !llvm.ptr<3>, i32
// CHECK-NEXT:    nvvm.tcgen05.relinquish_alloc_permit
// CHECK:         nvvm.tcgen05.fence <before>
// CHECK-NEXT:    nvvm.barrier0
// The producer: TMA copies into the stage, as on sm_90a.
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global
// The math warpgroup: the accumulator is (slot address + its first column,
// holds no data).
// CHECK:         nvvm.tcgen05.fence <after>
// CHECK:         %[[BASE:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK:         %[[FALSE:.*]] = arith.constant false
// CHECK:         llvm.insertvalue %[[FALSE]], %{{.*}}[1] : !llvm.struct<(i32, i1)>
// Each K step: every thread waits for the stage; one thread issues four
// m128n128k16 MMAs (idesc 0x08200490: bf16 x bf16 -> f32, K-major) on SW128
// descriptors (0x4000404000000000 | start >> 4), K steps 32 bytes (+2)
// apart; only the first reads D, and only once the accumulator holds data;
// then it commits them to the stage's empty barrier.
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!llvm.struct<(i32, i1)>)
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[WRITTEN:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i32, i1)>
// CHECK:           arith.constant 4611756662049472512 : i64
// CHECK:           %[[IDESC:.*]] = arith.constant 136316048 : i32
// CHECK:           scf.if
// CHECK-NEXT:        nvvm.tcgen05.fence <after>
// CHECK:             nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %[[IDESC]], %[[WRITTEN]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK:             arith.constant 2 : i64
// CHECK:             nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %[[IDESC]], %true
// CHECK:             arith.constant 4 : i64
// CHECK:             nvvm.tcgen05.mma
// CHECK:             arith.constant 6 : i64
// CHECK:             nvvm.tcgen05.mma
// CHECK-NOT:         nvvm.tcgen05.mma
// CHECK:           }
// CHECK:           scf.if
// CHECK:             nvvm.tcgen05.commit %{{.*}} : !llvm.ptr<3>
// CHECK:           }
// CHECK-NEXT:      scf.yield %{{.*}} : !llvm.struct<(i32, i1)>
// After the loop: wait for the last stage's release (all MMAs done).
// CHECK:         scf.if
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:         }
// CHECK-NEXT:    nvvm.tcgen05.fence <after>
// The store, per 64-column staging block: each thread loads its row's 32
// columns at a time (its warp's lane quarter), zero where no MMA wrote.
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:         nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK-NEXT:    nvvm.tcgen05.wait <load>
// CHECK:         arith.select
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK:         nvvm.tcgen05.ld
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta
// The columns go back to the MMA thread for the next tile.
// CHECK:         nvvm.tcgen05.fence <before>
// CHECK:         nvvm.barrier id
// CHECK:         scf.yield
// After the roles: the allocating warp frees the columns.
// CHECK:         nvvm.tcgen05.fence <before>
// CHECK-NEXT:    nvvm.barrier0
// CHECK:         scf.if
// CHECK-NEXT:      nvvm.tcgen05.fence <after>
// CHECK:           nvvm.tcgen05.dealloc %{{.*}}, %[[COLS2:.*]] : !llvm.ptr<6>, i32
cta.program @matmul(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 4, regs = 240> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_zero : <128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.store %r#1 -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.yield %r#0 : index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// The same matmul with an MMA warp and two accumulator sets (what
// cta-pipeline makes on sm_100a): warps 0-3 are the epilogue warpgroup,
// warp 4 the producer, warp 5 the MMA warp; 2 x 128 TMEM columns.
// CHECK-LABEL: llvm.func @mma_warp(
// CHECK-SAME:    launch = {block = [192, 1, 1], cluster = [1, 1, 1], dynamic_smem = 82176 : i64
// CHECK-SAME:    nvvm.reqntid = array<i32: 192, 1, 1>
// The accumulator ring's barriers after the operand ring's: full[s] counts
// one commit, empty[s] the 128 epilogue threads.
// CHECK:         llvm.getelementptr %{{.*}}[%c81952_i32]
// CHECK:         scf.if
// CHECK-NEXT:      %[[READERS:.*]] = arith.constant 128 : i32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:           nvvm.mbarrier.init %{{.*}}, %[[ONE]]
// CHECK:           nvvm.mbarrier.init %{{.*}}, %[[READERS]]
// CHECK:           nvvm.mbarrier.init %{{.*}}, %[[ONE]]
// CHECK:           nvvm.mbarrier.init %{{.*}}, %[[READERS]]
// CHECK-NEXT:      nvvm.fence.mbarrier.init
// CHECK:         %[[COLS:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    nvvm.tcgen05.alloc %{{.*}}, %[[COLS]] : !llvm.ptr<3>, i32
// Epilogue: wait for the set's full barrier, fence, read (each thread its
// row), store; then fence and arrive on the set's empty barrier, with no
// warpgroup barrier in between.
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:      nvvm.tcgen05.fence <after>
// CHECK:           nvvm.tcgen05.ld
// CHECK:           nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:           nvvm.tcgen05.ld
// CHECK:           nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT:       nvvm.barrier
// CHECK:           nvvm.tcgen05.fence <before>
// CHECK-NOT:       nvvm.barrier
// CHECK:           nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK:         nvvm.cp.async.bulk.wait_group 0
// Producer.
// CHECK:         nvvm.mbarrier.arrive.expect_tx
// MMA warp (one thread: no election around its MMAs and commits): wait for
// a free set, fence, then per stage the MMAs into it and the stage's
// commit; after the K loop the commit to the set's full barrier, and no
// wait for the MMAs.
// CHECK:         scf.for {{.*}} -> (index, index)
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:      nvvm.tcgen05.fence <after>
// CHECK:           scf.for {{.*}} -> (!llvm.struct<(i32, i1)>)
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK-NOT:         scf.if
// CHECK:             nvvm.tcgen05.fence <after>
// CHECK-NEXT:        llvm.inttoptr
// CHECK:             nvvm.tcgen05.mma
// CHECK:             nvvm.tcgen05.mma
// CHECK:             nvvm.tcgen05.mma
// CHECK:             nvvm.tcgen05.mma
// CHECK-NOT:         scf.if
// CHECK:             nvvm.tcgen05.commit
// CHECK:           }
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.tcgen05.commit
// CHECK:         nvvm.tcgen05.fence <before>
// CHECK-NEXT:    nvvm.barrier0
// CHECK:         nvvm.tcgen05.dealloc %{{.*}}, %{{.*}} : !llvm.ptr<6>, i32
cta.program @mma_warp(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  %accs = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %filled = arith.cmpi ugt, %kt, %c0 : index
      %acc = cta.acc_wait %accs at %apos filled %filled : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.acc_release %accs at %apos : <2, [<128x128xf32>]>
      %next = arith.addi %apos, %c1 : index
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<producer, warps = 1> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<mma, warps = 1> {
    %p:2 = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
    ^bb0(%m0: index, %n0: index, %pos: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.acc_commit %accs at %apos, %r#1 : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      %anext = arith.addi %apos, %c1 : index
      cta.yield %r#0, %anext : index, index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// A program in clusters whose ring counts the releases of one CTA: every
// CTA's commit arrives in each CTA of the cluster, so the counts disagree.
cta.program @matmul(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 2, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  // expected-error@+1 {{convert-cta-to-nvvm: the ring is released by 1 CTA(s) but the program runs in clusters of 2; cluster_size must equal the cluster's CTAs}}
  %ring = cta.ring {consumers = 1 : i64} : <2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 4, regs = 240> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_zero : <128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.store %r#1 -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.yield %r#0 : index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

cta.program @matmul(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        // expected-error@+1 {{convert-cta-to-nvvm: a copy multicast to 2 CTAs in clusters of 1; multicast copies reach the whole cluster}}
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 4, regs = 240> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_zero : <128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.store %r#1 -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.yield %r#0 : index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// Accumulators fill the 128 lanes (one per row); M = 64 would use another
// data-path layout.
cta.program @matmul(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <64x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 4, regs = 240> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      // expected-error@+1 {{convert-cta-to-nvvm: a 64-row accumulator; on sm_100a an accumulator fills the 128 lanes of tensor memory}}
      %zero = cta.acc_zero : <64x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<64x128xf32>) : <2> -> !cta.acc<64x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x128xf32>):
        // expected-error@+1 {{convert-cta-to-nvvm: a 64-row accumulator; on sm_100a an accumulator fills the 128 lanes of tensor memory}}
        %d = cta.mma %sa[%slot] rows %c0, %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <64x128xf32>
        cta.yield %d : !cta.acc<64x128xf32>
      }
      // expected-error@+1 {{convert-cta-to-nvvm: a 64-row accumulator; on sm_100a an accumulator fills the 128 lanes of tensor memory}}
      cta.store %r#1 -> %c[%m0, %n0] staging %sc : !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.yield %r#0 : index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

cta.program @matmul(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: a math role of 8 warps (one warpgroup reads a 128-row accumulator)}}
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 8, regs = 232> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_zero : <128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.store %r#1 -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.yield %r#0 : index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// A stream-K walk's join of partial tiles needs registers; tensor-memory
// accumulators cannot take part yet.
cta.program @stream_k(%arg0: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %arg1: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %arg2: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %arg3: index {cta.dim = #cta.dim<M>}, %arg4: index {cta.dim = #cta.dim<K>}, %arg5: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 4, math_warpgroups = 1>} {
  %0 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %1 = cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
  %2 = cta.alloc : <128x128xbf16, swizzle = "128B">
  %3 = cta.ring {consumers = 1 : i64} : <4>
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
    #cta.role<math, warps = 4, regs = 240> {
    %4 = cta.tile_loop stream_k (%arg3, %arg5, %arg4) tile [128, 128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %k_begin: index, %k_end: index, %partial: index, %carried: index):
      %5 = arith.subi %k_end, %k_begin : index
      %6 = arith.ceildivui %5, %c64 : index
      %7 = cta.warpgroup_index : index
      %c128 = arith.constant 128 : index
      %8 = arith.muli %7, %c128 : index
      %9 = cta.acc_zero : <128x128xf32>
      %10:2 = cta.consume %3 at %carried count %6 iter_args(%9 : !cta.acc<128x128xf32>) : <4> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %carried_0: !cta.acc<128x128xf32>):
        %11 = arith.muli %kb, %c64 : index
        %12 = arith.addi %k_begin, %11 : index
        %13 = cta.mma %0[%slot] rows %8, %1[%slot], %carried_0 {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, <128x64xbf16, stages = 4, swizzle = "128B">, <128x128xf32>
        cta.yield %13 : !cta.acc<128x128xf32>
      }
      // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: stream-K partial tiles of tensor-memory accumulators}}
      %sums, %complete = cta.stream_k_join %10#1 partial %partial k[%k_begin, %k_end) of %arg4 : !cta.acc<128x128xf32> -> !cta.acc<128x128xf32>
      scf.if %complete {
        %11 = arith.addi %m0, %8 : index
        cta.store %sums -> %arg2[%11, %n0] staging %2 : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16, swizzle = "128B"> {
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

// The hand-off's ops run in their roles: sets are taken and committed by
// the MMA warp, waited for and released by the epilogue warpgroup.
cta.program @mma_warp(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  %accs = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %filled = arith.cmpi ugt, %kt, %c0 : index
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_acquire' runs in an mma role; this one is in an epilogue role}}
      %bad = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %acc = cta.acc_wait %accs at %apos filled %filled : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.acc_release %accs at %apos : <2, [<128x128xf32>]>
      %next = arith.addi %apos, %c1 : index
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<producer, warps = 1> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<mma, warps = 1> {
    %p:2 = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
    ^bb0(%m0: index, %n0: index, %pos: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.acc_commit %accs at %apos, %r#1 : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      %anext = arith.addi %apos, %c1 : index
      cta.yield %r#0, %anext : index, index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

cta.program @mma_warp(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  %accs = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %filled = arith.cmpi ugt, %kt, %c0 : index
      %acc = cta.acc_wait %accs at %apos filled %filled : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.acc_release %accs at %apos : <2, [<128x128xf32>]>
      %next = arith.addi %apos, %c1 : index
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<producer, warps = 1> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<mma, warps = 1> {
    %p:2 = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
    ^bb0(%m0: index, %n0: index, %pos: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.acc_commit %accs at %apos, %r#1 : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_release' runs in an epilogue role; this one is in an mma role}}
      cta.acc_release %accs at %apos : <2, [<128x128xf32>]>
      %anext = arith.addi %apos, %c1 : index
      cta.yield %r#0, %anext : index, index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

cta.program @mma_warp(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: an accumulator ring read by 2 warpgroups (one warpgroup reads a 128-row set)}}
  %accs = cta.acc_ring {consumers = 2 : i64} : <2, [<128x128xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %filled = arith.cmpi ugt, %kt, %c0 : index
      %acc = cta.acc_wait %accs at %apos filled %filled : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.acc_release %accs at %apos : <2, [<128x128xf32>]>
      %next = arith.addi %apos, %c1 : index
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<producer, warps = 1> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<mma, warps = 1> {
    %p:2 = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
    ^bb0(%m0: index, %n0: index, %pos: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.acc_commit %accs at %apos, %r#1 : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      %anext = arith.addi %apos, %c1 : index
      cta.yield %r#0, %anext : index, index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

cta.program @mma_warp(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  // expected-error@+1 {{convert-cta-to-nvvm: a 64-row accumulator; on sm_100a an accumulator fills the 128 lanes of tensor memory}}
  %accs2 = cta.acc_ring {consumers = 1 : i64} : <2, [<64x128xf32>]>
  %accs = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %filled = arith.cmpi ugt, %kt, %c0 : index
      %acc = cta.acc_wait %accs at %apos filled %filled : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.acc_release %accs at %apos : <2, [<128x128xf32>]>
      %next = arith.addi %apos, %c1 : index
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<producer, warps = 1> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<mma, warps = 1> {
    %p:2 = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
    ^bb0(%m0: index, %n0: index, %pos: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.acc_commit %accs at %apos, %r#1 : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      %anext = arith.addi %apos, %c1 : index
      cta.yield %r#0, %anext : index, index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// A CTA pair's MMA needs every copy to be the pair's: the copies complete
// on the leader's barrier, which counts both CTAs' bytes.
cta.program @pair(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 2, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <64x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {cluster_size = 2 : i64, consumers = 1 : i64} : <2>
  %accs = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %filled = arith.cmpi ugt, %kt, %c0 : index
      %acc = cta.acc_wait %accs at %apos filled %filled : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.acc_release %accs at %apos : <2, [<128x128xf32>]>
      %next = arith.addi %apos, %c1 : index
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<producer, warps = 1> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring {cta_pair} : memref<?x?xbf16, strided<[?, 1]>> -> <64x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<mma, warps = 1> {
    %p:2 = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
    ^bb0(%m0: index, %n0: index, %pos: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        // expected-error@+1 {{convert-cta-to-nvvm: a program with a CTA pair's MMA runs every MMA and copy as the pair's (cta_pair)}}
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {cta_pair, transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <64x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.acc_commit %accs at %apos, %r#1 : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      %anext = arith.addi %apos, %c1 : index
      cta.yield %r#0, %anext : index, index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// A CTA pair is a 2x1 cluster.
cta.program @pair(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <64x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  %accs = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %filled = arith.cmpi ugt, %kt, %c0 : index
      %acc = cta.acc_wait %accs at %apos filled %filled : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.acc_release %accs at %apos : <2, [<128x128xf32>]>
      %next = arith.addi %apos, %c1 : index
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<producer, warps = 1> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring {cta_pair} : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring {cta_pair} : memref<?x?xbf16, strided<[?, 1]>> -> <64x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<mma, warps = 1> {
    %p:2 = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
    ^bb0(%m0: index, %n0: index, %pos: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %zero = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        // expected-error@+1 {{convert-cta-to-nvvm: a CTA pair's MMA runs in clusters of [2, 1]}}
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {cta_pair, transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <64x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.acc_commit %accs at %apos, %r#1 : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      %anext = arith.addi %apos, %c1 : index
      cta.yield %r#0, %anext : index, index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// Allocated for no chip (so without tensor memory), then lowered for sm_100a.
cta.program @allocated_without_chip(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 256, 1, 1>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 4, regs = 240> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c64 : index
      // expected-error@+1 {{convert-cta-to-nvvm: no tensor memory allocated; run cta-allocate-resources (on a program whose chip is the target's) first}}
      %zero = cta.acc_zero : <128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      cta.store %r#1 -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      cta.yield %r#0 : index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}
