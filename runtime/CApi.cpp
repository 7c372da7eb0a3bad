//===- CApi.cpp - The C API (kiln.h) over kiln::Module --------------------===//
//
// Nothing may escape into C callers: every entry point catches everything and
// reports through a status and the thread-local last-error message.
//
//===----------------------------------------------------------------------===//

#include "runtime/kiln.h"

#include "runtime/BlockScale.h"
#include "runtime/DimExpr.h"
#include "runtime/Runtime.h"

#include <new>
#include <string>
#include <vector>

using namespace kiln;

static_assert(KILN_MAX_RANK == kMaxRank,
              "kiln.h and Manifest.h disagree on the rank limit");
static_assert(KILN_MANIFEST_VERSION == kManifestVersion, "");
static_assert(
    KILN_ERROR_INVALID_VALUE == static_cast<int>(ErrorCode::InvalidValue) &&
        KILN_ERROR_IO == static_cast<int>(ErrorCode::Io) &&
        KILN_ERROR_MANIFEST == static_cast<int>(ErrorCode::Manifest) &&
        KILN_ERROR_ARGUMENT == static_cast<int>(ErrorCode::Argument) &&
        KILN_ERROR_DEVICE == static_cast<int>(ErrorCode::Device) &&
        KILN_ERROR_CUDA == static_cast<int>(ErrorCode::Cuda) &&
        KILN_ERROR_INTERNAL == static_cast<int>(ErrorCode::Internal),
    "kiln_status must equal kiln::ErrorCode");
static_assert(KILN_BF16 == static_cast<int>(DType::BF16) &&
                  KILN_F16 == static_cast<int>(DType::F16) &&
                  KILN_F32 == static_cast<int>(DType::F32) &&
                  KILN_I32 == static_cast<int>(DType::I32) &&
                  KILN_E4M3 == static_cast<int>(DType::E4M3) &&
                  KILN_E5M2 == static_cast<int>(DType::E5M2) &&
                  KILN_E2M1 == static_cast<int>(DType::E2M1) &&
                  KILN_UE8M0 == static_cast<int>(DType::UE8M0),
              "kiln_dtype must equal kiln::DType");
static_assert(KILN_ROLE_INPUT == static_cast<int>(ParamRole::Input) &&
                  KILN_ROLE_OUTPUT == static_cast<int>(ParamRole::Output) &&
                  KILN_ROLE_SCALE == static_cast<int>(ParamRole::Scale),
              "");

/// The module plus the C strings the query functions hand out.
struct kiln_module {
  std::unique_ptr<Module> module;
  struct ParamStrings {
    std::vector<std::string> shape;
    std::vector<const char *> shapePtrs;
  };
  std::vector<ParamStrings> params;
};

