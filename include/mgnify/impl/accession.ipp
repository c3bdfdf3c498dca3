#pragma once

// Bodies of mgnify/accession.hpp.

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mgnify/accession.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"

MGNIFY_NAMESPACE_BEGIN

namespace detail {

MGNIFY_DECL std::string_view trim_ascii(std::string_view text) noexcept {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

MGNIFY_DECL bool starts_with_ci(std::string_view text, std::string_view prefix) noexcept {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[i])) !=
        static_cast<unsigned char>(prefix[i])) {
      return false;
    }
  }
  return true;
}

MGNIFY_DECL bool parse_prefixed_number(std::string_view text, std::string_view prefix,
                                       std::size_t width, std::uint64_t& out) noexcept {
  std::string_view digits = trim_ascii(text);
  if (starts_with_ci(digits, prefix)) digits.remove_prefix(prefix.size());
  if (digits.empty() || digits.size() > width) return false;
  std::uint64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  out = value;
  return true;
}

MGNIFY_DECL std::optional<std::int64_t> parse_positive_integer(std::string_view text) noexcept {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value == 0) return std::nullopt;
  return value;
}

MGNIFY_DECL std::string zero_padded(std::uint64_t value, std::size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

}  // namespace detail

namespace detail {

struct InsdcPrefixes {
  AccessionKind kind;
  std::size_t count;
  std::string_view prefixes[6];
  const std::string_view* begin() const noexcept { return prefixes; }
  const std::string_view* end() const noexcept { return prefixes + count; }
};

// No prefix starts another, so the first match is the only one.
inline constexpr InsdcPrefixes kInsdcKinds[] = {
    {AccessionKind::study, 6, {"ERP", "SRP", "DRP", "PRJEB", "PRJNA", "PRJDB"}},
    {AccessionKind::sample, 6, {"ERS", "SRS", "DRS", "SAMEA", "SAMN", "SAMD"}},
    {AccessionKind::run, 3, {"ERR", "SRR", "DRR"}},
    {AccessionKind::assembly, 1, {"ERZ"}},
};

inline const AccessionFormat* mgnify_format(AccessionKind kind) noexcept {
  switch (kind) {
    case AccessionKind::study: return &kStudyAccession;
    case AccessionKind::analysis: return &kAnalysisAccession;
    case AccessionKind::genome: return &kGenomeAccession;
    case AccessionKind::protein: return &kProteinAccession;
    default: return nullptr;
  }
}

inline const InsdcPrefixes* insdc_prefixes(AccessionKind kind) noexcept {
  for (const InsdcPrefixes& k : kInsdcKinds) {
    if (k.kind == kind) return &k;
  }
  return nullptr;
}

inline std::optional<std::string> canonical_insdc(std::string_view text,
                                                  const InsdcPrefixes& kind) {
  const std::string_view trimmed = trim_ascii(text);
  for (const std::string_view prefix : kind) {
    if (!starts_with_ci(trimmed, prefix)) continue;
    const std::string_view digits = trimmed.substr(prefix.size());
    if (digits.empty() || digits.size() > 12 ||
        digits.find_first_not_of("0123456789") != std::string_view::npos) {
      return std::nullopt;
    }
    return std::string(prefix) + std::string(digits);
  }
  return std::nullopt;
}

inline std::string insdc_forms(const InsdcPrefixes& kind) {
  std::string out;
  for (const std::string_view prefix : kind) {
    out += (out.empty() ? "" : ", ") + std::string(prefix);
  }
  return out + " + up to 12 digits";
}

inline std::string mgnify_form(const AccessionFormat& format) {
  return std::string(format.prefix) + " + up to " + std::to_string(format.digits) +
         " digits, e.g. " + format.prefix + zero_padded(1, format.digits);
}

inline const char* kind_name(AccessionKind kind) noexcept {
  switch (kind) {
    case AccessionKind::study: return "a study";
    case AccessionKind::sample: return "a sample";
    case AccessionKind::run: return "a run";
    case AccessionKind::assembly: return "an assembly";
    case AccessionKind::analysis: return "an analysis";
    case AccessionKind::genome: return "a genome";
    case AccessionKind::protein: return "a protein";
  }
  return "an";
}

}  // namespace detail

