// Faults that need more than a scripted response: a server slower than the
// timeout, a server that goes away mid-walk (and comes back on the same port
// for a resumed walk), a connection closed before any response, oversized
// bodies, a redirect to another host in a link-following walk, and the
// trailing-slash redirect the v2 service really sends.

#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "faults/fault_cases.hpp"
#include "faults/fault_support.hpp"

using namespace mgnify::test::faults;
namespace v1d = mgnify::mock::v1data;
namespace v2d = mgnify::mock::v2data;
using Kind = mgnify::TransportError::Kind;

namespace {

/// Accepts connections, reads the request and closes without a byte of response.
class BlackHole {
 public:
  BlackHole() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) throw std::runtime_error("socket");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(fd_, 64) != 0) {
      throw std::runtime_error("bind/listen");
    }
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { run(); });
  }
  ~BlackHole() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int connections() const { return connections_.load(); }

 private:
  void run() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) continue;
      ++connections_;
      // Read until the end of the request head (bounded), so the client has
      // sent its request and then sees the connection close.
      std::string head;
      char buf[4096];
      for (int i = 0; i < 50 && head.find("\r\n\r\n") == std::string::npos; ++i) {
        pollfd q{c, POLLIN, 0};
        if (::poll(&q, 1, 20) <= 0) continue;
        const auto n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0) break;
        head.append(buf, static_cast<std::size_t>(n));
      }
      ::close(c);
    }
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

mgnify::ClientOptions fast_options(const std::shared_ptr<mgnify::testing::FakeClock>& clock) {
  mgnify::ClientOptions o;
  o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  o.retry.max_attempts = kBudget;
  o.retry.initial_backoff = std::chrono::milliseconds(1);
  o.retry.max_backoff = std::chrono::milliseconds(8);
  o.clock = clock;
  o.read_ahead = false;
  return o;
}

