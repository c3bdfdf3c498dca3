#include <catch2/catch.hpp>
#include <string>

#include "mgnify/v2.hpp"

using namespace mgnify::v2;
using nlohmann::json;

TEST_CASE("v2 datetimes parse with and without milliseconds", "[v2][models]") {
  const auto with_ms = parse_datetime("2025-07-29T11:32:54.168Z");
  const auto without = parse_datetime("2025-07-29T11:32:54Z");
  CHECK(to_unix_millis(without) == 1753788774000);
  CHECK(to_unix_millis(with_ms) == 1753788774168);
  CHECK(to_unix_millis(parse_datetime("2025-07-29T13:32:54+02:00")) == 1753788774000);
  CHECK(to_unix_millis(parse_datetime("2025-07-29T11:32:54.123456Z")) == 1753788774123);
  CHECK(with_ms.text == "2025-07-29T11:32:54.168Z");
  CHECK_THROWS_AS(parse_datetime("2025-07-29"), mgnify::DecodeError);
  CHECK_THROWS_AS(parse_datetime("2025-13-01T00:00:00Z"), mgnify::DecodeError);
  CHECK_THROWS_AS(parse_datetime("2025-07-29T11:32:54.Z"), mgnify::DecodeError);
}

namespace {
/// Every enumerator before `unknown` has a wire name, once, that reads back as itself.
template <class E>
constexpr bool names_every_value() {
  std::size_t count = 0;
  for (const auto& name : enum_names(E{})) {
    if (static_cast<std::size_t>(name.value) != count) return false;
    ++count;
  }
  return count == static_cast<std::size_t>(E::unknown);
}
static_assert(names_every_value<ExperimentType>() && names_every_value<PipelineVersion>() &&
              names_every_value<DownloadType>() && names_every_value<FileType>() &&
              names_every_value<IndexType>() && names_every_value<GenomeType>() &&
              names_every_value<CatalogueType>() && names_every_value<CatalogueStatus>() &&
              names_every_value<AnnotationType>());
}  // namespace

TEST_CASE("v2 enum names and list orders read back as themselves", "[v2][models]") {
  for (const auto& name : enum_names(DownloadType{})) {
    CHECK(enum_from_string<DownloadType>(to_string(name.value)) == name.value);
  }
  for (const auto& code : experiment_type_codes()) {
    CHECK(experiment_type_code(code.value) == std::string(code.text));
  }
  CHECK(experiment_type_code(ExperimentType::unknown) == std::string());
  using mgnify::v2::detail::order_text;
  CHECK(order_text(GenomeOrder::none).empty());
  CHECK(order_text(GenomeOrder::accession) == "accession");
  CHECK(order_text(GenomeOrder::contamination_desc) == "-contamination");
  CHECK(order_text(GenomeOrder::num_genomes_total_desc) == "-num_genomes_total");
  CHECK(order_text(StudyOrder::updated_at_desc) == "-updated_at");
  CHECK(order_text(SampleOrder::sample_title) == "sample_title");
  CHECK(order_text(PublicationOrder::published_year_desc) == "-published_year");
}

TEST_CASE("v2 enums keep unknown values with their text", "[v2][models]") {
  const auto known = json("Long-read assembly").get<Enumerated<ExperimentType>>();
  CHECK(known == ExperimentType::long_read_assembly);
  CHECK(experiment_type_code(known.value) == std::string("LRASS"));
  const auto fresh = json("Single-cell").get<Enumerated<ExperimentType>>();
  CHECK(fresh == ExperimentType::unknown);
  CHECK(fresh.text == "Single-cell");
  CHECK_FALSE(fresh.known());
  CHECK(json(fresh) == "Single-cell");
  CHECK(json("V7").get<Enumerated<PipelineVersion>>() == PipelineVersion::unknown);
  CHECK(json("V4.1").get<Enumerated<PipelineVersion>>() == PipelineVersion::v4_1);
  CHECK(json("zst").get<Enumerated<FileType>>().text == "zst");
  CHECK(json("Unknown").get<Enumerated<ExperimentType>>() == ExperimentType::unknown_type);
  CHECK(to_string(AnnotationType::taxonomies_dada2_silva) ==
        std::string("taxonomies__dada2_silva"));
}

