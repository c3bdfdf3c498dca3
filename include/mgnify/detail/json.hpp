#pragma once

// Field-level decoding helpers for the models' from_json. They make every
// decision explicit (required, optional, defaulted) and turn nlohmann's
// exceptions into DecodeError with the JSON path of the bad value.

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/json_text.hpp"
#include "mgnify/error.hpp"
#include "mgnify/error_body.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

inline std::string json_type_name(const nlohmann::json& j) { return j.type_name(); }

template <class T>
struct is_std_vector : std::false_type {};
template <class U, class A>
struct is_std_vector<std::vector<U, A>> : std::true_type {};

/// The integer a string spells ("9606", "-1"), when it spells one that fits T.
template <class T>
std::optional<T> integer_from_text(const std::string& text) {
  T parsed{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, parsed);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return parsed;
}

/// True when `sent` is an integer sent as a string whose value is `value`:
/// encoding then keeps the string, so the document goes back as it came.
template <class T>
bool is_text_form_of(const nlohmann::json& sent, const T& value) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (!sent.is_string()) return false;
    const auto parsed = integer_from_text<T>(sent.get_ref<const std::string&>());
    return parsed && *parsed == value;
  } else {
    return false;
  }
}

/// A JSON number as the integer type T, or a DecodeError. nlohmann's own
/// conversion static_casts, which is undefined behaviour for 1e300 into a long
/// and silently wraps 2^64-1 into -1.
template <class T>
T checked_integer(const nlohmann::json& value, const std::string& path) {
  using limits = std::numeric_limits<T>;
  auto out_of_range = [&](const std::string& text) -> T {
    throw DecodeError(path, "", "number " + text + " does not fit the field's integer type");
  };
  if (value.is_number_unsigned()) {
    const auto v = value.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(limits::max())) return out_of_range(value.dump());
    return static_cast<T>(v);
  }
  if (value.is_number_integer()) {
    const auto v = value.get<std::int64_t>();
    if constexpr (std::is_unsigned_v<T>) {
      if (v < 0) return out_of_range(value.dump());
      if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(limits::max())) {
        return out_of_range(value.dump());
      }
    } else {
      if (v < static_cast<std::int64_t>(limits::min()) ||
          v > static_cast<std::int64_t>(limits::max())) {
        return out_of_range(value.dump());
      }
    }
    return static_cast<T>(v);
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    // 2^63 and 2^64 are exact doubles, so the half-open bounds are exact too.
    const double upper = std::ldexp(1.0, limits::digits);
    const double lower = limits::is_signed ? -upper : 0.0;
    if (!std::isfinite(d) || std::trunc(d) != d || d < lower || d >= upper) {
      return out_of_range(value.dump());
    }
    return static_cast<T>(d);
  }
  // Some services send integers as strings ("host-tax-id": "9606").
  if (value.is_string()) {
    if (const auto parsed = integer_from_text<T>(value.get_ref<const std::string&>()))
      return *parsed;
  }
  throw DecodeError(
      path, "",
      std::string("expected another type, got ") + value.type_name() + " (an integer is required)");
}

/// Converts one value, re-labelling any failure with `path` prepended.
template <class T>
T convert_at(const nlohmann::json& value, const std::string& path) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return checked_integer<T>(value, path);
  }
  if constexpr (is_std_vector<T>::value) {
    // Element by element, so that a bad item is named by its index
    // ("/data/3/id") rather than by the whole list.
    if (value.is_array()) {
      T out;
      out.reserve(value.size());
      std::size_t index = 0;
      for (const auto& item : value) {
        out.push_back(
            convert_at<typename T::value_type>(item, path + "/" + std::to_string(index++)));
      }
      return out;
    }
  }
  try {
    return value.get<T>();
  } catch (const DecodeError& e) {
    throw DecodeError(path + e.json_path(), e.url(), e.detail());
  } catch (const nlohmann::json::exception& e) {
    throw DecodeError(
        path, "",
        std::string("expected another type, got ") + value.type_name() + " (" + e.what() + ")");
  }
}

/// "/key" as a JSON Pointer (RFC 6901): '~' and '/' inside the key are escaped.
inline std::string key_path(const char* key) {
  std::string out = "/";
  for (const char* c = key; *c; ++c) {
    if (*c == '~') {
      out += "~0";
    } else if (*c == '/') {
      out += "~1";
    } else {
      out.push_back(*c);
    }
  }
  return out;
}

/// Required key: absent or null is an error.
template <class T>
void read_required(const nlohmann::json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null())
    throw DecodeError(key_path(key), "", "required field is missing");
  out = convert_at<T>(*it, key_path(key));
}

/// Optional key: absent or null gives nullopt.
template <class T>
void read_optional(const nlohmann::json& j, const char* key, std::optional<T>& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    out.reset();
    return;
  }
  out = convert_at<T>(*it, key_path(key));
}

/// Key with a natural default (empty string, empty list): absent or null keeps `out`.
template <class T>
void read_or_keep(const nlohmann::json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  out = convert_at<T>(*it, key_path(key));
}

/// Parses a response body; malformed or empty bodies are DecodeError naming the URL.
MGNIFY_DECL nlohmann::json parse_body(const std::string& body, const std::string& url);

/// Decodes a whole document into T, attaching the URL to any failure.
template <class T>
T decode(const nlohmann::json& doc, const std::string& url) {
  try {
    return doc.get<T>();
  } catch (const DecodeError& e) {
    throw DecodeError(e.json_path(), url, e.detail());
  } catch (const nlohmann::json::exception& e) {
    throw DecodeError("", url, std::string("unexpected JSON shape: ") + e.what());
  }
}

/// Decodes an http::Response's body (any type with `body` and `url`: this
/// header stays free of the HTTP layer).
template <class T, class Response>
T decode_response(const Response& response) {
  return decode<T>(parse_body(response.body, response.url), response.url);
}

}  // namespace detail
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/detail/impl/json.ipp"
#endif
