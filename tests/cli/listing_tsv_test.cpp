// What `mgnify downloads` and `download` say when a filter matches nothing
// or API v2 publishes no URL for a file, and how TSV rows are laid out: the
// identifier first, fields in the service's order, metadata by key, and a
// warning for a column no record has.

#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_runner.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"
#include "mock/mock_server.hpp"
#include "mock/v2/v2_mock.hpp"
#include "read_table.hpp"
#include "skip.hpp"
#include "support/all_services.hpp"
#include "text_lines.hpp"

using nlohmann::json;

namespace {

mgnify::mock::MockServer& listing_mock() {
  static mgnify::mock::MockServer& server =
      mgnify::test::start_all_services(mgnify::test::WithFiles::yes);
  return server;
}

mgnify::test::cli::Run run_listing(const std::vector<std::string>& args) {
  std::vector<std::string> full = {"--rate-limit", "0", "--retries", "1"};
  full.insert(full.end(), args.begin(), args.end());
  const std::vector<std::string> env = {"MGNIFY_PROTEINS_URL=" + listing_mock().proteins_url(),
                                        "MGNIFY_API_V1_URL=" + listing_mock().v1_url(),
                                        "MGNIFY_API_V2_URL=" + listing_mock().v2_url()};
  auto run = mgnify::test::cli::run_piped(MGNIFY_CLI_PATH, full, env, std::chrono::seconds(120));
  REQUIRE_FALSE(run.timed_out);
  return run;
}

using mgnify::test::text_lines::lines_of;

std::size_t header_index(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  REQUIRE(it != header.end());
  return static_cast<std::size_t>(it - header.begin());
}

std::string comma_joined(const std::set<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

/// "taxonomic_analysis" for "Taxonomic analysis" (the mock's download types
/// are words and single spaces), as -g reads download types.
std::string group_word(std::string text) {
  for (char& c : text)
    c = c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

/// A v2 study whose analyses are all pre-V6 (their files have no URL).
std::string legacy_v2_study() {
  const mgnify::v2::V2Client client(mgnify::test::cli::sdk_options(listing_mock().v2_url()));
  for (const auto& s : client.studies()) {
    const auto analyses = client.study_analyses(s.accession).collect();
    if (analyses.empty()) continue;
    const auto detail = client.analysis(analyses.front().accession);
    if (!detail.downloads.empty() && !detail.downloads.front().has_url()) return s.accession;
  }
  return {};
}

}  // namespace

// ------------------------------------------------------- 0 files matched ----

TEST_CASE("a -p/-g filter that matches nothing names what is available and exits 3",
          "[cli][downloads]") {
  const mgnify::v2::V2Client client(mgnify::test::cli::sdk_options(listing_mock().v2_url()));
  const std::string study = "MGYS00000001";
  std::set<std::string> pipelines;
  const auto analyses = client.study_analyses(study).collect();
  REQUIRE_FALSE(analyses.empty());
  for (const auto& a : analyses) {
    if (a.pipeline_version) pipelines.insert(a.pipeline_version->text);
  }
  REQUIRE(pipelines.count("V5") == 0);
  std::set<std::string> groups;
  for (const auto& d : client.analysis(analyses.front().accession).downloads) {
    if (d.download_group) groups.insert(*d.download_group);
    groups.insert(group_word(d.download_type.text));
  }

  const auto run =
      run_listing({"downloads", study, "-p", "5.0", "-g", "taxonomic_analysis", "--format", "tsv"});
  CHECK(run.code == 3);
  // The manifest's header, and no row.
  REQUIRE(lines_of(run.out).size() == 1);
  CHECK(mgnify::test::cli::split_tabs(lines_of(run.out)[0]).front() == "accession");
  CHECK(run.err == "mgnify: 0 files matched -p 5.0 -g taxonomic_analysis for " + study +
                       "; pipelines available: " + comma_joined(pipelines) +
                       "; groups available: " + comma_joined(groups) + "\n");

  // A group that no file has, with a pipeline that matches: the groups of the files seen.
  // A group MGnify is not known to publish is judged on the study's first
  // analysis, before the listing asks for every analysis.
  const auto analysis_requests = [] {
    std::size_t count = 0;
    for (const auto& r : listing_mock().requests())
      if (r.target.find("/analyses/MGYA") != std::string::npos) ++count;
    return count;
  };
  listing_mock().clear_requests();
  const auto by_group =
      run_listing({"downloads", study, "-g", "no_such_group", "--format", "ndjson"});
  CHECK(by_group.code == 3);
  CHECK(by_group.out.empty());
  CHECK(by_group.err.find("mgnify: 0 files matched -g no_such_group for " + study) == 0);
  CHECK(by_group.err.find("taxonomies.closed_reference.ssu") != std::string::npos);
  CHECK(lines_of(by_group.err).size() == 1);
  CHECK(analysis_requests() == 1);
  REQUIRE(analyses.size() > 1);  // so that the whole listing would have asked for more

  // download says the same, and fetches nothing.
  mgnify::test::cli::TempDir dir;
  const auto fetch = run_listing(
      {"download", study, "-p", "5.0", "--dir", dir.path().string(), "--format", "ndjson"});
  CHECK(fetch.code == 3);
  CHECK(fetch.out.empty());
  CHECK(fetch.err.find("0 files matched -p 5.0 for " + study +
                       "; pipelines available: " + comma_joined(pipelines)) != std::string::npos);
  CHECK(std::filesystem::is_empty(dir.path()));

  // A command that failed leaves no manifest or result file behind, not even a header.
  const auto manifest = dir.path() / "m.tsv";
  const auto listed = run_listing({"downloads", study, "-g", "no_such_group", "--manifest",
                                   manifest.string(), "--format", "tsv"});
  CHECK(listed.code == 3);
  CHECK_FALSE(std::filesystem::exists(manifest));
  const auto results = dir.path() / "r.tsv";
  listing_mock().clear_requests();
  const auto fetched =
      run_listing({"download", study, "-g", "no_such_group", "--results", results.string(), "--dir",
                   dir.path().string(), "--format", "tsv"});
  CHECK(fetched.code == 3);
  CHECK(analysis_requests() == 1);
  CHECK_FALSE(std::filesystem::exists(results));
  // The empty report still has its header.
  REQUIRE(lines_of(fetched.out).size() == 1);
  CHECK(mgnify::test::cli::split_tabs(lines_of(fetched.out)[0]).front() == "accession");
  CHECK(lines_of(fetched.err).size() == 1);

  // v1 spells its groups and pipelines its own way.
  const auto v1 = run_listing({"downloads", "MGYS00000002", "--api", "v1", "-p", "9.0"});
  CHECK(v1.code == 3);
  CHECK(v1.out == "[]\n");
  CHECK(v1.err.find("pipelines available: 4.1, 5.0") != std::string::npos);

  // Without a filter nothing changes: a listing is a listing.
  const auto all = run_listing({"downloads", study, "--format", "ndjson", "--max", "2"});
  CHECK(all.code == 0);
  CHECK(all.err.empty());
  CHECK(mgnify::test::cli::ndjson_lines(all.out).size() == 2);
}

// -------------------------------------------------------- legacy routing ----

TEST_CASE("legacy files without a URL on v2 get one summary line with the v1 command, and exit 3",
          "[cli][download][legacy]") {
  const std::string study = legacy_v2_study();
  REQUIRE_FALSE(study.empty());
  mgnify::test::cli::TempDir dir;
  const auto manifest = (dir.path() / "legacy.tsv").string();
  const auto listed =
      run_listing({"downloads", study, "--manifest", manifest, "--format", "ndjson"});
  REQUIRE(listed.code == 0);
  const auto rows = mgnify::test::cli::ndjson_lines(listed.out);
  REQUIRE(rows.size() > 10);
  std::set<std::string> owners;
  for (const auto& r : rows) owners.insert(r.at("accession").get<std::string>());

  const auto out = (dir.path() / "files").string();
  const auto run =
      run_listing({"download", "--manifest", manifest, "--dir", out, "--format", "ndjson"});
  CHECK(run.code == 3);
  const auto report = mgnify::test::cli::ndjson_lines(run.out);
  CHECK(report.size() == rows.size());
  for (const auto& r : report) CHECK(r.at("status") == "skipped");
  // One line, not one per file.
  REQUIRE(lines_of(run.err).size() == 1);
  std::string loop;
  for (const auto& o : owners) loop += (loop.empty() ? "" : " ") + o;
  CHECK(run.err == "mgnify: " + std::to_string(rows.size()) +
                       " files have no URL on API v2 (pre-V6 results) and API v1 lists none of "
                       "them under the same accession and name; get them with: for a in " +
                       loop + "; do mgnify download \"$a\" --api v1 --dir " + out + "; done\n");
  CHECK_FALSE(std::filesystem::exists(out + "/" + *owners.begin()));

  // From an accession, the command repeats the selection.
  const auto summaries =
      run_listing({"download", study, "--study-summaries", "--dir", out, "--format", "ndjson"});
  CHECK(summaries.code == 3);
  REQUIRE(lines_of(summaries.err).size() == 1);
  CHECK(summaries.err.find("; get them with: mgnify download " + study +
                           " --api v1 --study-summaries --dir " + out + "\n") != std::string::npos);
}

TEST_CASE("the v1 command for legacy files quotes every value and names only real accessions",
          "[cli][download][legacy][hostile]") {
  const std::string study = legacy_v2_study();
  REQUIRE_FALSE(study.empty());
  mgnify::test::cli::TempDir dir;
  const auto manifest = (dir.path() / "legacy.tsv").string();
  REQUIRE(run_listing({"downloads", study, "--manifest", manifest}).code == 0);
  // The manifest's owners replaced by what a hostile listing could hold.
  const std::vector<std::string> hostile = {"ERZ1;touch${IFS}/tmp/P;#", "ERZ$(touch p)",
                                            "x'\"`touch p`"};
  std::ifstream in(manifest, std::ios::binary);
  std::string line;
  std::getline(in, line);
  const auto header = mgnify::test::cli::split_tabs(line);
  const std::size_t accession = header_index(header, "accession");
  std::string edited = line + "\n";
  std::set<std::string> kept;
  for (std::size_t n = 0; std::getline(in, line); ++n) {
    auto cells = mgnify::test::cli::split_tabs(line);
    if (n < hostile.size()) {
      cells[accession] = hostile[n];
    } else {
      kept.insert(cells[accession]);
    }
    for (std::size_t i = 0; i < cells.size(); ++i) edited += (i ? "\t" : "") + cells[i];
    edited += "\n";
  }
  REQUIRE_FALSE(kept.empty());
  in.close();
  mgnify::test::dl::write_file(manifest, edited);

  const auto out = (dir.path() / "it's $(here)").string();
  const auto run = run_listing({"download", "--manifest", manifest, "--dir", out});
  INFO(run.err);
  CHECK(run.code == 3);
  REQUIRE(lines_of(run.err).size() == 1);
  const auto command = run.err.find("get them with: ");
  REQUIRE(command != std::string::npos);
  const std::string pasted = run.err.substr(command);
  for (const auto& h : hostile) CHECK(pasted.find(h) == std::string::npos);
  for (const auto& k : kept) CHECK(pasted.find(k) != std::string::npos);
  CHECK(pasted.find("--dir '" + (dir.path() / "it'\\''s $(here)").string() + "'") !=
        std::string::npos);
  CHECK(run.err.find("the manifest names 3 owners (such as") != std::string::npos);
  CHECK(run.err.find("not an MGYS, MGYA, MGYG or INSDC study accession") != std::string::npos);
}

TEST_CASE("a legacy file API v1 lists under the same analysis and alias is fetched from v1",
          "[cli][download][legacy]") {
  const std::string study = legacy_v2_study();
  REQUIRE_FALSE(study.empty());
  const mgnify::v2::V2Client v2(mgnify::test::cli::sdk_options(listing_mock().v2_url()));
  const mgnify::v1::LegacyClient v1(mgnify::test::cli::sdk_options(listing_mock().v1_url()));
  const std::string analysis = v2.study_analyses(study).collect().front().accession;
  const auto v1_files = v1.analysis_downloads(analysis).collect();
  REQUIRE(v1_files.size() >= 2);

  // As production imports a legacy analysis: the v1 accession and the v1 file
  // aliases, without URLs. The mock's two data sets differ, so the v2 answer
  // is given those aliases for this one request.
  json detail = json(v2.analysis(analysis));
  json legacy_files = json::array();
  for (const auto& f : v1_files) {
    json d = detail.at("downloads").at(0);
    REQUIRE(d.at("url").is_null());
    d["alias"] = f.alias;
    legacy_files.push_back(d);
  }
  detail["downloads"] = legacy_files;
  mgnify::mock::Fault answer;
  answer.status = 200;
  answer.body = detail.dump();
  listing_mock().push_fault(std::string(mgnify::mock::kV2Prefix) + "/analyses/" + analysis, answer);

  mgnify::test::cli::TempDir dir;
  const auto run = run_listing({"download", analysis, "--dir", dir.path().string(), "--format",
                                "ndjson", "--concurrency", "2"});
  CHECK(run.code == 0);
  CHECK(run.err == "mgnify: note: " + std::to_string(v1_files.size()) +
                       " files without a URL on API v2 (pre-V6 results) fetched from API v1\n");
  const auto report = mgnify::test::cli::ndjson_lines(run.out);
  REQUIRE(report.size() == v1_files.size());
  for (std::size_t i = 0; i < report.size(); ++i) {
    CHECK(report[i].at("status") == "downloaded");
    CHECK(report[i].at("alias") == v1_files[i].alias);
    // Verified against the digest v1 publishes.
    REQUIRE(v1_files[i].file_checksum);
    CHECK(report[i].at("checksum").get<std::string>().find(v1_files[i].file_checksum->checksum) !=
          std::string::npos);
    CHECK(std::filesystem::file_size(dir.path() / analysis / v1_files[i].alias) > 0);
  }
}

// ------------------------------------------------------------------- TSV ----

TEST_CASE("TSV puts the identifier first and the fields in the service's order", "[cli][tsv]") {
  const auto search =
      run_listing({"protein", "search", "--pfam", "PF04659", "--max", "3", "--format", "tsv"});
  REQUIRE(search.code == 0);
  const auto search_lines = lines_of(search.out);
  REQUIRE(search_lines.size() == 4);
  CHECK(mgnify::test::cli::split_tabs(search_lines[0]) ==
        std::vector<std::string>{"mgyp", "full_length", "cluster_size"});

  const auto studies = run_listing({"v2", "studies", "list", "--max", "2", "--format", "tsv"});
  REQUIRE(studies.code == 0);
  CHECK(mgnify::test::cli::split_tabs(lines_of(studies.out)[0]) ==
        std::vector<std::string>{"accession", "title", "biome.biome_name", "biome.lineage",
                                 "updated_at"});

  const auto v1_studies = run_listing({"v1", "studies", "list", "--max", "2", "--format", "tsv"});
  REQUIRE(v1_studies.code == 0);
  const auto v1_header = mgnify::test::cli::split_tabs(lines_of(v1_studies.out)[0]);
  CHECK(v1_header.front() == "accession");
  CHECK(v1_header[1] == "id");
  CHECK(v1_header[2] == "type");
  CHECK_FALSE(std::is_sorted(v1_header.begin() + 3, v1_header.end()));
}

TEST_CASE("a list that matched nothing still has its TSV header, and says so on stderr",
          "[cli][tsv][empty]") {
  const auto studies = run_listing(
      {"v2", "studies", "list", "--search", "no study has this title", "--format", "tsv"});
  CHECK(studies.code == 0);
  CHECK(studies.err == "mgnify: note: 0 records matched\n");
  const auto lines = lines_of(studies.out);
  REQUIRE(lines.size() == 1);
  const auto header = mgnify::test::cli::split_tabs(lines[0]);
  // The model's fields, so that a reader gets named columns and no rows.
  CHECK(header.front() == "accession");
  for (const char* field : {"title", "updated_at"}) {
    CHECK(std::count(header.begin(), header.end(), field) == 1);
  }

  const auto v1_studies = run_listing(
      {"v1", "studies", "list", "--search", "no study has this title", "--format", "tsv"});
  CHECK(v1_studies.code == 0);
  CHECK(v1_studies.err == "mgnify: note: 0 records matched\n");
  REQUIRE(lines_of(v1_studies.out).size() == 1);
  const auto v1_header = mgnify::test::cli::split_tabs(lines_of(v1_studies.out)[0]);
  REQUIRE(v1_header.size() > 3);
  CHECK(std::vector<std::string>(v1_header.begin(), v1_header.begin() + 3) ==
        std::vector<std::string>{"accession", "id", "type"});

  const auto search =
      run_listing({"protein", "search", "--pfam", "PF99999", "--max", "3", "--format", "tsv"});
  CHECK(search.code == 0);
  CHECK(search.err == "mgnify: note: 0 proteins matched\n");
  CHECK(search.out == "mgyp\tfull_length\tcluster_size\n");

  const auto as_json =
      run_listing({"v2", "studies", "list", "--search", "no study has this title"});
  CHECK(as_json.code == 0);
  CHECK(json::parse(as_json.out) == json::array());
  CHECK(as_json.err == "mgnify: note: 0 records matched\n");
}

TEST_CASE("sample TSV keeps the biome and the metadata, which --columns names by key",
          "[cli][tsv]") {
  const mgnify::v1::LegacyClient v1(mgnify::test::cli::sdk_options(listing_mock().v1_url()));
  mgnify::ListOptions first;
  first.max_items = 4;
  const auto samples = v1.samples({}, first).collect();
  REQUIRE(samples.size() == 4);

  const auto run = run_listing({"v1", "samples", "list", "--max", "4", "--format", "tsv"});
  REQUIRE(run.code == 0);
  // The fourth sample has a key the first lacks: its column is not in the
  // header, which is written before the fourth sample arrives, and that is said.
  REQUIRE(samples[3].metadata("host body site"));
  REQUIRE_FALSE(samples[0].metadata("host body site"));
  CHECK(run.err ==
        "mgnify: warning: 1 field that only later records have got no column (metadata.host body "
        "site): name them with --columns, or use samples-table\n");
  const auto lines = lines_of(run.out);
  REQUIRE(lines.size() == 5);
  const auto header = mgnify::test::cli::split_tabs(lines[0]);
  CHECK(header.front() == "accession");
  const auto biome = header_index(header, "biome");
  const auto temperature = header_index(header, "metadata.temperature");
  const auto unit = header_index(header, "metadata.temperature.unit");
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const auto cells = mgnify::test::cli::split_tabs(lines[i + 1]);
    CHECK(cells[biome] == samples[i].biome_lineage().value());
    REQUIRE(samples[i].metadata("temperature"));
    CHECK(cells[temperature] == samples[i].metadata("temperature")->value);
    CHECK(cells[unit] == samples[i].metadata("temperature")->unit.value());
  }

  const auto picked = run_listing({"v1", "samples", "list", "--max", "4", "--format", "tsv",
                                   "--columns", "accession,metadata.depth,biome"});
  REQUIRE(picked.code == 0);
  CHECK(picked.err.empty());
  const auto picked_lines = lines_of(picked.out);
  REQUIRE(picked_lines.size() == 5);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    CHECK(mgnify::test::cli::split_tabs(picked_lines[i + 1]) ==
          std::vector<std::string>{samples[i].accession, samples[i].metadata("depth")->value,
                                   samples[i].biome_lineage().value()});
  }

