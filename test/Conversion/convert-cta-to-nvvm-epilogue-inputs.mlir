// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm | FileCheck %s

// convert-cta-to-nvvm on stores whose epilogue reads other tensors. Epilogue
// inputs are read with plain loads, so each gets a pointer parameter (and a
// row stride when it has rows) after the stores' tma_ok flags; each element
// the epilogue needs is loaded without a branch, at its position clamped into
// the tensor, and selected away outside the output's extents (zero there), at
// the position its kind gives: per_col at the element's column,
// per_row at its row, tile at both, scalar at 0. Within a 128-byte column
// block, an input that does not vary along an axis is read once per row or
// column, not once per element.

// One input of each kind: bias [N] (per_col, a rank-1 tensor: no stride),
// scale [M, 1] (per_row), res [M, N] (tile), alpha [1] (scalar).
// CHECK-LABEL: llvm.func @each_kind(
// CHECK-SAME:    %[[MAP_C:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[TMA_OK:[^:]*]]: i32, %[[PTR_C:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_C:[^:]*]]: i64,
// CHECK-SAME:    %[[PTR_BIAS:[^:]*]]: !llvm.ptr<1>,
// CHECK-SAME:    %[[PTR_SCALE:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_SCALE:[^:]*]]: i64,
// CHECK-SAME:    %[[PTR_RES:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_RES:[^:]*]]: i64,
// CHECK-SAME:    %[[PTR_ALPHA:[^:]*]]: !llvm.ptr<1>,
// CHECK-SAME:    %[[DIM_M:[^:]*]]: i32, %[[DIM_N:[^:]*]]: i32)
// Inputs read with plain loads need only their elements' alignment.
// CHECK-SAME:    kernel_args = [{kind = "tensor_map", map = 0 : i64}, {kind = "tma_ok", map = 0 : i64},
// CHECK-SAME:    {kind = "pointer", param = "c"}, {axis = 0 : i64, kind = "stride", param = "c"},
// CHECK-SAME:    {kind = "pointer", param = "bias"},
// CHECK-SAME:    {kind = "pointer", param = "scale"}, {axis = 0 : i64, kind = "stride", param = "scale"},
// CHECK-SAME:    {kind = "pointer", param = "res"}, {axis = 0 : i64, kind = "stride", param = "res"},
// CHECK-SAME:    {kind = "pointer", param = "alpha"},
// CHECK-SAME:    {dim = "M", kind = "dim"}, {dim = "N", kind = "dim"}],
// Inputs read with plain loads need only their elements' alignment.
// CHECK-SAME:    params = [{align = 2 : i64, dtype = "bf16", name = "bias", role = "input", shape = ["N"]},
// The first element's inputs, in epilogue order. bias: masked by the column.
// CHECK:         arith.cmpi ult, %[[BCOL:.*]], %[[DIM_N]] : i32
// CHECK:         %[[BLAST:.*]] = arith.subi %[[DIM_N]], %{{.*}} : i32
// CHECK-NEXT:    %[[BCLAMP:.*]] = arith.minui %[[BCOL]], %[[BLAST]] : i32
// CHECK:         %[[AT:.*]] = llvm.getelementptr %[[PTR_BIAS]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[AT]] : !llvm.ptr<1> -> bf16
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-NEXT:    %[[BIAS:.*]] = arith.select %{{.*}}, %[[V]], %[[ZERO]] : bf16
// scale: masked by the row, at its clamped row * stride.
// CHECK:         arith.cmpi ult, %{{.*}}, %[[DIM_M]] : i32
// CHECK:         arith.minui
// CHECK:         %[[SROW:.*]] = arith.muli %{{.*}}, %[[STRIDE_SCALE]] : i64
// CHECK-NEXT:    llvm.getelementptr %[[PTR_SCALE]][%[[SROW]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:         %[[SCALE:.*]] = arith.select
// res: masked by both, at row * stride + column (both clamped).
// CHECK:         arith.cmpi ult, %{{.*}}, %[[DIM_M]] : i32
// CHECK:         %[[RROW:.*]] = arith.muli %{{.*}}, %[[STRIDE_RES]] : i64
// CHECK-NEXT:    arith.cmpi ult, %{{.*}}, %[[DIM_N]] : i32
// CHECK:         %[[RAT:.*]] = arith.addi %[[RROW]], %{{.*}} : i64
// CHECK-NEXT:    llvm.getelementptr %[[PTR_RES]][%[[RAT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT:    llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
// CHECK:         %[[RES:.*]] = arith.select
// alpha: element 0, always in bounds.
// CHECK:         llvm.getelementptr %[[PTR_ALPHA]][%c0_i64{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:         %[[ALPHA:.*]] = arith.select %true{{.*}}
// The epilogue on the loaded values.
// CHECK:         %[[BF:.*]] = arith.extf %[[BIAS]] : bf16 to f32
// CHECK-NEXT:    %[[X:.*]] = arith.addf %{{.*}}, %[[BF]] : f32
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %[[X]], %[[SCALE]] : f32
// CHECK-NEXT:    %[[RF:.*]] = arith.extf %[[RES]] : bf16 to f32
// CHECK-NEXT:    %[[Z:.*]] = arith.addf %[[Y]], %[[RF]] : f32
// CHECK-NEXT:    arith.mulf %[[Z]], %[[ALPHA]] : f32
// The next element (next column, same row) reads bias and res again but
// reuses scale and alpha.
// CHECK-NOT:     llvm.getelementptr %[[PTR_SCALE]]
// CHECK-NOT:     llvm.getelementptr %[[PTR_ALPHA]]
// CHECK:         llvm.getelementptr %[[PTR_BIAS]]
// CHECK-NOT:     llvm.getelementptr %[[PTR_SCALE]]
// CHECK-NOT:     llvm.getelementptr %[[PTR_ALPHA]]
// CHECK:         llvm.getelementptr %[[PTR_RES]]
// The output still goes through its tensor map (or plain stores).
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_C]]
// CHECK:         llvm.getelementptr %[[PTR_C]]
cta.program @each_kind(%bias: memref<?xbf16, strided<[1]>> {cta.param = #cta.param<"bias", input, [N]>},
                       %scale: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"scale", input, [M, 1]>},
                       %res: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"res", input, [M, N]>},
                       %alpha: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"alpha", input, [1]>},
                       %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>},
                       %M: index {cta.dim = #cta.dim<M>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {block = array<i64: 128, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x128xbf16, swizzle = "128B">
  cta.warp_specialize
    #cta.role<math, warps = 4, regs = 232> {
      cta.tile_loop static (%M, %N) tile [64, 128] {
      ^bb0(%m0: index, %n0: index):
        %acc = cta.acc_zero : !cta.acc<64x128xf32>
        cta.store %acc inputs(%bias per_col, %scale per_row, %res tile, %alpha scalar : memref<?xbf16, strided<[1]>>, memref<?x?xf32, strided<[?, 1]>>, memref<?x?xbf16, strided<[?, 1]>>, memref<?xf32, strided<[1]>>)
            -> %c[%m0, %n0] staging %sc : !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, swizzle = "128B"> {
        ^bb0(%x: f32, %b: bf16, %s: f32, %r: bf16, %al: f32):
          %bf = arith.extf %b : bf16 to f32
          %xb = arith.addf %x, %bf : f32
          %y = arith.mulf %xb, %s : f32
          %rf = arith.extf %r : bf16 to f32
          %z = arith.addf %y, %rf : f32
          %w = arith.mulf %z, %al : f32
          %t = arith.truncf %w : f32 to bf16
          cta.yield %t : bf16
        }
      }
    }
  cta.return
}

