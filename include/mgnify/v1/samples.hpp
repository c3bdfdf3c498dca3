#pragma once

// Sample-level models: samples (with their metadata), runs, assemblies and
// experiment types.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/v1/model_base.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v1 {

/// One `sample-metadata` entry. Values are text (the service stores numbers as
/// strings, sometimes with junk), units are often null.
struct SampleMetadata {
  std::string key;
  std::string value;
  std::optional<std::string> unit;
};

inline void from_json(const nlohmann::json& j, SampleMetadata& out) {
  if (!j.is_object()) throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  mgnify::detail::read_required(j, "key", out.key);
  auto v = j.find("value");
  out.value = v == j.end() ? std::string() : detail::scalar_text(*v);
  mgnify::detail::read_optional(j, "unit", out.unit);
}
inline void to_json(nlohmann::json& j, const SampleMetadata& m) {
  j = nlohmann::json{{"key", m.key}, {"value", m.value}};
  mgnify::detail::write_optional(j, "unit", m.unit);
}

/// Type `samples`; id is the sample accession (ERS..., SRS...).
struct Sample : ResourceModel {
  std::vector<SampleMetadata> sample_metadata;
  std::optional<double> longitude;
  std::optional<double> latitude;
  std::optional<std::string> biosample;
  std::string accession;
  std::optional<Timestamp> analysis_completed;
  std::optional<Timestamp> collection_date;
  std::optional<std::string> geo_loc_name;
  std::optional<std::string> sample_desc;
  std::optional<std::string> environment_biome;
  std::optional<std::string> environment_feature;
  std::optional<std::string> environment_material;
  std::optional<std::string> sample_name;
  std::optional<std::string> sample_alias;
  std::optional<std::int64_t> host_tax_id;
  std::optional<std::string> species;
  std::optional<Timestamp> last_update;

  /// The first metadata entry with this key.
  const SampleMetadata* metadata(const std::string& key) const {
    for (const auto& m : sample_metadata) {
      if (m.key == key) return &m;
    }
    return nullptr;
  }
  /// Lineage of the sample's biome (the to-one `biome` relationship).
  std::optional<std::string> biome_lineage() const {
    const Relationship* r = relationship("biome");
    if (!r) return std::nullopt;
    auto one = r->one();
    return one ? std::optional<std::string>(one->id) : std::nullopt;
  }

  template <class Self, class V>
  static void visit(Self& s, V&& v) {
    v("sample-metadata", s.sample_metadata);
    v("longitude", s.longitude);
    v("latitude", s.latitude);
    v("biosample", s.biosample);
    v("accession", s.accession);
    v("analysis-completed", s.analysis_completed);
    v("collection-date", s.collection_date);
    v("geo-loc-name", s.geo_loc_name);
    v("sample-desc", s.sample_desc);
    v("environment-biome", s.environment_biome);
    v("environment-feature", s.environment_feature);
    v("environment-material", s.environment_material);
    v("sample-name", s.sample_name);
    v("sample-alias", s.sample_alias);
    v("host-tax-id", s.host_tax_id);
    v("species", s.species);
    v("last-update", s.last_update);
  }
};
MGNIFY_V1_MODEL_JSON(Sample)

/// Type `runs`; id is the run accession.
struct Run : ResourceModel {
  std::string accession;
  std::optional<std::string> secondary_accession;
  std::optional<std::string> experiment_type;
  std::optional<std::string> instrument_platform;
  std::optional<std::string> instrument_model;
  std::optional<std::string> ena_study_accession;
  std::optional<bool> is_private;

  template <class Self, class V>
  static void visit(Self& s, V&& v) {
    v("accession", s.accession);
    v("secondary-accession", s.secondary_accession);
    v("experiment-type", s.experiment_type);
    v("instrument-platform", s.instrument_platform);
    v("instrument-model", s.instrument_model);
    v("ena-study-accession", s.ena_study_accession);
    v("is-private", s.is_private);
  }
};
MGNIFY_V1_MODEL_JSON(Run)

/// Type `assemblies`; id is the ERZ accession.
struct Assembly : ResourceModel {
  std::string accession;
  std::optional<std::string> experiment_type;
  std::optional<std::string> wgs_accession;
  std::optional<std::string> legacy_accession;
  std::optional<double> coverage;
  std::optional<std::int64_t> min_gap_length;
  std::optional<bool> is_private;

  template <class Self, class V>
  static void visit(Self& s, V&& v) {
    v("accession", s.accession);
    v("experiment-type", s.experiment_type);
    v("wgs-accession", s.wgs_accession);
    v("legacy-accession", s.legacy_accession);
    v("coverage", s.coverage);
    v("min-gap-length", s.min_gap_length);
    v("is-private", s.is_private);
  }
};
MGNIFY_V1_MODEL_JSON(Assembly)

/// Type `experiment-types`; id is the name ("metagenomic", "amplicon", ...).
struct ExperimentType : ResourceModel {
  std::string experiment_type;
  std::optional<std::int64_t> samples_count;
  std::optional<std::int64_t> runs_count;

  template <class Self, class V>
  static void visit(Self& s, V&& v) {
    v("experiment-type", s.experiment_type);
    v("samples-count", s.samples_count);
    v("runs-count", s.runs_count);
  }
};
MGNIFY_V1_MODEL_JSON(ExperimentType)

}  // namespace v1
}  // namespace v0
}  // namespace mgnify
