#pragma once

// A scripted Transport for unit tests: responses (or transport failures) are
// queued per URL or globally, and every request is recorded for assertions.
// A test double, so not part of the umbrella header mgnify.hpp: include it
// where a test or a program checking its own logic needs no network.

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/http/transport.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace testing {

class FakeTransport final : public http::Transport {
 public:
  using Request = http::Request;
  using Response = http::Response;
  using Handler = std::function<Response(const Request&)>;

  /// Queues a response for the next request to exactly this URL.
  FakeTransport& respond(const std::string& url, int status, std::string body = {},
                         http::Headers headers = {}) {
    Response r;
    r.status = status;
    r.body = std::move(body);
    r.headers = std::move(headers);
    std::lock_guard<std::mutex> lock(mutex_);
    scripted_[url].push_back(Step{std::move(r), std::nullopt});
    return *this;
  }
  /// Queues a transport failure for the next request to this URL.
  FakeTransport& fail(const std::string& url, TransportError::Kind kind,
                      std::string message = "simulated failure") {
    std::lock_guard<std::mutex> lock(mutex_);
    scripted_[url].push_back(Step{Response{}, TransportError(kind, 0, url, message)});
    return *this;
  }
  /// Answers requests that have no scripted step left.
  FakeTransport& fallback(Handler handler) {
    std::lock_guard<std::mutex> lock(mutex_);
    fallback_ = std::move(handler);
    return *this;
  }

  Response send(const Request& request) override {
    std::optional<Step> step;
    Handler fallback;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      requests_.push_back(request);
      auto it = scripted_.find(request.url);
      if (it != scripted_.end() && !it->second.empty()) {
        step = std::move(it->second.front());
        it->second.pop_front();
      } else {
        fallback = fallback_;
      }
    }
    if (step) {
      if (step->failure) throw *step->failure;
      step->response.url = request.url;
      return deliver(request, std::move(step->response));
    }
    if (fallback) {
      Response r = fallback(request);
      r.url = request.url;
      return deliver(request, std::move(r));
    }
    throw TransportError(TransportError::Kind::connect, 0, request.url,
                         "FakeTransport has no response scripted for this URL");
  }

  /// Chunk size used to feed Request::body_sink, small so that tests see
  /// several chunks per body as they would from a socket.
  static constexpr std::size_t kSinkChunk = 4096;

  std::vector<Request> requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }
  std::size_t request_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_.size();
  }

 private:
  struct Step {
    Response response;
    std::optional<TransportError> failure;
  };
  static Response deliver(const Request& request, Response response) {
    if (!request.body_sink || !response.is_success()) return response;
    std::string body = std::move(response.body);
    response.body.clear();
    for (std::size_t offset = 0; offset < body.size(); offset += kSinkChunk) {
      const std::size_t n = std::min(kSinkChunk, body.size() - offset);
      if (!request.body_sink(response, body.data() + offset, n)) {
        throw TransportError(TransportError::Kind::other, 0, request.url,
                             "the body sink stopped the transfer");
      }
    }
    return response;
  }

  mutable std::mutex mutex_;
  std::map<std::string, std::deque<Step>> scripted_;
  Handler fallback_;
  std::vector<Request> requests_;
};

}  // namespace testing
MGNIFY_NAMESPACE_END
