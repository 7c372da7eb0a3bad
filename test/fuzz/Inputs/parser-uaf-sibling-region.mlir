// OPEN kiln-fuzz-ir finding (2026-11-23), not a lit test (Inputs/ is not run):
// a use-after-free while MLIR unwinds a failed parse. %slot is used in the
// producer role before any definition, so the parser makes a forward
// reference; the math role's tile_loop then defines %slot as a block argument
// and the reference resolves to it across the sibling regions. The tile_loop's
// attribute dictionary is malformed, so its (generated) parser fails and frees
// its region, %slot included, while the producer's arith.addi still uses it;
// destroying the warp_specialize then writes into the freed use list (valgrind:
// "Invalid write of size 8" in Operation::dropAllReferences; glibc aborts with
// "unaligned tcache chunk"). Reproduce: valgrind -q build/bin/kiln-opt THIS_FILE
cta.program @p(%M: index {cta.dim = "M"}) {
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
