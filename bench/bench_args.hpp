#pragma once

// Argument parsing and result printing shared by the SDK benchmark and the
// libcurl baseline, so both take the same flags and print the same record.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>

namespace bench {

struct Args {
  std::string scenario;
  std::map<std::string, std::string> values;

  std::string str(const std::string& key, const std::string& fallback = "") const {
    auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
  long long num(const std::string& key, long long fallback) const {
    auto it = values.find(key);
    return it == values.end() ? fallback : std::stoll(it->second);
  }
  std::string need(const std::string& key) const {
    auto it = values.find(key);
    if (it == values.end()) throw std::runtime_error("missing --" + key);
    return it->second;
  }
};

// usage: prog SCENARIO --key value ...
inline Args parse(int argc, char** argv) {
  if (argc < 2)
    throw std::runtime_error("usage: " + std::string(argv[0]) + " SCENARIO [--key value]...");
  Args a;
  a.scenario = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string k = argv[i];
    if (k.rfind("--", 0) != 0 || i + 1 >= argc) throw std::runtime_error("bad argument: " + k);
    a.values[k.substr(2)] = argv[++i];
  }
  return a;
}

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One JSON line that run.sh collects.
inline void report(double seconds, long long items, long long bytes = 0) {
  std::printf("{\"seconds\": %.6f, \"items\": %lld, \"bytes\": %lld}\n", seconds, items, bytes);
  std::fflush(stdout);
}

}  // namespace bench
