// Summary files in each layout the pipelines write, their bad rows, and the
// merge of several into one matrix (TSV and BIOM).

#include "mgnify/tables/abundance.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/tables/biom.hpp"

namespace tables = mgnify::tables;

namespace {

std::string decode_error_of(const std::string& text) {
  try {
    tables::parse_summary(text, "MGYA00000009 bad.tsv");
  } catch (const mgnify::DecodeError& e) {
    return e.what();
  }
  return "no error";
}

std::string tsv_of(const tables::AbundanceMatrix& matrix) {
  std::ostringstream out;
  tables::write_tsv(out, tables::to_table(matrix));
  return out.str();
}

}  // namespace

TEST_CASE("an OTU table from BIOM: features are lineages, OTUs of one lineage are summed",
          "[tables][abundance]") {
  const auto file = tables::parse_summary(
      "# Constructed from biom file\n"
      "# OTU ID\tSSU\ttaxonomy\ttaxid\n"
      "36901\t1.0\tsk__Bacteria;k__;p__Bacillota;c__Bacilli\t91061\n"
      "60237\t2.0\tsk__Bacteria;k__;p__Bacteroidota\t976\n"
      "60238\t3.0\tsk__Bacteria;k__;p__Bacillota;c__Bacilli\t91061\n",
      "otu");
  CHECK(file.kind == tables::FeatureKind::lineage);
  CHECK(file.feature_column == "taxonomy");
  CHECK(file.attribute_names == std::vector<std::string>{"taxid"});
  REQUIRE(file.rows.size() == 2);
  CHECK(file.rows[0].feature == "sk__Bacteria;k__;p__Bacillota;c__Bacilli");
  CHECK(file.rows[0].count == 4.0);
  CHECK(file.rows[0].attributes == std::vector<std::string>{"91061"});
  CHECK(file.rows[1].count == 2.0);
}

TEST_CASE("headed V6 tables: the feature is the first column that is not the count",
          "[tables][abundance]") {
  const auto go = tables::parse_summary(
      "go\tterm\tcategory\tcount\n"
      "GO:0003824\tcatalytic activity\tmolecular_function\t2145\n"
      "GO:0055085\ttransmembrane transport\tbiological_process\t144\n",
      "go");
  CHECK(go.kind == tables::FeatureKind::keyed);
  CHECK(go.feature_column == "go");
  CHECK(go.attribute_names == std::vector<std::string>{"term", "category"});
  REQUIRE(go.rows.size() == 2);
  CHECK(go.rows[1].feature == "GO:0055085");
  CHECK(go.rows[1].count == 144);
  CHECK(go.rows[1].attributes ==
        std::vector<std::string>{"transmembrane transport", "biological_process"});

  const auto ipr = tables::parse_summary(
      "count\tinterpro_accession\tdescription\r\n"
      "3241\tIPR027417\tP-loop containing nucleoside triphosphate hydrolase\r\n",
      "ipr");
  CHECK(ipr.feature_column == "interpro_accession");
  REQUIRE(ipr.rows.size() == 1);
  CHECK(ipr.rows[0].feature == "IPR027417");
  CHECK(ipr.rows[0].count == 3241);
  CHECK(ipr.rows[0].attributes ==
        std::vector<std::string>{"P-loop containing nucleoside triphosphate hydrolase"});

  // Raw-reads Pfam: a space-separated '#' header, coverage columns that measure the analysis.
  const auto pfam = tables::parse_summary(
      "# function  read_count  coverage_depth  coverage_breadth\n"
      "PF00005.33\t60\t14.8\t0.87\n",
      "pfam");
  CHECK(pfam.feature_column == "function");
  CHECK(pfam.attribute_names.empty());
  REQUIRE(pfam.rows.size() == 1);
  CHECK(pfam.rows[0].feature == "PF00005.33");
  CHECK(pfam.rows[0].count == 60);
}

