#include <catch2/catch.hpp>

#include "core/test_support.hpp"
#include "mock_server.hpp"

TEST_CASE("a GET through libcurl reaches the mock and returns its JSON", "[integration]") {
  mgnify::mock::MockServer server;
  server.start();
  mgnify::ClientOptions options;
  options.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  mgnify::http::Session session(options, server.origin());
  const auto response = session.get(session.url("test/echo"));
  CHECK(response.status == 200);
  const auto doc = nlohmann::json::parse(response.body);
  CHECK(doc["headers"]["accept"] == "application/json");
  CHECK(doc["headers"]["user-agent"].get<std::string>().rfind("mgnify-cpp/", 0) == 0);
}
