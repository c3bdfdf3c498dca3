#pragma once

// Text helpers the mock's services share: strict integer parsing as the real
// services apply it to query parameters, and ASCII case folding.

#include <optional>
#include <string>

namespace mgnify::mock {

/// An optional sign and 1 to 18 digits (so it always fits), nothing else.
std::optional<long long> parse_int(const std::string& text);

/// `s` with ASCII letters lowered.
std::string lower(std::string s);

/// True when `needle` occurs in `haystack`, ignoring ASCII case.
bool contains_icase(const std::string& haystack, const std::string& needle);

}  // namespace mgnify::mock
