// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm=chip=sm_90a | FileCheck %s
// RUN: not kiln-opt %s -split-input-file --cta-allocate-resources --convert-cta-to-nvvm=chip=sm_100a 2>&1 | FileCheck %s --check-prefix=SM100

// Register fragments on sm_90a (compiler/Target/WgmmaFragment.h): an acc
// fragment is the accumulator's struct (register i at
// wgmmaAccumulatorCoord), a rows vector the thread's two rows per 64-row
// fragment, a cols vector its C/4 columns, an lhs fragment C/16 K steps of 4
// b32 registers. ptxas assembles a program using all of them (test/Driver/
// sm90-attention.test) and test/gpu/test_attention_probe.py runs it against
// a float32 reference. sm_100a's register tiles are 128 rows, one per
// thread (convert-cta-to-nvvm-sm100-registers.mlir), so it refuses these.

// SM100: a 64-row !cta.frag<64xf32, rows>; on sm_100a register tiles have one row per thread of a warpgroup (128)
// SM100: a 64-row !cta.acc<64x64xf32>; on sm_100a an accumulator has one row per tensor-memory lane (128)

// cta.splat: every register holds the value; an lhs fragment packs two
// copies per b32 register.
// CHECK-LABEL: llvm.func @splat(
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[ROWS:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
// CHECK: llvm.insertvalue %[[NINF]], %[[ROWS]][0] : !llvm.struct<(f32, f32)>
// CHECK: llvm.insertvalue %[[NINF]], %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: llvm.mlir.undef : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
cta.program @splat(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %ninf = arith.constant 0xFF800000 : f32
    %one = arith.constant 1.0 : bf16
    %m = cta.splat %ninf : f32 -> !cta.frag<64xf32, rows>
    %p = cta.splat %one : bf16 -> !cta.frag<64x64xbf16, lhs>
  }
  cta.return
}

// -----

// cta.reduce_rows: per row half, a tree over the thread's registers of that
// row, then one xor-shuffle per quad lane bit (wgmmaRowReductionShuffleMasks
// = {1, 2}). max is arith.maximumf (-inf stays -inf), sum arith.addf.
// CHECK-LABEL: llvm.func @reduce_rows(
// CHECK-COUNT-14: arith.maximumf
// CHECK: %[[MAX:.*]] = arith.maximumf
// CHECK: %[[S1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[MAX]], %[[ONE:.*]], %{{.*}} : f32 -> f32
// CHECK: %[[M1:.*]] = arith.maximumf %[[MAX]], %[[S1]] : f32
// CHECK: %[[S2:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[M1]], %[[TWO:.*]], %{{.*}} : f32 -> f32
// CHECK: arith.maximumf %[[M1]], %[[S2]] : f32
// CHECK-COUNT-15: arith.maximumf
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.insertvalue {{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK-COUNT-15: arith.addf
// CHECK: nvvm.shfl.sync bfly
// CHECK: arith.addf
// CHECK: nvvm.shfl.sync bfly
// CHECK: arith.addf
cta.program @reduce_rows(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %m = cta.reduce_rows max %z : !cta.acc<64x64xf32> -> !cta.frag<64xf32, rows>
    %s = cta.reduce_rows sum %z : !cta.acc<64x64xf32> -> !cta.frag<64xf32, rows>
  }
  cta.return
}

// -----

// cta.frag_map: the body once per register, with the register's row
// (16w + l/4 + 8 * ((i/2) % 2)) and column (2 * (l%4) + 8 * (i/4) + i%2)
// in the tile, the acc input's register i and the rows vector's register
// (i/2) % 2. Register 3: row + 8, column + 1. The lane comes from a
// side-effecting read of %tid.x at the map, so LLVM recomputes each
// register's row and column there (an add of an immediate) instead of
// hoisting one register per column out of an enclosing loop.
// CHECK-LABEL: llvm.func @frag_map(
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.u32 $0, %tid.x;", "=r"  : () -> i32
// CHECK: llvm.insertvalue %{{.*}}[2] : !llvm.struct<(f32, f32, f32
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[ROW3:.*]] = arith.addi %{{.*}}, %[[C8]] overflow<nsw, nuw> : i32
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[COL3:.*]] = arith.addi %{{.*}}, %[[C1]] overflow<nsw, nuw> : i32
// CHECK-NEXT: %[[I:.*]] = arith.index_castui %[[ROW3]] : i32 to index
// CHECK-NEXT: %[[J:.*]] = arith.index_castui %[[COL3]] : i32 to index
// CHECK-NEXT: %[[X:.*]] = llvm.extractvalue %{{.*}}[3] : !llvm.struct<(f32, {{.*}})>
// CHECK-NEXT: %[[M:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: %[[MASKED:.*]] = arith.cmpi ugt, %[[J]], %[[I]] : index
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp2 %[[D]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[MASKED]], %{{.*}}, %[[E]] : f32
// CHECK-NEXT: llvm.insertvalue %[[R]], %{{.*}}[3]
cta.program @frag_map(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %m = cta.splat %zero : f32 -> !cta.frag<64xf32, rows>
    %p = cta.frag_map %z, %m : !cta.acc<64x64xf32>, !cta.frag<64xf32, rows> -> !cta.frag<64x64xf32, acc> {
    ^bb0(%i: index, %j: index, %x: f32, %y: f32):
      %masked = arith.cmpi ugt, %j, %i : index
      %d = arith.subf %x, %y : f32
      %e = math.exp2 %d : f32
      %r = arith.select %masked, %ninf, %e : f32
      cta.yield %r : f32
    }
  }
  cta.return
}

