#pragma once

// Gate: lets a mock route hang a request until the test releases it (or 20 s
// pass, so that a failing test still ends), and lets the test wait until a
// given number of requests are hanging.

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace faults {

class Gate {
 public:
  void hold() {
    std::unique_lock<std::mutex> lock(mutex_);
    ++held_;
    changed_.notify_all();
    changed_.wait_for(lock, std::chrono::seconds(20), [&] { return open_; });
  }
  void open() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      open_ = true;
    }
    changed_.notify_all();
  }
  /// True once `n` requests have been held (false after 10 s).
  bool wait_held(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return held_ >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int held_ = 0;
  bool open_ = false;
};

}  // namespace faults
