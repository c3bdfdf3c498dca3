#pragma once

// MGnify's own accessions (MGYS studies, MGYA analyses, MGYG genomes, MGYP
// proteins) and PubMed ids, checked once for every client. A malformed id is
// refused before any request: the services answer it with a 404 that reads as
// "no such object", which hides the typo.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mgnify/config.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

/// How an MGnify accession is spelled: a prefix and a fixed number of digits.
struct AccessionFormat {
  const char* prefix;
  std::size_t digits;
};

inline constexpr AccessionFormat kStudyAccession{"MGYS", 8};
inline constexpr AccessionFormat kAnalysisAccession{"MGYA", 8};
inline constexpr AccessionFormat kGenomeAccession{"MGYG", 9};
inline constexpr AccessionFormat kProteinAccession{"MGYP", 12};

/// The accession as the services spell it ("mgys00000001 " -> "MGYS00000001"):
/// surrounding whitespace dropped, letters upper-cased, and then exactly the
/// prefix and `format.digits` digits. Anything else throws InvalidArgument
/// naming the expected form; no digit is guessed.
MGNIFY_DECL std::string checked_accession(std::string_view text, AccessionFormat format);

/// The accession as people type it: any case, surrounding whitespace, and the
/// number without its zero padding ("mgys1" -> "MGYS00000001"). Nullopt when
/// the text does not carry the prefix (bare digits could name any kind), has
/// more digits than the format, anything but digits after the prefix, or the
/// number 0.
MGNIFY_DECL std::optional<std::string> canonical_accession(std::string_view text,
                                                           AccessionFormat format);

/// True for an INSDC study or project accession (ERP, SRP, DRP, PRJEB, PRJNA,
/// PRJDB), in any case: API v1 takes these in place of MGYS.
MGNIFY_DECL bool is_insdc_study_accession(std::string_view text);

/// An INSDC study or project accession as the services spell it ("erp001736 "
/// -> "ERP001736"): surrounding whitespace dropped, the prefix (ERP, SRP,
/// DRP, PRJEB, PRJNA, PRJDB, any case) upper-cased, then 1 to 12 digits and
/// nothing else. Nullopt for anything else.
MGNIFY_DECL std::optional<std::string> canonical_insdc_study_accession(std::string_view text);

/// As canonical_insdc_study_accession, throwing InvalidArgument naming the form.
MGNIFY_DECL std::string checked_insdc_study_accession(std::string_view text);

/// A PubMed id as a path segment; InvalidArgument unless it is positive.
MGNIFY_DECL std::string checked_pubmed_id(std::int64_t pubmed_id);

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
