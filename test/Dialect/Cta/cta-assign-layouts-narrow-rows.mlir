// RUN: kiln-opt %s --cta-assign-layouts | FileCheck %s

// Regression test (dialects/Cta/Transforms/AssignLayouts.cpp): the row width is
// computed as cols * bits / 8, which rounds a row narrower than a byte down
// to 0 bytes, and 0 is a multiple of every span, so the buffer gets the 128B
// swizzle. A row this narrow cannot be swizzled at all.

// CHECK: cta.alloc : <64x1xf4E2M1FN, swizzle = "none">
cta.program @narrow() {
  %0 = cta.alloc : !cta.buffer<64x1xf4E2M1FN>
  cta.return
}
