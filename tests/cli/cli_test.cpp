// End-to-end tests of the `mgnify` binary: each subcommand runs as a child
// process against the in-process mock, and its output is parsed and compared
// with what the SDK itself reads from the same mock.

#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "cli/usage_errors.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"
#include "mock/files/files.hpp"
#include "mock/mock_server.hpp"
#include "mock/v1/downloads.hpp"
#include "mock/v2/v2_mock.hpp"
#include "skip.hpp"
#include "support/all_services.hpp"

using nlohmann::json;

namespace {

mgnify::mock::MockServer& mock() {
  static mgnify::mock::MockServer& server =
      mgnify::test::start_all_services(mgnify::test::WithFiles::yes);
  return server;
}

std::vector<std::string> service_env() {
  return {"MGNIFY_PROTEINS_URL=" + mock().proteins_url(), "MGNIFY_API_V1_URL=" + mock().v1_url(),
          "MGNIFY_API_V2_URL=" + mock().v2_url()};
}

/// Runs `mgnify args...` against the mock with no rate limit and one attempt
/// per request unless the arguments say otherwise.
mgnify::test::cli::Run mgnify_run(std::vector<std::string> args,
                                  std::vector<std::string> env = {}) {
  std::vector<std::string> full = {"--rate-limit", "0"};
  full.insert(full.end(), args.begin(), args.end());
  auto e = service_env();
  e.insert(e.end(), env.begin(), env.end());
  auto run = mgnify::test::cli::run_piped(MGNIFY_CLI_PATH, full, e);
  REQUIRE_FALSE(run.timed_out);
  return run;
}

using mgnify::test::cli::sdk_options;

struct Tsv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::size_t column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
    FAIL("no column " << name);
    return 0;
  }
};

using mgnify::test::cli::split_tabs;

Tsv parse_tsv(const std::string& text) {
  Tsv t;
  std::istringstream in(text);
  std::string line;
  if (std::getline(in, line)) t.header = split_tabs(line);
  while (std::getline(in, line)) t.rows.push_back(split_tabs(line));
  for (const auto& row : t.rows) REQUIRE(row.size() == t.header.size());
  return t;
}

using mgnify::test::cli::TempDir;

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

// ---------------------------------------------------------------- usage ----

TEST_CASE("mgnify --help documents the exit codes and the environment variables", "[cli]") {
  const auto run = mgnify_run({"--help"});
  CHECK(run.code == 0);
  CHECK(run.out.find("Exit codes:") != std::string::npos);
  for (const char* line : {"0  success", "2  bad usage", "3  not found", "4  authentication",
                           "5  throttled or unavailable", "1  any other failure"}) {
    CHECK(run.out.find(line) != std::string::npos);
  }
  CHECK(run.out.find("MGNIFY_API_V2_URL") != std::string::npos);
  for (const char* cmd : {"protein", "v1", "v2", "downloads", "download"}) {
    CHECK(run.out.find(std::string("  ") + cmd + " ") != std::string::npos);
  }
}

TEST_CASE("bad usage exits with 2 before any request", "[cli]") {
  mock().clear_requests();
  CHECK(mgnify_run({"v2", "studies", "list", "--no-such-option"}).code == 2);
  CHECK(mgnify_run({"v2"}).code == 2);
  CHECK(mgnify_run({"--format", "xml", "v2", "studies", "list"}).code == 2);
  // Values the SDK refuses before sending anything.
  const auto page = mgnify_run({"v2", "studies", "list", "--page-size", "500"});
  CHECK(page.code == 2);
  CHECK(page.err.find("page_size") != std::string::npos);
  CHECK(mgnify_run({"v1", "studies", "list", "--page-size", "251"}).code == 2);
  CHECK(mgnify_run({"protein", "get", "not-an-accession"}).code == 2);
  CHECK(mgnify_run({"protein", "search"}).code == 2);
  CHECK(mgnify_run({"v2", "studies", "get", "MGYA00000001"}).code == 2);
  CHECK(mgnify_run({"downloads", "XYZ123"}).code == 2);
  CHECK(mgnify_run({"download"}).code == 2);
  const auto token =
      mgnify_run({"--token-env", "MGNIFY_CLI_TEST_UNSET_TOKEN", "v2", "studies", "list"});
  CHECK(token.code == 2);
  CHECK(token.err.find("MGNIFY_CLI_TEST_UNSET_TOKEN") != std::string::npos);
  CHECK(mock().requests().empty());
}

TEST_CASE("a token given to --token-env instead of a variable name is never echoed", "[cli]") {
  mock().clear_requests();
  // What `--token-env "$TOKEN"` passes: a JWT, which no environment variable is named like.
  const std::string pasted_token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl";
  for (const std::string& value : {pasted_token, std::string("abc def"),
                                   std::string("1LEADING_DIGIT"), std::string("tok\x1b[2Jen")}) {
    const auto run = mgnify_run({"--token-env", value, "v2", "studies", "list"});
    INFO(run.err);
    CHECK(run.code == 2);
    CHECK(run.err.find(value) == std::string::npos);
    CHECK(run.err.find("looks like a value") != std::string::npos);
    CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  }
  CHECK(mock().requests().empty());
}

TEST_CASE("a numeric option outside its range is a one-line usage error naming it and its range",
          "[cli]") {
  mock().clear_requests();
  mgnify::test::cli::check_usage_errors(
      {
          {{"v1", "studies", "list", "--max", "-3", "--format", "ndjson"},
           "mgnify: --max must be an integer of at least 0, got '-3'\n"},
          {{"--max", "abc", "v2", "studies", "list"},
           "mgnify: --max must be an integer of at least 0, got 'abc'\n"},
          {{"--max", "", "v2", "studies", "list"},
           "mgnify: --max must be an integer of at least 0, got ''\n"},
          {{"protein", "search", "--pfam", "PF00005", "--max", "-1"},
           "mgnify: --max must be an integer of at least 0, got '-1'\n"},
          {{"protein", "search", "--pfam", "PF00005", "--max", "0"},
           "mgnify: --max for a protein search must be an integer from 1 to 1000, got 0\n"},
          {{"v2", "studies", "list", "--page-size", "-5"},
           "mgnify: --page-size must be an integer of at least 1, got '-5'\n"},
          {{"protein", "fasta", "MGYP000261684433", "--width", "-1"},
           "mgnify: --width must be an integer from 0 to 100000, got '-1'\n"},
          {{"protein", "search", "--biome-id", "-2"},
           "mgnify: --biome-id must be an integer of at least 1, got '-2'\n"},
          {{"download", "MGYA00000002", "--concurrency", "-1"},
           "mgnify: --concurrency must be an integer from 1 to 64, got '-1'\n"},
          {{"downloads", "MGYA00000002", "--concurrency", "0"},
           "mgnify: --concurrency must be an integer from 1 to 64, got '0'\n"},
          {{"v2", "publications", "list", "--published-after", "-1"},
           "mgnify: --published-after must be an integer from 0 to 9999, got '-1'\n"},
          {{"v2", "publications", "list", "--published-before", "10000"},
           "mgnify: --published-before must be an integer from 0 to 9999, got '10000'\n"},
          {{"v2", "biomes", "list", "--max-depth", "-1"},
           "mgnify: --max-depth must be an integer from 1 to 100, got '-1'\n"},
          // The root is depth 1: depth 0 would be an empty tree, not the whole one.
          {{"v2", "biomes", "list", "--max-depth", "0"},
           "mgnify: --max-depth must be an integer from 1 to 100, got '0'\n"},
          // --retries counts attempts, so 0 would mean no request at all.
          {{"--retries", "0", "v2", "studies", "list", "--max", "1"},
           "mgnify: --retries must be an integer from 1 to 100, got '0'\n"},
          {{"--retries", "-1", "v2", "studies", "list", "--max", "1"},
           "mgnify: --retries must be an integer from 1 to 100, got '-1'\n"},
          {{"--timeout", "0", "v2", "studies", "list", "--max", "1"},
           "mgnify: --timeout must be a number from 0.001 to 86400, got '0'\n"},
          {{"--timeout", "-1", "v2", "studies", "list", "--max", "1"},
           "mgnify: --timeout must be a number from 0.001 to 86400, got '-1'\n"},
          {{"--timeout", "nan", "v2", "studies", "list", "--max", "1"},
           "mgnify: --timeout must be a number from 0.001 to 86400, got 'nan'\n"},
      },
      [](const std::vector<std::string>& args) { return mgnify_run(args); });
  // mgnify_run passes its own --rate-limit, so this one runs the binary directly.
  const auto rate = mgnify::test::cli::run_piped(
      MGNIFY_CLI_PATH, {"--rate-limit", "-1", "v2", "studies", "list"}, service_env());
  CHECK(rate.code == 2);
  CHECK(rate.err == "mgnify: --rate-limit must be a number from 0 to 10000, got '-1'\n");
  CHECK(mock().requests().empty());
}

TEST_CASE("empty or inapplicable option values are refused, not silently ignored", "[cli]") {
  mock().clear_requests();
  mgnify::test::cli::check_usage_errors(
      {
          {{"--base-url", "", "v2", "studies", "list"}, "mgnify: --base-url must not be empty\n"},
          {{"--token-env", "", "v2", "studies", "list"}, "mgnify: --token-env must not be empty\n"},
          {{"--columns", "accession", "v2", "studies", "list"},
           "mgnify: --columns applies to --format tsv only\n"},
          {{"--format", "ndjson", "--columns", "accession", "v2", "studies", "list"},
           "mgnify: --columns applies to --format tsv only\n"},
          {{"--format", "json", "protein", "fasta", "MGYP000261684433"},
           "mgnify: --format does not apply to 'protein fasta', which always writes FASTA\n"},
      },
      [](const std::vector<std::string>& args) { return mgnify_run(args); });
  CHECK(mock().requests().empty());
}

TEST_CASE("an option a command does not take is refused by its own name, before any request",
          "[cli]") {
  TempDir dir;
  const std::string manifest = (dir.path() / "m.tsv").string();
  mock().clear_requests();
  mgnify::test::cli::check_usage_errors(
      {
          {{"samples-table", "MGYS00000002", "--format", "tsv", "--columns", "accession"},
           "mgnify: --columns does not apply to 'samples-table'\n"},
          {{"verify", "--manifest", manifest, "--max", "2"},
           "mgnify: --max does not apply to 'verify': it checks every row of the manifest\n"},
          {{"abundance-table", "MGYS00000002", "-p", "V6", "-g", "taxonomies.closed_reference.ssu",
            "--max", "2"},
           "mgnify: --max does not apply to 'abundance-table': the matrix has every analysis\n"},
      },
      [](const std::vector<std::string>& args) { return mgnify_run(args); });
  // -o is an output file or nothing; where a command writes none, nothing.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"abundance-table", "MGYS00000002", "-p", "V6", "-g",
                                 "taxonomies.closed_reference.ssu", "-o", "out.biom"},
        std::vector<std::string>{"download", "MGYA00000002", "-o", "out"},
        std::vector<std::string>{"verify", "--manifest", manifest, "-o", "out"}}) {
    INFO(args.front());
    const auto run = mgnify_run(args);
    CHECK(run.code == 2);
    CHECK_THAT(run.err, Catch::StartsWith("mgnify: unknown option '-o'"));
    CHECK(run.out.empty());
  }
  CHECK(mock().requests().empty());
  CHECK_FALSE(std::filesystem::exists("out"));
}

TEST_CASE("parser errors are one 'mgnify:' line, naming an unknown command with a suggestion",
          "[cli]") {
  mock().clear_requests();
  mgnify::test::cli::check_usage_errors(
      {
          {{"protein", "gett", "10"}, "mgnify: unknown command 'gett'; did you mean 'get'?\n"},
          {{"v2", "studies", "lisst"}, "mgnify: unknown command 'lisst'; did you mean 'list'?\n"},
          {{"protein", "xyz"},
           "mgnify: unknown command 'xyz'; expected one of: get, search, fasta, sequence-search\n"},
          {{"protein"}, "mgnify: 'protein' needs a command: get, search, fasta, sequence-search\n"},
          {{"--bogus"}, "mgnify: unknown option '--bogus'\n"},
          {{"v2", "studies", "list", "--maxx", "3"},
           "mgnify: unknown option '--maxx'; did you mean '--max'?\n"},
          {{"v2", "studies", "list", "--no-such-option"},
           "mgnify: unknown option '--no-such-option'\n"},
          {{"--format", "xml", "v2", "studies", "list"},
           "mgnify: --format: xml not in {json,ndjson,tsv}\n"},
      },
      [](const std::vector<std::string>& args) { return mgnify_run(args); });
  CHECK(mock().requests().empty());
}

// -------------------------------------------------------------- protein ----

