//===- LargeStack.h - Run a tool's work on a thread with a large stack ----===//
//
// MLIR's parser, verifier and printer recurse once per nesting level of
// their input: about 1 KiB of stack per `[` of an attribute and 2 KiB per
// nested region, so the 8 MiB main-thread stack overflows at a few thousand
// levels, which a 10 KB file reaches (found by kiln-fuzz-ir). The tools that
// read MLIR run their work on a thread whose stack is large enough for any
// input the source-size limit admits; its pages are committed only as the
// recursion reaches them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TOOLS_LARGESTACK_H
#define KILN_COMPILER_TOOLS_LARGESTACK_H

#include <pthread.h>
#include <signal.h>

#include <cstddef>

namespace kiln {

/// The stack of the thread runWithLargeStack starts.
constexpr size_t kLargeStackBytes = size_t(1) << 30;

/// Runs `body` (returning int) on a thread with a kLargeStackBytes stack and
/// returns its result. Where no such thread can be made (a virtual-memory
/// limit below the stack size), runs it on the calling thread instead.
template <typename Fn> int runWithLargeStack(Fn &&body) {
  struct Call {
    Fn *body;
    int result = 1;
    static void *run(void *arg) {
      auto *call = static_cast<Call *>(arg);
      call->result = (*call->body)();
      return nullptr;
    }
  } call{&body};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 &&
                 pthread_attr_setstacksize(&attr, kLargeStackBytes) == 0 &&
                 pthread_create(&thread, &attr, &Call::run, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!started)
    return body();
  // The work's timers must reach the work: LLVM times out a child process
  // (ptxas) with alarm(), whose SIGALRM interrupts the waiting thread's
  // waitpid only if it is delivered there, so this thread stops taking it.
  sigset_t alarm, previous;
  sigemptyset(&alarm);
  sigaddset(&alarm, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &alarm, &previous);
  pthread_join(thread, nullptr);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return call.result;
}

} // namespace kiln

#endif // KILN_COMPILER_TOOLS_LARGESTACK_H
