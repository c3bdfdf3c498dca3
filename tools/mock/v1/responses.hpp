#pragma once

// The v1 mock's responses: content negotiation, auth, the response cache and
// gzip.

#include "resource_routes.hpp"

namespace mgnify::mock::v1routes {

bool accepts_json(const httplib::Request& req);

// 401 for a bad or missing token, as rest_framework_jwt answers.
struct AuthState {
  bool sent = false;
  bool valid = false;
};
AuthState auth_of(const httplib::Request& req);

// Finished response bodies by Host + target (+ encoding). A list page costs
// a render, a dump and a gzip once; every later walk is a lookup.
class Cache {
 public:
  std::shared_ptr<const std::string> get(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second;
  }
  void put(const std::string& key, std::shared_ptr<const std::string> body) {
    std::lock_guard<std::mutex> lock(mutex_);
    // A coarse bound: a full walk of every list fits; anything beyond starts over.
    if (bytes_ + body->size() > kMaxBytes) {
      entries_.clear();
      bytes_ = 0;
    }
    const std::size_t size = body->size();
    if (entries_.emplace(key, std::move(body)).second) bytes_ += size;
  }

 private:
  static constexpr std::size_t kMaxBytes = std::size_t{192} * 1024 * 1024;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const std::string>> entries_;
  std::size_t bytes_ = 0;
};
bool wants_gzip(const httplib::Request& req);
std::string gzip(const std::string& plain);
void send_payload(httplib::Response& res, int status, std::shared_ptr<const std::string> payload,
                  const std::string& type, bool gzipped);
void send(const httplib::Request& req, httplib::Response& res, int status, const std::string& body,
          const std::string& type);

}  // namespace mgnify::mock::v1routes