TEST_CASE("protein get prints the record the SDK reads", "[cli][proteins]") {
  const mgnify::proteins::ProteinClient client(sdk_options(mock().proteins_url()));
  const json expected = client.protein("MGYP000261684433");

  const auto run = mgnify_run({"protein", "get", "261684433"});
  REQUIRE(run.code == 0);
  CHECK(json::parse(run.out) == expected);

  SECTION("several accessions give an array in order") {
    const auto many = mgnify_run({"protein", "get", "MGYP000000000013", "MGYP000000000010"});
    REQUIRE(many.code == 0);
    const json arr = json::parse(many.out);
    REQUIRE(arr.size() == 2);
    json first = client.protein("MGYP000000000013");
    first["query"] = "MGYP000000000013";
    json second = client.protein("MGYP000000000010");
    second["query"] = "MGYP000000000010";
    CHECK(arr[0] == first);
    CHECK(arr[1] == second);
  }
  SECTION("an unknown accession exits with 3, the known ones are still printed") {
    const auto missing = mgnify_run({"protein", "get", "MGYP000000000011"});
    CHECK(missing.code == 3);
    CHECK(missing.err.find("MGYP000000000011") != std::string::npos);
    const auto mixed = mgnify_run(
        {"--format", "ndjson", "protein", "get", "MGYP000000000010", "MGYP000000000011"});
    CHECK(mixed.code == 3);
    const auto lines = mgnify::test::cli::ndjson_lines(mixed.out);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].at("mgyp") == "MGYP000000000010");
  }
}

TEST_CASE("protein get names the superseded accession and, in a batch, the query of each record",
          "[cli][proteins]") {
  const mgnify::proteins::ProteinClient client(sdk_options(mock().proteins_url()));
  const auto replacement = client.protein("MGYP000000000022");

  const auto one = mgnify_run({"protein", "get", "MGYP000000900004"});
  CHECK(one.code == 0);
  CHECK(one.err.empty());
  json expected = replacement;
  expected["superseded_from"] = "MGYP000000900004";
  CHECK(json::parse(one.out) == expected);

  // Not superseded: the record is the SDK's, with nothing added.
  const auto plain = mgnify_run({"protein", "get", "MGYP000000000010"});
  CHECK(plain.code == 0);
  CHECK(json::parse(plain.out) == json(client.protein("MGYP000000000010")));

  const auto nd = mgnify_run({"--format", "ndjson", "protein", "get", "900004", "mgyp000000000010",
                              "MGYP000000000011", "MGYP000000000013"});
  CHECK(nd.code == 3);
  CHECK(nd.err.rfind("mgnify: MGYP000000000011: HTTP 404 ", 0) == 0);
  CHECK(std::count(nd.err.begin(), nd.err.end(), '\n') == 1);
  const auto lines = mgnify::test::cli::ndjson_lines(nd.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].at("query") == "900004");
  CHECK(lines[0].at("superseded_from") == "MGYP000000900004");
  CHECK(lines[0].at("mgyp") == "MGYP000000000022");
  CHECK(lines[1].at("query") == "mgyp000000000010");
  CHECK(lines[1].count("superseded_from") == 0);
  CHECK(lines[2].at("query") == "MGYP000000000013");

  const auto tsv = mgnify_run({"--format", "tsv", "--columns", "query,mgyp,superseded_from",
                               "protein", "get", "900004", "10"});
  CHECK(tsv.code == 0);
  CHECK(tsv.err.empty());
  CHECK(tsv.out ==
        "query\tmgyp\tsuperseded_from\n"
        "900004\tMGYP000000000022\tMGYP000000900004\n"
        "10\tMGYP000000000010\t\n");
}

TEST_CASE("protein search honours --max as the service's limit, in every format",
          "[cli][proteins]") {
  const mgnify::proteins::ProteinClient client(sdk_options(mock().proteins_url()));
  const auto hits = client.search(mgnify::proteins::SearchQuery::by_pfam("PF00005").limit(7));
  REQUIRE(hits.size() == 7);

  const auto nd =
      mgnify_run({"--format", "ndjson", "--max", "7", "protein", "search", "--pfam", "pf00005"});
  REQUIRE(nd.code == 0);
  const auto lines = mgnify::test::cli::ndjson_lines(nd.out);
  REQUIRE(lines.size() == 7);
  for (std::size_t i = 0; i < hits.size(); ++i) CHECK(lines[i] == json(hits[i]));

  const auto js = mgnify_run({"protein", "search", "--pfam", "PF00005", "--max", "7"});
  REQUIRE(js.code == 0);
  CHECK(json::parse(js.out) == json(hits));

  const auto tsv = mgnify_run({"--format", "tsv", "--columns", "mgyp,cluster_size", "--max", "7",
                               "protein", "search", "--pfam", "PF00005"});
  REQUIRE(tsv.code == 0);
  const Tsv t = parse_tsv(tsv.out);
  CHECK(t.header == std::vector<std::string>{"mgyp", "cluster_size"});
  REQUIRE(t.rows.size() == 7);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    CHECK(t.rows[i][0] == hits[i].mgyp);
    CHECK(t.rows[i][1] == (hits[i].cluster_size ? std::to_string(*hits[i].cluster_size) : ""));
  }

  CHECK(mgnify_run({"--max", "1001", "protein", "search", "--pfam", "PF00005"}).code == 2);
  CHECK(mgnify_run({"protein", "search", "--pfam", "PF00005", "--biome-id", "3"}).code == 2);
}

TEST_CASE("protein search warns when it stopped at its limit, and refuses a malformed Pfam id",
          "[cli][proteins]") {
  mock().clear_requests();
  for (const char* bad : {"PF0005", "Pf5", "PF000005", "PF5x"}) {
    const auto run = mgnify_run({"protein", "search", "--pfam", bad});
    INFO(bad << ": " << run.err);
    CHECK(run.code == 2);
    CHECK(run.err.find("not a Pfam accession") != std::string::npos);
    CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  }
  CHECK(mock().requests().empty());

  const auto capped =
      mgnify_run({"--format", "ndjson", "--max", "7", "protein", "search", "--pfam", "PF00005"});
  REQUIRE(capped.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(capped.out).size() == 7);
  CHECK(capped.err ==
        "mgnify: warning: the search stopped at its limit of 7 hits, so more may exist; "
        "raise --max (up to 1000)\n");

  // Without --max the service's own limit applies, and stopping there is as silent a loss.
  const auto defaulted = mgnify_run({"--format", "ndjson", "protein", "search", "--pfam", "5"});
  REQUIRE(defaulted.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(defaulted.out).size() == 50);
  CHECK(defaulted.err.find("stopped at its limit of 50 hits") != std::string::npos);

  const auto whole =
      mgnify_run({"--format", "ndjson", "--max", "1000", "protein", "search", "--pfam", "PF04659"});
  REQUIRE(whole.code == 0);
  const auto found = mgnify::test::cli::ndjson_lines(whole.out).size();
  CHECK(found > 0);
  CHECK(found < 1000);
  CHECK(whole.err.empty());
}

TEST_CASE("protein fasta writes the SDK's FASTA for accessions and for search hits",
          "[cli][proteins]") {
  const mgnify::proteins::ProteinClient client(sdk_options(mock().proteins_url()));
  const auto run =
      mgnify_run({"protein", "fasta", "MGYP000261684433", "MGYP000000000010", "--width", "0"});
  REQUIRE(run.code == 0);
  CHECK(run.out == mgnify::proteins::to_fasta(client.protein("MGYP000261684433"), 0) +
                       mgnify::proteins::to_fasta(client.protein("MGYP000000000010"), 0));

  const auto hits = client.search(mgnify::proteins::SearchQuery::by_pfam("PF00005").limit(3));
  std::string expected;
  for (const auto& h : hits) expected += mgnify::proteins::to_fasta(client.protein(h.mgyp));
  const auto searched = mgnify_run({"protein", "fasta", "--pfam", "PF00005", "--max", "3"});
  REQUIRE(searched.code == 0);
  CHECK(searched.out == expected);
  // Not a terminal: no progress line, only the warning that 3 hits filled the limit.
  CHECK(searched.err ==
        "mgnify: warning: the search stopped at its limit of 3 hits, so more may exist; "
        "raise --max (up to 1000)\n");
}

