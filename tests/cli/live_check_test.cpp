// The maintainers' live check (tools/live_check), run as a child process
// against the mock: a clean tour, each kind of finding, and unreachable services.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "mgnify/v2.hpp"
#include "mock/mock_server.hpp"
#include "support/all_services.hpp"

#ifdef MGNIFY_LIVE_CHECK_PATH

namespace {

mgnify::mock::MockServer& live_check_mock() {
  static mgnify::mock::MockServer& server = mgnify::test::start_all_services();
  return server;
}

/// The tool with each service's base URL under its own origin.
mgnify::test::cli::Run live_check_at(const std::vector<std::string>& args,
                                     const std::string& proteins_origin,
                                     const std::string& v1_origin, const std::string& v2_origin) {
  auto run = mgnify::test::cli::run_piped(
      MGNIFY_LIVE_CHECK_PATH, args,
      {"MGNIFY_PROTEINS_URL=" + proteins_origin + mgnify::mock::kProteinsPrefix,
       "MGNIFY_API_V1_URL=" + v1_origin + mgnify::mock::kV1Prefix,
       "MGNIFY_API_V2_URL=" + v2_origin + mgnify::mock::kV2Prefix});
  REQUIRE_FALSE(run.timed_out);
  return run;
}

mgnify::test::cli::Run live_check(const std::vector<std::string>& args, const std::string& origin) {
  return live_check_at(args, origin, origin, origin);
}

/// The job id the tour asks the status of, which no service issued.
const char* const kTourUnknownJob = "00000000-0000-0000-0000-000000000000";

/// The mock's first page of v2 studies, for a test to alter.
nlohmann::json v2_studies_page() {
  mgnify::ClientOptions options;
  options.base_url = live_check_mock().v2_url();
  options.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  const mgnify::v2::V2Client client(options);
  const auto response =
      client.session().get(live_check_mock().v2_url() + "/studies/?page=1&page_size=5");
  return nlohmann::json::parse(response.body);
}

}  // namespace

TEST_CASE("live check: a tour of the mock finds nothing and exits 0", "[cli][live_check]") {
  const auto run = live_check({"--rate", "1000"}, live_check_mock().origin());
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(run.out.find("ok       v2 genomes detail") != std::string::npos);
  CHECK(run.out.find("ok       v1 studies detail") != std::string::npos);
  CHECK(run.out.find("ok       proteins protein") != std::string::npos);
  // One call for each family of the smaller endpoints, text bodies and genome search.
  for (const char* line :
       {"ok       v1 biomes/top10\n", "ok       v1 studies/recent\n",
        "ok       v1 publication europe_pmc_annotations\n", "ok       v1 pipelines as CSV\n",
        "ok       v1 pipeline-tools list\n", "ok       v1 pipeline-tools detail\n",
        "ok       v1 genomeset list\n", "ok       v1 genomeset detail\n", "ok       v1 cogs list\n",
        "ok       v1 kegg-classes list\n", "ok       v1 analysis contigs\n",
        "ok       v1 contig FASTA\n", "ok       v2 openapi.json\n",
        "ok       v2 genome search status of an unknown job (404 expected)\n"}) {
    CHECK(run.out.find(line) != std::string::npos);
  }
  CHECK(run.out.find("FINDING") == std::string::npos);
  CHECK(run.out.find("\n0 finding(s)\n") != std::string::npos);
}

TEST_CASE(
    "live check: a status for a job that does not exist, or a text body of the wrong "
    "form, is a finding",
    "[cli][live_check]") {
  auto& mock = live_check_mock();
  mock.clear_faults();
  const std::string status = R"({"data": {"group_id": "x", "status": "QUEUED", "signatures": []}})";
  mock.push_fault(
      std::string(mgnify::mock::kV2Prefix) + "/genomes-search/status/" + kTourUnknownJob + "/",
      mgnify::mock::Fault::status_only(200, status));
  mock.push_fault(std::string(mgnify::mock::kV2Prefix) + "/openapi.json",
                  mgnify::mock::Fault::status_only(200, R"({"openapi": "3.1.0"})"));
  const auto run = live_check({"--rate", "1000", "--service", "v2"}, mock.origin());
  mock.clear_faults();
  INFO(run.out << run.err);
  CHECK(run.code == 1);
  CHECK(run.out.find("FINDING  v2 genome search status of an unknown job (404 expected): "
                     "failure: a job that does not exist has a status instead of a 404") !=
        std::string::npos);
  CHECK(run.out.find("FINDING  v2 openapi.json: failure: openapi.json is not an OpenAPI "
                     "document with paths") != std::string::npos);
  CHECK(run.out.find("\n2 finding(s)\n") != std::string::npos);
}

