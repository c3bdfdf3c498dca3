#include "filters.hpp"

namespace mgnify::mock::v1routes {

std::vector<std::size_t> iota(std::size_t begin, std::size_t end) {
  std::vector<std::size_t> v;
  v.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i) v.push_back(i);
  return v;
}

std::optional<std::size_t> find_biome(const std::string& lineage) {
  for (std::size_t b = 0; b < d::biomes().size(); ++b) {
    if (lineage == d::biomes()[b].lineage) return b;
  }
  return std::nullopt;
}

// Which biomes a lineage / biome_name filter admits (evaluated once per request).
std::vector<bool> biome_mask(const Ctx& ctx) {
  std::vector<bool> mask(d::biomes().size(), true);
  if (auto lineage = ctx.param("lineage")) {
    if (!find_biome(*lineage)) {
      bad_request("Select a valid choice. That choice is not one of the available choices.",
                  "invalid_choice", "/data/attributes/lineage");
    }
    for (std::size_t b = 0; b < mask.size(); ++b)
      mask[b] = mask[b] && d::in_subtree(d::biomes()[b].lineage, *lineage);
  }
  if (auto pattern = ctx.param("biome_name")) {
    std::optional<std::regex> re;
    try {
      re.emplace(*pattern, std::regex::icase);
    } catch (const std::regex_error&) {
      bad_request("Invalid regular expression.", "invalid", "/data/attributes/biome_name");
    }
    for (std::size_t b = 0; b < mask.size(); ++b) {
      mask[b] = mask[b] && std::regex_search(std::string(d::biomes()[b].lineage), *re);
    }
  }
  return mask;
}

std::vector<std::string> split_multi(const std::string& v) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto comma = v.find(',', start);
    out.push_back(v.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void order(std::vector<std::size_t>& v, const Ctx& ctx, const std::set<std::string>& ascending_keys,
           const std::set<std::string>& descending_keys) {
  // Indexes are already in the default order (-last_update == ascending index).
  auto o = ctx.param("ordering");
  if (!o || o->empty()) return;
  // Ascending index == descending last_update == ascending accession here.
  if (ascending_keys.count(*o)) return;
  if (descending_keys.count(*o)) std::reverse(v.begin(), v.end());
}

std::vector<std::size_t> filter_studies(const Ctx& ctx, std::vector<std::size_t> base) {
  const auto mask = biome_mask(ctx);
  auto centre = ctx.param("centre_name");
  auto search = ctx.param("search");
  std::optional<std::set<std::string>> accessions;
  if (auto a = ctx.param("accession")) {
    auto list = split_multi(*a);
    accessions.emplace(list.begin(), list.end());
  }
  std::vector<std::size_t> out;
  out.reserve(base.size());
  for (std::size_t i : base) {
    if (!mask[d::study_biome(i)]) continue;
    if (centre && !contains_icase(d::study_centre(i), *centre)) continue;
    if (accessions && !accessions->count(d::study_accession(i)) &&
        !accessions->count(d::fmt("ERP%06llu", 100000 + i)))
      continue;
    if (search && !contains_icase(std::string("Mock ") + d::biomes()[d::study_biome(i)].name +
                                      " study " + std::to_string(i + 1),
                                  *search))
      continue;
    out.push_back(i);
  }
  order(out, ctx, {"study_id", "-last_update", "accession"},
        {"-study_id", "last_update", "-accession"});
  return out;
}

std::vector<std::size_t> filter_samples(const Ctx& ctx, std::vector<std::size_t> base) {
  const auto mask = biome_mask(ctx);
  std::optional<std::set<std::string>> types, accessions;
  if (auto t = ctx.param("experiment_type")) {
    auto list = split_multi(*t);
    types.emplace(list.begin(), list.end());
  }
  if (auto a = ctx.param("accession")) {
    auto list = split_multi(*a);
    accessions.emplace(list.begin(), list.end());
  }
  auto key = ctx.param("metadata_key");
  if (key) {
    const auto& keys = d::metadata_keys();
    if (std::find(keys.begin(), keys.end(), *key) == keys.end()) {
      bad_request("Select a valid choice. " + *key + " is not one of the available choices.",
                  "invalid_choice", "/data/attributes/metadata_key");
    }
  }
  auto number = [&](const char* name) -> std::optional<double> {
    auto v = ctx.param(name);
    if (!v) return std::nullopt;
    try {
      std::size_t used = 0;
      double x = std::stod(*v, &used);
      if (used != v->size()) throw std::invalid_argument("trailing");
      return x;
    } catch (const std::exception&) {
      bad_request("Enter a number.", "invalid", std::string("/data/attributes/") + name);
    }
  };
  const auto lte = number("metadata_value_lte");
  const auto gte = number("metadata_value_gte");
  const auto study_acc = ctx.param("study_accession");
  const auto search = ctx.param("search");
  std::vector<std::size_t> out;
  out.reserve(base.size());
  for (std::size_t s : base) {
    if (!mask[d::sample_biome(s)]) continue;
    if (types && !types->count(d::experiment_type_of(s))) continue;
    if (accessions && !accessions->count(d::sample_accession(s))) continue;
    if (study_acc && *study_acc != d::study_accession(d::sample_study(s))) continue;
    if (search &&
        !contains_icase(d::sample_accession(s) + " Mock sample " + std::to_string(s + 1), *search))
      continue;
    if (key && (lte || gte)) {
      double value = 0;
      if (*key == "temperature")
        value = d::sample_temperature(s);
      else if (*key == "depth")
        value = static_cast<double>(s % 50) / 4.0;
      else
        continue;  // non-numeric metadata never matches a numeric bound
      if (lte && value > *lte) continue;
      if (gte && value < *gte) continue;
    }
    out.push_back(s);
  }
  order(out, ctx, {"accession", "-last_update", "sample_name"},
        {"-accession", "last_update", "-sample_name"});
  return out;
}

std::vector<std::size_t> filter_runs_like(const Ctx& ctx, std::vector<std::size_t> base,
                                          bool analyses) {
  const auto mask = biome_mask(ctx);
  std::optional<std::set<std::string>> types;
  if (auto t = ctx.param("experiment_type")) {
    auto list = split_multi(*t);
    types.emplace(list.begin(), list.end());
  }
  auto pipeline = analyses ? ctx.param("pipeline_version") : std::nullopt;
  if (pipeline && *pipeline != "4.1" && *pipeline != "5.0") {
    const auto& all = d::pipelines();
    if (std::find(all.begin(), all.end(), *pipeline) == all.end()) {
      bad_request("Select a valid choice. That choice is not one of the available choices.",
                  "invalid_choice", "/data/attributes/pipeline_version");
    }
  }
  const auto study_acc = ctx.param("study_accession");
  const auto sample_acc = ctx.param("sample_accession");
  std::vector<std::size_t> out;
  for (std::size_t s : base) {
    if (!mask[d::sample_biome(s)]) continue;
    if (types && !types->count(d::experiment_type_of(s))) continue;
    if (pipeline && *pipeline != d::analysis_pipeline(s)) continue;
    if (study_acc && *study_acc != d::study_accession(d::sample_study(s))) continue;
    if (sample_acc && *sample_acc != d::sample_accession(s)) continue;
    out.push_back(s);
  }
  order(out, ctx, {"accession", "job_id"}, {"-accession", "-job_id"});
  return out;
}

}  // namespace mgnify::mock::v1routes