namespace {

const std::string kQueryProtein =
    "MKVLAAGIVGLLLASSAFAQEEKKPETVTLTGKVVDAEGNPVAGATVTVKGTDKTTQTDAQGNFSLSV";

std::size_t sequence_search_posts() {
  std::size_t n = 0;
  for (const auto& r : mock().requests()) {
    if (r.method == "POST" && r.path.find("/sequence-search/") != std::string::npos) ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("protein fasta of a search that finds nothing says so", "[cli][proteins]") {
  const auto run = mgnify_run({"protein", "fasta", "--pfam", "PF99999"});
  CHECK(run.code == 0);
  CHECK(run.out.empty());
  CHECK(run.err == "mgnify: note: 0 proteins matched\n");
}

TEST_CASE("protein sequence-search prints every hit joined to its record, the missing one too",
          "[cli][proteins][sequence_search]") {
  mgnify::proteins::ProteinClient client(sdk_options(mock().proteins_url()));
  mgnify::proteins::EvalueCutoffs e;
  e.sequence = 0.01;
  const auto expected = client.sequence_search_with_records(
      mgnify::proteins::SequenceSearchQuery(kQueryProtein).cutoffs(e));
  REQUIRE(expected.matches.size() == 6);

  mock().clear_requests();
  const auto run = mgnify_run({"protein", "sequence-search", kQueryProtein, "--evalue", "0.01"});
  REQUIRE(run.code == 0);
  CHECK(run.err ==
        "mgnify: 1 of 6 hits have no record in the Protein service (record=missing); "
        "they are listed\n");
  CHECK(sequence_search_posts() == 1);
  const Tsv t = parse_tsv(run.out);
  CHECK(t.header == std::vector<std::string>{"accession", "evalue", "score", "included",
                                             "description", "domains", "record", "full_length",
                                             "cluster_size", "biomes", "pfam"});
  REQUIRE(t.rows.size() == expected.matches.size());
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto& m = expected.matches[i];
    INFO(m.hit.accession());
    CHECK(t.rows[i][t.column("accession")] == m.hit.accession());
    CHECK(std::stod(t.rows[i][t.column("evalue")]) == Approx(*m.hit.evalue));
    CHECK(t.rows[i][t.column("record")] == (m.record.ok() ? "found" : "missing"));
    if (m.record.ok()) {
      CHECK(t.rows[i][t.column("cluster_size")] == std::to_string(*m.record->cluster_size));
    } else {
      CHECK(t.rows[i][t.column("cluster_size")].empty());
    }
  }

  // JSON carries the whole hit and record as well.
  const auto as_json = mgnify_run(
      {"--format", "json", "protein", "sequence-search", kQueryProtein, "--evalue", "0.01"});
  REQUIRE(as_json.code == 0);
  const json doc = json::parse(as_json.out);
  REQUIRE(doc.size() == expected.matches.size());
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const auto& m = expected.matches[i];
    CHECK(doc[i]["hit"] == json(m.hit));
    CHECK(doc[i]["protein"] == (m.record.ok() ? json(*m.record) : json()));
  }
}

TEST_CASE("protein sequence-search sends the database, the cut-offs and the FASTA file's record",
          "[cli][proteins][sequence_search]") {
  TempDir dir;
  const auto fasta = dir.path() / "query.fasta";
  std::ofstream(fasta) << ">query one\n"
                       << kQueryProtein.substr(0, 40) << "\n"
                       << kQueryProtein.substr(40) << "\n";
  mock().clear_requests();
  const auto run = mgnify_run({"--format", "ndjson", "protein", "sequence-search", "--fasta",
                               fasta.string(), "--database", "partial", "--report-bitscore", "200",
                               "--bitscore", "250", "--no-records"});
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  const auto lines = mgnify::test::cli::ndjson_lines(run.out);
  CHECK(lines.size() == 3);  // the mock's scores are 320, 275, 230, 185, ...
  for (const auto& line : lines) {
    CHECK_FALSE(line.contains("record"));
    CHECK(line["score"].get<double>() >= 200);
  }
  std::string body;
  std::size_t lookups = 0;
  for (const auto& r : mock().requests()) {
    if (r.method == "POST") body = r.body;
    if (r.path.find("/protein/") != std::string::npos) ++lookups;
  }
  CHECK(lookups == 0);
  CHECK(body.find("seqdb=partial") != std::string::npos);
  CHECK(body.find("incT=250") != std::string::npos);
  CHECK(body.find("&T=200") != std::string::npos);
  CHECK(body.find("seq=%3Equery%20one%0A" + kQueryProtein) != std::string::npos);
  CHECK(body.find("incE") == std::string::npos);
}

TEST_CASE("protein sequence-search cut-offs cut the listing, and each hit says if it is included",
          "[cli][proteins][sequence_search]") {
  // The mock's hits have E-values 1e-90, 1e-74, 1e-58, 1e-42, 1e-26, 1e-10 and bit scores 320,
  // 275, 230, 185, 140, 95; each has one domain at 1.1 times its E-value.
  const auto listed = [](const std::vector<std::string>& args) {
    std::vector<std::string> full = {"protein", "sequence-search", kQueryProtein, "--no-records"};
    full.insert(full.end(), args.begin(), args.end());
    const auto run = mgnify_run(full);
    REQUIRE(run.code == 0);
    return parse_tsv(run.out);
  };
  const auto column = [](const Tsv& t, const std::string& name) {
    std::vector<std::string> cells;
    for (const auto& row : t.rows) cells.push_back(row[t.column(name)]);
    return cells;
  };
  using Cells = std::vector<std::string>;

  // The inclusion threshold alone is the cut-off: nothing beyond it is listed.
  const Tsv strict = listed({"--evalue", "1e-50"});
  REQUIRE(strict.rows.size() == 3);
  for (const auto& e : column(strict, "evalue")) CHECK(std::stod(e) <= 1e-50);
  CHECK(column(strict, "included") == Cells{"1", "1", "1"});
  // A reporting threshold widens the list; the hits beyond --evalue say included=0.
  const Tsv wide = listed({"--evalue", "1e-50", "--report-evalue", "1e-20"});
  CHECK(column(wide, "included") == Cells{"1", "1", "1", "0", "0"});
  // Bit scores likewise.
  const Tsv bits = listed({"--bitscore", "200"});
  REQUIRE(bits.rows.size() == 3);
  for (const auto& score : column(bits, "score")) CHECK(std::stod(score) >= 200);
  CHECK(column(bits, "included") == Cells{"1", "1", "1"});
  const Tsv bits_wide = listed({"--bitscore", "200", "--report-bitscore", "100"});
  CHECK(column(bits_wide, "included") == Cells{"1", "1", "1", "0", "0"});
  // The domain threshold cuts the domains each hit lists.
  const Tsv domains = listed({"--hit-evalue", "1e-50"});
  CHECK(column(domains, "domains") == Cells{"1", "1", "1", "0", "0", "0"});

  // JSON carries the flag as the service sent it, a number, and the request said both thresholds.
  mock().clear_requests();
  const auto as_json = mgnify_run({"--format", "json", "protein", "sequence-search", kQueryProtein,
                                   "--no-records", "--evalue", "1e-50"});
  REQUIRE(as_json.code == 0);
  const json doc = json::parse(as_json.out);
  REQUIRE(doc.size() == 3);
  for (const auto& row : doc) CHECK(row.at("included") == json(1));
  std::string body;
  for (const auto& r : mock().requests()) {
    if (r.method == "POST") body = r.body;
  }
  CHECK(body.find("incE=1e-50") != std::string::npos);
  CHECK(body.find("&E=1e-50") != std::string::npos);
}

TEST_CASE("protein sequence-search refuses bad input with one line and exit 2, before any request",
          "[cli][proteins][sequence_search]") {
  TempDir dir;
  const auto two = dir.path() / "two.fasta";
  std::ofstream(two) << ">a\nMKVLL\n>b\nMKVLL\n";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"protein", "sequence-search"},
       "mgnify: protein sequence-search: give a sequence or --fasta FILE, not both or neither\n"},
      {{"protein", "sequence-search", "MKV1LL"},
       "mgnify: sequence search takes a protein sequence (letters A-Z), and residue 4 is '1'\n"},
      {{"protein", "sequence-search", "--fasta", two.string()},
       "mgnify: sequence search takes one sequence, and the input holds more than one FASTA "
       "record\n"},
      {{"protein", "sequence-search", "--fasta", (dir.path() / "absent.fasta").string()},
       "mgnify: --fasta " + (dir.path() / "absent.fasta").string() +
           ": not a readable regular file\n"},
      {{"protein", "sequence-search", "MKVLL", "--database", "uniprotkb"},
       "mgnify: --database must be full, all or partial, got 'uniprotkb'\n"},
      {{"protein", "sequence-search", "MKVLL", "--evalue", "0"},
       "mgnify: sequence search cut-off incE (sequence E-value) must be greater than 0 and at "
       "most 10, got 0\n"},
      {{"protein", "sequence-search", "MKVLL", "--evalue", "0.5", "--report-evalue", "0.1"},
       "mgnify: sequence search cut-off incE (0.5) must be at most E (0.1): an inclusion "
       "threshold cannot be looser than the reporting one\n"},
      {{"protein", "sequence-search", "MKVLL", "--max", "5"},
       "mgnify: --max does not apply to 'protein sequence-search'; the cut-offs decide the hits\n"},
  };
  mock().clear_requests();
  for (const auto& [args, message] : cases) {
    INFO(args.back());
    const auto run = mgnify_run(args);
    CHECK(run.code == 2);
    CHECK(run.err == message);
    CHECK(run.out.empty());
  }
  // E-value and bit-score cut-offs together: CLI11's own refusal, one line too.
  const auto both =
      mgnify_run({"protein", "sequence-search", "MKVLL", "--evalue", "0.01", "--bitscore", "25"});
  CHECK(both.code == 2);
  CHECK(std::count(both.err.begin(), both.err.end(), '\n') == 1);
  CHECK(both.err.find("--evalue") != std::string::npos);
  CHECK(mock().requests().empty());
}

TEST_CASE("protein sequence-search TSV reads back through pandas",
          "[cli][proteins][sequence_search][roundtrip]") {
  const auto run = mgnify_run({"protein", "sequence-search", kQueryProtein});
  REQUIRE(run.code == 0);
  TempDir dir;
  const auto file = dir.path() / "hits.tsv";
  std::ofstream(file, std::ios::binary) << run.out;
  if (!std::filesystem::exists(MGNIFY_PYTHON3))
    MGNIFY_SKIP_TEST(MGNIFY_PYTHON3 " is not installed");
  const auto out = dir.path() / "pandas.json";
  const std::string command = "'" MGNIFY_PYTHON3 "' '" MGNIFY_SOURCE_DIR
                              "/tests/tables/read_table.py' pandas tab '" +
                              file.string() + "' > '" + out.string() + "'";
  const int status = std::system(command.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
    MGNIFY_SKIP_TEST("pandas (python3-pandas) is not installed for " MGNIFY_PYTHON3);
  }
  REQUIRE(status == 0);
  std::ifstream in(out, std::ios::binary);
  const json back = json::parse(in);
  const Tsv t = parse_tsv(run.out);
  CHECK(back.at("columns") == json(t.header));
  REQUIRE(back.at("rows").size() == t.rows.size());
  const auto acc = t.column("accession");
  const auto rec = t.column("record");
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    CHECK(back["rows"][i][acc] == t.rows[i][acc]);
    CHECK(back["rows"][i][rec] == t.rows[i][rec]);
  }
}

// ------------------------------------------------------------------- v1 ----

TEST_CASE("v1 list walks pages of --page-size up to --max and matches the SDK", "[cli][v1]") {
  mgnify::v1::LegacyClient client(sdk_options(mock().v1_url()));
  std::vector<json> expected;
  for (const auto& s : client.studies({}, mgnify::ListOptions{3, 1, 7})) expected.push_back(s);
  REQUIRE(expected.size() == 7);

  mock().clear_requests();
  const auto run =
      mgnify_run({"--format", "ndjson", "v1", "studies", "list", "--page-size", "3", "--max", "7"});
  REQUIRE(run.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(run.out) == expected);
  int pages = 0;
  for (const auto& r : mock().requests()) {
    if (r.path == std::string(mgnify::mock::kV1Prefix) + "/studies") {
      ++pages;
      CHECK(r.target.find("page_size=3") != std::string::npos);
    }
  }
  CHECK(pages == 3);
}

TEST_CASE("v1 get and related, as JSON and TSV", "[cli][v1]") {
  mgnify::v1::LegacyClient client(sdk_options(mock().v1_url()));
  const json study = client.study("MGYS00000002");
  const auto get = mgnify_run({"v1", "studies", "get", "MGYS00000002"});
  REQUIRE(get.code == 0);
  CHECK(json::parse(get.out) == study);

  std::vector<mgnify::v1::Sample> samples = client.study_samples("MGYS00000002").collect();
  REQUIRE_FALSE(samples.empty());
  const auto tsv =
      mgnify_run({"--format", "tsv", "v1", "studies", "related", "MGYS00000002", "samples"});
  REQUIRE(tsv.code == 0);
  const Tsv t = parse_tsv(tsv.out);
  REQUIRE(t.rows.size() == samples.size());
  // The identifier leads, then the resource's id and type.
  CHECK(t.header.at(0) == "accession");
  CHECK(t.header.at(1) == "id");
  CHECK(t.header.at(2) == "type");
  for (std::size_t i = 0; i < samples.size(); ++i) {
    CHECK(t.rows[i][0] == samples[i].accession);
    CHECK(t.rows[i][1] == samples[i].id());
    CHECK(t.rows[i][2] == "samples");
  }

  SECTION("--include prints the compound document") {
    const auto inc =
        mgnify_run({"v1", "analyses", "get", "MGYA00000002", "--include", "downloads"});
    REQUIRE(inc.code == 0);
    const json doc = json::parse(inc.out);
    CHECK(doc.at("data").at("id") == "MGYA00000002");
    CHECK(doc.at("included").size() == 3);
  }
  SECTION("an unknown study exits with 3") {
    const auto missing = mgnify_run({"v1", "studies", "get", "MGYS99999999"});
    CHECK(missing.code == 3);
    CHECK(missing.out.empty());
  }
}

// ------------------------------------------------------------------- v2 ----

TEST_CASE("v2 studies list --pipeline: studies with an analysis of exactly that version",
          "[cli][v2]") {
  // The service's filter takes V6 and V6.1 alike (any v6 analysis); the CLI
  // keeps the studies with an analysis of the version asked for, as
  // `downloads -p` selects analyses.
  mgnify::v2::V2Client client(sdk_options(mock().v2_url()));
  std::map<std::string, std::set<std::string>> versions;  // study -> its analyses' versions
  mgnify::v2::StudyQuery v6_family;
  v6_family.has_analyses_from_pipeline(mgnify::v2::PipelineVersion::v6);
  for (const auto& study : client.studies(v6_family)) {
    auto& of = versions[study.accession];
    for (const auto& a : client.study_analyses(study.accession)) {
      if (a.pipeline_version) of.insert(a.pipeline_version->text);
    }
  }
  const auto expected = [&versions](const std::string& version) {
    std::vector<std::string> out;
    for (const auto& [study, of] : versions)
      if (of.count(version)) out.push_back(study);
    return out;
  };
  const auto listed = [](const std::vector<std::string>& args) {
    std::vector<std::string> full = {"--format", "tsv",     "--columns", "accession",
                                     "v2",       "studies", "list"};
    full.insert(full.end(), args.begin(), args.end());
    const auto run = mgnify_run(full);
    REQUIRE(run.code == 0);
    std::vector<std::string> out;
    std::istringstream lines(run.out);
    std::string line;
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) out.push_back(line);
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto v61 = expected("V6.1");
  const auto v6 = expected("V6");
  // The mock has studies of each kind, or this test would prove nothing.
  REQUIRE(std::any_of(v61.begin(), v61.end(), [&versions](const std::string& s) {
    return versions[s] == std::set<std::string>{"V6.1"};
  }));
  REQUIRE(v6.size() < versions.size());
  CHECK(listed({"--pipeline", "V6"}) == v6);
  CHECK(listed({"--pipeline", "6"}) == v6);
  CHECK(listed({"--pipeline", "v6.1"}) == v61);
  // --max counts the studies that pass, not the candidates.
  const auto two = listed({"--pipeline", "V6", "--max", "2"});
  REQUIRE(two.size() == 2);
  CHECK(std::includes(v6.begin(), v6.end(), two.begin(), two.end()));
}