TEST_CASE("downloads tolerate null URLs and older key names; helpers select by group and type",
          "[v2][models]") {
  const json doc = json::parse(R"({
    "accession": "MGYA00000001", "study_accession": "MGYS00000001", "experiment_type": "Amplicon",
    "run": null, "sample": null, "assembly": null, "pipeline_version": "V5", "new_field": 7,
    "downloads": [
      {"alias": "a.tsv", "download_type": "Taxonomic analysis", "file_type": "tsv", "short_description": "s",
       "long_description": "l", "download_group": "taxonomies.closed_reference.ssu", "file_size_bytes": null,
       "index_files": null, "url": null},
      {"alias": "b.fasta.gz", "download_type": "Sequence data", "file_type": "fasta", "short_description": "s",
       "long_description": "l", "download_group": "quality_control", "file_size_bytes": 12,
       "index_file": {"index_type": "fai", "relative_url": "b.fasta.gz.fai"}, "url": "https://x/b.fasta.gz"},
      {"alias": "c", "download_type": "Brand new", "file_type": "parquet", "download_group": "taxonomies",
       "url": "https://x/c"},
      {"alias": "d", "download_type": "Other", "file_type": "other", "download_group": "taxonomiesX", "url": null}
    ],
    "read_run": null, "quality_control_summary": null, "results_dir": null, "metadata": null})");
  const auto a = doc.get<AnalysisDetail>();
  REQUIRE(a.downloads.size() == 4);
  CHECK_FALSE(a.downloads[0].has_url());
  CHECK_FALSE(a.downloads[0].url);
  REQUIRE(a.downloads[1].index_files);
  CHECK((*a.downloads[1].index_files)[0].index_type == IndexType::fai);
  CHECK((*a.downloads[1].index_files)[0].url == std::string("b.fasta.gz.fai"));
  CHECK(a.downloads[2].download_type == DownloadType::unknown);
  CHECK(a.downloads[2].file_type.text == "parquet");
  CHECK(a.downloads_in_group("taxonomies.").size() == 1);
  CHECK(a.downloads_in_group("taxonomies").size() == 2);
  CHECK(a.downloads_of_type(FileType::fasta).size() == 1);
  CHECK(a.downloads_by_group().size() == 4);
  CHECK(a.raw["new_field"] == 7);
  CHECK(json(a)["new_field"] == 7);  // unknown keys survive a round trip
  CHECK(*a.pipeline_version == PipelineVersion::v5);
}

TEST_CASE("v2 decode failures name the JSON path", "[v2][models]") {
  const json page = json::parse(R"({"count": 2, "items": [{"accession": "MGYS00000001"},
                                   {"accession": "MGYS00000002", "updated_at": 20250729}]})");
  try {
    mgnify::detail::decode<CountedPage<Study>>(page, "https://example.org/studies/");
    FAIL("expected DecodeError");
  } catch (const mgnify::DecodeError& e) {
    CHECK(e.json_path() == "/items/1/updated_at");
    CHECK(e.url() == "https://example.org/studies/");
  }
  CHECK_THROWS_AS(json::parse(R"({"title": "no accession"})").get<Study>(), mgnify::DecodeError);
  // Text that is not a date-time is kept, not a lost study, and written back as sent.
  const json odd = json::parse(R"({"accession": "MGYS00000002", "updated_at": "yesterday"})");
  const auto study = odd.get<Study>();
  REQUIRE(study.updated_at);
  CHECK_FALSE(study.updated_at->parsed());
  CHECK(study.updated_at->text == "yesterday");
  CHECK(json(study) == odd);
  CHECK_THROWS_AS(json::parse(R"({"count": 1})").get<CountedPage<Study>>(), mgnify::DecodeError);
}

TEST_CASE("query builders emit only the documented parameters", "[v2][models]") {
  CHECK(StudyQuery().search("human gut").order(StudyOrder::updated_at_desc).to_query().encoded() ==
        "order=-updated_at&search=human+gut");
  CHECK(StudyQuery().to_query().empty());
  CHECK(RunQuery().has_experiment_type(ExperimentType::metatranscriptomic).to_query().encoded() ==
        "has_experiment_type=METAT");
  CHECK(GenomeLookup{"human-gut-v2-0"}.to_query().encoded() == "catalogue_id=human-gut-v2-0");
  CHECK(PublicationQuery().title("gut flora").to_query().encoded() == "title=gut%20flora");
  Biome b;
  b.lineage = "root:Host-associated:Human";
  CHECK(b.depth() == 3);
  CHECK(b.parent_lineage() == "root:Host-associated");
}
