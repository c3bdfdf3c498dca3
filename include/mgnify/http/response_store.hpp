#pragma once

// What the session asks of a response cache. The session knows only this
// interface, so code that never caches pays nothing for the on-disk cache
// (mgnify/cache/response_cache.hpp) and its hashing.

#include <chrono>
#include <optional>
#include <string>

#include "mgnify/http/message.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

class ResponseStore {
 public:
  virtual ~ResponseStore() = default;
  /// The entry name for a request as it is about to be sent, or nullopt when
  /// the request must bypass the store.
  virtual std::optional<std::string> key_for(const Request& request) const = 0;
  /// The stored response for `request` (whose key is `key`), fresh at `now`,
  /// or nullopt.
  virtual std::optional<Response> lookup(const Request& request, const std::string& key,
                                         std::chrono::system_clock::time_point now) = 0;
  /// Offers the response fetched for `request`; a store never fails the request.
  virtual bool store(const Request& request, const std::string& key, const Response& response,
                     std::chrono::system_clock::time_point now) noexcept = 0;
};

}  // namespace http
MGNIFY_NAMESPACE_END
