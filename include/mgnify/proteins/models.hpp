#pragma once

// Typed records of the Protein service. Decoding is lenient where the service
// is undocumented (every nested scalar may be missing or null) and strict
// where a wrong type would mean a misunderstanding (an accession that is not a
// string). Each model lists its fields once (detail/fields.hpp) and keeps the
// object it came from in `raw` (a RawJson: see raw_json.hpp for when nested
// entries share their parent's), so fields this SDK does not know survive a
// round trip.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/error.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace proteins {

/// A biome in which a protein was observed.
struct BiomeEntry {
  std::int64_t id = 0;                // the value `SearchQuery::by_biome_id` accepts
  std::string name;                   // full lineage, "root:Environmental:Aquatic:Marine"
  std::optional<std::int64_t> count;  // occurrences in that biome
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("id", self.id);
    v.defaulted("name", self.name);
    v.optional("count", self.count);
  }
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
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("accession", self.accession);
    v.defaulted("name", self.name);
    v.optional("clan", self.clan);
    v.optional("evalue", self.evalue);
    v.optional("bit_score", self.bit_score);
    v.optional("hmm_start", self.hmm_start);
    v.optional("hmm_end", self.hmm_end);
    v.optional("env_start", self.env_start);
    v.optional("env_end", self.env_end);
  }
};

/// DNA strand of a contig hit.
enum class Strand { forward, reverse };

inline const char* strand_symbol(Strand s) noexcept { return s == Strand::forward ? "+" : "-"; }

/// The strand of a contig hit as the service sent it. The service documents
/// only "-" and not the whole value set; its backing stores use 1/-1. The
/// spellings "+", "+1", "1", 1 and "-", "-1", -1 name a direction; null, ""
/// and "." name none. Any other string or number is kept as sent, with
/// known() false, rather than costing the protein record; every value encodes
/// back exactly as it was received.
class StrandValue {
 public:
  StrandValue() = default;
  /// A direction set by the caller, written as "+" or "-".
  StrandValue(Strand direction)  // NOLINT: implicit, like std::optional<Strand>
      : sent_(strand_symbol(direction)), direction_(direction) {}

  /// Reads a value as sent; only arrays, objects and booleans are refused.
  static StrandValue from_sent(nlohmann::json sent) {
    StrandValue out;
    if (sent.is_string()) {
      const auto& s = sent.get_ref<const std::string&>();
      if (s == "+" || s == "+1" || s == "1") out.direction_ = Strand::forward;
      if (s == "-" || s == "-1") out.direction_ = Strand::reverse;
      out.known_ = out.direction_ || s.empty() || s == ".";
    } else if (sent.is_number_integer()) {
      const auto n = sent.get<std::int64_t>();
      if (n == 1) out.direction_ = Strand::forward;
      if (n == -1) out.direction_ = Strand::reverse;
      out.known_ = out.direction_.has_value();
    } else if (sent.is_number() || sent.is_null()) {
      out.known_ = sent.is_null();
    } else {
      throw DecodeError("", "",
                        std::string("expected a strand string or number, got ") + sent.type_name());
    }
    out.sent_ = std::move(sent);
    return out;
  }

  /// True when the value names a direction.
  bool has_value() const noexcept { return direction_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  /// The direction; only meaningful when has_value().
  Strand operator*() const noexcept { return direction_.value_or(Strand::forward); }
  /// False for a value outside the spellings above (see sent()).
  bool known() const noexcept { return known_; }
  /// The value exactly as the service sent it (null when it sent none).
  const nlohmann::json& sent() const noexcept { return sent_; }

  friend bool operator==(const StrandValue& a, Strand b) { return a.direction_ == b; }
  friend bool operator!=(const StrandValue& a, Strand b) { return !(a == b); }
  friend bool operator==(const StrandValue& a, const StrandValue& b) { return a.sent_ == b.sent_; }
  friend bool operator!=(const StrandValue& a, const StrandValue& b) { return !(a == b); }

 private:
  nlohmann::json sent_;
  std::optional<Strand> direction_;
  bool known_ = true;
};

inline void from_json(const nlohmann::json& j, StrandValue& out) {
  out = StrandValue::from_sent(j);
}
inline void to_json(nlohmann::json& j, const StrandValue& value) { j = value.sent(); }

/// Where a protein was found: one contig of one assembly of one study.
struct ContigEntry {
  std::string study_accession;     // "ERP108403"
  std::string assembly_accession;  // "ERZ534239"
  std::string contig_accession;    // "MGYC000564781877"
  std::string contig_name;
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> end;
  StrandValue strand;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("study_accession", self.study_accession);
    v.defaulted("assembly_accession", self.assembly_accession);
    v.defaulted("contig_accession", self.contig_accession);
    v.defaulted("contig_name", self.contig_name);
    v.optional("start", self.start);
    v.optional("end", self.end);
    v.defaulted("strand", self.strand);
  }
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

  /// Set by ProteinClient::protein when the requested accession had been
  /// superseded: the accession the caller asked for. Not part of the JSON.
  std::optional<std::string> superseded_from;
  /// Every accession the request passed through before `mgyp`, in order
  /// (two entries for a two-hop chain). Empty unless superseded. Not part of the JSON.
  std::vector<std::string> superseded_chain;

  bool superseded() const noexcept { return superseded_from.has_value(); }

  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("mgyp", self.mgyp);
    v.defaulted("sequence", self.sequence);
    v.optional("full_length", self.full_length);
    v.optional("cluster_size", self.cluster_size);
    v.defaulted("biomes", self.biomes);
    v.defaulted("pfam_annotations", self.pfam_annotations);
    v.defaulted("study_assembly_contigs", self.study_assembly_contigs);
  }
};

/// One hit of GET /protein/search. The service sends full_length and
/// cluster_size too, but documents only `mgyp`, hence the optionals.
struct SearchHit {
  std::string mgyp;
  std::optional<bool> full_length;
  std::optional<std::int64_t> cluster_size;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("mgyp", self.mgyp);
    v.optional("full_length", self.full_length);
    v.optional("cluster_size", self.cluster_size);
  }
};

MGNIFY_JSON_FIELDS(BiomeEntry, "biome entry")
MGNIFY_JSON_FIELDS(PfamAnnotation, "Pfam annotation")
MGNIFY_JSON_FIELDS(ContigEntry, "contig entry")
MGNIFY_JSON_FIELDS(Protein, "protein")
MGNIFY_JSON_FIELDS(SearchHit, "search hit")

}  // namespace proteins
MGNIFY_NAMESPACE_END
