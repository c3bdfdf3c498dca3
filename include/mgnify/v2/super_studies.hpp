#pragma once

// Super studies: curated groups of studies and genome catalogues.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v2/genomes.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

struct SuperStudy {
  std::string slug;
  std::string title;
  std::optional<std::string> description;
  /// Relative to the service origin ("/fieldfiles/download/?name=..."), not absolute.
  std::optional<std::string> logo_url;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("slug", self.slug);
    v.defaulted("title", self.title);
    v.optional("description", self.description);
    v.optional("logo_url", self.logo_url);
  }
};

struct SuperStudyDetail : SuperStudy {
  std::vector<Study> flagship_studies;
  std::vector<Study> related_studies;
  std::vector<GenomeCatalogue> genome_catalogues;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    SuperStudy::fields(self, v);
    v.defaulted("flagship_studies", self.flagship_studies);
    v.defaulted("related_studies", self.related_studies);
    v.defaulted("genome_catalogues", self.genome_catalogues);
  }
};

MGNIFY_JSON_FIELDS(SuperStudy, "super study")
MGNIFY_JSON_FIELDS(SuperStudyDetail, "super study")

}  // namespace v2
MGNIFY_NAMESPACE_END
