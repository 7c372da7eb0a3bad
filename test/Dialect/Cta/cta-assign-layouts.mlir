// RUN: kiln-opt %s --cta-assign-layouts | FileCheck %s

// Each buffer gets the widest swizzle whose span divides its row's bytes; a
// buffer that already has a layout keeps it, and stages are kept.

// CHECK-LABEL: cta.program @widths()
// 64 bf16 = 128 bytes.
// CHECK-NEXT:    cta.alloc : <128x64xbf16, swizzle = "128B">
// 256 bytes: two 128-byte spans.
// CHECK-NEXT:    cta.alloc : <64x64xf32, swizzle = "128B">
// CHECK-NEXT:    cta.alloc : <128x128xf8E4M3FN, swizzle = "128B">
// 256 four-bit elements are 128 bytes.
// CHECK-NEXT:    cta.alloc : <128x256xf4E2M1FN, swizzle = "128B">
// 64 bytes.
// CHECK-NEXT:    cta.alloc : <64x32xbf16, swizzle = "64B">
// 192 bytes: not a multiple of 128, a multiple of 64.
// CHECK-NEXT:    cta.alloc : <64x96xf16, swizzle = "64B">
// 32 and 96 bytes.
// CHECK-NEXT:    cta.alloc : <64x16xbf16, swizzle = "32B">
// CHECK-NEXT:    cta.alloc : <64x48xbf16, swizzle = "32B">
// 16 bytes: too narrow for any swizzle.
// CHECK-NEXT:    cta.alloc : <64x8xbf16, swizzle = "none">
// CHECK-NEXT:    cta.alloc : <64x20xf32, swizzle = "none">
// Stages are kept.
// CHECK-NEXT:    cta.alloc : <128x64xbf16, stages = 4, swizzle = "128B">
// Existing layouts are kept, even where a wider one would fit.
// CHECK-NEXT:    cta.alloc : <128x64xbf16, swizzle = "32B">
// CHECK-NEXT:    cta.alloc : <128x64xbf16, swizzle = "none">
cta.program @widths() {
  %0 = cta.alloc : !cta.buffer<128x64xbf16>
  %1 = cta.alloc : !cta.buffer<64x64xf32>
  %2 = cta.alloc : !cta.buffer<128x128xf8E4M3FN>
  %3 = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %4 = cta.alloc : !cta.buffer<64x32xbf16>
  %5 = cta.alloc : !cta.buffer<64x96xf16>
  %6 = cta.alloc : !cta.buffer<64x16xbf16>
  %7 = cta.alloc : !cta.buffer<64x48xbf16>
  %8 = cta.alloc : !cta.buffer<64x8xbf16>
  %9 = cta.alloc : !cta.buffer<64x20xf32>
  %10 = cta.alloc : !cta.buffer<128x64xbf16, stages = 4>
  %11 = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "32B">
  %12 = cta.alloc : !cta.buffer<128x64xbf16, swizzle = none>
  cta.return
}

// Every use sees the new type: loads (also into row bands, and into ring
// stages inside a warp role), MMAs and stores agree with the buffer.
// CHECK-LABEL: cta.program @uses(
// CHECK:         %[[SA:.*]] = cta.alloc : <128x64xbf16, swizzle = "128B">
// CHECK:         %[[SW:.*]] = cta.alloc : <256x64xbf16, swizzle = "128B">
// CHECK:         %[[SC:.*]] = cta.alloc : <128x32xbf16, swizzle = "64B">
// CHECK:         cta.load %{{.*}} -> %[[SA]] : memref<?x?xbf16> -> <128x64xbf16, swizzle = "128B">
// CHECK:         cta.load %{{.*}} -> %[[SW]] {dst_rows = array<i64: 128, 256>} : memref<?x?xbf16> -> <256x64xbf16, swizzle = "128B">
// CHECK:         cta.mma %[[SA]], %[[SW]], %{{.*}} {transpose_b} : !cta.buffer<128x64xbf16, swizzle = "128B">, <256x64xbf16, swizzle = "128B">, <128x256xf32>
// CHECK:         cta.split_cols
// CHECK:         cta.store {{.*}} staging %[[SC]] : !cta.acc<128x128xf32>, !cta.acc<128x128xf32> -> memref<?x?xbf16>, !cta.buffer<128x32xbf16, swizzle = "64B">
cta.program @uses(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>},
                  %k: index {cta.dim = #cta.dim<K>}) {
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  %sw = cta.alloc : !cta.buffer<256x64xbf16>
  %sc = cta.alloc : !cta.buffer<128x32xbf16>
  %z = cta.acc_zero : !cta.acc<128x256xf32>
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<128x256xf32>):
    cta.load %a[%k0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
    cta.load %a[%k0, %k0] -> %sw {dst_rows = array<i64: 128, 256>} : memref<?x?xbf16> -> !cta.buffer<256x64xbf16>
    %p = cta.mma %sa, %sw, %acc {transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<256x64xbf16>, !cta.acc<128x256xf32>
    cta.yield %p : !cta.acc<128x256xf32>
  }
  %g, %u = cta.split_cols %r : !cta.acc<128x256xf32> -> !cta.acc<128x128xf32>, !cta.acc<128x128xf32>
  cta.store %g, %u -> %c[%k, %k] staging %sc : !cta.acc<128x128xf32>, !cta.acc<128x128xf32> -> memref<?x?xbf16>, !cta.buffer<128x32xbf16> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %e, %f : f32
    %t = arith.truncf %m : f32 to bf16
    cta.yield %t : bf16
  }
  cta.return
}

// A ring of stages gets the swizzle of one stage, and its uses inside a warp
// role (a producer's slotted loads) see it.
// CHECK-LABEL: cta.program @ring_stages(
// CHECK:         %[[SA:.*]] = cta.alloc : <64x64xf16, stages = 3, swizzle = "128B">
// CHECK:         #cta.role<producer, warps = 4>
// CHECK:           cta.load %{{.*}} -> %[[SA]][%{{.*}}] signal %{{.*}} : memref<?x?xf16> -> <64x64xf16, stages = 3, swizzle = "128B">, !cta.ring<3>
cta.program @ring_stages(%a: memref<?x?xf16> {cta.param = #cta.param<"a", input, [M, K]>}, %k: index {cta.dim = #cta.dim<K>}) {
  %sa = cta.alloc : !cta.buffer<64x64xf16, stages = 3>
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<3>
  cta.warp_specialize
    #cta.role<producer, warps = 4> {
      %next = cta.produce %ring at %k count %k : !cta.ring<3> {
      ^bb0(%kb: index, %slot: index):
        cta.load %a[%kb, %kb] -> %sa[%slot] signal %ring : memref<?x?xf16> -> !cta.buffer<64x64xf16, stages = 3>, !cta.ring<3>
      }
    }
  cta.return
}
