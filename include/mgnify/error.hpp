#pragma once

// Typed exceptions. Every failure a caller can act on differently has its own
// type, and each carries what is needed to act: status, URL, the server's parsed
// message, how many attempts were made.

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/detail/secrets.hpp"
#include "mgnify/error_body.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

/// Base of every exception the SDK throws. URLs in the message are redacted
/// (userinfo and credential-like query values become ***), so what() can be
/// logged or shown; accessors such as url() keep the URL as requested.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(detail::redact_urls_in(what)) {}
  explicit Error(const char* what) : Error(std::string(what)) {}

  /// A heap copy with the same dynamic type. Result<T> keeps one: holding a
  /// pointer into a rethrown exception is only safe where rethrow_exception
  /// does not copy, which the standard leaves open (MSVC copies).
  virtual std::shared_ptr<const Error> clone() const { return std::make_shared<Error>(*this); }
};

/// Declares clone() for an Error subclass; every subclass needs it, or a
/// Result holding it reports its base type (tests/core/result_test.cpp checks
/// every subclass in include/).
#define MGNIFY_ERROR_CLONE(Type)                                  \
  std::shared_ptr<const ::mgnify::Error> clone() const override { \
    return std::make_shared<Type>(*this);                         \
  }

/// Bad input detected before any request was sent.
class InvalidArgument : public Error {
 public:
  MGNIFY_ERROR_CLONE(InvalidArgument)
  using Error::Error;
};

/// The request never produced an HTTP response (connect failure, timeout, TLS,
/// dropped connection, body over the size limit).
class TransportError : public Error {
 public:
  MGNIFY_ERROR_CLONE(TransportError)
  enum class Kind { connect, timeout, tls, send, receive, body_too_large, other };

  TransportError(Kind kind, int curl_code, std::string url, const std::string& message,
                 int attempts = 1)
      : Error(compose(kind, url, message, attempts)),
        kind_(kind),
        curl_code_(curl_code),
        url_(std::move(url)),
        detail_(message),
        attempts_(attempts) {}

  Kind kind() const noexcept { return kind_; }
  /// The CURLcode, or 0 when the failure did not come from curl.
  int curl_code() const noexcept { return curl_code_; }
  const std::string& url() const noexcept { return url_; }
  const std::string& detail() const noexcept { return detail_; }
  int attempts() const noexcept { return attempts_; }

  /// The same failure, counted after a retry loop gave up.
  TransportError with_attempts(int attempts) const {
    return TransportError(kind_, curl_code_, url_, detail_, attempts);
  }

  static const char* kind_name(Kind kind) noexcept {
    switch (kind) {
      case Kind::connect:
        return "connect";
      case Kind::timeout:
        return "timeout";
      case Kind::tls:
        return "tls";
      case Kind::send:
        return "send";
      case Kind::receive:
        return "receive";
      case Kind::body_too_large:
        return "body too large";
      case Kind::other:
        break;
    }
    return "transport";
  }

 private:
  static std::string compose(Kind kind, const std::string& url, const std::string& message,
                             int attempts) {
    std::string s = std::string(kind_name(kind)) + " error for " + url + ": " + message;
    if (attempts > 1) s += " (after " + std::to_string(attempts) + " attempts)";
    return s;
  }

  Kind kind_;
  int curl_code_;
  std::string url_;
  std::string detail_;
  int attempts_;
};

/// A response arrived but its JSON was malformed or of the wrong shape.
class DecodeError : public Error {
 public:
  MGNIFY_ERROR_CLONE(DecodeError)
  DecodeError(std::string json_path, std::string url, const std::string& message)
      : Error("cannot decode " + (json_path.empty() ? std::string("response") : json_path) +
              (url.empty() ? std::string() : " from " + url) + ": " + message),
        json_path_(std::move(json_path)),
        url_(std::move(url)),
        detail_(message) {}

  /// JSON pointer-like path of the offending value, e.g. "/data/3/attributes/samples-count".
  const std::string& json_path() const noexcept { return json_path_; }
  const std::string& url() const noexcept { return url_; }
  const std::string& detail() const noexcept { return detail_; }

 private:
  std::string json_path_;
  std::string url_;
  std::string detail_;
};

/// A list walk received pages that do not add up: the list's total changed
/// between pages, or a page held a number of items that the total and the
/// server's page size rule out (the list changed underneath the walk, or the
/// server pages inconsistently). Every item yielded before it is sound, and
/// none was skipped; resume_token() names the page to start again from
/// (ListOptions::resume_token of the same list call).
class ListChangedError : public Error {
 public:
  MGNIFY_ERROR_CLONE(ListChangedError)
  ListChangedError(std::string url, std::string resume_token, const std::string& message)
      : Error("the list changed during the walk" + (url.empty() ? std::string() : " at " + url) +
              ": " + message + "; resume from page token " + resume_token),
        url_(std::move(url)),
        resume_token_(std::move(resume_token)),
        detail_(message) {}

  const std::string& url() const noexcept { return url_; }
  const std::string& resume_token() const noexcept { return resume_token_; }
  const std::string& detail() const noexcept { return detail_; }

 private:
  std::string url_;
  std::string resume_token_;
  std::string detail_;
};

