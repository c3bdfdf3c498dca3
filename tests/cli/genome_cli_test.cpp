// `mgnify genome search` and `mgnify genome gather` run as child processes
// against the mock, their output compared with what the SDK reads from the
// same mock; bad input, empty results and Ctrl-C during a job's wait.

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_runner.hpp"
#include "mgnify/v2.hpp"
#include "mock/genome_search_mock.hpp"
#include "mock/mock_server.hpp"
#include "read_table.hpp"
#include "skip.hpp"
#include "support/all_services.hpp"
#include "text_lines.hpp"

using nlohmann::json;
using namespace std::chrono_literals;

namespace {

mgnify::mock::MockServer& genome_mock() {
  static mgnify::mock::MockServer& server = []() -> mgnify::mock::MockServer& {
    auto& started = mgnify::test::start_all_services();
    // The Ctrl-C tests below signal the tool at fixed times after it starts.
    mgnify::mock::prepare_v2_data();
    return started;
  }();
  return server;
}

const char* const kCatalogue = "human-gut-v2-0";

mgnify::test::cli::Run genome_run(std::vector<std::string> args,
                                  std::chrono::milliseconds interrupt_after = 0ms) {
  std::vector<std::string> full = {"--rate-limit", "0", "--retries", "1"};
  full.insert(full.end(), args.begin(), args.end());
  auto run = mgnify::test::cli::run_piped(
      MGNIFY_CLI_PATH, full, {"MGNIFY_API_V2_URL=" + genome_mock().v2_url()}, 60s, interrupt_after);
  REQUIRE_FALSE(run.timed_out);
  return run;
}

mgnify::v2::V2Client sdk() {
  return mgnify::v2::V2Client(mgnify::test::cli::sdk_options(genome_mock().v2_url()));
}

std::string sequence_of(std::size_t length, std::uint32_t seed) {
  static const char bases[] = "ACGT";
  std::string out;
  std::uint32_t x = seed;
  for (std::size_t i = 0; i < length; ++i) {
    x = x * 1103515245u + 12345u;
    out.push_back(bases[(x >> 16) & 3]);
  }
  return out;
}

using mgnify::test::text_lines::lines_of;

/// One line on stderr, in the tool's "mgnify: ..." form.
void check_one_error_line(const mgnify::test::cli::Run& run, const std::string& expected) {
  INFO(run.err);
  const auto lines = lines_of(run.err);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("mgnify: ", 0) == 0);
  CHECK(lines[0].find(expected) != std::string::npos);
}

/// A command line the tool must refuse, and what its one error line says.
struct Refused {
  std::vector<std::string> args;
  std::string message;
};

/// Each is refused with exit 2 and one line on stderr, and none reaches the service.
void check_refused(const std::vector<Refused>& cases) {
  genome_mock().clear_requests();
  for (const auto& c : cases) {
    std::string shown;
    for (const auto& a : c.args) shown += a + " ";
    INFO(shown);
    const auto run = genome_run(c.args);
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    check_one_error_line(run, c.message);
  }
  CHECK(genome_mock().requests().empty());
}

std::size_t genome_requests() {
  std::size_t n = 0;
  for (const auto& r : genome_mock().requests()) {
    if (r.path.find("genome-search") != std::string::npos ||
        r.path.find("genomes-search") != std::string::npos) {
      ++n;
    }
  }
  return n;
}

/// A sourmash signature named `name` (which picks its job's fate in the mock), as dir/file.
std::filesystem::path signature_file(const mgnify::test::cli::TempDir& dir, const std::string& file,
                                     const std::string& name) {
  const auto path = dir.path() / file;
  mgnify::test::dl::write_file(path, mgnify::mock::sourmash_signature(name));
  return path;
}

const std::vector<std::string> kSearchHeader = {"query",
                                                "cobs.genome",
                                                "mgnify.catalogue_id",
                                                "mgnify.type",
                                                "mgnify.taxon_lineage",
                                                "cobs.percent_kmers_found",
                                                "cobs.num_kmers_found",
                                                "cobs.num_kmers",
                                                "mgnify.completeness",
                                                "mgnify.contamination"};

