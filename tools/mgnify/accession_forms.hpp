#pragma once

// MGnify accessions as people type them: any case, surrounding spaces, and
// the number without its zero padding. One rule for every kind, so that
// `mgys1` works wherever `mgyp1` does.

#include <cctype>
#include <mgnify/accession.hpp>
#include <optional>
#include <string>

namespace mgnify_cli {

/// The canonical form of an MGnify accession ("mgys1" -> "MGYS00000001",
/// "MGYP1" -> "MGYP000000000001"). Anything without an MGnify prefix (an ENA
/// accession, a lineage, a slug, a PubMed id) is returned unchanged for the
/// service to judge, and so is a malformed one, for the SDK to reject.
inline std::string mgnify_accession(const std::string& text) {
  for (const mgnify::AccessionFormat& format :
       {mgnify::kStudyAccession, mgnify::kAnalysisAccession, mgnify::kGenomeAccession,
        mgnify::kProteinAccession}) {
    if (std::optional<std::string> canonical = mgnify::canonical_accession(text, format)) {
      return *canonical;
    }
  }
  return text;
}

/// The INSDC accession as the services spell it: trimmed, upper case.
inline std::string insdc_accession(const std::string& text) {
  std::string out(mgnify::detail::trim_ascii(text));
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace mgnify_cli
