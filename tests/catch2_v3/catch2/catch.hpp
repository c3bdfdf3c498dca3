#pragma once

// The tests are written against Catch2 v2's single header. With Catch2 v3,
// which splits it and moves some names, tests/CMakeLists.txt puts this folder
// first on the include path, so the same sources build with either version.

#include <catch2/catch_all.hpp>
#include <string>

using Catch::Approx;

namespace Catch {
// v2 spelled these matchers without the Matchers:: namespace.
inline Matchers::StringContainsMatcher Contains(const std::string& text,
                                                CaseSensitive sensitivity = CaseSensitive::Yes) {
  return Matchers::ContainsSubstring(text, sensitivity);
}
using Matchers::EndsWith;
using Matchers::Message;
using Matchers::Predicate;
using Matchers::StartsWith;
}  // namespace Catch