namespace {

thread_local std::string lastError;

kiln_status fail(kiln_status s, const std::string &message) {
  try {
    lastError = message;
  } catch (...) {
    // Keep whatever message was there; the status still says what kind of
    // failure it was.
  }
  return s;
}

kiln_status report(const Status &s) {
  if (s.ok())
    return KILN_OK;
  return fail(static_cast<kiln_status>(s.code()), s.message());
}

/// Converts C tensors; a NULL shape marks an unknown entry when `known` is
/// given.
kiln_status convert(const kiln_tensor *args, int nargs,
                    std::vector<Tensor> &out, std::vector<char> *known) {
  out.assign(static_cast<size_t>(nargs), Tensor());
  if (known)
    known->assign(static_cast<size_t>(nargs), 1);
  for (int i = 0; i < nargs; ++i) {
    const kiln_tensor &c = args[i];
    Tensor &t = out[i];
    if (c.shape == nullptr && known) {
      (*known)[i] = 0;
      continue;
    }
    std::string where = "args[" + std::to_string(i) + "]";
    if (c.dtype < KILN_BF16 || c.dtype > KILN_UE8M0)
      return fail(KILN_ERROR_INVALID_VALUE,
                  where + ": unknown dtype " + std::to_string(c.dtype));
    if (c.rank < 0 || c.rank > KILN_MAX_RANK)
      return fail(KILN_ERROR_INVALID_VALUE,
                  where + ": rank " + std::to_string(c.rank) + " outside 0.." +
                      std::to_string(KILN_MAX_RANK));
    if (c.rank > 0 && c.shape == nullptr)
      return fail(KILN_ERROR_INVALID_VALUE, where + ": NULL shape");
    std::vector<int64_t> shape(c.shape, c.shape + c.rank);
    t = c.strides
            ? Tensor::strided(
                  c.data, static_cast<DType>(c.dtype), shape,
                  std::vector<int64_t>(c.strides, c.strides + c.rank))
            : Tensor::contiguous(c.data, static_cast<DType>(c.dtype), shape);
  }
  return KILN_OK;
}

/// convert() for the entry points that accept unknown tensors (shape == NULL),
/// with the per-argument "known" flags as the C++ API takes them.
kiln_status convertPartial(const kiln_tensor *args, int nargs,
                           std::vector<Tensor> &out,
                           std::unique_ptr<bool[]> &known) {
  std::vector<char> flags;
  kiln_status cs = convert(args, nargs, out, &flags);
  if (cs != KILN_OK)
    return cs;
  known.reset(new bool[flags.size() + 1]);
  for (size_t i = 0; i < flags.size(); ++i)
    known[i] = flags[i] != 0;
  return KILN_OK;
}

} // namespace

namespace {

/// The sizes of a quantized matrix, or a failed status naming `fn`.
kiln_status blockScaledShape(const char *fn, BlockScaledFormat format,
                             int64_t rows, int64_t k, BlockScaledShape &shape) {
  std::string error;
  if (!checkBlockScaledShape(format, rows, k, shape, error))
    return fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": " + error);
  return KILN_OK;
}

kiln_status blockScaledBytes(const char *fn, BlockScaledFormat format,
                             int64_t rows, int64_t k, int64_t *dataBytes,
                             int64_t *scaleBytes) {
  if (!dataBytes || !scaleBytes)
    return fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": NULL argument");
  try {
    BlockScaledShape shape;
    kiln_status s = blockScaledShape(fn, format, rows, k, shape);
    if (s != KILN_OK)
      return s;
    *dataBytes = shape.dataBytes;
    *scaleBytes = shape.scaleBytes;
    return KILN_OK;
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL, std::string("unexpected error in ") + fn);
  }
}

/// The padded size of a rows x kBlocks scale tensor, refusing negative and
/// huge extents.
kiln_status scaleTensorBytes(const char *fn, int64_t rows, int64_t kBlocks,
                             int64_t &bytes) {
  std::string what = std::string(fn) + ": " + std::to_string(rows) + " x " +
                     std::to_string(kBlocks) + " scales";
  if (rows < 0 || kBlocks < 0)
    return fail(KILN_ERROR_INVALID_VALUE,
                what + ": extents must not be negative");
  // Whole atoms, each of 512 bytes; the total stays below 2^53.
  const int64_t maxAtoms = (int64_t(1) << 53) / kScaleAtomBytes;
  int64_t rowAtoms = rows / kScaleAtomRows + (rows % kScaleAtomRows != 0);
  int64_t kAtoms =
      kBlocks / kScaleAtomKBlocks + (kBlocks % kScaleAtomKBlocks != 0);
  if (kAtoms != 0 && rowAtoms > maxAtoms / kAtoms)
    return fail(KILN_ERROR_INVALID_VALUE, what + " are too many");
  bytes = static_cast<int64_t>(scaleFactorBytes(
      static_cast<uint64_t>(rows), static_cast<uint64_t>(kBlocks)));
  return KILN_OK;
}

