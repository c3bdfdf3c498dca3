#pragma once

// Publications linked to studies, and Europe PMC text-mined annotations of one.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/v2/decode.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

struct Publication {
  std::int64_t pubmed_id = 0;
  std::string title;
  std::optional<std::int64_t> published_year;
  /// authors, doi, isbn, iso_journal, pubmed_central_id, volume, pub_type, ... (null when absent)
  nlohmann::json metadata;
  RawJson raw;
};

struct PublicationDetail : Publication {
  std::vector<Study> studies;
};

struct EuropePmcAnnotationTag {
  std::string name;
  std::string uri;
  RawJson raw;
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
  RawJson raw;
};

struct EuropePmcAnnotation {
  std::string annotation_text;
  std::vector<EuropePmcAnnotationMention> mentions;
  RawJson raw;
};

struct EuropePmcAnnotationGroup {
  std::string annotation_type;
  std::string title;
  std::string description;
  std::vector<EuropePmcAnnotation> annotations;
  RawJson raw;
};

struct PublicationAnnotations {
  std::vector<EuropePmcAnnotationGroup> sample_processing;
  std::vector<EuropePmcAnnotationGroup> other;
  RawJson raw;
};

inline void from_json(const nlohmann::json& j, Publication& p) {
  detail::expect_object(j, "publication");
  mgnify::detail::read_required(j, "pubmed_id", p.pubmed_id);
  mgnify::detail::read_or_keep(j, "title", p.title);
  mgnify::detail::read_optional(j, "published_year", p.published_year);
  if (auto it = j.find("metadata"); it != j.end()) p.metadata = *it;
  p.raw = j;
}

inline void to_json(nlohmann::json& j, const Publication& p) {
  j = detail::base_object(p.raw);
  j["pubmed_id"] = p.pubmed_id;
  j["title"] = p.title;
  mgnify::detail::write_optional(j, "published_year", p.published_year);
  j["metadata"] = p.metadata;
}

inline void from_json(const nlohmann::json& j, PublicationDetail& p) {
  from_json(j, static_cast<Publication&>(p));
  mgnify::detail::read_or_keep(j, "studies", p.studies);
}

inline void to_json(nlohmann::json& j, const PublicationDetail& p) {
  to_json(j, static_cast<const Publication&>(p));
  j["studies"] = p.studies;
}

inline void from_json(const nlohmann::json& j, EuropePmcAnnotationTag& t) {
  detail::expect_object(j, "tag");
  mgnify::detail::read_or_keep(j, "name", t.name);
  mgnify::detail::read_or_keep(j, "uri", t.uri);
  t.raw = j;
}
inline void to_json(nlohmann::json& j, const EuropePmcAnnotationTag& t) {
  j = detail::base_object(t.raw);
  j["name"] = t.name;
  j["uri"] = t.uri;
}

inline void from_json(const nlohmann::json& j, EuropePmcAnnotationMention& m) {
  detail::expect_object(j, "mention");
  mgnify::detail::read_or_keep(j, "exact", m.exact);
  mgnify::detail::read_optional(j, "id", m.id);
  mgnify::detail::read_optional(j, "postfix", m.postfix);
  mgnify::detail::read_optional(j, "prefix", m.prefix);
  mgnify::detail::read_or_keep(j, "provider", m.provider);
  mgnify::detail::read_or_keep(j, "type", m.type);
  mgnify::detail::read_or_keep(j, "tags", m.tags);
  mgnify::detail::read_optional(j, "section", m.section);
  mgnify::detail::read_optional(j, "icase_text", m.icase_text);
  m.raw = j;
}
inline void to_json(nlohmann::json& j, const EuropePmcAnnotationMention& m) {
  j = detail::base_object(m.raw);
  j["exact"] = m.exact;
  mgnify::detail::write_optional(j, "id", m.id);
  mgnify::detail::write_optional(j, "postfix", m.postfix);
  mgnify::detail::write_optional(j, "prefix", m.prefix);
  j["provider"] = m.provider;
  j["type"] = m.type;
  j["tags"] = m.tags;
  mgnify::detail::write_optional(j, "section", m.section);
}

inline void from_json(const nlohmann::json& j, EuropePmcAnnotation& a) {
  detail::expect_object(j, "annotation");
  mgnify::detail::read_or_keep(j, "annotation_text", a.annotation_text);
  mgnify::detail::read_or_keep(j, "mentions", a.mentions);
  a.raw = j;
}
inline void to_json(nlohmann::json& j, const EuropePmcAnnotation& a) {
  j = detail::base_object(a.raw);
  j["annotation_text"] = a.annotation_text;
  j["mentions"] = a.mentions;
}

inline void from_json(const nlohmann::json& j, EuropePmcAnnotationGroup& g) {
  detail::expect_object(j, "annotation group");
  mgnify::detail::read_or_keep(j, "annotation_type", g.annotation_type);
  mgnify::detail::read_or_keep(j, "title", g.title);
  mgnify::detail::read_or_keep(j, "description", g.description);
  mgnify::detail::read_or_keep(j, "annotations", g.annotations);
  g.raw = j;
}
inline void to_json(nlohmann::json& j, const EuropePmcAnnotationGroup& g) {
  j = detail::base_object(g.raw);
  j["annotation_type"] = g.annotation_type;
  j["title"] = g.title;
  j["description"] = g.description;
  j["annotations"] = g.annotations;
}

inline void from_json(const nlohmann::json& j, PublicationAnnotations& p) {
  detail::expect_object(j, "publication annotations");
  mgnify::detail::read_or_keep(j, "sample_processing", p.sample_processing);
  mgnify::detail::read_or_keep(j, "other", p.other);
  p.raw = j;
}
inline void to_json(nlohmann::json& j, const PublicationAnnotations& p) {
  j = detail::base_object(p.raw);
  j["sample_processing"] = p.sample_processing;
  j["other"] = p.other;
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
