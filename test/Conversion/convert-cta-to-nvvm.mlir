// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm | FileCheck %s
// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm=chip=sm_90a | FileCheck %s
// RUN: not kiln-opt %s -split-input-file --cta-allocate-resources --convert-cta-to-nvvm=chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80

// Unknown chips: every program is an error, located at the program.
// SM80: convert-cta-to-nvvm.mlir:{{[0-9]+}}:1: error: convert-cta-to-nvvm: unknown chip 'sm_80'; expected sm_90a or sm_100a

// convert-cta-to-nvvm on sm_90a (sm_100a: convert-cta-to-nvvm-sm100.mlir): the kernel's signature and attributes, its
// manifest, the Hopper instructions of each warp role, and every error the
// conversion reports. Dual GEMMs, epilogue inputs and several stores per tile
// have their own files (convert-cta-to-nvvm-{dual-gemm,epilogue-inputs,
// several-outputs}.mlir).

// A pipelined 128x64 matmul on 2x1 clusters with two math warpgroups.
// The kernel lives in a gpu.module for sm_90a with PTX 8.8 next to the
// dynamic shared-memory window. Entry parameters: the tensor maps, as
// 128-byte __grid_constant__ parameters; then one tma_ok per store; then the
// pointer and row stride of every tensor addressed with plain memory
// operations (here the output, for the direct-store fallback); then one i32
// per dim.
// CHECK:       module attributes {gpu.container_module} {
// CHECK-NEXT:    gpu.module @kiln_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">] {
// CHECK-NEXT:      llvm.mlir.global external @kiln_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT:      llvm.func @matmul(
// CHECK-SAME:        %[[MAP_A:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME:        %[[MAP_B:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME:        %[[MAP_C:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME:        %[[TMA_OK:[^:]*]]: i32, %[[PTR_C:[^:]*]]: !llvm.ptr<1>, %[[STRIDE_C:[^:]*]]: i64,
// CHECK-SAME:        %[[DIM_M:[^:]*]]: i32, %[[DIM_K:[^:]*]]: i32, %[[DIM_N:[^:]*]]: i32)
// The manifest: a dictionary with the fields of the JSON file the driver
// writes next to the cubin (keys sorted).
// CHECK-SAME:      attributes {kiln.manifest = {chip = "sm_90a", cubin = "matmul.cubin", dims = ["M", "K", "N"], entry = "matmul", format = "kiln-manifest", kernel = "matmul",
// CHECK-SAME:        kernel_args = [{kind = "tensor_map", map = 0 : i64}, {kind = "tensor_map", map = 1 : i64}, {kind = "tensor_map", map = 2 : i64},
// CHECK-SAME:        {kind = "tma_ok", map = 2 : i64}, {kind = "pointer", param = "c"}, {axis = 0 : i64, kind = "stride", param = "c"},
// CHECK-SAME:        {dim = "M", kind = "dim"}, {dim = "K", kind = "dim"}, {dim = "N", kind = "dim"}],
// Shared memory: 64 KiB (a) + 32 KiB (b) + 16 KiB (staging), each 1024-byte
// aligned, + 4 pairs of 8-byte barriers, rounded up to 128 bytes.
// CHECK-SAME:        launch = {block = [384, 1, 1], cluster = [2, 1, 1], dynamic_smem = 114816 : i64, grid = {rule = "persistent", tiles = {{\[\[}}"M", 128], ["N", 64]]}},
// CHECK-SAME:        params = [{align = 16 : i64, dtype = "bf16", name = "a", role = "input", shape = ["M", "K"]},
// CHECK-SAME:        {align = 16 : i64, dtype = "bf16", name = "b", role = "input", shape = ["N", "K"]},
// CHECK-SAME:        {align = 2 : i64, dtype = "bf16", name = "c", role = "output", shape = ["M", "N"]}],
// CHECK-SAME:        source = "{{[^"]*}}convert-cta-to-nvvm.mlir",
// Operand boxes are one 128-byte swizzle span wide; b's box has half the
// rows, as each CTA of the pair copies half and multicasts it; the output
// map is optional (rows that are not 16-byte aligned take plain stores).
// CHECK-SAME:        tensor_maps = [{box = [64, 128], element = "bf16", l2_promotion = "256B", oob_fill = "zero", optional = false, param = "a", swizzle = "128B"},
// CHECK-SAME:        {box = [64, 32], element = "bf16", l2_promotion = "256B", oob_fill = "zero", optional = false, param = "b", swizzle = "128B"},
// CHECK-SAME:        {box = [64, 64], element = "bf16", l2_promotion = "none", oob_fill = "zero", optional = true, param = "c", swizzle = "128B"}], version = 1 : i64},
// setmaxnreg needs the entry register count: reqntid and minctasm give it.
// CHECK-SAME:        nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.kernel, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 384, 1, 1>} {
// Thread 0 prefetches every tensor map. a and b are only reached through
// their maps (null pointers); c's pointer is the parameter; dims are the i32
// parameters.
// CHECK:             %[[TID0:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT:        %[[IS0:.*]] = arith.cmpi eq, %[[TID0]], %{{.*}} : i32
// CHECK-NEXT:        scf.if %[[IS0]] {
// CHECK-NEXT:          nvvm.prefetch tensormap in_param_space, %[[MAP_A]] : !llvm.ptr
// CHECK-NEXT:          nvvm.prefetch tensormap in_param_space, %[[MAP_B]] : !llvm.ptr
// CHECK-NEXT:          nvvm.prefetch tensormap in_param_space, %[[MAP_C]] : !llvm.ptr
// CHECK-NEXT:        }
// CHECK-NEXT:        llvm.mlir.zero : !llvm.ptr<1>
// CHECK-NEXT:        llvm.mlir.zero : !llvm.ptr<1>
// CHECK-NEXT:        arith.index_castui %[[DIM_M]] : i32 to index
// CHECK-NEXT:        arith.index_castui %[[DIM_K]] : i32 to index
// CHECK-NEXT:        arith.index_castui %[[DIM_N]] : i32 to index
// Buffers are slices of the window at 1024-byte aligned offsets; the ring's
// barriers follow them.
// CHECK:             llvm.mlir.addressof @kiln_smem : !llvm.ptr<3>
// CHECK:             llvm.getelementptr %{{.*}}[%c65536_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:             llvm.getelementptr %{{.*}}[%c98304_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:             llvm.getelementptr %{{.*}}[%c114688_i32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// Four stages of full (1 arrival) and empty (2 math warpgroups x 2 CTAs)
// barriers, initialized by one thread.
// CHECK:             %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK:             nvvm.mbarrier.init %{{.*}}, %c1_i32 : !llvm.ptr<3>, i32
// CHECK:             nvvm.mbarrier.init %{{.*}}, %[[FOUR]] : !llvm.ptr<3>, i32
// CHECK-COUNT-6:     nvvm.mbarrier.init
// CHECK-NEXT:        nvvm.fence.mbarrier.init
// CHECK-NEXT:      }
// CHECK-NEXT:      nvvm.cluster.arrive
// CHECK-NEXT:      nvvm.cluster.wait
// Each role is a branch on the warp index: the producer is warps [0, 4),
// gives registers back and runs on one elected thread.
// CHECK:           %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:           %[[WARP:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK:           %[[P_END:.*]] = arith.cmpi ult, %[[WARP]], %c4_i32 : i32
// CHECK:           %[[P_BEGIN:.*]] = arith.cmpi uge, %[[WARP]], %c0_i32{{.*}} : i32
// CHECK-NEXT:      %[[IN_P:.*]] = arith.andi %[[P_BEGIN]], %[[P_END]] : i1
// CHECK-NEXT:      scf.if %[[IN_P]] {
// CHECK-NEXT:        nvvm.setmaxregister  decrease 40
// CHECK:             %[[PTID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT:        %[[LEADER:.*]] = arith.cmpi eq, %[[PTID]], %c0_i32{{.*}} : i32
// CHECK-NEXT:        scf.if %[[LEADER]] {
// The producer walks the cluster's tiles and fills stages.
// CHECK:               nvvm.read.ptx.sreg.nclusterid.x
// CHECK:               nvvm.read.ptx.sreg.cluster.ctarank
// CHECK:               scf.for
// CHECK:                 scf.for
// CHECK:                   nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %c10000000_i32 : !llvm.ptr<3>, i32, i32
// The stage's transaction bytes: 16 KiB of a + 8 KiB of b.
// CHECK:                   nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c24576_i32 : !llvm.ptr<3>, i32
// CHECK:                   nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP_A]], %{{.*}}, box[%{{.*}}, %{{.*}}] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK:                   nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:                   %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK:                   nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[MAP_B]], %{{.*}}, box[%{{.*}}, %{{.*}}] multicast_mask = %c3_i16 : !llvm.ptr<7>, !llvm.ptr
// The math role is warps [4, 12) and takes the registers.
// CHECK:           %[[M_END:.*]] = arith.cmpi ult, %[[WARP]], %c12_i32 : i32
// CHECK:           %[[M_BEGIN:.*]] = arith.cmpi uge, %[[WARP]], %c4_i32{{.*}} : i32
// CHECK-NEXT:      %[[IN_M:.*]] = arith.andi %[[M_BEGIN]], %[[M_END]] : i1
// CHECK-NEXT:      scf.if %[[IN_M]] {
// CHECK-NEXT:        nvvm.setmaxregister  increase 232
// CHECK:             scf.for
// The warpgroup index counts from the role's first warpgroup.
// CHECK:               %[[WGT:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT:          %[[WG:.*]] = arith.divui %[[WGT]], %c128_i32{{.*}} : i32
// CHECK:               arith.subi %[[WG]], %c1_i32{{.*}} : i32
// CHECK:               llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;
// Each K step waits for its stage and issues the stage's MMAs as one batch:
// one fence, a 64-column K step of bf16 as four k16 instructions, one
// commit; the batch stays in flight until the next stage's (wait_group 1),
// then the previous stage is released in both CTAs of the cluster.
// CHECK:               scf.for
// CHECK:                 nvvm.mbarrier.try_wait.parity
// CHECK-NOT:             nvvm.wgmma
// CHECK:                 nvvm.wgmma.fence.aligned
// CHECK-NOT:             nvvm.wgmma.fence
// CHECK-COUNT-4:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NEXT:            nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:            nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:                 nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:            nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
// After the last stage: wait for every batch, release the last stage.
// CHECK:               nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:               nvvm.mapa
// CHECK-NEXT:          nvvm.mbarrier.arrive
// The epilogue, one 128-byte column block at a time: the values go through
// stmatrix into a staging block (the store's first block first waits until
// every earlier bulk store has read its staging data), then to c with a bulk
// store when tma_ok is set, or with plain stores at row * stride + column,
// bounds-checked against the dims, when the runtime could not encode c's map.
// CHECK:               arith.cmpi ne, %[[TMA_OK]], %{{.*}} : i32
// CHECK:                 nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT:          }
// CHECK:               nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-COUNT-4:       nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK:               nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:               nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_C]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT:          nvvm.cp.async.bulk.commit.group
// CHECK:               } else {
// CHECK-DAG:             arith.cmpi ult, %{{.*}}, %[[DIM_M]] : i32
// CHECK-DAG:             arith.cmpi ult, %{{.*}}, %[[DIM_N]] : i32
// CHECK:                 arith.muli %{{.*}}, %[[STRIDE_C]] : i64
// CHECK:                 %[[ADDR:.*]] = llvm.getelementptr %[[PTR_C]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT:            llvm.store %{{.*}}, %[[ADDR]] : bf16, !llvm.ptr<1>
// The math role waits for its bulk stores before its warps exit; peers may
// still multicast into this CTA until the final cluster barrier.
// CHECK:             nvvm.cp.async.bulk.wait_group 0
// CHECK-NOT:         {read}
// CHECK:           nvvm.cluster.arrive
// CHECK-NEXT:      nvvm.cluster.wait
// CHECK-NEXT:      llvm.return
// CHECK-NOT:     cta.
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

