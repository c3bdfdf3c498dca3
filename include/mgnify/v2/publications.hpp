#pragma once

// Publications linked to studies, and Europe PMC text-mined annotations of one.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

struct Publication {
  /// Not required by the OpenAPI schema: 0 when absent.
  std::int64_t pubmed_id = 0;
  std::string title;
  std::optional<std::int64_t> published_year;
  /// authors, doi, isbn, iso_journal, pubmed_central_id, volume, pub_type, ... (null when absent)
  nlohmann::json metadata;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("pubmed_id", self.pubmed_id);
    v.defaulted("title", self.title);
    v.optional("published_year", self.published_year);
    v.defaulted("metadata", self.metadata);
  }
};

struct PublicationDetail : Publication {
  std::vector<Study> studies;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    Publication::fields(self, v);
    v.defaulted("studies", self.studies);
  }
};

struct EuropePmcAnnotationTag {
  std::string name;
  std::string uri;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("name", self.name);
    v.defaulted("uri", self.uri);
  }
};

struct EuropePmcAnnotationMention {
  std::string exact;
  std::optional<std::string> id;
  std::optional<std::string> postfix;
  std::optional<std::string> prefix;
  std::string provider;
  std::string type;
  std::vector<EuropePmcAnnotationTag> tags;
  std::optional<std::string> section;
  std::optional<std::string> icase_text;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("exact", self.exact);
    v.optional("id", self.id);
    v.optional("postfix", self.postfix);
    v.optional("prefix", self.prefix);
    v.defaulted("provider", self.provider);
    v.defaulted("type", self.type);
    v.defaulted("tags", self.tags);
    v.optional("section", self.section);
    v.optional("icase_text", self.icase_text);
  }
};

struct EuropePmcAnnotation {
  std::string annotation_text;
  std::vector<EuropePmcAnnotationMention> mentions;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("annotation_text", self.annotation_text);
    v.defaulted("mentions", self.mentions);
  }
};

struct EuropePmcAnnotationGroup {
  std::string annotation_type;
  std::string title;
  std::string description;
  std::vector<EuropePmcAnnotation> annotations;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("annotation_type", self.annotation_type);
    v.defaulted("title", self.title);
    v.defaulted("description", self.description);
    v.defaulted("annotations", self.annotations);
  }
};

struct PublicationAnnotations {
  std::vector<EuropePmcAnnotationGroup> sample_processing;
  std::vector<EuropePmcAnnotationGroup> other;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("sample_processing", self.sample_processing);
    v.defaulted("other", self.other);
  }
};

MGNIFY_JSON_FIELDS(Publication, "publication")
MGNIFY_JSON_FIELDS(PublicationDetail, "publication")
MGNIFY_JSON_FIELDS(EuropePmcAnnotationTag, "tag")
MGNIFY_JSON_FIELDS(EuropePmcAnnotationMention, "mention")
MGNIFY_JSON_FIELDS(EuropePmcAnnotation, "annotation")
MGNIFY_JSON_FIELDS(EuropePmcAnnotationGroup, "annotation group")
MGNIFY_JSON_FIELDS(PublicationAnnotations, "publication annotations")

}  // namespace v2
MGNIFY_NAMESPACE_END
