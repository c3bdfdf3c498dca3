#include "common/text.hpp"

#include <cctype>

namespace mgnify::mock {

std::optional<long long> parse_int(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::size_t pos = text[0] == '-' || text[0] == '+' ? 1 : 0;
  if (pos == text.size()) return std::nullopt;
  for (std::size_t k = pos; k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9') return std::nullopt;
  }
  return std::stoll(text);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool contains_icase(const std::string& haystack, const std::string& needle) {
  return lower(haystack).find(lower(needle)) != std::string::npos;
}

}  // namespace mgnify::mock
