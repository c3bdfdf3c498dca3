#pragma once

// What the session tells a logging hook. Built from method, URL and status
// only: headers and bodies never reach it, so tokens and passwords cannot leak.

#include <chrono>
#include <functional>
#include <string>

#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

struct LogEvent {
  enum class Kind { request, response, redirect, retry, failure };
  Kind kind = Kind::request;
  std::string method;
  std::string url;  // redacted: no userinfo, no credential-like query values
  int status = 0;   // 0 when no response arrived
  int attempt = 1;
  std::chrono::milliseconds wait{0};  // for retry: how long the session will sleep
  std::string message;                // one readable line

  static const char* kind_name(Kind k) noexcept {
    switch (k) {
      case Kind::request:
        return "request";
      case Kind::response:
        return "response";
      case Kind::redirect:
        return "redirect";
      case Kind::retry:
        return "retry";
      case Kind::failure:
        return "failure";
    }
    return "event";
  }
};

using Logger = std::function<void(const LogEvent&)>;

}  // namespace http
MGNIFY_NAMESPACE_END