TEST_CASE("live check: findings outrank an unreachable service in the exit status",
          "[cli][live_check]") {
  auto& mock = live_check_mock();
  mock.clear_faults();
  mock.push_faults(std::string(mgnify::mock::kV2Prefix) + "/biomes/",
                   mgnify::mock::Fault::status_only(500), 2);
  // Port 1 needs root to listen on, so nothing answers there.
  const auto run = live_check_at({"--rate", "1000", "--service", "proteins", "--service", "v2"},
                                 "http://127.0.0.1:1", mock.origin(), mock.origin());
  mock.clear_faults();
  INFO(run.out << run.err);
  CHECK(run.code == 1);
  CHECK(run.out.find("UNREACHABLE proteins") != std::string::npos);
  CHECK(run.out.find("FINDING  v2 biomes list: unexpected HTTP status 500") != std::string::npos);
  CHECK(run.out.find("\n1 finding(s); unreachable: proteins\n") != std::string::npos);
}

TEST_CASE("live check: an unknown member, a decode failure and a 500 are each a finding",
          "[cli][live_check]") {
  auto& mock = live_check_mock();
  mock.clear_faults();
  auto page = v2_studies_page();
  REQUIRE(page["items"].size() > 0);
  page["items"][0]["carbon_footprint"] = 12;
  auto added_member = mgnify::mock::Fault::status_only(200, page.dump());
  mock.push_fault(std::string(mgnify::mock::kV2Prefix) + "/studies/", added_member);
  mock.push_fault(
      std::string(mgnify::mock::kV2Prefix) + "/genomes/",
      mgnify::mock::Fault::status_only(200, R"({"count": 1, "items": [{"accession": 5}]})"));
  mock.push_faults(std::string(mgnify::mock::kV1Prefix) + "/runs",
                   mgnify::mock::Fault::status_only(500), 2);

  const auto run = live_check({"--rate", "1000"}, mock.origin());
  mock.clear_faults();
  INFO(run.out << run.err);
  CHECK(run.code == 1);
  CHECK(run.out.find("FINDING  v2 studies list: member the SDK does not know: /carbon_footprint") !=
        std::string::npos);
  CHECK(run.out.find("FINDING  v2 genomes list: decode failure at '/items/0/accession'") !=
        std::string::npos);
  CHECK(run.out.find("FINDING  v1 runs list: unexpected HTTP status 500") != std::string::npos);
  CHECK(run.out.find("\n3 finding(s)\n") != std::string::npos);
}

TEST_CASE("live check: server text reaches the terminal with its controls made visible",
          "[cli][live_check]") {
  auto& mock = live_check_mock();
  mock.clear_faults();
  auto page = v2_studies_page();
  REQUIRE(page["items"].size() > 0);
  // A member name that clears the screen, one that writes the clipboard (OSC 52) and one that
  // starts a C1 control sequence (U+009B, CSI).
  page["items"][0]["\x1b[2Jcleared"] = 1;
  const std::string clipboard_write = std::string("\x1b]52;c;c2VjcmV0\x07") + "clip";
  const std::string c1_csi = std::string("\xc2\x9b") + "31mred";
  page["items"][0][clipboard_write] = 2;
  page["items"][0][c1_csi] = 3;
  mock.push_fault(std::string(mgnify::mock::kV2Prefix) + "/studies/",
                  mgnify::mock::Fault::status_only(200, page.dump()));
  mock.push_fault(std::string(mgnify::mock::kV2Prefix) + "/genomes/",
                  mgnify::mock::Fault::status_only(
                      400, R"({"detail": "\u001b]0;title\u0007 bad \u001b[1;1H query"})"));
  const auto run = live_check({"--rate", "1000", "--service", "v2"}, mock.origin());
  mock.clear_faults();
  INFO(run.out << run.err);
  CHECK(run.code == 1);
  CHECK(run.out.find('\x1b') == std::string::npos);
  CHECK(run.out.find('\x07') == std::string::npos);
  CHECK(run.out.find("\xc2\x9b") == std::string::npos);
  CHECK(run.out.find("member the SDK does not know: /\\x1b[2Jcleared") != std::string::npos);
  CHECK(run.out.find("member the SDK does not know: /\\x1b]52;c;c2VjcmV0\\x07clip") !=
        std::string::npos);
  CHECK(run.out.find("member the SDK does not know: /\\u009b31mred") != std::string::npos);
  CHECK(run.out.find("FINDING  v2 genomes list: unexpected HTTP status 400") != std::string::npos);
}

TEST_CASE("live check: unreachable services exit 3, distinct from findings", "[cli][live_check]") {
  // Port 1 needs root to listen on, so nothing answers there.
  const auto run = live_check({"--service", "v2", "--service", "v1"}, "http://127.0.0.1:1");
  INFO(run.out << run.err);
  CHECK(run.code == 3);
  CHECK(run.out.find("UNREACHABLE v1") != std::string::npos);
  CHECK(run.out.find("UNREACHABLE v2") != std::string::npos);
  CHECK(run.out.find("proteins") == std::string::npos);
}

TEST_CASE("live check: bad usage exits 2 with one reason", "[cli][live_check]") {
  const auto run = live_check({"--budget", "-4"}, "http://127.0.0.1:1");
  CHECK(run.code == 2);
  CHECK(run.err.rfind("mgnify-live-check: --budget needs a positive number, got '-4'\n", 0) == 0);
}

#else
#include "skip.hpp"
TEST_CASE("live check tests", "[cli][live_check]") {
  MGNIFY_SKIP_TEST("built without the live check tool");
}
#endif
