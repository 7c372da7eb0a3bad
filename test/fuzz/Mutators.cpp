//===- Mutators.cpp - Structure-aware mutators for the fuzzers ------------===//

#include "test/fuzz/Mutators.h"
#include "test/fuzz/ProgramGenerator.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

// libFuzzer's own mutation of a buffer (its byte-level mutators).
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace kiln::fuzz {
namespace {

using Group = std::vector<std::string_view>;

/// Words that can stand for each other in a .kiln program.
const std::vector<Group> &kilnGroups() {
  static const std::vector<Group> groups = {
      {"bf16", "f16", "f32", "i32", "e4m3", "e5m2", "e2m1", "nvfp4", "mxfp8",
       "mxfp4", "ue8m0"},
      {"silu", "gelu", "sigmoid", "tanh", "exp", "rsqrt", "relu", "softmax",
       "causal", "sum"},
      {"max", "min", "where", "mask", "modify", "grouped"},
      {"tile", "stages", "cluster", "consumers", "persistent", "group_m",
       "stream_k", "acc_stages", "pingpong", "split_k"},
      {"true", "false"},
      {"1x16", "1x32", "1x128", "128x128", "16x16"},
      {"M", "N", "K", "B", "H", "S", "T", "E"},
  };
  return groups;
}

/// Words that can stand for each other in tile or cta IR.
const std::vector<Group> &mlirGroups() {
  static const std::vector<Group> groups = {
      {"bf16", "f16", "f32", "f8E4M3FN", "f8E5M2", "f4E2M1FN", "f8E8M0FNU",
       "i32", "i1"},
      {"true", "false"},
      {"\"128B\"", "\"64B\"", "\"32B\"", "\"none\""},
      {"producer", "math", "mma", "epilogue"},
      {"static", "grouped", "batched", "stream_k"},
      {"\"sm_90a\"", "\"sm_100a\""},
      {"\"input\"", "\"output\"", "\"scale\""},
      {"arith.addf", "arith.mulf", "arith.subf", "arith.divf",
       "arith.maximumf", "arith.minimumf"},
      {"transpose_a", "transpose_b"},
      {"M", "N", "K"},
  };
  return groups;
}

constexpr int64_t kInteresting[] = {0,   1,    2,    3,    7,    8,
                                    15,  16,   17,   31,   32,   63,
                                    64,  65,   96,   127,  128,  129,
                                    192, 255,  256,  257,  512,  1024,
                                    4096, 65535, 65536, 2147483647,
                                    2147483648LL, -1};

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

class TextMutator {
public:
  TextMutator(std::string text, unsigned seed, const std::vector<Group> &groups,
              bool consistent)
      : text(std::move(text)), rng(makeRandom(seed)), groups(groups),
        consistent(consistent) {}

  unsigned pick(unsigned n) {
    return std::uniform_int_distribution<unsigned>(0, n - 1)(rng);
  }

  /// One structured change; false when the text has nothing to change.
  bool mutateOnce() {
    for (int attempt = 0; attempt < 4; ++attempt) {
      bool changed = pick(2) ? replaceNumber() : replaceWord();
      if (changed)
        return true;
    }
    return false;
  }

  std::string &result() { return text; }
  Random &random() { return rng; }

private:
  /// A run of digits (not inside an identifier) becomes another integer.
  /// In MLIR shapes ("128x64xbf16") an `x` between digits separates extents.
  bool replaceNumber() {
    std::vector<std::pair<size_t, size_t>> numbers;
    auto digit = [&](size_t i) {
      return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
    };
    for (size_t i = 0; i < text.size();) {
      char c = text[i];
      if (digit(i)) {
        size_t j = i;
        while (digit(j))
          ++j;
        numbers.push_back({i, j - i});
        i = j;
      } else if (c == 'x' && i > 0 && digit(i - 1) && digit(i + 1)) {
        ++i;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        while (i < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
          ++i;
      } else {
        ++i;
      }
    }
    if (numbers.empty())
      return false;
    auto [at, length] = numbers[pick(numbers.size())];
    std::string before = text.substr(at, length);
    // Numbers past 2^40 are only replaced (doubling one could overflow).
    int64_t old = 0;
    if (length <= 12)
      old = std::stoll(text.substr(at, length));
    int64_t value;
    switch (pick(4)) {
    case 0:
      value = old * 2;
      break;
    case 1:
      value = old / 2;
      break;
    case 2:
      value = old + (pick(2) ? 1 : -1);
      break;
    default:
      value = kInteresting[pick(std::size(kInteresting))];
      break;
    }
    std::string replacement = std::to_string(value);
    // A negative number only where a sign can go.
    if (value < 0 && at > 0 && text[at - 1] == '-')
      replacement = replacement.substr(1);
    if (everywhere())
      replaceAll(before, replacement, /*digits=*/true);
    else
      text.replace(at, length, replacement);
    return true;
  }

  /// Whether a change applies to every occurrence of the piece: IR repeats
  /// a value's type at its definition and every use, and a change to one of
  /// them alone only exercises the verifier.
  bool everywhere() { return consistent && pick(2) == 0; }

  /// Replaces each occurrence of `from` that stands alone (not inside a
  /// longer number or word) by `to`.
  void replaceAll(const std::string &from, const std::string &to, bool digits) {
    auto part = [&](char c) {
      return digits ? std::isdigit(static_cast<unsigned char>(c)) != 0
                    : (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    };
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
      size_t at = text.find(from, i);
      if (at == std::string::npos)
        break;
      size_t end = at + from.size();
      bool alone = (at == 0 || !part(text[at - 1])) &&
                   (end >= text.size() || !part(text[end]));
      out.append(text, i, at - i);
      out += alone ? to : from;
      i = end;
    }
    out.append(text, i, std::string::npos);
    text = std::move(out);
  }

  /// A whole word of one group becomes another word of that group. The
  /// group is chosen first, so that common words (dim names) do not crowd
  /// out the rest.
  bool replaceWord() {
    std::vector<std::vector<std::pair<size_t, size_t>>> hits(groups.size());
    bool any = false;
    for (size_t g = 0; g < groups.size(); ++g)
      for (std::string_view word : groups[g])
        for (size_t at = text.find(word); at != std::string::npos;
             at = text.find(word, at + 1)) {
          // Types sit inside longer words in MLIR ("128x64xbf16"), so a word
          // may follow a digit or an `x` after one; `^T` is not the dim T.
          bool quoted = word.front() == '"';
          size_t end = at + word.size();
          char before = at ? text[at - 1] : ' ';
          bool startOk =
              quoted || !isWordChar(before) ||
              std::isdigit(static_cast<unsigned char>(before)) ||
              (before == 'x' && at > 1 &&
               std::isdigit(static_cast<unsigned char>(text[at - 2])));
          bool endOk = quoted || end == text.size() || !isWordChar(text[end]);
          if (startOk && endOk && before != '^') {
            hits[g].push_back({at, word.size()});
            any = true;
          }
        }
    if (!any)
      return false;
    size_t g;
    do
      g = pick(groups.size());
    while (hits[g].empty());
    auto [at, length] = hits[g][pick(hits[g].size())];
    std::string_view replacement = groups[g][pick(groups[g].size())];
    std::string word = text.substr(at, length);
    if (everywhere() && word.front() != '"')
      replaceAll(word, std::string(replacement), /*digits=*/false);
    else
      text.replace(at, length, replacement);
    return true;
  }

  std::string text;
  Random rng;
  const std::vector<Group> &groups;
  /// Whether a change may apply to every occurrence (see everywhere()).
  bool consistent;
};

size_t writeBack(const std::string &text, uint8_t *data, size_t maxSize) {
  if (text.size() > maxSize)
    return 0;
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

size_t mutateText(uint8_t *data, size_t size, size_t maxSize, unsigned seed,
                  const std::vector<Group> &groups, bool isKiln) {
  bool mayGenerate = isKiln;
  TextMutator mutator(std::string(reinterpret_cast<const char *>(data), size),
                      seed, groups, /*consistent=*/!isKiln);
  unsigned choice = mutator.pick(100);
  if (mayGenerate && choice < 40) {
    size_t written =
        writeBack(generateProgram(mutator.random()), data, maxSize);
    if (written)
      return written;
  }
  // libFuzzer's byte-level mutations keep every input reachable.
  if (choice >= 92)
    return LLVMFuzzerMutate(data, size, maxSize);
  unsigned changes = 1 + mutator.pick(2);
  bool changed = false;
  for (unsigned i = 0; i < changes; ++i)
    changed |= mutator.mutateOnce();
  if (changed)
    if (size_t written = writeBack(mutator.result(), data, maxSize))
      return written;
  return LLVMFuzzerMutate(data, size, maxSize);
}

} // namespace

size_t mutateKiln(uint8_t *data, size_t size, size_t maxSize, unsigned seed) {
  return mutateText(data, size, maxSize, seed, kilnGroups(),
                    /*isKiln=*/true);
}

size_t mutateMlir(uint8_t *data, size_t size, size_t maxSize, unsigned seed) {
  return mutateText(data, size, maxSize, seed, mlirGroups(),
                    /*isKiln=*/false);
}

} // namespace kiln::fuzz
