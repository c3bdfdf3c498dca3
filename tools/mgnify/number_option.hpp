#pragma once

// Numeric options are parsed here rather than by CLI11's own conversion, which
// reads "-3" into an unsigned as 2^64-3 and turns "" into "not given": every
// numeric option has a range, and anything outside it is a usage error that
// names the option and the range.

#include <CLI/CLI.hpp>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>

namespace mgnify_cli {

namespace detail {

template <class T>
struct NumberOf {
  using type = T;
};
template <class T>
struct NumberOf<std::optional<T>> {
  using type = T;
};

template <class T>
std::string number_text(T value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

/// "--max must be an integer of at least 0" and the like.
template <class T>
std::string range_text(const std::string& name, T min, T max) {
  std::string text = name + (std::is_integral_v<T> ? " must be an integer " : " must be a number ");
  if (std::is_integral_v<T> && max == std::numeric_limits<T>::max()) {
    return text + "of at least " + number_text(min);
  }
  return text + "from " + number_text(min) + " to " + number_text(max);
}

/// The whole of `text` as a T, or nothing (no sign for unsigned types, no
/// blanks, no trailing characters, no overflow).
template <class T>
std::optional<T> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if constexpr (std::is_integral_v<T>) {
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return value;
  } else {
    // strtod, not from_chars: floating-point from_chars is missing from some standard libraries.
    if (std::isspace(static_cast<unsigned char>(text.front()))) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (errno != 0 || end != text.c_str() + text.size()) return std::nullopt;
    return static_cast<T>(value);
  }
}

/// The long name among CLI11 flags such as "-o,--dir".
inline std::string option_name(const std::string& flags) {
  std::string best;
  std::size_t start = 0;
  while (start <= flags.size()) {
    const auto comma = flags.find(',', start);
    const std::string part =
        flags.substr(start, comma == std::string::npos ? comma : comma - start);
    if (part.size() > best.size()) best = part;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return best;
}

}  // namespace detail

/// Adds a numeric option that accepts min..max (inclusive) and stores into
/// `target` (a number, or an optional one that stays empty when the option is
/// not given). A value outside the range, or not a number, fails the parse.
template <class Target>
CLI::Option* add_number_option(CLI::App& cmd, const std::string& flags, Target& target,
                               typename detail::NumberOf<Target>::type min,
                               typename detail::NumberOf<Target>::type max,
                               const std::string& help) {
  using T = typename detail::NumberOf<Target>::type;
  static_assert(std::is_arithmetic_v<T>, "add_number_option is for numbers");
  const std::string name = detail::option_name(flags);
  auto* option = cmd.add_option_function<std::string>(
      flags,
      [&target, name, min, max](const std::string& text) {
        const std::optional<T> value = detail::parse_number<T>(text);
        // !(a <= b) rather than a > b, so that NaN is out of range too.
        if (!value || !(min <= *value) || !(*value <= max)) {
          throw CLI::ValidationError(detail::range_text(name, min, max) + ", got '" + text + "'",
                                     CLI::ExitCodes::ValidationError);
        }
        target = *value;
      },
      help);
  option->type_name(std::is_integral_v<T> ? "INT" : "NUMBER");
  return option;
}

}  // namespace mgnify_cli