// One consumer warpgroup, no cluster, one CTA per tile, an f32 output: the
// CTAs synchronize with a plain barrier, stages are released locally, the
// 32-bit epilogue stores fragment pairs (no stmatrix) and streams two
// 128-byte column blocks through one staging block. Roles: a 4-warp producer
// and one math warpgroup (block of 256 threads).
// CHECK-LABEL: llvm.func @small(
// CHECK-SAME:    %[[MAP_A:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME:    %[[MAP_C:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME:    %{{[^:]*}}: i32, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: i64, %{{[^:]*}}: i32)
// CHECK-SAME:    dims = ["M"],
// CHECK-SAME:    launch = {block = [256, 1, 1], cluster = [1, 1, 1], dynamic_smem = 24704 : i64, grid = {rule = "tiles", tiles = {{\[\[}}"M", 64], ["M", 64]]}},
// CHECK-SAME:    params = [{align = 16 : i64, dtype = "f16", name = "a", role = "input", shape = ["M", "64"]},
// CHECK-SAME:    {align = 4 : i64, dtype = "f32", name = "c", role = "output", shape = ["M", "M"]}],
// CHECK-SAME:    {box = [32, 64], element = "f32", l2_promotion = "none", oob_fill = "zero", optional = true, param = "c", swizzle = "128B"}],
// CHECK-NOT:     nvvm.cluster_dim
// CHECK-SAME:    nvvm.kernel, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 256, 1, 1>} {
// CHECK-NOT:     nvvm.cluster
// CHECK:         nvvm.barrier0
// CHECK:         nvvm.setmaxregister  decrease 40
// CHECK:         nvvm.read.ptx.sreg.nctaid.x
// CHECK:         nvvm.read.ptx.sreg.ctaid.x
// 64 rows x 64 f16 per stage.
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c8192_i32 : !llvm.ptr<3>, i32
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP_A]], {{.*}} {isCTAOnly = true}
// CHECK:         nvvm.setmaxregister  increase 240
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NOT:     nvvm.mapa
// CHECK:         nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK-NOT:     nvvm.stmatrix
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_C]]
// The second column block waits until the first has been read out (a ring
// of one staging block).
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP_C]]
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK-NOT:     nvvm.cluster
// CHECK:         llvm.return
cta.program @small(%arg0: memref<?x?xf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, 64]>}, %arg1: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, M]>}, %arg2: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = cta.alloc : <64x64xf16, stages = 2, swizzle = "128B">
  %1 = cta.alloc : <64x32xf32, swizzle = "128B">
  %2 = cta.ring {consumers = 1 : i64} : <2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
    %3 = cta.tile_loop static (%arg2, %arg2) tile [64, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %carried: index):
      %4 = cta.produce %2 at %carried count %c1 : <2> {
      ^bb0(%kb: index, %slot: index):
        %5 = arith.muli %kb, %c64 : index
        cta.load %arg0[%m0, %5] -> %0[%slot] signal %2 : memref<?x?xf16, strided<[?, 1]>> -> <64x64xf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %4 : index
    }
  } #cta.role<math, warps = 4, regs = 240> {
    %3 = cta.tile_loop static (%arg2, %arg2) tile [64, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %carried: index):
      %4 = cta.warpgroup_index : index
      %5 = arith.muli %4, %c64 : index
      %6 = cta.acc_zero : <64x64xf32>
      %7:2 = cta.consume %2 at %carried count %c1 iter_args(%6 : !cta.acc<64x64xf32>) : <2> -> !cta.acc<64x64xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
        %9 = cta.mma %0[%slot] rows %5, %0[%slot], %acc {transpose_b} : !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, <64x64xf16, stages = 2, swizzle = "128B">, <64x64xf32>
        cta.yield %9 : !cta.acc<64x64xf32>
      }
      %8 = arith.addi %m0, %5 : index
      cta.store %7#1 -> %arg1[%8, %n0] staging %1 : !cta.acc<64x64xf32> -> memref<?x?xf32, strided<[?, 1]>>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%arg3: f32):
        cta.yield %arg3 : f32
      }
      cta.yield %7#0 : index
    }
  }
  cta.return
}

