//===- prepare_check.cpp - Load and prepare a kernel, nothing else --------===//
//
//   prepare_check MANIFEST
//
// Loads the kernel (which needs no driver) and prepares it (the first call
// that does), printing what each said. Exits 0 when both succeeded, 1 when
// prepare failed (no driver, no GPU, another chip), 2 when the load failed.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"

#include <cstdio>
#include <memory>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: prepare_check MANIFEST\n");
    return 2;
  }
  std::unique_ptr<kiln::Module> mod;
  kiln::Status s = kiln::Module::load(argv[1], mod);
  if (!s.ok()) {
    std::fprintf(stderr, "load: %s\n", s.message().c_str());
    return 2;
  }
  std::printf("loaded %s for %s\n", mod->manifest().kernel.c_str(),
              mod->manifest().chip.c_str());
  s = mod->prepare();
  if (!s.ok()) {
    std::printf("prepare: %s: %s\n", kiln::errorCodeName(s.code()),
                s.message().c_str());
    return 1;
  }
  std::printf("prepared\n");
  return 0;
}
