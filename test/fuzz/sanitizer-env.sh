#!/bin/sh
# Runs a command with the sanitizer options Kiln's sanitizer build needs (KILN_SANITIZE=ON).
#
#   test/fuzz/sanitizer-env.sh COMMAND [ARGS...]
#
# LLVM and MLIR are not instrumented, so two ASan checks would report what is not a bug:
# container-overflow (SmallVector/DenseMap annotations on one side only) and use-after-poison
# (inline headers in Kiln's code poison memory of LLVM's BumpPtrAllocator that uninstrumented
# MLIR code then uses). Everything else stays on: out-of-bounds, use-after-free,
# double-free, leaks (LeakSanitizer) and every UBSan check, each aborting at its first report.
# ASan also keeps off the alternate signal stack: LLVM's crash handler installs its own on each
# thread, and ASan then failed to unmap its stack when the tools' large-stack thread ended.
# Options already set in the environment come after these and so win.
ASAN_OPTIONS="detect_container_overflow=0:allow_user_poisoning=0:abort_on_error=1:use_sigaltstack=0:strict_string_checks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS UBSAN_OPTIONS
exec "$@"
