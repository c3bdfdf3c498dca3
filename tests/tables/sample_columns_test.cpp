// A matrix by analysis turned into one by sample (the several-analyses rule),
// its column metadata, and the BIOM file that results as the BIOM validator,
// biom.load_table and phyloseq::import_biom read it.

#include "mgnify/tables/sample_columns.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mgnify/tables/biom.hpp"
#include "skip.hpp"
#include "tables/biom_readers.hpp"
#include "temp_dir.hpp"

namespace tables = mgnify::tables;

namespace {

/// Four analyses: MGYA3 and MGYA1 of sample S1 (in that order), MGYA2 of S2,
/// MGYA4 of no known sample.
tables::AbundanceMatrix four_analyses() {
  tables::AbundanceMatrix m;
  m.add("MGYA3", tables::parse_summary("5\tsk__Bacteria\tp__Bacillota\n2\tsk__Archaea\n", "3"));
  m.add("MGYA2", tables::parse_summary("7\tsk__Bacteria\tp__Bacillota\n", "2"));
  m.add("MGYA1", tables::parse_summary("1\tsk__Bacteria\tp__Bacillota\n4\tsk__Eukaryota\n", "1"));
  m.add("MGYA4", tables::parse_summary("9\tsk__Archaea\n", "4"));
  return m;
}

std::vector<tables::AnalysisOrigin> four_origins() {
  return {{"MGYA1", "MGYS1", "S1", "ERR1", "Metagenomic", "V6"},
          {"MGYA2", "MGYS1", "S2", "ERR2", "Amplicon", "V6"},
          {"MGYA3", "MGYS1", "S1", "ERR3", "Metagenomic", "V6"},
          {"MGYA4", "MGYS1", "", "", "Assembly", "V6"}};
}

double count_of(const tables::AbundanceMatrix& m, const std::string& feature,
                const std::string& column) {
  for (std::size_t r = 0; r < m.feature_count(); ++r) {
    if (m.feature(r) != feature) continue;
    for (std::size_t c = 0; c < m.analyses().size(); ++c)
      if (m.analyses()[c] == column) return m.count(r, c);
  }
  FAIL("no cell " << feature << " / " << column);
  return -1;
}

std::vector<std::string> features_of(const tables::AbundanceMatrix& m) {
  std::vector<std::string> out;
  for (std::size_t r = 0; r < m.feature_count(); ++r) out.push_back(m.feature(r));
  return out;
}

}  // namespace

TEST_CASE("by sample, pool: a sample's distinct runs become one column of summed counts",
          "[tables][samples][by_sample]") {
  const auto shaped =
      tables::by_sample(four_analyses(), four_origins(), tables::SampleMerge::pool_runs);
  CHECK(shaped.matrix.analyses() == std::vector<std::string>{"S1", "S2", "MGYA4"});
  REQUIRE(shaped.columns.size() == 3);
  CHECK(shaped.columns[0].analyses == std::vector<std::string>{"MGYA1", "MGYA3"});
  CHECK(shaped.columns[0].used == shaped.columns[0].analyses);
  CHECK(shaped.columns[2].sample.empty());
  CHECK(count_of(shaped.matrix, "sk__Bacteria;p__Bacillota", "S1") == 6);
  CHECK(count_of(shaped.matrix, "sk__Bacteria;p__Bacillota", "S2") == 7);
  CHECK(count_of(shaped.matrix, "sk__Archaea", "S1") == 2);
  CHECK(count_of(shaped.matrix, "sk__Archaea", "MGYA4") == 9);
  CHECK(count_of(shaped.matrix, "sk__Eukaryota", "S1") == 4);
  // Rows keep the order of the matrix by analysis.
  CHECK(features_of(shaped.matrix) ==
        std::vector<std::string>{"sk__Bacteria;p__Bacillota", "sk__Archaea", "sk__Eukaryota"});
}

