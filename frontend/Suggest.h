//===- Suggest.h - "did you mean" for misspelled names ----------*- C++ -*-===//

#ifndef KILN_FRONTEND_SUGGEST_H
#define KILN_FRONTEND_SUGGEST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace kiln {

/// Names longer than this get no suggestion: the edit distance costs the
/// product of the two lengths, and a misspelling of a name that long is not
/// what a suggestion helps with.
constexpr size_t kMaxSuggestedNameLength = 64;

/// Errors after this many in one kernel get no suggestion (the driver
/// prints 20 by default; see KernelChecker::maySuggest).
constexpr unsigned kMaxSuggestedErrors = 100;

/// The candidate closest to `name` by edit distance, if it is close enough to
/// be a likely typo (at most a third of the name's length, so names shorter
/// than three letters get no suggestion); "" otherwise. Linear in the number
/// of candidates: each costs at most kMaxSuggestedNameLength squared.
inline llvm::StringRef findClosest(llvm::StringRef name,
                                   llvm::ArrayRef<llvm::StringRef> candidates) {
  llvm::StringRef best;
  unsigned limit = name.size() / 3;
  if (limit == 0 || name.size() > kMaxSuggestedNameLength)
    return best;
  unsigned bestDistance = limit + 1;
  for (llvm::StringRef candidate : candidates) {
    // The distance is at least the difference in length.
    size_t gap = candidate.size() > name.size() ? candidate.size() - name.size()
                                                : name.size() - candidate.size();
    if (gap > limit)
      continue;
    unsigned distance =
        name.edit_distance(candidate, /*AllowReplacements=*/true,
                           /*MaxEditDistance=*/limit);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best;
}

/// "; did you mean 'silu'?" when a close candidate exists, else "".
inline std::string didYouMean(llvm::StringRef name,
                              llvm::ArrayRef<llvm::StringRef> candidates) {
  llvm::StringRef best = findClosest(name, candidates);
  if (best.empty())
    return "";
  return "; did you mean '" + best.str() + "'?";
}

} // namespace kiln

#endif // KILN_FRONTEND_SUGGEST_H