MGNIFY_DECL std::optional<std::string> canonical_accession(std::string_view text,
                                                           AccessionFormat format) {
  const std::string_view trimmed = detail::trim_ascii(text);
  const bool prefixed = detail::starts_with_ci(trimmed, format.prefix);
  if (!prefixed && format.bare_number != BareNumber::deprecated) return std::nullopt;
  std::uint64_t number = 0;
  if (!detail::parse_prefixed_number(trimmed, format.prefix, format.digits, number) ||
      number == 0) {
    return std::nullopt;
  }
  return std::string(format.prefix) + detail::zero_padded(number, format.digits);
}

MGNIFY_DECL std::string checked_accession(std::string_view text, AccessionFormat format) {
  if (auto canonical = canonical_accession(text, format)) return *canonical;
  throw InvalidArgument("not an " + std::string(format.prefix) + " accession (" +
                        detail::mgnify_form(format) + "): '" + std::string(text) + "'");
}

MGNIFY_DECL std::optional<std::string> canonical_accession(std::string_view text,
                                                           AccessionKind kind) {
  if (const detail::InsdcPrefixes* insdc = detail::insdc_prefixes(kind)) {
    if (auto canonical = detail::canonical_insdc(text, *insdc)) return canonical;
  }
  if (const AccessionFormat* format = detail::mgnify_format(kind)) {
    return canonical_accession(text, *format);
  }
  return std::nullopt;
}

MGNIFY_DECL std::string checked_accession(std::string_view text, AccessionKind kind) {
  if (auto canonical = canonical_accession(text, kind)) return *canonical;
  std::string forms;
  if (const AccessionFormat* format = detail::mgnify_format(kind)) {
    forms = detail::mgnify_form(*format);
  }
  if (const detail::InsdcPrefixes* insdc = detail::insdc_prefixes(kind)) {
    forms += (forms.empty() ? "" : "; or ") + detail::insdc_forms(*insdc);
  }
  throw InvalidArgument("not " + std::string(detail::kind_name(kind)) + " accession (" + forms +
                        "): '" + std::string(text) + "'");
}

MGNIFY_DECL std::optional<AccessionKind> accession_kind(std::string_view text) noexcept {
  const std::string_view trimmed = detail::trim_ascii(text);
  for (const AccessionKind kind : {AccessionKind::study, AccessionKind::analysis,
                                   AccessionKind::genome, AccessionKind::protein}) {
    if (detail::starts_with_ci(trimmed, detail::mgnify_format(kind)->prefix)) return kind;
  }
  for (const detail::InsdcPrefixes& insdc : detail::kInsdcKinds) {
    for (const std::string_view prefix : insdc) {
      if (detail::starts_with_ci(trimmed, prefix)) return insdc.kind;
    }
  }
  return std::nullopt;
}

MGNIFY_DECL std::optional<std::string> canonical_accession(std::string_view text) {
  const std::optional<AccessionKind> kind = accession_kind(text);
  if (!kind) return std::nullopt;
  return canonical_accession(text, *kind);
}

MGNIFY_DECL bool is_deprecated_accession_spelling(std::string_view text,
                                                  AccessionFormat format) noexcept {
  const std::string_view trimmed = detail::trim_ascii(text);
  std::uint64_t number = 0;
  return format.bare_number == BareNumber::deprecated &&
         !detail::starts_with_ci(trimmed, format.prefix) &&
         detail::parse_prefixed_number(trimmed, format.prefix, format.digits, number) &&
         number != 0;
}

MGNIFY_DECL bool is_insdc_study_accession(std::string_view text) {
  const std::string_view trimmed = detail::trim_ascii(text);
  for (const std::string_view prefix : {"ERP", "SRP", "DRP", "PRJ"}) {
    if (detail::starts_with_ci(trimmed, prefix)) return true;
  }
  return false;
}

MGNIFY_DECL std::optional<std::string> canonical_insdc_study_accession(std::string_view text) {
  return detail::canonical_insdc(text, *detail::insdc_prefixes(AccessionKind::study));
}

MGNIFY_DECL std::string checked_insdc_study_accession(std::string_view text) {
  if (auto canonical = canonical_insdc_study_accession(text)) return *canonical;
  throw InvalidArgument("not an INSDC study accession (" +
                        detail::insdc_forms(*detail::insdc_prefixes(AccessionKind::study)) +
                        "): '" + std::string(text) + "'");
}

MGNIFY_DECL std::string checked_pubmed_id(std::int64_t pubmed_id) {
  if (pubmed_id <= 0) {
    throw InvalidArgument("pubmed_id must be positive, got " + std::to_string(pubmed_id));
  }
  return std::to_string(pubmed_id);
}

MGNIFY_NAMESPACE_END
