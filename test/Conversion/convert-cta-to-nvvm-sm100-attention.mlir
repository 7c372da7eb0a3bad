// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm=chip=sm_100a | FileCheck %s

// convert-cta-to-nvvm on sm_100a for what attention adds to the tcgen05
// lowering (CtaToSm100Registers.cpp, CtaToSm100.cpp): register tiles with
// one row per thread, tensor-memory tiles named by two roles, a ring stage
// filled by the softmax warpgroup and released by the MMA warp, and the MMA
// warp's tcgen05.mma with A in tensor memory and an MN-major B. A reduced
// key step: the MMA warp's S = Q Kᵀ goes through a score set; the softmax
// warpgroup reads it (tcgen05.ld of its row), reduces and exponentiates in
// registers, writes P (bf16 pairs) and rescales O in tensor memory, and
// hands P over; the MMA warp's O += P V reads P from tensor memory.

// CHECK-LABEL: llvm.func @key_step(
// CHECK-SAME:    launch = {block = [192, 1, 1]
// The P ring: one stage, full counts one arrival, empty one commit.
// CHECK:         nvvm.mbarrier.init %{{.*}}, %[[ONE:.*]] : !llvm.ptr<3>, i32
// Tensor memory: O (128 columns), P (64), two score sets (256): 448, so 512.
// CHECK:         %[[COLS:.*]] = arith.constant 512 : i32
// CHECK-NEXT:    nvvm.tcgen05.alloc %{{.*}}, %[[COLS]] : !llvm.ptr<3>, i32
// The softmax warpgroup: wait for the score set, fence, read the row in
// 32-column loads and wait once.
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:    nvvm.tcgen05.fence <after>
// CHECK-COUNT-4: nvvm.tcgen05.ld {{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK-NEXT:    nvvm.tcgen05.wait <load>
// The row max needs no shuffles: a tree over the thread's 128 registers.
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-COUNT-127: arith.maximumf
// CHECK-NOT:     nvvm.shfl.sync
// The exponentials, then the score set goes back (fence, 128 arrivals).
// CHECK:         math.exp2
// CHECK:         nvvm.tcgen05.fence <before>
// CHECK:         nvvm.mbarrier.arrive
// The P stage: wait until the MMA warp released it (producer parity).
// CHECK:         nvvm.mbarrier.try_wait.parity
// P: pairs rounded to bf16, 64 words in two 32-column stores at P's column,
// after a fence that orders them after the wait.
// CHECK:         nvvm.tcgen05.fence <after>
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK:         nvvm.tcgen05.st {{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK:         nvvm.tcgen05.st {{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// O in place, after its own fence: load 32 columns, wait, multiply, store;
// four times, then wait for the stores.
// CHECK:         nvvm.tcgen05.fence <after>
// CHECK:         nvvm.tcgen05.ld
// CHECK-NEXT:    nvvm.tcgen05.wait <load>
// CHECK:         arith.mulf
// CHECK:         nvvm.tcgen05.st
// CHECK:         nvvm.tcgen05.ld
// CHECK:         nvvm.tcgen05.ld
// CHECK:         nvvm.tcgen05.ld
// CHECK:         nvvm.tcgen05.st
// CHECK-NEXT:    nvvm.tcgen05.wait <store>
// The commit: wait for the stores, fence, the warpgroup's barrier, one
// thread's arrival on the full barrier.
// CHECK-NEXT:    nvvm.tcgen05.wait <store>
// CHECK-NEXT:    nvvm.tcgen05.fence <before>
// CHECK:         nvvm.read.ptx.sreg.tid.x
// CHECK:         %[[THREADS:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    nvvm.barrier id = %{{.*}} number_of_threads = %[[THREADS]]
// CHECK:         scf.if
// CHECK:           nvvm.mbarrier.arrive
// The log-sum-exp: each thread its row, below the extent.
// CHECK:         arith.cmpi ult
// CHECK:         scf.if
// CHECK:           llvm.store %{{.*}} : f32, !llvm.ptr<1>
// The MMA warp (one thread): S into the score set and its commit, K's
// release by commit.
// CHECK:         nvvm.tcgen05.mma
// CHECK:         nvvm.tcgen05.commit
// CHECK:         nvvm.tcgen05.commit
// O += P V: wait for the P stage, fence; A is a tensor-memory address (P's
// column + 8 per K step), B an MN-major descriptor (LBO 16 KiB, SBO 1 KiB:
// 0x4000404004000000, +128 per K step), idesc M128 N128 with B MN-major
// (0x08210490), D read only when the flag says so.
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         %[[READD:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:         %[[BASE:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NEXT:    %[[PCOL:.*]] = arith.addi %[[BASE]], %c128_i32 : i32
// CHECK:         arith.constant 4611756662116581376 : i64
// CHECK:         %[[IDESC:.*]] = arith.constant 136381584 : i32
// CHECK-NEXT:    nvvm.tcgen05.fence <after>
// CHECK:         %[[A0C:.*]] = arith.addi %[[PCOL]], %c0_i32{{.*}} : i32
// CHECK-NEXT:    %[[A0:.*]] = llvm.inttoptr %[[A0C]] : i32 to !llvm.ptr<6>
// CHECK:         nvvm.tcgen05.mma %{{.*}}, %[[A0]], %{{.*}}, %[[IDESC]], %[[READD]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK:         %[[A1C:.*]] = arith.addi %[[PCOL]], %c8_i32{{.*}} : i32
// CHECK-NEXT:    %[[A1:.*]] = llvm.inttoptr %[[A1C]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:    %c128_i64 = arith.constant 128 : i64
// CHECK-NEXT:    %[[B1:.*]] = arith.addi %{{.*}}, %c128_i64 : i64
// CHECK-NEXT:    nvvm.tcgen05.mma %{{.*}}, %[[A1]], %[[B1]], %[[IDESC]], %true
// Releases of V and the P stage: commits.
// CHECK:         nvvm.tcgen05.commit
// CHECK:         nvvm.tcgen05.commit
cta.program @key_step(%lse: memref<?x?xf32> {cta.param = #cta.param<"lse", output, [H, S]>}, %H: index {cta.dim = #cta.dim<H>}, %S: index {cta.dim = #cta.dim<S>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %true = arith.constant true
  %c = arith.constant 0.125 : f32
  %sq = cta.alloc : <128x128xbf16, swizzle = "128B">
  %sk = cta.alloc : <128x128xbf16, stages = 2, swizzle = "128B">
  %sv = cta.alloc : <128x128xbf16, stages = 2, swizzle = "128B">
  %kr = cta.ring {consumers = 1 : i64} : <2>
  %vr = cta.ring {consumers = 1 : i64} : <2>
  %pr = cta.ring {consumers = 1 : i64} : <1>
  %sr = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
  %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
  %p = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    cta.tile_loop static (%H, %S) tile [128, 128] {
    ^bb0(%h0: index, %s0: index):
      %s = cta.acc_wait %sr at %c0 filled %true : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %m = cta.reduce_rows max %s : !cta.acc<128x128xf32> -> !cta.frag<128xf32, rows>
      %e = cta.frag_map %s, %m : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc> {
      ^bb0(%row: index, %col: index, %x: f32, %mx: f32):
        %d = arith.subf %x, %mx : f32
        %y = math.exp2 %d : f32
        cta.yield %y : f32
      }
      cta.acc_release %sr at %c0 : <2, [<128x128xf32>]>
      %slot = cta.stage_acquire %pr at %c0 : <1>
      cta.tmem_store %e -> %p : !cta.frag<128x128xf32, acc>, !cta.tmem<128x128xbf16>
      cta.tmem_update %o inputs(%m : !cta.frag<128xf32, rows>) : !cta.tmem<128x128xf32> {
      ^bb0(%row: index, %col: index, %x: f32, %a: f32):
        %y = arith.mulf %x, %a : f32
        cta.yield %y : f32
      }
      cta.stage_commit %pr at %c0 : <1>
      cta.store_rows %m -> %lse[%h0, %s0] : !cta.frag<128xf32, rows> -> memref<?x?xf32>
    }
    cta.yield
  }
    #cta.role<producer, warps = 1> {
    cta.yield
  }
    #cta.role<mma, warps = 1> {
    cta.tile_loop static (%H, %S) tile [128, 128] {
    ^bb0(%h0: index, %s0: index):
      %ks = cta.stage_wait %kr at %c0 : <2>
      %z = cta.acc_acquire %sr at %c0 : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %s = cta.mma %sq, %sk[%ks], %z accumulate %false {transpose_b} : !cta.buffer<128x128xbf16, swizzle = "128B">, <128x128xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
      cta.acc_commit %sr at %c0, %s : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      cta.stage_release %kr at %c0 : <2>
      %flag = arith.cmpi ugt, %h0, %c0 : index
      %ps = cta.stage_wait %pr at %c0 : <1>
      %vs = cta.stage_wait %vr at %c0 : <2>
      %acc = cta.tmem_acc %o : !cta.tmem<128x128xf32> -> !cta.acc<128x128xf32>
      %r = cta.mma %p, %sv[%vs], %acc accumulate %flag : !cta.tmem<128x128xbf16>, <128x128xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
      cta.stage_release %vr at %c0 : <2>
      cta.stage_release %pr at %c0 : <1>
    }
    cta.yield
  }
  cta.return
}

// -----

// What the sm_100a register and tensor-memory lowering refuses.
cta.program @frag_map_to_acc() attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>} {
  %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    %acc = cta.tmem_acc %o : !cta.tmem<128x128xf32> -> !cta.acc<128x128xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: a cta.frag_map yielding an accumulator on sm_100a, whose accumulators live in tensor memory: change one in place with cta.tmem_update}}
    %r = cta.frag_map %acc : !cta.acc<128x128xf32> -> !cta.acc<128x128xf32> {
    ^bb0(%row: index, %col: index, %x: f32):
      cta.yield %x : f32
    }
    cta.yield
  }
  cta.return
}

// -----

cta.program @scale_rows_of_acc() attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>} {
  %one = arith.constant 1.0 : f32
  %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    %acc = cta.tmem_acc %o : !cta.tmem<128x128xf32> -> !cta.acc<128x128xf32>
    %alpha = cta.splat %one : f32 -> !cta.frag<128xf32, rows>
    // expected-error@+1 {{convert-cta-to-nvvm: a cta.scale_rows of an accumulator on sm_100a, whose accumulators live in tensor memory: change one in place with cta.tmem_update}}
    %r = cta.scale_rows %acc by %alpha : !cta.acc<128x128xf32>, !cta.frag<128xf32, rows>
    cta.yield
  }
  cta.return
}

