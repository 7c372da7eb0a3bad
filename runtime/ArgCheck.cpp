//===- ArgCheck.cpp - Bind dims and validate launch arguments -------------===//

#include "runtime/ArgCheck.h"

#include "runtime/Format.h"
#include "runtime/Limits.h"

namespace kiln {

namespace {

std::string shapeSpelling(const PlannedParam &p) {
  std::string s = "[";
  for (int a = 0; a < p.rank; ++a)
    s += (a ? ", " : "") + p.shape[a].expr.str();
  return s + "]";
}

std::string paramList(const LaunchPlan &plan) {
  std::string s;
  for (size_t i = 0; i < plan.params.size(); ++i)
    s += (i ? ", " : "") + plan.params[i].name;
  return s;
}

std::string where(const PlannedParam &p, int axis) {
  return "param '" + p.name + "' axis " + std::to_string(axis);
}

/// "K = 512 (from param 'a' axis 1)".
std::string boundFrom(const LaunchPlan &plan, const BoundDims &b, int d) {
  if (d < 0)
    return "no dims";
  const DimSource &s = b.sources[d];
  return plan.dimName(d) + " = " + std::to_string(b.values[d]) +
         " (from param '" + plan.params[s.param].name + "' axis " +
         std::to_string(s.axis) + ")";
}

/// Evaluates `e`; fails with a message if its dim is unbound, it overflows or
/// is negative.
bool evaluate(const LaunchPlan &plan, const BoundDims &b, const PlannedExpr &e,
              const std::string &what, int64_t &out, std::string &error) {
  int64_t v = 0;
  if (e.dim >= 0) {
    v = b.values[e.dim];
    if (v < 0) {
      error = what + ": dim '" + plan.dimName(e.dim) +
              "' is not bound by any given tensor";
      return false;
    }
  }
  if (!e.expr.evaluate(v, out)) {
    error = what + ": " + e.expr.str() + " overflows with " +
            boundFrom(plan, b, e.dim);
    return false;
  }
  if (out < 0) {
    error = what + ": " + e.expr.str() + " = " + std::to_string(out) +
            " is negative with " + boundFrom(plan, b, e.dim);
    return false;
  }
  return true;
}

} // namespace

bool bindDims(const LaunchPlan &plan, const Tensor *args, const bool *known,
              size_t count, BoundDims &out, std::string &error) {
  if (count != plan.params.size()) {
    error = "kernel '" + plan.manifest.kernel + "' takes " +
            std::to_string(plan.params.size()) + " tensors (" +
            paramList(plan) + "), got " + std::to_string(count);
    return false;
  }
  auto given = [&](size_t i) { return known == nullptr || known[i]; };

  for (size_t i = 0; i < count; ++i) {
    if (!given(i))
      continue;
    const PlannedParam &p = plan.params[i];
    const Tensor &t = args[i];
    if (t.rank < 0 || t.rank > kMaxRank) {
      error = "param '" + p.name + "': invalid tensor description (more than " +
              std::to_string(kMaxRank) +
              " axes, or shape and strides of different lengths)";
      return false;
    }
    if (t.dtype != p.dtype) {
      error = "param '" + p.name + "': dtype " + dtypeName(t.dtype) +
              ", expected " + dtypeName(p.dtype);
      return false;
    }
    if (t.rank != p.rank) {
      error = "param '" + p.name + "': rank " + std::to_string(t.rank) +
              " (shape " + bracketList(t.shape, t.rank) + "), expected " +
              std::to_string(p.rank) + " (shape " + shapeSpelling(p) + ")";
      return false;
    }
    for (int a = 0; a < t.rank; ++a)
      if (t.shape[a] < 0) {
        error = where(p, a) + ": negative extent " + std::to_string(t.shape[a]);
        return false;
      }
  }

  // Bind each dim from its first plain occurrence among the given tensors,
  // then the dims no plain occurrence binds from a name plus a constant
  // (`B+1`: B = extent - 1), then from a name times a constant (`K*2`: K =
  // extent / 2). The check below reports an extent too small or not a
  // multiple.
  size_t nd = plan.numDims();
  out.values.assign(nd, -1);
  out.sources.assign(nd, DimSource());
  for (int pass = 0; pass < 3; ++pass) {
    for (size_t i = 0; i < count; ++i) {
      if (!given(i))
        continue;
      const PlannedParam &p = plan.params[i];
      for (int a = 0; a < p.rank; ++a) {
        const PlannedExpr &e = p.shape[a];
        bool binds = pass == 0   ? e.expr.isPlainName()
                     : pass == 1 ? e.expr.isShiftedName()
                                 : e.expr.isScaledName();
        if (!binds || out.values[e.dim] >= 0)
          continue;
        int64_t v = e.expr.invert(args[i].shape[a]);
        if (v < 0)
          continue;
        // Dims reach the kernel as i32 arguments and TMA coordinates are 32-bit.
        if (v > kMaxKernelIndex) {
          error = where(p, a) + ": extent " + std::to_string(v) + " for dim " +
                  plan.dimName(e.dim) +
                  " exceeds the kernel's 32-bit dims (max " +
                  std::to_string(kMaxKernelIndex) + ")";
          return false;
        }
        out.values[e.dim] = v;
        out.sources[e.dim] = {static_cast<int>(i), a};
      }
    }
  }

  // Check every entry of every given tensor.
  for (size_t i = 0; i < count; ++i) {
    if (!given(i))
      continue;
    const PlannedParam &p = plan.params[i];
    for (int a = 0; a < p.rank; ++a) {
      const PlannedExpr &e = p.shape[a];
      int64_t got = args[i].shape[a];
      int64_t want;
      if (!evaluate(plan, out, e, where(p, a), want, error))
        return false;
      if (got == want)
        continue;
      switch (e.expr.kind) {
      case DimExpr::Kind::Const:
        error = where(p, a) + ": extent " + std::to_string(got) +
                ", expected " + std::to_string(want);
        break;
      case DimExpr::Kind::Name:
        error = where(p, a) + ": extent " + std::to_string(got) +
                " does not match " + boundFrom(plan, out, e.dim);
        break;
      default:
        error = where(p, a) + ": extent " + std::to_string(got) +
                ", expected " + e.expr.str() + " = " + std::to_string(want) +
                " with " + boundFrom(plan, out, e.dim);
        break;
      }
      return false;
    }
  }
  return true;
}

bool checkArguments(const LaunchPlan &plan, const Tensor *args, size_t count,
                    BoundDims &out, std::string &error) {
  if (!bindDims(plan, args, nullptr, count, out, error))
    return false;
  for (size_t i = 0; i < count; ++i) {
    const PlannedParam &p = plan.params[i];
    const Tensor &t = args[i];
    for (int a = 0; a < t.rank; ++a)
      if (t.strides[a] < 0) {
        error = where(p, a) + ": negative stride " +
                std::to_string(t.strides[a]) +
                " (flipped views are not supported; call .contiguous())";
        return false;
      }
    // An empty tensor is never dereferenced; its pointer and strides are
    // irrelevant.
    if (t.numel() == 0)
      continue;
    if (t.data == 0) {
      error = "param '" + p.name +
              "': null data pointer for a tensor of shape " +
              bracketList(t.shape, t.rank);
      return false;
    }
    if (t.data % static_cast<uint64_t>(p.align) != 0) {
      error = "param '" + p.name + "': data pointer " + hexAddress(t.data) +
              " is not " + std::to_string(p.align) +
              "-byte aligned (the manifest requires align " +
              std::to_string(p.align) + ")";
      return false;
    }
    // An accumulated output starts from one memset over its elements.
    if (p.init != ParamInit::None) {
      int64_t expected = 1;
      for (int a = t.rank; a-- > 0;) {
        if (t.shape[a] > 1 && t.strides[a] != expected) {
          error = where(p, a) + ": stride " + std::to_string(t.strides[a]) +
                  "; the kernel accumulates into '" + p.name +
                  "', which the runtime first fills with " +
                  initName(p.init) + ", so it must be contiguous; call "
                  ".contiguous()";
          return false;
        }
        expected *= t.shape[a];
      }
    }
    if (t.rank == 0)
      continue;
    int inner = t.rank - 1;
    if (t.shape[inner] > 1 && t.strides[inner] != 1) {
      error = where(p, inner) + ": stride " + std::to_string(t.strides[inner]) +
              "; the innermost axis must be contiguous (stride 1); call "
              ".contiguous()";
      return false;
    }
    if (p.bits < 8) {
      int perByte = static_cast<int>(8 / p.bits);
      for (int a = 0; a < inner; ++a)
        if (t.shape[a] > 1 && t.strides[a] % perByte != 0) {
          error = where(p, a) + ": stride " + std::to_string(t.strides[a]) +
                  " " + dtypeName(p.dtype) +
                  " values is not a whole number of bytes (" +
                  std::to_string(perByte) + " values per byte)";
          return false;
        }
    }
  }
  return true;
}

bool inferShapes(const LaunchPlan &plan, const Tensor *args, const bool *known,
                 size_t count, std::vector<std::vector<int64_t>> &shapes,
                 BoundDims &dims, std::string &error) {
  if (!bindDims(plan, args, known, count, dims, error))
    return false;
  shapes.assign(count, {});
  for (size_t i = 0; i < count; ++i) {
    const PlannedParam &p = plan.params[i];
    for (int a = 0; a < p.rank; ++a) {
      int64_t v;
      const PlannedExpr &e = p.shape[a];
      if (e.dim >= 0 && dims.values[e.dim] < 0) {
        error = "cannot infer the shape of param '" + p.name + "' " +
                shapeSpelling(p) + ": dim '" + plan.dimName(e.dim) +
                "' is not bound by any given tensor";
        return false;
      }
      if (!evaluate(plan, dims, e, where(p, a), v, error))
        return false;
      shapes[i].push_back(v);
    }
  }
  return true;
}

} // namespace kiln