/// Checks that a buffer of `have` bytes at `ptr` holds `need`.
kiln_status checkBuffer(const char *fn, const char *name, const void *ptr,
                        int64_t have, int64_t need) {
  if (need > 0 && !ptr)
    return fail(KILN_ERROR_INVALID_VALUE,
                std::string(fn) + ": NULL " + name + " buffer");
  if (have < need)
    return fail(KILN_ERROR_INVALID_VALUE,
                std::string(fn) + ": the " + name + " buffer holds " +
                    std::to_string(have) + " bytes; it needs " +
                    std::to_string(need));
  return KILN_OK;
}

kiln_status quantize(const char *fn, BlockScaledFormat format, const float *x,
                     int64_t rows, int64_t k, uint8_t *data, int64_t dataBytes,
                     uint8_t *scales, int64_t scaleBytes) {
  try {
    BlockScaledShape shape;
    kiln_status s = blockScaledShape(fn, format, rows, k, shape);
    if (s == KILN_OK && rows * k > 0 && !x)
      s = fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": NULL x");
    if (s == KILN_OK)
      s = checkBuffer(fn, "data", data, dataBytes, shape.dataBytes);
    if (s == KILN_OK)
      s = checkBuffer(fn, "scale", scales, scaleBytes, shape.scaleBytes);
    if (s != KILN_OK)
      return s;
    std::string error;
    if (!quantizeBlockScaled(format, x, rows, k, data, scales, error))
      return fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": " + error);
    return KILN_OK;
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL, std::string("unexpected error in ") + fn);
  }
}

kiln_status dequantize(const char *fn, BlockScaledFormat format,
                       const uint8_t *data, int64_t dataBytes,
                       const uint8_t *scales, int64_t scaleBytes, int64_t rows,
                       int64_t k, float *out) {
  try {
    BlockScaledShape shape;
    kiln_status s = blockScaledShape(fn, format, rows, k, shape);
    if (s == KILN_OK)
      s = checkBuffer(fn, "data", data, dataBytes, shape.dataBytes);
    if (s == KILN_OK)
      s = checkBuffer(fn, "scale", scales, scaleBytes, shape.scaleBytes);
    if (s == KILN_OK && rows * k > 0 && !out)
      s = fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": NULL out");
    if (s != KILN_OK)
      return s;
    std::string error;
    if (!dequantizeBlockScaled(format, data, scales, rows, k, out, error))
      return fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": " + error);
    return KILN_OK;
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL, std::string("unexpected error in ") + fn);
  }
}

} // namespace

extern "C" {

kiln_status kiln_module_load(const char *manifest_path, kiln_module **out) {
  if (out)
    *out = nullptr;
  if (!manifest_path || !out)
    return fail(KILN_ERROR_INVALID_VALUE, "kiln_module_load: NULL argument");
  try {
    auto m = std::make_unique<kiln_module>();
    Status s = Module::load(manifest_path, m->module);
    if (!s.ok())
      return report(s);
    for (const Param &p : m->module->manifest().params) {
      kiln_module::ParamStrings ps;
      for (const DimExpr &e : p.shape)
        ps.shape.push_back(e.str());
      m->params.push_back(std::move(ps));
    }
    for (auto &ps : m->params)
      for (const std::string &s : ps.shape)
        ps.shapePtrs.push_back(s.c_str());
    *out = m.release();
    return KILN_OK;
  } catch (const std::bad_alloc &) {
    return fail(KILN_ERROR_INTERNAL,
                "out of memory loading " + std::string(manifest_path));
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL,
                "unexpected error loading " + std::string(manifest_path));
  }
}

void kiln_module_free(kiln_module *module) {
  try {
    delete module;
  } catch (...) {
    // Destructors here do not throw; nothing else can be done in a void C
    // function.
  }
}

kiln_status kiln_module_prepare(kiln_module *module, void *stream) {
  if (!module)
    return fail(KILN_ERROR_INVALID_VALUE, "kiln_module_prepare: NULL module");
  try {
    return report(module->module->prepare(static_cast<CUstream>(stream)));
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL, "unexpected error in kiln_module_prepare");
  }
}

