#pragma once

// A server's text made fit for an exception message: one line, bounded, and
// readable when the server sent an HTML page.

#include <cstddef>
#include <string>
#include <string_view>

#include "mgnify/config.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

inline constexpr std::size_t kErrorExcerptLimit = 200;

// Collapses whitespace and strips markup so that an HTML error page still gives
// a one-line hint ("502 Bad Gateway") instead of kilobytes of tags. Comments
// and the contents of <script> and <style> are skipped: a framework's error
// page would otherwise spend the whole excerpt on CSS.
MGNIFY_DECL std::string text_excerpt(std::string_view body, std::size_t limit = kErrorExcerptLimit);

// what() is one line: a server message with embedded newlines or tabs (a
// traceback, a multi-line DRF message) is folded. A run of whitespace that
// holds a control character becomes one space; plain spaces are the server's
// own text and stay as sent.
MGNIFY_DECL std::string one_line(std::string_view text);

}  // namespace detail
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/detail/impl/text_excerpt.ipp"
#endif
