#include "interrupts.hpp"

#include <pthread.h>

#include <atomic>
#include <csignal>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace mgnify_cli {
namespace {

std::mutex registered_mutex;
std::optional<mgnify::CancelToken> registered;
std::atomic<int> cancelling_signal{0};

void take_default_action(int signal_number) {
  std::signal(signal_number, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  // To this thread, where the signal is now unblocked and default: the process ends by it.
  pthread_kill(pthread_self(), signal_number);
}

void watch(sigset_t signals) {
  for (;;) {
    int signal_number = 0;
    if (sigwait(&signals, &signal_number) != 0) continue;
    std::optional<mgnify::CancelToken> token;
    {
      std::lock_guard<std::mutex> lock(registered_mutex);
      token = registered;
    }
    int expected = 0;
    if (token && cancelling_signal.compare_exchange_strong(expected, signal_number)) {
      token->cancel();
      continue;
    }
    take_default_action(signal_number);
  }
}

bool started_ignored(int signal_number) {
  struct sigaction current {};
  return sigaction(signal_number, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
}

}  // namespace

void install_interrupt_handling() {
  sigset_t signals;
  sigemptyset(&signals);
  for (int signal_number : {SIGINT, SIGTERM}) {
    if (!started_ignored(signal_number)) sigaddset(&signals, signal_number);
  }
  if (!sigismember(&signals, SIGINT) && !sigismember(&signals, SIGTERM)) return;
  if (pthread_sigmask(SIG_BLOCK, &signals, nullptr) != 0) return;
  try {
    std::thread(watch, signals).detach();
  } catch (const std::system_error&) {
    // No thread to take them: the signals act as they would without this.
    pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
  }
}

int interrupting_signal() { return cancelling_signal.load(); }

int interrupted_exit_code() {
  const int signal_number = interrupting_signal();
  return 128 + (signal_number ? signal_number : SIGINT);
}

InterruptScope::InterruptScope(mgnify::CancelToken token) {
  std::lock_guard<std::mutex> lock(registered_mutex);
  registered = std::move(token);
}

InterruptScope::~InterruptScope() {
  std::lock_guard<std::mutex> lock(registered_mutex);
  registered.reset();
}

}  // namespace mgnify_cli