TEST_CASE("v2 list, get and related match the SDK", "[cli][v2]") {
  mgnify::v2::V2Client client(sdk_options(mock().v2_url()));
  mgnify::ListOptions first5;
  first5.max_items = 5;
  first5.page_size = 2;
  std::vector<json> studies;
  for (const auto& s : client.studies({}, first5)) studies.push_back(s);

  const auto list = mgnify_run({"v2", "studies", "list", "--max", "5", "--page-size", "2"});
  REQUIRE(list.code == 0);
  const json arr = json::parse(list.out);
  REQUIRE(arr.is_array());
  CHECK(std::vector<json>(arr.begin(), arr.end()) == studies);

  const std::string acc = studies.at(0).at("accession");
  const auto get = mgnify_run({"v2", "studies", "get", acc});
  REQUIRE(get.code == 0);
  CHECK(json::parse(get.out) == json(client.study(acc)));

  std::vector<json> analyses;
  for (const auto& a : client.study_analyses(acc)) analyses.push_back(a);
  const auto related =
      mgnify_run({"--format", "ndjson", "v2", "studies", "related", acc, "analyses"});
  REQUIRE(related.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(related.out) == analyses);

  SECTION("filters reach the service") {
    mock().clear_requests();
    const auto search = mgnify_run({"--format", "ndjson", "--max", "3", "v2", "studies", "list",
                                    "--search", "human gut", "--pipeline", "v6"});
    REQUIRE(search.code == 0);
    bool seen = false;
    for (const auto& r : mock().requests()) {
      if (r.path == std::string(mgnify::mock::kV2Prefix) + "/studies/") {
        seen = true;
        CHECK(r.target.find("search=human+gut") != std::string::npos);
        CHECK(r.target.find("has_analyses_from_pipeline=V6") != std::string::npos);
      }
    }
    CHECK(seen);
  }
  SECTION("biomes as TSV with chosen columns") {
    mgnify::v2::BiomeQuery q;
    q.max_depth(2);
    std::vector<mgnify::v2::Biome> biomes = client.biomes(q).collect();
    const auto tsv = mgnify_run({"--format", "tsv", "--columns", "lineage,biome_name", "v2",
                                 "biomes", "list", "--max-depth", "2"});
    REQUIRE(tsv.code == 0);
    const Tsv t = parse_tsv(tsv.out);
    REQUIRE(t.rows.size() == biomes.size());
    for (std::size_t i = 0; i < biomes.size(); ++i) {
      CHECK(t.rows[i][0] == json(biomes[i]).at("lineage").get<std::string>());
    }
  }
  SECTION("TSV columns may be dotted paths into nested objects") {
    const auto tsv = mgnify_run({"--format", "tsv", "--columns", "accession,biome.lineage,biome",
                                 "v2", "studies", "list", "--max", "5", "--page-size", "2"});
    REQUIRE(tsv.code == 0);
    const Tsv t = parse_tsv(tsv.out);
    REQUIRE(t.rows.size() == studies.size());
    for (std::size_t i = 0; i < studies.size(); ++i) {
      CHECK(t.rows[i][0] == studies[i].at("accession").get<std::string>());
      const json& biome = studies[i].at("biome");
      CHECK(t.rows[i][1] == (biome.is_object() && biome.at("lineage").is_string()
                                 ? biome.at("lineage").get<std::string>()
                                 : std::string()));
      // A nested object in a named column is compact JSON, quoted as pandas reads it.
      CHECK(t.rows[i][2] ==
            (biome.is_null() ? std::string() : mgnify::tables::quote_field(biome.dump(), '\t')));
    }
  }
  SECTION("an unknown relation is bad usage") {
    CHECK(mgnify_run({"v2", "studies", "related", acc, "genomes"}).code == 2);
  }
}

TEST_CASE("v2 with --token-env: private data, never printing the token; a dead token exits 4",
          "[cli][v2]") {
  namespace d = mgnify::mock::v2data;
  const auto mine = mgnify_run(
      {"--format", "ndjson", "--token-env", "MY_MGNIFY_TOKEN", "v2", "studies", "list", "--mine"},
      {std::string("MY_MGNIFY_TOKEN=") + d::kValidToken});
  REQUIRE(mine.code == 0);
  std::vector<std::string> accessions;
  for (const auto& s : mgnify::test::cli::ndjson_lines(mine.out))
    accessions.push_back(s.at("accession"));
  for (const auto& p : d::kPrivateStudies) {
    CHECK(std::find(accessions.begin(), accessions.end(), p) != accessions.end());
  }

  const auto dead =
      mgnify_run({"--token-env", "MY_MGNIFY_TOKEN", "v2", "studies", "list", "--mine"},
                 {std::string("MY_MGNIFY_TOKEN=") + d::kDeadToken});
  CHECK(dead.code == 4);
  CHECK(dead.err.find(d::kDeadToken) == std::string::npos);
  CHECK(dead.out.find(d::kDeadToken) == std::string::npos);
}

// --------------------------------------------------------- exit codes ------

TEST_CASE("throttled and unavailable services exit with 5, a 500 with 1", "[cli][faults]") {
  const std::string path = std::string(mgnify::mock::kV2Prefix) + "/studies/";
  SECTION("429 after the last attempt") {
    mock().push_fault(path, mgnify::mock::Fault::throttled(std::string("0")));
    const auto run = mgnify_run({"--retries", "1", "v2", "studies", "list", "--max", "1"});
    CHECK(run.code == 5);
    CHECK(run.err.find("429") != std::string::npos);
  }
  SECTION("503") {
    mock().push_fault(path, mgnify::mock::Fault::status_only(503));
    CHECK(mgnify_run({"--retries", "1", "v2", "studies", "list", "--max", "1"}).code == 5);
  }
  SECTION("500 is not 'unavailable'") {
    mock().push_fault(path, mgnify::mock::Fault::status_only(500));
    CHECK(mgnify_run({"--retries", "1", "v2", "studies", "list", "--max", "1"}).code == 1);
  }
  SECTION("a retried 503 that then succeeds exits 0") {
    mock().push_fault(path, mgnify::mock::Fault::status_only(503));
    const auto run =
        mgnify_run({"--retries", "2", "--format", "ndjson", "v2", "studies", "list", "--max", "1"});
    CHECK(run.code == 0);
    CHECK(mgnify::test::cli::ndjson_lines(run.out).size() == 1);
  }
  SECTION("nothing listening: a transport error") {
    const auto run =
        mgnify_run({"--retries", "1", "--base-url", "http://127.0.0.1:1", "v2", "studies", "list"});
    CHECK(run.code == 5);
  }
  mock().clear_faults();
}

TEST_CASE("a TLS failure is a configuration error (exit 1) naming TLS and the base URL, not 5",
          "[cli][faults]") {
  // https:// to the plain-HTTP mock: the handshake fails ("wrong version number").
  std::string base = mock().proteins_url();
  REQUIRE(base.rfind("http://", 0) == 0);
  base.replace(0, 4, "https");
  const auto run = mgnify_run({"--base-url", base, "protein", "get", "MGYP000000000010"});
  CHECK(run.code == 1);
  CHECK(run.out.empty());
  CHECK(run.err.rfind("mgnify: TLS failure for " + base + "/protein/MGYP000000000010: ", 0) == 0);
  CHECK(run.err.find("; check the base URL (https:// to a plain-HTTP server?)") !=
        std::string::npos);
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
}

TEST_CASE("a JSON list that fails on a later page is still valid JSON; the exit code tells",
          "[cli][faults]") {
  const std::string path = std::string(mgnify::mock::kV2Prefix) + "/studies/";
  mgnify::mock::Fault first_page;
  first_page.action = mgnify::mock::Fault::Action::pass;
  mock().push_fault(path, first_page);
  mock().push_fault(path, mgnify::mock::Fault::status_only(500));
  const auto run =
      mgnify_run({"--retries", "1", "--page-size", "2", "--max", "5", "v2", "studies", "list"});
  mock().clear_faults();
  CHECK(run.code == 1);
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(run.err.rfind("mgnify: ", 0) == 0);
  CHECK(run.err.find("500") != std::string::npos);
  const json printed = json::parse(run.out);  // throws on an unclosed array
  REQUIRE(printed.is_array());
  CHECK(printed.size() == 2);
}

TEST_CASE("a list option takes one argument per use and never the next positional", "[cli]") {
  // -g before the accession: the accession stays the accession.
  TempDir dir;
  const auto listed = mgnify_run(
      {"--format", "ndjson", "downloads", "MGYA00000002", "-g", "taxonomies.,functional_analysis"});
  REQUIRE(listed.code == 0);
  const auto rows = mgnify::test::cli::ndjson_lines(listed.out);
  REQUIRE_FALSE(rows.empty());
  const auto fetched =
      mgnify_run({"--format", "ndjson", "download", "-g", "taxonomies.", "-g",
                  "functional_analysis", "MGYA00000002", "--dir", dir.path().string()});
  CHECK(fetched.code == 0);
  CHECK(fetched.err.empty());
  const auto done = mgnify::test::cli::ndjson_lines(fetched.out);
  REQUIRE(done.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(done[i].at("alias") == rows[i].at("alias"));
    CHECK(done[i].at("status") == "downloaded");
  }

  // A word after --columns is not a column.
  const auto extra = mgnify_run({"v2", "studies", "list", "--max", "2", "--format", "tsv",
                                 "--columns", "accession,title", "extra"});
  CHECK(extra.code == 2);
  CHECK(extra.out.empty());
  CHECK(extra.err.rfind("mgnify: ", 0) == 0);
  CHECK(extra.err.find("'extra'") != std::string::npos);
  CHECK(std::count(extra.err.begin(), extra.err.end(), '\n') == 1);

  // Repeated, the option adds up.
  const auto repeated = mgnify_run({"v2", "studies", "list", "--max", "2", "--format", "tsv",
                                    "--columns", "accession", "--columns", "title"});
  CHECK(repeated.code == 0);
  CHECK(repeated.err.empty());
  CHECK(parse_tsv(repeated.out).header == std::vector<std::string>{"accession", "title"});
  CHECK(parse_tsv(repeated.out).rows.size() == 2);
}

// The example programs are built only with MGNIFY_BUILD_EXAMPLES.
#ifdef MGNIFY_EXAMPLES_DIR
TEST_CASE("every example prints its usage on --help and -h, and refuses an unknown option",
          "[cli][examples]") {
  const std::vector<std::string> examples = {
      "pfam_to_fasta",       "protein_lookup",    "protein_search",
      "v1_analysis_contigs", "v1_biome_samples",  "v1_study_samples",
      "v1_contig_text",      "v1_at_a_glance",    "v2_analysis_downloads",
      "v2_biome_tree",       "v2_search_studies", "v2_genome_search",
      "v2_openapi",          "v2_response_cache"};
  // No service answers here: none of these runs may send a request.
  const std::vector<std::string> env = {"MGNIFY_PROTEINS_URL=http://127.0.0.1:1",
                                        "MGNIFY_API_V1_URL=http://127.0.0.1:1",
                                        "MGNIFY_API_V2_URL=http://127.0.0.1:1"};
  for (const auto& name : examples) {
    INFO(name);
    const std::string binary = std::string(MGNIFY_EXAMPLES_DIR) + "/" + name;
    for (const std::string help : {"--help", "-h"}) {
      const auto run = mgnify::test::cli::run_piped(binary, {help}, env);
      CHECK(run.code == 0);
      CHECK(run.err.empty());
      CHECK(run.out.rfind("usage: " + name + " [--base-url URL]", 0) == 0);
      // The synopsis, a blank line, one paragraph.
      CHECK(run.out.find("\n\n") != std::string::npos);
      CHECK(run.out.find("\n\n") == run.out.rfind("\n\n"));
    }
    const auto bad = mgnify::test::cli::run_piped(binary, {"--bogus"}, env);
    CHECK(bad.code == 2);
    CHECK(bad.out.empty());
    CHECK(bad.err.rfind(name + ": unknown option '--bogus'\nusage: " + name + " [--base-url URL]",
                        0) == 0);
    CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 2);
  }
}