// -----

// An epilogue may use constants of the program (the canonicalizer hoists them
// out of the store's region): each fragment element reuses the lowered
// constant (regression: the cloned epilogue kept the erased program's
// constant and the lowering crashed).
// CHECK-LABEL: llvm.func @hoisted(
// CHECK:         %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:         arith.mulf %{{.*}}, %[[HALF]] : f32
cta.program @hoisted(%a: memref<?x?xf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, 64]>}, %arg1: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, M]>}, %arg2: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  %half = arith.constant 5.000000e-01 : f32
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = cta.alloc : <64x64xf16, stages = 2, swizzle = "128B">
  %1 = cta.alloc : <64x32xf32, swizzle = "128B">
  %2 = cta.ring {consumers = 1 : i64} : <2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
    %3 = cta.tile_loop static (%arg2, %arg2) tile [64, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %carried: index):
      %4 = cta.produce %2 at %carried count %c1 : <2> {
      ^bb0(%kb: index, %slot: index):
        %5 = arith.muli %kb, %c64 : index
        cta.load %a[%m0, %5] -> %0[%slot] signal %2 : memref<?x?xf16, strided<[?, 1]>> -> <64x64xf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %4 : index
    }
  } #cta.role<math, warps = 4, regs = 240> {
    %3 = cta.tile_loop static (%arg2, %arg2) tile [64, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %carried: index):
      %4 = cta.warpgroup_index : index
      %5 = arith.muli %4, %c64 : index
      %6 = cta.acc_zero : <64x64xf32>
      %7:2 = cta.consume %2 at %carried count %c1 iter_args(%6 : !cta.acc<64x64xf32>) : <2> -> !cta.acc<64x64xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
        %9 = cta.mma %0[%slot] rows %5, %0[%slot], %acc {transpose_b} : !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, <64x64xf16, stages = 2, swizzle = "128B">, <64x64xf32>
        cta.yield %9 : !cta.acc<64x64xf32>
      }
      %8 = arith.addi %m0, %5 : index
      cta.store %7#1 -> %arg1[%8, %n0] staging %1 : !cta.acc<64x64xf32> -> memref<?x?xf32, strided<[?, 1]>>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%arg3: f32):
        %s = arith.mulf %arg3, %half : f32
        cta.yield %s : f32
      }
      cta.yield %7#0 : index
    }
  }
  cta.return
}

