//===- SemaTypes.cpp - declared tensor types ------------------------------===//
//
// Resolves `dtype[dims] scaled(...)` as written on a parameter or output into
// a TensorType, enforcing the block-scaling rules of docs/language.md.
//
//===----------------------------------------------------------------------===//

#include "frontend/Sema.h"
#include "frontend/Suggest.h"

#include "compiler/Target/Chip.h"

#include "llvm/ADT/StringSwitch.h"

using namespace kiln;
using namespace kiln::ast;
using mlir::failure;
using mlir::LogicalResult;
using mlir::success;

namespace {

/// The element and scale of `nvfp4`, `mxfp8` and `mxfp4`.
struct Shorthand {
  ElemType data;
  BlockScale scale;
};

std::optional<Shorthand> lookupShorthand(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Shorthand>>(name)
      .Case("nvfp4", Shorthand{ElemType::E2M1, {ElemType::E4M3, 1, 16}})
      .Case("mxfp8", Shorthand{ElemType::E4M3, {ElemType::UE8M0, 1, 32}})
      .Case("mxfp4", Shorthand{ElemType::E2M1, {ElemType::UE8M0, 1, 32}})
      .Default(std::nullopt);
}

constexpr llvm::StringLiteral kDTypeNames[] = {"bf16",  "f16",  "f32",  "i32",
                                               "e4m3",  "e5m2", "e2m1", "nvfp4",
                                               "mxfp8", "mxfp4"};

std::string listDTypes() {
  std::string list;
  for (llvm::StringRef name : kDTypeNames)
    list += (list.empty() ? "" : ", ") + name.str();
  return list;
}

/// A block is 1xN or NxN with N a power of two from 16 to 128.
bool isValidBlock(int64_t rows, int64_t cols) {
  bool validCols = cols >= 16 && cols <= 128 && llvm::isPowerOf2_64(cols);
  return validCols && (rows == 1 || rows == cols);
}

/// The canonical spelling of a dim, or nullopt after an error.
std::optional<std::string> resolveDim(const DimSpec &dim,
                                      const SourceLocator &locator) {
  if (dim.name.empty()) {
    if (dim.value < 1) {
      locator.emitError(dim.loc) << "extent " << dim.value
                                 << " is not allowed; extents are at least 1";
      return std::nullopt;
    }
    if (dim.value > target::maxKernelIndex) {
      locator.emitError(dim.loc)
          << "extent " << dim.value << " exceeds " << target::maxKernelIndex
          << ", the largest extent a kernel indexes (its coordinates are "
             "32-bit)";
      return std::nullopt;
    }
    return std::to_string(dim.value);
  }
  // The same bound for the integer of NAME+INT, NAME-INT and NAME*INT: any
  // larger one makes every extent of that axis too large.
  if (dim.op != 0 && dim.value > target::maxKernelIndex) {
    locator.emitError(dim.valueLoc)
        << "'" << dim.name << " " << dim.op << " " << dim.value
        << "': the integer exceeds " << target::maxKernelIndex
        << ", the largest extent a kernel indexes (its coordinates are "
           "32-bit)";
    return std::nullopt;
  }
  switch (dim.op) {
  case 0:
    return dim.name;
  case '+':
  case '-':
    if (dim.value == 0)
      return dim.name;
    return dim.name + dim.op + std::to_string(dim.value);
  case '*':
    if (dim.value == 0) {
      locator.emitError(dim.valueLoc)
          << "'" << dim.name << " * 0' is always 0; extents are at least 1";
      return std::nullopt;
    }
    if (dim.value == 1)
      return dim.name;
    return dim.name + "*" + std::to_string(dim.value);
  }
  return std::nullopt;
}

LogicalResult resolveScale(TensorDecl &decl, const SourceLocator &locator) {
  const ScaleSpec &spec = *decl.spec.scale;
  TensorType &type = decl.type;
  if (!isNarrowFloat(type.dtype) || type.dtype == ElemType::UE8M0)
    return locator.emitError(spec.loc)
           << "only e4m3, e5m2 and e2m1 data can be block-scaled, not "
           << getDTypeName(type.dtype);
  std::optional<ElemType> scaleType = parsePlainDType(spec.dtype);
  if (!scaleType || (*scaleType != ElemType::F32 && *scaleType != ElemType::E4M3 &&
                     *scaleType != ElemType::UE8M0))
    return locator.emitError(spec.dtypeLoc)
           << "unknown scale dtype '" << spec.dtype
           << "'; expected f32, e4m3 or ue8m0";
  if (!isValidBlock(spec.rows, spec.cols))
    return locator.emitError(spec.blockLoc)
           << "block " << spec.rows << "x" << spec.cols
           << " is not allowed; a block is 1xN or NxN with N one of 16, 32, "
              "64, 128";
  if (*scaleType == ElemType::F32 && type.dtype == ElemType::E2M1)
    return locator.emitError(spec.dtypeLoc)
           << "f32 scales apply to fp8 data (e4m3, e5m2); e2m1 takes e4m3 or "
              "ue8m0 scales";
  if (*scaleType != ElemType::F32) {
    // Hardware block scaling (tcgen05.mma.block_scale) reads one scale per
    // 16 or 32 elements of a row along K.
    if (spec.rows != 1 || spec.cols > 32)
      return locator.emitError(spec.blockLoc)
             << getDTypeName(*scaleType) << " scales cover 1x16 or 1x32 blocks "
             << "(hardware block scaling), not " << spec.rows << "x"
             << spec.cols;
    if (*scaleType == ElemType::E4M3 && type.dtype != ElemType::E2M1)
      return locator.emitError(spec.dtypeLoc)
             << "e4m3 scales apply to e2m1 data (NVFP4), not "
             << getDTypeName(type.dtype) << "; use ue8m0 scales (MXFP8)";
  }
  type.scale = BlockScale{*scaleType, spec.rows, spec.cols};
  return success();
}

} // namespace