TEST_CASE("by sample, first and last: one analysis per sample by accession, the rest named",
          "[tables][samples][by_sample]") {
  const auto first = tables::by_sample(four_analyses(), four_origins(), tables::SampleMerge::first);
  CHECK(first.columns[0].used == std::vector<std::string>{"MGYA1"});
  CHECK(first.columns[0].analyses == std::vector<std::string>{"MGYA1", "MGYA3"});
  CHECK(count_of(first.matrix, "sk__Bacteria;p__Bacillota", "S1") == 1);
  CHECK(count_of(first.matrix, "sk__Eukaryota", "S1") == 4);
  CHECK(count_of(first.matrix, "sk__Archaea", "S1") == 0);  // MGYA3's, left out

  const auto last = tables::by_sample(four_analyses(), four_origins(), tables::SampleMerge::last);
  CHECK(last.columns[0].used == std::vector<std::string>{"MGYA3"});
  CHECK(count_of(last.matrix, "sk__Bacteria;p__Bacillota", "S1") == 5);
  CHECK(count_of(last.matrix, "sk__Archaea", "S1") == 2);
  // Only MGYA1 (left out) found Eukaryota: no column has it, so no row does.
  CHECK(features_of(last.matrix) ==
        std::vector<std::string>{"sk__Bacteria;p__Bacillota", "sk__Archaea"});
}

TEST_CASE("column metadata: the same keys in every column, accessions, then the sample fields",
          "[tables][samples][metadata]") {
  const auto shaped =
      tables::by_sample(four_analyses(), four_origins(), tables::SampleMerge::pool_runs);
  tables::Table samples;
  samples.columns = {"accession", "sample_title", "run_accession", "ph"};
  samples.rows = {{std::string("S2"), std::string("soil"), std::string("x"), std::nullopt},
                  {std::string("S1"), std::string("lake"), std::nullopt, std::string("7")}};
  const auto metadata = tables::column_metadata(shaped.columns, four_origins(), {samples});
  REQUIRE(metadata.size() == 3);
  const std::vector<std::string> keys = {
      "study_accession", "sample_accession", "run_accession",          "analysis_accession",
      "experiment_type", "sample_title",     "run_accession (sample)", "ph"};
  for (const auto& object : metadata) {
    std::vector<std::string> got;
    for (auto it = object.begin(); it != object.end(); ++it) {
      got.push_back(it.key());
      CHECK(it.value().is_string());
    }
    CHECK(got == keys);
  }
  CHECK(metadata[0]["sample_accession"] == "S1");
  CHECK(metadata[0]["run_accession"] == "ERR1,ERR3");
  CHECK(metadata[0]["analysis_accession"] == "MGYA1,MGYA3");
  CHECK(metadata[0]["experiment_type"] == "Metagenomic");
  CHECK(metadata[0]["sample_title"] == "lake");
  CHECK(metadata[0]["ph"] == "7");
  CHECK(metadata[0]["run_accession (sample)"] == "");
  CHECK(metadata[1]["run_accession (sample)"] == "x");
  CHECK(metadata[1]["ph"] == "");
  CHECK(metadata[2]["sample_accession"] == "");
  CHECK(metadata[2]["analysis_accession"] == "MGYA4");
  CHECK(metadata[2]["sample_title"] == "");

  // By analysis, each column is one analysis and names its own run.
  const auto by_analysis = tables::column_metadata(
      tables::analysis_columns(four_analyses(), four_origins()), four_origins(), {samples});
  REQUIRE(by_analysis.size() == 4);
  CHECK(by_analysis[0]["analysis_accession"] == "MGYA3");
  CHECK(by_analysis[0]["run_accession"] == "ERR3");
  CHECK(by_analysis[0]["sample_title"] == "lake");
}

namespace {

/// One file's counts, as the service serves it for every analysis of a run.
const char* const kRunFile = "451\tsk__Bacteria\tp__Bacillota\n12\tsk__Archaea\n3\tsk__Eukaryota\n";

std::vector<std::string> ids_of(const std::vector<tables::LeftOut>& left_out) {
  std::vector<std::string> out;
  for (const auto& l : left_out) out.push_back(l.analysis + ">" + l.kept);
  return out;
}

}  // namespace

