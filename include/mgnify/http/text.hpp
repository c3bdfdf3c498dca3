#pragma once

// Bodies that are not JSON (FASTA, GFF, CSV, TSV, an OpenAPI document read as
// text), read whole into memory or handed to the caller chunk by chunk. Both
// go through the Session like every other call, so redirects, credentials,
// rate limits and the typed errors (status, URL, parsed detail) are the same.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "mgnify/cancel.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

/// Accept headers of the text formats the services serve. Each ends with a
/// low-priority `*/*` so that a server which labels the same bytes otherwise
/// (text/plain, application/octet-stream) still answers instead of sending 406.
namespace media {
inline constexpr const char* kFasta = "text/x-fasta, text/plain;q=0.9, */*;q=0.8";
inline constexpr const char* kGff = "text/x-gff3, text/plain;q=0.9, */*;q=0.8";
inline constexpr const char* kTsv = "text/tsv, text/tab-separated-values;q=0.9, */*;q=0.8";
inline constexpr const char* kCsv = "text/csv, */*;q=0.8";
inline constexpr const char* kJson = "application/json";
}  // namespace media

/// A text body read into memory: the bytes as sent, and what the server said they are.
struct TextBody {
  std::string text;
  std::string content_type;
  /// The URL the body came from (after any redirects).
  std::string url;
};

/// Limits of a streamed body.
struct StreamOptions {
  /// Most bytes handed to the sink; 0 means ClientOptions::max_body_bytes.
  /// More throws TransportError (body_too_large), as a JSON body would.
  std::uint64_t max_bytes = 0;
};

/// What a finished stream delivered.
struct StreamResult {
  std::uint64_t bytes = 0;
  std::string content_type;
  std::string url;
};

/// GET `url` (an absolute http(s) URL, else InvalidArgument) with `accept`, the whole body in
/// memory. The transport refuses a body over ClientOptions::max_body_bytes with TransportError
/// (body_too_large); HTTP errors are the usual ApiError family.
inline TextBody read_text(Session& session, const std::string& url, const std::string& accept,
                          const mgnify::CallOptions& call = {}) {
  require_http_url(url);
  Request request;
  request.url = url;
  request.headers.set("Accept", accept);
  Response response = session.execute(std::move(request), per_call(call));
  TextBody out;
  out.content_type = response.headers.get("Content-Type").value_or("");
  out.url = std::move(response.url);
  out.text = std::move(response.body);
  return out;
}

/// GET `url` (an absolute http(s) URL, else InvalidArgument) with `accept`, each chunk of a 2xx
/// body handed to `sink` as it arrives (an error body is still read whole, for the error's detail).
/// The request is sent once: bytes already handed over cannot be taken back, so a failed stream is
/// restarted by the caller, not retried here. Its token is `per_call_options`' (deadline included),
/// checked before every chunk, so no chunk reaches the sink once it is stopped.
inline StreamResult stream_text(Session& session, const std::string& url, const std::string& accept,
                                const BodySink& sink, const StreamOptions& options = {},
                                const mgnify::CallOptions& per_call_options = {}) {
  require_http_url(url);
  if (!sink) throw InvalidArgument("stream_text needs a body sink");
  const std::uint64_t cap = options.max_bytes > 0
                                ? options.max_bytes
                                : static_cast<std::uint64_t>(session.options().max_body_bytes);
  StreamResult result;
  Request request;
  request.url = url;
  request.headers.set("Accept", accept);
  const CancelToken cancel = per_call_options.token();
  request.body_sink = [&result, &sink, cap, cancel](const Response& head, const char* data,
                                                    std::size_t size) {
    cancel.throw_if_cancelled(head.url.empty() ? std::string("stream") : head.url);
    if (size > cap - result.bytes) {
      throw TransportError(TransportError::Kind::body_too_large, 0, head.url,
                           "response body exceeds the limit of " + std::to_string(cap) + " bytes");
    }
    result.bytes += size;
    return sink(head, data, size);
  };
  RequestOptions call = per_call(per_call_options);
  call.cancel = cancel;
  call.max_attempts = 1;
  Response response = session.execute(std::move(request), call);
  result.content_type = response.headers.get("Content-Type").value_or("");
  result.url = std::move(response.url);
  return result;
}

}  // namespace http
MGNIFY_NAMESPACE_END
