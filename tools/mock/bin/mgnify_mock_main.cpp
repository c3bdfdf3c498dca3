// mgnify-mock: the local MGnify stand-in as a process, for the demo and the benchmarks.

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "../mock_server.hpp"

namespace {
volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

[[noreturn]] void usage(int code) {
  std::cerr
      << "usage: mgnify-mock [--host 127.0.0.1] [--port N] [--latency-ms N] [--threads N]\n"
         "                   [--no-compression] [--request-log FILE] [--file-rate BYTES]\n"
         "Serves the Protein, v1 and v2 MGnify APIs from deterministic data on loopback.\n"
         "Prints the three base URLs, one per line, then serves until SIGINT/SIGTERM.\n"
         "--request-log appends \"<Unix time in us> TAB <method> TAB <target>\" per request.\n"
         "--file-rate sends each listed file at most BYTES per second.\n";
  std::exit(code);
}
}  // namespace

int main(int argc, char** argv) {
  mgnify::mock::MockServer::Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(2);
      return argv[++i];
    };
    try {
      if (arg == "--port") {
        options.port = std::stoi(value());
      } else if (arg == "--host") {
        options.host = value();
      } else if (arg == "--latency-ms") {
        options.latency = std::chrono::milliseconds(std::stoi(value()));
      } else if (arg == "--threads") {
        options.threads = static_cast<std::size_t>(std::stoul(value()));
      } else if (arg == "--request-log") {
        options.request_log = value();
      } else if (arg == "--file-rate") {
        options.file_bytes_per_second = static_cast<std::size_t>(std::stoul(value()));
      } else if (arg == "--no-compression") {
        options.compression = false;
      } else if (arg == "--help" || arg == "-h") {
        usage(0);
      } else {
        usage(2);
      }
    } catch (const std::exception&) {
      usage(2);
    }
  }
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  mgnify::mock::MockServer server(options);
  mgnify::mock::register_proteins_routes(server);
  mgnify::mock::register_v1_routes(server);
  mgnify::mock::register_v2_routes(server);
  mgnify::mock::register_file_routes(server);
  server.start();
  std::cout << "proteins " << server.proteins_url() << "\n"
            << "v1 " << server.v1_url() << "\n"
            << "v2 " << server.v2_url() << std::endl;
  while (!g_stop) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  server.stop();
  return 0;
}
