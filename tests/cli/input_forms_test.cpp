// How the `mgnify` binary reads what people type: empty filter values are
// refused, the spellings one command accepts are accepted by all, and walks
// ask for the largest page each service serves.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "mgnify/v2.hpp"
#include "mock/mock_server.hpp"
#include "support/all_services.hpp"

using nlohmann::json;

namespace {

mgnify::mock::MockServer& input_forms_mock() {
  static mgnify::mock::MockServer& server = mgnify::test::start_all_services();
  return server;
}

mgnify::test::cli::Run run_input_form(const std::vector<std::string>& args) {
  std::vector<std::string> full = {"--rate-limit", "0", "--retries", "1"};
  full.insert(full.end(), args.begin(), args.end());
  const std::vector<std::string> env = {"MGNIFY_PROTEINS_URL=" + input_forms_mock().proteins_url(),
                                        "MGNIFY_API_V1_URL=" + input_forms_mock().v1_url(),
                                        "MGNIFY_API_V2_URL=" + input_forms_mock().v2_url()};
  auto run = mgnify::test::cli::run_piped(MGNIFY_CLI_PATH, full, env);
  REQUIRE_FALSE(run.timed_out);
  return run;
}

/// The request targets under `path_prefix` the mock saw since the last clear.
std::vector<std::string> targets_under(const std::string& path_prefix) {
  std::vector<std::string> out;
  for (const auto& r : input_forms_mock().requests()) {
    if (r.target.find(path_prefix) != std::string::npos) out.push_back(r.target);
  }
  return out;
}

/// A run that succeeded quietly and printed exactly `expected_out`.
void check_prints(const mgnify::test::cli::Run& run, const std::string& expected_out) {
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  CHECK(run.out == expected_out);
}

std::string command_line(const std::vector<std::string>& args) {
  std::string line = "mgnify";
  for (const auto& a : args) line += " " + a;
  return line;
}

/// The mock's first v2 study, as the SDK reads it.
mgnify::v2::Study first_v2_study() {
  mgnify::ClientOptions options;
  options.base_url = input_forms_mock().v2_url();
  options.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  const mgnify::v2::V2Client client(options);
  mgnify::ListOptions first;
  first.max_items = 1;
  const auto studies = client.studies({}, first).collect();
  REQUIRE(studies.size() == 1);
  return studies.front();
}

}  // namespace

TEST_CASE("an empty filter value is a usage error naming the option", "[cli][input]") {
  input_forms_mock().clear_requests();
  const std::vector<std::vector<std::string>> cases = {
      {"v2", "studies", "list", "--search", ""},
      {"v2", "studies", "list", "--lineage", ""},
      {"v2", "studies", "list", "--pipeline", ""},
      {"v2", "samples", "list", "--search", ""},
      {"v2", "samples", "list", "--lineage", ""},
      {"v2", "runs", "list", "--experiment-type", ""},
      {"v2", "biomes", "list", "--lineage", ""},
      {"v2", "publications", "list", "--title", ""},
      {"v2", "genomes", "list", "--search", ""},
      {"v2", "genomes", "list", "--catalogue", ""},
      {"v2", "genomes", "get", "MGYG000000001", "--catalogue", ""},
      {"v1", "studies", "list", "--search", ""},
      {"v1", "studies", "list", "--ordering", ""},
      {"v1", "studies", "related", "MGYS00000001", "samples", "--search", ""},
      {"protein", "search", "--pfam", ""},
      {"protein", "search", "--lineage", ""},
      {"protein", "fasta", "--pfam", ""},
      {"downloads", "MGYS00000001", "--pipeline", ""},
      {"downloads", "MGYS00000001", "-p", ""},
      {"downloads", "MGYS00000001", "--manifest", ""},
      {"download", "--manifest", ""},
      {"download", "MGYA00000002", "--dir", ""},
  };
  for (const auto& args : cases) {
    std::string option;
    for (const auto& a : args) {
      if (a.rfind("-", 0) == 0) option = a == "-p" ? "--pipeline" : a;
    }
    INFO(args.front() << " " << args[1] << " " << option);
    const auto run = run_input_form(args);
    CHECK(run.code == 2);
    CHECK(run.err == "mgnify: " + option + " must not be empty\n");
    CHECK(run.out.empty());
  }
  CHECK(input_forms_mock().requests().empty());
}

