//===- CtaTypes.cpp - types and attributes of the cta dialect -------------===//

#include "dialects/Cta/IR/CtaDialect.h"

#include "compiler/Target/Chip.h"
#include "compiler/Target/TensorMemory.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::cta;

#include "dialects/Cta/IR/CtaEnums.cpp.inc"

/// The deepest ring (and #cta.schedule) the IR may name.
static constexpr int64_t kMaxStages = kiln::target::maxIrStages;

/// `64x256xf32`: a static tile shape and its element type.
static ParseResult parseTileShape(AsmParser &parser,
                                  SmallVectorImpl<int64_t> &shape,
                                  Type &elementType) {
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

static void printTileShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                           Type elementType) {
  for (int64_t size : shape)
    printer << size << "x";
  printer << elementType;
}

ParseResult kiln::cta::parseSwizzleMode(AsmParser &parser,
                                        target::SwizzleMode &mode) {
  std::string text;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&text))
    return failure();
  std::optional<target::SwizzleMode> parsed = target::parseSwizzleName(text);
  if (!parsed)
    return parser.emitError(loc, "unknown swizzle '")
           << text << "'; expected none, 32B, 64B or 128B";
  mode = *parsed;
  return success();
}

void kiln::cta::printSwizzleMode(AsmPrinter &printer,
                                 target::SwizzleMode mode) {
  printer << "\"" << target::swizzleName(mode) << "\"";
}

#define GET_TYPEDEF_CLASSES
#include "dialects/Cta/IR/CtaTypes.cpp.inc"

void CtaDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Cta/IR/CtaTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// BufferType: !cta.buffer<128x64xbf16, stages = 4, swizzle = 128B>
//===----------------------------------------------------------------------===//

Type BufferType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  int64_t stages = 1;
  SwizzleAttr swizzle;
  if (parser.parseLess() || parseTileShape(parser, shape, elementType))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key == "stages") {
      if (parser.parseInteger(stages))
        return {};
    } else if (key == "swizzle") {
      target::SwizzleMode mode;
      if (parseSwizzleMode(parser, mode))
        return {};
      swizzle = SwizzleAttr::get(parser.getContext(), mode);
    } else {
      parser.emitError(loc, "unknown buffer parameter '") << key << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return BufferType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), shape, elementType, stages, swizzle);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << "<";
  printTileShape(printer, getShape(), getElementType());
  if (getStages() != 1)
    printer << ", stages = " << getStages();
  if (getSwizzle()) {
    printer << ", swizzle = ";
    printSwizzleMode(printer, getSwizzle().getMode());
  }
  printer << ">";
}

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType,
                                 int64_t stages, SwizzleAttr) {
  if (shape.size() != 2 || shape[0] <= 0 || shape[1] <= 0)
    return emitError() << "a buffer is a 2-D tile with positive extents";
  if (stages < 1 || stages > kMaxStages)
    return emitError() << "a buffer has 1 to " << kMaxStages
                       << " stages, got " << stages;
  if (!elementType.isIntOrFloat())
    return emitError() << "buffer elements must be integers or floats, got "
                       << elementType;
  // All stages live in one CTA's shared memory; the product is
  // overflow-checked because the extents are arbitrary int64s here.
  std::optional<int64_t> bits = llvm::checkedMul<int64_t>(shape[0], shape[1]);
  if (bits)
    bits = llvm::checkedMul<int64_t>(*bits,
                                     elementType.getIntOrFloatBitWidth());
  if (bits)
    bits = llvm::checkedMul<int64_t>(*bits, stages);
  int64_t smemBits = int64_t(target::largestSmemPerBlockOptIn()) * 8;
  if (!bits || *bits > smemBits)
    return emitError() << "a buffer of " << stages << " stage(s) of "
                       << shape[0] << "x" << shape[1] << " "
                       << elementType.getIntOrFloatBitWidth()
                       << "-bit elements exceeds the " << smemBits / 8
                       << " bytes of shared memory a CTA can have";
  return success();
}

int64_t BufferType::getStageBytes() const {
  int64_t bits =
      getShape()[0] * getShape()[1] * getElementType().getIntOrFloatBitWidth();
  return (bits + 7) / 8;
}

BufferType BufferType::withSwizzle(target::SwizzleMode mode) const {
  return BufferType::get(getContext(), getShape(), getElementType(),
                         getStages(), SwizzleAttr::get(getContext(), mode));
}

target::SwizzleMode BufferType::getSwizzleMode() const {
  return getSwizzle() ? getSwizzle().getMode() : target::SwizzleMode::None;
}

BufferType BufferType::withStages(int64_t stages) const {
  return BufferType::get(getContext(), getShape(), getElementType(), stages,
                         getSwizzle());
}

//===----------------------------------------------------------------------===//
// AccType
//===----------------------------------------------------------------------===//