// -----

// An MMA outside a cta.consume is its own wgmma batch: the accumulator is
// pinned, fenced, multiplied (an `accumulate false` flag zeroes it in the
// first k16 step only), committed and waited for before its result is used.
// Roles without a register budget get no setmaxnreg.
// CHECK-LABEL: llvm.func @unbatched(
// CHECK-NOT:     nvvm.setmaxregister
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att "", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7"
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 16, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NEXT:    nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att "", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7"
// CHECK-NOT:     nvvm.setmaxregister
// CHECK:         llvm.return
cta.program @unbatched(%c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  %false = arith.constant false
  %sa = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<16x64xbf16, swizzle = "128B">
  cta.warp_specialize #cta.role<producer, warps = 4> {
  } #cta.role<math, warps = 4> {
    cta.tile_loop static (%M, %M) tile [64, 16] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x16xf32>
      %p = cta.mma %sa, %sb, %z accumulate %false {transpose_b} : !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.buffer<16x64xbf16, swizzle = "128B">, !cta.acc<64x16xf32>
    }
  }
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

// expected-error@+1 {{convert-cta-to-nvvm: the program was scheduled for sm_100a, not sm_90a}}
cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %c: memref<?x?xbf16> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {chip = #cta.chip<sm_100a>, block = array<i64: 384, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// expected-error@+1 {{convert-cta-to-nvvm: the program has no block size; run cta-pipeline first}}
cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %c: memref<?x?xbf16> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// expected-error@+1 {{convert-cta-to-nvvm: no manifest dtype for 'i8'}}
cta.program @f(%a: memref<?x?xi8> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// expected-error@+1 {{convert-cta-to-nvvm: the program walks no tiles}}
cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %c: memref<?x?xbf16> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.return
}

// -----

cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %c: memref<?x?xbf16> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %e = arith.addi %M, %M : index
  // expected-error@+1 {{convert-cta-to-nvvm: tile extents must be dims or constants}}
  cta.tile_loop static (%e, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @f(%B: index {cta.dim = #cta.dim<B>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_90a: a batched tile walk in clusters of several CTAs that is longest_first or not persistent}}
  cta.tile_loop batched (%B, %M, %M) tile [1, 64, 64] {
  ^bb0(%b: index, %m0: index, %n0: index):
  } {cluster = array<i64: 2, 1>}
  cta.return
}

// -----

// A batched matmul's walk (persistent, group_m, 2x1 clusters): each batch
// entry's tiles in the static raster, clusters along x, the entry the
// quotient of the cluster tile by the tiles per entry.
// CHECK-LABEL: llvm.func @batched_raster(
// CHECK:         %[[CLUSTERS:.*]] = nvvm.read.ptx.sreg.nclusterid.x : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         scf.for
// CHECK:           arith.divui
cta.program @batched_raster(%c: memref<?x?x?xbf16> {cta.param = #cta.param<"c", output, [B, M, M]>}, %B: index {cta.dim = #cta.dim<B>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.tile_loop batched (%B, %M, %M) tile [1, 64, 64] {
  ^bb0(%b: index, %m0: index, %n0: index):
  } {cluster = array<i64: 2, 1>, group_m = 8 : i64, persistent}
  cta.return
}

// -----

cta.program @f(%offsets: memref<?xi32> {cta.param = #cta.param<"offsets", input, [E+1]>}, %E: index {cta.dim = #cta.dim<E>}, %T: index {cta.dim = #cta.dim<T>})
    attributes {block = array<i64: 384, 1, 1>} {
  // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_90a: a grouped tile walk}}
  cta.tile_loop grouped offsets(%offsets : memref<?xi32>, %E) (%T, %T) tile [64, 64] {
  ^bb0(%e: index, %m0: index, %n0: index, %m_end: index, %row_tile: index):
  }
  cta.return
}

// -----

cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %c: memref<?x?xbf16> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  // expected-error@+1 {{convert-cta-to-nvvm: cta.warpgroup_index outside a warp role}}
  %w = cta.warpgroup_index : index
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// Copies are TMA copies: their source must be a parameter (it has a tensor
// map).
cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<1>
  %v = memref.alloc(%M, %M) : memref<?x?xbf16>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{convert-cta-to-nvvm: copies must read program arguments}}
    cta.load %v[%m0, %n0] -> %sa signal %ring : memref<?x?xbf16> -> !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.ring<1>
  }
  cta.return
}

// -----

cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<512x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<1>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{convert-cta-to-nvvm: box outer extent 512 rows exceeds the TMA limit of 256}}
    cta.load %a[%m0, %n0] -> %sa signal %ring : memref<?x?xbf16> -> !cta.buffer<512x64xbf16, swizzle = "128B">, !cta.ring<1>
  }
  cta.return
}

// -----

cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x48xbf16, swizzle = "64B">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<1>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{convert-cta-to-nvvm: box inner extent 48 x 2 B = 96 B exceeds the 64B swizzle span and is not a multiple of it}}
    cta.load %a[%m0, %n0] -> %sa signal %ring : memref<?x?xbf16> -> !cta.buffer<64x48xbf16, swizzle = "64B">, !cta.ring<1>
  }
  cta.return
}

