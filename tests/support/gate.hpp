#pragma once

// Gate: lets a mock route hang a request until the test releases it (or 20 s
// pass, so that a failing test still ends), and lets the test wait until a
// given number of requests are hanging.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace mgnify::test {

class Gate {
 public:
  /// `client_port` (httplib's Request::remote_port) is remembered for held_client_ports().
  void hold(int client_port = 0) {
    std::unique_lock<std::mutex> lock(mutex_);
    ++held_;
    if (client_port > 0) client_ports_.push_back(client_port);
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
  /// The client ports of the requests held so far.
  std::vector<int> held_client_ports() {
    std::lock_guard<std::mutex> lock(mutex_);
    return client_ports_;
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
  std::vector<int> client_ports_;
};

}  // namespace mgnify::test
