#pragma once

// Two questions every JSON reader of the SDK asks of a server's text: how deep
// a document nests before it is handed to a recursive parser, and what a
// scalar says as text.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "mgnify/config.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

/// A scalar as text: a string as it is, null as "", anything else as its
/// JSON ("7", "true", "1.5").
MGNIFY_DECL std::string json_scalar_text(const nlohmann::json& value);

/// Deepest nesting of arrays and objects the SDK decodes. nlohmann's dump()
/// and conversions, and the fast path's readers of values no model names,
/// recurse once per level: a server's 2 MB of "[[[..." would otherwise exhaust
/// the stack (a few hundred levels already do in a sanitizer build, whose
/// frames are large). MGnify's documents nest fewer than ten levels.
inline constexpr std::size_t kMaxJsonDepth = 256;

/// Whether `text` nests arrays or objects deeper than `limit` (strings are
/// skipped; the text need not be valid JSON).
MGNIFY_DECL bool nesting_exceeds(std::string_view text, std::size_t limit = kMaxJsonDepth);

}  // namespace detail
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/detail/impl/json_text.ipp"
#endif
