#pragma once

// Samples: list form, with ENA metadata (study sample lists), and detail (with studies).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/datetime.hpp"
#include "mgnify/v2/decode.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

struct Sample {
  /// Preferred BioSample accession (SAM...), else the first ENA accession.
  std::string accession;
  std::vector<std::string> ena_accessions;
  std::optional<std::string> sample_title;
  std::optional<Biome> biome;
  std::optional<DateTime> updated_at;
  RawJson raw;
};

struct SampleWithMetadata : Sample {
  /// ENA sample fields (temperature, lat, lon, collection_date, ...); null when absent.
  nlohmann::json metadata;
};

struct SampleDetail : SampleWithMetadata {
  std::vector<Study> studies;
};

inline void from_json(const nlohmann::json& j, Sample& s) {
  detail::expect_object(j, "sample");
  mgnify::detail::read_required(j, "accession", s.accession);
  mgnify::detail::read_or_keep(j, "ena_accessions", s.ena_accessions);
  mgnify::detail::read_optional(j, "sample_title", s.sample_title);
  mgnify::detail::read_optional(j, "biome", s.biome);
  mgnify::detail::read_optional(j, "updated_at", s.updated_at);
  s.raw = j;
}

inline void to_json(nlohmann::json& j, const Sample& s) {
  j = detail::base_object(s.raw);
  j["accession"] = s.accession;
  j["ena_accessions"] = s.ena_accessions;
  mgnify::detail::write_optional(j, "sample_title", s.sample_title);
  mgnify::detail::write_optional(j, "biome", s.biome);
  mgnify::detail::write_optional(j, "updated_at", s.updated_at);
}

inline void from_json(const nlohmann::json& j, SampleWithMetadata& s) {
  from_json(j, static_cast<Sample&>(s));
  if (auto it = j.find("metadata"); it != j.end()) s.metadata = *it;
}

inline void to_json(nlohmann::json& j, const SampleWithMetadata& s) {
  to_json(j, static_cast<const Sample&>(s));
  j["metadata"] = s.metadata;
}

inline void from_json(const nlohmann::json& j, SampleDetail& s) {
  from_json(j, static_cast<SampleWithMetadata&>(s));
  mgnify::detail::read_or_keep(j, "studies", s.studies);
}

inline void to_json(nlohmann::json& j, const SampleDetail& s) {
  to_json(j, static_cast<const SampleWithMetadata&>(s));
  j["studies"] = s.studies;
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
