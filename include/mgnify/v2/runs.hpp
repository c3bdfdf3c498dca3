#pragma once

// Analysed runs (ENA sequencing runs with at least one MGnify analysis).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
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
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("experiment_type", self.experiment_type);
    v.optional("accession", self.accession);
    v.optional("sample_accession", self.sample_accession);
    v.optional("study_accession", self.study_accession);
    v.optional("instrument_model", self.instrument_model);
    v.optional("instrument_platform", self.instrument_platform);
  }
};

struct AnalysedRunDetail : AnalysedRun {
  std::optional<Sample> sample;
  std::optional<Study> study;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    AnalysedRun::fields(self, v);
    v.optional("sample", self.sample);
    v.optional("study", self.study);
  }
};

MGNIFY_JSON_FIELDS(AnalysedRun, "run")
MGNIFY_JSON_FIELDS(AnalysedRunDetail, "run")

}  // namespace v2
MGNIFY_NAMESPACE_END
