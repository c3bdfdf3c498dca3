#pragma once

// What the CLI does with an accession before the SDK call that takes it.

#include <mgnify/accession.hpp>
#include <string>

namespace mgnify_cli {

/// `text` in the canonical spelling of the kind its prefix names ("mgys1" ->
/// "MGYS00000001", "erp1" -> "ERP1"), by the rule every client applies
/// (mgnify/accession.hpp). Anything else (a bare number, a lineage, a slug, a
/// malformed accession) is returned as typed, for the call that takes it to
/// accept or refuse by the rule of its own kind.
inline std::string canonical_or_as_typed(const std::string& text) {
  return mgnify::canonical_accession(text).value_or(text);
}

}  // namespace mgnify_cli
