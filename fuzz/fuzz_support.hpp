#pragma once

// The contract every fuzz target checks: whatever bytes arrive, a decoder
// either returns a value or throws mgnify::Error (DecodeError). Any other
// exception escaping, a crash, a leak or UB is a finding.

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"

namespace fuzz_support {

template <class T>
void decode_as(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  try {
    const nlohmann::json doc = mgnify::detail::parse_body(body, "fuzz://input");
    const T value = mgnify::detail::decode<T>(doc, "fuzz://input");
    // Encoding what was decoded must not fail either.
    const nlohmann::json again = value;
    (void)again.dump();
  } catch (const mgnify::Error&) {
  }
}

}  // namespace fuzz_support
