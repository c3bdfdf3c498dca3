#pragma once

// Typed filters of the v2 lists. Only the values the service accepts can be
// expressed (orders are enums, the pipeline and experiment type are enums), so
// a bad filter fails here with InvalidArgument instead of as a 422.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "mgnify/error.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

enum class StudyOrder { none, accession, accession_desc, updated_at, updated_at_desc };
enum class SampleOrder { none, sample_title, sample_title_desc, updated_at, updated_at_desc };
enum class PublicationOrder { none, published_year, published_year_desc };
enum class GenomeOrder {
  none,
  accession,
  accession_desc,
  length,
  length_desc,
  completeness,
  completeness_desc,
  contamination,
  contamination_desc,
  num_genomes_total,
  num_genomes_total_desc
};

/// The fields each list can be ordered by, each named once: an order enum
/// lists `none`, then every field ascending followed by the same field
/// descending, and its table names the ascending values ("accession"), whose
/// descending neighbours take the name with '-' first ("-accession").
constexpr auto enum_names(StudyOrder) {
  return enum_table<StudyOrder>({
      {StudyOrder::accession, "accession"},
      {StudyOrder::updated_at, "updated_at"},
  });
}
constexpr auto enum_names(SampleOrder) {
  return enum_table<SampleOrder>({
      {SampleOrder::sample_title, "sample_title"},
      {SampleOrder::updated_at, "updated_at"},
  });
}
constexpr auto enum_names(PublicationOrder) {
  return enum_table<PublicationOrder>({
      {PublicationOrder::published_year, "published_year"},
  });
}
constexpr auto enum_names(GenomeOrder) {
  return enum_table<GenomeOrder>({
      {GenomeOrder::accession, "accession"},
      {GenomeOrder::length, "length"},
      {GenomeOrder::completeness, "completeness"},
      {GenomeOrder::contamination, "contamination"},
      {GenomeOrder::num_genomes_total, "num_genomes_total"},
  });
}

namespace detail {
/// True when Order's ascending fields sit at 1, 3, 5, ... with each one's
/// descending value right after it, as order_text reads them.
template <class Order>
constexpr bool orders_interleaved() {
  int expected = 1;
  for (const auto& name : enum_names(Order{})) {
    if (static_cast<int>(name.value) != expected) return false;
    expected += 2;
  }
  return true;
}
static_assert(orders_interleaved<StudyOrder>() && orders_interleaved<SampleOrder>() &&
              orders_interleaved<PublicationOrder>() && orders_interleaved<GenomeOrder>());

/// The `order` parameter of an order: the field, '-' first when descending;
/// "" for `none`.
template <class Order>
std::string order_text(Order order) {
  for (const auto& name : enum_names(order)) {
    if (name.value == order) return name.text;
    if (static_cast<int>(name.value) + 1 == static_cast<int>(order))
      return std::string("-") + name.text;
  }
  return "";
}
template <class Order>
void add_order(http::Query& q, Order order) {
  const std::string text = order_text(order);
  if (!text.empty()) q.add("order", text);
}
inline void add_if(http::Query& q, const char* key, const std::string& value,
                   http::SpaceEncoding spaces = http::SpaceEncoding::percent20) {
  if (!value.empty()) q.add(key, value, spaces);
}
}  // namespace detail

/// Filters of studies/.
class StudyQuery {
 public:
  /// Title (contains, case-insensitive), MGYS accession or ENA accession. Spaces go as '+'.
  StudyQuery& search(std::string text) {
    search_ = std::move(text);
    return *this;
  }
  /// Lineage such as "root:Host-associated:Human"; matches it and every biome below.
  StudyQuery& biome_lineage(std::string lineage) {
    lineage_ = std::move(lineage);
    return *this;
  }
  /// The service's coarse pipeline filter: V6 and V6.1 both select studies
  /// with any v6 analysis, V5 those with any pre-v6 one, and other versions
  /// are not filtered on. For exactly one version, check each study's
  /// analyses (`study_analyses`, `Analysis::pipeline_version`), as the CLI's
  /// `v2 studies list --pipeline` does.
  StudyQuery& has_analyses_from_pipeline(PipelineVersion version) {
    if (version == PipelineVersion::unknown)
      throw InvalidArgument("has_analyses_from_pipeline needs a known pipeline version");
    pipeline_ = version;
    return *this;
  }
  StudyQuery& order(StudyOrder order) {
    order_ = order;
    return *this;
  }

  http::Query to_query() const {
    http::Query q;
    detail::add_order(q, order_);
    detail::add_if(q, "biome_lineage", lineage_);
    if (pipeline_) q.add("has_analyses_from_pipeline", to_string(*pipeline_));
    detail::add_if(q, "search", search_, http::SpaceEncoding::plus);
    return q;
  }

 private:
  std::string search_;
  std::string lineage_;
  std::optional<PipelineVersion> pipeline_;
  StudyOrder order_ = StudyOrder::none;
};

