// A pipelined MXFP8 matmul in cta IR (input of test/Driver/sm100-block-scaled.test):
// 128x256 tiles, two stages; each stage's scale-factor atoms come in by TMA from the
// [row atoms, K atoms, 32, 16] scale tensors, one 512-byte atom per copy.
cta.program @mxfp8_matmul(%a: memref<?x?xf8E4M3FN, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %as: memref<?x?x?x?xf8E8M0FNU, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"a.scale", scale, [cdiv(M, 128), cdiv(K, 128), 32, 16], of = "a", block = [1, 32]>}, %b: memref<?x?xf8E4M3FN, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %bs: memref<?x?x?x?xf8E8M0FNU, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"b.scale", scale, [cdiv(N, 128), cdiv(K, 128), 32, 16], of = "b", block = [1, 32]>}, %c: memref<?x?xf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : <128x128xf8E4M3FN, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <256x128xf8E4M3FN, stages = 2, swizzle = "128B">
  %sfa = cta.alloc : <32x16xf8E8M0FNU, stages = 2>
  %sfb = cta.alloc : <64x16xf8E8M0FNU, stages = 2>
  %sc = cta.alloc : <128x64xf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    %p = cta.tile_loop static (%M, %N) tile [128, 256] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c128 : index
      %ma = arith.divui %m0, %c128 : index
      %nb = arith.divui %n0, %c128 : index
      %nb1 = arith.addi %nb, %c1 : index
      %next = cta.produce %ring at %pos count %kt : <2> {
      ^bb0(%kb: index, %slot: index):
        %k0 = arith.muli %kb, %c128 : index
        %ka0 = arith.muli %kb, %c1 : index
        cta.load %a[%m0, %k0] -> %sa[%slot] signal %ring : memref<?x?xf8E4M3FN, strided<[?, 1]>> -> <128x128xf8E4M3FN, stages = 2, swizzle = "128B">, !cta.ring<2>
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring : memref<?x?xf8E4M3FN, strided<[?, 1]>> -> <256x128xf8E4M3FN, stages = 2, swizzle = "128B">, !cta.ring<2>
        %j0 = arith.constant 0 : index
        %q0 = arith.addi %ka0, %j0 : index
        cta.load %as[%ma, %q0, %c0, %c0] -> %sfa[%slot] signal %ring {dst_rows = array<i64: 0, 32>} : memref<?x?x?x?xf8E8M0FNU, strided<[?, ?, ?, 1]>> -> <32x16xf8E8M0FNU, stages = 2>, !cta.ring<2>
        cta.load %bs[%nb, %q0, %c0, %c0] -> %sfb[%slot] signal %ring {dst_rows = array<i64: 0, 32>} : memref<?x?x?x?xf8E8M0FNU, strided<[?, ?, ?, 1]>> -> <64x16xf8E8M0FNU, stages = 2>, !cta.ring<2>
        cta.load %bs[%nb1, %q0, %c0, %c0] -> %sfb[%slot] signal %ring {dst_rows = array<i64: 32, 64>} : memref<?x?x?x?xf8E8M0FNU, strided<[?, ?, ?, 1]>> -> <64x16xf8E8M0FNU, stages = 2>, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<math, warps = 4, regs = 240> {
    %p = cta.tile_loop static (%M, %N) tile [128, 256] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      %kt = arith.ceildivui %K, %c128 : index
      %zero = cta.acc_zero : <128x256xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x256xf32>) : <2> -> !cta.acc<128x256xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x256xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc scales(%sfa, %sfb) scale_slots(%slot, %slot) {transpose_b, scale_block = 32 : i64} : !cta.buffer<128x128xf8E4M3FN, stages = 2, swizzle = "128B">, <256x128xf8E4M3FN, stages = 2, swizzle = "128B">, <128x256xf32>, !cta.buffer<32x16xf8E8M0FNU, stages = 2>, !cta.buffer<64x16xf8E8M0FNU, stages = 2>
        cta.yield %d : !cta.acc<128x256xf32>
      }
      cta.store %r#1 -> %c[%m0, %n0] staging %sc : !cta.acc<128x256xf32> -> memref<?x?xf16, strided<[?, 1]>>, !cta.buffer<128x64xf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to f16
        cta.yield %t : f16
      }
      cta.yield %r#0 : index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}