/// A call's deadline (CallOptions::deadline, or CallOptions::timeout) passed
/// before the call ended: one call, a list walk, a batch item or a job wait
/// alike, however many retries it had left. A TransportError of kind timeout,
/// so code that catches timeouts keeps catching it. After a job wait, job_id()
/// names the job, which goes on at the service: polling it again later may
/// still find it finished.
class DeadlineExceededError : public TransportError {
 public:
  MGNIFY_ERROR_CLONE(DeadlineExceededError)
  /// The deadline of a call to `url` passed.
  explicit DeadlineExceededError(std::string url)
      : TransportError(Kind::timeout, 0, std::move(url), "the call's deadline passed") {}
  /// The deadline passed while waiting for job `job_id`, still `last_status` after `polls` polls.
  DeadlineExceededError(std::string job_id, std::string last_status, int polls,
                        std::chrono::milliseconds waited)
      : TransportError(Kind::timeout, 0, "job " + job_id,
                       "still '" + last_status + "' after " + std::to_string(waited.count()) +
                           " ms and " + std::to_string(polls) +
                           " polls; the call's deadline passed"),
        job_id_(std::move(job_id)),
        last_status_(std::move(last_status)),
        polls_(polls),
        waited_(waited) {}

  /// The job waited for; empty for any other call.
  const std::string& job_id() const noexcept { return job_id_; }
  /// The status text of the job's last poll.
  const std::string& last_status() const noexcept { return last_status_; }
  int polls() const noexcept { return polls_; }
  std::chrono::milliseconds waited() const noexcept { return waited_; }

 private:
  std::string job_id_;
  std::string last_status_;
  int polls_ = 0;
  std::chrono::milliseconds waited_{0};
};

/// Everything known about an HTTP error response.
struct ApiErrorInfo {
  int status = 0;
  std::string method;
  std::string url;
  std::string body;
  ErrorBody parsed;
  int attempts = 1;
  std::optional<std::chrono::seconds> retry_after;
  std::vector<std::string> redirects;  // every URL visited before the failing one, redacted
  std::string hint;                    // SDK advice appended to what(), e.g. private-object 404s
};

/// The service answered with an error status.
class ApiError : public Error {
 public:
  MGNIFY_ERROR_CLONE(ApiError)
  explicit ApiError(ApiErrorInfo info) : Error(compose(info)), info_(std::move(info)) {}

  int status() const noexcept { return info_.status; }
  const std::string& method() const noexcept { return info_.method; }
  const std::string& url() const noexcept { return info_.url; }
  const std::string& body() const noexcept { return info_.body; }
  int attempts() const noexcept { return info_.attempts; }
  const ErrorBody& parsed() const noexcept { return info_.parsed; }
  /// The server's message in one line ("" when it sent none).
  const std::string& message() const noexcept { return info_.parsed.message; }
  const std::vector<ValidationIssue>& issues() const noexcept { return info_.parsed.issues; }
  const std::vector<JsonApiError>& api_errors() const noexcept { return info_.parsed.api_errors; }
  const std::optional<std::chrono::seconds>& retry_after() const noexcept {
    return info_.retry_after;
  }
  const std::vector<std::string>& redirects() const noexcept { return info_.redirects; }
  const std::string& hint() const noexcept { return info_.hint; }
  const ApiErrorInfo& info() const noexcept { return info_; }

 private:
  static std::string compose(const ApiErrorInfo& info) {
    std::string s = "HTTP " + std::to_string(info.status) + " for " + info.method + " " + info.url;
    if (!info.parsed.message.empty()) s += ": " + info.parsed.message;
    if (info.attempts > 1) s += " (after " + std::to_string(info.attempts) + " attempts)";
    if (!info.hint.empty()) s += " [" + info.hint + "]";
    return s;
  }

  ApiErrorInfo info_;
};

/// 404.
class NotFoundError : public ApiError {
 public:
  MGNIFY_ERROR_CLONE(NotFoundError)
  using ApiError::ApiError;
};

/// 401 or 403.
class AuthError : public ApiError {
 public:
  MGNIFY_ERROR_CLONE(AuthError)
  using ApiError::ApiError;
};

/// 400 or 422: the request was understood and rejected. `issues()` holds the
/// per-parameter complaints when the server sent a list.
class ValidationError : public ApiError {
 public:
  MGNIFY_ERROR_CLONE(ValidationError)
  using ApiError::ApiError;
};

/// 429 that outlasted the retry budget. `retry_after()` is the last value the server sent.
class RateLimitedError : public ApiError {
 public:
  MGNIFY_ERROR_CLONE(RateLimitedError)
  using ApiError::ApiError;
};

/// 5xx that outlasted the retry budget (or a non-idempotent request's 5xx).
class ServerError : public ApiError {
 public:
  MGNIFY_ERROR_CLONE(ServerError)
  using ApiError::ApiError;
};

/// A redirect could not be followed: a loop, more hops than allowed, or a
/// 3xx without a Location.
class RedirectError : public ApiError {
 public:
  MGNIFY_ERROR_CLONE(RedirectError)
  using ApiError::ApiError;
};

/// Throws the ApiError subclass that matches `info.status`.
[[noreturn]] inline void throw_api_error(ApiErrorInfo info) {
  const int s = info.status;
  if (s == 404) throw NotFoundError(std::move(info));
  if (s == 401 || s == 403) throw AuthError(std::move(info));
  if (s == 400 || s == 422) throw ValidationError(std::move(info));
  if (s == 429) throw RateLimitedError(std::move(info));
  if (s >= 500 && s <= 599) throw ServerError(std::move(info));
  if (s >= 300 && s <= 399) throw RedirectError(std::move(info));
  throw ApiError(std::move(info));
}

MGNIFY_NAMESPACE_END
