#pragma once

// Typed records of the Protein service. Decoding is lenient where the service
// is undocumented (every nested scalar may be missing or null) and strict
// where a wrong type would mean a misunderstanding (an accession that is not a
// string). Each model keeps the object it came from in `raw` (a RawJson: see
// raw_json.hpp for when nested entries share their parent's), and to_json
// starts from `raw`, so fields this SDK does not know survive a round trip.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace proteins {

/// A biome in which a protein was observed.
struct BiomeEntry {
  std::int64_t id = 0;                 // the value `SearchQuery::by_biome_id` accepts
  std::string name;                    // full lineage, "root:Environmental:Aquatic:Marine"
  std::optional<std::int64_t> count;   // occurrences in that biome
  RawJson raw;
};

/// One Pfam domain match within a protein.
struct PfamAnnotation {
  std::string accession;  // "PF04659"
  std::string name;
  std::optional<std::string> clan;  // null for families outside any clan
  std::optional<double> evalue;
  std::optional<double> bit_score;
  std::optional<std::int64_t> hmm_start;
  std::optional<std::int64_t> hmm_end;
  std::optional<std::int64_t> env_start;
  std::optional<std::int64_t> env_end;
  RawJson raw;
};

/// DNA strand of a contig hit. The service documents only "-"; its backing
/// stores use 1/-1, so both spellings decode to the same value.
enum class Strand { forward, reverse };

inline const char* strand_symbol(Strand s) noexcept { return s == Strand::forward ? "+" : "-"; }

/// Where a protein was found: one contig of one assembly of one study.
struct ContigEntry {
  std::string study_accession;     // "ERP108403"
  std::string assembly_accession;  // "ERZ534239"
  std::string contig_accession;    // "MGYC000564781877"
  std::string contig_name;
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> end;
  std::optional<Strand> strand;  // nullopt when the service sent null, "" or "."
  RawJson raw;
};

/// The record of one cluster representative (GET /protein/{mgyp}).
struct Protein {
  std::string mgyp;  // canonical accession of the record actually returned
  std::string sequence;
  std::optional<bool> full_length;  // true: full-length ORF, false: fragment
  std::optional<std::int64_t> cluster_size;
  std::vector<BiomeEntry> biomes;
  std::vector<PfamAnnotation> pfam_annotations;
  std::vector<ContigEntry> study_assembly_contigs;

  /// Set by ProteinClient::get when the requested accession had been
  /// superseded: the accession the caller asked for. Not part of the JSON.
  std::optional<std::string> superseded_from;
  /// Every accession the request passed through before `mgyp`, in order
  /// (two entries for a two-hop chain). Empty unless superseded. Not part of the JSON.
  std::vector<std::string> superseded_chain;

  bool superseded() const noexcept { return superseded_from.has_value(); }

  RawJson raw;
};

/// One hit of GET /protein/search. The service sends full_length and
/// cluster_size too, but documents only `mgyp`, hence the optionals.
struct SearchHit {
  std::string mgyp;
  std::optional<bool> full_length;
  std::optional<std::int64_t> cluster_size;
  RawJson raw;
};

namespace detail {

inline void require_object(const nlohmann::json& j, const char* what) {
  if (!j.is_object()) {
    throw DecodeError("", "", std::string("expected a ") + what + " object, got " + j.type_name());
  }
}

/// Starts a to_json result from the raw object so unknown keys are kept.
inline nlohmann::json base_object(const nlohmann::json& raw) {
  return raw.is_object() ? raw : nlohmann::json::object();
}

inline std::optional<Strand> parse_strand(const nlohmann::json& value) {
  if (value.is_null()) return std::nullopt;
  if (value.is_number_integer()) {
    const auto n = value.get<std::int64_t>();
    if (n == 1) return Strand::forward;
    if (n == -1) return Strand::reverse;
  } else if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (s == "+" || s == "1" || s == "+1") return Strand::forward;
    if (s == "-" || s == "-1") return Strand::reverse;
    if (s.empty() || s == ".") return std::nullopt;
  }
  throw DecodeError("/strand", "", "unrecognised strand " + value.dump() +
                                       " (expected \"+\", \"-\", 1, -1 or null)");
}

/// Decodes an array member element by element, so a failure names its index
/// ("/biomes/2/id"). Absent or null leaves `out` empty.
template <class T>
void read_array(const nlohmann::json& j, const char* key, std::vector<T>& out) {
  out.clear();
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  const std::string path = std::string("/") + key;
  if (!it->is_array()) {
    throw DecodeError(path, "", std::string("expected an array, got ") + it->type_name());
  }
  out.reserve(it->size());
  std::size_t index = 0;
  for (const auto& element : *it) {
    out.push_back(mgnify::detail::convert_at<T>(element, path + "/" + std::to_string(index++)));
  }
}

template <class T>
void share_raw(const RawJson& parent, const char* key, std::vector<T>& entries) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    entries[i].raw = RawJson::view(parent, std::string("/") + key + "/" + std::to_string(i));
  }
}

}  // namespace detail

inline void from_json(const nlohmann::json& j, BiomeEntry& b) {
  detail::require_object(j, "biome entry");
  using mgnify::detail::read_optional;
  using mgnify::detail::read_or_keep;
  using mgnify::detail::read_required;
  read_required(j, "id", b.id);
  read_or_keep(j, "name", b.name);
  read_optional(j, "count", b.count);
  b.raw = j;
}