// -----

// A map over rows vectors computes a rows vector; a cols vector broadcasts
// along rows (register 2 * (i/4) + i%2).
// CHECK-LABEL: llvm.func @vectors(
// CHECK: %[[A:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: %[[B:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: arith.maximumf %[[A]], %[[B]] : f32
// CHECK: llvm.extractvalue %{{.*}}[5] : !llvm.struct<(f32, {{.*}})>
// CHECK-NEXT: llvm.extractvalue %{{.*}}[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT: arith.mulf
cta.program @vectors(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = arith.constant 0.0 : f32
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %m = cta.splat %zero : f32 -> !cta.frag<64xf32, rows>
    %n = cta.splat %zero : f32 -> !cta.frag<64xf32, cols>
    %mx = cta.frag_map %m, %m : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
    ^bb0(%i: index, %j: index, %a: f32, %b: f32):
      %r = arith.maximumf %a, %b : f32
      cta.yield %r : f32
    }
    %scaled = cta.frag_map %z, %n : !cta.acc<64x64xf32>, !cta.frag<64xf32, cols> -> !cta.acc<64x64xf32> {
    ^bb0(%i: index, %j: index, %x: f32, %s: f32):
      %r = arith.mulf %x, %s : f32
      cta.yield %r : f32
    }
  }
  cta.return
}

// -----