kiln_status kiln_launch(kiln_module *module, const kiln_tensor *args, int nargs,
                        void *stream) {
  if (!module)
    return fail(KILN_ERROR_INVALID_VALUE, "kiln_launch: NULL module");
  if (nargs < 0 || (nargs > 0 && !args))
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_launch: invalid argument array");
  try {
    std::vector<Tensor> tensors;
    kiln_status cs = convert(args, nargs, tensors, nullptr);
    if (cs != KILN_OK)
      return cs;
    return report(module->module->launch(tensors.data(), tensors.size(),
                                         static_cast<CUstream>(stream)));
  } catch (const std::bad_alloc &) {
    return fail(KILN_ERROR_INTERNAL, "out of memory in kiln_launch");
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL, "unexpected error in kiln_launch");
  }
}

struct kiln_prepared {
  kiln::PreparedLaunch launch;
};

kiln_status kiln_prepare_launch(kiln_module *module, const kiln_tensor *args,
                                int nargs, void *stream, kiln_prepared **out) {
  if (out)
    *out = nullptr;
  if (!module || !out)
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_prepare_launch: NULL module or out");
  if (nargs < 0 || (nargs > 0 && !args))
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_prepare_launch: invalid argument array");
  try {
    std::vector<Tensor> tensors;
    kiln_status cs = convert(args, nargs, tensors, nullptr);
    if (cs != KILN_OK)
      return cs;
    auto prepared = std::make_unique<kiln_prepared>();
    kiln_status st = report(module->module->prepareLaunch(
        tensors.data(), tensors.size(), static_cast<CUstream>(stream),
        prepared->launch));
    if (st == KILN_OK)
      *out = prepared.release();
    return st;
  } catch (const std::bad_alloc &) {
    return fail(KILN_ERROR_INTERNAL, "out of memory in kiln_prepare_launch");
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL,
                "unexpected error in kiln_prepare_launch");
  }
}

kiln_status kiln_launch_prepared(const kiln_prepared *prepared, void *stream) {
  if (!prepared)
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_launch_prepared: NULL prepared launch");
  try {
    return report(prepared->launch.launch(static_cast<CUstream>(stream)));
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL,
                "unexpected error in kiln_launch_prepared");
  }
}

void kiln_prepared_free(kiln_prepared *prepared) { delete prepared; }

const char *kiln_last_error(void) { return lastError.c_str(); }

const char *kiln_status_name(kiln_status status) {
  switch (status) {
  case KILN_OK:
    return "KILN_OK";
  case KILN_ERROR_INVALID_VALUE:
    return "KILN_ERROR_INVALID_VALUE";
  case KILN_ERROR_IO:
    return "KILN_ERROR_IO";
  case KILN_ERROR_MANIFEST:
    return "KILN_ERROR_MANIFEST";
  case KILN_ERROR_ARGUMENT:
    return "KILN_ERROR_ARGUMENT";
  case KILN_ERROR_DEVICE:
    return "KILN_ERROR_DEVICE";
  case KILN_ERROR_CUDA:
    return "KILN_ERROR_CUDA";
  case KILN_ERROR_INTERNAL:
    return "KILN_ERROR_INTERNAL";
  }
  return "KILN_ERROR_UNKNOWN";
}

const char *kiln_dtype_name(int32_t dtype) {
  if (dtype < KILN_BF16 || dtype > KILN_UE8M0)
    return nullptr;
  return dtypeName(static_cast<DType>(dtype));
}

const char *kiln_module_kernel(const kiln_module *module) {
  return module ? module->module->manifest().kernel.c_str() : nullptr;
}

const char *kiln_module_chip(const kiln_module *module) {
  return module ? module->module->manifest().chip.c_str() : nullptr;
}

int kiln_module_num_params(const kiln_module *module) {
  return module ? static_cast<int>(module->module->manifest().params.size())
                : -1;
}

int kiln_module_num_dims(const kiln_module *module) {
  return module ? static_cast<int>(module->module->manifest().dims.size()) : -1;
}