// -----

cta.program @convert() attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>} {
  %one = arith.constant 1.0 : f32
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    %v = cta.splat %one : f32 -> !cta.frag<128x128xf32, acc>
    // expected-error@+1 {{convert-cta-to-nvvm: cta.convert rounds into the MMA's register operand, which sm_100a does not have: write the tile to tensor memory with cta.tmem_store}}
    %p = cta.convert %v : !cta.frag<128x128xf32, acc> -> !cta.frag<128x128xbf16, lhs>
    cta.yield
  }
  cta.return
}

// -----

cta.program @cols() attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>} {
  %one = arith.constant 1.0 : f32
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: a !cta.frag<128xf32, cols> (register tiles hold rows: one per thread)}}
    %v = cta.splat %one : f32 -> !cta.frag<128xf32, cols>
    cta.yield
  }
  cta.return
}

// -----

cta.program @f16_frag() attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>} {
  %one = arith.constant 1.0 : f16
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: register tiles of f16}}
    %v = cta.splat %one : f16 -> !cta.frag<128x128xf16, acc>
    cta.yield
  }
  cta.return
}

// -----

cta.program @register_lhs() attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>} {
  %one = arith.constant 1.0 : bf16
  %sv = cta.alloc : <128x128xbf16, swizzle = "128B">
  %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    // expected-error@+1 {{convert-cta-to-nvvm: a !cta.frag<128x128xbf16, lhs> on sm_100a: tcgen05.mma reads its left operand from shared or tensor memory (write it with cta.tmem_store)}}
    %p = cta.splat %one : bf16 -> !cta.frag<128x128xbf16, lhs>
    cta.yield
  } #cta.role<mma, warps = 1> {
    // expected-error@+1 {{convert-cta-to-nvvm: a !cta.frag<128x128xbf16, lhs> on sm_100a}}
    %q = cta.splat %one : bf16 -> !cta.frag<128x128xbf16, lhs>
    %acc = cta.tmem_acc %o : !cta.tmem<128x128xf32> -> !cta.acc<128x128xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: an MMA with its lhs in registers: tcgen05.mma reads A from shared or tensor memory (a cta.tmem tile)}}
    %r = cta.mma %q, %sv, %acc : !cta.frag<128x128xbf16, lhs>, <128x128xbf16, swizzle = "128B">, <128x128xf32>
    cta.yield
  }
  cta.return
}

