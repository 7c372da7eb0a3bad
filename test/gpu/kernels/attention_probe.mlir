// Causal attention in pipelined cta IR for sm_90a (input of
// test/Driver/sm90-attention.test and test/gpu/test_attention_probe.py): FlashAttention-3's structure,
// with V as stored ([T, D]): the P V MMA reads V tiles [128 keys, 128 d]
// MN-major (imm-trans-b). A static walk over 128-query blocks; Q has a
// one-stage ring held for the KV loop, K and V a two-stage ring; each of the two
// math warpgroups owns 64 query rows and carries O, the running row maxima
// and sums through the KV loop: S = Q K^T (shared memory), the causal mask
// and the log2 scale (cta.frag_map with each element's row and column), the
// online softmax (cta.reduce_rows, cta.frag_map on rows vectors), the rescale
// of O in place, and O += P V with P rounded into the MMA's register lhs
// (cta.convert): no shared-memory round trip for P. ptxas assembles it with
// no spills; test/gpu/test_attention_probe.py runs it against float32.
cta.program @attention(
    %q: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"q", input, [S, D]>},
    %k: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"k", input, [T, D]>},
    %v: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"v", input, [T, D]>},
    %o: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"o", output, [S, D]>},
    %S: index {cta.dim = #cta.dim<S>}, %T: index {cta.dim = #cta.dim<T>}, %D: index {cta.dim = #cta.dim<D>})
    attributes {chip = #cta.chip<sm_90a>, block = array<i64: 384, 1, 1>, cluster = array<i64: 1, 1>,
                schedule = #cta.schedule<stages = 2, math_warpgroups = 2>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %sq = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  %sk = cta.alloc : !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">
  %sv = cta.alloc : !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">
  %so = cta.alloc : !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B">
  %qring = cta.ring {consumers = 2 : i64} : !cta.ring<1>
  %kv = cta.ring {consumers = 2 : i64} : !cta.ring<2>
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 24> {
      %end:2 = cta.tile_loop static (%S, %D) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
      ^bb0(%s0: index, %d0: index, %qpos: index, %pos: index):
        %qnext = cta.produce %qring at %qpos count %c1 : !cta.ring<1> {
        ^bb0(%i: index, %qslot: index):
          cta.load %q[%s0, %c0] -> %sq signal %qring : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x128xbf16, swizzle = "128B">, !cta.ring<1>
        }
        // Causal: key blocks up to this query block's last row.
        %qend = arith.addi %s0, %c128 : index
        %kend = arith.minui %qend, %T : index
        %blocks = arith.ceildivui %kend, %c128 : index
        %next = cta.produce %kv at %pos count %blocks : !cta.ring<2> {
        ^bb0(%j: index, %slot: index):
          %t0 = arith.muli %j, %c128 : index
          cta.load %k[%t0, %c0] -> %sk[%slot] signal %kv : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
          cta.load %v[%t0, %c0] -> %sv[%slot] signal %kv : memref<?x?xbf16, strided<[?, 1]>> -> !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">, !cta.ring<2>
        }
        cta.yield %qnext, %next : index, index
      }
    }
    #cta.role<math, warps = 8, regs = 240> {
      %end:2 = cta.tile_loop static (%S, %D) tile [128, 128] iter_args(%c0, %c0 : index, index) -> (index, index) {
      ^bb0(%s0: index, %d0: index, %qpos: index, %pos: index):
        %wg = cta.warpgroup_index : index
        %r = arith.muli %wg, %c64 : index
        %row0 = arith.addi %s0, %r : index
        %qend = arith.addi %s0, %c128 : index
        %kend = arith.minui %qend, %T : index
        %blocks = arith.ceildivui %kend, %c128 : index
        %ninf = arith.constant 0xFF800000 : f32
        %zero = arith.constant 0.0 : f32
        %scale = arith.constant 0.1275174 : f32   // log2(e) / sqrt(128)
        %false = arith.constant false
        %o0 = cta.acc_zero : !cta.acc<64x128xf32>
        %m0 = cta.splat %ninf : f32 -> !cta.frag<64xf32, rows>
        %l0 = cta.splat %zero : f32 -> !cta.frag<64xf32, rows>
        %qd:5 = cta.consume %qring at %qpos count %c1 iter_args(%o0, %m0, %l0, %pos : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>, index) : !cta.ring<1> -> !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>, index {
        ^bb0(%i0: index, %qslot: index, %oq: !cta.acc<64x128xf32>, %mq: !cta.frag<64xf32, rows>, %lq: !cta.frag<64xf32, rows>, %p0: index):
        %res:4 = cta.consume %kv at %p0 count %blocks iter_args(%oq, %mq, %lq : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>) : !cta.ring<2> -> !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> {
        ^bb0(%j: index, %slot: index, %acc: !cta.acc<64x128xf32>, %m: !cta.frag<64xf32, rows>, %l: !cta.frag<64xf32, rows>):
          // S = Q K^T for this warpgroup's 64 query rows.
          %s = cta.mma %sq rows %r, %sk[%slot], %o0 accumulate %false {transpose_b} : !cta.buffer<128x128xbf16, swizzle = "128B">, !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">, !cta.acc<64x128xf32>
          // Causal mask (and keys past T) from the element's row and
          // column, scaled to log2.
          %t0 = arith.muli %j, %c128 : index
          %sm = cta.frag_map %s : !cta.acc<64x128xf32> -> !cta.frag<64x128xf32, acc> {
          ^bb0(%i: index, %jj: index, %x: f32):
            %qi = arith.addi %row0, %i : index
            %kj = arith.addi %t0, %jj : index
            %causal = arith.cmpi ule, %kj, %qi : index
            %inside = arith.cmpi ult, %kj, %T : index
            %keep = arith.andi %causal, %inside : i1
            %y = arith.mulf %x, %scale : f32
            %z = arith.select %keep, %y, %ninf : f32
            cta.yield %z : f32
          }
          // Online softmax: new row maxima, P = exp2(S - m), rescale O and l.
          %rowmax = cta.reduce_rows max %sm : !cta.frag<64x128xf32, acc> -> !cta.frag<64xf32, rows>
          %mnew = cta.frag_map %m, %rowmax : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
          ^bb0(%i: index, %jj: index, %a: f32, %c: f32):
            %mx = arith.maximumf %a, %c : f32
            cta.yield %mx : f32
          }
          %p = cta.frag_map %sm, %mnew : !cta.frag<64x128xf32, acc>, !cta.frag<64xf32, rows> -> !cta.frag<64x128xf32, acc> {
          ^bb0(%i: index, %jj: index, %x: f32, %mx: f32):
            %d = arith.subf %x, %mx : f32
            %e = math.exp2 %d : f32
            cta.yield %e : f32
          }
          %alpha = cta.frag_map %m, %mnew : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
          ^bb0(%i: index, %jj: index, %a: f32, %c: f32):
            %d = arith.subf %a, %c : f32
            %e = math.exp2 %d : f32
            cta.yield %e : f32
          }
          %psum = cta.reduce_rows sum %p : !cta.frag<64x128xf32, acc> -> !cta.frag<64xf32, rows>
          %lnew = cta.frag_map %l, %alpha, %psum : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
          ^bb0(%i: index, %jj: index, %a: f32, %c: f32, %d: f32):
            %x = arith.mulf %a, %c : f32
            %y = arith.addf %x, %d : f32
            cta.yield %y : f32
          }
          %scaled = cta.frag_map %acc, %alpha : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> -> !cta.acc<64x128xf32> {
          ^bb0(%i: index, %jj: index, %x: f32, %a: f32):
            %y = arith.mulf %x, %a : f32
            cta.yield %y : f32
          }
          // O += P V with P in registers (the MMA's register lhs) and V as
          // stored, [keys, d]: an MN-major rhs (no transpose_b).
          %p16 = cta.convert %p : !cta.frag<64x128xf32, acc> -> !cta.frag<64x128xbf16, lhs>
          %onew = cta.mma %p16, %sv[%slot], %scaled : !cta.frag<64x128xbf16, lhs>, !cta.buffer<128x128xbf16, stages = 2, swizzle = "128B">, !cta.acc<64x128xf32>
          cta.yield %onew, %mnew, %lnew : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>
        }
          cta.yield %res#1, %res#2, %res#3, %res#0 : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>, index
        }
        // O / l, written for this warpgroup's rows (an accumulator, which
        // cta.store takes on sm_90a).
        %out = cta.frag_map %qd#1, %qd#3 : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> -> !cta.acc<64x128xf32> {
        ^bb0(%i: index, %jj: index, %x: f32, %sum: f32):
          %y = arith.divf %x, %sum : f32
          cta.yield %y : f32
        }
        cta.store %out -> %o[%row0, %c0] staging %so[%wg] : !cta.acc<64x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<64x64xbf16, stages = 2, swizzle = "128B"> {
        ^bb0(%x: f32):
          %y = arith.truncf %x : f32 to bf16
          cta.yield %y : bf16
        }
        cta.yield %qd#0, %qd#4 : index, index
      }
    }
  cta.return
}