// cta.convert packs accumulator registers 8j + 2q and 8j + 2q + 1 into
// lhs register 4j + q (accumulatorRegisterForA), low half first: rounding
// only, no data moves between threads.
// CHECK-LABEL: llvm.func @convert_and_register_lhs(
// CHECK: %[[LO:.*]] = llvm.extractvalue %[[S:.*]][10] : !llvm.struct<(f32, {{.*}})>
// CHECK-NEXT: %[[LO16:.*]] = arith.truncf %[[LO]] : f32 to bf16
// CHECK-NEXT: %[[HI:.*]] = llvm.extractvalue %[[S]][11]
// CHECK-NEXT: %[[HI16:.*]] = arith.truncf %[[HI]] : f32 to bf16
// CHECK: %[[V0:.*]] = llvm.insertelement %[[LO16]], %{{.*}}[%{{.*}} : i32] : vector<2xbf16>
// CHECK: llvm.insertelement %[[HI16]], %[[V0]][%{{.*}} : i32] : vector<2xbf16>
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: llvm.insertvalue %{{.*}}[5] : !llvm.struct<(i32, {{.*}})>
// An MMA with its lhs in registers: wgmma with A from 4 b32 registers per K
// step and B from its descriptor, as inline asm (MLIR 22's
// nvvm.wgmma.mma_async takes A only as a descriptor), fenced, committed and
// waited for like the shared-memory form; scale-d 0 on the first K step of
// an MMA that overwrites.
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $69, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, $1, {{.*}}, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 0;\0A}", "=f,{{.*}},=f,0,1,{{.*}},31,r,r,r,r,l,n" {{.*}} %c0_i32{{.*}} : (f32, {{.*}}, i32, i32, i32, i32, i64, i32) -> !llvm.struct<(f32
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}} %c1_i32
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
cta.program @convert_and_register_lhs(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %false = arith.constant false
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %p = cta.convert %z : !cta.acc<64x64xf32> -> !cta.frag<64x64xbf16, lhs>
    %o = cta.mma %p, %sa, %z accumulate %false {transpose_b} : !cta.frag<64x64xbf16, lhs>, !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

// A register lhs with an rhs stored [K, N] (attention's O += P V with V as
// stored): B is read MN-major, imm-trans-b 1 (the register form's last
// immediate; it has no imm-trans-a). The rhs is 128 K rows of two
// 64-column blocks: LBO 16384 B (128 rows x 128 B), SBO 1024 B,
// 0x4000004004000000, and each k16 step advances 16 rows (+128).
// CHECK-LABEL: llvm.func @mn_major_rhs_register_lhs(
// CHECK: %[[HI:.*]] = arith.constant 4611686293372403712 : i64
// CHECK: %[[DB:.*]] = arith.ori %{{.*}}, %[[HI]] : i64
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $133, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, $1, {{.*}}, $63}, {$128, $129, $130, $131}, $132, p, 1, 1, 1;\0A}"
// CHECK: arith.addi %[[DB]], %c128_i64 : i64
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}} p, 1, 1, 1;
// CHECK: arith.addi %[[DB]], %c896_i64 : i64
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}} p, 1, 1, 1;
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
cta.program @mn_major_rhs_register_lhs(%c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sv = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 128] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x128xf32>
    %p = cta.convert %z : !cta.acc<64x128xf32> -> !cta.frag<64x128xbf16, lhs>
    %o = cta.mma %p, %sv, %z : !cta.frag<64x128xbf16, lhs>, !cta.buffer<128x128xbf16, swizzle = "128B">, !cta.acc<64x128xf32>
  }
  cta.return
}

// -----

// A stage that computes on registers (attention's softmax reads S) completes
// its batch in the step (wait_group 0) and goes back to the producer right
// then, not one step later: with two stages, a release one step late would
// leave the producer no stage to fill ahead. Nothing is released after the
// loop.
// CHECK-LABEL: llvm.func @register_math_stage(
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           nvvm.shfl.sync bfly
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT:       scf.yield
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           scf.yield
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT:     nvvm.mbarrier.arrive
// CHECK:         llvm.return
cta.program @register_math_stage(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sq = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  %sk = cta.alloc : !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">
  %ring = cta.ring {consumers = 2 : i64} : !cta.ring<2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 8, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %next, %o = cta.consume %ring at %c0 count %c4 iter_args(%z : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x64xf32> {
    ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
      %s = cta.mma %sq, %sk[%slot], %z {in_stage, transpose_b} : !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">, !cta.acc<64x64xf32>
      %m = cta.reduce_rows max %s : !cta.acc<64x64xf32> -> !cta.frag<64xf32, rows>
      %p = cta.frag_map %s, %m : !cta.acc<64x64xf32>, !cta.frag<64xf32, rows> -> !cta.frag<64x64xf32, acc> {
      ^bb0(%row: index, %col: index, %x: f32, %y: f32):
        %d = arith.subf %x, %y : f32
        cta.yield %d : f32
      }
      %pb = cta.convert %p : !cta.frag<64x64xf32, acc> -> !cta.frag<64x64xbf16, lhs>
      %o2 = cta.mma %pb, %sk[%slot], %acc {in_stage} : !cta.frag<64x64xbf16, lhs>, !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">, !cta.acc<64x64xf32>
      cta.yield %o2 : !cta.acc<64x64xf32>
    }
    }
  }
  cta.return
}

