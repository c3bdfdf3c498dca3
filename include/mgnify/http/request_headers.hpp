#pragma once

// The first step of the pipeline: Accept, User-Agent and the caller's extra
// headers. Credential-like extra headers go only to the base URL's origin.

#include <string>
#include <utility>

#include "mgnify/error.hpp"
#include "mgnify/http/headers.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

class RequestHeaders {
 public:
  RequestHeaders(const std::string& user_agent_suffix, Headers extra)
      : user_agent_(std::string("mgnify-cpp/") + MGNIFY_VERSION_STRING), extra_(std::move(extra)) {
    check_header_value("user_agent_suffix", user_agent_suffix);
    if (!user_agent_suffix.empty()) user_agent_ += " " + user_agent_suffix;
    for (const auto& [name, value] : extra_) {
      check_header_value("extra_headers name", name);
      check_header_value("extra_headers value of " + name, value);
    }
  }

  void apply(Request& request, bool to_base_origin) const {
    if (!request.headers.contains("Accept")) request.headers.set("Accept", "application/json");
    request.headers.set("User-Agent", user_agent_);
    for (const auto& [name, value] : extra_) {
      if (!to_base_origin && is_secret_header(name)) continue;
      if (!request.headers.contains(name)) request.headers.add(name, value);
    }
  }

 private:
  std::string user_agent_;
  Headers extra_;
};

}  // namespace http
MGNIFY_NAMESPACE_END
