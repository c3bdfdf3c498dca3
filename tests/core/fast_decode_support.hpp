#pragma once

// Differential checks between the two decoding paths: simdjson (fast) and
// nlohmann (parse_body + from_json). For any body both must agree: the same
// struct (compared through to_json, which covers typed fields and raw), or
// both refuse it (the fast path declines, nlohmann throws DecodeError).

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "mgnify/detail/fast_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"

namespace mgnify::test::fast_decode {

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Outcome {
  bool fast_taken = false;
  bool slow_ok = false;
};

/// Decodes `body` both ways as T and checks that the results agree. Returns
/// whether the fast path decoded it and whether nlohmann accepted it.
template <class T>
Outcome both_ways(const std::string& body, const std::string& label) {
  INFO("document " << label);
  Outcome out;
  std::optional<nlohmann::json> slow;
  std::string slow_error;
  try {
    slow = nlohmann::json(mgnify::detail::decode<T>(mgnify::detail::parse_body(body, label), label));
    out.slow_ok = true;
  } catch (const mgnify::DecodeError& e) {
    slow_error = e.what();
  }
  T fast{};
  out.fast_taken = mgnify::detail::fast::try_decode(body, fast);
  if (out.fast_taken) {
    // The fast path may only accept what nlohmann accepts, and must build the same struct.
    REQUIRE(slow.has_value());
    CHECK(nlohmann::json(fast) == *slow);
  }
  // decode_body (what the clients call) equals the nlohmann result or throws the same error.
  try {
    const T via_clients = mgnify::detail::decode_body<T>(body, label);
    REQUIRE(slow.has_value());
    CHECK(nlohmann::json(via_clients) == *slow);
  } catch (const mgnify::DecodeError& e) {
    CHECK_FALSE(slow.has_value());
    CHECK(std::string(e.what()) == slow_error);
  }
  return out;
}

}  // namespace mgnify::test::fast_decode
