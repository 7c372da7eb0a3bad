//===- LastInput.h - Keep the input a fuzzer is running in a file ---------===//
//
// When a fuzz target corrupts the heap, libFuzzer's crash handler can die in
// malloc before it writes the crashing input. With KILN_FUZZ_LAST_INPUT=FILE
// each input is written to FILE before it runs (an overwrite, ~10 us), so the
// last one survives any crash and reproduces it: `kiln-fuzz-ir FILE`.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_FUZZ_LASTINPUT_H
#define KILN_TEST_FUZZ_LASTINPUT_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace kiln::fuzz {

inline void saveLastInput(const uint8_t *data, size_t size) {
  static const char *path = std::getenv("KILN_FUZZ_LAST_INPUT");
  if (!path || !*path)
    return;
  if (std::FILE *f = std::fopen(path, "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
}

} // namespace kiln::fuzz

#endif // KILN_TEST_FUZZ_LASTINPUT_H
