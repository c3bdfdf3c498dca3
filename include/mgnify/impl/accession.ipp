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

MGNIFY_DECL std::string checked_accession(std::string_view text, AccessionFormat format) {
  const std::string_view trimmed = detail::trim_ascii(text);
  const std::string_view prefix(format.prefix);
  std::uint64_t number = 0;
  const bool whole = trimmed.size() == prefix.size() + format.digits &&
                     detail::starts_with_ci(trimmed, format.prefix) &&
                     detail::parse_prefixed_number(trimmed, format.prefix, format.digits, number);
  if (!whole) {
    throw InvalidArgument("not an " + std::string(prefix) + " accession (" + std::string(prefix) +
                          " + " +
                          std::to_string(format.digits) + " digits): '" + std::string(text) +
                          "'");
  }
  return std::string(format.prefix) + detail::zero_padded(number, format.digits);
}

MGNIFY_DECL std::optional<std::string> canonical_accession(std::string_view text,
                                                           AccessionFormat format) {
  if (!detail::starts_with_ci(detail::trim_ascii(text), format.prefix)) return std::nullopt;
  std::uint64_t number = 0;
  if (!detail::parse_prefixed_number(text, format.prefix, format.digits, number) || number == 0) {
    return std::nullopt;
  }
  return std::string(format.prefix) + detail::zero_padded(number, format.digits);
}

MGNIFY_DECL bool is_insdc_study_accession(std::string_view text) {
  const std::string_view trimmed = detail::trim_ascii(text);
  for (const std::string_view prefix : {"ERP", "SRP", "DRP", "PRJ"}) {
    if (detail::starts_with_ci(trimmed, prefix)) return true;
  }
  return false;
}

MGNIFY_DECL std::optional<std::string> canonical_insdc_study_accession(std::string_view text) {
  const std::string_view trimmed = detail::trim_ascii(text);
  for (const std::string_view prefix : {"ERP", "SRP", "DRP", "PRJEB", "PRJNA", "PRJDB"}) {
    if (!detail::starts_with_ci(trimmed, prefix)) continue;
    const std::string_view digits = trimmed.substr(prefix.size());
    if (digits.empty() || digits.size() > 12 ||
        digits.find_first_not_of("0123456789") != std::string_view::npos) {
      return std::nullopt;
    }
    return std::string(prefix) + std::string(digits);
  }
  return std::nullopt;
}

MGNIFY_DECL std::string checked_insdc_study_accession(std::string_view text) {
  if (auto canonical = canonical_insdc_study_accession(text)) return *canonical;
  throw InvalidArgument(
      "not an INSDC study accession (ERP, SRP, DRP, PRJEB, PRJNA or PRJDB + up to 12 digits): '" +
      std::string(text) + "'");
}

MGNIFY_DECL std::string checked_pubmed_id(std::int64_t pubmed_id) {
  if (pubmed_id <= 0) {
    throw InvalidArgument("pubmed_id must be positive, got " + std::to_string(pubmed_id));
  }
  return std::to_string(pubmed_id);
}

MGNIFY_NAMESPACE_END