mgnify::JobWaitOptions quick_wait() {
  mgnify::JobWaitOptions wait;
  wait.first_interval = 10ms;
  wait.max_interval = 10ms;
  return wait;
}

/// The SDK's own gather of one signature file: every result row, per catalogue.
std::vector<std::pair<std::string, mgnify::GatherResults>> sdk_gather(
    const std::filesystem::path& signature, const std::vector<std::string>& catalogues) {
  const auto client = sdk();
  mgnify::GatherRequest request;
  request.mag_catalogues = catalogues;
  request.signatures.push_back(mgnify::SignatureFile::from_path(signature));
  const auto status = client.wait_for_gather(client.submit_gather(request).job_id, quick_wait());
  std::vector<std::pair<std::string, mgnify::GatherResults>> out;
  for (const auto& child : status.signatures) {
    if (child.status.has_results()) {
      out.emplace_back(*child.catalogue, client.gather_results(child.job_id));
    }
  }
  return out;
}

/// Each CSV cell of `row` in the tool's record `r`, under its column's name.
void check_cells(const json& r, const mgnify::GatherResults& results,
                 const mgnify::GatherResultRow& row) {
  for (std::size_t i = 0; i < results.columns.size(); ++i) {
    INFO(results.columns[i]);
    const json& cell = r.at(results.columns[i]);
    if (cell.is_null()) {
      // An empty cell of a numeric column.
      CHECK(row.cells[i].empty());
    } else if (cell.is_string()) {
      CHECK(cell == row.cells[i]);
    } else {
      // Numbers keep their value.
      REQUIRE(cell.is_number());
      CHECK(cell.get<double>() == Approx(std::stod(row.cells[i])));
    }
  }
}

}  // namespace

// ---------------------------------------------------------------- COBS ----

TEST_CASE("genome search prints the SDK's hits as TSV and JSON, one search per FASTA record",
          "[cli][genome]") {
  const std::string seq = sequence_of(120, 7);
  mgnify::CobsQuery query;
  query.sequence = seq;
  query.threshold = 0.3;
  query.max_results = 5;
  const auto expected = sdk().genome_search(query);
  REQUIRE_FALSE(expected.results.empty());

  const auto as_json =
      genome_run({"--format", "json", "genome", "search", seq, "--threshold", "0.3", "--max", "5"});
  REQUIRE(as_json.code == 0);
  const json records = json::parse(as_json.out);
  REQUIRE(records.is_array());
  REQUIRE(records.size() == expected.results.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    CHECK(records[i].at("query") == "sequence");
    CHECK(records[i].at("cobs") == json(expected.results[i].cobs));
    CHECK(records[i].at("mgnify") == json(expected.results[i].mgnify));
  }
  if (expected.results.size() == 5) {
    check_one_error_line(as_json, "stopped at --max 5");
  } else {
    CHECK(as_json.err.empty());
  }

  const auto as_tsv =
      genome_run({"--format", "tsv", "genome", "search", seq, "--threshold", "0.3", "--max", "5"});
  REQUIRE(as_tsv.code == 0);
  const auto lines = lines_of(as_tsv.out);
  REQUIRE(lines.size() == expected.results.size() + 1);
  CHECK(mgnify::test::cli::split_tabs(lines[0]) == kSearchHeader);
  for (std::size_t i = 0; i < expected.results.size(); ++i) {
    const auto cells = mgnify::test::cli::split_tabs(lines[i + 1]);
    REQUIRE(cells.size() == kSearchHeader.size());
    const auto& hit = expected.results[i];
    CHECK(cells[0] == "sequence");
    CHECK(cells[1] == hit.cobs.genome);
    CHECK(cells[2] == hit.mgnify.catalogue_id);
    CHECK(cells[5] == json(*hit.cobs.percent_kmers_found).dump());
    CHECK(cells[6] == std::to_string(*hit.cobs.num_kmers_found));
    CHECK(cells[7] == std::to_string(*hit.cobs.num_kmers));
  }

  // A FASTA file of two records, lower case and wrapped: two searches, each as the SDK's.
  mgnify::test::cli::TempDir dir;
  const std::string second = sequence_of(90, 99);
  auto wrapped = [](const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); i += 60) out += s.substr(i, 60) + "\n";
    return out;
  };
  std::string lower = second;
  for (char& c : lower) c = static_cast<char>(c - 'A' + 'a');
  mgnify::test::dl::write_file(dir.path() / "q.fa", ">contig_1 first one\n" + wrapped(seq) +
                                                        ">contig_2\r\n" + wrapped(lower));
  genome_mock().clear_requests();
  const auto fasta =
      genome_run({"--format", "ndjson", "genome", "search", "--fasta",
                  (dir.path() / "q.fa").string(), "--threshold", "0.3", "--catalogue", kCatalogue});
  REQUIRE(fasta.code == 0);
  CHECK(genome_requests() == 2);
  const auto rows = mgnify::test::cli::ndjson_lines(fasta.out);
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"contig_1", seq},
                                   std::pair<std::string, std::string>{"contig_2", lower}}) {
    mgnify::CobsQuery q;
    q.sequence = text;
    q.threshold = 0.3;
    q.catalogues_filter = {kCatalogue};
    const auto want = sdk().genome_search(q);
    std::vector<json> got;
    for (const auto& r : rows) {
      if (r.at("query") == name) got.push_back(r);
    }
    INFO(name);
    REQUIRE(got.size() == want.results.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].at("cobs") == json(want.results[i].cobs));
      CHECK(got[i].at("mgnify").at("catalogue_id") == kCatalogue);
    }
  }
}

