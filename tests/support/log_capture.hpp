#pragma once

// Records every event a session reports through its logging hook, from any thread.

#include <mutex>
#include <string>
#include <vector>

#include "mgnify/http/log.hpp"

namespace mgnify::test {

class LogCapture {
 public:
  mgnify::http::Logger logger() {
    return [this](const mgnify::http::LogEvent& e) { record(e); };
  }
  void record(const mgnify::http::LogEvent& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    events_.push_back(e);
  }
  std::vector<mgnify::http::LogEvent> events() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }
  std::vector<mgnify::http::LogEvent::Kind> kinds() const {
    std::vector<mgnify::http::LogEvent::Kind> out;
    for (const auto& e : events()) out.push_back(e.kind);
    return out;
  }
  /// True when `needle` appears in any text field of any event.
  bool mentions(const std::string& needle) const {
    for (const auto& e : events()) {
      if (e.method.find(needle) != std::string::npos || e.url.find(needle) != std::string::npos ||
          e.message.find(needle) != std::string::npos) {
        return true;
      }
    }
    return false;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<mgnify::http::LogEvent> events_;
};

}  // namespace mgnify::test
