//===- AssignLayouts.cpp - choose shared-memory swizzles ------------------===//
//
// A buffer's layout is a row of column blocks, each `span` bytes wide and
// holding all rows (the canonical K-major layout of TMA boxes and MMA
// descriptors); within a block the 16-byte chunks of row r are XOR-permuted by
// r mod 8. Choosing the span here, once per buffer, is what makes the copy
// that fills a buffer and the MMA or store that reads it agree.
//
//===----------------------------------------------------------------------===//

#include "dialects/Cta/Transforms/Passes.h"

namespace kiln::cta {
#define GEN_PASS_DEF_CTAASSIGNLAYOUTS
#include "dialects/Cta/Transforms/Passes.h.inc"
} // namespace kiln::cta

using namespace mlir;
using namespace kiln::cta;

namespace {
struct CtaAssignLayoutsPass
    : public kiln::cta::impl::CtaAssignLayoutsBase<CtaAssignLayoutsPass> {
  void runOnOperation() override {
    getOperation().walk([](AllocOp alloc) {
      BufferType type = alloc.getBuffer().getType();
      if (type.getSwizzle())
        return;
      int64_t rowBits =
          type.getShape()[1] * type.getElementType().getIntOrFloatBitWidth();
      // Rows that are not whole bytes cannot be swizzled.
      int64_t rowBytes = rowBits % 8 == 0 ? rowBits / 8 : 0;
      alloc.getBuffer().setType(type.withSwizzle(kiln::target::chooseSwizzle(rowBytes)));
    });
  }
};
} // namespace
