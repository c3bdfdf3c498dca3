#pragma once

// The contract every fuzz target checks: whatever bytes arrive, a decoder
// either returns a value or throws mgnify::Error (DecodeError). Any other
// exception escaping, a crash, a leak or UB is a finding. The clients' path
// (decode_body: simdjson with the nlohmann fallback) must moreover agree with
// the nlohmann path: the same value, or a DecodeError with the same message;
// a disagreement traps. Inputs on which they once disagreed are kept in
// fuzz/divergences/ and decoded both ways by tests/v1/fast_decode_test.cpp.
// Every parsed input is also written back keeping its numbers' texts
// (mgnify/detail/number_text.hpp), which must read back as the same value.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "mgnify/detail/fast_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/detail/number_text.hpp"
#include "mgnify/error.hpp"
#include "mgnify/proteins/fast_decode.hpp"
#include "mgnify/v1/fast_decode.hpp"
#include "mgnify/v2/fast_decode.hpp"

namespace fuzz_support {

// Writing a document back with the numbers' sent texts (what the CLI does)
// must give JSON that reads back as the same value, whatever the input.
inline void keeps_numbers(const std::string& body, const nlohmann::json& doc) {
  bool replaced = false;
  const std::string written = mgnify::detail::json_text_keeping_numbers(
      doc, -1, replaced, mgnify::detail::changed_number_texts(body));
  if (nlohmann::json::parse(written) != doc) __builtin_trap();
}

template <class T>
void decode_as(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  bool slow_ok = false;
  nlohmann::json slow;
  std::string slow_error;
  try {
    const nlohmann::json doc = mgnify::detail::parse_body(body, "fuzz://input");
    keeps_numbers(body, doc);
    const T value = mgnify::detail::decode<T>(doc, "fuzz://input");
    // Encoding what was decoded must not fail either.
    slow = value;
    (void)slow.dump();
    slow_ok = true;
  } catch (const mgnify::Error& e) {
    slow_error = e.what();
  }
  // The clients' path must give the same result: equal values, or both fail
  // with the same message (decode_body's errors always come from the nlohmann
  // path, so even the text must match). Any disagreement is a finding.
  try {
    const T fast = mgnify::detail::decode_body<T>(body, "fuzz://input");
    if (!slow_ok || nlohmann::json(fast) != slow) __builtin_trap();
  } catch (const mgnify::Error& e) {
    if (slow_ok || slow_error != e.what()) __builtin_trap();
  }
}

}  // namespace fuzz_support
