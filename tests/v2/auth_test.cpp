#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "downloads/download_support.hpp"
#include "support/v2_rig.hpp"

using namespace mgnify::v2;
namespace data = mgnify::mock::v2data;

namespace {
std::string authorization_of_last(const mgnify::test::V2Rig& rig) {
  const auto requests = rig.server.requests();
  if (requests.empty()) return {};
  auto it = requests.back().headers.find("authorization");
  return it == requests.back().headers.end() ? std::string() : it->second;
}
}  // namespace

TEST_CASE("login stores the token and sends it as a Bearer header", "[v2][integration][auth]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto token = client.login(data::kUser, data::kPassword);
  CHECK(token.token_type == "sliding");
  CHECK_FALSE(token.token.empty());
  CHECK(client.logged_in());
  CHECK(client.verify());
  client.study("MGYS00000001");
  CHECK(authorization_of_last(rig) == "Bearer " + token.token);

  const auto renewed = client.refresh();
  CHECK(renewed.token != token.token);
  CHECK(client.session().token() == renewed.token);
}

TEST_CASE("bad credentials are an AuthError with the service's text", "[v2][integration][auth]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  try {
    client.login(data::kUser, "wrong");
    FAIL("expected AuthError");
  } catch (const mgnify::AuthError& e) {
    CHECK(e.status() == 401);
    CHECK(e.message() == "Invalid credentials");
    CHECK(e.body() == R"({"detail": "Invalid credentials"})");
  }
  CHECK_FALSE(client.logged_in());
}

TEST_CASE("private studies are visible with the owner's token only", "[v2][integration][auth]") {
  mgnify::test::V2Rig rig;
  auto anonymous = rig.client();
  const auto& priv = data::kPrivateStudies.front();

  try {
    anonymous.study(priv);
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.message() == "Not found.");
  }
  for (const auto& s : anonymous.studies().collect()) {
    CHECK(std::find(data::kPrivateStudies.begin(), data::kPrivateStudies.end(), s.accession) ==
          data::kPrivateStudies.end());
  }

  auto owner = rig.client();
  owner.set_token(std::string(data::kValidToken));
  CHECK(owner.study(priv).title.rfind("Private ", 0) == 0);
  const auto analyses = owner.study_analyses(priv).collect();
  REQUIRE(analyses.size() == static_cast<std::size_t>(data::kAnalysesPerPrivateStudy));
  const auto detail = owner.analysis(analyses.front().accession);
  REQUIRE_FALSE(detail.downloads.empty());
  CHECK(detail.downloads.front().url->find("/private-data/") != std::string::npos);
  // Top-level lists never show private objects, even to their owner.
  CHECK(owner.studies().total() == 120);

  std::set<std::string> mine;
  for (const auto& s : owner.my_studies(mgnify::ListOptions{2, 1, std::nullopt}))
    mine.insert(s.accession);
  std::set<std::string> expected(data::kPrivateStudies.begin(), data::kPrivateStudies.end());
  expected.insert(data::kUserPublicStudies.begin(), data::kUserPublicStudies.end());
  CHECK(mine == expected);

  // Another user's token: the real service answers 404, and the error says why that may be.
  try {
    owner.study(data::kOtherPrivateStudy);
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.message() == "Not found.");
    CHECK(e.hint() == kPrivateNotFoundHint);
    CHECK(std::string(e.what()).find("private objects") != std::string::npos);
  }
}

TEST_CASE("my-data/studies without a token is 401 Unauthorized", "[v2][integration][auth]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  try {
    client.session().get(rig.server.v2_url() + "/my-data/studies/");
    FAIL("expected AuthError");
  } catch (const mgnify::AuthError& e) {
    CHECK(e.message() == "Unauthorized");
  }
}

TEST_CASE("an expired token is refreshed once and the call repeated", "[v2][integration][auth]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  client.set_token(std::string(data::kExpiredToken));
  CHECK_FALSE(client.verify());
  const auto study = client.study("MGYS00000001");  // 401 -> refresh -> retry
  CHECK(study.accession == "MGYS00000001");
  REQUIRE(client.session().token());
  CHECK(*client.session().token() != data::kExpiredToken);
  CHECK(rig.hits("auth/sliding/refresh") == 1);
  CHECK(rig.hits("studies/MGYS00000001") == 2);
  CHECK(client.verify());
}