// -----

// The staging buffer is the box of the output's tensor map: the same rules.
cta.program @f(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 256, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xbf16, swizzle = "128B">
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: box inner extent 32 x 2 B = 64 B does not fill the 128B swizzle span; the MMA's canonical layout needs exactly one span per box (64B fits this tile)}}
      cta.store %z -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xbf16>, !cta.buffer<64x32xbf16, swizzle = "128B"> {
      ^bb0(%e: f32):
        %t = arith.truncf %e : f32 to bf16
        cta.yield %t : bf16
      }
    }
  }
  cta.return
}

// -----

cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{convert-cta-to-nvvm: a copy outside cta.produce has no barrier}}
    cta.load %a[%m0, %n0] -> %sa : memref<?x?xbf16> -> !cta.buffer<64x64xbf16, swizzle = "128B">
  }
  cta.return
}

// -----

cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: the K loop is not pipelined; run cta-pipeline first}}
    %r = cta.mainloop %M step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
      %p = cta.mma %sa, %sa, %acc {transpose_b} : !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.acc<64x64xf32>
      cta.yield %p : !cta.acc<64x64xf32>
    }
  }
  cta.return
}

// -----

cta.program @f(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 384, 1, 1>} {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{convert-cta-to-nvvm: global tensors are only read by cta.load and cta.store}}
  %d = memref.dim %a, %c0 : memref<?x?xbf16>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// The same inside an epilogue, which computes on elements.
cta.program @f(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 256, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      cta.store %z -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%e: f32):
        %c0 = arith.constant 0 : index
        // expected-error@+1 {{convert-cta-to-nvvm: global tensors are only read by cta.load and cta.store}}
        %d = memref.dim %c, %c0 : memref<?x?xf32>
        %i = arith.index_cast %d : index to i32
        %f = arith.sitofp %i : i32 to f32
        %s = arith.addf %e, %f : f32
        cta.yield %s : f32
      }
    }
  }
  cta.return
}

// -----

// MMAs: smem operands of 16-bit types (or register lhs fragments:
// convert-cta-to-nvvm-register-fragments.mlir), a K-major rhs, a constant
// accumulate flag.
cta.program @f(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x128xf8E4M3FN, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<64x128xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{'cta.mma' op lhs elements 'f8E4M3FN' differ from rhs elements 'bf16'}}
    %p = cta.mma %sa, %sb, %z {transpose_b} : !cta.buffer<64x128xf8E4M3FN, swizzle = "128B">, !cta.buffer<64x128xbf16, swizzle = "128B">, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

// wgmma reads an MN-major (transposed) B only for f16 and bf16: an 8-bit
// rhs stored [K, N] is a located error.
cta.program @f(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xf8E4M3FN, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: rhs must be K-major (transpose_b): wgmma reads e4m3 operands only K-major; transposed operands need f16 or bf16}}
    %p = cta.mma %sa, %sa, %z : !cta.buffer<64x64xf8E4M3FN, swizzle = "128B">, !cta.buffer<64x64xf8E4M3FN, swizzle = "128B">, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

// A 16-bit rhs stored [K, N] (no transpose_b) is read MN-major: layout
// `row` for B (PTX imm-trans-b 1). Its buffer is N/64 column blocks of K
// rows x 128 B, so the descriptor's LBO steps from one 64-column block to
// the next (64 rows x 128 B = 8192 B), SBO is 8 rows x 128 B, and each k16
// step advances 16 rows (2048 B, +128): 0x4000004002000000, the descriptor
// that ran on an H200 (sm90-probes k_mn).
// CHECK-LABEL: llvm.func @mn_major_rhs(
// CHECK:         %[[HI:.*]] = arith.constant 4611686293338849280 : i64
// CHECK:         %[[DB:.*]] = arith.ori %{{.*}}, %[[HI]] : i64
// CHECK:         nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK:         arith.addi %[[DB]], %c128_i64 : i64
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK:         arith.addi %[[DB]], %c256_i64 : i64
// CHECK:         nvvm.wgmma.mma_async {{.*}} B[<bf16>, <one>, <row>]
// CHECK:         arith.addi %[[DB]], %c384_i64 : i64
// CHECK:         nvvm.wgmma.mma_async {{.*}} B[<bf16>, <one>, <row>]
// CHECK-NEXT:    nvvm.wgmma.commit.group.sync.aligned
cta.program @mn_major_rhs(%c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  %false = arith.constant false
  %sa = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<64x128xbf16, swizzle = "128B">
  cta.warp_specialize #cta.role<producer, warps = 4> {
  } #cta.role<math, warps = 4> {
    cta.tile_loop static (%M, %M) tile [64, 128] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x128xf32>
      %p = cta.mma %sa, %sb, %z accumulate %false : !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.buffer<64x128xbf16, swizzle = "128B">, !cta.acc<64x128xf32>
    }
  }
  cta.return
}

// -----

cta.program @f(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %first = arith.cmpi eq, %m0, %n0 : index
    // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_90a: an accumulate flag computed at run time}}
    %p = cta.mma %sa, %sa, %z accumulate %first {transpose_b} : !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

// (Register fragments, cta.reduce_rows, cta.frag_map, cta.splat and
// cta.convert: convert-cta-to-nvvm-register-fragments.mlir.)

// -----

// Stores: in a math role, of accumulators, through a staging buffer, into
// rank-2 parameters, unbounded.
cta.program @f(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 384, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: stores run in a math or epilogue role; this one is outside the warp roles}}
    cta.store %z -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
    ^bb0(%e: f32):
      cta.yield %e : f32
    }
  }
  cta.return
}

// -----

cta.program @f(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 256, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %one = arith.constant 1.0 : f32
      %s = cta.splat %one : f32 -> !cta.frag<64x64xf32, acc>
      // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_90a: storing a register fragment}}
      cta.store %s -> %c[%m0, %n0] staging %sc : !cta.frag<64x64xf32, acc> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%e: f32):
        cta.yield %e : f32
      }
    }
  }
  cta.return
}

