#pragma once

// The search's parameters as a type. The service wants exactly one filter
// (422 otherwise); a query built only through the named constructors cannot
// hold zero or two, and a limit out of range fails here instead of there.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "mgnify/enum_table.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/proteins/accession.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace proteins {

class SearchQuery {
 public:
  enum class Filter { biome_id, pfam_accession, biome_lineage };
  /// The query parameter of each filter.
  friend constexpr auto enum_names(Filter) {
    return enum_table<Filter>({
        {Filter::biome_id, "biome_id"},
        {Filter::pfam_accession, "pfam_accession"},
        {Filter::biome_lineage, "biome_lineage"},
    });
  }

  /// Largest `limit` the service accepts; also what pfam_to_fasta asks for.
  static constexpr int kMaxLimit = 1000;
  /// What the service returns when no limit is sent.
  static constexpr int kDefaultLimit = 50;

  /// Representatives observed in exactly this biome (ids as in `BiomeEntry::id`).
  static SearchQuery by_biome_id(std::int64_t biome_id) {
    if (biome_id < 1) {
      throw InvalidArgument("biome id must be positive, got " + std::to_string(biome_id));
    }
    return SearchQuery(Filter::biome_id, std::to_string(biome_id));
  }

  /// Representatives with a domain of this Pfam family.
  static SearchQuery by_pfam(const PfamAccession& family) {
    return SearchQuery(Filter::pfam_accession, family.str());
  }
  /// "PF00005", "pf00005" or "5".
  static SearchQuery by_pfam(std::string_view family) { return by_pfam(PfamAccession(family)); }
  static SearchQuery by_pfam(const char* family) { return by_pfam(PfamAccession(family)); }
  static SearchQuery by_pfam(int family) { return by_pfam(PfamAccession(family)); }

  /// Representatives observed in this biome or any of its sub-biomes. The
  /// lineage must be full ("root:Engineered:Wastewater"); the service answers
  /// a partial one with a ValidationError that says so.
  static SearchQuery by_lineage(std::string lineage) {
    if (lineage.find_first_not_of(" \t\r\n") == std::string::npos) {
      throw InvalidArgument("biome lineage must not be empty (e.g. 'root:Engineered:Wastewater')");
    }
    for (char c : lineage) {
      if (static_cast<unsigned char>(c) < 0x20) {
        throw InvalidArgument("biome lineage contains a control character");
      }
    }
    return SearchQuery(Filter::biome_lineage, std::move(lineage));
  }

  /// Caps the number of hits, 1..1000; without it the service returns up to 50.
  SearchQuery& limit(int n) & {
    check_limit(n);
    limit_ = n;
    return *this;
  }
  SearchQuery&& limit(int n) && {
    check_limit(n);
    limit_ = n;
    return std::move(*this);
  }

  Filter filter() const noexcept { return filter_; }
  /// The filter's value as sent: "132", "PF00005" or the lineage text.
  const std::string& value() const noexcept { return value_; }
  const std::optional<int>& limit() const noexcept { return limit_; }

  /// InvalidArgument for a value outside Filter's set (a cast), rather than
  /// a query on another field.
  static const char* parameter_name(Filter f) {
    const char* name = enum_text(f);
    if (*name == '\0') {
      throw InvalidArgument("unknown SearchQuery::Filter " + std::to_string(static_cast<int>(f)));
    }
    return name;
  }

  /// The query string parameters; lineages keep ':' and percent-encode spaces.
  http::Query to_query() const {
    http::Query q;
    q.add(parameter_name(filter_), value_);
    if (limit_) q.add("limit", std::to_string(*limit_));
    return q;
  }

  /// "pfam_accession=PF00005 limit=10", for logs and messages.
  std::string describe() const {
    std::string s = std::string(parameter_name(filter_)) + "=" + value_;
    if (limit_) s += " limit=" + std::to_string(*limit_);
    return s;
  }

 private:
  SearchQuery(Filter filter, std::string value) : filter_(filter), value_(std::move(value)) {}

  static void check_limit(int n) {
    if (n < 1 || n > kMaxLimit) {
      throw InvalidArgument("search limit must be between 1 and " + std::to_string(kMaxLimit) +
                            ", got " + std::to_string(n));
    }
  }

  Filter filter_;
  std::string value_;
  std::optional<int> limit_;
};

}  // namespace proteins
MGNIFY_NAMESPACE_END