bool accepts_connections(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

/// Stops a server; with no keep-alive (crashable_server), stop() is prompt
/// and the port refuses new connections at once, as after a crash.
void kill_server(MockServer& server) {
  server.stop();
  REQUIRE_FALSE(accepts_connections(server.port()));
}

std::unique_ptr<MockServer> crashable_server(int port, void (*routes)(MockServer&)) {
  MockServer::Options options;
  options.port = port;
  auto server = std::make_unique<MockServer>(options);
  // One request per connection: an idle keep-alive connection would outlive
  // stop() and keep serving the walk, which is not what a crash looks like.
  server->server().set_keep_alive_max_count(1);
  routes(*server);
  server->start();
  return server;
}

// Walks on from `it`, collecting `id(item)`, and stops `server` once `stop_after`
// items are in: the next page meets a closed port, which is a connect error after
// the whole retry budget. Returns the walk's resume token (none if no error came).
template <class Paged, class Iterator, class Id>
std::optional<std::string> walk_until_server_stops(Paged& paged, Iterator& it, MockServer& server,
                                                   std::size_t stop_after,
                                                   std::vector<std::string>& ids, Id id) {
  while (it != paged.end()) {
    ids.push_back(id(*it));
    if (ids.size() == stop_after) kill_server(server);
    try {
      ++it;
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::connect);
      CHECK(e.attempts() == kBudget);
      return paged.resume_token();
    }
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("a connection closed before any response is a receive error, retried to the budget",
          "[faults][drop]") {
  BlackHole hole;
  const auto service = GENERATE(Service::proteins, Service::v1, Service::v2);
  INFO(service_name(service));
  // The harness gives the client and its calls; its base URL is swapped for the black hole.
  auto h = make_harness(service, Tweaks{[&](mgnify::ClientOptions& o) {
                                          const auto p = o.base_url.find("/metagenomics");
                                          o.base_url = hole.origin() + o.base_url.substr(p);
                                        },
                                        true,
                                        {}});
  SECTION("detail call") {
    try {
      h->detail(0);
      FAIL("no error");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::receive);
      CHECK(e.attempts() == kBudget);
      CHECK(e.url().rfind(hole.origin(), 0) == 0);
    }
    CHECK(hole.connections() == kBudget);
  }
  SECTION("get_many: every item fails on its own, none aborts the batch") {
    const auto results = h->get_many({0, 1, 2});
    REQUIRE(results.size() == 3);
    for (const auto& r : results) {
      REQUIRE_FALSE(r.ok());
      const auto* e = r.error_as<mgnify::TransportError>();
      REQUIRE(e != nullptr);
      CHECK(e->kind() == Kind::receive);
      CHECK(e->attempts() == kBudget);
    }
    CHECK(hole.connections() == 3 * kBudget);
  }
}

TEST_CASE("a server slower than the request timeout", "[faults][timeout]") {
  const auto service = GENERATE(Service::proteins, Service::v1, Service::v2);
  INFO(service_name(service));
  auto h = make_harness(service, Tweaks{[](mgnify::ClientOptions& o) {
                                          o.request_timeout = std::chrono::milliseconds(800);
                                          o.retry.max_attempts = 2;
                                        },
                                        true,
                                        {}});
  // The timeout leaves room for a sanitized build on a loaded machine, whose
  // ordinary answers can take a few hundred milliseconds.
  const auto slow = Fault::slow(std::chrono::milliseconds(2000));
  // Warm the mock first (v1 renders and compresses each page once, then serves
  // it from a cache), so that on a busy machine only the injected delay can
  // outlast the 800 ms timeout.
  REQUIRE(h->walk({}).ids == h->list_ids);
  for (std::size_t i = 0; i < 4; ++i) REQUIRE(h->detail(i) == h->items[i]);
  h->server->clear_requests();
  SECTION("detail: a timeout, retried once, then the second timeout is the error") {
    const Shot s = h->shot_item(1);
    s.server.push_faults(s.path, slow, 2);
    const auto started = std::chrono::steady_clock::now();
    try {
      h->detail(1);
      FAIL("no error");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::timeout);
      CHECK(e.attempts() == 2);
      CHECK(e.url() == s.url);
    }
    // Two attempts of 800 ms, not two server delays of 2000 ms.
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(3200));
    CHECK(h->server->hits(s.path) == 2);
  }
  SECTION("detail: one slow answer is absorbed by a retry") {
    const Shot s = h->shot_item(1);
    s.server.push_fault(s.path, slow);
    CHECK(h->detail(1) == h->items[1]);
    CHECK(h->server->hits(s.path) == 2);
  }
  SECTION("walk: a slow page is retried and the walk stays complete") {
    const auto out = h->walk(
        [&](const std::string& url) { h->server->push_fault(h->shot_list(url).path, slow); });
    CHECK_FALSE(out.error);
    CHECK(out.ids == h->list_ids);
  }
  SECTION("get_many: only the slow item fails") {
    const Shot s = h->shot_item(2);
    s.server.push_faults(s.path, slow, 2);
    const auto results = h->get_many({0, 1, 2, 3});
    REQUIRE(results.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
      if (i == 2) {
        REQUIRE_FALSE(results[i].ok());
        REQUIRE(results[i].error_as<mgnify::TransportError>() != nullptr);
        CHECK(results[i].error_as<mgnify::TransportError>()->kind() == Kind::timeout);
      } else {
        REQUIRE(results[i].ok());
        CHECK(results[i].value() == h->items[i]);
      }
    }
  }
}