  // v2 sample details carry metadata as an object: the same syntax names it.
  const mgnify::v2::V2Client v2(mgnify::test::cli::sdk_options(listing_mock().v2_url()));
  const auto sample = v2.sample("SAMEA1000000");
  const auto v2_run = run_listing({"v2", "samples", "get", "SAMEA1000000", "--format", "tsv",
                                   "--columns", "accession,metadata.temperature,biome.lineage"});
  REQUIRE(v2_run.code == 0);
  CHECK(v2_run.err.empty());
  const json sample_json = json(sample);
  CHECK(v2_run.out == "accession\tmetadata.temperature\tbiome.lineage\n" + sample.accession + "\t" +
                          sample_json.at("metadata").at("temperature").get<std::string>() + "\t" +
                          sample_json.at("biome").at("lineage").get<std::string>() + "\n");
}

TEST_CASE("a --columns name no record has is a one-line warning", "[cli][tsv]") {
  const auto run = run_listing(
      {"v2", "studies", "list", "--max", "2", "--format", "tsv", "--columns", "accession,titel"});
  CHECK(run.code == 0);
  CHECK(run.err ==
        "mgnify: warning: no record has a field 'titel' (--columns); its cells are empty\n");
  const auto lines = lines_of(run.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "accession\ttitel");

  // A field that is null in some records is not unknown.
  const auto known = run_listing({"v2", "samples", "list", "--max", "6", "--format", "tsv",
                                  "--columns", "accession,sample_title"});
  CHECK(known.code == 0);
  CHECK(known.err.empty());
}