const char *kiln_module_dim_name(const kiln_module *module, int index) {
  if (!module || index < 0 || index >= kiln_module_num_dims(module))
    return nullptr;
  return module->module->manifest().dims[index].c_str();
}

kiln_status kiln_module_param(const kiln_module *module, int index,
                              kiln_param_info *out) {
  if (!module || !out)
    return fail(KILN_ERROR_INVALID_VALUE, "kiln_module_param: NULL argument");
  int n = kiln_module_num_params(module);
  if (index < 0 || index >= n)
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_module_param: index " + std::to_string(index) +
                    " outside 0.." + std::to_string(n - 1));
  const Param &p = module->module->manifest().params[index];
  out->name = p.name.c_str();
  out->role = static_cast<int32_t>(p.role);
  out->dtype = static_cast<int32_t>(p.dtype);
  out->rank = static_cast<int32_t>(p.shape.size());
  out->shape = module->params[index].shapePtrs.data();
  bool scale = p.role == ParamRole::Scale;
  out->scale_of = scale ? p.scaleOf.c_str() : nullptr;
  out->block = scale ? p.block.data() : nullptr;
  out->block_rank = scale ? static_cast<int32_t>(p.block.size()) : 0;
  out->align = p.align;
  return KILN_OK;
}

kiln_status kiln_module_infer_shapes(const kiln_module *module,
                                     const kiln_tensor *args, int nargs,
                                     int64_t *shapes_out, int64_t *dims_out) {
  if (!module || !shapes_out || nargs < 0 || (nargs > 0 && !args))
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_module_infer_shapes: NULL argument");
  try {
    std::vector<Tensor> tensors;
    std::unique_ptr<bool[]> knownArray;
    kiln_status cs = convertPartial(args, nargs, tensors, knownArray);
    if (cs != KILN_OK)
      return cs;
    std::vector<std::vector<int64_t>> shapes;
    std::vector<int64_t> dims;
    Status s = module->module->inferShapes(tensors.data(), knownArray.get(),
                                           tensors.size(), shapes, &dims);
    if (!s.ok())
      return report(s);
    for (size_t i = 0; i < shapes.size(); ++i)
      for (int a = 0; a < KILN_MAX_RANK; ++a)
        shapes_out[i * KILN_MAX_RANK + a] =
            a < static_cast<int>(shapes[i].size()) ? shapes[i][a] : 0;
    if (dims_out)
      for (size_t d = 0; d < dims.size(); ++d)
        dims_out[d] = dims[d];
    return KILN_OK;
  } catch (const std::bad_alloc &) {
    return fail(KILN_ERROR_INTERNAL,
                "out of memory in kiln_module_infer_shapes");
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL,
                "unexpected error in kiln_module_infer_shapes");
  }
}

int kiln_module_num_variants(const kiln_module *module) {
  return module ? static_cast<int>(module->module->numVariants()) : -1;
}

const char *kiln_module_variant_entry(const kiln_module *module, int index) {
  if (!module || index < 0 || index >= kiln_module_num_variants(module))
    return nullptr;
  return module->module->variantEntry(static_cast<size_t>(index)).c_str();
}

int kiln_module_last_variant(const kiln_module *module) {
  return module ? module->module->lastVariant() : -1;
}

kiln_status kiln_module_set_check_offsets(kiln_module *module, int on) {
  if (!module)
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_module_set_check_offsets: null module");
  module->module->setCheckOffsets(on != 0);
  return KILN_OK;
}

int kiln_module_check_offsets(const kiln_module *module) {
  return module ? (module->module->checkOffsets() ? 1 : 0) : -1;
}

