//===- LaunchPlan.cpp - Resolve manifest names to indices -----------------===//

#include "runtime/LaunchPlan.h"

namespace kiln {

static PlannedExpr resolve(const Manifest &m, const DimExpr &e) {
  PlannedExpr p;
  p.expr = e;
  p.dim = e.kind == DimExpr::Kind::Const ? -1 : m.findDim(e.name);
  return p;
}

std::string LaunchPlan::mapPath(int map) const {
  std::string p = "tensor_maps[" + std::to_string(map) + "]";
  return variant == 0 ? p
                      : "variants[" + std::to_string(variant - 1) + "]." + p;
}

/// Resolves one kernel of an already validated manifest.
static LaunchPlan planKernel(const Manifest &m, int variant) {
  LaunchPlan plan;
  plan.manifest = m;
  plan.variant = variant;

  plan.dimSources.assign(m.dims.size(), DimSource());
  for (size_t i = 0; i < m.params.size(); ++i) {
    const Param &p = m.params[i];
    PlannedParam pp;
    pp.name = p.name;
    pp.role = p.role;
    pp.dtype = p.dtype;
    pp.bits = dtypeBits(p.dtype);
    pp.rank = static_cast<int>(p.shape.size());
    pp.align = p.align;
    pp.scaleOf = p.role == ParamRole::Scale ? m.findParam(p.scaleOf) : -1;
    pp.init = p.init;
    for (size_t a = 0; a < p.shape.size(); ++a) {
      PlannedExpr e = resolve(m, p.shape[a]);
      if (e.expr.isPlainName() && plan.dimSources[e.dim].param < 0)
        plan.dimSources[e.dim] = {static_cast<int>(i), static_cast<int>(a)};
      pp.shape.push_back(e);
    }
    plan.params.push_back(std::move(pp));
  }

  for (size_t i = 0; i < m.tensorMaps.size(); ++i) {
    const TensorMapDesc &t = m.tensorMaps[i];
    PlannedMap pm;
    pm.param = m.findParam(t.param);
    pm.element = t.element;
    pm.elementBits = tmaElementBits(t.element);
    pm.rank = static_cast<int>(t.box.size());
    for (int a = 0; a < pm.rank; ++a)
      pm.box[a] = static_cast<uint32_t>(t.box[a]);
    pm.swizzle = t.swizzle;
    pm.l2Promotion = t.l2Promotion;
    pm.oobFill = t.oobFill;
    pm.optional = t.optional;
    pm.clampRows = t.clampRows;
    plan.params[pm.param].maps.push_back(static_cast<int>(i));
    plan.maps.push_back(pm);
  }

  for (const KernelArg &a : m.kernelArgs) {
    PlannedArg pa;
    pa.kind = a.kind;
    switch (a.kind) {
    case KernelArgKind::TensorMap:
    case KernelArgKind::TmaOk:
      pa.index = static_cast<int>(a.map);
      break;
    case KernelArgKind::Pointer:
      pa.index = m.findParam(a.param);
      break;
    case KernelArgKind::Stride:
      pa.index = m.findParam(a.param);
      pa.axis = static_cast<int>(a.axis);
      break;
    case KernelArgKind::Dim:
      pa.index = m.findDim(a.dim);
      break;
    case KernelArgKind::Workspace:
      break;
    }
    plan.args.push_back(pa);
  }

  for (const GridAxis &g : m.launch.tiles)
    plan.gridExtents.push_back(resolve(m, g.extent));
  if (m.launch.streamK.present())
    plan.streamKExtent = resolve(m, m.launch.streamK.k.extent);
  return plan;
}

bool buildLaunchPlan(const Manifest &m, LaunchPlan &out, std::string &error) {
  if (!validateManifest(m, error))
    return false;
  LaunchPlan plan = planKernel(m, 0);
  bool allCosted = m.launch.tileCost > 0;
  for (size_t k = 0; k < m.variants.size(); ++k) {
    const KernelVariant &v = m.variants[k];
    Manifest vm = m;
    vm.variants.clear();
    vm.entry = v.entry;
    vm.tensorMaps = v.tensorMaps;
    vm.kernelArgs = v.kernelArgs;
    vm.launch = v.launch;
    plan.variants.push_back(planKernel(vm, static_cast<int>(k + 1)));
    allCosted = allCosted && v.launch.tileCost > 0;
  }
  plan.chooseByCost = !m.variants.empty() && allCosted;
  out = std::move(plan);
  return true;
}

} // namespace kiln