TEST_CASE("an example refuses a negative, zero or non-numeric count by name, before any request",
          "[cli][examples]") {
  struct Case {
    std::string name;
    std::vector<std::string> args;
    std::string message;  // what stderr starts with, after "NAME: "
  };
  const std::vector<Case> cases = {
      {"pfam_to_fasta", {"--limit", "-1", "PF00005"}, "option '--limit' takes a whole number"},
      {"pfam_to_fasta", {"--limit", "1001", "PF00005"}, "option '--limit' must be from 1 to 1000"},
      {"pfam_to_fasta", {"--concurrency", "0", "PF00005"}, "option '--concurrency' must be from 1"},
      {"pfam_to_fasta", {"--rate", "fast", "PF00005"}, "option '--rate' takes a number"},
      {"protein_search", {"--pfam", "PF00005", "--limit", "-3"}, "option '--limit' takes a whole"},
      {"protein_search", {"--biome-id", "x1"}, "option '--biome-id' takes a whole number"},
      {"protein_search", {"--pfam", "PF00005", "--lineage", "root"}, "give exactly one of"},
      {"v1_analysis_contigs", {"--limit", "-1", "MGYA00000001"}, "option '--limit' takes a whole"},
      {"v1_analysis_contigs", {"--min-length", "-5", "MGYA00000001"}, "option '--min-length'"},
      {"v1_biome_samples", {"--limit", "-1"}, "option '--limit' takes a whole number"},
      {"v1_biome_samples", {"--max", "10x"}, "option '--max' takes a number, got '10x'"},
      {"v1_study_samples", {"--page-size", "0", "MGYS00000001"}, "option '--page-size' must be"},
      {"v1_study_samples", {"--page-size", "251", "MGYS00000001"}, "option '--page-size' must be"},
      {"v1_contig_text", {"--max-bytes", "-1", "MGYA00000001"}, "option '--max-bytes' takes a"},
      {"v1_at_a_glance", {"--recent", "-1"}, "option '--recent' takes a whole number"},
      {"v2_openapi", {"--max", "-3"}, "option '--max' takes a whole number from 0, got '-3'"},
      {"v2_biome_tree", {"root", "0"}, "MAX_DEPTH must be from 1 to 100, got '0'"},
      {"v2_biome_tree", {"root", "-2"}, "unknown option '-2'"},
  };
  // Nothing listens on port 1: a request would fail with exit 1, not 2.
  const std::vector<std::string> env = {"MGNIFY_PROTEINS_URL=http://127.0.0.1:1",
                                        "MGNIFY_API_V1_URL=http://127.0.0.1:1",
                                        "MGNIFY_API_V2_URL=http://127.0.0.1:1"};
  for (const auto& c : cases) {
    INFO(c.name << " " << c.args.front() << " " << c.args[1]);
    const auto run =
        mgnify::test::cli::run_piped(std::string(MGNIFY_EXAMPLES_DIR) + "/" + c.name, c.args, env);
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK(run.err.rfind(c.name + ": " + c.message, 0) == 0);
    CHECK(run.err.find("\nusage: " + c.name + " [--base-url URL]") != std::string::npos);
    CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 2);
  }
}
#endif

TEST_CASE("the --base-url option wins over the environment variable", "[cli]") {
  const auto run =
      mgnify::test::cli::run_piped(MGNIFY_CLI_PATH,
                                   {"--rate-limit", "0", "--base-url", mock().v2_url(), "--format",
                                    "ndjson", "v2", "studies", "list", "--max", "2"},
                                   {"MGNIFY_API_V2_URL=http://127.0.0.1:1/nowhere"});
  CHECK(run.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(run.out).size() == 2);
}

// ------------------------------------------------------------ downloads ----

TEST_CASE("downloads lists a v1 analysis's files with checksums, filtered by group",
          "[cli][downloads]") {
  mgnify::v1::LegacyClient client(sdk_options(mock().v1_url()));
  const auto files = client.analysis_downloads("MGYA00000002").collect();
  REQUIRE(files.size() == 3);

  TempDir dir;
  const auto manifest = dir.path() / "files.tsv";
  const auto run = mgnify_run({"--format", "tsv", "downloads", "--api", "v1", "MGYA00000002",
                               "--manifest", manifest.string()});
  REQUIRE(run.code == 0);
  CHECK(slurp(manifest) == run.out);
  const Tsv t = parse_tsv(run.out);
  CHECK(t.header == std::vector<std::string>{"accession", "alias", "pipeline_version", "group",
                                             "description", "file_type", "experiment_type", "url",
                                             "checksum_algorithm", "checksum", "size_bytes"});
  REQUIRE(t.rows.size() == files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    CHECK(t.rows[i][t.column("accession")] == "MGYA00000002");
    CHECK(t.rows[i][t.column("alias")] == files[i].alias);
    CHECK(t.rows[i][t.column("url")] == *files[i].self_link());
    CHECK(t.rows[i][t.column("group")] == *files[i].group_type);
    CHECK(t.rows[i][t.column("pipeline_version")] == *files[i].pipeline_version());
    CHECK(t.rows[i][t.column("checksum_algorithm")] == files[i].file_checksum->checksum_algorithm);
    CHECK(t.rows[i][t.column("checksum")] == files[i].file_checksum->checksum);
  }

  // mg-toolkit's spelling of "Taxonomic analysis SSU rRNA".
  const auto ssu = mgnify_run({"--format", "ndjson", "downloads", "--api", "v1", "MGYA00000002",
                               "-g", "taxonomic_analysis_ssu_rrna"});
  REQUIRE(ssu.code == 0);
  const auto rows = mgnify::test::cli::ndjson_lines(ssu.out);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("group") == "Taxonomic analysis SSU rRNA");

  CHECK(mgnify_run({"downloads", "--api", "v1", "MGYA99999999"}).code == 3);
}

TEST_CASE("downloads of a v1 study walks its analyses, filtered by pipeline", "[cli][downloads]") {
  mgnify::v1::LegacyClient client(sdk_options(mock().v1_url()));
  std::size_t expected = 0;
  std::size_t expected_41 = 0;
  for (const auto& a : client.study_analyses("MGYS00000002")) {
    const auto n = client.analysis_downloads(a.accession).collect().size();
    expected += n;
    if (a.pipeline_version == std::string("4.1")) expected_41 += n;
  }
  REQUIRE(expected > expected_41);
  REQUIRE(expected_41 > 0);

  const auto all = mgnify_run({"--format", "ndjson", "downloads", "--api", "v1", "MGYS00000002"});
  REQUIRE(all.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(all.out).size() == expected);

  const auto v41 =
      mgnify_run({"--format", "ndjson", "downloads", "--api", "v1", "MGYS00000002", "-p", "4.1"});
  REQUIRE(v41.code == 0);
  const auto rows = mgnify::test::cli::ndjson_lines(v41.out);
  CHECK(rows.size() == expected_41);
  for (const auto& r : rows) {
    CHECK(r.at("pipeline_version") == "4.1");
    CHECK(r.at("accession").get<std::string>().rfind("MGYA", 0) == 0);
  }

  const auto summaries = mgnify_run(
      {"--format", "ndjson", "downloads", "--api", "v1", "MGYS00000002", "--study-summaries"});
  REQUIRE(summaries.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(summaries.out).size() ==
        client.study_downloads("MGYS00000002").collect().size());
}

TEST_CASE("downloads of a v2 analysis and study, by download group", "[cli][downloads]") {
  mgnify::v2::V2Client client(sdk_options(mock().v2_url()));
  // The first study with v6 (URL-bearing) analyses.
  std::string study;
  std::vector<std::string> analyses;
  for (const auto& s : client.studies()) {
    analyses.clear();
    for (const auto& a : client.study_analyses(s.accession)) {
      if (a.pipeline_version && a.pipeline_version->text.rfind("V6", 0) == 0)
        analyses.push_back(a.accession);
    }
    if (!analyses.empty()) {
      study = s.accession;
      break;
    }
  }
  REQUIRE_FALSE(study.empty());

  const auto detail = client.analysis(analyses[0]);
  const auto one = mgnify_run({"--format", "ndjson", "downloads", analyses[0]});
  REQUIRE(one.code == 0);
  const auto rows = mgnify::test::cli::ndjson_lines(one.out);
  REQUIRE(rows.size() == detail.downloads.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(rows[i].at("alias") == detail.downloads[i].alias);
    CHECK(rows[i].at("url") == detail.downloads[i].url.value_or(""));
    CHECK(rows[i].at("group") == detail.downloads[i].download_group.value_or(""));
    CHECK(rows[i].at("pipeline_version") == detail.pipeline_version->text);
  }

  const auto tax =
      mgnify_run({"--format", "ndjson", "downloads", analyses[0], "-g", "taxonomies."});
  REQUIRE(tax.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(tax.out).size() ==
        detail.downloads_in_group("taxonomies.").size());

  std::size_t expected = 0;
  for (const auto& a : analyses) expected += client.analysis(a).downloads.size();
  const auto whole = mgnify_run({"--format", "ndjson", "downloads", study, "-p", "6"});
  // "6" selects V6 but not V6.1.
  std::size_t v6 = 0;
  for (const auto& a : analyses) {
    const auto d = client.analysis(a);
    if (d.pipeline_version->text == "V6") v6 += d.downloads.size();
  }
  // A filter that matches no file is "nothing found".
  CHECK(whole.code == (v6 == 0 ? 3 : 0));
  CHECK(mgnify::test::cli::ndjson_lines(whole.out).size() == v6);
  CHECK(expected >= v6);
}

// ------------------------------------------------------------- download ----

namespace {

struct ManifestFile {
  std::string name;
  std::string url_suffix;  // query appended to the URL
  std::string checksum;    // "" for none
};

std::string write_manifest(const std::filesystem::path& path,
                           const std::vector<ManifestFile>& files) {
  std::ofstream out(path);
  out << "accession\talias\turl\tchecksum_algorithm\tchecksum\tsize_bytes\n";
  for (const auto& f : files) {
    out << "MGYA00000042\t" << f.name << "\t" << mock().origin() << mgnify::mock::kFilesPrefix
        << "/" << f.name << f.url_suffix << "\t" << (f.checksum.empty() ? "" : "SHA256") << "\t"
        << f.checksum << "\t" << mgnify::mock::mock_file(f.name).size() << "\n";
  }
  return path.string();
}

std::string sha256_of(const std::string& name) {
  return mgnify::files::hash_bytes(mgnify::files::HashAlgorithm::sha256,
                                   mgnify::mock::mock_file(name));
}

}  // namespace

TEST_CASE("the manifest and result files replace a symbolic link planted at their path",
          "[cli][download][hostile]") {
  // In a shared folder, whoever may write there can plant a link where the
  // user's manifest or results will go, aimed at another of the user's files.
  TempDir dir;
  const auto victim = dir.path() / "victim.txt";
  std::ofstream(victim, std::ios::binary) << "precious\n";
  const auto manifest = dir.path() / "files.tsv";
  std::filesystem::create_symlink(victim, manifest);
  const auto listed = mgnify_run({"--format", "tsv", "downloads", "--api", "v1", "MGYA00000002",
                                  "--manifest", manifest.string()});
  REQUIRE(listed.code == 0);
  CHECK(slurp(victim) == "precious\n");
  CHECK_FALSE(std::filesystem::is_symlink(manifest));
  CHECK(slurp(manifest) == listed.out);

  // A results file is written beside itself first; a link planted at the
  // name that write would use is not followed either.
  const auto small =
      write_manifest(dir.path() / "m.tsv", {{"small.tsv", "", sha256_of("small.tsv")}});
  const auto results = dir.path() / "results.tsv";
  const auto planted = dir.path() / "results.tsv.tmp";
  std::filesystem::create_symlink(victim, planted);
  const auto fetched = mgnify_run({"--format", "ndjson", "download", "--manifest", small, "--dir",
                                   (dir.path() / "out").string(), "--results", results.string()});
  INFO(fetched.err);
  REQUIRE(fetched.code == 0);
  CHECK(slurp(victim) == "precious\n");
  CHECK_FALSE(std::filesystem::is_symlink(results));
  const Tsv written = parse_tsv(slurp(results));
  REQUIRE(written.rows.size() == 1);
  CHECK(written.rows[0][written.column("status")] == "downloaded");
  // Nothing of the writes is left beside them.
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path() != planted) CHECK(entry.path().extension() != ".tmp");
  }
}

TEST_CASE(
    "download fetches a manifest's files, verified, resumes a cut transfer, and skips present "
    "files",
    "[cli][download]") {
  TempDir dir;
  const auto manifest =
      write_manifest(dir.path() / "m.tsv", {{"small.tsv", "", sha256_of("small.tsv")},
                                            {"medium.bin", "?cut=70000", sha256_of("medium.bin")},
                                            {"empty.txt", "", ""}});
  const auto out = dir.path() / "out";
  const auto run =
      mgnify_run({"--format", "ndjson", "download", "--manifest", manifest, "--dir", out.string()});
  REQUIRE(run.code == 0);
  const auto rows = mgnify::test::cli::ndjson_lines(run.out);
  REQUIRE(rows.size() == 3);
  for (const char* name : {"small.tsv", "medium.bin", "empty.txt"}) {
    const auto path = out / "MGYA00000042" / name;
    CHECK(slurp(path) == mgnify::mock::mock_file(name));
    CHECK_FALSE(std::filesystem::exists(path.string() + ".part"));
  }
  CHECK(rows[0].at("status") == "downloaded");
  CHECK(rows[0].at("checksum") == "SHA256:" + sha256_of("small.tsv"));
  CHECK(rows[0].at("bytes") == mgnify::mock::mock_file("small.tsv").size());
  CHECK(rows[1].at("status") == "resumed");
  CHECK(rows[2].at("status") == "downloaded");
  CHECK(rows[2].at("bytes") == 0);
  CHECK(run.err.empty());  // no terminal, no progress

  // A second run trusts nothing: verified files are kept without a request.
  mock().clear_requests();
  const auto again =
      mgnify_run({"--format", "tsv", "download", "--manifest", manifest, "--dir", out.string()});
  REQUIRE(again.code == 0);
  const Tsv t = parse_tsv(again.out);
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[0][t.column("status")] == "present");
  CHECK(t.rows[1][t.column("status")] == "present");
  CHECK(mock().hits(std::string(mgnify::mock::kFilesPrefix) + "/small.tsv") == 0);
  CHECK(mock().hits(std::string(mgnify::mock::kFilesPrefix) + "/medium.bin") == 0);
}