LogicalResult kiln::resolveTensorDecl(TensorDecl &decl, bool isOutput,
                                      const SourceLocator &locator) {
  const TypeSpec &spec = decl.spec;
  TensorType &type = decl.type;
  type = TensorType();

  // Dims first: they are independent of the dtype.
  for (const DimSpec &dim : spec.dims) {
    std::optional<std::string> resolved = resolveDim(dim, locator);
    if (!resolved)
      return failure();
    type.shape.push_back(*resolved);
  }

  if (std::optional<Shorthand> shorthand = lookupShorthand(spec.dtype)) {
    if (spec.scale)
      return locator.emitError(spec.scale->loc)
             << spec.dtype << " already carries its block scale ("
             << getDTypeName(shorthand->scale.dtype) << " per "
             << shorthand->scale.rows << "x" << shorthand->scale.cols
             << "); drop scaled(...) or write " << getDTypeName(shorthand->data)
             << "[...] scaled(...)";
    type.dtype = shorthand->data;
    type.scale = shorthand->scale;
  } else if (std::optional<ElemType> dtype = parsePlainDType(spec.dtype)) {
    type.dtype = *dtype;
    if (*dtype == ElemType::UE8M0)
      return locator.emitError(spec.dtypeLoc)
             << "ue8m0 is only a scale type, as in e4m3[M, K] scaled(ue8m0, "
                "1x32)";
    if (spec.scale && failed(resolveScale(decl, locator)))
      return failure();
    if (*dtype == ElemType::E2M1 && !spec.scale)
      return locator.emitError(spec.dtypeLoc)
             << "e2m1 data needs a block scale: write nvfp4, mxfp4, or "
                "e2m1[...] scaled(e4m3, 1x16)";
  } else {
    llvm::SmallVector<llvm::StringRef> names(std::begin(kDTypeNames),
                                             std::end(kDTypeNames));
    return locator.emitError(spec.dtypeLoc)
           << "unknown dtype '" << spec.dtype << "'; expected one of "
           << listDTypes() << didYouMean(spec.dtype, names);
  }

  if (type.scale) {
    llvm::SMLoc where = spec.scale ? spec.scale->loc : spec.dtypeLoc;
    if (isOutput)
      return locator.emitError(where)
             << "output '" << decl.name
             << "' cannot be block-scaled; Kiln does not produce scale tensors";
    if (type.shape.size() < 2)
      return locator.emitError(where)
             << "block scales cover the last two axes, but '" << decl.name
             << "' has rank " << type.shape.size();
    // The scale tensor's extents are cdiv(dim, block); the dialect spells
    // that only for a name or a constant.
    size_t rank = type.shape.size();
    const int64_t blocks[2] = {type.scale->rows, type.scale->cols};
    for (unsigned i = 0; i < 2; ++i) {
      const DimSpec &dim = spec.dims[rank - 2 + i];
      if (blocks[i] > 1 && dim.op != 0)
        return locator.emitError(dim.loc)
               << "a blocked extent must be a name or a constant, not '"
               << type.shape[rank - 2 + i] << "'";
    }
  }
  return success();
}