kiln_status kiln_module_choose_variant(const kiln_module *module,
                                       const kiln_tensor *args, int nargs,
                                       int sm_count, int *variant_out) {
  if (!module || !variant_out || nargs < 0 || (nargs > 0 && !args))
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_module_choose_variant: NULL argument");
  try {
    std::vector<Tensor> tensors;
    std::unique_ptr<bool[]> knownArray;
    kiln_status cs = convertPartial(args, nargs, tensors, knownArray);
    if (cs != KILN_OK)
      return cs;
    int variant = 0;
    Status s = module->module->chooseVariant(tensors.data(), knownArray.get(),
                                             tensors.size(), sm_count, variant);
    if (!s.ok())
      return report(s);
    *variant_out = variant;
    return KILN_OK;
  } catch (const std::bad_alloc &) {
    return fail(KILN_ERROR_INTERNAL,
                "out of memory in kiln_module_choose_variant");
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL,
                "unexpected error in kiln_module_choose_variant");
  }
}

kiln_status kiln_module_pin_variant(kiln_module *module, int variant) {
  if (!module)
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_module_pin_variant: null module");
  Status s = module->module->pinVariant(variant);
  return s.ok() ? KILN_OK : report(s);
}

int kiln_module_pinned_variant(const kiln_module *module) {
  return module ? module->module->pinnedVariant() : -1;
}

kiln_status kiln_module_explain_variant(const kiln_module *module,
                                        const kiln_tensor *args, int nargs,
                                        int sm_count, const char **text) {
  if (!module || !text || nargs < 0 || (nargs > 0 && !args))
    return fail(KILN_ERROR_INVALID_VALUE,
                "kiln_module_explain_variant: NULL argument");
  try {
    thread_local std::string explanation;
    std::vector<Tensor> tensors;
    std::unique_ptr<bool[]> knownArray;
    kiln_status cs = convertPartial(args, nargs, tensors, knownArray);
    if (cs != KILN_OK)
      return cs;
    Status s = module->module->explainVariant(
        tensors.data(), knownArray.get(), tensors.size(), sm_count,
        explanation);
    if (!s.ok())
      return report(s);
    *text = explanation.c_str();
    return KILN_OK;
  } catch (const std::bad_alloc &) {
    return fail(KILN_ERROR_INTERNAL,
                "out of memory in kiln_module_explain_variant");
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL,
                "unexpected error in kiln_module_explain_variant");
  }
}

static_assert(KILN_DIM_CONST == static_cast<int>(DimExpr::Kind::Const) &&
                  KILN_DIM_NAME == static_cast<int>(DimExpr::Kind::Name) &&
                  KILN_DIM_ADD == static_cast<int>(DimExpr::Kind::Add) &&
                  KILN_DIM_SUB == static_cast<int>(DimExpr::Kind::Sub) &&
                  KILN_DIM_MUL == static_cast<int>(DimExpr::Kind::Mul) &&
                  KILN_DIM_CDIV == static_cast<int>(DimExpr::Kind::CeilDiv),
              "kiln_dim_kind must equal kiln::DimExpr::Kind");

kiln_status kiln_dim_expr_parse(const char *text, int32_t *kind_out,
                                char *name_out, size_t name_capacity,
                                int64_t *value_out) {
  const char *fn = "kiln_dim_expr_parse";
  if (!text || !kind_out || !name_out || !value_out)
    return fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": NULL argument");
  try {
    DimExpr expr;
    std::string error;
    if (!DimExpr::parse(text, expr, error))
      return fail(KILN_ERROR_INVALID_VALUE, error);
    if (expr.name.size() >= name_capacity)
      return fail(KILN_ERROR_INVALID_VALUE,
                  std::string(fn) + ": the dim name needs " +
                      std::to_string(expr.name.size() + 1) +
                      " bytes; the buffer has " +
                      std::to_string(name_capacity));
    expr.name.copy(name_out, expr.name.size());
    name_out[expr.name.size()] = '\0';
    *kind_out = static_cast<int32_t>(expr.kind);
    *value_out = expr.value;
    return KILN_OK;
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL, std::string("unexpected error in ") + fn);
  }
}