namespace {

/// A manifest of `count` copies of the mock's small.tsv, each under its own
/// alias (copyN.tsv), each answered slowly (400 ms) by the mock.
std::filesystem::path slow_copies_manifest(const TempDir& dir, std::size_t count) {
  std::vector<ManifestFile> files;
  for (std::size_t i = 0; i < count; ++i) {
    files.push_back({"small.tsv", "?copy=" + std::to_string(i), sha256_of("small.tsv")});
  }
  const auto manifest_path = dir.path() / "m.tsv";
  write_manifest(manifest_path, files);
  std::string text = slurp(manifest_path);
  std::size_t row = 0;
  for (std::size_t at = text.find("\tsmall.tsv\t"); at != std::string::npos;
       at = text.find("\tsmall.tsv\t", at + 1)) {
    text.replace(at, 11, "\tcopy" + std::to_string(row++) + ".tsv\t");
  }
  REQUIRE(row == count);
  std::ofstream(manifest_path, std::ios::trunc) << text;
  mock().clear_faults();
  mock().clear_requests();
  mock().push_faults(std::string(mgnify::mock::kFilesPrefix) + "/small.tsv",
                     mgnify::mock::Fault::slow(std::chrono::milliseconds(400)),
                     static_cast<int>(count));
  return manifest_path;
}

}  // namespace

TEST_CASE("after Ctrl-C the download's progress line shows what was done, not every file",
          "[cli][download][progress]") {
  TempDir dir;
  constexpr std::size_t kFiles = 8;
  const auto manifest_path = slow_copies_manifest(dir, kFiles);
  const auto tty = mgnify::test::cli::run_in_terminal(
      MGNIFY_CLI_PATH,
      {"--rate-limit", "0", "--format", "ndjson", "download", "--manifest", manifest_path.string(),
       "--dir", (dir.path() / "out").string(), "--concurrency", "1"},
      service_env(), std::chrono::seconds(30), std::chrono::milliseconds(1000));
  mock().clear_faults();
  INFO(tty.err);
  REQUIRE_FALSE(tty.timed_out);
  CHECK(tty.code == 130);
  const std::regex summary("interrupted: ([0-9]+) done, ([0-9]+) left");
  std::smatch said;
  REQUIRE(std::regex_search(tty.err, said, summary));
  const std::size_t done = std::stoul(said[1]);
  CHECK(done < kFiles);
  // The last count the progress line drew before the summary.
  const std::string before = tty.err.substr(0, static_cast<std::size_t>(said.position(0)));
  const std::regex drawn("download: ([0-9]+)/([0-9]+) files");
  std::size_t last_drawn = 0;
  for (auto it = std::sregex_iterator(before.begin(), before.end(), drawn);
       it != std::sregex_iterator(); ++it) {
    last_drawn = std::stoul((*it)[1]);
    CHECK(std::stoul((*it)[2]) == kFiles);
  }
  CHECK(last_drawn <= done);
}

TEST_CASE(
    "Ctrl-C during a download says what is done and what is left, keeps what finished, and a "
    "rerun fetches only the rest",
    "[cli][download]") {
  TempDir dir;
  constexpr std::size_t kFiles = 8;
  const auto manifest_path = slow_copies_manifest(dir, kFiles);
  const std::string file_path = std::string(mgnify::mock::kFilesPrefix) + "/small.tsv";
  const auto out = dir.path() / "out";
  std::vector<std::string> args = {
      "--rate-limit",         "0",     "--format",   "ndjson",        "download", "--manifest",
      manifest_path.string(), "--dir", out.string(), "--concurrency", "1"};
  auto run =
      mgnify::test::cli::run_piped(MGNIFY_CLI_PATH, args, service_env(), std::chrono::seconds(30),
                                   std::chrono::milliseconds(1000));
  mock().clear_faults();
  INFO(run.err);
  REQUIRE_FALSE(run.timed_out);
  CHECK(run.code == 130);
  const auto rows = mgnify::test::cli::ndjson_lines(run.out);
  REQUIRE(rows.size() == kFiles);
  std::size_t done = 0;
  std::size_t interrupted = 0;
  for (const auto& r : rows) {
    if (r.at("status") == "downloaded") ++done;
    if (r.at("status") == "interrupted") ++interrupted;
  }
  CHECK(done + interrupted == kFiles);
  CHECK(interrupted >= 1);
  CHECK(run.err == "mgnify: interrupted: " + std::to_string(done) + " done, " +
                       std::to_string(interrupted) + " left; rerun the same command to resume\n");

  mock().clear_requests();
  const auto again = mgnify_run({"--format", "ndjson", "download", "--manifest",
                                 manifest_path.string(), "--dir", out.string()});
  REQUIRE(again.code == 0);
  const auto again_rows = mgnify::test::cli::ndjson_lines(again.out);
  REQUIRE(again_rows.size() == kFiles);
  std::size_t present = 0;
  for (const auto& r : again_rows) present += r.at("status") == "present" ? 1 : 0;
  CHECK(present == done);
  CHECK(mock().hits(file_path) <= interrupted);
  for (std::size_t i = 0; i < kFiles; ++i) {
    CHECK(slurp(out / "MGYA00000042" / ("copy" + std::to_string(i) + ".tsv")) ==
          mgnify::mock::mock_file("small.tsv"));
  }
}

TEST_CASE("the download report records a locally computed SHA-256 of every file",
          "[cli][download]") {
  TempDir dir;
  // No checksum in the manifest for one file: the digest is the tool's own.
  const auto manifest = write_manifest(
      dir.path() / "m.tsv", {{"small.tsv", "", ""}, {"medium.bin", "", sha256_of("medium.bin")}});
  const auto out = dir.path() / "out";
  const auto run =
      mgnify_run({"--format", "ndjson", "download", "--manifest", manifest, "--dir", out.string()});
  REQUIRE(run.code == 0);
  const auto rows = mgnify::test::cli::ndjson_lines(run.out);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("sha256") == sha256_of("small.tsv"));
  CHECK(rows[1].at("sha256") == sha256_of("medium.bin"));
  // Files kept from an earlier run are hashed as they are on disk.
  const auto again =
      mgnify_run({"--format", "ndjson", "download", "--manifest", manifest, "--dir", out.string()});
  REQUIRE(again.code == 0);
  const auto again_rows = mgnify::test::cli::ndjson_lines(again.out);
  REQUIRE(again_rows.size() == 2);
  CHECK(again_rows[0].at("status") == "present");
  CHECK(again_rows[0].at("sha256") == sha256_of("small.tsv"));
}

TEST_CASE("an unreadable manifest exits 1 with the OS reason; a bad row is named, nothing fetched",
          "[cli][download]") {
  TempDir dir;
  const auto absent = (dir.path() / "absent.tsv").string();
  const auto missing = mgnify_run({"download", "--manifest", absent, "--dir", dir.path().string()});
  CHECK(missing.code == 1);
  CHECK(missing.err ==
        "mgnify: cannot read manifest: " + absent + " (No such file or directory)\n");
  CHECK(missing.out.empty());

  const auto bad = (dir.path() / "bad.tsv").string();
  std::ofstream(bad) << "accession\talias\turl\tchecksum_algorithm\tchecksum\n"
                     << "MGYA1\ta.txt\t" << mock().origin() << "/files/small.tsv\tSHA256\t"
                     << sha256_of("small.tsv") << "\n"
                     << "MGYA1\tb.txt\t" << mock().origin() << "/files/small.tsv\tCRC32\tabcd\n";
  mock().clear_requests();
  const auto row = mgnify_run({"download", "--manifest", bad, "--dir", dir.path().string()});
  CHECK(row.code == 2);
  CHECK(row.err == "mgnify: manifest " + bad +
                       " line 3: unsupported checksum algorithm 'CRC32' (MD5, SHA1 and SHA256 "
                       "are supported)\n");
  CHECK(row.out.empty());
  CHECK(mock().requests().empty());
}

TEST_CASE("download: a checksum mismatch leaves no file and exits 1; a missing file exits 3",
          "[cli][download]") {
  TempDir dir;
  const std::string wrong(64, 'a');
  const auto manifest =
      write_manifest(dir.path() / "m.tsv",
                     {{"small.tsv", "", wrong}, {"medium.bin", "", sha256_of("medium.bin")}});
  const auto out = dir.path() / "out";
  const auto run =
      mgnify_run({"--format", "ndjson", "download", "--manifest", manifest, "--dir", out.string()});
  CHECK(run.code == 1);
  const auto rows = mgnify::test::cli::ndjson_lines(run.out);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("status") == "failed");
  CHECK(rows[0].at("error").get<std::string>().find("checksum mismatch") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out / "MGYA00000042" / "small.tsv"));
  CHECK_FALSE(std::filesystem::exists(out / "MGYA00000042" / "small.tsv.part"));
  // The other file is unaffected.
  CHECK(rows[1].at("status") == "downloaded");
  CHECK(slurp(out / "MGYA00000042" / "medium.bin") == mgnify::mock::mock_file("medium.bin"));

  std::ofstream(dir.path() / "missing.tsv")
      << "accession\talias\turl\nMGYA1\tnope.txt\t" << mock().origin() << "/files/nope.txt\n";
  const auto missing = mgnify_run(
      {"download", "--manifest", (dir.path() / "missing.tsv").string(), "--dir", out.string()});
  CHECK(missing.code == 3);
}

TEST_CASE("download straight from a listing skips files without a URL, not silently",
          "[cli][download]") {
  // Without a URL on v2 or on v1 the files are reported skipped, the run
  // fails (3: nothing to fetch them from), and one line names the v1 command.
  // v2 legacy studies publish files without a location.
  mgnify::v2::V2Client client(sdk_options(mock().v2_url()));
  std::string legacy;
  for (const auto& s : client.studies()) {
    const auto detail = client.study(s.accession);
    if (!detail.downloads.empty() && !detail.downloads[0].has_url()) {
      legacy = s.accession;
      break;
    }
  }
  REQUIRE_FALSE(legacy.empty());
  TempDir dir;
  const auto run = mgnify_run({"--format", "ndjson", "download", legacy, "--study-summaries",
                               "--dir", dir.path().string()});
  CHECK(run.code == 3);
  const auto rows = mgnify::test::cli::ndjson_lines(run.out);
  REQUIRE_FALSE(rows.empty());
  for (const auto& r : rows) CHECK(r.at("status") == "skipped");
  CHECK(run.err.find("get them with: mgnify download " + legacy + " --api v1 --study-summaries") !=
        std::string::npos);
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
}

// ------------------------------------------------------------- progress ----

TEST_CASE("progress is drawn on a terminal and never into a pipe", "[cli][progress]") {
  TempDir dir;
  const auto manifest = write_manifest(
      dir.path() / "m.tsv",
      {{"small.tsv", "", sha256_of("small.tsv")}, {"large.fasta", "", sha256_of("large.fasta")}});
  std::vector<std::string> args = {"--rate-limit", "0",        "--format",
                                   "ndjson",       "download", "--manifest",
                                   manifest,       "--dir",    (dir.path() / "tty").string()};
  const auto tty = mgnify::test::cli::run_in_terminal(MGNIFY_CLI_PATH, args, service_env());
  REQUIRE_FALSE(tty.timed_out);
  CHECK(tty.code == 0);
  CHECK(tty.err.find("download: ") != std::string::npos);
  CHECK(tty.err.find("2/2 files") != std::string::npos);
  CHECK(tty.err.find("100%") != std::string::npos);

  args.back() = (dir.path() / "pipe").string();
  const auto piped = mgnify::test::cli::run_piped(MGNIFY_CLI_PATH, args, service_env());
  CHECK(piped.code == 0);
  CHECK(piped.err.empty());
  CHECK(piped.out.find("download: ") == std::string::npos);
  CHECK(mgnify::test::cli::ndjson_lines(piped.out).size() == 2);

  const auto proteins_tty = mgnify::test::cli::run_in_terminal(
      MGNIFY_CLI_PATH, {"--rate-limit", "0", "protein", "fasta", "--pfam", "PF00005", "--max", "4"},
      service_env());
  CHECK(proteins_tty.code == 0);
  CHECK(proteins_tty.err.find("proteins: 4/4 records") != std::string::npos);
}