TEST_CASE("pool: a run analysed five times is counted once, the newest analysis kept",
          "[tables][samples][by_sample][several]") {
  tables::AbundanceMatrix m;
  std::vector<tables::AnalysisOrigin> origins;
  for (const char* a :
       {"MGYA00000011", "MGYA00000012", "MGYA00000013", "MGYA00000014", "MGYA00000015"}) {
    m.add(a, tables::parse_summary(kRunFile, a));
    origins.push_back({a, "MGYS2", "ERS1", "ERR1", "amplicon", "V6"});
  }
  const auto shaped = tables::by_sample(m, origins);
  REQUIRE(shaped.columns.size() == 1);
  const auto& column = shaped.columns[0];
  CHECK(column.id == "ERS1");
  CHECK(column.used == std::vector<std::string>{"MGYA00000015"});
  CHECK(column.analyses.size() == 5);
  REQUIRE(column.left_out.size() == 4);
  for (const auto& l : column.left_out) {
    CHECK(l.kept == "MGYA00000015");
    CHECK(l.reason == tables::LeftOut::Reason::same_run);
  }
  // Every cell is the file's own count, not five times it.
  CHECK(count_of(shaped.matrix, "sk__Bacteria;p__Bacillota", "ERS1") == 451);
  CHECK(count_of(shaped.matrix, "sk__Archaea", "ERS1") == 12);
  CHECK(count_of(shaped.matrix, "sk__Eukaryota", "ERS1") == 3);
}

TEST_CASE("pool: of one run's analyses the newest pipeline wins over the newest accession",
          "[tables][samples][by_sample][several]") {
  tables::AbundanceMatrix m;
  m.add("MGYA00000002", tables::parse_summary("10\tsk__Bacteria\n", "2"));
  m.add("MGYA00000009", tables::parse_summary("7\tsk__Bacteria\n", "9"));
  m.add("MGYA00000005", tables::parse_summary("8\tsk__Bacteria\n", "5"));
  const std::vector<tables::AnalysisOrigin> origins = {
      {"MGYA00000002", "MGYS1", "ERS1", "ERR1", "metagenomic", "V6.1"},
      {"MGYA00000009", "MGYS1", "ERS1", "ERR1", "metagenomic", "5.0"},
      {"MGYA00000005", "MGYS1", "ERS1", "ERR1", "metagenomic", "V6"}};
  const auto shaped = tables::by_sample(m, origins);
  REQUIRE(shaped.columns.size() == 1);
  CHECK(shaped.columns[0].used == std::vector<std::string>{"MGYA00000002"});
  CHECK(ids_of(shaped.columns[0].left_out) ==
        std::vector<std::string>{"MGYA00000005>MGYA00000002", "MGYA00000009>MGYA00000002"});
  CHECK(count_of(shaped.matrix, "sk__Bacteria", "ERS1") == 10);

  CHECK(tables::older_pipeline("4.1", "5.0"));
  CHECK(tables::older_pipeline("5.0", "V6"));
  CHECK(tables::older_pipeline("V6", "V6.1"));
  CHECK(tables::older_pipeline("V9", "V10"));
  CHECK(tables::older_pipeline("", "4.1"));
  CHECK_FALSE(tables::older_pipeline("V6.1", "V6"));
  CHECK_FALSE(tables::older_pipeline("V6", "V6"));
  CHECK_FALSE(tables::older_pipeline("", ""));
}

TEST_CASE("pool: two runs of one type are summed, cell by cell",
          "[tables][samples][by_sample][several]") {
  tables::AbundanceMatrix m;
  m.add("MGYA00000001", tables::parse_summary("5\tsk__Bacteria\n2\tsk__Archaea\n", "1"));
  m.add("MGYA00000002", tables::parse_summary("7\tsk__Bacteria\n4\tsk__Eukaryota\n", "2"));
  const std::vector<tables::AnalysisOrigin> origins = {
      {"MGYA00000001", "MGYS1", "ERS1", "ERR1", "metagenomic", "V6"},
      {"MGYA00000002", "MGYS1", "ERS1", "ERR2", "metagenomic", "V6"}};
  const auto shaped = tables::by_sample(m, origins);
  REQUIRE(shaped.columns.size() == 1);
  CHECK(shaped.columns[0].used == std::vector<std::string>{"MGYA00000001", "MGYA00000002"});
  CHECK(shaped.columns[0].left_out.empty());
  CHECK(count_of(shaped.matrix, "sk__Bacteria", "ERS1") == 12);
  CHECK(count_of(shaped.matrix, "sk__Archaea", "ERS1") == 2);
  CHECK(count_of(shaped.matrix, "sk__Eukaryota", "ERS1") == 4);
}

