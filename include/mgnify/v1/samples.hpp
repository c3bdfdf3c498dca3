#pragma once

// Sample-level models: samples (with their metadata), runs, assemblies and
// experiment types.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/open_integer.hpp"
#include "mgnify/v1/model_base.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// One `sample-metadata` entry. Values are text (the service stores numbers as
/// strings, sometimes with junk, and sends a few as bare numbers, which go back
/// as numbers); units are often null.
struct SampleMetadata {
  std::string key;
  std::string value;
  std::optional<std::string> unit;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("key", self.key);
    v.scalar_text("value", self.value);
    v.optional("unit", self.unit);
  }
};
MGNIFY_JSON_FIELDS(SampleMetadata, "sample-metadata")

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
  /// An integer (9606), the same as text ("9606"), or text that is none (see OpenInteger).
  OpenInteger host_tax_id;
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
  static void fields(Self& s, V& v) {
    v.defaulted("sample-metadata", s.sample_metadata);
    v.optional("longitude", s.longitude);
    v.optional("latitude", s.latitude);
    v.optional("biosample", s.biosample);
    v.defaulted("accession", s.accession);
    v.optional("analysis-completed", s.analysis_completed);
    v.optional("collection-date", s.collection_date);
    v.optional("geo-loc-name", s.geo_loc_name);
    v.optional("sample-desc", s.sample_desc);
    v.optional("environment-biome", s.environment_biome);
    v.optional("environment-feature", s.environment_feature);
    v.optional("environment-material", s.environment_material);
    v.optional("sample-name", s.sample_name);
    v.optional("sample-alias", s.sample_alias);
    v.defaulted("host-tax-id", s.host_tax_id);
    v.optional("species", s.species);
    v.optional("last-update", s.last_update);
  }

  template <class V>
  static void relationships(V& v) {
    v.with_ids("biome");
    v.with_ids("studies");
    v.link_only("runs");
  }
};
MGNIFY_JSON_FIELDS(Sample, "sample")

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
  static void fields(Self& s, V& v) {
    v.defaulted("accession", s.accession);
    v.optional("secondary-accession", s.secondary_accession);
    v.optional("experiment-type", s.experiment_type);
    v.optional("instrument-platform", s.instrument_platform);
    v.optional("instrument-model", s.instrument_model);
    v.optional("ena-study-accession", s.ena_study_accession);
    v.optional("is-private", s.is_private);
  }

  template <class V>
  static void relationships(V& v) {
    v.with_ids("study");
    v.with_ids("sample");
    v.with_ids("assemblies");
    v.with_ids("pipelines");
    v.link_only("analyses");
    v.link_only("extra-annotations");
  }
};
MGNIFY_JSON_FIELDS(Run, "run")

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
  static void fields(Self& s, V& v) {
    v.defaulted("accession", s.accession);
    v.optional("experiment-type", s.experiment_type);
    v.optional("wgs-accession", s.wgs_accession);
    v.optional("legacy-accession", s.legacy_accession);
    v.optional("coverage", s.coverage);
    v.optional("min-gap-length", s.min_gap_length);
    v.optional("is-private", s.is_private);
  }

  template <class V>
  static void relationships(V& v) {
    v.with_ids("runs");
    v.with_ids("samples");
    v.with_ids("pipelines");
    v.link_only("analyses");
    v.link_only("extra-annotations");
  }
};
MGNIFY_JSON_FIELDS(Assembly, "assembly")

/// Type `experiment-types`; id is the name ("metagenomic", "amplicon", ...).
struct ExperimentType : ResourceModel {
  std::string experiment_type;
  std::optional<std::int64_t> samples_count;
  std::optional<std::int64_t> runs_count;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("experiment-type", s.experiment_type);
    v.optional("samples-count", s.samples_count);
    v.optional("runs-count", s.runs_count);
  }

  template <class V>
  static void relationships(V& v) {
    v.link_only("samples");
    v.link_only("runs");
    v.link_only("analyses");
  }
};
MGNIFY_JSON_FIELDS(ExperimentType, "experiment-type")

/// One entry of `samples/{acc}/metadata` (type `sample-anns`; id "<key>/<value>"):
/// the sample's metadata as a list of resources, with a `sample` relationship.
struct SampleAnnotation : ResourceModel {
  std::string key;
  std::string value;
  std::optional<std::string> unit;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("key", s.key);
    v.scalar_text("value", s.value);
    v.optional("unit", s.unit);
  }

  template <class V>
  static void relationships(V& v) {
    v.with_ids("sample");
  }
};
MGNIFY_JSON_FIELDS(SampleAnnotation, "sample-annotation")

}  // namespace v1
MGNIFY_NAMESPACE_END