// -----

// A key step with explicit stages and asynchronous MMAs (attention's
// pipelined key loop): a stage wait is the full barrier's try_wait at the
// position's slot and parity; each asynchronous MMA is fenced and committed
// as its own group and not waited for; cta.mma_wait is wait_group with the
// MMAs issued after it left in flight (1, then 0), then its registers
// pinned; a stage release is lane 0's arrival on the empty barrier. The
// loop carries the accumulator and P through scf.for (structural type
// conversion).
// CHECK-LABEL: llvm.func @key_step(
// CHECK:         scf.for {{.*}} -> (!llvm.struct<(f32, {{.*}})>, !llvm.struct<(i32, {{.*}})>) {
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK:           nvvm.wgmma.mma_async
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT:       nvvm.wgmma.wait.group
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK:           wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT:      llvm.extractvalue
// CHECK:           llvm.inline_asm has_side_effects asm_dialect = att "", "=f,
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           nvvm.shfl.sync bfly
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:      llvm.extractvalue
// CHECK:           llvm.inline_asm has_side_effects asm_dialect = att "", "=f,
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           scf.yield
cta.program @key_step(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sq = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  %sk = cta.alloc : !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">
  %sv = cta.alloc : !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">
  %kr = cta.ring {consumers = 2 : i64} : !cta.ring<2>
  %vr = cta.ring {consumers = 2 : i64} : !cta.ring<2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 8, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      %p0 = cta.convert %z : !cta.acc<64x64xf32> -> !cta.frag<64x64xbf16, lhs>
      %r:2 = scf.for %j = %c1 to %c4 step %c1 iter_args(%o = %z, %p = %p0) -> (!cta.acc<64x64xf32>, !cta.frag<64x64xbf16, lhs>) {
        %prev = arith.subi %j, %c1 : index
        %ks = cta.stage_wait %kr at %j : !cta.ring<2>
        %vs = cta.stage_wait %vr at %prev : !cta.ring<2>
        %sz = cta.acc_zero : !cta.acc<64x64xf32>
        %s = cta.mma %sq, %sk[%ks], %sz {async, transpose_b} : !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">, !cta.acc<64x64xf32>
        %op = cta.mma %p, %sv[%vs], %o {async} : !cta.frag<64x64xbf16, lhs>, !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">, !cta.acc<64x64xf32>
        %sr = cta.mma_wait %s later 1 : !cta.acc<64x64xf32>
        cta.stage_release %kr at %j : !cta.ring<2>
        %m = cta.reduce_rows max %sr : !cta.acc<64x64xf32> -> !cta.frag<64xf32, rows>
        %e = cta.frag_map %sr, %m : !cta.acc<64x64xf32>, !cta.frag<64xf32, rows> -> !cta.frag<64x64xf32, acc> {
        ^bb0(%row: index, %col: index, %x: f32, %y: f32):
          %d = arith.subf %x, %y : f32
          cta.yield %d : f32
        }
        %or = cta.mma_wait %op later 0 : !cta.acc<64x64xf32>
        cta.stage_release %vr at %prev : !cta.ring<2>
        %pn = cta.convert %e : !cta.frag<64x64xf32, acc> -> !cta.frag<64x64xbf16, lhs>
        scf.yield %or, %pn : !cta.acc<64x64xf32>, !cta.frag<64x64xbf16, lhs>
      }
    }
  }
  cta.return
}

// -----

// What sm_90a does not lower: register tiles that are not whole wgmma
// fragments.
cta.program @f(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = arith.constant 0.0 : f32
    // expected-error@+1 {{convert-cta-to-nvvm: a 32-row !cta.frag<32xf32, rows>; on sm_90a register tiles are whole 64-row wgmma fragments}}
    %m = cta.splat %zero : f32 -> !cta.frag<32xf32, rows>
  }
  cta.return
}

// -----

