//===- TestFiles.h - Temporary files for the runtime tests ------*- C++ -*-===//

#ifndef KILN_TEST_UNIT_RUNTIME_TESTFILES_H
#define KILN_TEST_UNIT_RUNTIME_TESTFILES_H

#include "gtest/gtest.h"

#include <cstdio>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace kiln {
namespace test {

/// A fresh folder under the test's temporary directory, removed with the
/// files it hands out. The process id keeps tests that ctest runs in parallel
/// apart.
class TempFolder {
public:
  explicit TempFolder(const std::string &tag) {
    path =
        ::testing::TempDir() + "kiln_" + tag + "_" + std::to_string(::getpid());
    ::mkdir(path.c_str(), 0700);
  }
  ~TempFolder() {
    for (const std::string &f : files)
      ::unlink(f.c_str());
    ::rmdir(path.c_str());
  }
  TempFolder(const TempFolder &) = delete;
  TempFolder &operator=(const TempFolder &) = delete;

  /// The path of `name` in the folder (whatever a crashed run left there is
  /// removed); removed again at the end.
  std::string file(const std::string &name) {
    files.push_back(path + "/" + name);
    ::unlink(files.back().c_str());
    return files.back();
  }

  std::string path;

private:
  std::vector<std::string> files;
};

/// Writes `bytes` to `path`, replacing it.
inline void writeFile(const std::string &path, const std::string &bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

} // namespace test
} // namespace kiln

#endif // KILN_TEST_UNIT_RUNTIME_TESTFILES_H