// -----

cta.program @fp8_tmem_lhs() attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>} {
  %sv = cta.alloc : <128x128xf16, swizzle = "128B">
  %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
  %p = cta.tmem_alloc : !cta.tmem<128x128xf32>
  cta.warp_specialize #cta.role<mma, warps = 1> {
    %acc = cta.tmem_acc %o : !cta.tmem<128x128xf32> -> !cta.acc<128x128xf32>
    // expected-error@+1 {{'cta.mma' op lhs elements 'f32' differ from rhs elements 'f16'}}
    %r = cta.mma %p, %sv, %acc : !cta.tmem<128x128xf32>, <128x128xf16, swizzle = "128B">, <128x128xf32>
    cta.yield
  }
  cta.return
}

// -----

// Block scales with a tensor-memory lhs are not lowered yet (reported, not a
// crash: the scale plan read the lhs as a shared buffer).
cta.program @scaled_tmem(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>} {
  %sv = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  %sa = cta.alloc : !cta.buffer<32x16xf8E8M0FNU>
  %sb = cta.alloc : !cta.buffer<32x16xf8E8M0FNU>
  %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
  %p = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  cta.warp_specialize #cta.role<mma, warps = 1> {
    cta.tile_loop static (%M, %M) tile [128, 128] {
    ^bb0(%m0: index, %n0: index):
    %acc = cta.tmem_acc %o : !cta.tmem<128x128xf32> -> !cta.acc<128x128xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: a block-scaled MMA with its lhs in tensor memory}}
    %r = cta.mma %p, %sv, %acc scales(%sa, %sb) {transpose_b, scale_block = 32 : i64} : !cta.tmem<128x128xbf16>, !cta.buffer<128x128xbf16, swizzle = "128B">, !cta.acc<128x128xf32>, !cta.buffer<32x16xf8E8M0FNU>, !cta.buffer<32x16xf8E8M0FNU>
    }
    cta.yield
  }
  cta.return
}

// -----

// cta.scale_rows of a register fragment: the thread holds its whole row and
// its one factor, and branches around the row's multiplies when it is 1.
// CHECK-LABEL: llvm.func @scale_rows_of_frag(
// CHECK: %[[MOVED:.*]] = arith.cmpf une, %[[F:.*]], %{{.*}} : f32
// CHECK-NEXT: scf.if %[[MOVED]] -> (!llvm.struct<(f32, f32, f32, f32
// CHECK: arith.mulf %{{.*}}, %[[F]] : f32
// CHECK-COUNT-63: arith.mulf %{{.*}}, %[[F]] : f32
// CHECK: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield
cta.program @scale_rows_of_frag(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>} {
  %one = arith.constant 1.0 : f32
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    cta.tile_loop static (%M, %M) tile [128, 64] {
    ^bb0(%m0: index, %n0: index):
      %v = cta.splat %one : f32 -> !cta.frag<128x64xf32, acc>
      %alpha = cta.reduce_rows max %v : !cta.frag<128x64xf32, acc> -> !cta.frag<128xf32, rows>
      %r = cta.scale_rows %v by %alpha : !cta.frag<128x64xf32, acc>, !cta.frag<128xf32, rows>
    }
    cta.yield
  }
  cta.return
}
