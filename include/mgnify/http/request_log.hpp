#pragma once

// The logging step: turns what the pipeline does into LogEvents for the
// caller's Logger, redacted here so that no step can leak a credential by
// logging a URL or a message.

#include <chrono>
#include <string>
#include <utility>

#include "mgnify/detail/secrets.hpp"
#include "mgnify/http/log.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

class RequestLog {
 public:
  explicit RequestLog(Logger logger) : logger_(std::move(logger)) {}

  void operator()(LogEvent::Kind kind, const Request& request, int status, int attempt,
                  std::chrono::milliseconds wait, const std::string& message) const {
    if (!logger_) return;
    LogEvent e;
    e.kind = kind;
    e.method = method_name(request.method);
    e.url = mgnify::detail::redact_url(request.url);
    e.status = status;
    e.attempt = attempt;
    e.wait = wait;
    e.message = mgnify::detail::redact_urls_in(message);
    logger_(e);
  }

 private:
  Logger logger_;
};

}  // namespace http
MGNIFY_NAMESPACE_END
