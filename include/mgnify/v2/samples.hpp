#pragma once

// Samples: list form, with ENA metadata (study sample lists), and detail (with studies).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/datetime.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

struct Sample {
  /// Preferred BioSample accession (SAM...), else the first ENA accession.
  std::string accession;
  std::vector<std::string> ena_accessions;
  std::optional<std::string> sample_title;
  std::optional<Biome> biome;
  std::optional<DateTime> updated_at;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("accession", self.accession);
    v.defaulted("ena_accessions", self.ena_accessions);
    v.optional("sample_title", self.sample_title);
    v.optional("biome", self.biome);
    v.optional("updated_at", self.updated_at);
  }
};

struct SampleWithMetadata : Sample {
  /// ENA sample fields (temperature, lat, lon, collection_date, ...); null when absent.
  nlohmann::json metadata;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    Sample::fields(self, v);
    v.defaulted("metadata", self.metadata);
  }
};

struct SampleDetail : SampleWithMetadata {
  std::vector<Study> studies;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    SampleWithMetadata::fields(self, v);
    v.defaulted("studies", self.studies);
  }
};

MGNIFY_JSON_FIELDS(Sample, "sample")
MGNIFY_JSON_FIELDS(SampleWithMetadata, "sample")
MGNIFY_JSON_FIELDS(SampleDetail, "sample")

}  // namespace v2
MGNIFY_NAMESPACE_END