TEST_CASE("listing TSV neutralises a formula in submitter text, not a negative number",
          "[cli][tsv][formula]") {
  const auto& d = mgnify::mock::v2data::dataset();
  json sample = d.samples.front().with_metadata;
  const std::string accession = sample.at("accession");
  sample["sample_title"] = "=cmd|' /C calc'!A0";
  sample["metadata"]["temperature"] = "-4.5";
  const std::string path = std::string(mgnify::mock::kV2Prefix) + "/samples/" + accession;
  const std::vector<std::string> args = {
      "v2",       "samples", "get",       accession,
      "--format", "tsv",     "--columns", "accession,sample_title,metadata.temperature"};
  listing_mock().push_fault(path, mgnify::mock::Fault::status_only(200, sample.dump()));
  const auto run = run_listing(args);
  REQUIRE(run.code == 0);
  CHECK(run.out == "accession\tsample_title\tmetadata.temperature\n" + accession +
                       "\t'=cmd|' /C calc'!A0\t-4.5\n");

  std::vector<std::string> off = {"--no-formula-guard"};
  off.insert(off.end(), args.begin(), args.end());
  listing_mock().push_fault(path, mgnify::mock::Fault::status_only(200, sample.dump()));
  const auto raw = run_listing(off);
  REQUIRE(raw.code == 0);
  CHECK(raw.out == "accession\tsample_title\tmetadata.temperature\n" + accession +
                       "\t=cmd|' /C calc'!A0\t-4.5\n");
}

