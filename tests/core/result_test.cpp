#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/result.hpp"

using mgnify::Result;

namespace {
mgnify::ApiErrorInfo not_found_info() {
  mgnify::ApiErrorInfo info;
  info.status = 404;
  info.method = "GET";
  info.url = "https://h/studies/MGYS1";
  info.parsed = mgnify::parse_error_body(R"({"detail": "Not found."})");
  return info;
}
}  // namespace

TEST_CASE("a successful Result gives its value every way", "[result]") {
  Result<std::string> r(std::string("MGYS00000001"));
  CHECK(r.ok());
  CHECK(static_cast<bool>(r));
  CHECK(r.value() == "MGYS00000001");
  CHECK(*r == "MGYS00000001");
  CHECK(r->size() == 12);
  CHECK(r.exception() == nullptr);
  CHECK(r.error_as<mgnify::Error>() == nullptr);
  CHECK_THROWS_AS(r.error(), std::logic_error);

  r.value() += "!";
  CHECK(*r == "MGYS00000001!");
  const Result<std::string>& cr = r;
  CHECK(cr.value() == "MGYS00000001!");
  std::string moved = std::move(r).value();
  CHECK(moved == "MGYS00000001!");
}

TEST_CASE("a failed Result keeps the exception's full type", "[result]") {
  auto r = Result<int>::failure(mgnify::NotFoundError(not_found_info()));
  CHECK_FALSE(r.ok());
  CHECK_FALSE(static_cast<bool>(r));
  CHECK(std::string(r.error().what()) == "HTTP 404 for GET https://h/studies/MGYS1: Not found.");
  REQUIRE(r.error_as<mgnify::NotFoundError>() != nullptr);
  CHECK(r.error_as<mgnify::NotFoundError>()->status() == 404);
  CHECK(r.error_as<mgnify::ApiError>() != nullptr);
  CHECK(r.error_as<mgnify::Error>() != nullptr);
  CHECK(r.error_as<mgnify::ServerError>() == nullptr);
  CHECK(r.error_as<mgnify::TransportError>() == nullptr);
  CHECK(dynamic_cast<const mgnify::NotFoundError*>(&r.error()) != nullptr);
  // value() rethrows the original type.
  CHECK_THROWS_AS(r.value(), mgnify::NotFoundError);
  CHECK_THROWS_AS(*r, mgnify::NotFoundError);
  CHECK_THROWS_AS(std::move(r).value(), mgnify::NotFoundError);
}

TEST_CASE("Result::failure captures the exception being handled", "[result]") {
  Result<int> r = [] {
    try {
      throw mgnify::TransportError(mgnify::TransportError::Kind::timeout, 28, "https://h/x", "timed out");
    } catch (...) {
      return Result<int>::failure(std::current_exception());
    }
  }();
  REQUIRE(r.error_as<mgnify::TransportError>() != nullptr);
  CHECK(r.error_as<mgnify::TransportError>()->curl_code() == 28);
  CHECK_THROWS_AS(r.value(), mgnify::TransportError);
}

TEST_CASE("foreign exceptions are wrapped in mgnify::Error with their text", "[result]") {
  auto std_error = Result<int>::failure(std::make_exception_ptr(std::out_of_range("index 7")));
  CHECK(std::string(std_error.error().what()) == "index 7");
  CHECK(std_error.error_as<mgnify::Error>() != nullptr);
  CHECK_THROWS_AS(std_error.value(), mgnify::Error);

  auto odd = Result<int>::failure(std::make_exception_ptr(42));
  CHECK(std::string(odd.error().what()) == "unknown exception");
  CHECK_THROWS_AS(odd.value(), mgnify::Error);
}

TEST_CASE("copies of a failed Result share a valid error", "[result]") {
  std::vector<Result<int>> results;
  {
    auto original = Result<int>::failure(mgnify::InvalidArgument("bad accession 'x'"));
    for (int i = 0; i < 10; ++i) results.push_back(original);  // vector growth moves and copies
  }
  for (const auto& r : results) {
    CHECK(std::string(r.error().what()) == "bad accession 'x'");
    CHECK(r.error_as<mgnify::InvalidArgument>() != nullptr);
  }
  Result<int> assigned = 5;
  CHECK(assigned.ok());
  assigned = results.front();
  CHECK_FALSE(assigned.ok());
  CHECK(std::string(assigned.error().what()) == "bad accession 'x'");
}

TEST_CASE("Result holds move-only values", "[result]") {
  Result<std::unique_ptr<int>> r(std::make_unique<int>(7));
  REQUIRE(r.ok());
  CHECK(**r == 7);
  std::unique_ptr<int> taken = std::move(r).value();
  CHECK(*taken == 7);
}
