#pragma once

// The one rule per kind of accession (MGnify's MGYS, MGYA, MGYG and MGYP, the
// INSDC studies, samples, runs and assemblies the services take) and PubMed
// ids, used by every client and the CLI. A malformed id is refused before any
// request: the services answer it with a 404 that reads as "no such object",
// which hides the typo.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

/// Whether an accession of a kind may also be given as its number alone
/// ("383254" for MGYA00383254). Only the kinds that clients took that way
/// before still do, and only for this release: the number names no kind, so
/// the same digits mean a different object in another call.
enum class BareNumber { refused, deprecated };

/// How an MGnify accession is spelled: a prefix and a fixed number of digits.
struct AccessionFormat {
  const char* prefix;
  std::size_t digits;
  BareNumber bare_number = BareNumber::refused;
};

inline constexpr AccessionFormat kStudyAccession{"MGYS", 8};
inline constexpr AccessionFormat kAnalysisAccession{"MGYA", 8, BareNumber::deprecated};
inline constexpr AccessionFormat kGenomeAccession{"MGYG", 9};
inline constexpr AccessionFormat kProteinAccession{"MGYP", 12, BareNumber::deprecated};

/// The kinds of accession the clients take, each with one rule (canonical_accession).
enum class AccessionKind {
  study,     ///< MGYS, or an INSDC study or project: ERP, SRP, DRP, PRJEB, PRJNA, PRJDB
  sample,    ///< INSDC: ERS, SRS, DRS, SAMEA, SAMN, SAMD
  run,       ///< INSDC: ERR, SRR, DRR
  assembly,  ///< ENA analysis: ERZ
  analysis,  ///< MGYA
  genome,    ///< MGYG
  protein,   ///< MGYP
};

/// The rule of an MGnify accession, the same in every client and the CLI
/// ("mgys1 " -> "MGYS00000001"): surrounding ASCII whitespace is dropped, the
/// prefix may be in any case, and the number may come without its zero
/// padding; it is sent as the prefix and `format.digits` digits. Refused
/// (nullopt): another prefix, more digits than the format has, anything but
/// digits after the prefix, the number 0, and the number alone unless the
/// format's bare_number is `deprecated`.
MGNIFY_DECL std::optional<std::string> canonical_accession(std::string_view text,
                                                           AccessionFormat format);

/// As canonical_accession, throwing InvalidArgument naming the expected form.
MGNIFY_DECL std::string checked_accession(std::string_view text, AccessionFormat format);

/// The rule of `kind` (AccessionKind lists the prefixes): an MGnify kind by
/// canonical_accession above; an INSDC kind with surrounding whitespace
/// dropped, its prefix upper-cased and then 1 to 12 digits, kept as typed
/// (INSDC numbers have no fixed width to pad to). A study is either.
MGNIFY_DECL std::optional<std::string> canonical_accession(std::string_view text,
                                                           AccessionKind kind);

/// As canonical_accession(text, kind), throwing InvalidArgument naming the forms.
MGNIFY_DECL std::string checked_accession(std::string_view text, AccessionKind kind);

/// The kind `text` names by its prefix (any case, surrounding whitespace
/// ignored), whether or not the rest is well formed; nullopt for a bare
/// number, which names no kind, and for anything else.
MGNIFY_DECL std::optional<AccessionKind> accession_kind(std::string_view text) noexcept;

/// The canonical spelling of `text` under the rule of the kind its prefix
/// names (accession_kind), or nullopt.
MGNIFY_DECL std::optional<std::string> canonical_accession(std::string_view text);

/// Whether `text` is accepted only as a deprecated spelling of `format`: the
/// number without its prefix. Such text is still accepted in this release.
MGNIFY_DECL bool is_deprecated_accession_spelling(std::string_view text,
                                                  AccessionFormat format) noexcept;

/// True for text starting with an INSDC study or project prefix (ERP, SRP,
/// DRP, PRJ), in any case: API v1 takes these in place of MGYS.
MGNIFY_DECL bool is_insdc_study_accession(std::string_view text);

/// An INSDC study or project accession as the services spell it ("erp001736 "
/// -> "ERP001736"); nullopt for anything else. The rule of AccessionKind::study
/// for its INSDC forms.
MGNIFY_DECL std::optional<std::string> canonical_insdc_study_accession(std::string_view text);

/// As canonical_insdc_study_accession, throwing InvalidArgument naming the form.
MGNIFY_DECL std::string checked_insdc_study_accession(std::string_view text);

/// A PubMed id as a path segment; InvalidArgument unless it is positive.
MGNIFY_DECL std::string checked_pubmed_id(std::int64_t pubmed_id);

/// An accession of one kind, always held in its canonical spelling: built only
/// through the kind's rule, so a value that exists is well formed. It passes
/// wherever a client takes the accession as text.
template <AccessionKind Kind>
class TypedAccession {
 public:
  static constexpr AccessionKind kind = Kind;