// MMA turns (ping-pong): warpgroup w's turn is named barrier 8 + w; `wait`
// syncs there with 256 threads (its own 128 and the previous warpgroup's
// `pass`), `pass` arrives at the next warpgroup's, `start` lets the last
// warpgroup hand the first turn to warpgroup 0.
// CHECK-LABEL: llvm.func @turns(
// CHECK:         %[[LAST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK:         scf.if %[[LAST]] {
// CHECK:           nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:         nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:         arith.remui
// CHECK:         nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
cta.program @turns(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 8, regs = 240> {
    %wg = cta.warpgroup_index : index
    cta.mma_turn start %wg of 2
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      cta.mma_turn wait %wg of 2
      cta.mma_turn pass %wg of 2
    }
  }
  cta.return
}

// -----

// cta.store_rows: the entry gets the destination's pointer and strides; the
// thread holding column 0 of its rows (wgmmaPairColumn = 0: one per quad)
// writes each of its two rows, rounded to the destination's type, where the
// row is below the last extent (S) and the row limit.
// CHECK-LABEL: llvm.func @store_rows(
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1>, %[[STRIDE:.*]]: i64, %{{.*}}: i32, %[[S:[^:]*]]: i32
// CHECK:         %[[LIMIT:.*]] = arith.minui %[[S]], %{{.*}} : i32
// CHECK:         arith.muli %{{.*}}, %[[STRIDE]] : i64
// CHECK:         %[[WRITER:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK:         %[[BELOW:.*]] = arith.cmpi ult, %{{.*}}, %[[LIMIT]] : i32
// CHECK:         %[[W:.*]] = arith.andi %[[WRITER]], %[[BELOW]] : i1
// CHECK:         scf.if %[[W]] {
// CHECK:           llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK:           llvm.store %{{.*}}, %{{.*}} : bf16, !llvm.ptr<1>
// CHECK:         arith.truncf
// CHECK:         scf.if
// CHECK:           llvm.store
// CHECK-NOT:     llvm.store
// CHECK:         llvm.return
cta.program @store_rows(%lse: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"lse", output, [H, S]>}, %H: index {cta.dim = #cta.dim<H>}, %S: index {cta.dim = #cta.dim<S>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c64 = arith.constant 64 : index
    cta.tile_loop batched (%H, %S, %c64) tile [1, 64, 64] {
    ^bb0(%h: index, %s0: index, %n0: index):
      %half = arith.constant 0.5 : f32
      %v = cta.splat %half : f32 -> !cta.frag<64xf32, rows>
      %c100 = arith.constant 100 : index
      cta.store_rows %v -> %lse[%h, %s0] row_limit %c100 : !cta.frag<64xf32, rows> -> memref<?x?xbf16, strided<[?, 1]>>
    }
  }
  cta.return
}

// -----

// cta.combine_cols: the thread's 16 registers of a 64x32 tile as the
// identity at rows at or past the slice's limit (M - m0), folded per column
// slot (8); the slots, padded to 16, reduce-scattered among the eight lanes
// holding the same columns (wgmmaColumnReductionShuffleMasks: 8 shuffles at
// xor 16, 4 at 8, 2 at 4); each lane adds its two slots into their columns
// (its first slot at 8 * (first / 2) past its pair column, first from the
// lane's bits 2-4) where the slot is real and the column below N.
// CHECK-LABEL: llvm.func @combine_cols(
// CHECK-SAME:    %[[C:[^:]*]]: !llvm.ptr<1>, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32
// CHECK:         arith.cmpi slt, %{{.*}}, %[[LEFT:[^ ]*]] : i32
// CHECK-COUNT-15: arith.cmpi slt, %{{.*}}, %[[LEFT]] : i32
// CHECK-COUNT-8: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c16_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK-COUNT-4: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c8_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK-COUNT-2: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         %[[REAL:.*]] = arith.cmpi ult, %{{.*}}, %c8_i32{{.*}} : i32
// CHECK:         %[[BELOW:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : i32
// CHECK:         %[[W:.*]] = arith.andi %[[REAL]], %[[BELOW]] : i1
// CHECK:         scf.if %[[W]] {
// CHECK:           %[[AT:.*]] = llvm.getelementptr %[[C]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:           llvm.atomicrmw fadd %[[AT]], %{{.*}} syncscope("device") monotonic : !llvm.ptr<1>, f32
// CHECK:         scf.if
// CHECK:           llvm.atomicrmw fadd
// CHECK-NOT:     llvm.atomicrmw
// CHECK:         llvm.return
cta.program @combine_cols(%x: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x", input, [M, N]>}, %c: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"c", output, [N]>}, %M: index {cta.dim = #cta.dim<M>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    cta.tile_loop static (%M, %N) tile [64, 32] {
    ^bb0(%m0: index, %n0: index):
      %half = arith.constant 0.5 : f32
      %v = cta.splat %half : f32 -> !cta.frag<64x32xf32, acc>
      cta.combine_cols sum %v rows [%m0, %M) -> %c[%n0] : !cta.frag<64x32xf32, acc> -> memref<?xf32, strided<[1]>>
    }
  }
  cta.return
}

