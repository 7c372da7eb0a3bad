// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources | FileCheck %s
// The pass recomputes everything: running it twice gives the same IR.
// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --cta-allocate-resources | FileCheck %s

// sm_90a: buffers at 1024-byte boundaries in program order (A: 4 stages of
// 16 KiB, B: 4 of 8 KiB, the staging buffer: 2 of 8 KiB), then the ring's 4
// full and 4 empty mbarriers; the total rounded up to 128 bytes. No tensor
// memory. The math role starts at warp 4 (warpgroup 1); its MMAs are the
// consume step's batch.

// CHECK-LABEL: cta.program @matmul
// CHECK-SAME:    smem_bytes = 114816 : i64
// CHECK-NOT:     tmem_
// CHECK:         cta.alloc {smem_offset = 0 : i64} : <128x64xbf16, stages = 4
// CHECK-NEXT:    cta.alloc {smem_offset = 65536 : i64} : <64x64xbf16, stages = 4
// CHECK-NEXT:    cta.alloc {smem_offset = 98304 : i64} : <64x64xbf16, stages = 2
// CHECK-NEXT:    cta.ring {cluster_size = 2 : i64, consumers = 2 : i64, smem_offset = 114688 : i64} : <4>
// CHECK:         cta.warpgroup_index {first_warpgroup = 1 : i64} : index
// CHECK:         cta.acc_zero : <64x64xf32>
// CHECK:         cta.mma {{.*}} {in_stage, transpose_b}
// CHECK:         cta.store
// CHECK-NOT:     in_epilogue_role
// CHECK-SAME:    {
cta.program @matmul(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>},
                    %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>},
                    %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>},
                    %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 2, 1>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<64x64xbf16, stages = 4, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">
  %ring = cta.ring {cluster_size = 2 : i64, consumers = 2 : i64} : !cta.ring<4>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
    %end = cta.tile_loop static (%M, %N) tile [128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %count = arith.ceildivui %K, %c64 : index
      %next = cta.produce %ring at %pos count %count : !cta.ring<4> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring {multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<64x64xbf16, stages = 4, swizzle = "128B">, !cta.ring<4>
      }
      cta.yield %next : index
    } {cluster = array<i64: 2, 1>, group_m = 8 : i64, persistent}
  } #cta.role<math, warps = 8, regs = 232> {
    %end = cta.tile_loop static (%M, %N) tile [128, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %count = arith.ceildivui %K, %c64 : index
      %wg = cta.warpgroup_index : index
      %row = arith.muli %wg, %c64 : index
      %zero = cta.acc_zero : !cta.acc<64x64xf32>
      %res:2 = cta.consume %ring at %pos count %count iter_args(%zero : !cta.acc<64x64xf32>) : !cta.ring<4> -> !cta.acc<64x64xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
        %p = cta.mma %sa[%slot] rows %row, %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">, !cta.buffer<64x64xbf16, stages = 4, swizzle = "128B">, !cta.acc<64x64xf32>
        cta.yield %p : !cta.acc<64x64xf32>
      }
      %r0 = arith.addi %m0, %row : index
      cta.store %res#1 -> %c[%r0, %n0] staging %sc[%wg] : !cta.acc<64x64xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B"> {
      ^bb0(%e: f32):
        %t = arith.truncf %e : f32 to bf16
        cta.yield %t : bf16
      }
      cta.yield %res#0 : index
    } {cluster = array<i64: 2, 1>, group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// sm_100a with an MMA warp: the accumulator ring's two 128-column sets take
// columns 0..255 (tcgen05.alloc asks for 256), and the slot tcgen05.alloc
// writes their address to follows everything else in shared memory
// (82048; the total grows to 82176). The producer's and the MMA warp's ops
// are issued by one elected thread; the epilogue role's store hands its
// accumulator back through cta.acc_release.

// CHECK-LABEL: cta.program @mma_warp
// CHECK-SAME:    smem_bytes = 82176 : i64, tmem_columns = 256 : i64, tmem_slot = 82048 : i64
// CHECK:         cta.alloc {smem_offset = 0 : i64}
// CHECK-NEXT:    cta.alloc {smem_offset = 32768 : i64}
// CHECK-NEXT:    cta.alloc {smem_offset = 65536 : i64}
// CHECK-NEXT:    cta.ring {consumers = 1 : i64, smem_offset = 81920 : i64} : <2>
// CHECK-NEXT:    cta.acc_ring {consumers = 1 : i64, smem_offset = 81952 : i64, tmem_column = 0 : i64}
// CHECK:         cta.store {{.*}} {in_epilogue_role}
// CHECK:         cta.consume {{.*}} {one_thread}
// CHECK:         cta.mma {{.*}} {in_stage, one_thread, transpose_b}
// CHECK:         cta.acc_commit {{.*}} {one_thread}
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

// Attributes written by hand are overwritten, not trusted.

// CHECK-LABEL: cta.program @stale
// CHECK-SAME:    smem_bytes = 16384 : i64
// CHECK:         cta.alloc {smem_offset = 0 : i64} : <64x64xbf16, stages = 2
cta.program @stale() attributes {chip = #cta.chip<sm_90a>, smem_bytes = 7 : i64} {
  %s = cta.alloc {smem_offset = 12345 : i64} : <64x64xbf16, stages = 2, swizzle = "128B">
  cta.return
}

// -----

// sm_100a attention: the tensor-memory tiles (O in f32, P in bf16: two
// elements per column) come after the accumulators and before the
// accumulator rings; 128 + 64 + 2 x 128 = 448 columns allocate 512.
// CHECK-LABEL: cta.program @tmem_tiles
// CHECK-SAME:    tmem_columns = 512 : i64
// CHECK:         cta.tmem_alloc {tmem_column = 0 : i64} : <128x128xf32>
// CHECK:         cta.tmem_alloc {tmem_column = 128 : i64} : <128x128xbf16>
// CHECK:         cta.acc_ring {consumers = 1 : i64, smem_offset = {{[0-9]+}} : i64, tmem_column = 192 : i64} : <2, [<128x128xf32>]>
cta.program @tmem_tiles() attributes {chip = #cta.chip<sm_100a>} {
  %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
  %p = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  %s = cta.acc_ring {consumers = 1} : !cta.acc_ring<2, [!cta.acc<128x128xf32>]>
  cta.return
}

// -----

// Every accumulator gets its own columns; 512 exist.
// expected-error@+1 {{cta-allocate-resources: the accumulators, tensor-memory tiles and block scales need 768 tensor-memory columns; 512 exist}}
cta.program @too_many_columns() attributes {chip = #cta.chip<sm_100a>} {
  %a = cta.acc_zero : <128x256xf32>
  %b = cta.acc_zero : <128x256xf32>
  %c = cta.acc_zero : <128x256xf32>
  cta.return
}

// -----

// Two buffers of 128 KiB each fit a CTA alone, not together.
// expected-error@+1 {{cta-allocate-resources: the program needs 262144 bytes of shared memory; sm_90a has 232448}}
cta.program @too_much_smem() attributes {chip = #cta.chip<sm_90a>} {
  %s = cta.alloc : <128x128xbf16, stages = 4, swizzle = "128B">
  %t = cta.alloc : <128x128xbf16, stages = 4, swizzle = "128B">
  cta.return
}

// -----

// Without a chip there is no tensor memory to allocate (and no budget to
// check): shared memory only.

// CHECK-LABEL: cta.program @no_chip
// CHECK-SAME:    smem_bytes = 16384 : i64
// CHECK-NOT:     tmem_
// CHECK:         cta.acc_zero : <128x256xf32>
cta.program @no_chip() {
  %s = cta.alloc : <64x64xbf16, stages = 2, swizzle = "128B">
  %a = cta.acc_zero : <128x256xf32>
  cta.return
}

// -----

// A block-scale buffer's tensor-memory region belongs to its cta.alloc; a
// scale chosen at run time between buffers has no one region.
cta.program @chosen_scales() attributes {chip = #cta.chip<sm_100a>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %sa = cta.alloc : <128x256xf4E2M1FN, stages = 3, swizzle = "128B">
  %sb = cta.alloc : <256x256xf4E2M1FN, stages = 3, swizzle = "128B">
  %s1 = cta.alloc : <128x16xf8E4M3FN, stages = 3, swizzle = "none">
  %s2 = cta.alloc : <128x16xf8E4M3FN, stages = 3, swizzle = "none">
  %s3 = cta.alloc : <256x16xf8E4M3FN, stages = 3, swizzle = "none">
  %chosen = scf.if %true -> (!cta.buffer<128x16xf8E4M3FN, stages = 3, swizzle = "none">) {
    scf.yield %s1 : !cta.buffer<128x16xf8E4M3FN, stages = 3, swizzle = "none">
  } else {
    scf.yield %s2 : !cta.buffer<128x16xf8E4M3FN, stages = 3, swizzle = "none">
  }
  %acc = cta.acc_zero : <128x256xf32>
  // expected-error@+1 {{cta-allocate-resources: block scales must come from a cta.alloc}}
  %d = cta.mma %sa[%c0], %sb[%c0], %acc scales(%chosen, %s3) scale_slots(%c0, %c0) {scale_block = 16 : i64, transpose_b} : !cta.buffer<128x256xf4E2M1FN, stages = 3, swizzle = "128B">, <256x256xf4E2M1FN, stages = 3, swizzle = "128B">, <128x256xf32>, !cta.buffer<128x16xf8E4M3FN, stages = 3, swizzle = "none">, !cta.buffer<256x16xf8E4M3FN, stages = 3, swizzle = "none">
  cta.return
}