TEST_CASE("responses over max_body_bytes fail with body_too_large and are not retried",
          "[faults][limits]") {
  const auto service = GENERATE(Service::proteins, Service::v1, Service::v2);
  INFO(service_name(service));
  auto h = make_harness(service,
                        Tweaks{[](mgnify::ClientOptions& o) { o.max_body_bytes = 200; }, true, {}});
  SECTION("detail") {
    try {
      h->detail(0);
      FAIL("no error");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::body_too_large);
      CHECK(e.attempts() == 1);
      CHECK(e.detail().find("200 bytes") != std::string::npos);
    }
    CHECK(h->server->hits(h->item_path(0)) == 1);
  }
  SECTION("walk") {
    try {
      h->walk({});
      FAIL("no error");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::body_too_large);
      CHECK(e.attempts() == 1);
    }
  }
  SECTION("get_many") {
    const auto results = h->get_many({0, 1, 2});
    for (const auto& r : results) {
      REQUIRE(r.error_as<mgnify::TransportError>() != nullptr);
      CHECK(r.error_as<mgnify::TransportError>()->kind() == Kind::body_too_large);
    }
    for (std::size_t i = 0; i < 3; ++i) CHECK(h->server->hits(h->item_path(i)) == 1);
  }
}

TEST_CASE("the default body limit is generous: 256 MiB", "[faults][limits]") {
  CHECK(mgnify::ClientOptions{}.max_body_bytes == std::size_t{256} * 1024 * 1024);
}

TEST_CASE("v1: a server that stops mid-walk, restarted on the same port, and a resumed walk",
          "[faults][resume]") {
  auto clock = std::make_shared<mgnify::testing::FakeClock>();
  auto server = crashable_server(0, mgnify::mock::register_v1_routes);
  const int port = server->port();
  auto o = fast_options(clock);
  o.base_url = server->v1_url();
  mgnify::v1::LegacyClient client(o);
  const auto expected = v1_big_study_samples();

  auto paged = client.study_samples("MGYS00000001", {}, mgnify::ListOptions{60, 1, std::nullopt});
  std::vector<std::string> ids;
  auto it = paged.begin();
  // Pages 1 and 2 are in; page 3 meets a closed port.
  const auto token =
      walk_until_server_stops(paged, it, *server, 120, ids, [](const auto& s) { return s.id(); });
  REQUIRE(token);
  CHECK(ids.size() == 120);
  CHECK(*token == o.base_url + "/studies/MGYS00000001/samples?page=3&page_size=60");

  auto restarted = crashable_server(port, mgnify::mock::register_v1_routes);

  SECTION("a new walk from the saved token") {
    for (const auto& s : client.follow<mgnify::v1::Sample>(*token)) ids.push_back(s.id());
  }
  SECTION("the interrupted range itself, continued") {
    for (it = paged.begin(); it != paged.end(); ++it) ids.push_back(it->id());
  }
  CHECK(ids == expected);
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
  CHECK(restarted->hits(std::string(mgnify::mock::kV1Prefix) + "/studies/MGYS00000001/samples") ==
        3);
}

TEST_CASE("v2: a server that stops mid-walk, restarted on the same port, and a resumed walk",
          "[faults][resume]") {
  auto clock = std::make_shared<mgnify::testing::FakeClock>();
  auto server = crashable_server(0, mgnify::mock::register_v2_routes);
  const int port = server->port();
  auto o = fast_options(clock);
  o.base_url = server->v2_url();
  mgnify::v2::V2Client client(o);
  const auto expected = v2_public_studies();

  mgnify::ListOptions list;
  list.page_size = 20;
  auto paged = client.studies({}, list);
  std::vector<std::string> ids;
  auto it = paged.begin();
  const auto token = walk_until_server_stops(paged, it, *server, 60, ids,
                                             [](const auto& s) { return s.accession; });
  REQUIRE(token);
  CHECK(*token == "4");
  CHECK(ids.size() == 60);

  auto restarted = crashable_server(port, mgnify::mock::register_v2_routes);

  mgnify::ListOptions resume = list;
  resume.start_page = std::stoll(*token);
  for (const auto& s : client.studies({}, resume)) ids.push_back(s.accession);
  CHECK(ids == expected);
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
  CHECK(restarted->hits(std::string(mgnify::mock::kV2Prefix) + "/studies/") == 3);
}

