#pragma once

// Query parameters for v1 lists and documents: the filters. How a list is
// walked (page size, first page, how many items) is ListOptions, apart. The
// service silently ignores parameters it does not know (a typo returns
// unfiltered data), so every documented filter has a typed builder here;
// `param()` is the escape hatch for anything else. Each builder replaces an
// earlier value of the same key.

#include <charconv>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/enum_table.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// Which of an analysis's taxonomy lists to read.
enum class TaxonomyKind { legacy, ssu, lsu, itsonedb, unite };

/// The path under analyses/{acc}/ of each list.
constexpr auto enum_names(TaxonomyKind) {
  return enum_table<TaxonomyKind>({
      {TaxonomyKind::legacy, "taxonomy"},
      {TaxonomyKind::ssu, "taxonomy/ssu"},
      {TaxonomyKind::lsu, "taxonomy/lsu"},
      {TaxonomyKind::itsonedb, "taxonomy/itsonedb"},
      {TaxonomyKind::unite, "taxonomy/unite"},
  });
}

/// The path segment of a taxonomy list; InvalidArgument for a value outside
/// TaxonomyKind's set (a cast), rather than another list's segment.
inline const char* taxonomy_path(TaxonomyKind kind) {
  const char* path = enum_text(kind);
  if (*path == '\0') {
    throw InvalidArgument("unknown TaxonomyKind " + std::to_string(static_cast<int>(kind)));
  }
  return path;
}

class Query {
 public:
  /// Related objects to embed (`include=a,b`); only some are supported per endpoint.
  Query& include(const std::vector<std::string>& relationships) {
    if (relationships.empty())
      throw InvalidArgument("include needs at least one relationship name");
    std::string joined;
    for (const auto& r : relationships) {
      require_text("include", r);
      if (r.find(',') != std::string::npos)
        throw InvalidArgument("include names must not contain ','");
      if (!joined.empty()) joined.push_back(',');
      joined += r;
    }
    params_.set("include", joined);
    return *this;
  }
  /// Sort field as the service names it (study_id, accession, last_update, ...).
  Query& ordering(const std::string& field, bool descending = false) {
    require_text("ordering", field);
    if (field.front() == '-')
      throw InvalidArgument("pass descending=true instead of a leading '-'");
    params_.set("ordering", descending ? "-" + field : field);
    return *this;
  }
  Query& search(const std::string& text) { return text_filter("search", text); }

  // Sample, run and analysis filters.
  Query& experiment_type(const std::string& type) { return text_filter("experiment_type", type); }
  Query& metadata_key(const std::string& key) { return text_filter("metadata_key", key); }
  Query& metadata_value(const std::string& value) { return text_filter("metadata_value", value); }
  Query& metadata_value_lte(double bound) { return number_filter("metadata_value_lte", bound); }
  Query& metadata_value_gte(double bound) { return number_filter("metadata_value_gte", bound); }
  Query& species(const std::string& name) { return text_filter("species", name); }
  Query& geo_loc_name(const std::string& name) { return text_filter("geo_loc_name", name); }
  Query& latitude_gte(double v) { return number_filter("latitude_gte", v); }
  Query& latitude_lte(double v) { return number_filter("latitude_lte", v); }
  Query& longitude_gte(double v) { return number_filter("longitude_gte", v); }
  Query& longitude_lte(double v) { return number_filter("longitude_lte", v); }
  Query& instrument_platform(const std::string& v) { return text_filter("instrument_platform", v); }
  Query& instrument_model(const std::string& v) { return text_filter("instrument_model", v); }
  Query& study_accession(const std::string& v) { return text_filter("study_accession", v); }
  Query& sample_accession(const std::string& v) { return text_filter("sample_accession", v); }
  Query& run_accession(const std::string& v) { return text_filter("run_accession", v); }
  Query& pipeline_version(const std::string& v) { return text_filter("pipeline_version", v); }
  /// One or more accessions (sent comma-separated).
  Query& accession(const std::vector<std::string>& accessions) {
    if (accessions.empty()) throw InvalidArgument("accession needs at least one value");
    std::string joined;
    for (const auto& a : accessions) {
      require_text("accession", a);
      if (!joined.empty()) joined.push_back(',');
      joined += a;
    }
    params_.set("accession", joined);
    return *this;
  }

  // Study filters (lineage and biome_name apply to samples, runs and analyses too).
  /// An existing lineage; the whole subtree matches. Unknown lineages are a 400.
  Query& lineage(const std::string& lineage) { return text_filter("lineage", lineage); }
  /// Case-insensitive pattern matched against biome lineages.
  Query& biome_name(const std::string& pattern) { return text_filter("biome_name", pattern); }
  Query& centre_name(const std::string& pattern) { return text_filter("centre_name", pattern); }

  // Contig list filters (/analyses/{acc}/contigs).
  Query& contig_length_gte(long long length) { return int_filter("gt", length); }
  Query& contig_length_lte(long long length) { return int_filter("lt", length); }
  Query& contig_annotation(const std::string& kind, const std::string& accession) {
    static const char* const kinds[] = {"cog", "kegg", "go", "interpro", "pfam", "antismash"};
    bool known = false;
    for (const char* k : kinds) known = known || kind == k;
    if (!known)
      throw InvalidArgument(
          "contig annotation kind must be cog, kegg, go, interpro, pfam or antismash");
    return text_filter(kind, accession);
  }

  /// The strict JSON:API filters of /biomes: `filter[field]=value`.
  Query& filter(const std::string& field, const std::string& value) {
    require_text("filter field", field);
    return text_filter("filter[" + field + "]", value);
  }

  /// Any other parameter, sent as given (the service ignores unknown names silently).
  Query& param(const std::string& key, const std::string& value) {
    require_text("parameter name", key);
    if (key == "page" || key == "cursor") {
      throw InvalidArgument("'" + key + "' is managed by the pager; follow links instead");
    }
    if (key == "page_size") {
      throw InvalidArgument("page_size is a ListOptions setting, not a filter");
    }
    params_.set(key, value);
    return *this;
  }

  const http::Query& params() const noexcept { return params_; }
  bool has(const std::string& key) const {
    for (const auto& p : params_.params()) {
      if (p.key == key) return true;
    }
    return false;
  }

 private:
  static void require_text(const char* what, const std::string& value) {
    if (value.empty()) throw InvalidArgument(std::string(what) + " must not be empty");
  }
  Query& text_filter(const std::string& key, const std::string& value) {
    require_text(key.c_str(), value);
    params_.set(key, value);
    return *this;
  }
  Query& number_filter(const std::string& key, double value) {
    if (!(value == value) || value > 1e300 || value < -1e300) {
      throw InvalidArgument(key + " must be a finite number");
    }
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    params_.set(key, std::string(buf, r.ptr));
    return *this;
  }
  Query& int_filter(const std::string& key, long long value) {
    if (value < 0) throw InvalidArgument(key + " must not be negative");
    params_.set(key, std::to_string(value));
    return *this;
  }

  http::Query params_;
};

}  // namespace v1
MGNIFY_NAMESPACE_END
