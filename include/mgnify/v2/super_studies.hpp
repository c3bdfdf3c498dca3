#pragma once

// Super studies: curated groups of studies and genome catalogues.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/v2/decode.hpp"
#include "mgnify/v2/genomes.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

struct SuperStudy {
  std::string slug;
  std::string title;
  std::optional<std::string> description;
  /// Relative to the service origin ("/fieldfiles/download/?name=..."), not absolute.
  std::optional<std::string> logo_url;
  RawJson raw;
};

struct SuperStudyDetail : SuperStudy {
  std::vector<Study> flagship_studies;
  std::vector<Study> related_studies;
  std::vector<GenomeCatalogue> genome_catalogues;
};

inline void from_json(const nlohmann::json& j, SuperStudy& s) {
  detail::expect_object(j, "super study");
  mgnify::detail::read_required(j, "slug", s.slug);
  mgnify::detail::read_or_keep(j, "title", s.title);
  mgnify::detail::read_optional(j, "description", s.description);
  mgnify::detail::read_optional(j, "logo_url", s.logo_url);
  s.raw = j;
}

inline void to_json(nlohmann::json& j, const SuperStudy& s) {
  j = detail::base_object(s.raw);
  j["slug"] = s.slug;
  j["title"] = s.title;
  mgnify::detail::write_optional(j, "description", s.description);
  mgnify::detail::write_optional(j, "logo_url", s.logo_url);
}

inline void from_json(const nlohmann::json& j, SuperStudyDetail& s) {
  from_json(j, static_cast<SuperStudy&>(s));
  mgnify::detail::read_or_keep(j, "flagship_studies", s.flagship_studies);
  mgnify::detail::read_or_keep(j, "related_studies", s.related_studies);
  mgnify::detail::read_or_keep(j, "genome_catalogues", s.genome_catalogues);
}

inline void to_json(nlohmann::json& j, const SuperStudyDetail& s) {
  to_json(j, static_cast<const SuperStudy&>(s));
  j["flagship_studies"] = s.flagship_studies;
  j["related_studies"] = s.related_studies;
  j["genome_catalogues"] = s.genome_catalogues;
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