inline void to_json(nlohmann::json& j, const BiomeEntry& b) {
  j = detail::base_object(b.raw);
  j["id"] = b.id;
  j["name"] = b.name;
  mgnify::detail::write_optional(j, "count", b.count);
}

inline void from_json(const nlohmann::json& j, PfamAnnotation& p) {
  detail::require_object(j, "Pfam annotation");
  using mgnify::detail::read_optional;
  using mgnify::detail::read_or_keep;
  using mgnify::detail::read_required;
  read_required(j, "accession", p.accession);
  read_or_keep(j, "name", p.name);
  read_optional(j, "clan", p.clan);
  read_optional(j, "evalue", p.evalue);
  read_optional(j, "bit_score", p.bit_score);
  read_optional(j, "hmm_start", p.hmm_start);
  read_optional(j, "hmm_end", p.hmm_end);
  read_optional(j, "env_start", p.env_start);
  read_optional(j, "env_end", p.env_end);
  p.raw = j;
}

inline void to_json(nlohmann::json& j, const PfamAnnotation& p) {
  using mgnify::detail::write_optional;
  j = detail::base_object(p.raw);
  j["accession"] = p.accession;
  j["name"] = p.name;
  write_optional(j, "clan", p.clan);
  write_optional(j, "evalue", p.evalue);
  write_optional(j, "bit_score", p.bit_score);
  write_optional(j, "hmm_start", p.hmm_start);
  write_optional(j, "hmm_end", p.hmm_end);
  write_optional(j, "env_start", p.env_start);
  write_optional(j, "env_end", p.env_end);
}

inline void from_json(const nlohmann::json& j, ContigEntry& c) {
  detail::require_object(j, "contig entry");
  using mgnify::detail::read_optional;
  using mgnify::detail::read_or_keep;
  read_or_keep(j, "study_accession", c.study_accession);
  read_or_keep(j, "assembly_accession", c.assembly_accession);
  read_or_keep(j, "contig_accession", c.contig_accession);
  read_or_keep(j, "contig_name", c.contig_name);
  read_optional(j, "start", c.start);
  read_optional(j, "end", c.end);
  if (auto it = j.find("strand"); it != j.end()) {
    c.strand = detail::parse_strand(*it);
  } else {
    c.strand.reset();
  }
  c.raw = j;
}

inline void to_json(nlohmann::json& j, const ContigEntry& c) {
  using mgnify::detail::write_optional;
  j = detail::base_object(c.raw);
  j["study_accession"] = c.study_accession;
  j["assembly_accession"] = c.assembly_accession;
  j["contig_accession"] = c.contig_accession;
  j["contig_name"] = c.contig_name;
  write_optional(j, "start", c.start);
  write_optional(j, "end", c.end);
  if (c.strand) {
    j["strand"] = strand_symbol(*c.strand);
  } else {
    j["strand"] = nullptr;
  }
}

inline void from_json(const nlohmann::json& j, Protein& p) {
  detail::require_object(j, "protein");
  using mgnify::detail::read_optional;
  using mgnify::detail::read_or_keep;
  using mgnify::detail::read_required;
  read_required(j, "mgyp", p.mgyp);
  read_or_keep(j, "sequence", p.sequence);
  read_optional(j, "full_length", p.full_length);
  read_optional(j, "cluster_size", p.cluster_size);
  detail::read_array(j, "biomes", p.biomes);
  detail::read_array(j, "pfam_annotations", p.pfam_annotations);
  detail::read_array(j, "study_assembly_contigs", p.study_assembly_contigs);
  p.raw = j;
  // Entries view the record's raw instead of keeping a copy each.
  detail::share_raw(p.raw, "biomes", p.biomes);
  detail::share_raw(p.raw, "pfam_annotations", p.pfam_annotations);
  detail::share_raw(p.raw, "study_assembly_contigs", p.study_assembly_contigs);
}

inline void to_json(nlohmann::json& j, const Protein& p) {
  using mgnify::detail::write_optional;
  j = detail::base_object(p.raw);
  j["mgyp"] = p.mgyp;
  j["sequence"] = p.sequence;
  write_optional(j, "full_length", p.full_length);
  write_optional(j, "cluster_size", p.cluster_size);
  j["biomes"] = p.biomes;
  j["pfam_annotations"] = p.pfam_annotations;
  j["study_assembly_contigs"] = p.study_assembly_contigs;
}

inline void from_json(const nlohmann::json& j, SearchHit& h) {
  detail::require_object(j, "search hit");
  using mgnify::detail::read_optional;
  using mgnify::detail::read_required;
  read_required(j, "mgyp", h.mgyp);
  read_optional(j, "full_length", h.full_length);
  read_optional(j, "cluster_size", h.cluster_size);
  h.raw = j;
}

inline void to_json(nlohmann::json& j, const SearchHit& h) {
  using mgnify::detail::write_optional;
  j = detail::base_object(h.raw);
  j["mgyp"] = h.mgyp;
  write_optional(j, "full_length", h.full_length);
  write_optional(j, "cluster_size", h.cluster_size);
}

}  // namespace proteins
}  // namespace v0
}  // namespace mgnify
