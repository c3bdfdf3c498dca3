#pragma once

// Plain value types for one HTTP exchange, independent of any HTTP library so
// that transports can be swapped (curl in production, a fake in unit tests).

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "mgnify/cancel.hpp"
#include "mgnify/enum_table.hpp"
#include "mgnify/http/form.hpp"
#include "mgnify/http/headers.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

enum class Method { get, head, post, put, patch, del, options };

constexpr auto enum_names(Method) {
  return enum_table<Method>({
      {Method::get, "GET"},
      {Method::head, "HEAD"},
      {Method::post, "POST"},
      {Method::put, "PUT"},
      {Method::patch, "PATCH"},
      {Method::del, "DELETE"},
      {Method::options, "OPTIONS"},
  });
}

inline const char* method_name(Method m) noexcept {
  const char* name = enum_text(m);
  return *name != '\0' ? name : "GET";
}

/// RFC 9110 idempotent methods: safe to send again after an unknown outcome.
inline bool is_idempotent(Method m) noexcept { return m != Method::post && m != Method::patch; }

struct Response;

/// Receives a 2xx response's body chunk by chunk, so that a large file never
/// sits in memory. `head` carries status, headers and URL (its body is empty);
/// it is the same for every chunk of one response. Returning false aborts the
/// transfer (the transport then throws TransportError); an exception thrown by
/// the sink also aborts it and propagates out of Transport::send. Bodies of non-2xx
/// responses are still collected into Response::body so errors keep their text.
using BodySink = std::function<bool(const Response& head, const char* data, std::size_t size)>;

struct Request {
  Method method = Method::get;
  std::string url;  // absolute, already percent-encoded
  Headers headers;
  std::string body;
  /// When non-empty, the body is these multipart/form-data parts (and `body`
  /// is not sent); the transport writes the boundary and Content-Type.
  std::vector<FormPart> form;
  /// Overrides the transport's total timeout for this request when non-zero.
  std::chrono::milliseconds timeout{0};
  /// When set, 2xx bodies stream here instead of into Response::body, and the
  /// transport's body size limit does not apply to them.
  BodySink body_sink;
  /// Cancelling it aborts the transfer (within CancelToken::kPollInterval);
  /// send() then throws CancelledError.
  CancelToken cancel = CancelToken::never();
};

/// Spare capacity a transport reserves past a body whose length it knows, so
/// that the JSON decoder (which reads up to 64 bytes past the end) can read
/// the body where it is instead of copying it.
inline constexpr std::size_t kBodyPadding = 64;

struct Response {
  int status = 0;
  Headers headers;
  std::string body;
  std::string url;  // the URL this response came from (after any redirects)
  std::chrono::microseconds elapsed{0};
  /// URLs visited before `url`, in order, when the session followed redirects.
  std::vector<std::string> redirects;
  /// How many attempts the session needed (1 when the first one succeeded).
  int attempts = 1;
  /// Read from the ResponseCache (ClientOptions::cache): no request was sent.
  bool from_cache = false;

  bool is_success() const noexcept { return status >= 200 && status < 300; }
  bool is_redirect() const noexcept {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }
};

}  // namespace http
MGNIFY_NAMESPACE_END
