//===- FusionPatterns.cpp - the registry of plugin fusion patterns --------===//
//
// Plugins register while the tool parses its command line; pass managers read
// the registry when they initialize. A mutex keeps the two apart, which is all
// the synchronization a tool needs: registration is rare and reading copies
// the entries out, so user code never runs under the lock.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/Transforms/FusionPatterns.h"

#include "llvm/Support/ErrorHandling.h"

#include <mutex>

using namespace kiln::tile;

namespace {

struct Registration {
  std::string name;
  FusionStage stage;
  PopulateFusionPatterns populate;
};

struct Registry {
  std::mutex mutex;
  std::vector<Registration> entries;
};

/// Built on first use, so registration works whatever the order of static
/// initializers in the tool and its plugins.
Registry &getRegistry() {
  static Registry registry;
  return registry;
}

} // namespace

llvm::StringRef kiln::tile::stringifyFusionStage(FusionStage stage) {
  switch (stage) {
  case FusionStage::BeforeBuiltinFusions:
    return "before";
  case FusionStage::AfterBuiltinFusions:
    return "after";
  }
  llvm_unreachable("unknown fusion stage");
}

void kiln::tile::registerFusionPatterns(llvm::StringRef name, FusionStage stage,
                                        PopulateFusionPatterns populate) {
  if (!populate)
    return;
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const Registration &entry : registry.entries)
    if (entry.name == name && entry.stage == stage &&
        entry.populate == populate)
      return;
  registry.entries.push_back({name.str(), stage, populate});
}

std::vector<RegisteredFusionPatterns>
kiln::tile::getRegisteredFusionPatterns(FusionStage stage) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::vector<RegisteredFusionPatterns> result;
  for (const Registration &entry : registry.entries)
    if (entry.stage == stage)
      result.push_back({entry.name, entry.populate});
  return result;
}