// -----

// Rank-2 broadcasts: a [1, N] row (per_col) is read at its column in row 0
// (no stride term), a [1, 1] value (scalar) at element 0. A tensor read both
// by TMA copies and by the epilogue (a residual that is also the lhs) gets a
// tensor map and a pointer (after the pointers of the tensors read before
// it); one that two stores read gets one pointer.
// CHECK-LABEL: llvm.func @broadcast_2d(
// CHECK-SAME:    %[[MAP_A:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[MAP_C:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %[[MAP_D:[^:]*]]: !llvm.ptr {{{[^}]*}}nvvm.grid_constant},
// CHECK-SAME:    %{{[^:]*}}: i32, %{{[^:]*}}: i32,
// CHECK-SAME:    %[[PTR_C:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i64,
// CHECK-SAME:    %[[PTR_ROW:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i64,
// CHECK-SAME:    %[[PTR_ONE:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i64,
// CHECK-SAME:    %[[PTR_A:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i64,
// CHECK-SAME:    %[[PTR_D:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i64,
// CHECK-SAME:    %{{[^:]*}}: i32, %{{[^:]*}}: i32)
// CHECK-SAME:    {kind = "pointer", param = "a"}, {axis = 0 : i64, kind = "stride", param = "a"}, {kind = "pointer", param = "d"},
// CHECK-SAME:    params = [{align = 16 : i64, dtype = "f16", name = "a", role = "input", shape = ["M", "64"]},
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         %[[AT:.*]] = arith.addi %c0_i64{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    llvm.getelementptr %[[PTR_ROW]][%[[AT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:         llvm.getelementptr %[[PTR_ONE]][%c0_i64{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:         llvm.getelementptr %[[PTR_A]]
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_C]]
// CHECK:         llvm.getelementptr %[[PTR_A]]
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_D]]
cta.program @broadcast_2d(%a: memref<?x?xf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, 64]>},
                          %row: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"row", input, [1, N]>},
                          %one: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"one", input, [1, 1]>},
                          %c: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>},
                          %d: memref<?x?xf16, strided<[?, 1]>> {cta.param = #cta.param<"d", output, [M, N]>},
                          %M: index {cta.dim = #cta.dim<M>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {block = array<i64: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  %sd = cta.alloc : !cta.buffer<64x64xf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
      %end = cta.tile_loop static (%M, %N) tile [64, 64] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %next = cta.produce %ring at %pos count %c1 : !cta.ring<2> {
        ^bb0(%kb: index, %slot: index):
          cta.load %a[%m0, %c0] -> %sa[%slot] signal %ring : memref<?x?xf16, strided<[?, 1]>> -> !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        }
        cta.yield %next : index
      }
    }
    #cta.role<math, warps = 4, regs = 232> {
      %end = cta.tile_loop static (%M, %N) tile [64, 64] iter_args(%c0 : index) -> (index) {
      ^bb0(%m0: index, %n0: index, %pos: index):
        %zero = cta.acc_zero : !cta.acc<64x64xf32>
        %res:2 = cta.consume %ring at %pos count %c1 iter_args(%zero : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x64xf32> {
        ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
          %p = cta.mma %sa[%slot], %sa[%slot], %acc {transpose_b} : !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, !cta.acc<64x64xf32>
          cta.yield %p : !cta.acc<64x64xf32>
        }
        cta.store %res#1 inputs(%row per_col, %one scalar, %a tile : memref<?x?xf32, strided<[?, 1]>>, memref<?x?xf32, strided<[?, 1]>>, memref<?x?xf16, strided<[?, 1]>>)
            -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32, strided<[?, 1]>>, !cta.buffer<64x32xf32, swizzle = "128B"> {
        ^bb0(%x: f32, %r: f32, %s: f32, %h: f16):
          %hf = arith.extf %h : f16 to f32
          %xr = arith.addf %x, %r : f32
          %y = arith.mulf %xr, %s : f32
          %z = arith.addf %y, %hf : f32
          cta.yield %z : f32
        }
        cta.store %res#1 inputs(%a tile : memref<?x?xf16, strided<[?, 1]>>)
            -> %d[%m0, %n0] staging %sd : !cta.acc<64x64xf32> -> memref<?x?xf16, strided<[?, 1]>>, !cta.buffer<64x64xf16, swizzle = "128B"> {
        ^bb0(%x: f32, %h: f16):
          %t = arith.truncf %x : f32 to f16
          %s = arith.addf %t, %h : f16
          cta.yield %s : f16
        }
        cta.yield %res#0 : index
      }
    }
  cta.return
}