  /// Throws InvalidArgument for text the kind's rule refuses.
  explicit TypedAccession(std::string_view text) : text_(checked_accession(text, Kind)) {}

  /// Nullopt for text the kind's rule refuses; for filtering input without exceptions.
  static std::optional<TypedAccession> parse(std::string_view text) {
    std::optional<std::string> canonical = canonical_accession(text, Kind);
    if (!canonical) return std::nullopt;
    return TypedAccession(Canonical{}, std::move(*canonical));
  }

  const std::string& str() const noexcept { return text_; }
  operator const std::string&() const noexcept { return text_; }

  friend bool operator==(const TypedAccession& a, const TypedAccession& b) {
    return a.text_ == b.text_;
  }
  friend bool operator!=(const TypedAccession& a, const TypedAccession& b) {
    return a.text_ != b.text_;
  }
  friend bool operator<(const TypedAccession& a, const TypedAccession& b) {
    return a.text_ < b.text_;
  }
  friend std::ostream& operator<<(std::ostream& os, const TypedAccession& a) {
    return os << a.text_;
  }

 private:
  struct Canonical {};
  TypedAccession(Canonical, std::string text) : text_(std::move(text)) {}
  std::string text_;
};

using StudyAccession = TypedAccession<AccessionKind::study>;
using SampleAccession = TypedAccession<AccessionKind::sample>;
using RunAccession = TypedAccession<AccessionKind::run>;
using AssemblyAccession = TypedAccession<AccessionKind::assembly>;
using AnalysisAccession = TypedAccession<AccessionKind::analysis>;
using GenomeAccession = TypedAccession<AccessionKind::genome>;

// Both are parameter types that stand for the text a call took before, so their
// conversions are implicit. NOLINTBEGIN(google-explicit-constructor)

/// How a client call that takes an accession of one kind takes it: as text,
/// which the call checks by the kind's rule as before, or as that kind's
/// TypedAccession (`Typed`: `AccessionArg<RunAccession>`). A TypedAccession of
/// another kind does not compile: `v1.run(StudyAccession("MGYS1"))` would
/// otherwise convert to its text and ask the runs for a study.
template <class Typed>
class AccessionArg {
 public:
  AccessionArg(const std::string& text) : text_(text) {}
  AccessionArg(const char* text) : text_(text) {}
  AccessionArg(const Typed& accession) : text_(accession.str()) {}
  template <AccessionKind Other>
  AccessionArg(const TypedAccession<Other>&) = delete;

  const std::string& str() const noexcept { return text_; }
  operator const std::string&() const noexcept { return text_; }

 private:
  std::string text_;
};

/// How a batch call takes accessions of one kind: texts (each checked by its own
/// item, as before), that kind's TypedAccessions, or a braced list of either;
/// another kind's TypedAccession does not compile, alone or in a braced list.
template <class Typed>
class AccessionList {
 public:
  AccessionList(const std::vector<std::string>& texts) : texts_(&texts) {}
  AccessionList(const std::vector<Typed>& accessions) {
    owned_.reserve(accessions.size());
    for (const Typed& accession : accessions) owned_.push_back(accession.str());
  }
  AccessionList(std::initializer_list<AccessionArg<Typed>> accessions) {
    owned_.reserve(accessions.size());
    for (const AccessionArg<Typed>& accession : accessions) owned_.push_back(accession.str());
  }
  template <AccessionKind Other>
  AccessionList(const std::vector<TypedAccession<Other>>&) = delete;
  // Holds the caller's vector by address: a copy could outlive it.
  AccessionList(const AccessionList&) = delete;
  AccessionList& operator=(const AccessionList&) = delete;

  const std::vector<std::string>& texts() const noexcept { return texts_ ? *texts_ : owned_; }
  operator const std::vector<std::string>&() const noexcept { return texts(); }

 private:
  const std::vector<std::string>* texts_ = nullptr;
  std::vector<std::string> owned_;
};

// NOLINTEND(google-explicit-constructor)

namespace detail {

/// `text` without surrounding ASCII whitespace.
MGNIFY_DECL std::string_view trim_ascii(std::string_view text) noexcept;
/// Whether `text` starts with the upper-case `prefix`, ignoring the case of `text`.
MGNIFY_DECL bool starts_with_ci(std::string_view text, std::string_view prefix) noexcept;
/// Parses an optional case-insensitive `prefix` followed by 1 to `width`
/// decimal digits (surrounding whitespace ignored). False for anything else.
MGNIFY_DECL bool parse_prefixed_number(std::string_view text, std::string_view prefix,
                                       std::size_t width, std::uint64_t& out) noexcept;
/// A positive decimal number of at most 18 digits (so it fits std::int64_t),
/// digits only; nullopt for anything else.
MGNIFY_DECL std::optional<std::int64_t> parse_positive_integer(std::string_view text) noexcept;
/// `value` in decimal, left-padded with zeros to `width` digits.
MGNIFY_DECL std::string zero_padded(std::uint64_t value, std::size_t width);

}  // namespace detail

MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/impl/accession.ipp"
#endif
