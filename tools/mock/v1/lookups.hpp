#pragma once

// The v1 mock's accession lookups: from an accession or id in a path to the
// index of the resource it names, or a 404.

#include "filters.hpp"

namespace mgnify::mock::v1routes {

std::optional<std::size_t> find_study(const std::string& acc, bool authenticated);
std::optional<std::size_t> find_numbered(const std::string& acc, const char* pattern,
                                         std::size_t len, unsigned long long offset,
                                         std::size_t count);
std::optional<std::size_t> find_sample(const std::string& acc);
std::optional<std::size_t> find_run(const std::string& acc);
std::optional<std::size_t> find_assembly(const std::string& acc);
std::optional<std::size_t> find_analysis(const std::string& acc);
std::optional<std::size_t> find_genome(const std::string& acc);
std::optional<std::size_t> find_publication(const std::string& id);
template <class List>
std::optional<std::size_t> find_name(const List& list, const std::string& name) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (name == list[i]) return i;
  }
  return std::nullopt;
}
std::optional<std::size_t> find_catalogue(const std::string& id);
std::optional<std::size_t> find_super_study(const std::string& id);
const d::AnnDef* find_ann_kind(const std::string& path);
std::optional<std::size_t> find_annotation(const d::AnnDef& def, const std::string& acc);

template <class T>
T need(std::optional<T> v) {
  if (!v) not_found();
  return *v;
}
void no_include(const Ctx& ctx);
J single(J data, const Includes& inc);

}  // namespace mgnify::mock::v1routes
