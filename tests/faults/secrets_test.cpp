// Credentials never leak: an authenticated session against the v1 and v2
// mocks, failures included, is recorded -- every log line, every exception
// text, every model's to_json -- and none of it may contain a password or a
// token.

#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "faults/fault_support.hpp"

using namespace mgnify::test::faults;
namespace v1d = mgnify::mock::v1data;
namespace v2d = mgnify::mock::v2data;

namespace {

struct Recorder {
  std::vector<std::string> texts;  // exception texts, bodies, to_json dumps
  std::set<std::string> secrets;

  /// Runs `call`; an mgnify::Error is recorded (what(), and the body it carries).
  void run(const std::function<void()>& call, bool must_fail = false) {
    try {
      call();
      if (must_fail) FAIL_CHECK("expected a failure");
    } catch (const mgnify::ApiError& e) {
      texts.push_back(e.what());
      texts.push_back(e.body());
      texts.push_back(e.hint());
    } catch (const mgnify::Error& e) {
      texts.push_back(e.what());
    }
  }
  template <class T>
  void model(const T& value) {
    texts.push_back(nlohmann::json(value).dump());
  }
  void check(const std::vector<std::string>& log_lines) const {
    REQUIRE_FALSE(secrets.empty());
    std::vector<std::string> all = texts;
    all.insert(all.end(), log_lines.begin(), log_lines.end());
    REQUIRE(all.size() > 10);
    for (const auto& secret : secrets) {
      REQUIRE(secret.size() >= 8);
      for (const auto& text : all) {
        INFO("secret '" << secret << "' in: " << text);
        CHECK(text.find(secret) == std::string::npos);
      }
    }
  }
};

}  // namespace

TEST_CASE("secrets: a v1 session leaks neither password nor token", "[security][secrets]") {
  auto h = make_harness(Service::v1, Tweaks{{}, false, {}});
  auto o = h->options();
  o.base_url = h->server->v1_url();
  mgnify::v1::LegacyClient client(o);
  Recorder rec;
  const std::string wrong = "wrong-password-0xC0FFEE";
  rec.secrets = {v1d::kTestPassword, v1d::kTestToken, wrong};

  rec.run([&] { client.login(v1d::kTestUser, wrong); }, true);
  client.login(v1d::kTestUser, v1d::kTestPassword);
  REQUIRE(client.logged_in());
  REQUIRE(client.session().token() == std::optional<std::string>(v1d::kTestToken));

  const std::string prefix = mgnify::mock::kV1Prefix;
  rec.run([&] { rec.model(client.study("MGYS00000001")); });
  rec.run([&] {
    for (const auto& s : client.my_studies()) rec.model(s);
  });
  rec.run([&] { client.study("MGYS09999999"); }, true);
  h->server->push_faults(prefix + "/studies/MGYS00000002", Fault::status_only(503), kBudget);
  rec.run([&] { client.study("MGYS00000002"); }, true);
  h->server->push_faults(prefix + "/studies/MGYS00000003", Fault::throttled("1"), kBudget);
  rec.run([&] { client.study("MGYS00000003"); }, true);
  h->server->push_fault(prefix + "/studies/MGYS00000004", Fault::status_only(200, "{not json"));
  rec.run([&] { client.study("MGYS00000004"); }, true);
  h->server->push_faults(prefix + "/studies/MGYS00000005", Fault::dropped(), kBudget);
  rec.run([&] { client.study("MGYS00000005"); }, true);
  h->server->push_fault(
      prefix + "/studies/MGYS00000006",
      Fault::redirect(302, "http://localhost:" + std::to_string(h->server->port()) + prefix +
                               "/studies/MGYS00000006"));
  rec.run([&] { rec.model(client.study("MGYS00000006")); });
  rec.run([&] { client.follow<mgnify::v1::Study>("https://evil.invalid/x"); }, true);
  for (const auto& r : client.get_studies({"MGYS00000007", "MGYS09999998"})) {
    if (r.ok()) {
      rec.model(r.value());
    } else {
      rec.texts.push_back(r.error().what());
    }
  }
  rec.check(h->log.lines());
  // The token did travel where it belongs.
  bool sent = false;
  for (const auto& r : h->server->requests()) {
    auto it = r.headers.find("authorization");
    sent =
        sent || (it != r.headers.end() && it->second == std::string("Bearer ") + v1d::kTestToken);
  }
  CHECK(sent);
}

