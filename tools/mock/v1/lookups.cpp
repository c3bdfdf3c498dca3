#include "lookups.hpp"

namespace mgnify::mock::v1routes {

std::optional<std::size_t> find_study(const std::string& acc, bool authenticated) {
  // Studies are also reachable by their ERP secondary accession.
  unsigned long long n = 0;
  if (std::sscanf(acc.c_str(), "MGYS%llu", &n) == 1 && acc.size() == 12) {
    if (n >= 1 && n <= d::kStudies) return static_cast<std::size_t>(n - 1);
    if (authenticated && n >= 90000001 && n < 90000001 + d::kPrivateStudies) {
      return d::kStudies + static_cast<std::size_t>(n - 90000001);
    }
  }
  if (std::sscanf(acc.c_str(), "ERP%llu", &n) == 1 && acc.size() == 9 && n >= 100000 &&
      n < 100000 + d::kStudies) {
    return static_cast<std::size_t>(n - 100000);
  }
  return std::nullopt;
}
std::optional<std::size_t> find_numbered(const std::string& acc, const char* pattern,
                                         std::size_t len, unsigned long long offset,
                                         std::size_t count) {
  unsigned long long n = 0;
  if (acc.size() != len || std::sscanf(acc.c_str(), pattern, &n) != 1 || n < offset ||
      n - offset >= count) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(n - offset);
}
std::optional<std::size_t> find_sample(const std::string& acc) {
  return find_numbered(acc, "ERS%llu", 10, 1000000, d::kSamples);
}
std::optional<std::size_t> find_run(const std::string& acc) {
  return find_numbered(acc, "ERR%llu", 10, 3000000, d::kSamples);
}
std::optional<std::size_t> find_assembly(const std::string& acc) {
  auto s = find_numbered(acc, "ERZ%llu", 10, 4000000, d::kSamples);
  return s && d::has_assembly(*s) ? s : std::nullopt;
}
std::optional<std::size_t> find_analysis(const std::string& acc) {
  // Like emgapi: strip the MGYA letters and read the number.
  std::string digits = acc;
  while (!digits.empty() && std::string("MGYA").find(digits.front()) != std::string::npos)
    digits.erase(0, 1);
  if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), ::isdigit))
    return std::nullopt;
  const unsigned long long n = std::stoull(digits);
  if (n < 1 || n > d::kSamples) return std::nullopt;
  return static_cast<std::size_t>(n - 1);
}
std::optional<std::size_t> find_genome(const std::string& acc) {
  return find_numbered(acc, "MGYG%llu", 13, 1, d::kGenomes);
}
std::optional<std::size_t> find_publication(const std::string& id) {
  for (std::size_t p = 0; p < d::kPublications; ++p) {
    if (id == std::to_string(25000000 + p * 137)) return p;
  }
  return std::nullopt;
}
std::optional<std::size_t> find_catalogue(const std::string& id) {
  for (std::size_t c = 0; c < d::catalogues().size(); ++c) {
    if (id == d::catalogues()[c].id) return c;
  }
  return std::nullopt;
}
std::optional<std::size_t> find_super_study(const std::string& id) {
  for (std::size_t k = 0; k < super_studies().size(); ++k) {
    if (id == super_studies()[k].slug || id == std::to_string(k + 1)) return k;
  }
  return std::nullopt;
}
const d::AnnDef* find_ann_kind(const std::string& path) {
  for (const auto& def : d::annotation_kinds()) {
    if (path == def.path) return &def;
  }
  return nullptr;
}
std::optional<std::size_t> find_annotation(const d::AnnDef& def, const std::string& acc) {
  for (std::size_t k = 0; k < def.count; ++k) {
    if (acc == d::annotation_accession(def.kind, k)) return k;
  }
  return std::nullopt;
}

void no_include(const Ctx& ctx) { parse_includes(ctx, {}); }

J single(J data, const Includes& inc) {
  J out{{"data", std::move(data)}};
  if (!inc.included.empty()) out["included"] = inc.included;
  return out;
}

}  // namespace mgnify::mock::v1routes