// -----

cta.program @f(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 128, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  %bias = memref.alloc(%M) : memref<?xf32>
  cta.warp_specialize
    #cta.role<math, warps = 4, regs = 232> {
      cta.tile_loop static (%M, %M) tile [64, 64] {
      ^bb0(%m0: index, %n0: index):
        %z = cta.acc_zero : !cta.acc<64x64xf32>
        // expected-error@+1 {{convert-cta-to-nvvm: epilogue inputs must be program arguments}}
        cta.store %z inputs(%bias per_col : memref<?xf32>) -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
        ^bb0(%e: f32, %b: f32):
          %s = arith.addf %e, %b : f32
          cta.yield %s : f32
        }
      }
    }
  cta.return
}

// -----

// Per-group inputs (a grouped walk's per-expert bias [E, N] and scale
// [E, 1]) are read at row `group` (clamped below the input's leading
// extent) times its stride: the bias also at the element's column, the
// scale once per tile.
// CHECK-LABEL: llvm.func @per_group(
// CHECK-SAME:    %[[TMA_OK:[^:]*]]: i32, %[[PTR_C:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_C:[^:]*]]: i64,
// CHECK-SAME:    %[[PTR_BIAS:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_BIAS:[^:]*]]: i64,
// CHECK-SAME:    %[[PTR_SCALE:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_SCALE:[^:]*]]: i64,
// CHECK-SAME:    %[[DIM_E:[^:]*]]: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32)
// CHECK:         %[[BLAST:.*]] = arith.subi %[[DIM_E]], %{{.*}} : i32
// CHECK-NEXT:    %[[BG:.*]] = arith.minui %[[G:[^,]*]], %[[BLAST]] : i32
// CHECK-NEXT:    %[[BG64:.*]] = arith.extui %[[BG]] : i32 to i64
// CHECK-NEXT:    %[[BROW:.*]] = arith.muli %[[BG64]], %[[STRIDE_BIAS]] : i64
// CHECK:         %[[BAT:.*]] = arith.addi %[[BROW]], %{{.*}} : i64
// CHECK-NEXT:    llvm.getelementptr %[[PTR_BIAS]][%[[BAT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK:         %[[SLAST:.*]] = arith.subi %[[DIM_E]], %{{.*}} : i32
// CHECK-NEXT:    %[[SG:.*]] = arith.minui %[[G]], %[[SLAST]] : i32
// CHECK-NEXT:    %[[SG64:.*]] = arith.extui %[[SG]] : i32 to i64
// CHECK-NEXT:    %[[SROW:.*]] = arith.muli %[[SG64]], %[[STRIDE_SCALE]] : i64
// CHECK-NEXT:    llvm.getelementptr %[[PTR_SCALE]][%[[SROW]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// The next element (next column) reads the bias again, not the scale.
// CHECK-NOT:     llvm.getelementptr %[[PTR_SCALE]]
// CHECK:         llvm.getelementptr %[[PTR_BIAS]]
cta.program @per_group(%bias: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"bias", input, [E, N]>},
                       %scale: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"scale", input, [E, 1]>},
                       %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>},
                       %E: index {cta.dim = #cta.dim<E>}, %M: index {cta.dim = #cta.dim<M>}, %N: index {cta.dim = #cta.dim<N>})
    attributes {block = array<i64: 128, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x128xbf16, swizzle = "128B">
  cta.warp_specialize
    #cta.role<math, warps = 4, regs = 232> {
      cta.tile_loop static (%M, %N) tile [64, 128] {
      ^bb0(%m0: index, %n0: index):
        %acc = cta.acc_zero : !cta.acc<64x128xf32>
        cta.store %acc inputs(%bias per_group_col, %scale per_group : memref<?x?xbf16, strided<[?, 1]>>, memref<?x?xf32, strided<[?, 1]>>)
            -> %c[%m0, %n0] group %m0 staging %sc : !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x128xbf16, swizzle = "128B"> {
        ^bb0(%x: f32, %b: bf16, %s: f32):
          %bf = arith.extf %b : bf16 to f32
          %y = arith.mulf %x, %s : f32
          %z = arith.addf %y, %bf : f32
          %t = arith.truncf %z : f32 to bf16
          cta.yield %t : bf16
        }
      }
    }
  cta.return
}

// -----

// A store into a rank-3 tensor (a batched matmul's) reads its inputs (rank
// 1 or 2) at the element's row and column alone: they broadcast over the
// leading axes. The bias is read at its column, the output written at the
// batch index's offset.
// CHECK-LABEL: llvm.func @batched_dest(
// CHECK-SAME:    %[[PTR_C:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i64, %{{[^:]*}}: i64,
// CHECK-SAME:    %[[PTR_BIAS:[^:]*]]: !llvm.ptr<1>,
// CHECK:         llvm.getelementptr %[[PTR_BIAS]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
cta.program @batched_dest(%c: memref<?x?x?xf32> {cta.param = #cta.param<"c", output, [B, M, M]>}, %bias: memref<?xf32> {cta.param = #cta.param<"bias", input, [M]>}, %B: index {cta.dim = #cta.dim<B>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      cta.store %z inputs(%bias per_col : memref<?xf32>) -> %c[%c0, %m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%e: f32, %b: f32):
        %s = arith.addf %e, %b : f32
        cta.yield %s : f32
      }
    }
  }
  cta.return
}