// -----

// A store bounded by a row limit (a group's end): the bulk copy, which
// clips only at the tensor's end, runs where the whole tile lies above the
// limit; otherwise stores keep below min(M, limit): 16-byte pieces where the
// runtime encoded the tensor map (its alignment holds), the row's last piece
// element by element where the tensor's last column cuts it, and single
// elements throughout where the map was not encoded.
// CHECK-LABEL: llvm.func @row_limited_store(
// CHECK:         %[[MAPPED:.*]] = arith.cmpi ne, %arg1, %{{.*}} : i32
// CHECK:         %[[LIMIT:.*]] = arith.index_castui %c100 : index to i32
// CHECK:         %[[END:.*]] = arith.minui %{{.*}}, %[[LIMIT]] : i32
// CHECK:         %[[LAST:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:         %[[WHOLE:.*]] = arith.cmpi ule, %[[LAST]], %[[LIMIT]] : i32
// CHECK:         %[[BULK:.*]] = arith.andi %[[MAPPED]], %[[WHOLE]] : i1
// CHECK:         scf.if %[[BULK]] {
// CHECK:           nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         } else {
// CHECK:           scf.if %[[MAPPED]] {
// CHECK:             %[[LIVE:.*]] = arith.cmpi ult, %{{.*}}, %[[END]] : i32
// CHECK:             %[[PIECE_END:.*]] = arith.addi %{{.*}}, %c4_i32{{.*}} : i32
// CHECK:             %[[IN_N:.*]] = arith.cmpi ule, %[[PIECE_END]], %arg4 : i32
// CHECK:             %[[FULL:.*]] = arith.andi %[[LIVE]], %[[IN_N]] : i1
// CHECK:             scf.if %[[FULL]] {
// CHECK:               %[[PIECE:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK:               llvm.store %[[PIECE]], %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK:             } else {
// CHECK-COUNT-4:       llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK:           } else {
// CHECK:             arith.cmpi ult, %{{.*}}, %[[END]] : i32
// CHECK:             llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
cta.program @row_limited_store(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 256, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      %L = arith.constant 100 : index
      cta.store %z -> %c[%m0, %n0] row_limit %L staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%e: f32):
        cta.yield %e : f32
      }
    }
  }
  cta.return
}

// -----

cta.program @f(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 256, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x8xbf16>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 8] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x8xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: stored tiles must be multiples of 64x16}}
      cta.store %z -> %c[%m0, %n0] staging %sc : !cta.acc<64x8xf32> -> memref<?x?xbf16>, !cta.buffer<64x8xbf16> {
      ^bb0(%e: f32):
        %t = arith.truncf %e : f32 to bf16
        cta.yield %t : bf16
      }
    }
  }
  cta.return
}

// -----

cta.program @f(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: stores need a staging buffer}}
      cta.store %z -> %c[%m0, %n0] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
      ^bb0(%e: f32):
        cta.yield %e : f32
      }
    }
  }
  cta.return
}

// -----

cta.program @f(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  %d = memref.alloc(%M, %M) : memref<?x?xf32>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: stores must write program arguments}}
      cta.store %z -> %d[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%e: f32):
        cta.yield %e : f32
      }
    }
  }
  cta.return
}

// -----

// The accumulator hand-off of sm_100a's MMA warp has no sm_90a form.
cta.program @mma_warp_sm90(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : <2>
  // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_ring' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
  %accs = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %filled = arith.cmpi ugt, %kt, %c0 : index
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_wait' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
      %acc = cta.acc_wait %accs at %apos filled %filled : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_release' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
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
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_acquire' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
      %zero = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <128x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_commit' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
      cta.acc_commit %accs at %apos, %r#1 : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      %anext = arith.addi %apos, %c1 : index
      cta.yield %r#0, %anext : index, index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// CTA pairs are sm_100a's.
cta.program @pair_sm90(%a: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, K]>}, %b: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [N, K]>}, %c: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}, %M: index {cta.dim = #cta.dim<M>}, %K: index {cta.dim = #cta.dim<K>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 2, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>} {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : <128x64xbf16, stages = 2, swizzle = "128B">
  %sb = cta.alloc : <64x64xbf16, stages = 2, swizzle = "128B">
  %sc = cta.alloc : <128x64xbf16, swizzle = "128B">
  %ring = cta.ring {cluster_size = 2 : i64, consumers = 1 : i64} : <2>
  // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_ring' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
  %accs = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
  cta.warp_specialize
    #cta.role<epilogue, warps = 4> {
    %p = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      %filled = arith.cmpi ugt, %kt, %c0 : index
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_wait' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
      %acc = cta.acc_wait %accs at %apos filled %filled : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x64xbf16, swizzle = "128B"> {
      ^bb0(%v: f32):
        %t = arith.truncf %v : f32 to bf16
        cta.yield %t : bf16
      }
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_release' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
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
        // expected-error@+1 {{convert-cta-to-nvvm: a CTA pair's copy (cta_pair) feeds tcgen05.mma.cta_group::2, which sm_90a does not have (sm_100a)}}
        cta.load %b[%n0, %k0] -> %sb[%slot] signal %ring {cta_pair} : memref<?x?xbf16, strided<[?, 1]>> -> <64x64xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %next : index
    } {group_m = 8 : i64, persistent}
  }
    #cta.role<mma, warps = 1> {
    %p:2 = cta.tile_loop static (%M, %N) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
    ^bb0(%m0: index, %n0: index, %pos: index, %apos: index):
      %kt = arith.ceildivui %K, %c64 : index
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_acquire' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
      %zero = cta.acc_acquire %accs at %apos : <2, [<128x128xf32>]> -> !cta.acc<128x128xf32>
      %r:2 = cta.consume %ring at %pos count %kt iter_args(%zero : !cta.acc<128x128xf32>) : <2> -> !cta.acc<128x128xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
        // expected-error@+1 {{convert-cta-to-nvvm: a CTA pair's MMA (cta_pair) is tcgen05.mma.cta_group::2, which sm_90a does not have (sm_100a)}}
        %d = cta.mma %sa[%slot], %sb[%slot], %acc {cta_pair, transpose_b} : !cta.buffer<128x64xbf16, stages = 2, swizzle = "128B">, <64x64xbf16, stages = 2, swizzle = "128B">, <128x128xf32>
        cta.yield %d : !cta.acc<128x128xf32>
      }
      // expected-error@+1 {{convert-cta-to-nvvm: 'cta.acc_commit' hands tensor-memory accumulators between warp roles; sm_90a has no tensor memory (sm_100a has)}}
      cta.acc_commit %accs at %apos, %r#1 : <2, [<128x128xf32>]>, !cta.acc<128x128xf32>
      %anext = arith.addi %apos, %c1 : index
      cta.yield %r#0, %anext : index, index
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