TEST_CASE("secrets: a v2 session leaks neither password nor any token", "[security][secrets]") {
  auto h = make_harness(Service::v2, Tweaks{{}, false, {}});
  auto o = h->options();
  o.base_url = h->server->v2_url();
  mgnify::v2::V2Client client(o);
  Recorder rec;
  const std::string wrong = "wrong-password-0xBADC0DE";
  const std::string prefix = mgnify::mock::kV2Prefix;
  rec.secrets = {v2d::kPassword, v2d::kValidToken, v2d::kExpiredToken, v2d::kDeadToken, wrong};

  rec.run([&] { client.login(v2d::kUser, wrong); }, true);
  // Login answers that break off inside the token, or carry a raw line break in it.
  const std::string cut_token = "eyJ.cut-off-token-0xFEED";
  const std::string broken_token = "eyJ.broken-token-0xF00D";
  rec.secrets.insert(cut_token);
  rec.secrets.insert(broken_token);
  h->server->push_fault(prefix + "/auth/sliding",
                        Fault::status_only(200, "{\"token\": \"" + cut_token));
  rec.run([&] { client.login(v2d::kUser, v2d::kPassword); }, true);
  h->server->push_fault(prefix + "/auth/sliding",
                        Fault::status_only(200, "{\"token\": \"" + broken_token + "\n.tail\"}"));
  rec.run([&] { client.login(v2d::kUser, v2d::kPassword); }, true);
  const auto token = client.login(v2d::kUser, v2d::kPassword);
  rec.secrets.insert(token.token);
  rec.model(token);
  CHECK(nlohmann::json(token).at("token") == mgnify::kRedactedToken);

  rec.run([&] { rec.model(client.study(v2d::kPrivateStudies[0])); });
  rec.run([&] {
    for (const auto& s : client.my_studies()) rec.model(s);
  });
  rec.run([&] { client.study("MGYS09999999"); }, true);  // 404 with the private-object hint
  h->server->push_faults(prefix + "/studies/MGYS00000002", Fault::html(502), kBudget);
  rec.run([&] { client.study("MGYS00000002"); }, true);
  h->server->push_fault(prefix + "/studies/MGYS00000003", Fault::status_only(200, "[]"));
  rec.run([&] { client.study("MGYS00000003"); }, true);
  rec.run([&] { rec.secrets.insert(client.refresh().token); });
  rec.run([&] { CHECK(client.verify()); });
  // An expired token is refreshed behind the caller's back; a dead one fails with a hint.
  client.set_token(std::string(v2d::kExpiredToken));
  rec.run([&] { rec.model(client.study(v2d::kPrivateStudies[1])); });
  if (auto t = client.session().token()) rec.secrets.insert(*t);
  client.set_token(std::string(v2d::kDeadToken));
  rec.run([&] { client.study(v2d::kPrivateStudies[2]); }, true);
  for (const auto& r : client.get_studies({"MGYS00000001", "MGYS09999998"})) {
    if (r.ok()) {
      rec.model(r.value());
    } else {
      rec.texts.push_back(r.error().what());
    }
  }
  rec.check(h->log.lines());
}

TEST_CASE("secrets: ClientOptions::token is sent but never logged", "[security][secrets]") {
  auto h = make_harness(Service::proteins, Tweaks{{}, true, {}});
  const std::string acc = h->items[0];
  h->server->push_fault(h->item_path(0), Fault::status_only(503));
  CHECK(h->detail(0) == acc);
  REQUIRE_FALSE(h->log.lines().empty());
  for (const auto& line : h->log.lines()) CHECK(line.find(h->token) == std::string::npos);
  const auto requests = h->server->requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[1].headers.find("authorization")->second == "Bearer " + h->token);
}
