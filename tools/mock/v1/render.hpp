#pragma once

// The v1 mock's resource renderers: one JSON:API object per resource kind.

#include "jsonapi.hpp"

namespace mgnify::mock::v1routes {

std::string iso_minus_minutes(std::size_t minutes);
std::string date_of(std::size_t n);

std::size_t biome_samples_count(std::size_t b);
J biome_json(const Ctx& ctx, std::size_t b);
std::string any_study_accession(std::size_t i);
J study_json(const Ctx& ctx, std::size_t i, bool detail, Includes* inc);
J sample_json(const Ctx& ctx, std::size_t s, Includes* inc);
J run_json(const Ctx& ctx, std::size_t s, Includes* inc);
J assembly_json(const Ctx& ctx, std::size_t s, Includes* inc);
J analysis_json(const Ctx& ctx, std::size_t s, Includes* inc);
J download_json(const Ctx& ctx, const std::string& owner_kind, std::size_t owner, std::size_t k);
J publication_json(const Ctx& ctx, std::size_t p);
J experiment_type_json(const Ctx& ctx, std::size_t e);
J pipeline_json(const Ctx& ctx, std::size_t p);
J catalogue_json(const Ctx& ctx, std::size_t c);
J genome_json(const Ctx& ctx, std::size_t g);

struct SuperStudyDef {
  const char* slug;
  const char* title;
  std::size_t flagship_begin, flagship_end, related_begin, related_end;
};
const std::vector<SuperStudyDef>& super_studies();
J super_study_json(const Ctx& ctx, std::size_t k);
J annotation_json(const Ctx& ctx, const d::AnnDef& def, std::size_t k,
                  std::optional<std::size_t> analysis);
J organism_json(const Ctx& ctx, std::size_t o, std::optional<std::size_t> analysis,
                const char* pipeline);
std::string contig_position(std::size_t analysis, std::size_t c);
J contig_json(std::size_t s, std::size_t c);

}  // namespace mgnify::mock::v1routes