// -----

// cta.read_vector and cta.read_scalar: plain loads through the read-only
// cache (invariant), every index clamped to its axis's last position (a
// cdiv(K, 128) extent computed from K): a rows vector is the thread's two
// rows per fragment (2 loads), a cols vector its C/4 columns (4 of 16), a
// scalar one load.
// CHECK-LABEL: llvm.func @reads(
// CHECK-SAME:    %[[SA:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i64, %[[SB:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i64, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: i64, %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32
// CHECK:         arith.ceildivui %[[K]], %c128_i32{{.*}} : i32
// CHECK:         llvm.getelementptr %[[SA]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.load %{{.*}} invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-COUNT-5: llvm.load %{{.*}} invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK:         llvm.getelementptr %[[SB]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.load %{{.*}} invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NOT:     llvm.load
cta.program @reads(%x: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x", input, [M, K]>}, %sa: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"sa", input, [M, cdiv(K, 128)]>}, %sb: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"sb", input, [cdiv(M, 128), cdiv(K, 128)]>}, %c: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    cta.tile_loop static (%M, %M) tile [64, 16] {
    ^bb0(%m0: index, %n0: index):
      %rows = cta.read_vector %sa[%m0, %n0] : memref<?x?xf32, strided<[?, 1]>> -> !cta.frag<64xf32, rows>
      %cols = cta.read_vector %sa[%n0, %m0] : memref<?x?xf32, strided<[?, 1]>> -> !cta.frag<16xf32, cols>
      %s = cta.read_scalar %sb[%m0, %n0] : memref<?x?xf32, strided<[?, 1]>>
      %v = cta.splat %s : f32 -> !cta.frag<64xf32, rows>
      %p = cta.frag_map %rows, %cols, %v : !cta.frag<64xf32, rows>, !cta.frag<16xf32, cols>, !cta.frag<64xf32, rows> -> !cta.frag<64x16xf32, acc> {
      ^bb0(%i: index, %j: index, %r: f32, %q: f32, %t: f32):
        %a = arith.mulf %r, %q : f32
        %b = arith.mulf %a, %t : f32
        cta.yield %b : f32
      }
      cta.store_rows %rows -> %c[%m0, %n0] : !cta.frag<64xf32, rows> -> memref<?x?xf32, strided<[?, 1]>>
    }
  }
  cta.return
}

// -----