TEST_CASE("genome search refuses bad input in one line with exit 2, before any request",
          "[cli][genome]") {
  mgnify::test::cli::TempDir dir;
  mgnify::test::dl::write_file(dir.path() / "empty-record.fa", ">one\nACGT\n>two\n\n");
  mgnify::test::dl::write_file(dir.path() / "protein.fa", ">p\nMEQLP\n");
  mgnify::test::dl::write_file(dir.path() / "blank.fa", "\n\n");
  const std::vector<Refused> cases = {
      {{"genome", "search"}, "give a sequence or --fasta"},
      {{"genome", "search", "ACGTNNXACGT"}, "'X' at position 7 is not a nucleotide"},
      {{"genome", "search", ">seq ACGT"}, "give a FASTA file with --fasta"},
      {{"genome", "search", "  "}, "the sequence is empty"},
      {{"genome", "search", "--fasta", (dir.path() / "missing.fa").string()}, "cannot read"},
      {{"genome", "search", "--fasta", dir.path().string()}, "is a directory"},
      {{"genome", "search", "--fasta", (dir.path() / "empty-record.fa").string()},
       "two has no sequence"},
      {{"genome", "search", "--fasta", (dir.path() / "protein.fa").string()},
       "p: 'E' at position 2"},
      {{"genome", "search", "--fasta", (dir.path() / "blank.fa").string()}, "holds no sequence"},
      {{"genome", "search", "ACGT", "--fasta", (dir.path() / "blank.fa").string()}, "not both"},
      {{"genome", "search", "ACGT", "--threshold", "1.5"}, "--threshold must be a number from 0"},
      {{"genome", "search", "ACGT", "--threshold", "abc"}, "--threshold"},
      {{"genome", "search", "ACGT", "--max", "0"}, "--max for a genome search"},
      {{"genome", "search", "ACGT", "--catalogue", ""}, "--catalogue must not be empty"},
      {{"genome", "search", "ACGT", "--page-size", "5"}, "--page-size"},
  };
  check_refused(cases);
}

TEST_CASE("a genome search that matches nothing still writes the TSV header, and says so",
          "[cli][genome]") {
  // Shorter than one k-mer (31): no genome can match.
  const auto run = genome_run(
      {"--format", "tsv", "genome", "search", sequence_of(20, 3), "--catalogue", kCatalogue});
  CHECK(run.code == 0);
  const auto lines = lines_of(run.out);
  REQUIRE(lines.size() == 1);
  CHECK(mgnify::test::cli::split_tabs(lines[0]) == kSearchHeader);
  check_one_error_line(run, "no genome matched");
  // JSON: an empty array, and the same line.
  const auto as_json = genome_run({"genome", "search", sequence_of(20, 3)});
  CHECK(as_json.code == 0);
  CHECK(json::parse(as_json.out) == json::array());
  check_one_error_line(as_json, "no genome matched");
}

