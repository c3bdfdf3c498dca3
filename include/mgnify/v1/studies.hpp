#pragma once

// Catalogue-level models: studies, biomes, publications and super-studies.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/v1/model_base.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// Type `studies`; id is the MGYS accession.
struct Study : ResourceModel {
  std::string accession;
  std::optional<std::string> bioproject;
  std::optional<std::int64_t> samples_count;
  std::optional<bool> is_private;
  /// Named by the service document; current servers send is-private instead.
  std::optional<bool> is_public;
  std::optional<std::string> secondary_accession;
  std::optional<std::string> centre_name;
  std::optional<std::string> public_release_date;
  std::optional<std::string> study_abstract;
  std::optional<std::string> study_name;
  std::optional<std::string> data_origination;
  std::optional<Timestamp> last_update;

  /// Lineages of the biomes the server listed in the `biomes` relationship.
  std::vector<std::string> biome_lineages() const {
    std::vector<std::string> out;
    if (const Relationship* r = relationship("biomes")) {
      for (const auto& ident : r->data) out.push_back(ident.id);
    }
    return out;
  }

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("accession", s.accession);
    v.optional("bioproject", s.bioproject);
    v.optional("samples-count", s.samples_count);
    v.optional("is-private", s.is_private);
    v.optional("is-public", s.is_public);
    v.optional("secondary-accession", s.secondary_accession);
    v.optional("centre-name", s.centre_name);
    v.optional("public-release-date", s.public_release_date);
    v.optional("study-abstract", s.study_abstract);
    v.optional("study-name", s.study_name);
    v.optional("data-origination", s.data_origination);
    v.optional("last-update", s.last_update);
  }

  // `studies` (related studies) comes with ids in a study's own document only.
  template <class V>
  static void relationships(V& v) {
    v.with_ids("biomes");
    v.link_only("publications");
    v.link_only("geocoordinates");
    v.link_only("downloads");
    v.link_only("analyses");
    v.link_only("samples");
    v.link_only("studies");
  }
};
MGNIFY_JSON_FIELDS(Study, "study")

/// Type `biomes`; id is the colon-separated lineage ("root:Environmental:Aquatic").
struct Biome : ResourceModel {
  std::optional<std::int64_t> samples_count;
  std::string biome_name;
  std::string lineage;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.optional("samples-count", s.samples_count);
    v.defaulted("biome-name", s.biome_name);
    v.defaulted("lineage", s.lineage);
  }

  template <class V>
  static void relationships(V& v) {
    v.link_only("samples");
    v.link_only("children");
    v.link_only("genomes");
    v.link_only("studies");
  }
};
MGNIFY_JSON_FIELDS(Biome, "biome")

/// Type `publications`; id is the PubMed id.
struct Publication : ResourceModel {
  std::optional<std::int64_t> pubmed_id;
  std::optional<std::string> pubmed_central_id;
  std::optional<std::string> pub_title;
  std::optional<std::string> pub_abstract;
  std::optional<std::string> authors;
  std::optional<std::string> doi;
  std::optional<std::string> isbn;
  std::optional<std::int64_t> published_year;
  std::optional<std::string> pub_type;
  std::optional<std::string> issue;
  std::optional<std::string> volume;
  std::optional<std::string> raw_pages;
  std::optional<std::string> iso_journal;
  std::optional<std::string> medline_journal;
  std::optional<std::string> pub_url;
  std::optional<std::int64_t> studies_count;
  std::optional<std::int64_t> samples_count;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.optional("pubmed-id", s.pubmed_id);
    v.optional("pubmed-central-id", s.pubmed_central_id);
    v.optional("pub-title", s.pub_title);
    v.optional("pub-abstract", s.pub_abstract);
    v.optional("authors", s.authors);
    v.optional("doi", s.doi);
    v.optional("isbn", s.isbn);
    v.optional("published-year", s.published_year);
    v.optional("pub-type", s.pub_type);
    v.optional("issue", s.issue);
    v.optional("volume", s.volume);
    v.optional("raw-pages", s.raw_pages);
    v.optional("iso-journal", s.iso_journal);
    v.optional("medline-journal", s.medline_journal);
    v.optional("pub-url", s.pub_url);
    v.optional("studies-count", s.studies_count);
    v.optional("samples-count", s.samples_count);
  }

  template <class V>
  static void relationships(V& v) {
    v.link_only("studies");
    v.link_only("samples");
  }
};
MGNIFY_JSON_FIELDS(Publication, "publication")

/// Type `super-studies`; id is the numeric id or the URL slug.
struct SuperStudy : ResourceModel {
  std::optional<std::int64_t> super_study_id;
  std::string title;
  std::optional<std::string> url_slug;
  std::optional<std::string> description;
  std::optional<std::string> image_url;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.optional("super-study-id", s.super_study_id);
    v.defaulted("title", s.title);
    v.optional("url-slug", s.url_slug);
    v.optional("description", s.description);
    v.optional("image-url", s.image_url);
  }

  template <class V>
  static void relationships(V& v) {
    v.link_only("flagship-studies");
    v.link_only("related-studies");
    v.link_only("biomes");
  }
};
MGNIFY_JSON_FIELDS(SuperStudy, "super-study")

}  // namespace v1
MGNIFY_NAMESPACE_END
