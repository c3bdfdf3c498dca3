#pragma once

// OpenInteger: an integer field whose type the service does not promise (v1
// `host-tax-id` is documented only as "nullable", and servers send 9606,
// "9606" or free text). It reads as an integer when the value is one or spells
// one; anything else is kept as sent, with known() false, instead of costing
// the whole record. Every value encodes back exactly as it was received.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

class OpenInteger {
 public:
  OpenInteger() = default;
  /// A value set by the caller, written as a JSON number.
  OpenInteger(std::int64_t value)  // NOLINT: implicit, like std::optional<std::int64_t>
      : sent_(value), value_(value) {}

  /// Reads a value as sent; only arrays, objects and booleans are refused.
  static OpenInteger from_sent(nlohmann::json sent) {
    OpenInteger out;
    if (sent.is_number_integer() || sent.is_string()) {
      try {
        out.value_ = detail::checked_integer<std::int64_t>(sent, "");
      } catch (const DecodeError&) {
        out.known_ = false;  // text that spells no integer, or one out of range
      }
    } else if (sent.is_number()) {
      out.known_ = false;  // a fraction
    } else if (!sent.is_null()) {
      throw DecodeError("", "",
                        std::string("expected an integer or text, got ") + sent.type_name());
    }
    out.sent_ = std::move(sent);
    return out;
  }

  /// True when the value is, or spells, an integer.
  bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  /// The integer; only meaningful when has_value().
  std::int64_t operator*() const noexcept { return value_.value_or(0); }
  /// The integer, or nullopt for null and for a value that is not one.
  const std::optional<std::int64_t>& value() const noexcept { return value_; }
  /// False for a value sent but not readable as an integer (see sent()).
  bool known() const noexcept { return known_; }
  /// The value exactly as the service sent it (null when it sent none).
  const nlohmann::json& sent() const noexcept { return sent_; }

  friend bool operator==(const OpenInteger& a, std::int64_t b) { return a.value_ == b; }
  friend bool operator!=(const OpenInteger& a, std::int64_t b) { return !(a == b); }
  friend bool operator==(const OpenInteger& a, const OpenInteger& b) { return a.sent_ == b.sent_; }
  friend bool operator!=(const OpenInteger& a, const OpenInteger& b) { return !(a == b); }

 private:
  nlohmann::json sent_;
  std::optional<std::int64_t> value_;
  bool known_ = true;
};

inline void from_json(const nlohmann::json& j, OpenInteger& out) {
  out = OpenInteger::from_sent(j);
}
inline void to_json(nlohmann::json& j, const OpenInteger& value) { j = value.sent(); }

MGNIFY_NAMESPACE_END
