#include "responses.hpp"

namespace mgnify::mock::v1routes {

bool accepts_json(const httplib::Request& req) {
  if (!req.has_header("Accept")) return true;
  const std::string accept = req.get_header_value("Accept");
  if (accept.empty()) return true;
  for (const char* ok : {"application/json", "*/*", "application/*", "text/html"}) {
    if (accept.find(ok) != std::string::npos) return true;
  }
  return false;
}
AuthState auth_of(const httplib::Request& req) {
  AuthState a;
  if (!req.has_header("Authorization")) return a;
  const std::string h = req.get_header_value("Authorization");
  if (h.rfind("Bearer ", 0) != 0) return a;  // another scheme is ignored: anonymous
  a.sent = true;
  a.valid = h.substr(7) == d::kTestToken;
  return a;
}

bool wants_gzip(const httplib::Request& req) {
  return req.get_header_value("Accept-Encoding").find("gzip") != std::string::npos;
}

std::string gzip(const std::string& plain) {
  httplib::detail::gzip_compressor compressor;
  std::string out;
  compressor.compress(plain.data(), plain.size(), true, [&](const char* data, std::size_t n) {
    out.append(data, n);
    return true;
  });
  return out;
}

// Bodies go out through a sized content provider, which httplib sends as is:
// its own per-response compression (brotli at top quality) would cost far more
// than rendering the page. gzip is done here instead, once per cached body.
void send_payload(httplib::Response& res, int status, std::shared_ptr<const std::string> payload,
                  const std::string& type, bool gzipped) {
  res.status = status;
  res.set_header("Vary", "Accept");
  res.set_header("Allow", "GET, HEAD, OPTIONS");
  if (gzipped) res.set_header("Content-Encoding", "gzip");
  const std::size_t size = payload->size();
  res.set_content_provider(
      size, type, [payload](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        sink.write(payload->data() + offset, std::min(length, payload->size() - offset));
        return true;
      });
}

void send(const httplib::Request& req, httplib::Response& res, int status, const std::string& body,
          const std::string& type) {
  const bool gz = wants_gzip(req);
  send_payload(res, status, std::make_shared<const std::string>(gz ? gzip(body) : body), type, gz);
}

}  // namespace mgnify::mock::v1routes
