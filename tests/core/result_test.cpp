#include "mgnify/result.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <typeinfo>
#include <utility>
#include <vector>

#include "mgnify/cancel.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/tables/table.hpp"

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
      throw mgnify::TransportError(mgnify::TransportError::Kind::timeout, 28, "https://h/x",
                                   "timed out");
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

namespace {

mgnify::ApiErrorInfo info_with_status(int status) {
  mgnify::ApiErrorInfo info = not_found_info();
  info.status = status;
  return info;
}

// One of every Error subclass in include/ (checked against the headers below).
std::vector<std::pair<std::string, std::exception_ptr>> one_of_each_error() {
  namespace fs = std::filesystem;
  const auto ec = std::make_error_code(std::errc::io_error);
  auto ptr = [](auto e) { return std::make_exception_ptr(std::move(e)); };
  return {
      {"Error", ptr(mgnify::Error("e"))},
      {"InvalidArgument", ptr(mgnify::InvalidArgument("bad"))},
      {"TransportError", ptr(mgnify::TransportError(mgnify::TransportError::Kind::timeout, 28,
                                                    "https://h/", "slow"))},
      {"DecodeError", ptr(mgnify::DecodeError("$.count", "https://h/", "not a number"))},
      {"ListChangedError", ptr(mgnify::ListChangedError("https://h/", "3", "short page"))},
      {"ApiError", ptr(mgnify::ApiError(info_with_status(418)))},
      {"NotFoundError", ptr(mgnify::NotFoundError(info_with_status(404)))},
      {"AuthError", ptr(mgnify::AuthError(info_with_status(401)))},
      {"ValidationError", ptr(mgnify::ValidationError(info_with_status(422)))},
      {"RateLimitedError", ptr(mgnify::RateLimitedError(info_with_status(429)))},
      {"ServerError", ptr(mgnify::ServerError(info_with_status(503)))},
      {"RedirectError", ptr(mgnify::RedirectError(info_with_status(302)))},
      {"CancelledError", ptr(mgnify::CancelledError("walk"))},
      {"FileError", ptr(mgnify::FileError(fs::path("f"), ec, "cannot write"))},
      {"IntegrityError", ptr(mgnify::IntegrityError(mgnify::IntegrityError::Kind::size,
                                                    "https://h/f", fs::path("f"), "1", "2"))},
      {"SizeLimitError",
       ptr(mgnify::SizeLimitError("https://h/f", fs::path("f"), 10, "max_bytes"))},
      {"DeadlineExceededError",
       ptr(mgnify::DeadlineExceededError("job-1", "RUNNING", 3, std::chrono::milliseconds(9000)))},
      {"TableLimitError", ptr(mgnify::tables::TableLimitError("max_cells", 10, 11))},
  };
}

}  // namespace

TEST_CASE("a failed Result owns a copy of its error with the same dynamic type", "[result]") {
  for (const auto& [name, error] : one_of_each_error()) {
    INFO(name);
    const auto failed = Result<int>::failure(error);
    const std::type_info* thrown = nullptr;
    std::string text;
    try {
      std::rethrow_exception(error);
    } catch (const mgnify::Error& e) {
      thrown = &typeid(e);
      text = e.what();
    }
    REQUIRE(thrown != nullptr);
    const mgnify::Error& kept = failed.error();
    CHECK(typeid(kept) == *thrown);
    CHECK(std::string(failed.error().what()) == text);
  }
}

TEST_CASE("every Error subclass in include/ declares clone() and is covered above", "[result]") {
  namespace fs = std::filesystem;
  const std::regex declaration(R"(class (\w+) : public (\w+) \{)");
  std::set<std::string> error_types{"Error"};
  std::map<std::string, std::string> bodies;
  // Two passes: a class derives from Error through any already known subclass.
  std::vector<std::pair<std::string, std::string>> classes;  // name, base
  for (const auto& entry :
       fs::recursive_directory_iterator(std::string(MGNIFY_SOURCE_DIR) + "/include")) {
    if (entry.path().extension() != ".hpp") continue;
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator it(text.begin(), text.end(), declaration), end; it != end; ++it) {
      classes.emplace_back((*it)[1], (*it)[2]);
      const auto body_end = text.find("\n};", static_cast<std::size_t>(it->position()));
      bodies[(*it)[1]] = text.substr(static_cast<std::size_t>(it->position()),
                                     body_end - static_cast<std::size_t>(it->position()));
    }
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, base] : classes) {
      if (error_types.count(base) && error_types.insert(name).second) grew = true;
    }
  }
  std::set<std::string> covered;
  for (const auto& [name, error] : one_of_each_error()) covered.insert(name);
  CHECK(error_types == covered);
  for (const auto& name : error_types) {
    if (name == "Error") continue;
    INFO(name);
    CHECK(bodies[name].find("MGNIFY_ERROR_CLONE(" + name + ")") != std::string::npos);
  }
}
