#pragma once

// Studies: the list form, the detail form (with downloads) and the answer of
// the INSDC accession lookup.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/datetime.hpp"
#include "mgnify/v2/decode.hpp"
#include "mgnify/v2/downloads.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
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
  RawJson raw;
};

struct StudyDetail : Study {
  /// Preferred INSDC accession (ERP/SRP/DRP, else the first); added 2026-03.
  std::optional<std::string> first_accession;
  std::vector<DownloadFile> downloads;
};

/// Answer of studies/insdc/{accession}: the MGnify accession of an ENA study.
struct StudyIdentifier {
  std::string accession;
  RawJson raw;
};

inline void from_json(const nlohmann::json& j, Study& s) {
  detail::expect_object(j, "study");
  mgnify::detail::read_required(j, "accession", s.accession);
  mgnify::detail::read_or_keep(j, "ena_accessions", s.ena_accessions);
  mgnify::detail::read_or_keep(j, "title", s.title);
  mgnify::detail::read_optional(j, "biome", s.biome);
  mgnify::detail::read_optional(j, "updated_at", s.updated_at);
  if (auto it = j.find("metadata"); it != j.end()) s.metadata = *it;
  s.raw = j;
}

inline void to_json(nlohmann::json& j, const Study& s) {
  j = detail::base_object(s.raw);
  j["accession"] = s.accession;
  j["ena_accessions"] = s.ena_accessions;
  j["title"] = s.title;
  mgnify::detail::write_optional(j, "biome", s.biome);
  mgnify::detail::write_optional(j, "updated_at", s.updated_at);
  if (!s.metadata.is_null()) j["metadata"] = s.metadata;
}

inline void from_json(const nlohmann::json& j, StudyDetail& s) {
  from_json(j, static_cast<Study&>(s));
  mgnify::detail::read_optional(j, "first_accession", s.first_accession);
  mgnify::detail::read_or_keep(j, "downloads", s.downloads);
}

inline void to_json(nlohmann::json& j, const StudyDetail& s) {
  to_json(j, static_cast<const Study&>(s));
  mgnify::detail::write_optional(j, "first_accession", s.first_accession);
  j["downloads"] = s.downloads;
}

inline void from_json(const nlohmann::json& j, StudyIdentifier& s) {
  detail::expect_object(j, "study identifier");
  mgnify::detail::read_required(j, "accession", s.accession);
  s.raw = j;
}

inline void to_json(nlohmann::json& j, const StudyIdentifier& s) {
  j = detail::base_object(s.raw);
  j["accession"] = s.accession;
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
