#pragma once

// Biome: a node of the GOLD-style biome tree, named by its colon lineage.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

struct Biome {
  std::string biome_name;
  /// "root:Host-associated:Human". Dev data has sent null here, so it is optional.
  std::optional<std::string> lineage;
  RawJson raw{};

  /// Number of lineage components ("root" is depth 1, as for `max_depth`); 0 without a lineage.
  std::size_t depth() const {
    if (!lineage || lineage->empty()) return 0;
    std::size_t n = 1;
    for (char c : *lineage) n += c == ':' ? 1 : 0;
    return n;
  }
  /// The parent's lineage ("" for root or without a lineage).
  std::string parent_lineage() const {
    if (!lineage) return {};
    const auto colon = lineage->rfind(':');
    return colon == std::string::npos ? std::string() : lineage->substr(0, colon);
  }

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("biome_name", self.biome_name);
    v.optional("lineage", self.lineage);
  }
};

MGNIFY_JSON_FIELDS(Biome, "biome")

}  // namespace v2
MGNIFY_NAMESPACE_END
