
cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
   cta.tile_loop static (%m, %m) tile [129, 128] {

  } {group_m = array<i64: 0, 1>}
  cta.return
}
