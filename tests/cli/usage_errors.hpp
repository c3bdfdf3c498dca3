#pragma once

// The check every table of CLI usage errors makes: exit 2, exactly the expected
// one-line message on stderr, nothing on stdout.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

namespace mgnify::test::cli {

struct UsageErrorCase {
  std::vector<std::string> args;
  std::string err;
};

/// Runs each case through `run` (a function of the arguments returning a Run).
template <class RunArgs>
void check_usage_errors(const std::vector<UsageErrorCase>& cases, RunArgs run_args) {
  for (const auto& c : cases) {
    std::string line;
    for (const auto& arg : c.args) line += (line.empty() ? "" : " ") + arg;
    INFO(line);
    const Run run = run_args(c.args);
    CHECK(run.code == 2);
    CHECK(run.err == c.err);
    CHECK(run.out.empty());
  }
}

}  // namespace mgnify::test::cli