TEST_CASE("the refresh of a rejected token is part of the call: its deadline and cancel stop it",
          "[v2][integration][auth][cancel]") {
  using namespace std::chrono_literals;
  using Clock = std::chrono::steady_clock;
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  client.set_token(std::string(data::kExpiredToken));

  // The refresh hangs far past the call's budget.
  rig.server.push_fault(rig.path("auth/sliding/refresh"), mgnify::mock::Fault::slow(3s));
  auto start = Clock::now();
  try {
    client.study("MGYS00000001", mgnify::CallOptions().timeout(300ms));
    FAIL("expected a timeout");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == mgnify::TransportError::Kind::timeout);
  }
  CHECK(Clock::now() - start < 2s);
  CHECK(rig.hits("auth/sliding/refresh") == 1);
  CHECK(client.session().token() == std::optional<std::string>(data::kExpiredToken));

  rig.server.push_fault(rig.path("auth/sliding/refresh"), mgnify::mock::Fault::slow(3s));
  const mgnify::CancelToken cancel;
  std::thread canceller([cancel] {
    std::this_thread::sleep_for(300ms);
    cancel.cancel();
  });
  start = Clock::now();
  CHECK_THROWS_AS(client.study("MGYS00000001", cancel), mgnify::CancelledError);
  canceller.join();
  CHECK(Clock::now() - start < 2s);
  CHECK(rig.hits("auth/sliding/refresh") == 2);
}

TEST_CASE("an invalid token gets 401 even on public data; a failed refresh is an AuthError",
          "[v2][integration][auth]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  client.set_token(std::string(data::kDeadToken));
  try {
    client.study("MGYS00000001");
    FAIL("expected AuthError");
  } catch (const mgnify::AuthError& e) {
    CHECK(e.status() == 401);
    CHECK(e.parsed().code == "token_not_valid");
    CHECK(e.hint().find("refreshing it failed") != std::string::npos);
  }
  CHECK(rig.hits("auth/sliding/refresh") == 1);
  CHECK(client.session().token() == std::string(data::kDeadToken));
}

TEST_CASE("with anonymous fallback a dead token is dropped and public data still loads",
          "[v2][integration][auth]") {
  mgnify::test::V2Rig rig;
  V2Options v2;
  v2.anonymous_fallback_on_auth_failure = true;
  auto client = rig.client(v2);
  client.set_token(std::string(data::kDeadToken));
  CHECK(client.study("MGYS00000001").accession == "MGYS00000001");
  CHECK_FALSE(client.logged_in());
  CHECK(authorization_of_last(rig).empty());
}

TEST_CASE("the refresh during a list walk keeps the walk going", "[v2][integration][auth]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  client.set_token(std::string(data::kExpiredToken));
  mgnify::ListOptions opts;
  opts.page_size = 100;
  CHECK(client.samples({}, opts).collect().size() ==
        2000);                                  // samples/ is public-only: token ignored
  auto runs = client.runs({}, opts).collect();  // runs/ checks the token: refreshed once
  CHECK(runs.size() == 2000);
  CHECK(rig.hits("auth/sliding/refresh") == 1);
}

TEST_CASE("a download with an expired token refreshes it in the session and completes",
          "[v2][integration][auth][downloads]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const std::string url = client.base_url() + "/studies/MGYS00000001";
  const std::string expected = client.session().get(url).body;  // anonymous: no token yet
  client.set_token(std::string(data::kExpiredToken));
  mgnify::test::dl::TempDir dir;
  const auto path = dir / "study.json";
  const auto result = client.download(url, path);  // 401 -> refresh -> the same request again
  CHECK(mgnify::test::dl::read_file(path) == expected);
  CHECK(result.bytes == expected.size());
  CHECK(rig.hits("auth/sliding/refresh") == 1);
  REQUIRE(client.session().token());
  CHECK(*client.session().token() != data::kExpiredToken);
  // Nothing of the 401's body reached the file, and no partial file is left.
  CHECK_FALSE(std::filesystem::exists(dir / "study.json.part"));
}

TEST_CASE("a download with a dead token fails with the refresh's reason and writes nothing",
          "[v2][integration][auth][downloads]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  client.set_token(std::string(data::kDeadToken));
  mgnify::test::dl::TempDir dir;
  const auto path = dir / "study.json";
  try {
    client.download(client.base_url() + "/studies/MGYS00000001", path);
    FAIL("expected AuthError");
  } catch (const mgnify::AuthError& e) {
    CHECK(e.status() == 401);
    CHECK(e.hint().find("refreshing it failed") != std::string::npos);
  }
  CHECK(rig.hits("auth/sliding/refresh") == 1);
  CHECK_FALSE(std::filesystem::exists(path));
}