LogicalResult AccType::verify(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<int64_t> shape, Type elementType) {
  if (shape.size() != 2 || shape[0] <= 0 || shape[1] <= 0)
    return emitError() << "an accumulator is a 2-D tile with positive extents";
  if (!elementType.isIntOrFloat())
    return emitError()
           << "accumulator elements must be integers or floats, got "
           << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// FragType
//===----------------------------------------------------------------------===//

LogicalResult FragType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               FragLayout layout) {
  bool vector = layout == FragLayout::rows || layout == FragLayout::cols;
  if (shape.size() != (vector ? 1u : 2u) ||
      llvm::any_of(shape, [](int64_t extent) { return extent <= 0; }))
    return emitError() << "a fragment in the " << stringifyFragLayout(layout)
                       << " layout has " << (vector ? 1 : 2)
                       << " positive extents";
  if (!elementType.isIntOrFloat())
    return emitError() << "fragment elements must be integers or floats, got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

LogicalResult RoleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               RoleKind kind, int64_t warps, int64_t regs) {
  constexpr int64_t maxWarps =
      kiln::target::maxThreadsPerBlock / kiln::target::threadsPerWarp;
  if (warps < 1 || warps > maxWarps)
    return emitError() << "a role has 1 to " << maxWarps << " warps, got "
                       << warps;
  if ((kind == RoleKind::math || kind == RoleKind::epilogue) &&
      warps % kiln::target::warpsPerWarpgroup != 0)
    return emitError() << (kind == RoleKind::epilogue ? "an " : "a ")
                       << stringifyRoleKind(kind)
                       << " role is whole warpgroups (a multiple of 4 warps), "
                          "got "
                       << warps;
  if (regs != 0) {
    using namespace kiln::target;
    if (regs < setmaxnregLowest || regs > setmaxnregHighest ||
        regs % setmaxnregStep != 0)
      return emitError() << "registers per thread must be a multiple of "
                         << setmaxnregStep << " in [" << setmaxnregLowest
                         << ", " << setmaxnregHighest << "], got " << regs;
    if (warps % 4 != 0)
      return emitError() << "a role that resizes registers is whole "
                            "warpgroups, got "
                         << warps << " warps";
  }
  return success();
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t stages, int64_t mathWarpgroups,
                                   int64_t accStages, bool pingpong) {
  if (stages < 1 || stages > kMaxStages)
    return emitError() << "stages must be 1 to " << kMaxStages << ", got "
                       << stages;
  if (mathWarpgroups < 1 || mathWarpgroups > 4)
    return emitError() << "math_warpgroups must be 1 to 4, got "
                       << mathWarpgroups;
  if (accStages < 1 || accStages > 2)
    return emitError() << "acc_stages must be 1 or 2, got " << accStages;
  if (pingpong && (mathWarpgroups != 2 || accStages != 1))
    return emitError() << "pingpong takes turns between 2 math warpgroups "
                          "holding their accumulators in registers, got "
                          "math_warpgroups = "
                       << mathWarpgroups << ", acc_stages = " << accStages;
  return success();
}

//===----------------------------------------------------------------------===//
// RingType
//===----------------------------------------------------------------------===//

LogicalResult RingType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t stages) {
  if (stages < 1 || stages > kMaxStages)
    return emitError() << "a ring has 1 to " << kMaxStages
                       << " stages, got " << stages;
  return success();
}

//===----------------------------------------------------------------------===//
// AccRingType
//===----------------------------------------------------------------------===//

LogicalResult AccRingType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t stages, ArrayRef<AccType> accs) {
  if (stages < 1 || stages > kMaxStages)
    return emitError() << "an accumulator ring has 1 to " << kMaxStages
                       << " stages, got " << stages;
  if (accs.empty())
    return emitError() << "an accumulator ring holds at least one accumulator";
  return success();
}

int64_t AccRingType::getSetColumns() const {
  int64_t columns = 0;
  for (AccType acc : getAccs())
    columns += acc.getShape()[1];
  return columns;
}

//===----------------------------------------------------------------------===//
// TmemType
//===----------------------------------------------------------------------===//

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  if (shape.size() != 2 || shape[0] <= 0 || shape[1] <= 0)
    return emitError() << "a tensor-memory tile is a 2-D tile with positive "
                          "extents";
  if (shape[0] != static_cast<int64_t>(target::tmemLanes))
    return emitError() << "a tensor-memory tile has one row per lane: "
                       << target::tmemLanes << " rows, not " << shape[0];
  if (!elementType.isF32() && !elementType.isBF16() && !elementType.isF16())
    return emitError() << "tensor-memory tiles hold f32, bf16 or f16, not "
                       << elementType;
  // (Two 16-bit elements per column at most: wider tiles never fit.)
  if (shape[1] > 2 * static_cast<int64_t>(target::tmemColumns))
    return emitError() << "a tensor-memory tile of " << shape[1]
                       << " columns; tensor memory has "
                       << target::tmemColumns << " 32-bit columns";
  target::ValueOrError<uint32_t> columns = target::tmemColumnsOf(
      elementType.getIntOrFloatBitWidth(), static_cast<uint32_t>(shape[1]));
  if (!columns)
    return emitError() << columns.error();
  if (*columns > target::tmemColumns)
    return emitError() << "a tensor-memory tile of " << *columns
                       << " columns; tensor memory has "
                       << target::tmemColumns << " 32-bit columns";
  return success();
}

int64_t TmemType::getColumns() const {
  return *target::tmemColumnsOf(getElementType().getIntOrFloatBitWidth(),
                                static_cast<uint32_t>(getShape()[1]));
}
