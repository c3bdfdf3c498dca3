#pragma once

// Shared by the v1 and v2 coverage tests: a route template as a path pattern,
// and the check that one client call requested exactly that route.

#include <catch2/catch.hpp>
#include <functional>
#include <regex>
#include <string>

#include "mock_server.hpp"

namespace mgnify::test::route_check {

/// "{name}" parameters of `route` match one path segment each, below `prefix`.
inline std::regex template_regex(const std::string& prefix, const std::string& route) {
  static const std::regex param(R"(\{[^}]+\})");
  return std::regex(prefix + "/" + std::regex_replace(route, param, "[^/]+"));
}

/// Runs `call` with the mock's recorder cleared. Its last request must be
/// `verb` on `route`; with `only_one`, it must also be its only request.
inline void expect_route(mgnify::mock::MockServer& server, const std::string& prefix,
                         const std::string& verb, const std::string& route,
                         const std::function<void()>& call, bool only_one) {
  server.clear_requests();
  REQUIRE_NOTHROW(call());
  const auto requests = server.requests();
  std::string seen;
  for (const auto& r : requests) seen += r.method + " " + r.target + "; ";
  INFO("requests: " << seen);
  REQUIRE_FALSE(requests.empty());
  if (only_one) CHECK(requests.size() == 1);
  CHECK(requests.back().method == verb);
  CHECK(std::regex_match(requests.back().path, template_regex(prefix, route)));
}

}  // namespace mgnify::test::route_check