TEST_CASE("listing TSV reads back through Python csv, pandas, readr and read.delim, hostile titles",
          "[cli][tsv][roundtrip]") {
  const std::string path = std::string(mgnify::mock::kV2Prefix) + "/studies/";
  json page = mgnify::test::cli::mock_body(listing_mock(), path + "?page_size=3");
  REQUIRE(page.at("items").size() == 3);
  const std::vector<std::string> titles = {"\"Quoted\" at the start", "tab\there, C:\\dir\\x",
                                           "two\r\nlines"};
  for (std::size_t i = 0; i < titles.size(); ++i) page["items"][i]["title"] = titles[i];
  listing_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page.dump()));
  const auto run = run_listing({"v2", "studies", "list", "--max", "3", "--page-size", "3",
                                "--format", "tsv", "--columns", "accession,title"});
  REQUIRE(run.code == 0);

  char pattern[] = "/tmp/mgnify-listing-XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  const std::filesystem::path dir = pattern;
  const auto file = dir / "studies.tsv";
  std::ofstream(file, std::ios::binary) << run.out;
  // Python's csv and pandas, readr with trim_ws = FALSE and read.delim; read.delim
  // turns the CRLF inside the quoted title into LF (see docs/cli.md).
  // Every reader runs before any check: a skip reported after checks would
  // report their failures as skipped too.
  const std::vector<std::string> readers = {"csv", "pandas", "readr-exact", "read.delim"};
  std::vector<json> tables;
  for (const auto& reader : readers) {
    auto read = mgnify::test::table_readback::read_back(reader, "tsv", file);
    if (!read.installed) {
      std::filesystem::remove_all(dir);
      MGNIFY_SKIP_TEST(reader << " is not installed (python3-pandas, r-base-core, r-cran-readr)");
    }
    tables.push_back(std::move(read.table));
  }
  for (std::size_t r = 0; r < readers.size(); ++r) {
    const std::string& reader = readers[r];
    INFO(reader);
    const json& back = tables[r];
    CHECK(back.at("columns") == json({"accession", "title"}));
    REQUIRE(back.at("rows").size() == 3);
    for (std::size_t i = 0; i < titles.size(); ++i) {
      CHECK(back.at("rows")[i][0] == page["items"][i]["accession"]);
      CHECK(back.at("rows")[i][1] == (reader == "read.delim" && i == 2 ? "two\nlines" : titles[i]));
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a listing's TSV header comes from the model: the same for 0, 1 or N records",
          "[cli][tsv][empty][schema]") {
  const auto header_of = [](const std::vector<std::string>& args) {
    const auto run = run_listing(args);
    REQUIRE(run.code == 0);
    const auto lines = lines_of(run.out);
    REQUIRE_FALSE(lines.empty());
    return mgnify::test::cli::split_tabs(lines[0]);
  };
  const auto none = header_of(
      {"v2", "studies", "list", "--search", "no study has this title", "--format", "tsv"});
  CHECK(none == std::vector<std::string>{"accession", "title", "biome.biome_name", "biome.lineage",
                                         "updated_at"});
  CHECK(header_of({"v2", "studies", "list", "--max", "1", "--format", "tsv"}) == none);
  CHECK(header_of({"v2", "studies", "list", "--max", "3", "--format", "tsv"}) == none);

  // v1: the attributes of the model, whatever the first record leaves out,
  // then the ids of the relationships the model lists as arriving with them.
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> v1_lists = {
      {{"v1", "studies", "list", "--search", "no study has this title"}, {"biomes"}},
      {{"v1", "samples", "list", "--search", "no sample has this name"}, {"biome", "studies"}},
      {{"v1", "runs", "list", "--param", "sample_accession=ERS0000000000"},
       {"assemblies", "pipelines", "sample", "study"}},
      {{"v1", "analyses", "list", "--param", "sample_accession=ERS0000000000"},
       {"assembly", "run", "sample", "study"}},
  };
  for (const auto& [empty, relationships] : v1_lists) {
    INFO(empty[1]);
    auto none_args = empty;
    none_args.insert(none_args.end(), {"--format", "tsv"});
    const auto v1_none = header_of(none_args);
    CHECK(v1_none.front() == "accession");
    CHECK(std::vector<std::string>(v1_none.end() - static_cast<long>(relationships.size()),
                                   v1_none.end()) == relationships);
    for (const char* max : {"1", "3"}) {
      const auto v1_some = header_of({"v1", empty[1], "list", "--max", max, "--format", "tsv"});
      REQUIRE(v1_some.size() >= v1_none.size());
      CHECK(std::vector<std::string>(
                v1_some.begin(), v1_some.begin() + static_cast<long>(v1_none.size())) == v1_none);
      // Metadata keys are the records' own (samples-table has them all):
      // they follow the model's columns, and nothing else does.
      for (auto extra = v1_some.begin() + static_cast<long>(v1_none.size()); extra != v1_some.end();
           ++extra) {
        CHECK_THAT(*extra, Catch::StartsWith("metadata."));
      }
    }
  }
}

TEST_CASE("listing JSON writes a number a double would respell as the service sent it",
          "[cli][json][numbers]") {
  const std::vector<std::string> sent = {"1.50", "1e3", "-0", "0.12345678901234567890",
                                         "123456789012345678901234567890"};
  std::string members;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    members += ",\"n" + std::to_string(i) + "\":" + sent[i];
  }
  const std::string v2_page =
      R"({"count":1,"items":[{"accession":"MGYS00000001","title":"t","biome":null,)"
      R"("updated_at":"2024-01-01T00:00:00Z","ena_accessions":[])" +
      members + "}]}";
  const std::string v1_page =
      R"({"data":[{"type":"studies","id":"MGYS00000001","attributes":{"accession":"MGYS00000001",)"
      R"("study-name":"t")" +
      members +
      R"(},"relationships":{},"links":{"self":"x"}}],"links":{"next":null},)"
      R"("meta":{"pagination":{"page":1,"pages":1,"count":1}}})";
  const std::vector<std::pair<std::string, std::string>> services = {
      {std::string(mgnify::mock::kV2Prefix) + "/studies/", v2_page},
      {std::string(mgnify::mock::kV1Prefix) + "/studies", v1_page}};
  for (const auto& [path, page] : services) {
    const std::string api = path.find(mgnify::mock::kV2Prefix) == 0 ? "v2" : "v1";
    for (const std::string format : {"json", "ndjson"}) {
      CAPTURE(api, format);
      listing_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page));
      const auto run = run_listing({api, "studies", "list", "--max", "1", "--format", format});
      listing_mock().clear_faults();
      REQUIRE(run.code == 0);
      for (std::size_t i = 0; i < sent.size(); ++i) {
        CAPTURE(sent[i]);
        CHECK(run.out.find("\"n" + std::to_string(i) + "\":" + sent[i]) != std::string::npos);
      }
      // The values read back as the service's.
      const json record =
          format == "json" ? json::parse(run.out).at(0) : json::parse(lines_of(run.out).at(0));
      const json& holder = api == "v2" ? record : record.at("attributes");
      CHECK(holder.at("n0") == 1.5);
      CHECK(holder.at("n1") == 1000.0);
    }
    // TSV cells are text: the same digits.
    listing_mock().push_fault(path, mgnify::mock::Fault::status_only(200, page));
    const auto tsv = run_listing({api, "studies", "list", "--max", "1", "--format", "tsv"});
    listing_mock().clear_faults();
    REQUIRE(tsv.code == 0);
    const auto lines = lines_of(tsv.out);
    REQUIRE(lines.size() == 2);
    const auto header = mgnify::test::cli::split_tabs(lines[0]);
    const auto row = mgnify::test::cli::split_tabs(lines[1]);
    for (std::size_t i = 0; i < sent.size(); ++i) {
      CAPTURE(api, sent[i]);
      CHECK(row.at(header_index(header, "n" + std::to_string(i))) == sent[i]);
    }
  }

  // One record (`get`), decoded through nlohmann, keeps them too.
  const std::string v2_study =
      R"({"accession":"MGYS00000001","title":"t","biome":null,"updated_at":"2024-01-01T00:00:00Z",)"
      R"("ena_accessions":[],"downloads":[],"metadata":{})" +
      members + "}";
  const std::string v1_study =
      R"({"data":{"type":"studies","id":"MGYS00000001","attributes":{"accession":"MGYS00000001",)"
      R"("study-name":"t")" +
      members + R"(},"relationships":{},"links":{"self":"x"}}})";
  const std::vector<std::pair<std::string, std::string>> records = {
      {std::string(mgnify::mock::kV2Prefix) + "/studies/MGYS00000001", v2_study},
      {std::string(mgnify::mock::kV1Prefix) + "/studies/MGYS00000001", v1_study}};
  for (const auto& [path, body] : records) {
    const std::string api = path.find(mgnify::mock::kV2Prefix) == 0 ? "v2" : "v1";
    CAPTURE(api);
    listing_mock().push_fault(path, mgnify::mock::Fault::status_only(200, body));
    const auto run = run_listing({api, "studies", "get", "MGYS00000001", "--format", "ndjson"});
    listing_mock().clear_faults();
    REQUIRE(run.code == 0);
    for (std::size_t i = 0; i < sent.size(); ++i) {
      CAPTURE(sent[i]);
      CHECK(run.out.find("\"n" + std::to_string(i) + "\":" + sent[i]) != std::string::npos);
    }
  }
}
