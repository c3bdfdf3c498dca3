#pragma once

// Small decoding helpers shared by the v2 models (internal).

#include <string>

#include <nlohmann/json.hpp>

#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {
namespace detail {

inline void expect_object(const nlohmann::json& j, const char* what) {
  if (!j.is_object()) {
    throw DecodeError("", "", std::string("expected a ") + what + " object, got " + j.type_name());
  }
}

/// The object to start a to_json from: the raw document, so unknown keys survive a round trip.
inline nlohmann::json base_object(const nlohmann::json& raw) {
  return raw.is_object() ? raw : nlohmann::json::object();
}

}  // namespace detail
}  // namespace v2
}  // namespace v0
}  // namespace mgnify