kiln_status kiln_scale_factor_bytes(int64_t rows, int64_t k_blocks,
                                    int64_t *bytes_out) {
  const char *fn = "kiln_scale_factor_bytes";
  if (!bytes_out)
    return fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": NULL argument");
  try {
    return scaleTensorBytes(fn, rows, k_blocks, *bytes_out);
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL, std::string("unexpected error in ") + fn);
  }
}

kiln_status kiln_scale_factor_offset(int64_t rows, int64_t k_blocks,
                                     int64_t row, int64_t k_block,
                                     int64_t *offset_out) {
  const char *fn = "kiln_scale_factor_offset";
  if (!offset_out)
    return fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": NULL argument");
  try {
    int64_t bytes = 0;
    kiln_status s = scaleTensorBytes(fn, rows, k_blocks, bytes);
    if (s != KILN_OK)
      return s;
    if (row < 0 || row >= rows || k_block < 0 || k_block >= k_blocks)
      return fail(KILN_ERROR_INVALID_VALUE,
                  std::string(fn) + ": (row " + std::to_string(row) +
                      ", block " + std::to_string(k_block) +
                      ") is outside the " + std::to_string(rows) + " x " +
                      std::to_string(k_blocks) + " scales");
    uint64_t offset = 0;
    std::string error;
    if (!scaleFactorOffset(static_cast<uint64_t>(row),
                           static_cast<uint64_t>(k_block),
                           static_cast<uint64_t>(k_blocks), offset, error))
      return fail(KILN_ERROR_INVALID_VALUE, std::string(fn) + ": " + error);
    *offset_out = static_cast<int64_t>(offset);
    return KILN_OK;
  } catch (...) {
    return fail(KILN_ERROR_INTERNAL, std::string("unexpected error in ") + fn);
  }
}

kiln_status kiln_nvfp4_bytes(int64_t rows, int64_t k, int64_t *data_bytes_out,
                             int64_t *scale_bytes_out) {
  return blockScaledBytes("kiln_nvfp4_bytes", BlockScaledFormat::NVFP4, rows, k,
                          data_bytes_out, scale_bytes_out);
}

kiln_status kiln_mxfp8_bytes(int64_t rows, int64_t k, int64_t *data_bytes_out,
                             int64_t *scale_bytes_out) {
  return blockScaledBytes("kiln_mxfp8_bytes", BlockScaledFormat::MXFP8, rows, k,
                          data_bytes_out, scale_bytes_out);
}

kiln_status kiln_quantize_nvfp4(const float *x, int64_t rows, int64_t k,
                                uint8_t *data, int64_t data_bytes,
                                uint8_t *scales, int64_t scale_bytes) {
  return quantize("kiln_quantize_nvfp4", BlockScaledFormat::NVFP4, x, rows, k,
                  data, data_bytes, scales, scale_bytes);
}

kiln_status kiln_quantize_mxfp8(const float *x, int64_t rows, int64_t k,
                                uint8_t *data, int64_t data_bytes,
                                uint8_t *scales, int64_t scale_bytes) {
  return quantize("kiln_quantize_mxfp8", BlockScaledFormat::MXFP8, x, rows, k,
                  data, data_bytes, scales, scale_bytes);
}

kiln_status kiln_dequantize_nvfp4(const uint8_t *data, int64_t data_bytes,
                                  const uint8_t *scales, int64_t scale_bytes,
                                  int64_t rows, int64_t k, float *out) {
  return dequantize("kiln_dequantize_nvfp4", BlockScaledFormat::NVFP4, data,
                    data_bytes, scales, scale_bytes, rows, k, out);
}

kiln_status kiln_dequantize_mxfp8(const uint8_t *data, int64_t data_bytes,
                                  const uint8_t *scales, int64_t scale_bytes,
                                  int64_t rows, int64_t k, float *out) {
  return dequantize("kiln_dequantize_mxfp8", BlockScaledFormat::MXFP8, data,
                    data_bytes, scales, scale_bytes, rows, k, out);
}

} // extern "C"
