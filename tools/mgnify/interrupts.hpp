#pragma once

// Ctrl-C (SIGINT) and SIGTERM, which a cluster's scheduler sends before it
// kills a job. A command that can stop cleanly (a batch download) registers
// a cancel token: the first signal cancels it, and the command reports what it
// finished and what is left instead of dying mid-line. Without a registered
// token, or on a second signal, the signal takes its default action, so a
// command that cannot stop cleanly still dies at once.

#include <mgnify/cancel.hpp>

namespace mgnify_cli {

/// Takes SIGINT and SIGTERM on one thread of their own. Call first thing in
/// main: the mask that routes them there is inherited by threads created
/// after it, and a thread created before it could still take a signal itself.
/// A signal the process was started with ignored (`nohup`, `cmd &` in a
/// script) stays ignored.
void install_interrupt_handling();

/// The signal that cancelled a registered token, 0 when none has.
int interrupting_signal();

/// The exit code after a registered token was cancelled: 128 + the signal
/// (130 for SIGINT, 143 for SIGTERM), as a shell reports a process the signal ended.
int interrupted_exit_code();

/// While it lives, the first SIGINT or SIGTERM cancels `token`.
class InterruptScope {
 public:
  explicit InterruptScope(mgnify::CancelToken token);
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

}  // namespace mgnify_cli
