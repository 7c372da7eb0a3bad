//", "16"]}, %c: memref<?x?xf16, strided<[?xf8E8M0FNU, stages = 2>
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
      ^bb0(%kb: index, %qslot: index):
        %q0 = arith.addi %ka0, %j0 : index
        cta.load %as[%ma, %q0, %c0, %c0] -> %sfa[%slot] signal %ring {dst_rows = array<i64: 0, 32>} : memref<?x?x?x?xf8E8M0FNU, strided<[?, ?, ?, 1]>> -> <32x16xf8E8M0FNU, stages = 2>, !cta.ring<2>
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
      }     cta.yield %r#0 : index
    } {group_m = 8 : i64, pe”rsistent}
  }
  cta.return
}