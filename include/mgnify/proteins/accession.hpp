#pragma once

// Accession types for the Protein service. The service tolerates several
// spellings of the same accession; normalising on our side means requests,
// cache keys, logs and comparisons all use one canonical form, and a typo is
// reported before any request is sent.

#include <cctype>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "mgnify/accession.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace proteins {

/// A protein cluster representative accession, always held as `MGYP` plus 12
/// digits, by the rule of AccessionKind::protein that every client applies
/// (mgnify/accession.hpp): `MGYP000261684433`, `mgyp261684433` and, with
/// surrounding whitespace, lines read from a file as is. The digits alone
/// (`261684433`) are a deprecated spelling, still accepted in this release;
/// Accession(std::uint64_t) takes the number itself.
class Accession {
 public:
  static constexpr std::size_t kDigits = kProteinAccession.digits;
  static constexpr const char* kPrefix = kProteinAccession.prefix;

  /// Throws InvalidArgument for anything that is not an accession.
  explicit Accession(std::string_view text)
      : Accession(number_of(checked_accession(text, AccessionKind::protein))) {}

  explicit Accession(std::uint64_t number) {
    if (number == 0 || number > 999'999'999'999ULL) {
      throw InvalidArgument("protein accession number out of range: " + std::to_string(number));
    }
    number_ = number;
    text_ = std::string(kPrefix) + mgnify::detail::zero_padded(number, kDigits);
  }

  /// True when `text` would parse; for filtering input without exceptions.
  static bool is_valid(std::string_view text) noexcept {
    try {
      return canonical_accession(text, AccessionKind::protein).has_value();
    } catch (...) {
      return false;  // out of memory for the canonical text
    }
  }

  /// The canonical form, e.g. "MGYP000261684433".
  const std::string& str() const noexcept { return text_; }
  std::uint64_t number() const noexcept { return number_; }

  friend bool operator==(const Accession& a, const Accession& b) { return a.number_ == b.number_; }
  friend bool operator!=(const Accession& a, const Accession& b) { return a.number_ != b.number_; }
  friend bool operator<(const Accession& a, const Accession& b) { return a.number_ < b.number_; }
  friend std::ostream& operator<<(std::ostream& os, const Accession& a) { return os << a.text_; }

 private:
  static std::uint64_t number_of(const std::string& canonical) {
    return std::stoull(canonical.substr(std::string_view(kPrefix).size()));
  }

  std::uint64_t number_ = 0;
  std::string text_;
};

/// A Pfam family accession, always held as `PF` plus 5 digits. Accepts
/// `PF00005`, `pf00005` and `5`, like the service's `pfam_accession` parameter;
/// with its prefix it must have all five digits.
class PfamAccession {
 public:
  static constexpr std::size_t kDigits = 5;
  static constexpr const char* kPrefix = "PF";

  /// Throws InvalidArgument for anything that is not a Pfam accession.
  explicit PfamAccession(std::string_view text) {
    std::uint64_t value = 0;
    if (!parse(text, value)) {
      throw InvalidArgument("not a Pfam accession: '" + std::string(text) +
                            "' (expected PF followed by 5 digits, e.g. PF00005, or the number "
                            "alone, e.g. 5)");
    }
    set(static_cast<int>(value));
  }

  explicit PfamAccession(int number) {
    if (number < 1 || number > 99'999) {
      throw InvalidArgument("Pfam accession number out of range: " + std::to_string(number));
    }
    set(number);
  }

  static bool is_valid(std::string_view text) noexcept {
    std::uint64_t value = 0;
    return parse(text, value);
  }

  /// The canonical form, e.g. "PF00005".
  const std::string& str() const noexcept { return text_; }
  int number() const noexcept { return number_; }

  friend bool operator==(const PfamAccession& a, const PfamAccession& b) {
    return a.number_ == b.number_;
  }
  friend bool operator!=(const PfamAccession& a, const PfamAccession& b) {
    return a.number_ != b.number_;
  }
  friend bool operator<(const PfamAccession& a, const PfamAccession& b) {
    return a.number_ < b.number_;
  }
  friend std::ostream& operator<<(std::ostream& os, const PfamAccession& a) {
    return os << a.text_;
  }

 private:
  // "PF0005" has lost a digit, and which one is a guess (PF00005? PF00050?),
  // so a prefixed accession is refused unless it is whole, never padded.
  static bool parse(std::string_view text, std::uint64_t& value) noexcept {
    const std::string_view trimmed = mgnify::detail::trim_ascii(text);
    const std::string_view prefix(kPrefix);
    if (mgnify::detail::starts_with_ci(trimmed, prefix) &&
        trimmed.size() != prefix.size() + kDigits) {
      return false;
    }
    return mgnify::detail::parse_prefixed_number(trimmed, prefix, kDigits, value) && value != 0;
  }

  void set(int number) {
    number_ = number;
    text_ = std::string(kPrefix) +
            mgnify::detail::zero_padded(static_cast<std::uint64_t>(number), kDigits);
  }

  int number_ = 0;
  std::string text_;
};

}  // namespace proteins
MGNIFY_NAMESPACE_END
