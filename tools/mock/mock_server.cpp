#include "mock_server.hpp"

#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "common/text.hpp"

namespace mgnify::mock {

namespace {

// Debian's cpp-httplib listens with a backlog of 5: when more clients than that
// connect at once (a get_many with concurrency 16), the kernel drops SYNs and
// curl retries them a second later, which would dominate every concurrent test
// and benchmark. httplib does not expose its socket, so find our listening
// socket by its port and listen() again, which on Linux only raises the backlog.
void widen_listen_backlog(int port) {
  for (int fd = 0; fd < 4096; ++fd) {
    int accepting = 0;
    socklen_t len = sizeof(accepting);
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &len) != 0 || !accepting) continue;
    sockaddr_storage addr{};
    socklen_t addr_len = sizeof(addr);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &addr_len) != 0) continue;
    int bound = -1;
    if (addr.ss_family == AF_INET) {
      bound = ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
    } else if (addr.ss_family == AF_INET6) {
      bound = ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
    }
    if (bound == port) ::listen(fd, SOMAXCONN);
  }
}

// A body big enough that cutting it in half leaves invalid JSON with a clear gap.
std::string default_fault_body() {
  nlohmann::json doc;
  doc["items"] = nlohmann::json::array();
  for (int i = 0; i < 64; ++i)
    doc["items"].push_back({{"id", i}, {"name", "item-" + std::to_string(i)}});
  return doc.dump();
}

nlohmann::json echo(const httplib::Request& req) {
  nlohmann::json headers = nlohmann::json::object();
  for (const auto& [name, value] : req.headers) headers[lower(name)] = value;
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : req.params) params[name] = value;
  nlohmann::json parts = nlohmann::json::array();
  for (const auto& [name, part] : req.files) {
    parts.push_back({{"name", part.name},
                     {"filename", part.filename},
                     {"content_type", part.content_type},
                     {"content", part.content}});
  }
  return {{"method", req.method}, {"path", req.path}, {"target", req.target}, {"headers", headers},
          {"params", params},     {"body", req.body}, {"parts", parts}};
}

}  // namespace

MockServer::MockServer() : MockServer(Options{}) {}

MockServer::MockServer(Options options)
    : options_(std::move(options)), server_(std::make_unique<httplib::Server>()) {
  latency_ms_ = options_.latency.count();
  compression_ = options_.compression;
  // Without TCP_NODELAY, Nagle plus delayed ACKs stall each keep-alive response ~40 ms.
  server_->set_tcp_nodelay(true);
  server_->set_keep_alive_max_count(1000000);
  server_->set_keep_alive_timeout(30);
  const std::size_t threads = options_.threads;
  server_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  if (!options_.request_log.empty()) {
    request_log_.open(options_.request_log, std::ios::app);
    if (!request_log_) throw std::runtime_error("cannot open request log " + options_.request_log);
  }
  install_core_routes();
}

MockServer::~MockServer() { stop(); }

void MockServer::start() {
  if (thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    stopping_ = false;
  }
  if (options_.port > 0) {
    if (!server_->bind_to_port(options_.host, options_.port)) {
      throw std::runtime_error("mock: cannot bind " + options_.host + ":" +
                               std::to_string(options_.port));
    }
    port_ = options_.port;
  } else {
    port_ = server_->bind_to_any_port(options_.host);
    if (port_ <= 0)
      throw std::runtime_error("mock: cannot bind an ephemeral port on " + options_.host);
  }
  widen_listen_backlog(port_);
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  for (int i = 0; i < 2000 && !server_->is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!server_->is_running()) throw std::runtime_error("mock: server did not start");
}

void MockServer::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  server_->stop();
  thread_.join();
}

std::string MockServer::origin() const {
  const bool v6 = options_.host.find(':') != std::string::npos;
  return std::string("http://") + (v6 ? "[" + options_.host + "]" : options_.host) + ":" +
         std::to_string(port_);
}

void MockServer::push_fault(const std::string& path, Fault fault) {
  std::lock_guard<std::mutex> lock(mutex_);
  faults_[path].push_back(std::move(fault));
}

void MockServer::push_faults(const std::string& path, const Fault& fault, int times) {
  for (int i = 0; i < times; ++i) push_fault(path, fault);
}

