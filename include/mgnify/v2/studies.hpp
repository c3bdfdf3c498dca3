#pragma once

// Studies: the list form, the detail form (with downloads) and the answer of
// the INSDC accession lookup.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/datetime.hpp"
#include "mgnify/v2/downloads.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

struct Study {
  /// "MGYS" + 8 digits; the one field every study has.
  std::string accession;
  std::vector<std::string> ena_accessions;
  std::string title;
  std::optional<Biome> biome;
  std::optional<DateTime> updated_at;
  /// ENA study fields (study_title, center_name, ...). Newer servers send it on
  /// list items too; null when absent.
  nlohmann::json metadata;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("accession", self.accession);
    v.defaulted("ena_accessions", self.ena_accessions);
    v.defaulted("title", self.title);
    v.optional("biome", self.biome);
    v.optional("updated_at", self.updated_at);
    v.defaulted("metadata", self.metadata);
  }
};

struct StudyDetail : Study {
  /// Preferred INSDC accession (ERP/SRP/DRP, else the first).
  std::optional<std::string> first_accession;
  std::vector<DownloadFile> downloads;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    Study::fields(self, v);
    v.optional("first_accession", self.first_accession);
    v.defaulted("downloads", self.downloads);
  }
};

/// Answer of studies/insdc/{accession}: the MGnify accession of an ENA study.
struct StudyIdentifier {
  std::string accession;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("accession", self.accession);
  }
};

MGNIFY_JSON_FIELDS(Study, "study")
MGNIFY_JSON_FIELDS(StudyDetail, "study")
MGNIFY_JSON_FIELDS(StudyIdentifier, "study identifier")

}  // namespace v2
MGNIFY_NAMESPACE_END
