cta.program @p(%M: index {cta.dim = #cta.dim<M>}) {
  %c0 = arith.constant 0 : index
  cta.warp_specialize
    #cta.role<producer, warps = 4> {
      %u = arith.addi %slot, %slot : index
    }
    #cta.role<math, warps = 4> {
      %p = cta.tile_loop static (%M, %M) tile [128, 128] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %slot: index):
        cta.yield %slot : index
      } {pe!rsistent}
    }
  cta.return
}
