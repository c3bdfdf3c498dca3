#pragma once

// Analysed runs (ENA sequencing runs with at least one MGnify analysis).

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/v2/decode.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

struct AnalysedRun {
  /// The display label ("Metagenomic"), not the filter code.
  Enumerated<ExperimentType> experiment_type;
  /// Preferred ERR/SRR/DRR accession.
  std::optional<std::string> accession;
  std::optional<std::string> sample_accession;
  /// An MGYS accession, despite the schema's description.
  std::optional<std::string> study_accession;
  std::optional<std::string> instrument_model;
  std::optional<std::string> instrument_platform;
  RawJson raw;
};

struct AnalysedRunDetail : AnalysedRun {
  std::optional<Sample> sample;
  std::optional<Study> study;
};

inline void from_json(const nlohmann::json& j, AnalysedRun& r) {
  detail::expect_object(j, "run");
  mgnify::detail::read_or_keep(j, "experiment_type", r.experiment_type);
  mgnify::detail::read_optional(j, "accession", r.accession);
  mgnify::detail::read_optional(j, "sample_accession", r.sample_accession);
  mgnify::detail::read_optional(j, "study_accession", r.study_accession);
  mgnify::detail::read_optional(j, "instrument_model", r.instrument_model);
  mgnify::detail::read_optional(j, "instrument_platform", r.instrument_platform);
  r.raw = j;
}

inline void to_json(nlohmann::json& j, const AnalysedRun& r) {
  j = detail::base_object(r.raw);
  j["experiment_type"] = r.experiment_type;
  mgnify::detail::write_optional(j, "accession", r.accession);
  mgnify::detail::write_optional(j, "sample_accession", r.sample_accession);
  mgnify::detail::write_optional(j, "study_accession", r.study_accession);
  mgnify::detail::write_optional(j, "instrument_model", r.instrument_model);
  mgnify::detail::write_optional(j, "instrument_platform", r.instrument_platform);
}

inline void from_json(const nlohmann::json& j, AnalysedRunDetail& r) {
  from_json(j, static_cast<AnalysedRun&>(r));
  mgnify::detail::read_optional(j, "sample", r.sample);
  mgnify::detail::read_optional(j, "study", r.study);
}

inline void to_json(nlohmann::json& j, const AnalysedRunDetail& r) {
  to_json(j, static_cast<const AnalysedRun&>(r));
  mgnify::detail::write_optional(j, "sample", r.sample);
  mgnify::detail::write_optional(j, "study", r.study);
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