// ------------------------------------------- download from a listing ----

namespace {

std::string url_path(const std::string& url) {
  const auto host = url.find('/', url.find("://") + 3);
  const auto query = url.find('?', host);
  return url.substr(host, query == std::string::npos ? std::string::npos : query - host);
}

// Half of `bytes` behind headers that promise all of them, then the connection closes.
mgnify::mock::Fault cut_transfer(const std::string& bytes) {
  auto fault = mgnify::mock::Fault::truncated();
  fault.body = bytes;
  fault.content_type = "application/octet-stream";
  return fault;
}

std::map<std::string, json> by_alias(const std::vector<json>& rows) {
  std::map<std::string, json> out;
  for (const auto& r : rows) out[r.at("alias").get<std::string>()] = r;
  return out;
}

}  // namespace

TEST_CASE(
    "download a v1 analysis from its listing: verified, kept, re-fetched when corrupt, resumed "
    "when cut",
    "[cli][download][v1]") {
  namespace v1data = mgnify::mock::v1data;
  const auto listed =
      mgnify_run({"--format", "ndjson", "downloads", "--api", "v1", "MGYA00000002"});
  REQUIRE(listed.code == 0);
  const auto files = mgnify::test::cli::ndjson_lines(listed.out);
  REQUIRE(files.size() == 3);
  std::map<std::string, std::string> bytes;  // alias -> what the mock serves
  for (std::size_t k = 0; k < files.size(); ++k) {
    CHECK(files[k].at("url").get<std::string>().rfind(
              mock().v1_url() + "/analyses/MGYA00000002/file/", 0) == 0);
    CHECK(files[k].at("checksum_algorithm") == "SHA256");
    bytes[files[k].at("alias")] = *v1data::download_bytes(v1data::DownloadOwner::analysis, 1, k);
  }

  TempDir dir;
  const auto out = dir.path() / "out";
  const std::vector<std::string> args = {"--format", "ndjson",       "download", "--api",
                                         "v1",       "MGYA00000002", "--dir",    out.string()};
  const auto run = mgnify_run(args);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  auto rows = by_alias(mgnify::test::cli::ndjson_lines(run.out));
  REQUIRE(rows.size() == 3);
  for (const auto& f : files) {
    const std::string alias = f.at("alias");
    CAPTURE(alias);
    const auto path = out / "MGYA00000002" / alias;
    const auto& r = rows.at(alias);
    CHECK(r.at("status") == "downloaded");
    CHECK(r.at("path") == path.string());
    CHECK(r.at("bytes") == bytes[alias].size());
    // The digest the listing gave, of the bytes on disk.
    CHECK(r.at("checksum") == "SHA256:" + f.at("checksum").get<std::string>());
    CHECK(mgnify::files::hash_file(mgnify::files::HashAlgorithm::sha256, path) == f.at("checksum"));
    CHECK(slurp(path) == bytes[alias]);
    CHECK_FALSE(std::filesystem::exists(path.string() + ".part"));
  }

  // A rerun re-verifies every file and keeps it, without a request.
  mock().clear_requests();
  const auto again = mgnify_run(args);
  REQUIRE(again.code == 0);
  for (const auto& [alias, r] : by_alias(mgnify::test::cli::ndjson_lines(again.out)))
    CHECK(r.at("status") == "present");
  for (const auto& f : files) CHECK(mock().hits(url_path(f.at("url"))) == 0);

  // A corrupted file (same size) fails its checksum and is fetched again;
  // a file whose transfer is cut halfway is resumed with a Range request.
  const std::string corrupt_alias = files[0].at("alias");
  const std::string cut_alias = files[2].at("alias");
  std::string corrupt = bytes[corrupt_alias];
  corrupt[10] = static_cast<char>(corrupt[10] ^ 1);
  std::ofstream(out / "MGYA00000002" / corrupt_alias, std::ios::binary | std::ios::trunc)
      << corrupt;
  std::filesystem::remove(out / "MGYA00000002" / cut_alias);
  mock().push_fault(url_path(files[2].at("url")), cut_transfer(bytes[cut_alias]));
  mock().clear_requests();
  const auto repair = mgnify_run(args);
  REQUIRE(repair.code == 0);
  rows = by_alias(mgnify::test::cli::ndjson_lines(repair.out));
  CHECK(rows.at(corrupt_alias).at("status") == "downloaded");
  CHECK(rows.at(files[1].at("alias")).at("status") == "present");
  CHECK(rows.at(cut_alias).at("status") == "resumed");
  CHECK(mock().hits(url_path(files[2].at("url"))) == 2);
  for (const auto& [alias, content] : bytes) CHECK(slurp(out / "MGYA00000002" / alias) == content);
}

TEST_CASE(
    "download a v1 study's files filtered by -p and -g, and its summaries with and without digests",
    "[cli][download][v1]") {
  mgnify::v1::LegacyClient client(sdk_options(mock().v1_url()));
  std::vector<std::string> v5;
  for (const auto& a : client.study_analyses("MGYS00000002")) {
    if (a.pipeline_version == std::string("5.0")) v5.push_back(a.accession);
  }
  REQUIRE_FALSE(v5.empty());

  TempDir dir;
  const auto run = mgnify_run({"--format", "ndjson", "download", "--api", "v1", "MGYS00000002",
                               "-p", "5.0", "-g", "sequence_data", "--dir", dir.path().string()});
  REQUIRE(run.code == 0);
  const auto rows = mgnify::test::cli::ndjson_lines(run.out);
  REQUIRE(rows.size() == v5.size());
  for (const auto& r : rows) {
    CHECK(r.at("status") == "downloaded");
    CHECK(r.at("alias").get<std::string>().find("_CDS.fasta.gz") != std::string::npos);
    const std::string accession = r.at("accession");
    CHECK(std::find(v5.begin(), v5.end(), accession) != v5.end());
    const auto path = dir.path() / accession / r.at("alias").get<std::string>();
    const auto listed = client.analysis_downloads(accession).collect();
    CHECK(r.at("checksum") == "SHA256:" + listed[2].file_checksum->checksum);
    CHECK(mgnify::files::hash_file(mgnify::files::HashAlgorithm::sha256, path) ==
          listed[2].file_checksum->checksum);
  }

  // The same through a manifest: list with -p/-g, then fetch what the manifest names.
  const auto manifest = dir.path() / "ssu.tsv";
  const auto listing =
      mgnify_run({"--format", "tsv", "downloads", "--api", "v1", "MGYS00000002", "-p", "4.1", "-g",
                  "taxonomic_analysis_ssu_rrna", "--manifest", manifest.string()});
  REQUIRE(listing.code == 0);
  const Tsv m = parse_tsv(slurp(manifest));
  REQUIRE_FALSE(m.rows.empty());
  const auto fetched = mgnify_run({"--format", "ndjson", "download", "--api", "v1", "--manifest",
                                   manifest.string(), "--dir", (dir.path() / "m").string()});
  REQUIRE(fetched.code == 0);
  const auto fetched_rows = mgnify::test::cli::ndjson_lines(fetched.out);
  REQUIRE(fetched_rows.size() == m.rows.size());
  for (std::size_t i = 0; i < m.rows.size(); ++i) {
    CHECK(fetched_rows[i].at("status") == "downloaded");
    CHECK(m.rows[i][m.column("pipeline_version")] == "4.1");
    CHECK(fetched_rows[i].at("checksum") == "SHA256:" + m.rows[i][m.column("checksum")]);
    const auto path =
        dir.path() / "m" / m.rows[i][m.column("accession")] / m.rows[i][m.column("alias")];
    CHECK(mgnify::files::hash_file(mgnify::files::HashAlgorithm::sha256, path) ==
          m.rows[i][m.column("checksum")]);
  }

  // Study summaries: the 4.1 file has no published digest, the 5.0 ones have MD5.
  const std::vector<std::string> summaries = {"--format",
                                              "ndjson",
                                              "download",
                                              "--api",
                                              "v1",
                                              "MGYS00000002",
                                              "--study-summaries",
                                              "--dir",
                                              (dir.path() / "s").string()};
  const auto first = mgnify::test::cli::ndjson_lines(mgnify_run(summaries).out);
  REQUIRE(first.size() == 3);
  CHECK(first[0].at("status") == "downloaded");
  CHECK(first[0].at("checksum").is_null());
  CHECK(first[1].at("checksum").get<std::string>().rfind("MD5:", 0) == 0);
  CHECK(first[2].at("checksum").get<std::string>().rfind("MD5:", 0) == 0);
  // On a rerun everything is kept: the MD5 files by their digest, the one
  // without a digest by the SHA-256 the first run's result log in DIR recorded.
  CHECK(first[0].at("checked") == "content-length");
  CHECK(first[1].at("checked") == "md5");
  const auto second = mgnify::test::cli::ndjson_lines(mgnify_run(summaries).out);
  REQUIRE(second.size() == 3);
  CHECK(second[0].at("status") == "present");
  CHECK(second[0].at("checked") == "recorded sha256");
  CHECK(second[1].at("status") == "present");
  CHECK(second[2].at("status") == "present");
}

TEST_CASE(
    "download a v2 analysis from its listing: sizes verified, kept, re-fetched when short, resumed "
    "when cut",
    "[cli][download][v2]") {
  namespace v2data = mgnify::mock::v2data;
  const auto listed = mgnify_run({"--format", "ndjson", "downloads", "MGYA00000002"});
  REQUIRE(listed.code == 0);
  const auto files = mgnify::test::cli::ndjson_lines(listed.out);
  REQUIRE(files.size() == 7);
  std::size_t sized = 0;
  for (const auto& f : files) {
    const std::string url = f.at("url");
    CHECK(url.rfind(mock().origin() + "/pub/databases/metagenomics/mgnify_results/", 0) == 0);
    if (!f.at("size_bytes").is_null()) {
      ++sized;
      CHECK(f.at("size_bytes") == v2data::file_bytes(url_path(url)).size());
    }
  }
  REQUIRE(sized == 5);

  TempDir dir;
  const auto out = dir.path() / "out";
  // -g: the taxonomy tables, Krona chart and ASVs only.
  const std::vector<std::string> tax = {"--format", "ndjson",      "download", "MGYA00000002",
                                        "-g",       "taxonomies.", "--dir",    out.string()};
  const auto some = mgnify_run(tax);
  REQUIRE(some.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(some.out).size() == 4);

  const std::vector<std::string> all = {"--format",     "ndjson", "download",
                                        "MGYA00000002", "--dir",  out.string()};
  const auto run = mgnify_run(all);
  REQUIRE(run.code == 0);
  auto rows = by_alias(mgnify::test::cli::ndjson_lines(run.out));
  REQUIRE(rows.size() == 7);
  for (const auto& f : files) {
    const std::string alias = f.at("alias");
    CAPTURE(alias);
    const auto path = out / "MGYA00000002" / alias;
    const std::string content = v2data::file_bytes(url_path(f.at("url")));
    CHECK(slurp(path) == content);
    CHECK(rows.at(alias).at("bytes") == content.size());
    CHECK(rows.at(alias).at("checksum").is_null());
    // Every file the first run fetched is kept: a sized one by its size, an
    // unsized one by the SHA-256 the first run's result log in DIR recorded
    // (no --results needed). Each row says what vouched for it.
    const bool taxonomy = f.at("group").get<std::string>().rfind("taxonomies.", 0) == 0;
    const bool sized = !f.at("size_bytes").is_null();
    CHECK(rows.at(alias).at("status") == (taxonomy ? "present" : "downloaded"));
    CHECK(rows.at(alias).at("checked") == (sized      ? "size"
                                           : taxonomy ? "recorded sha256"
                                                      : "content-length"));
  }

  // A short local file fails its size and is fetched again; a cut transfer resumes.
  const json* table = nullptr;
  const json* pfam = nullptr;
  for (const auto& f : files) {
    if (f.at("alias").get<std::string>().find("_SILVA-LSU.tsv.gz") != std::string::npos) table = &f;
    if (f.at("alias").get<std::string>().find("_pfam_summary.tsv.gz") != std::string::npos)
      pfam = &f;
  }
  REQUIRE(table);
  REQUIRE(pfam);
  const auto table_path = out / "MGYA00000002" / table->at("alias").get<std::string>();
  const std::string table_bytes = slurp(table_path);
  std::ofstream(table_path, std::ios::binary | std::ios::trunc) << table_bytes.substr(0, 100);
  const std::string pfam_bytes = v2data::file_bytes(url_path(pfam->at("url")));
  std::filesystem::remove(out / "MGYA00000002" / pfam->at("alias").get<std::string>());
  mock().push_fault(url_path(pfam->at("url")), cut_transfer(pfam_bytes));
  const auto repair = mgnify_run(all);
  REQUIRE(repair.code == 0);
  rows = by_alias(mgnify::test::cli::ndjson_lines(repair.out));
  CHECK(rows.at(table->at("alias")).at("status") == "downloaded");
  CHECK(rows.at(pfam->at("alias")).at("status") == "resumed");
  CHECK(slurp(table_path) == table_bytes);
  CHECK(slurp(out / "MGYA00000002" / pfam->at("alias").get<std::string>()) == pfam_bytes);
}

