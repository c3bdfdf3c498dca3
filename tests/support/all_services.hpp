#pragma once

// A started mock serving the proteins, v1 and v2 routes (and, when asked, the
// files their download listings name), for test programs that link every
// mock library. Each call makes a server of its own, so a test file that
// counts requests or queues faults does not share it with another file.
//
// The servers are never destroyed, since tests reach them from static
// storage, but they stop when the test run ends: a request still being
// served then (a slow fault whose client a test already interrupted) would
// otherwise read the mock's static data while exit() destroys it.

#include "mock_server.hpp"
#include "support/run_end.hpp"

namespace mgnify::test {

enum class WithFiles { no, yes };

/// Started, never destroyed, and stopped when the test run ends.
inline mock::MockServer& start_all_services(WithFiles files = WithFiles::no) {
  auto* server = new mock::MockServer();
  mock::register_proteins_routes(*server);
  mock::register_v1_routes(*server);
  mock::register_v2_routes(*server);
  if (files == WithFiles::yes) mock::register_file_routes(*server);
  server->start();
  at_run_end([server] { server->stop(); });
  return *server;
}

}  // namespace mgnify::test