TEST_CASE("Krona text: a count and ranks, with or without a header", "[tables][abundance]") {
  const auto plain = tables::parse_summary(
      "53\tsk__Archaea\tk__\tp__Nitrososphaerota\n"
      "29\tsk__Bacteria\t\t\n"
      "\n"
      "1.5\tsk__Bacteria\n",
      "krona");
  CHECK(plain.kind == tables::FeatureKind::lineage);
  REQUIRE(plain.rows.size() == 2);
  CHECK(plain.rows[0].feature == "sk__Archaea;k__;p__Nitrososphaerota");
  CHECK(plain.rows[1].feature == "sk__Bacteria");  // trailing empty ranks dropped, rows summed
  CHECK(plain.rows[1].count == 30.5);

  const auto headed = tables::parse_summary(
      "# Count Superkingdom    Kingdom Phylum\n"
      "1\tsk__Bacteria\tk__\tp__Actinobacteria\n",
      "krona");
  CHECK(headed.kind == tables::FeatureKind::lineage);
  REQUIRE(headed.rows.size() == 1);
  CHECK(headed.rows[0].feature == "sk__Bacteria;k__;p__Actinobacteria");
}

TEST_CASE("a bad row is an error naming the file and the line", "[tables][abundance]") {
  CHECK_THAT(decode_error_of("go\tterm\tcategory\tcount\nGO:1\tx\ty\tmany\n"),
             Catch::Contains("line 2") && Catch::Contains("MGYA00000009 bad.tsv") &&
                 Catch::Contains("'many'"));
  CHECK_THAT(decode_error_of("count\tpfam\tdescription\n-4\tPF1\tx\n"),
             Catch::Contains("line 2") && Catch::Contains("non-negative"));
  CHECK_THAT(decode_error_of("count\tpfam\tdescription\n\n4\tPF1\n"),
             Catch::Contains("line 3") && Catch::Contains("expected 3 cells, found 2"));
  CHECK_THAT(decode_error_of("count\tpfam\tdescription\n4\t\tx\n"),
             Catch::Contains("the pfam is empty"));
  CHECK_THAT(decode_error_of("<html><body>Not Found</body></html>\n"),
             Catch::Contains("line 1") && Catch::Contains("no count column"));
  CHECK_THAT(decode_error_of(""), Catch::Contains("empty"));
  CHECK_THAT(decode_error_of("# Constructed from biom file\n# OTU ID\tSSU\ttaxonomy\n1\t2.0\n"),
             Catch::Contains("line 3"));
  CHECK_THAT(decode_error_of("12\n"), Catch::Contains("without a lineage"));
}

