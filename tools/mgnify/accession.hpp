#pragma once

// MGnify accessions as people type them: any case, surrounding spaces, and
// the number without its zero padding. One rule for every kind, so that
// `mgys1` works wherever `mgyp1` does.

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <mgnify/proteins/accession.hpp>
#include <string>
#include <string_view>

namespace mgnify_cli {

/// The canonical form of an MGnify accession ("mgys1" -> "MGYS00000001",
/// "MGYP1" -> "MGYP000000000001"). Anything without an MGnify prefix (an ENA
/// accession, a lineage, a slug, a PubMed id) is returned unchanged for the
/// service to judge, and so is a malformed one, for the SDK to reject.
inline std::string mgnify_accession(const std::string& text) {
  namespace pd = mgnify::proteins::detail;
  struct Kind {
    const char* prefix;
    std::size_t digits;
  };
  static constexpr Kind kinds[] = {
      {"MGYS", 8},
      {"MGYA", 8},
      {"MGYG", 9},
      {mgnify::proteins::Accession::kPrefix, mgnify::proteins::Accession::kDigits}};
  for (const Kind& kind : kinds) {
    // The prefix is required here: bare digits could name any kind.
    if (!pd::starts_with_ci(pd::trim_ascii(text), kind.prefix)) continue;
    std::uint64_t number = 0;
    if (!pd::parse_prefixed_number(text, kind.prefix, kind.digits, number) || number == 0) {
      return text;
    }
    return kind.prefix + pd::zero_padded(number, kind.digits);
  }
  return text;
}

/// An INSDC study or project accession (ERP, SRP, DRP, PRJEB, PRJNA, PRJDB), in
/// any case. API v1 takes these in place of MGYS; API v2 needs them resolved
/// first (V2Client::study_by_insdc_accession).
inline bool is_insdc_study(const std::string& text) {
  namespace pd = mgnify::proteins::detail;
  const std::string_view trimmed = pd::trim_ascii(text);
  for (const char* prefix : {"ERP", "SRP", "DRP", "PRJ"}) {
    if (pd::starts_with_ci(trimmed, prefix)) return true;
  }
  return false;
}

/// The INSDC accession as the services spell it: trimmed, upper case.
inline std::string insdc_accession(const std::string& text) {
  std::string out(mgnify::proteins::detail::trim_ascii(text));
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace mgnify_cli