TEST_CASE("v2 studies list takes --pipeline in the forms downloads takes", "[cli][input]") {
  const auto reference = run_input_form(
      {"v2", "studies", "list", "--pipeline", "V5", "--format", "ndjson", "--max", "30"});
  REQUIRE(reference.code == 0);
  REQUIRE_FALSE(mgnify::test::cli::ndjson_lines(reference.out).empty());
  for (const std::string form : {"5.0", "5", "v5", "V5.0"}) {
    INFO(form);
    input_forms_mock().clear_requests();
    const auto run = run_input_form(
        {"v2", "studies", "list", "--pipeline", form, "--format", "ndjson", "--max", "30"});
    check_prints(run, reference.out);
    const auto sent = targets_under("/studies/");
    REQUIRE_FALSE(sent.empty());
    CHECK(sent.front().find("has_analyses_from_pipeline=V5") != std::string::npos);
  }
  for (const std::string form : {"4.1", "v6.1", "6"}) {
    INFO(form);
    CHECK(run_input_form({"v2", "studies", "list", "--pipeline", form, "--max", "1"}).code == 0);
  }
  const auto bad = run_input_form({"v2", "studies", "list", "--pipeline", "7.2"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("7.2") != std::string::npos);
}

TEST_CASE("v2 runs list takes --experiment-type in any case, as code or as printed",
          "[cli][input]") {
  const auto by_code = run_input_form(
      {"v2", "runs", "list", "--experiment-type", "METAG", "--format", "ndjson", "--max", "20"});
  REQUIRE(by_code.code == 0);
  const auto expected = mgnify::test::cli::ndjson_lines(by_code.out);
  REQUIRE_FALSE(expected.empty());
  for (const auto& run : expected) CHECK(run.at("experiment_type") == "Metagenomic");
  for (const std::string form : {"metagenomic", "Metagenomic", "METAGENOMIC", "metag"}) {
    INFO(form);
    const auto run = run_input_form(
        {"v2", "runs", "list", "--experiment-type", form, "--format", "ndjson", "--max", "20"});
    check_prints(run, by_code.out);
  }
  const auto bad = run_input_form({"v2", "runs", "list", "--experiment-type", "metagenome"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("metagenome") != std::string::npos);
}

TEST_CASE("short and lower-case MGnify accessions are accepted by every command taking one",
          "[cli][input]") {
  struct Case {
    std::vector<std::string> typed;
    std::vector<std::string> canonical;
  };
  const std::vector<Case> cases = {
      {{"v2", "studies", "get", "MGYS1"}, {"v2", "studies", "get", "MGYS00000001"}},
      {{"v2", "studies", "get", " mgys1 "}, {"v2", "studies", "get", "MGYS00000001"}},
      {{"v2", "studies", "related", "mgys1", "analyses", "--max", "3"},
       {"v2", "studies", "related", "MGYS00000001", "analyses", "--max", "3"}},
      {{"v2", "genomes", "get", "mgyg1"}, {"v2", "genomes", "get", "MGYG000000001"}},
      {{"v1", "studies", "get", "MGYS1"}, {"v1", "studies", "get", "MGYS00000001"}},
      {{"v1", "studies", "related", "mgys2", "samples", "--max", "3"},
       {"v1", "studies", "related", "MGYS00000002", "samples", "--max", "3"}},
      {{"downloads", "mgys1", "--study-summaries", "--format", "tsv"},
       {"downloads", "MGYS00000001", "--study-summaries", "--format", "tsv"}},
      {{"downloads", "MGYS1", "--api", "v1", "--study-summaries", "--format", "tsv"},
       {"downloads", "MGYS00000001", "--api", "v1", "--study-summaries", "--format", "tsv"}},
      {{"protein", "get", "mgyp261684433"}, {"protein", "get", "MGYP000261684433"}},
  };
  for (const auto& c : cases) {
    INFO(command_line(c.typed));
    const auto expected = run_input_form(c.canonical);
    REQUIRE(expected.code == 0);
    REQUIRE_FALSE(expected.out.empty());
    const auto run = run_input_form(c.typed);
    check_prints(run, expected.out);
  }
  // A prefix with too many digits is still refused before any request.
  input_forms_mock().clear_requests();
  const auto too_long = run_input_form({"v2", "studies", "get", "MGYS123456789"});
  CHECK(too_long.code == 2);
  CHECK(targets_under("/studies/").empty());
}

TEST_CASE("downloads on v2 resolves an ENA study or project accession to its MGYS study",
          "[cli][input]") {
  const auto study = first_v2_study();
  REQUIRE(study.ena_accessions.size() >= 2);

  for (const bool summaries : {true, false}) {
    std::vector<std::string> tail = {"--format", "tsv"};
    if (summaries) tail.push_back("--study-summaries");
    std::vector<std::string> by_mgys = {"downloads", study.accession};
    by_mgys.insert(by_mgys.end(), tail.begin(), tail.end());
    const auto expected = run_input_form(by_mgys);
    REQUIRE(expected.code == 0);
    REQUIRE(std::count(expected.out.begin(), expected.out.end(), '\n') > 1);
    for (const auto& ena : study.ena_accessions) {
      std::string lower = ena;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      for (const std::string& form : {ena, lower}) {
        INFO(form << (summaries ? " --study-summaries" : ""));
        std::vector<std::string> by_ena = {"downloads", form};
        by_ena.insert(by_ena.end(), tail.begin(), tail.end());
        const auto run = run_input_form(by_ena);
        check_prints(run, expected.out);
      }
    }
  }
  const auto unknown = run_input_form({"downloads", "ERP999999"});
  CHECK(unknown.code == 3);
  CHECK(unknown.err.find("ERP999999") != std::string::npos);
}

TEST_CASE("walks ask for the largest page each service serves unless --page-size says otherwise",
          "[cli][input]") {
  struct Case {
    std::vector<std::string> args;
    std::string path;
    std::string page_size;
  };
  const std::vector<Case> cases = {
      {{"v1", "studies", "list", "--max", "3"}, "/studies", "page_size=250"},
      {{"v1", "studies", "list", "--max", "3", "--page-size", "7"}, "/studies", "page_size=7"},
      {{"v1", "studies", "related", "MGYS00000001", "samples", "--max", "3"},
       "/samples",
       "page_size=250"},
      {{"downloads", "MGYS00000001", "--api", "v1", "--max", "1"}, "/analyses", "page_size=250"},
      {{"v2", "studies", "list", "--max", "3"}, "/studies", "page_size=100"},
      {{"v2", "studies", "list", "--max", "3", "--page-size", "9"}, "/studies", "page_size=9"},
  };
  for (const auto& c : cases) {
    INFO(command_line(c.args));
    input_forms_mock().clear_requests();
    const auto run = run_input_form(c.args);
    CHECK(run.code == 0);
    const auto sent = targets_under(c.path);
    REQUIRE_FALSE(sent.empty());
    CHECK(sent.front().find(c.page_size) != std::string::npos);
  }
}

TEST_CASE("v2 studies get and related take the study's ENA study or project accession",
          "[cli][input]") {
  const auto study = first_v2_study();
  REQUIRE(study.ena_accessions.size() >= 2);

  const std::vector<std::vector<std::string>> commands = {
      {"v2", "studies", "get", "ID", "--format", "json"},
      {"v2", "studies", "related", "ID", "analyses", "--format", "tsv"},
      {"v2", "studies", "related", "ID", "samples", "--max", "3", "--format", "tsv"},
      {"v2", "studies", "related", "ID", "publications", "--format", "ndjson"}};
  for (const auto& command : commands) {
    auto by_mgys = command;
    std::replace(by_mgys.begin(), by_mgys.end(), std::string("ID"), study.accession);
    const auto expected = run_input_form(by_mgys);
    INFO(command_line(by_mgys));
    REQUIRE(expected.code == 0);
    REQUIRE_FALSE(expected.out.empty());
    // The ENA spellings, one of them in lower case as people paste it.
    std::vector<std::string> forms = study.ena_accessions;
    std::string lower = forms.front();
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    forms.push_back(lower);
    for (const auto& ena : forms) {
      auto by_ena = command;
      std::replace(by_ena.begin(), by_ena.end(), std::string("ID"), ena);
      INFO(command_line(by_ena));
      check_prints(run_input_form(by_ena), expected.out);
    }
  }
  const auto unknown = run_input_form({"v2", "studies", "get", "PRJEB99999999"});
  CHECK(unknown.code == 3);
  CHECK(unknown.out.empty());
  CHECK(unknown.err.find("PRJEB99999999") != std::string::npos);
}