TEST_CASE("a catalogue the service does not list ends genome search and gather with exit 3",
          "[cli][genome]") {
  mgnify::test::cli::TempDir dir;
  const auto signature = signature_file(dir, "s.sig", "unknown-catalogue");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"genome", "search", sequence_of(80, 3), "--catalogue",
                                 "human-gut-v2-0,no-such-catalogue"},
        std::vector<std::string>{"genome", "gather", signature.string(), "--catalogue",
                                 "no-such-catalogue"}}) {
    INFO(args[1]);
    genome_mock().clear_requests();
    const auto run = genome_run(args);
    CHECK(run.code == 3);
    CHECK(run.out.empty());
    check_one_error_line(
        run, "no genome catalogue 'no-such-catalogue'; catalogues: " + std::string(kCatalogue));
    // Refused before the search was sent.
    for (const auto& r : genome_mock().requests()) CHECK(r.method == "GET");
  }
}

// -------------------------------------------------------------- gather ----

TEST_CASE("genome gather prints every result row the SDK reads, as TSV and JSON",
          "[cli][genome][gather]") {
  mgnify::test::cli::TempDir dir;
  const auto signature = signature_file(dir, "sample-1.sig", "sample-1");
  const std::vector<std::string> catalogues = {kCatalogue, "marine-v1-0"};
  const auto expected = sdk_gather(signature, catalogues);
  REQUIRE(expected.size() == 2);

  const auto as_json = genome_run({"--format", "json", "genome", "gather", signature.string(),
                                   "--catalogue", "human-gut-v2-0,marine-v1-0"});
  REQUIRE(as_json.code == 0);
  CHECK(as_json.err.empty());  // no progress into a pipe
  const json records = json::parse(as_json.out);
  std::size_t at = 0;
  for (const auto& [catalogue, results] : expected) {
    for (const auto& row : results.rows) {
      REQUIRE(at < records.size());
      const json& r = records[at++];
      CHECK(r.at("signature_file") == "sample-1.sig");
      CHECK(r.at("catalogue") == catalogue);
      check_cells(r, results, row);
      CHECK(r.at("intersect_bp").is_number_integer());
      // A column sourmash writes and the SDK keeps as text is a number too.
      CHECK(r.at("f_match_orig").is_number());
      CHECK(r.at("md5").is_string());
      CHECK(r.at("average_abund").is_null());
      CHECK(r.at("name") == row.name);
    }
  }
  CHECK(at == records.size());
  CHECK(at == 2 * static_cast<std::size_t>(mgnify::mock::kGatherRows));

  // TSV, with --progress: one stderr line per status poll, none of them terminal escapes.
  const auto as_tsv = genome_run({"--format", "tsv", "genome", "gather", signature.string(),
                                  "--catalogue", kCatalogue, "--progress"});
  REQUIRE(as_tsv.code == 0);
  const auto lines = lines_of(as_tsv.out);
  const auto& results = expected.front().second;
  REQUIRE(lines.size() == results.rows.size() + 1);
  std::vector<std::string> header = {"signature_file", "catalogue"};
  header.insert(header.end(), results.columns.begin(), results.columns.end());
  CHECK(mgnify::test::cli::split_tabs(lines[0]) == header);
  for (std::size_t k = 0; k < results.rows.size(); ++k) {
    const auto cells = mgnify::test::cli::split_tabs(lines[k + 1]);
    REQUIRE(cells.size() == header.size());
    CHECK(cells[1] == kCatalogue);
    CHECK(cells[2 + 9] == results.rows[k].name);  // the CSV's "name" column, a comma in it
  }
  INFO(as_tsv.err);
  CHECK(as_tsv.err.find("gather: job mock-gather-") != std::string::npos);
  CHECK(as_tsv.err.find("QUEUED (position 1), 0/1 searches done") != std::string::npos);
  CHECK(as_tsv.err.find("SUCCESS, 1/1 searches done") != std::string::npos);
  CHECK(as_tsv.err.find('\r') == std::string::npos);
  CHECK(as_tsv.err.find('\x1b') == std::string::npos);
}