TEST_CASE("proteins: a server that has gone away is a connect error after the whole budget",
          "[faults][resume]") {
  auto h = make_harness(Service::proteins);
  h->server->stop();
  try {
    h->detail(0);
    FAIL("no error");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == Kind::connect);
    CHECK(e.attempts() == kBudget);
  }
  CHECK(h->clock->sleeps().size() == static_cast<std::size_t>(kBudget - 1));
}

TEST_CASE(
    "v1: a page reached through a redirect to another host names links there; the walk refuses "
    "them",
    "[faults][redirect][links]") {
  auto clock = std::make_shared<mgnify::testing::FakeClock>();
  MockServer server;
  mgnify::mock::register_v1_routes(server);
  server.start();
  const std::string path = std::string(mgnify::mock::kV1Prefix) + "/studies/MGYS00000001/samples";
  auto run = [&](bool allow) {
    auto o = fast_options(clock);
    o.base_url = server.v1_url();
    o.allow_foreign_links = allow;
    mgnify::v1::LegacyClient client(o);
    auto paged = client.study_samples("MGYS00000001", {}, mgnify::ListOptions{60, 1, std::nullopt});
    std::vector<std::string> ids;
    for (auto it = paged.begin(); it != paged.end(); ++it) {
      ids.push_back(it->id());
      if (ids.size() == 60) {
        std::string foreign = *paged.resume_token();
        foreign.replace(foreign.find("127.0.0.1"), 9, "localhost");
        server.push_fault(path, Fault::redirect(302, foreign));
      }
    }
    return ids;
  };
  SECTION("by default: InvalidArgument naming the foreign link, after the redirected page") {
    std::vector<std::string> ids;
    try {
      run(false);
      FAIL("no error");
    } catch (const mgnify::InvalidArgument& e) {
      CHECK(std::string(e.what()).find("refusing to follow 'http://localhost:") !=
            std::string::npos);
      CHECK(std::string(e.what()).find("page=3") != std::string::npos);
    }
  }
  SECTION("with allow_foreign_links: the walk completes") {
    CHECK(run(true) == v1_big_study_samples());
  }
}

TEST_CASE("v1: a list page's envelope keeps links.next beside the walk's token", "[faults][v1]") {
  auto h = make_harness(Service::v1, Tweaks{{}, false, {}});
  auto o = h->options();
  o.base_url = h->server->v1_url();
  mgnify::v1::LegacyClient client(o);
  auto paged = client.study_samples("MGYS00000001", {}, mgnify::ListOptions{60, 1, std::nullopt});
  const auto& page = paged.current_page();
  REQUIRE(page.next);
  CHECK(page.links.next == page.next);
  CHECK(page.next->find("page=2") != std::string::npos);
}

TEST_CASE(
    "v2: the service's 301 to the trailing-slash form is followed with the query and the token",
    "[faults][redirect]") {
  auto h = make_harness(Service::v2);
  auto o = h->options();
  o.base_url = h->server->v2_url();
  mgnify::v2::V2Client client(o);
  const std::string base = h->server->v2_url();
  const auto response = client.session().get(base + "/studies?page=2&page_size=5");
  CHECK(response.status == 200);
  CHECK(response.redirects == std::vector<std::string>{base + "/studies?page=2&page_size=5"});
  CHECK(response.url == base + "/studies/?page=2&page_size=5");
  const auto doc = nlohmann::json::parse(response.body);
  REQUIRE(doc.at("items").size() == 5);
  CHECK(doc.at("items").at(0).at("accession") == v2_public_studies()[5]);
  const auto requests = h->server->requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[1].target ==
        std::string(mgnify::mock::kV2Prefix) + "/studies/?page=2&page_size=5");
  // Same origin: the token goes along.
  CHECK(requests[1].headers.count("authorization") == 1);
}
