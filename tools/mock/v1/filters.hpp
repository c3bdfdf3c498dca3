#pragma once

// The v1 mock's list filters and orderings, as the real service's django-filter
// sets apply them.

#include "paging.hpp"

namespace mgnify::mock::v1routes {

std::vector<std::size_t> iota(std::size_t begin, std::size_t end);
std::optional<std::size_t> find_biome(const std::string& lineage);
std::vector<bool> biome_mask(const Ctx& ctx);
std::vector<std::string> split_multi(const std::string& v);
void order(std::vector<std::size_t>& v, const Ctx& ctx, const std::set<std::string>& ascending_keys,
           const std::set<std::string>& descending_keys);
std::vector<std::size_t> filter_studies(const Ctx& ctx, std::vector<std::size_t> base);
std::vector<std::size_t> filter_samples(const Ctx& ctx, std::vector<std::size_t> base);
std::vector<std::size_t> filter_runs_like(const Ctx& ctx, std::vector<std::size_t> base,
                                          bool analyses);

}  // namespace mgnify::mock::v1routes