TEST_CASE("genome gather draws its progress on a terminal", "[cli][genome][gather][progress]") {
  mgnify::test::cli::TempDir dir;
  const auto signature = signature_file(dir, "s.sig", "tty");
  const auto tty =
      mgnify::test::cli::run_in_terminal(MGNIFY_CLI_PATH,
                                         {"--rate-limit", "0", "--format", "tsv", "genome",
                                          "gather", signature.string(), "--catalogue", kCatalogue},
                                         {"MGNIFY_API_V2_URL=" + genome_mock().v2_url()});
  REQUIRE_FALSE(tty.timed_out);
  CHECK(tty.code == 0);
  CHECK(tty.err.find("\rgather: job mock-gather-") != std::string::npos);
  CHECK(tty.err.find("100%") != std::string::npos);
}

TEST_CASE("genome gather --job collects the results of a job submitted earlier",
          "[cli][genome][gather]") {
  const auto client = sdk();
  mgnify::GatherRequest request;
  request.mag_catalogues = {kCatalogue};
  request.signatures.push_back(
      mgnify::SignatureFile::from_text("later.sig", mgnify::mock::sourmash_signature("later")));
  const auto job = client.submit_gather(request);
  const auto run = genome_run({"--format", "ndjson", "genome", "gather", "--job", job.job_id});
  REQUIRE(run.code == 0);
  const auto rows = mgnify::test::cli::ndjson_lines(run.out);
  REQUIRE(rows.size() == static_cast<std::size_t>(mgnify::mock::kGatherRows));
  for (const auto& r : rows) CHECK(r.at("signature_file") == "later.sig");
}

TEST_CASE("genome gather with no match writes the header and a line; a failed search exits 1",
          "[cli][genome][gather]") {
  mgnify::test::cli::TempDir dir;
  const auto none = signature_file(dir, "none.sig", mgnify::mock::kSignatureNoMatch);
  const auto empty =
      genome_run({"--format", "tsv", "genome", "gather", none.string(), "--catalogue", kCatalogue});
  CHECK(empty.code == 0);
  const auto lines = lines_of(empty.out);
  REQUIRE(lines.size() == 1);
  const auto header = mgnify::test::cli::split_tabs(lines[0]);
  REQUIRE(header.size() > 4);
  CHECK(header[0] == "signature_file");
  CHECK(header[1] == "catalogue");
  CHECK(std::find(header.begin(), header.end(), "f_match") != header.end());
  check_one_error_line(empty, "no genome matched");

  const auto fails = signature_file(dir, "fails.sig", mgnify::mock::kSignatureFails);
  const auto failed = genome_run(
      {"--format", "tsv", "genome", "gather", fails.string(), "--catalogue", kCatalogue});
  CHECK(failed.code == 1);
  check_one_error_line(failed, "fails.sig against human-gut-v2-0: FAILED (sourmash gather exited");
}

TEST_CASE("genome gather refuses bad input in one line with exit 2, before any request",
          "[cli][genome][gather]") {
  mgnify::test::cli::TempDir dir;
  const auto good = signature_file(dir, "good.sig", "good");
  const auto not_json = dir.path() / "reads.fastq";
  mgnify::test::dl::write_file(not_json, "@r1\nACGT\n+\nIIII\n");
  const auto other_json = dir.path() / "other.json";
  mgnify::test::dl::write_file(other_json, "{\"name\": \"x\"}");
  const std::vector<Refused> cases = {
      {{"genome", "gather", "--catalogue", kCatalogue}, "give signature files"},
      {{"genome", "gather", good.string()}, "--catalogue"},
      {{"genome", "gather", (dir.path() / "missing.sig").string(), "--catalogue", kCatalogue},
       "missing or not a regular file"},
      {{"genome", "gather", not_json.string(), "--catalogue", kCatalogue},
       "not a sourmash signature"},
      {{"genome", "gather", other_json.string(), "--catalogue", kCatalogue},
       "not a sourmash signature"},
      {{"genome", "gather", good.string(), "--job", "mock-gather-1"}, "--job collects"},
      {{"genome", "gather", good.string(), "--catalogue", kCatalogue, "--wait", "0"}, "--wait"},
      {{"genome", "gather", good.string(), "--catalogue", kCatalogue, "--max", "3"}, "--max"},
  };
  check_refused(cases);
}

