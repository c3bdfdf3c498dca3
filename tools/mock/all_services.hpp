#pragma once

// A started mock serving the proteins, v1 and v2 routes (and, when asked, the
// files their download listings name), for test programs that link every
// mock library. Each call makes a server of its own, so a test file that
// counts requests or queues faults does not share it with another file.

#include "mock_server.hpp"

namespace mgnify {
namespace mock {

enum class WithFiles { no, yes };

/// Started and never destroyed: tests reach it from static storage.
inline MockServer& start_all_services(WithFiles files = WithFiles::no) {
  auto* server = new MockServer();
  register_proteins_routes(*server);
  register_v1_routes(*server);
  register_v2_routes(*server);
  if (files == WithFiles::yes) register_file_routes(*server);
  server->start();
  return *server;
}

}  // namespace mock
}  // namespace mgnify