void MockServer::clear_faults() {
  std::lock_guard<std::mutex> lock(mutex_);
  faults_.clear();
}

std::size_t MockServer::hits(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = hits_.find(path);
  return it == hits_.end() ? 0 : it->second;
}

std::vector<RecordedRequest> MockServer::requests() const {
  std::unique_lock<std::mutex> lock(mutex_);
  // A client may ask as soon as it has its response, a moment before the
  // logger has filled in the body. A request whose client went away never
  // reaches the logger, so the wait is bounded and such entries are dropped.
  if (!bodies_cv_.wait_for(lock, std::chrono::milliseconds(500),
                           [this] { return pending_bodies_.empty(); })) {
    pending_bodies_.clear();
  }
  return requests_;
}

void MockServer::clear_requests() {
  std::lock_guard<std::mutex> lock(mutex_);
  requests_.clear();
  pending_bodies_.clear();
  hits_.clear();
}

void MockServer::install_core_routes() {
  server_->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    std::optional<Fault> fault;
    bool has_body = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++hits_[req.path];
      if (request_log_.is_open()) {
        const auto now = std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::system_clock::now().time_since_epoch());
        request_log_ << now.count() << '\t' << req.method << '\t' << req.target << std::endl;
      }
      RecordedRequest rec;
      rec.method = req.method;
      rec.path = req.path;
      rec.target = req.target;
      for (const auto& [name, value] : req.headers) rec.headers.emplace(lower(name), value);
      rec.body = req.body;
      pending_bodies_.erase(&req);  // a stale entry from an earlier request at this address
      // Bounded so a long benchmark run does not grow memory without limit.
      const bool recorded = requests_.size() < 100000;
      if (recorded) requests_.push_back(std::move(rec));
      if (!compression_) {
        // cpp-httplib compresses before the post-routing handler runs, so the
        // only way to send a body as is: the request never offered an encoding.
        // The Request object is the server's own non-const local, so this is
        // well defined; the recorded copy above keeps what the client sent.
        const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
      } else if (req.has_header("Accept-Encoding")) {
        // httplib prefers brotli at its slowest quality, which made large mock
        // pages cost more than the client under test; gzip keeps the wire
        // compressed (as EBI's servers do) at a fraction of the CPU.
        const std::string offered = req.get_header_value("Accept-Encoding");
        auto& headers = const_cast<httplib::Request&>(req).headers;
        headers.erase("Accept-Encoding");
        if (offered.find("gzip") != std::string::npos) headers.emplace("Accept-Encoding", "gzip");
      }
      auto it = faults_.find(req.path);
      if (it != faults_.end() && !it->second.empty()) {
        fault = std::move(it->second.front());
        it->second.pop_front();
      }
      // httplib reads a body only for requests that reach a route.
      const bool routed =
          !fault || fault->action == Fault::Action::pass || fault->action == Fault::Action::hang;
      const std::string length = req.get_header_value("Content-Length");
      has_body = (!length.empty() && length != "0") || req.has_header("Transfer-Encoding");
      if (recorded && routed && has_body) pending_bodies_[&req] = requests_.size() - 1;
    }
    // Latency is a sleep, never a busy wait, so it costs the machine nothing.
    if (const auto ms = latency_ms_.load(); ms > 0) {
      pause(std::chrono::milliseconds(ms));
    }
    if (!fault) return httplib::Server::HandlerResponse::Unhandled;
    switch (fault->action) {
      case Fault::Action::pass:
      case Fault::Action::hang:
        pause(fault->latency);
        return httplib::Server::HandlerResponse::Unhandled;
      case Fault::Action::respond:
        pause(fault->latency);
        res.status = fault->status;
        for (const auto& [name, value] : fault->headers) res.set_header(name, value);
        // The request's body was never read (see above). Whatever part of it
        // had not arrived yet would be taken for the next request on this
        // connection, so the connection ends here, as a server that answers
        // without reading a body must end it (RFC 9112, section 9.6).
        if (has_body) res.set_header("Connection", "close");
        res.set_content(fault->body, fault->content_type);
        return httplib::Server::HandlerResponse::Handled;
      case Fault::Action::truncate:
      case Fault::Action::drop: {
        auto body =
            std::make_shared<std::string>(fault->body.empty() ? default_fault_body() : fault->body);
        const bool truncate = fault->action == Fault::Action::truncate;
        res.status = 200;
        res.set_content_provider(
            body->size(), fault->content_type,
            [body, truncate](std::size_t offset, std::size_t, httplib::DataSink& sink) {
              if (truncate && offset == 0) sink.write(body->data(), body->size() / 2);
              return false;  // abort: the client sees fewer bytes than Content-Length
            });
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  // The body is read after pre-routing, so the record gets it here. A request
  // whose connection a fault cut never reaches the logger; its stale entry is
  // overwritten by the next request that reuses the address.
  server_->set_logger([this](const httplib::Request& req, const httplib::Response&) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pending_bodies_.find(&req);
    if (it == pending_bodies_.end()) return;
    if (it->second < requests_.size() && requests_[it->second].path == req.path) {
      requests_[it->second].body = req.body;
    }
    pending_bodies_.erase(it);
    bodies_cv_.notify_all();
  });

  // Generic routes for transport tests.
  server_->Get("/test/echo", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content(echo(req).dump(), "application/json");
  });
  server_->Post("/test/echo", [](const httplib::Request& req, httplib::Response& res) {
    res.set_content(echo(req).dump(), "application/json");
  });
  server_->Get(R"(/test/status/(\d+))", [](const httplib::Request& req, httplib::Response& res) {
    res.status = std::stoi(req.matches[1]);
    res.set_content(nlohmann::json{{"detail", "status " + std::string(req.matches[1])}}.dump(),
                    "application/json");
  });
  server_->Post(R"(/test/status/(\d+))", [](const httplib::Request& req, httplib::Response& res) {
    res.status = std::stoi(req.matches[1]);
    res.set_content(nlohmann::json{{"detail", "status " + std::string(req.matches[1])}}.dump(),
                    "application/json");
  });
  // A JSON body of at least `bytes` bytes, highly compressible.
  server_->Get("/test/json", [](const httplib::Request& req, httplib::Response& res) {
    const std::size_t bytes =
        req.has_param("bytes") ? static_cast<std::size_t>(std::stoull(req.get_param_value("bytes")))
                               : 1024;
    nlohmann::json doc;
    doc["padding"] = std::string(bytes, 'a');
    doc["size"] = bytes;
    res.set_content(doc.dump(), "application/json");
  });
  // /test/redirect/N answers 302 to /test/redirect/N-1; /test/redirect/0 is the echo.
  server_->Get(R"(/test/redirect/(\d+))", [](const httplib::Request& req, httplib::Response& res) {
    const int n = std::stoi(req.matches[1]);
    if (n == 0) {
      res.set_content(echo(req).dump(), "application/json");
      return;
    }
    res.status = 302;
    res.set_header("Location", "/test/redirect/" + std::to_string(n - 1));
  });
  // Two paths that redirect to each other.
  server_->Get("/test/loop/a", [](const httplib::Request&, httplib::Response& res) {
    res.status = 302;
    res.set_header("Location", "/test/loop/b");
  });
  server_->Get("/test/loop/b", [](const httplib::Request&, httplib::Response& res) {
    res.status = 307;
    res.set_header("Location", "a");
  });
  // Redirects to whatever `to` names (another host, a relative path), with status `status`.
  server_->Get("/test/redirect-to", [](const httplib::Request& req, httplib::Response& res) {
    res.status = req.has_param("status") ? std::stoi(req.get_param_value("status")) : 302;
    res.set_header("Location", req.get_param_value("to"));
  });
  server_->Post("/test/redirect-to", [](const httplib::Request& req, httplib::Response& res) {
    res.status = req.has_param("status") ? std::stoi(req.get_param_value("status")) : 302;
    res.set_header("Location", req.get_param_value("to"));
  });
  server_->Get("/test/slow", [this](const httplib::Request& req, httplib::Response& res) {
    const int ms = req.has_param("ms") ? std::stoi(req.get_param_value("ms")) : 1000;
    pause(std::chrono::milliseconds(ms));
    res.set_content(echo(req).dump(), "application/json");
  });
}

}  // namespace mgnify::mock