// A dim that no tensor's shape binds could not be given a value at launch
// (kiln-fuzz-pipeline found this reaching the manifest writer as an
// internal error).
// expected-error@+1 {{convert-cta-to-nvvm: the program cannot be launched: dim 'M' is never a plain entry (or a name plus or times a constant) of a param shape, so no launch can bind it}}
cta.program @unbound(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 128, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 16] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// A batched walk: units in order of the linear block index over x, y and z,
// each CTA taking every (grid size)-th; the unit's coordinates from its
// index, the column tiles fastest, then the row tiles (backwards), then the
// leading axes. The manifest's grid rule counts every axis's tiles.
// CHECK-LABEL: llvm.func @batched_walk(
// CHECK-SAME:    grid = {rule = "persistent", tiles = {{\[}}["B", 1], ["H", 1], ["S", 128], ["D", 64]]}
// CHECK:         nvvm.read.ptx.sreg.ctaid.z
// CHECK:         scf.for
// CHECK:           %[[COL:.*]] = arith.remui %{{.*}}, %[[CD:.*]] : i32
// CHECK-NEXT:      %[[Q0:.*]] = arith.divui %{{.*}}, %[[CD]] : i32
// CHECK:           %[[ROW:.*]] = arith.remui %[[Q0]], %[[CS:.*]] : i32
// CHECK-NEXT:      %[[Q1:.*]] = arith.divui %[[Q0]], %[[CS]] : i32
// CHECK:           arith.subi
// CHECK-NEXT:      arith.subi %{{.*}}, %[[ROW]] : i32
// CHECK:           %[[H:.*]] = arith.remui %[[Q1]], %{{.*}} : i32
// CHECK-NEXT:      %[[B:.*]] = arith.divui %[[Q1]], %{{.*}} : i32
cta.program @batched_walk(%o: memref<?x?x?x?xbf16, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"o", output, [B, H, S, D]>},
                          %B: index {cta.dim = #cta.dim<B>}, %H: index {cta.dim = #cta.dim<H>}, %S: index {cta.dim = #cta.dim<S>}, %D: index {cta.dim = #cta.dim<D>})
    attributes {block = array<i64: 384, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 8, regs = 232> {
    cta.tile_loop batched (%B, %H, %S, %D) tile [1, 1, 128, 64] {
    ^bb0(%b: index, %h: index, %s0: index, %d0: index):
    } {persistent}
  }
  cta.return
}

// -----

// longest_first (causal attention): the row tiles vary slowest.
// CHECK-LABEL: llvm.func @longest_first(
// CHECK:         scf.for
// CHECK:           arith.remui %{{.*}}, %[[CD:.*]] : i32
// CHECK-NEXT:      %[[Q0:.*]] = arith.divui %{{.*}}, %[[CD]] : i32
// CHECK:           arith.remui %[[Q0]], %[[CH:.*]] : i32
// CHECK-NEXT:      %[[Q1:.*]] = arith.divui %[[Q0]], %[[CH]] : i32
// CHECK:           %[[B:.*]] = arith.remui %[[Q1]], %{{.*}} : i32
// CHECK-NEXT:      %[[Q2:.*]] = arith.divui %[[Q1]], %{{.*}} : i32
// CHECK:           arith.subi
// CHECK-NEXT:      arith.subi %{{.*}}, %[[Q2]] : i32
cta.program @longest_first(%o: memref<?x?x?x?xbf16, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"o", output, [B, H, S, D]>},
                           %B: index {cta.dim = #cta.dim<B>}, %H: index {cta.dim = #cta.dim<H>}, %S: index {cta.dim = #cta.dim<S>}, %D: index {cta.dim = #cta.dim<D>})
    attributes {block = array<i64: 384, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 8, regs = 232> {
    cta.tile_loop batched (%B, %H, %S, %D) tile [1, 1, 128, 64] {
    ^bb0(%b: index, %h: index, %s0: index, %d0: index):
    } {longest_first, persistent}
  }
  cta.return
}

// -----

// A grouped walk (packed sequences, experts): R = cdiv(T, 128) + B virtual
// row tiles times the heads; each CTA strides over the units and carries
// its scan of the offsets (the group reached, the row tiles before it) in
// the loop; an scf.while moves it forward past groups that end at or before
// the unit's row tile, reading the offsets non-coherently (ld.global.nc:
// invariant loads), index clamped into the tensor, value clamped at 0; a
// unit past the last group runs nothing. cta.read_index is the same read.
// Whole warps run this walk, so each step of the scan looks at 32 groups:
// lane l reads group g + l, an inclusive sum over the lanes (shfl.up) gives
// each group's end, and a ballot counts the groups that end by the target.
// CHECK-LABEL: llvm.func @grouped_walk(
// CHECK-SAME:    %[[OFF:[^:]*]]: !llvm.ptr<1>
// CHECK:         %[[R:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[G:.*]] = %{{.*}}, %[[PRE:.*]] = %{{.*}}) -> (i32, i32) {
// CHECK:           %{{.*}}:2 = scf.while
// CHECK:             llvm.load %{{.*}} invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK:             arith.maxsi
// CHECK-COUNT-5:     nvvm.shfl.sync up
// CHECK:             nvvm.vote.sync ballot
// CHECK:             llvm.intr.ctpop
// CHECK:             nvvm.shfl.sync idx
// CHECK:             scf.condition
// CHECK:           scf.if %{{.*}} -> (i32, i32) {
// CHECK:             llvm.load %{{.*}} invariant
// CHECK:             scf.yield
// CHECK:           } else {
// CHECK:             scf.yield
// CHECK:           scf.yield
// CHECK:         llvm.return
cta.program @grouped_walk(%offsets: memref<?xi32> {cta.param = #cta.param<"cu", input, [B+1]>}, %o: memref<?x?xf32> {cta.param = #cta.param<"o", output, [H, T]>}, %B: index {cta.dim = #cta.dim<B>}, %H: index {cta.dim = #cta.dim<H>}, %T: index {cta.dim = #cta.dim<T>}) attributes {block = array<i64: 128, 1, 1>} {
  %c64 = arith.constant 64 : index
  cta.tile_loop grouped offsets(%offsets : memref<?xi32>, %B) (%H, %T, %c64) tile [1, 128, 64] {
  ^bb0(%g: index, %h: index, %m0: index, %n0: index, %end: index, %row_tile: index):
    %start = cta.read_index %offsets[%g] : memref<?xi32>
  } {persistent}
  cta.return
}

// -----

// A grouped GEMM's walk in a pipelined program: the producer's elected thread
// scans one group per step (no shuffles: its warp's other lanes do not run
// the walk); the math warpgroups scan 32 at a time. With group_m = 8 each
// group's units go in bands of min(its row tiles, 8) rows: one scan, to the
// unit's row slot (unit / column tiles), then the band inside the group.
// CHECK-LABEL: llvm.func @grouped_roles(
// CHECK:         nvvm.setmaxregister decrease 40
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         arith.divui
// CHECK:         scf.while
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     scf.while
// CHECK:         arith.minui %{{.*}}, %c8_i32
// CHECK:         arith.remui
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         nvvm.setmaxregister increase 232
// CHECK:         arith.divui
// CHECK:         scf.while
// CHECK-COUNT-5:   nvvm.shfl.sync up
// CHECK-NOT:     scf.while
// CHECK:         arith.minui %{{.*}}, %c8_i32
// CHECK:         arith.remui
cta.program @grouped_roles(%offsets: memref<?xi32> {cta.param = #cta.param<"offsets", input, [E+1]>}, %y: memref<?x?xbf16> {cta.param = #cta.param<"y", output, [T, N]>}, %E: index {cta.dim = #cta.dim<E>}, %T: index {cta.dim = #cta.dim<T>}, %N: index {cta.dim = #cta.dim<N>}) attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
    cta.tile_loop grouped offsets(%offsets : memref<?xi32>, %E) (%T, %N) tile [128, 256] {
    ^bb0(%g: index, %m0: index, %n0: index, %end: index, %row_tile: index):
    } {group_m = 8 : i64, persistent}
  } #cta.role<math, warps = 8, regs = 232> {
    cta.tile_loop grouped offsets(%offsets : memref<?xi32>, %E) (%T, %N) tile [128, 256] {
    ^bb0(%g: index, %m0: index, %n0: index, %end: index, %row_tile: index):
    } {group_m = 8 : i64, persistent}
  }
  cta.return
}

// -----

cta.program @grouped_not_persistent(%offsets: memref<?xi32> {cta.param = #cta.param<"cu", input, [B+1]>}, %B: index {cta.dim = #cta.dim<B>}, %T: index {cta.dim = #cta.dim<T>}) attributes {block = array<i64: 128, 1, 1>} {
  // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_90a: a grouped tile walk that is not persistent (its units depend on offsets on the device)}}
  cta.tile_loop grouped offsets(%offsets : memref<?xi32>, %B) (%T, %T) tile [128, 64] {
  ^bb0(%g: index, %m0: index, %n0: index, %end: index, %row_tile: index):
  }
  cta.return
}

// -----

// A banded longest-first walk: units of band b (n batch entries; the last
// band may have fewer) take the row tiles longest first in the last band
// and every second band before it (the walk ends with short units),
// shortest first in the others, the band's entries faster; the band size
// passes through an opaque copy (redone per unit, not hoisted).
// CHECK-LABEL: llvm.func @banded_walk(
// CHECK:         scf.for
// CHECK:           llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;"
// CHECK:           arith.minui
// CHECK:           %[[B:.*]] = arith.divui
// CHECK:           %[[BANDS:.*]] = arith.ceildivui
// CHECK:           %[[LAST:.*]] = arith.subi %[[BANDS]], %{{.*}} : i32
// CHECK-NEXT:      %[[FROMLAST:.*]] = arith.subi %[[LAST]], %[[B]] : i32
// CHECK-NEXT:      %[[PARITY:.*]] = arith.andi %[[FROMLAST]], %{{.*}} : i32
// CHECK:           %[[EVEN:.*]] = arith.cmpi eq, %[[PARITY]], %{{.*}} : i32
// CHECK:           arith.select %[[EVEN]], %{{.*}}, %{{.*}} : i32
cta.program @banded_walk(%o: memref<?x?x?xf32> {cta.param = #cta.param<"o", output, [B, S, S]>}, %B: index {cta.dim = #cta.dim<B>}, %S: index {cta.dim = #cta.dim<S>}) attributes {block = array<i64: 128, 1, 1>} {
  %c3 = arith.constant 3 : index
  cta.tile_loop batched (%B, %S, %S) tile [1, 128, 128] band(%c3) {
  ^bb0(%b: index, %m0: index, %n0: index):
  } {longest_first, persistent}
  cta.return
}