// ------------------------------------------------------ hostile servers ----

namespace {

/// Text a hostile server might send: an OSC 52 clipboard write ended by BEL,
/// a screen clear and cursor move, a CR and backspace to overwrite what was
/// printed, DEL and a C1 CSI (U+009B, the one-character form of ESC [); with
/// ordinary non-ASCII text that must survive.
const std::string kHostile =
    "Z\xc3\xbcrich \x1b]52;c;SGFja2Vk\x07\x1b[2J\x1b[1;1H\rforged\bX\x7f\xc2\x9b"
    "31m end";

/// The first byte of `text` that could drive a terminal, described, or "" if
/// none: C0 controls (tab and newline only when `structure` allows them as
/// TSV/line separators), DEL, C1 controls as UTF-8, and bytes that are not
/// valid UTF-8 (a lone 0x9B is CSI in 8-bit locales).
std::string first_control(const std::string& text, bool structure) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto at = " at offset " + std::to_string(i);
    if (c < 0x80) {
      if ((c < 0x20 && !(structure && (c == '\t' || c == '\n'))) || c == 0x7F)
        return "byte " + std::to_string(c) + at;
      ++i;
      continue;
    }
    const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > text.size()) return "invalid UTF-8" + at;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return "invalid UTF-8" + at;
    }
    if (c == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F) return "C1 control" + at;
    i += n;
  }
  return "";
}

}  // namespace

TEST_CASE("server text with control characters reaches TSV and JSON output escaped",
          "[cli][hostile]") {
  const std::string path = std::string(mgnify::mock::kV2Prefix) + "/studies/";
  json page = mgnify::test::cli::mock_body(mock(), path + "?page_size=2");
  REQUIRE(page.at("items").size() == 2);
  page["items"][0]["title"] = kHostile;
  page["items"][1]["title"] = "line one\nline two\tcell\\";
  const std::vector<std::string> args = {"v2", "studies", "list", "--max", "2", "--page-size", "2"};

  SECTION("tsv on a terminal: a visible escape for every control, one line per record") {
    mock().push_fault(path, mgnify::mock::Fault::status_only(200, page.dump()));
    std::vector<std::string> tsv = {"--rate-limit", "0",         "--format",
                                    "tsv",          "--columns", "accession,title"};
    tsv.insert(tsv.end(), args.begin(), args.end());
    const auto run = mgnify::test::cli::run_in_terminal(MGNIFY_CLI_PATH, tsv, service_env());
    CHECK(run.code == 0);
    // The terminal's own line discipline turns each LF into CR LF.
    std::string shown = run.err;
    for (auto at = shown.find("\r\n"); at != std::string::npos; at = shown.find("\r\n", at))
      shown.erase(at, 1);
    CHECK(first_control(shown, true) == "");
    const Tsv t = parse_tsv(shown);
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0][1] ==
          "Z\xc3\xbcrich \\x1b]52;c;SGFja2Vk\\x07\\x1b[2J\\x1b[1;1H\\rforged\\x08X\\x7f\\u009b31m "
          "end");
    CHECK(t.rows[1][1] == "line one\\nline two\\tcell\\");
  }
  SECTION("tsv in a file: the bytes the server sent, quoted as pandas reads them") {
    mock().push_fault(path, mgnify::mock::Fault::status_only(200, page.dump()));
    std::vector<std::string> tsv = {"--format", "tsv", "--columns", "accession,title"};
    tsv.insert(tsv.end(), args.begin(), args.end());
    const auto run = mgnify_run(tsv);
    CHECK(run.code == 0);
    CHECK(run.out.find("\t" + mgnify::tables::quote_field(kHostile, '\t') + "\n") !=
          std::string::npos);
    CHECK(run.out.find("\t\"line one\nline two\tcell\\\"\n") != std::string::npos);
  }
  SECTION("json and ndjson: the data intact, DEL and C1 as \\u escapes") {
    for (const char* format : {"json", "ndjson"}) {
      CAPTURE(format);
      mock().push_fault(path, mgnify::mock::Fault::status_only(200, page.dump()));
      std::vector<std::string> full = {"--format", format};
      full.insert(full.end(), args.begin(), args.end());
      const auto run = mgnify_run(full);
      CHECK(run.code == 0);
      CHECK(first_control(run.out, true) == "");
      CHECK(run.out.find("\\u001b]52;c;") != std::string::npos);
      CHECK(run.out.find("\\u009b31m") != std::string::npos);
      const json records = std::string(format) == "json"
                               ? json::parse(run.out)
                               : json(mgnify::test::cli::ndjson_lines(run.out));
      REQUIRE(records.size() == 2);
      CHECK(records[0].at("title") == kHostile);
    }
  }
  mock().clear_faults();
}

TEST_CASE("control characters in error messages reach stderr escaped, exit codes unchanged",
          "[cli][hostile]") {
  const std::string path = std::string(mgnify::mock::kV2Prefix) + "/studies/";
  const std::vector<std::string> args = {"--retries", "1", "v2", "studies", "list", "--max", "1"};
  mgnify::test::cli::Run run;
  std::string visible;
  SECTION("an API error's detail") {
    mock().push_fault(path,
                      mgnify::mock::Fault::status_only(404, json{{"detail", kHostile}}.dump()));
    run = mgnify_run(args);
    CHECK(run.code == 3);
    // The SDK already folds C0 controls and DEL of a detail into spaces; C1 is left.
    visible = "\xc3\xbcrich ]52;c;SGFja2Vk [2J [1;1H forged X \\u009b31m end";
  }
  SECTION("a plain-text error body with a C1 control and a stray 0x9B byte") {
    mgnify::mock::Fault fault = mgnify::mock::Fault::status_only(500,
                                                                 "oops \xc2\x9b"
                                                                 "2J \x9b"
                                                                 "2J");
    fault.content_type = "text/plain";
    mock().push_fault(path, fault);
    run = mgnify_run(args);
    CHECK(run.code == 1);
    visible = "oops \\u009b2J \\x9b2J";
  }
  SECTION("a redirect's Location") {
    mock().push_fault(path,
                      mgnify::mock::Fault::redirect(302, "gopher://x/\x1b]52;c;SGk=\x07\x1b[2J"));
    run = mgnify_run(args);
    CHECK(run.code == 1);
    visible = "\\x1b]52;c;SGk=\\x07\\x1b[2J";
  }
  mock().clear_faults();
  CAPTURE(run.err);
  CHECK(first_control(run.err, true) == "");
  // One line: the diagnostic's own newline is the only one.
  CHECK(run.err.find('\n') == run.err.size() - 1);
  CHECK(run.err.find(visible) != std::string::npos);
}

TEST_CASE("protein fasta escapes control characters in residues: no forged records",
          "[cli][hostile][proteins]") {
  const std::string accession = "MGYP000261684433";
  mock().clear_requests();
  REQUIRE(mgnify_run({"protein", "get", accession}).code == 0);
  const auto requests = mock().requests();
  REQUIRE(requests.size() == 1);
  const std::string path = requests[0].path;
  json record = mgnify::test::cli::mock_body(mock(), requests[0].target);
  record["sequence"] = "MKV\x1b]52;c;SGk=\x07\n>MGYP000000000001 forged\r\nLLA";

  mock().push_fault(path, mgnify::mock::Fault::status_only(200, record.dump()));
  const auto run = mgnify_run({"protein", "fasta", accession, "--width", "0"});
  mock().clear_faults();
  CHECK(run.code == 0);
  CHECK(first_control(run.out, true) == "");
  std::istringstream lines(run.out);
  std::string header;
  std::string sequence;
  std::string extra;
  REQUIRE(std::getline(lines, header));
  REQUIRE(std::getline(lines, sequence));
  CHECK_FALSE(std::getline(lines, extra));
  CHECK(header.rfind(">" + accession, 0) == 0);
  CHECK(sequence == "MKV\\x1b]52;c;SGk=\\x07\\n>MGYP000000000001 forged\\r\\nLLA");
}

TEST_CASE("invalid UTF-8 in a JSON report becomes U+FFFD, with a warning, not a crash",
          "[cli][hostile][download]") {
  TempDir dir;
  const auto manifest = dir.path() / "m.tsv";
  // A manifest keeps bytes as the server sent them; this alias has a byte
  // that is not UTF-8.
  std::ofstream(manifest, std::ios::binary)
      << "accession\talias\turl\n"
      << "MGYA00000001\tbad\xff.txt\t" << mock().origin() << "/no/such/file\n";
  const auto run = mgnify_run({"--format", "ndjson", "download", "--manifest", manifest.string(),
                               "--dir", (dir.path() / "out").string()});
  CHECK(run.code == 1);  // a name that is not UTF-8 is refused as a file name
  CAPTURE(run.err);
  CHECK(first_control(run.out, true) == "");
  CHECK(first_control(run.err, true) == "");
  const auto rows = mgnify::test::cli::ndjson_lines(run.out);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("alias") == "bad\xef\xbf\xbd.txt");
  CHECK(rows[0].at("status") == "failed");
  CHECK(run.err.find("1 record held invalid UTF-8") != std::string::npos);
}

TEST_CASE("a file name with control characters is refused, never created",
          "[cli][hostile][download]") {
  // An escape sequence in a server-sent alias (as tsv_cell writes it) would
  // become part of a file name that `ls` later prints to a terminal. The
  // rule is the terminal escaping's: C0, DEL, C1 (U+009B is CSI) and bytes
  // that are not UTF-8, in the alias or the accession.
  const std::vector<std::pair<std::string, std::string>> names = {
      {"MGYA00000001", "bad\\x1b[2J.txt"},  {"MGYA00000001", "bad\\x7f.txt"},
      {"MGYA00000001", "bad\\u009b2J.txt"}, {"MGYA00000001", "bad\xc2\x85.txt"},
      {"MGYA00000001", "bad\\xff.txt"},     {"MGYA00000001", "bad\xc0\xaf.txt"},
      {"MGYA\\u00850001", "ok.txt"}};
  for (const auto& [accession, alias] : names) {
    INFO(accession + " " + alias);
    TempDir dir;
    const auto manifest = dir.path() / "m.tsv";
    std::ofstream(manifest, std::ios::binary)
        << "accession\talias\turl\n"
        << accession << "\t" << alias << "\t" << mock().origin() << "/no/such/file\n";
    const auto out_dir = dir.path() / "out";
    mock().clear_requests();
    const auto run = mgnify_run({"--format", "ndjson", "download", "--manifest", manifest.string(),
                                 "--dir", out_dir.string()});
    CHECK(run.code == 1);
    CAPTURE(run.err);
    const auto rows = mgnify::test::cli::ndjson_lines(run.out);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].at("status") == "failed");
    CHECK(rows[0].at("error") == "unsafe file name");
    CHECK(first_control(run.err, true) == "");
    CHECK(mock().requests().empty());
    std::size_t created = 0;
    if (std::filesystem::exists(out_dir)) {
      // Only the run's own result log and lock (DIR/.mgnify-results) may exist.
      for (const auto& entry : std::filesystem::recursive_directory_iterator(out_dir)) {
        const auto relative = entry.path().lexically_relative(out_dir).string();
        if (entry.is_regular_file() && relative.rfind(".mgnify-results/", 0) != 0) ++created;
      }
    }
    CHECK(created == 0);
  }
}

TEST_CASE("a pre-signed file URL is redacted in the tool's messages", "[cli][hostile][download]") {
  TempDir dir;
  const auto manifest = dir.path() / "m.tsv";
  std::ofstream(manifest, std::ios::binary)
      << "accession\talias\turl\n"
      << "MGYA00000001\tgone.txt\thttp://reader:PWSECRET@127.0.0.1:" << mock().port()
      << "/no/such/file?X-Amz-Signature=SIGSECRET&part=2\n";
  const auto run = mgnify_run({"--format", "ndjson", "download", "--manifest", manifest.string(),
                               "--dir", (dir.path() / "out").string()});
  CHECK(run.code == 3);
  CAPTURE(run.err);
  CHECK(run.err.find("SIGSECRET") == std::string::npos);
  CHECK(run.err.find("PWSECRET") == std::string::npos);
  CHECK(run.err.find("X-Amz-Signature=***") != std::string::npos);
  CHECK(run.err.find("part=2") != std::string::npos);
}