TEST_CASE("pool: the same counts under two runs are one file, counted once",
          "[tables][samples][by_sample][several]") {
  tables::AbundanceMatrix m;
  m.add("MGYA00000001", tables::parse_summary(kRunFile, "1"));
  m.add("MGYA00000002", tables::parse_summary(kRunFile, "2"));
  const std::vector<tables::AnalysisOrigin> origins = {
      {"MGYA00000001", "MGYS1", "ERS1", "ERR1", "amplicon", "V6"},
      {"MGYA00000002", "MGYS1", "ERS1", "ERR2", "amplicon", "V6"}};
  const auto shaped = tables::by_sample(m, origins);
  REQUIRE(shaped.columns.size() == 1);
  CHECK(shaped.columns[0].used == std::vector<std::string>{"MGYA00000002"});
  REQUIRE(shaped.columns[0].left_out.size() == 1);
  CHECK(shaped.columns[0].left_out[0].reason == tables::LeftOut::Reason::identical_counts);
  CHECK(count_of(shaped.matrix, "sk__Bacteria;p__Bacillota", "ERS1") == 451);
}

TEST_CASE("pool: an amplicon run and a metagenome of one sample are two columns, never summed",
          "[tables][samples][by_sample][several]") {
  tables::AbundanceMatrix m;
  m.add("MGYA00000001", tables::parse_summary("5\tsk__Bacteria\n2\tsk__Archaea\n", "1"));
  m.add("MGYA00000002", tables::parse_summary("70\tsk__Bacteria\n40\tsk__Eukaryota\n", "2"));
  m.add("MGYA00000003", tables::parse_summary("9\tsk__Bacteria\n", "3"));
  const std::vector<tables::AnalysisOrigin> origins = {
      {"MGYA00000001", "MGYS1", "ERS1", "ERR1", "amplicon", "V6"},
      {"MGYA00000002", "MGYS1", "ERS1", "ERR2", "metagenomic", "V6"},
      {"MGYA00000003", "MGYS1", "ERS2", "ERR3", "amplicon", "V6"}};
  const auto shaped = tables::by_sample(m, origins);
  CHECK(shaped.matrix.analyses() ==
        std::vector<std::string>{"ERS1_amplicon", "ERS1_metagenomic", "ERS2"});
  REQUIRE(shaped.columns.size() == 3);
  CHECK(shaped.columns[0].sample == "ERS1");
  CHECK(shaped.columns[0].experiment_type == "amplicon");
  CHECK(shaped.columns[0].used == std::vector<std::string>{"MGYA00000001"});
  CHECK(shaped.columns[1].experiment_type == "metagenomic");
  CHECK(shaped.columns[1].used == std::vector<std::string>{"MGYA00000002"});
  CHECK(shaped.columns[2].experiment_type.empty());
  CHECK(count_of(shaped.matrix, "sk__Bacteria", "ERS1_amplicon") == 5);
  CHECK(count_of(shaped.matrix, "sk__Archaea", "ERS1_amplicon") == 2);
  CHECK(count_of(shaped.matrix, "sk__Eukaryota", "ERS1_amplicon") == 0);
  CHECK(count_of(shaped.matrix, "sk__Bacteria", "ERS1_metagenomic") == 70);
  CHECK(count_of(shaped.matrix, "sk__Eukaryota", "ERS1_metagenomic") == 40);
  CHECK(count_of(shaped.matrix, "sk__Bacteria", "ERS2") == 9);
  // Each column's metadata names its own analyses, type and the sample's fields.
  tables::Table samples;
  samples.columns = {"accession", "sample_title"};
  samples.rows = {{std::string("ERS1"), std::string("lake")}};
  const auto metadata = tables::column_metadata(shaped.columns, origins, {samples});
  CHECK(metadata[0]["analysis_accession"] == "MGYA00000001");
  CHECK(metadata[0]["experiment_type"] == "amplicon");
  CHECK(metadata[0]["sample_title"] == "lake");
  CHECK(metadata[1]["analysis_accession"] == "MGYA00000002");
  CHECK(metadata[1]["experiment_type"] == "metagenomic");
  CHECK(metadata[1]["sample_title"] == "lake");
}

