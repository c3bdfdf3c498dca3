#pragma once

// TCP connections as the kernel sees them (Linux /proc/net/tcp and tcp6), so
// that a test can tell a client really closed a connection, whatever the
// client's own bookkeeping says.

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace mgnify::test::faults {

/// The port of an address field of /proc/net/tcp ("0100007F:1F90").
inline int proc_net_port(const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos) return -1;
  return static_cast<int>(std::stoul(address.substr(colon + 1), nullptr, 16));
}

/// Whether the kernel's TCP tables can be read here (Linux).
inline bool tcp_table_readable() {
  return std::ifstream("/proc/net/tcp").good() || std::ifstream("/proc/net/tcp6").good();
}

/// Whether a loopback connection between a server listening on `server_port`
/// and a client's `client_port` is still established on either end; nullopt
/// when the kernel's table cannot be read (not Linux).
inline std::optional<bool> tcp_established(int server_port, int client_port) {
  bool readable = false;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    if (!in) continue;
    readable = true;
    std::string line;
    std::getline(in, line);  // the column names
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state;
      if (!(fields >> slot >> local >> remote >> state)) continue;
      const int l = proc_net_port(local);
      const int r = proc_net_port(remote);
      const bool ours =
          (l == server_port && r == client_port) || (l == client_port && r == server_port);
      if (ours && state == "01") return true;  // TCP_ESTABLISHED
    }
  }
  if (!readable) return std::nullopt;
  return false;
}

}  // namespace mgnify::test::faults