// A pipelined stage that promotes its product into a running sum (fp8 with
// f32 block scales): the MMA commits its wgmmas and waits for them before
// the promotion reads them, and the step adds no commit group of its own
// (an empty group still issues a placeholder wgmma, which would wait behind
// the other warpgroup's MMAs). One commit and one wait per K step, the
// stage released after the promotion.
// CHECK-LABEL: llvm.func @promoted_stage(
// CHECK:         scf.for
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK-COUNT-4:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>
// CHECK-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT:       nvvm.wgmma.commit.group.sync.aligned
// CHECK:           math.fma
// CHECK-NOT:       nvvm.wgmma
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           scf.yield
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
cta.program @promoted_stage(%a: memref<?x?xf8E4M3FN, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %sa: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"sa", input, [M, cdiv(K, 128)]>}, %b: memref<?x?xf8E4M3FN, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 256, 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %false = arith.constant false
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %ta = cta.alloc : <64x128xf8E4M3FN, stages = 2, swizzle = "128B">
  %tb = cta.alloc : <128x128xf8E4M3FN, stages = 2, swizzle = "128B">
  %st = cta.alloc : <64x128xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
    %r = cta.tile_loop static (%M, %N) tile [64, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %steps = arith.ceildivui %K, %c128 : index
      %next = cta.produce %ring at %pos count %steps : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c128 : index
        cta.load %a[%m0, %k0] -> %ta[%slot] signal %ring : memref<?x?xf8E4M3FN, strided<[?, 1]>> -> <64x128xf8E4M3FN, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %tb[%slot] signal %ring : memref<?x?xf8E4M3FN, strided<[?, 1]>> -> <128x128xf8E4M3FN, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    }
  } #cta.role<math, warps = 4, regs = 232> {
    %r = cta.tile_loop static (%M, %N) tile [64, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %steps = arith.ceildivui %K, %c128 : index
      %z0 = cta.acc_zero : <64x128xf32>
      %next, %sum = cta.consume %ring at %pos count %steps iter_args(%z0 : !cta.acc<64x128xf32>) : <2> -> !cta.acc<64x128xf32> {
      ^bb0(%kb: index, %slot: index, %run: !cta.acc<64x128xf32>):
        %s = cta.read_vector %sa[%m0, %kb] : memref<?x?xf32, strided<[?, 1]>> -> !cta.frag<64xf32, rows>
        %z = cta.acc_zero : <64x128xf32>
        %p = cta.mma %ta[%slot], %tb[%slot], %z accumulate %false {in_stage, transpose_b} : !cta.buffer<64x128xf8E4M3FN, stages = 2, swizzle = "128B">, <128x128xf8E4M3FN, stages = 2, swizzle = "128B">, <64x128xf32>
        %u = cta.frag_map %run, %p, %s : !cta.acc<64x128xf32>, !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> -> !cta.acc<64x128xf32> {
        ^bb0(%i: index, %j: index, %x: f32, %y: f32, %t: f32):
          %f = math.fma %y, %t, %x : f32
          cta.yield %f : f32
        }
        cta.yield %u : !cta.acc<64x128xf32>
      }
      cta.store %sum -> %c[%m0, %n0] staging %st : !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %h = arith.truncf %v : f32 to bf16
        cta.yield %h : bf16
      }
      cta.yield %next : index
    }
  }
  cta.return
}

// -----

// cta.scale_rows: the thread's two row factors compared with 1 (une: a NaN
// factor multiplies), then one branch around the multiplies of all its
// registers; the other branch keeps the accumulator as it is.
// CHECK-LABEL: llvm.func @scale_rows(
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[F0:.*]] = llvm.extractvalue %[[ALPHA:.*]][0] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: %[[D0:.*]] = arith.cmpf une, %[[F0]], %[[ONE]] : f32
// CHECK-NEXT: %[[F1:.*]] = llvm.extractvalue %[[ALPHA]][1] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: %[[D1:.*]] = arith.cmpf une, %[[F1]], %[[ONE]] : f32
// CHECK-NEXT: %[[MOVED:.*]] = arith.ori %[[D0]], %[[D1]] : i1
// CHECK-NEXT: %[[O:.*]] = scf.if %[[MOVED]] -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
// CHECK-COUNT-2: arith.mulf
// CHECK: %[[A2:.*]] = llvm.extractvalue %[[ALPHA]][1] : !llvm.struct<(f32, f32)>
// CHECK-NEXT: %[[X2:.*]] = llvm.extractvalue %[[ACC:.*]][2] : !llvm.struct
// CHECK-NEXT: arith.mulf %[[X2]], %[[A2]] : f32
// CHECK-COUNT-29: arith.mulf
// CHECK: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ACC]]
cta.program @scale_rows(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %alpha = cta.reduce_rows max %z : !cta.acc<64x64xf32> -> !cta.frag<64xf32, rows>
    %o = cta.scale_rows %z by %alpha : !cta.acc<64x64xf32>, !cta.frag<64xf32, rows>
  }
  cta.return
}