TEST_CASE("Ctrl-C while genome gather waits stops the polling at once and exits 130",
          "[cli][genome][gather][interrupt]") {
  mgnify::test::cli::TempDir dir;
  const auto signature = signature_file(dir, "slow.sig", mgnify::mock::kSignatureNeverFinishes);
  genome_mock().clear_requests();
  // Polls at about 0 s and 1 s, the next one due at 2.5 s: the signal comes between.
  const auto started = std::chrono::steady_clock::now();
  const auto run = genome_run(
      {"--format", "tsv", "genome", "gather", signature.string(), "--catalogue", kCatalogue},
      1800ms);
  const auto took = std::chrono::steady_clock::now() - started;
  CHECK(run.code == 130);
  CHECK(run.out.empty());
  check_one_error_line(run, "interrupted: stopped waiting for gather job mock-gather-");
  CHECK(took < 2500ms);

  std::smatch job;
  REQUIRE(std::regex_search(run.err, job, std::regex("gather job (mock-gather-[0-9]+)")));
  const std::string status_path =
      std::string(mgnify::mock::kV2Prefix) + "/genomes-search/status/" + job[1].str() + "/";
  const std::size_t polls = genome_mock().hits(status_path);
  CHECK(polls >= 1);
  CHECK(polls <= 2);
  // Nothing polls on after the exit.
  std::this_thread::sleep_for(1500ms);
  CHECK(genome_mock().hits(status_path) == polls);

  // The job the message names is still there to collect.
  CHECK(run.err.find("genome gather --job " + job[1].str()) != std::string::npos);
}

TEST_CASE("Ctrl-C during a genome search's request stops it and exits 130",
          "[cli][genome][interrupt]") {
  const std::string path = std::string(mgnify::mock::kV2Prefix) + "/genome-search/";
  genome_mock().push_fault(path, mgnify::mock::Fault::slow(10s));
  const auto started = std::chrono::steady_clock::now();
  const auto run = genome_run({"--format", "tsv", "genome", "search", sequence_of(80, 5)}, 800ms);
  const auto took = std::chrono::steady_clock::now() - started;
  genome_mock().clear_faults();
  CHECK(run.code == 130);
  check_one_error_line(run, "interrupted: 0 of 1 sequences searched");
  // The header is written, so that the file still parses; no hit row.
  const auto lines = lines_of(run.out);
  REQUIRE(lines.size() == 1);
  CHECK(mgnify::test::cli::split_tabs(lines[0]) == kSearchHeader);
  CHECK(took < 5s);
}

TEST_CASE("genome search and gather TSV read back with pandas as docs/cli.md reads them",
          "[cli][genome][roundtrip]") {
  mgnify::test::cli::TempDir dir;
  const auto signature = signature_file(dir, "sample, 1.sig", "sample-1");
  const auto gather = genome_run(
      {"--format", "tsv", "genome", "gather", signature.string(), "--catalogue", kCatalogue});
  REQUIRE(gather.code == 0);
  const auto gather_json = genome_run(
      {"--format", "json", "genome", "gather", signature.string(), "--catalogue", kCatalogue});
  REQUIRE(gather_json.code == 0);
  const std::string seq = sequence_of(100, 11);
  const auto search =
      genome_run({"--format", "tsv", "genome", "search", seq, "--threshold", "0.2"});
  REQUIRE(search.code == 0);
  const auto search_json =
      genome_run({"--format", "json", "genome", "search", seq, "--threshold", "0.2"});
  REQUIRE(search_json.code == 0);

  struct Expect {
    std::string name;
    const mgnify::test::cli::Run& tsv;
    json records;
    std::string key;  // a column whose every cell is compared with the JSON
  };
  const std::vector<Expect> files = {{"gather.tsv", gather, json::parse(gather_json.out), "name"},
                                     {"hits.tsv", search, json::parse(search_json.out), ""}};
  for (const auto& f : files) {
    INFO(f.name);
    REQUIRE_FALSE(f.records.empty());
    const auto path = dir.path() / f.name;
    mgnify::test::dl::write_file(path, f.tsv.out);
    const auto back = mgnify::test::table_readback::read_back("pandas", "tsv", path);
    if (!back.installed) MGNIFY_SKIP_TEST("pandas (python3-pandas) is not installed");
    const auto header = mgnify::test::cli::split_tabs(lines_of(f.tsv.out).front());
    CHECK(back.table.at("columns") == json(header));
    REQUIRE(back.table.at("rows").size() == f.records.size());
    for (std::size_t i = 0; i < f.records.size(); ++i) {
      const json& row = back.table.at("rows")[i];
      if (f.key.empty()) {
        CHECK(row[1] == f.records[i].at("cobs").at("genome"));
        CHECK(row[4] == f.records[i].at("mgnify").at("taxon_lineage"));
      } else {
        CHECK(row[0] == "sample, 1.sig");
        CHECK(row[11] == f.records[i].at(f.key));
      }
    }
  }
}