TEST_CASE("merging: one column per analysis, 0 where an analysis lacks a feature",
          "[tables][abundance]") {
  tables::AbundanceMatrix matrix;
  matrix.add("MGYA1", tables::parse_summary("count\tpfam\tdescription\n"
                                            "5\tPF00005\tABC transporter\n"
                                            "2\tPF00072\tResponse regulator\n",
                                            "a"));
  matrix.add("MGYA2", tables::parse_summary("count\tpfam\tdescription\n"
                                            "7\tPF00072\tResponse regulator\n"
                                            "1\tPF02265\tS1/P1 Nuclease\n",
                                            "b"));
  matrix.add("MGYA3", tables::parse_summary("count\tpfam\tdescription\n", "empty"));
  CHECK(tsv_of(matrix) ==
        "pfam\tdescription\tMGYA1\tMGYA2\tMGYA3\n"
        "PF00005\tABC transporter\t5\t0\t0\n"
        "PF00072\tResponse regulator\t2\t7\t0\n"
        "PF02265\tS1/P1 Nuclease\t0\t1\t0\n");
  CHECK(matrix.integral());

  CHECK_THROWS_AS(matrix.add("MGYA1", tables::parse_summary("count\tpfam\n1\tPF1\n", "again")),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(matrix.add("MGYA4", tables::parse_summary("3\tsk__Bacteria\n", "taxa")),
                  mgnify::InvalidArgument);
}

TEST_CASE("BIOM 1.0: sparse, typed, taxonomy as a list of ranks", "[tables][abundance][biom]") {
  tables::AbundanceMatrix taxa;
  taxa.add("MGYA1", tables::parse_summary("2\tsk__Bacteria\tp__Bacillota\n", "a"));
  taxa.add("MGYA2",
           tables::parse_summary("0.5\tsk__Archaea\n3\tsk__Bacteria\tp__Bacillota\n", "b"));
  tables::BiomOptions options;
  options.id = "MGYS1 ssu";
  options.date = "2026-01-01T00:00:00";
  const auto biom = tables::to_biom(taxa, options);
  CHECK(biom["id"] == "MGYS1 ssu");
  CHECK(biom["format"] == "Biological Observation Matrix 1.0.0");
  CHECK(biom["format_url"] == "http://biom-format.org");
  CHECK(biom["type"] == "OTU table");
  CHECK(biom["date"] == "2026-01-01T00:00:00");
  CHECK(biom["matrix_type"] == "sparse");
  CHECK(biom["matrix_element_type"] == "float");  // 0.5 is not a whole count
  CHECK(biom["shape"] == nlohmann::ordered_json::array({2, 2}));
  CHECK(biom["rows"][0]["id"] == "sk__Bacteria;p__Bacillota");
  CHECK(biom["rows"][0]["metadata"]["taxonomy"] ==
        nlohmann::ordered_json::array({"sk__Bacteria", "p__Bacillota"}));
  CHECK(biom["columns"][1]["id"] == "MGYA2");
  CHECK(biom["data"].dump() == "[[0,0,2.0],[0,1,3.0],[1,1,0.5]]");

  tables::AbundanceMatrix functions;
  functions.add("MGYA1", tables::parse_summary("count\tpfam\tdescription\n4\tPF1\tone\n", "a"));
  const auto fbiom = tables::to_biom(functions, options);
  CHECK(fbiom["type"] == "Function table");
  CHECK(fbiom["matrix_element_type"] == "int");
  CHECK(fbiom["rows"][0]["metadata"]["description"] == "one");
  CHECK(fbiom["data"].dump() == "[[0,0,4]]");
}

TEST_CASE("Krona text whose header puts the count last or between ranks keeps every rank",
          "[tables][abundance]") {
  const auto last = tables::parse_summary(
      "#Superkingdom\tKingdom\tPhylum\tCount\n"
      "sk__Bacteria\tk__\tp__Actinobacteria\t7\n"
      "sk__Archaea\t\t\t2\n",
      "krona");
  REQUIRE(last.rows.size() == 2);
  CHECK(last.rows[0].feature == "sk__Bacteria;k__;p__Actinobacteria");
  CHECK(last.rows[0].count == 7);
  CHECK(last.rows[1].feature == "sk__Archaea");
  CHECK(last.rows[1].count == 2);

  const auto between = tables::parse_summary(
      "#Superkingdom\tCount\tKingdom\n"
      "sk__Bacteria\t3\tk__Fungi\n",
      "krona");
  REQUIRE(between.rows.size() == 1);
  CHECK(between.rows[0].feature == "sk__Bacteria;k__Fungi");
  CHECK(between.rows[0].count == 3);
}

TEST_CASE("a feature listed twice with different attributes is summed and named, never silently",
          "[tables][abundance]") {
  const auto file = tables::parse_summary(
      "count\tpfam\tdescription\n"
      "5\tPF00001\t7 transmembrane receptor\n"
      "2\tPF00002\tsecretin family\n"
      "3\tPF00001\t7tm receptor (rhodopsin family)\n"
      "4\tPF00002\tsecretin family\n",
      "pfam");
  REQUIRE(file.rows.size() == 2);
  CHECK(file.rows[0].count == 8);
  CHECK(file.rows[0].attributes == std::vector<std::string>{"7 transmembrane receptor"});
  CHECK(file.rows[1].count == 6);
  // The same attributes again are the same feature: nothing to say.
  CHECK(file.differing_attributes == std::vector<std::string>{"PF00001"});
}