/// Filters of samples/.
class SampleQuery {
 public:
  /// Sample title (contains) or ENA accession (contains). Spaces go as '+'.
  SampleQuery& search(std::string text) {
    search_ = std::move(text);
    return *this;
  }
  SampleQuery& biome_lineage(std::string lineage) {
    lineage_ = std::move(lineage);
    return *this;
  }
  SampleQuery& order(SampleOrder order) {
    order_ = order;
    return *this;
  }

  http::Query to_query() const {
    http::Query q;
    detail::add_if(q, "biome_lineage", lineage_);
    detail::add_if(q, "search", search_, http::SpaceEncoding::plus);
    detail::add_order(q, order_);
    return q;
  }

 private:
  std::string search_;
  std::string lineage_;
  SampleOrder order_ = SampleOrder::none;
};

/// Filters of runs/.
class RunQuery {
 public:
  /// Sent as the type's code (METAG, AMPLI, ...), which is what the filter takes.
  RunQuery& has_experiment_type(ExperimentType type) {
    if (type == ExperimentType::unknown)
      throw InvalidArgument("has_experiment_type needs a known experiment type");
    type_ = type;
    return *this;
  }

  http::Query to_query() const {
    http::Query q;
    if (type_) q.add("has_experiment_type", experiment_type_code(*type_));
    return q;
  }

 private:
  std::optional<ExperimentType> type_;
};

/// Filters of biomes/.
class BiomeQuery {
 public:
  BiomeQuery& biome_lineage(std::string lineage) {
    lineage_ = std::move(lineage);
    return *this;
  }
  /// Deepest level to list; "root" is depth 1.
  BiomeQuery& max_depth(int depth) {
    if (depth < 1)
      throw InvalidArgument("max_depth must be at least 1, got " + std::to_string(depth));
    max_depth_ = depth;
    return *this;
  }

  http::Query to_query() const {
    http::Query q;
    detail::add_if(q, "biome_lineage", lineage_);
    if (max_depth_) q.add("max_depth", std::to_string(*max_depth_));
    return q;
  }

 private:
  std::string lineage_;
  std::optional<int> max_depth_;
};

/// Filters of publications/.
class PublicationQuery {
 public:
  PublicationQuery& order(PublicationOrder order) {
    order_ = order;
    return *this;
  }
  /// Inclusive lower bound on the publication year.
  PublicationQuery& published_after(int year) {
    after_ = check_year(year);
    return *this;
  }
  /// Inclusive upper bound on the publication year.
  PublicationQuery& published_before(int year) {
    before_ = check_year(year);
    return *this;
  }
  /// Title contains (case-insensitive).
  PublicationQuery& title(std::string text) {
    title_ = std::move(text);
    return *this;
  }

  http::Query to_query() const {
    if (after_ && before_ && *after_ > *before_) {
      throw InvalidArgument("published_after (" + std::to_string(*after_) +
                            ") is later than published_before (" + std::to_string(*before_) + ")");
    }
    http::Query q;
    detail::add_order(q, order_);
    if (after_) q.add("published_after", std::to_string(*after_));
    if (before_) q.add("published_before", std::to_string(*before_));
    detail::add_if(q, "title", title_);
    return q;
  }

 private:
  static int check_year(int year) {
    if (year < 0 || year > 9999) throw InvalidArgument("not a year: " + std::to_string(year));
    return year;
  }
  PublicationOrder order_ = PublicationOrder::none;
  std::optional<int> after_;
  std::optional<int> before_;
  std::string title_;
};

/// Filters of genomes/ and genomes/catalogues/{id}/genomes/ (newer servers; older ones ignore
/// them).
class GenomeQuery {
 public:
  /// Genome accession (exact), taxon lineage or catalogue id (contains). Spaces go as '+'.
  GenomeQuery& search(std::string text) {
    search_ = std::move(text);
    return *this;
  }
  GenomeQuery& biome_lineage(std::string lineage) {
    lineage_ = std::move(lineage);
    return *this;
  }
  GenomeQuery& order(GenomeOrder order) {
    order_ = order;
    return *this;
  }

  http::Query to_query() const {
    http::Query q;
    detail::add_order(q, order_);
    detail::add_if(q, "biome_lineage", lineage_);
    detail::add_if(q, "search", search_, http::SpaceEncoding::plus);
    return q;
  }

 private:
  std::string search_;
  std::string lineage_;
  GenomeOrder order_ = GenomeOrder::none;
};

/// Optional `catalogue_id` of genomes/{acc} and genomes/{acc}/annotations.
struct GenomeLookup {
  std::string catalogue_id;

  http::Query to_query() const {
    http::Query q;
    detail::add_if(q, "catalogue_id", catalogue_id);
    return q;
  }
};

}  // namespace v2
MGNIFY_NAMESPACE_END