TEST_CASE("genome gather gives up after --wait with exit 5, naming the job to collect later",
          "[cli][genome][gather]") {
  mgnify::test::cli::TempDir dir;
  const auto signature = signature_file(dir, "slow.sig", mgnify::mock::kSignatureNeverFinishes);
  const auto started = std::chrono::steady_clock::now();
  const auto run = genome_run({"--format", "tsv", "genome", "gather", signature.string(),
                               "--catalogue", kCatalogue, "--wait", "1"});
  CHECK(std::chrono::steady_clock::now() - started < 10s);
  CHECK(run.code == 5);
  CHECK(run.out.empty());
  check_one_error_line(run, "(--wait); `mgnify genome gather --job mock-gather-");
}

TEST_CASE("genome gather of many searches writes each one's rows in the SDK's order and values",
          "[cli][genome][gather][limits]") {
  mgnify::test::cli::TempDir dir;
  const std::vector<std::string> catalogues = {kCatalogue, "marine-v1-0"};
  const std::vector<std::filesystem::path> signatures = {
      signature_file(dir, "a.sig", "sample-a"),
      signature_file(dir, "none.sig", mgnify::mock::kSignatureNoMatch),
      signature_file(dir, "many.sig", std::string(mgnify::mock::kSignatureRowsPrefix) + "7")};
  // The SDK's results, search by search in the job's order.
  std::vector<std::pair<std::string, mgnify::GatherResults>> expected;
  std::vector<std::string> files;
  for (const auto& s : signatures) {
    for (auto& found : sdk_gather(s, catalogues)) {
      files.push_back(s.filename().string());
      expected.push_back(std::move(found));
    }
  }
  REQUIRE(expected.size() == 4);
  CHECK(expected.back().second.rows.size() == 7);

  std::vector<std::string> args = {"--format", "ndjson", "genome", "gather"};
  for (const auto& s : signatures) args.push_back(s.string());
  args.insert(args.end(), {"--catalogue", "human-gut-v2-0,marine-v1-0"});
  const auto run = genome_run(args);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  const auto records = mgnify::test::cli::ndjson_lines(run.out);
  std::size_t at = 0;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const auto& [catalogue, results] = expected[k];
    for (const auto& row : results.rows) {
      REQUIRE(at < records.size());
      const json& r = records[at++];
      CHECK(r.at("signature_file") == files[k]);
      CHECK(r.at("catalogue") == catalogue);
      CHECK(r.size() == results.columns.size() + 2);
      check_cells(r, results, row);
    }
  }
  CHECK(at == records.size());

  // TSV: one header (the SDK's columns after the two that name the search), then every row.
  args[1] = "tsv";
  const auto tsv = genome_run(args);
  REQUIRE(tsv.code == 0);
  const auto lines = lines_of(tsv.out);
  std::vector<std::string> header = {"signature_file", "catalogue"};
  header.insert(header.end(), expected.front().second.columns.begin(),
                expected.front().second.columns.end());
  REQUIRE_FALSE(lines.empty());
  CHECK(mgnify::test::cli::split_tabs(lines[0]) == header);
  CHECK(lines.size() == records.size() + 1);
}

