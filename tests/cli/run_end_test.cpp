// The mocks that test files start from static storage (support/all_services.hpp)
// stop when the test run ends, ending what they are serving, before exit()
// destroys static storage. A request still in flight at exit reached the
// mock's data after its destruction (a use after free under AddressSanitizer,
// seen when a Ctrl-C test left a slow download behind).

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "cli/cli_runner.hpp"
#include "mock/mock_server.hpp"
#include "support/all_services.hpp"

namespace {

using std::chrono::steady_clock;

/// Whether the peer closed the connection within `limit`.
bool closed_within(int socket, steady_clock::duration limit) {
  const auto deadline = steady_clock::now() + limit;
  char buffer[4096];
  while (steady_clock::now() < deadline) {
    pollfd ready{socket, POLLIN, 0};
    if (::poll(&ready, 1, 100) <= 0) continue;
    if (::recv(socket, buffer, sizeof buffer, 0) <= 0) return true;
  }
  return false;
}

}  // namespace

// Stops every started mock, so it runs in a child process of its own (below).
TEST_CASE("run-end probe: the run ends while a slow file request is served", "[.run_end_probe]") {
  auto& server = mgnify::test::start_all_services(mgnify::test::WithFiles::yes);
  const std::string path = std::string(mgnify::mock::kFilesPrefix) + "/small.tsv";
  server.push_fault(path, mgnify::mock::Fault::slow(std::chrono::seconds(60)));
  const int client = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  REQUIRE(client >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(server.port()));
  REQUIRE(::connect(client, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  const std::string request =
      "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  REQUIRE(::send(client, request.data(), request.size(), 0) ==
          static_cast<ssize_t>(request.size()));
  for (int i = 0; i < 500 && server.hits(path) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(server.hits(path) == 1);

  const auto stopping = steady_clock::now();
  mgnify::test::finish_test_run();
  // Stopping ended the fault's minute and waited for the request's handler.
  CHECK(steady_clock::now() - stopping < std::chrono::seconds(10));
  CHECK(closed_within(client, std::chrono::seconds(10)));
  ::close(client);
}

TEST_CASE("at the end of a test run its mocks stop at once and end the requests in flight",
          "[cli][mock]") {
  const auto run = mgnify::test::cli::run_piped("/proc/self/exe", {"[.run_end_probe]"}, {},
                                                std::chrono::seconds(60));
  INFO(run.out << run.err);
  REQUIRE_FALSE(run.timed_out);
  CHECK(run.code == 0);
  CHECK(run.out.find("All tests passed") != std::string::npos);
}
