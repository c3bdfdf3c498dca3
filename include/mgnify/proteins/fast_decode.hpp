#pragma once

// Fast (simdjson) decoder of a protein record (GET /protein/{mgyp}), read
// through the models' field tables. Same struct as from_json; see
// detail/fast_json.hpp for the fallback contract. The record owns one copy of
// its text; the biome, Pfam and contig entries' raw are ranges of that copy.

#include <string>
#include <string_view>
#include <utility>

#include "mgnify/detail/fast_json.hpp"
#include "mgnify/proteins/models.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {
namespace fast {

/// A protein record: the whole body is the record.
template <>
struct Document<mgnify::proteins::Protein> {
  static constexpr bool enabled = true;
  static void read(od::document& doc, std::string_view body, mgnify::proteins::Protein& out) {
    std::string_view text;
    od::object obj = open_root(doc, body, text);
    Model<mgnify::proteins::Protein>::read(obj, ObjectText(text), own(text), out);
  }
};

}  // namespace fast
}  // namespace detail
MGNIFY_NAMESPACE_END