TEST_CASE("genome gather refuses a job of more searches than --max-searches, naming the option",
          "[cli][genome][gather][limits]") {
  mgnify::test::cli::TempDir dir;
  const auto a = signature_file(dir, "a.sig", "sample-a");
  const auto b = signature_file(dir, "b.sig", "sample-b");
  // A new job: signatures x catalogues is known before anything is sent.
  check_refused({{{"genome", "gather", a.string(), b.string(), "--catalogue",
                   "human-gut-v2-0,marine-v1-0", "--max-searches", "3"},
                  "genome gather has 4 searches (signatures x catalogues), more than "
                  "--max-searches 3; raise --max-searches"}});

  // A job submitted earlier: its status tells, before any result is fetched.
  const auto client = sdk();
  mgnify::GatherRequest request;
  request.mag_catalogues = {kCatalogue};
  for (const char* name : {"x.sig", "y.sig", "z.sig"}) {
    request.signatures.push_back(
        mgnify::SignatureFile::from_text(name, mgnify::mock::sourmash_signature(name)));
  }
  const auto job = client.submit_gather(request);
  genome_mock().clear_requests();
  const auto run = genome_run(
      {"--format", "tsv", "genome", "gather", "--job", job.job_id, "--max-searches", "2"});
  CHECK(run.code == 2);
  CHECK(run.out.empty());
  check_one_error_line(run, "gather job " + job.job_id +
                                " has 3 searches (signatures x catalogues), more than "
                                "--max-searches 2; raise --max-searches to collect them");
  CHECK(genome_mock().hits(std::string(mgnify::mock::kV2Prefix) + "/genomes-search/results/" +
                           job.job_id + "-1/") == 0);

  // At the limit the job is collected.
  const auto within = genome_run(
      {"--format", "ndjson", "genome", "gather", "--job", job.job_id, "--max-searches", "3"});
  CHECK(within.code == 0);
  CHECK(mgnify::test::cli::ndjson_lines(within.out).size() ==
        3 * static_cast<std::size_t>(mgnify::mock::kGatherRows));
}

TEST_CASE("a job id the service makes up is not echoed into a command to paste",
          "[cli][genome][gather][hostile]") {
  mgnify::test::cli::TempDir dir;
  const auto signature = signature_file(dir, "s.sig", "sample-s");
  const std::string prefix = mgnify::mock::kV2Prefix;
  for (const std::string id : {"x;touch${IFS}p;#", "x$(touch p)", "x'\"`touch p`"}) {
    INFO(id);
    const json submitted = {{"data",
                             {{"message", "Your search has been submitted."},
                              {"job_id", id},
                              {"status", "QUEUED"},
                              {"children_ids", json::object()},
                              {"signatures_received", {"s.sig"}},
                              {"requested_catalogues", {kCatalogue}},
                              {"status_url", "x"}}}};
    const json running = {{"data",
                           {{"group_id", id},
                            {"status", "RUNNING"},
                            {"signatures", json::array()},
                            {"worker_status", {{"available", true}, {"workers", 1}}}}}};
    genome_mock().push_fault(prefix + "/genomes-search/gather/",
                             mgnify::mock::Fault::status_only(200, submitted.dump()));
    // The status path as the server sees it, encoded or not.
    for (const std::string& path :
         {prefix + "/genomes-search/status/" + id + "/",
          prefix + "/genomes-search/status/" + mgnify::http::encode_path_segment(id) + "/"}) {
      genome_mock().push_faults(path, mgnify::mock::Fault::status_only(200, running.dump()), 5);
    }
    const auto run = genome_run({"--format", "tsv", "genome", "gather", signature.string(),
                                 "--catalogue", kCatalogue, "--wait", "1"});
    genome_mock().clear_faults();
    CHECK(run.code == 5);
    INFO(run.err);
    CHECK(run.err.find("`mgnify genome gather --job") == std::string::npos);
    CHECK(run.err.find("is not of the form a job id takes") != std::string::npos);
  }
}
