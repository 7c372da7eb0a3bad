//===- DiagnosticPrinter.cpp - the driver's bounded diagnostics -----------===//

#include "frontend/DiagnosticPrinter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Unicode.h"

using namespace kiln;
using namespace mlir;

DiagnosticPrinter::DiagnosticPrinter(MLIRContext *ctx,
                                     llvm::StringRef bufferName,
                                     llvm::StringRef buffer, unsigned limit,
                                     llvm::raw_ostream &os)
    : ctx(ctx), bufferName(bufferName.str()), buffer(buffer), lines(buffer),
      limit(limit), os(os) {
  id = ctx->getDiagEngine().registerHandler(
      [this](Diagnostic &diag) { return handle(diag); });
}

DiagnosticPrinter::~DiagnosticPrinter() {
  ctx->getDiagEngine().eraseHandler(id);
}

LogicalResult DiagnosticPrinter::handle(Diagnostic &diag) {
  // Remarks are filtered (or shown) by the handlers before this one.
  llvm::StringRef severity;
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Error:
    severity = "error";
    break;
  case DiagnosticSeverity::Warning:
    severity = "warning";
    break;
  case DiagnosticSeverity::Remark:
    severity = "remark";
    break;
  case DiagnosticSeverity::Note:
    severity = "note";
    break;
  }
  // A kernel's variants are clones: the lowering reports their shared
  // problems once per clone, at the same source location.
  std::string key;
  llvm::raw_string_ostream keyStream(key);
  keyStream << diag.getLocation() << '\0' << severity << '\0' << diag.str();
  for (Diagnostic &note : diag.getNotes())
    keyStream << '\0' << note.getLocation() << '\0' << note.str();
  if (!seen.insert(key).second)
    return success();
  if (limit != 0 && printed >= limit) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++suppressedErrors;
    else
      ++suppressedWarnings;
    return success();
  }
  ++printed;
  print(diag.getLocation(), severity, diag.str());
  for (Diagnostic &note : diag.getNotes())
    print(note.getLocation(), "note", note.str());
  os.flush();
  return success();
}

void DiagnosticPrinter::printSummary(llvm::StringRef tool,
                                     llvm::StringRef option) {
  if (suppressedErrors + suppressedWarnings == 0)
    return;
  os << tool << ": "
     << (suppressedErrors ? "error" : "warning") << ": " << suppressedErrors
     << " more error(s) and " << suppressedWarnings
     << " more warning(s) not shown: the limit of " << limit
     << " diagnostics was hit; raise it with " << option << "=N (0: no limit)\n";
  os.flush();
}

/// The first file location in `loc` (a name, call site or fusion wraps the
/// location the frontend gave).
static FileLineColLoc findFileLoc(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location inner) {
    if (auto file = llvm::dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

void DiagnosticPrinter::print(Location loc, llvm::StringRef severity,
                              llvm::StringRef message) {
  FileLineColLoc file = findFileLoc(loc);
  if (!file) {
    os << bufferName << ": " << severity << ": " << message << "\n";
    return;
  }
  os << file.getFilename().getValue() << ":" << file.getLine() << ":"
     << file.getColumn() << ": " << severity << ": " << message << "\n";
  if (file.getFilename().getValue() == bufferName && file.getLine() != 0 &&
      file.getLine() <= lines.getNumLines())
    os << formatSnippet(file.getLine(), file.getColumn());
}

std::string DiagnosticPrinter::formatSnippet(unsigned line,
                                             unsigned column) const {
  llvm::StringRef text = lines.getLine(line);
  size_t caretByte = std::min<size_t>(column ? column - 1 : 0, text.size());
  // Only bytes near the caret are looked at, so a message on a 1 MB line
  // costs a few hundred bytes of work, not a scan of the line. A character
  // is at most 4 bytes, so this range holds the widest window around the
  // caret unless zero-width characters pad it, which cuts it shorter.
  constexpr size_t kMaxBytes = 4 * kMaxSnippetColumns;
  size_t from = caretByte > kMaxBytes ? caretByte - kMaxBytes : 0;
  size_t to = std::min(text.size(), caretByte + kMaxBytes);
  // Start on a character, not inside one.
  while (from > 0 && from < caretByte &&
         (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80)
    ++from;

  // Each character as shown: its bytes, '?' (not printable here) or spaces
  // (a tab, to the next multiple of 8 columns), and its display width.
  enum class Kind : uint8_t { Bytes, Unprintable, Tab };
  struct Shown {
    size_t offset;
    uint8_t length;
    uint8_t width;
    Kind kind;
  };
  std::vector<Shown> shown;
  unsigned width = 0;
  const char *end = text.data() + to;
  for (const char *p = text.data() + from; p != end;) {
    size_t offset = p - text.data();
    auto [cp, length] = decodeUTF8(p, end);
    Shown s{offset, static_cast<uint8_t>(length ? length : 1), 1,
            Kind::Unprintable};
    if (length != 0 && cp == '\t') {
      s.kind = Kind::Tab;
      s.width = 8 - width % 8;
    } else if (length != 0 && !isBidiControl(cp)) {
      int w = llvm::sys::unicode::columnWidthUTF8(llvm::StringRef(p, length));
      if (w >= 0) {
        s.kind = Kind::Bytes;
        s.width = w;
      }
    }
    width += s.width;
    shown.push_back(s);
    p += s.length;
  }
  // The character under the caret, then a window of display columns around
  // it.
  size_t caret = 0;
  while (caret < shown.size() && shown[caret].offset < caretByte)
    ++caret;
  size_t first = 0, last = shown.size();
  if (width > kMaxSnippetColumns) {
    unsigned half = kMaxSnippetColumns / 2, left = 0, right = 0;
    first = caret;
    while (first > 0 && left + shown[first - 1].width <= half)
      left += shown[--first].width;
    last = caret;
    while (last < shown.size() && right + shown[last].width <= half)
      right += shown[last++].width;
  }
  std::string source, marker;
  if (first > 0 || from > 0) {
    source += "...";
    marker += "   ";
  }
  for (size_t i = first; i < last; ++i) {
    const Shown &s = shown[i];
    if (i == caret)
      marker += "^";
    else if (i < caret)
      marker.append(s.width, ' ');
    if (s.kind == Kind::Bytes)
      source.append(text.data() + s.offset, s.length);
    else if (s.kind == Kind::Tab)
      source.append(s.width, ' ');
    else
      source += "?";
  }
  if (caret >= last)
    marker += "^";
  if (last < shown.size() || to < text.size())
    source += "...";
  return source + "\n" + marker + "\n";
}