TEST_CASE("column metadata from sparse sample tables equals that from text tables; it is bounded",
          "[tables][samples][metadata][limits]") {
  const auto shaped = tables::by_sample(four_analyses(), four_origins());
  tables::SampleMetadataTable sparse({"accession", "sample_title"});
  sparse.add({"S2", "soil"}, {{"ph", 6, std::nullopt}});
  sparse.add({"S1", nullptr}, {{"depth", "5", std::string("m")}, {"ph", "7", std::nullopt}});
  const auto from_sparse = tables::column_metadata(shaped.columns, four_origins(), {sparse});
  const auto from_text = tables::column_metadata(shaped.columns, four_origins(), {sparse.table()});
  CHECK(from_sparse == from_text);
  CHECK(from_sparse[0]["depth (m)"] == "5");
  CHECK(from_sparse[1]["ph"] == "6");
  tables::TableLimits limits;
  limits.max_cells = 3 * 8 - 1;  // 3 columns x 8 keys
  CHECK_THROWS_AS(tables::column_metadata(shaped.columns, four_origins(), {sparse}, limits),
                  tables::TableLimitError);
  limits.max_cells = 3 * 8;
  CHECK(tables::column_metadata(shaped.columns, four_origins(), {sparse}, limits).size() == 3);
}

namespace {

/// The by-sample matrix as BIOM, with sample fields that break naive writers.
nlohmann::ordered_json hostile_biom() {
  const auto shaped =
      tables::by_sample(four_analyses(), four_origins(), tables::SampleMerge::pool_runs);
  tables::Table samples;
  samples.columns = {"accession", "sample_title",
                     "temperature (\xc2\xb0"
                     "C)",
                     "notes"};
  std::string big(1 << 20, 'x');
  samples.rows = {{std::string("S1"), std::string("\"leading quote\ttab\r\nCRLF C:\\dir\\x"),
                   std::string("4.5"), big},
                  {std::string("S2"), std::string("caf\xc3\xa9 \xe6\x97\xa5"), std::nullopt,
                   std::string("#not a comment")}};
  tables::BiomOptions options;
  options.id = "MGYS1 taxonomies.closed_reference.ssu pipeline V6";
  options.date = "2026-01-01T00:00:00";
  options.column_metadata = tables::column_metadata(shaped.columns, four_origins(), {samples});
  return tables::to_biom(shaped.matrix, options);
}

/// hostile_biom() written to a file of its own.
struct HostileBiomFile {
  mgnify::test::TempDir dir{"mgnify-biom"};
  std::filesystem::path file = dir.path() / "matrix.biom";
  nlohmann::ordered_json biom = hostile_biom();
  HostileBiomFile() { std::ofstream(file, std::ios::binary) << biom.dump(); }
};

}  // namespace

TEST_CASE("biom validate-table accepts the BIOM with sample metadata", "[tables][biom][readers]") {
  const HostileBiomFile written;
  const auto result = mgnify::test::biom_readers::validate(written.file);
  if (!result.installed) MGNIFY_SKIP_TEST("biom (python3-biom-format) is not installed");
  INFO(result.output);
  CHECK(result.exit_code == 0);
  CHECK(result.output.find("is a valid BIOM-formatted file") != std::string::npos);
}

TEST_CASE("biom.load_table reads the BIOM's ids, counts, taxonomy and sample metadata",
          "[tables][biom][readers]") {
  const HostileBiomFile written;
  const auto read = mgnify::test::biom_readers::read("python", written.file);
  if (!read.installed)
    MGNIFY_SKIP_TEST("biom-format (python3-biom-format) is not installed for " MGNIFY_PYTHON3);
  mgnify::test::biom_readers::check(read.table, written.biom, "python");
}

TEST_CASE("phyloseq::import_biom reads the BIOM's ids, counts, tax_table and sample_data",
          "[tables][biom][readers][r]") {
  const HostileBiomFile written;
  const auto read = mgnify::test::biom_readers::read("r", written.file);
  if (!read.installed)
    MGNIFY_SKIP_TEST("Rscript with phyloseq and jsonlite (r-bioc-phyloseq) is not installed");
  mgnify::test::biom_readers::check(read.table, written.biom, "r");
  // phyloseq keeps a key that is not an R name as it is.
  CHECK(
      read.table["sample_metadata"]["S1"].contains("temperature (\xc2\xb0"
                                                   "C)"));
}
