#pragma once

// OpenNumber: a number field that a service sends as a JSON number or as text
// spelling one (the HMMER web service writes a hit's "score": "253.2" and
// "pvalue": -181.5 in the same object, and a domain's "bitscore" either way).
// It reads as a double when it is or spells a finite number; anything else is
// kept as sent, with known() false, instead of costing the record. Every value
// encodes back exactly as it was received.

#include <cmath>
#include <locale>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

class OpenNumber {
 public:
  OpenNumber() = default;
  /// A value set by the caller, written as a JSON number.
  OpenNumber(double value)  // NOLINT: implicit, like std::optional<double>
      : sent_(value), value_(value) {}

  /// Reads a value as sent; only arrays, objects and booleans are refused.
  static OpenNumber from_sent(nlohmann::json sent) {
    OpenNumber out;
    if (sent.is_number()) {
      out.value_ = sent.get<double>();
    } else if (sent.is_string()) {
      out.value_ = parse(sent.get_ref<const std::string&>());
      out.known_ = out.value_.has_value();
    } else if (!sent.is_null()) {
      throw DecodeError("", "", std::string("expected a number or text, got ") + sent.type_name());
    }
    out.sent_ = std::move(sent);
    return out;
  }

  /// True when the value is, or spells, a finite number.
  bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  /// The number; only meaningful when has_value().
  double operator*() const noexcept { return value_.value_or(0.0); }
  /// The number, or nullopt for null and for text that spells none.
  const std::optional<double>& value() const noexcept { return value_; }
  /// False for text sent but not readable as a number (see sent()).
  bool known() const noexcept { return known_; }
  /// The value exactly as the service sent it (null when it sent none).
  const nlohmann::json& sent() const noexcept { return sent_; }

  friend bool operator==(const OpenNumber& a, const OpenNumber& b) { return a.sent_ == b.sent_; }
  friend bool operator!=(const OpenNumber& a, const OpenNumber& b) { return !(a == b); }

 private:
  // "1.1e-110" and "-3" are numbers; "", " 7", "1.5x", "nan" and "inf" are
  // not. Read in the classic locale, whatever the program's locale says.
  static std::optional<double> parse(const std::string& text) {
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    double value = 0;
    in >> std::noskipws >> value;
    if (in.fail() || in.peek() != std::char_traits<char>::eof() || !std::isfinite(value)) {
      return std::nullopt;
    }
    return value;
  }

  nlohmann::json sent_;
  std::optional<double> value_;
  bool known_ = true;
};

inline void from_json(const nlohmann::json& j, OpenNumber& out) { out = OpenNumber::from_sent(j); }
inline void to_json(nlohmann::json& j, const OpenNumber& value) { j = value.sent(); }

MGNIFY_NAMESPACE_END
