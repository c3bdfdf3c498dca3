#pragma once

// The v1 mock's smaller endpoints: vocabularies, genome sets, pipeline tools,
// extra annotations and Europe PMC annotations.

#include "responses.hpp"

namespace mgnify::mock::v1routes {

// Vocabularies of the genome catalogues and the pipelines' tools: small fixed
// lists, with per-genome counts derived from the indexes.

struct NamedEntry {
  const char* name;
  const char* description;
};
const std::vector<NamedEntry>& cog_categories();
const std::vector<NamedEntry>& genome_kegg_module_defs();
const std::vector<NamedEntry>& antismash_cluster_defs();
struct KeggClassDef {
  const char* id;
  const char* name;
  const char* parent;  // nullptr at the top
};
const std::vector<KeggClassDef>& kegg_class_defs();
const std::vector<const char*>& genome_set_names();
struct ToolDef {
  const char* name;
  const char* version;
  const char* description;
  const char* web_link;
  const char* pipeline;  // the release that runs it
};
const std::vector<ToolDef>& tool_defs();
std::int64_t genome_count_of(std::size_t g, std::size_t k);
J counted_json(const Ctx& ctx, const std::string& type, const std::string& id,
               const std::string& self_path, J attrs, std::optional<std::size_t> genome,
               std::size_t k);
// A vocabulary of `name` + `description` entries: its top-level list, and the
// relation of a genome that counts them.
struct Vocabulary {
  const std::vector<NamedEntry>& (*entries)();
  const char* path;             // the top-level list
  const char* type;             // its resource type
  const char* genome_relation;  // genomes/{acc}/<this>
  const char* genome_type;      // the type of a genome's counts
};
const std::vector<Vocabulary>& vocabularies();
J named_json(const Ctx& ctx, const Vocabulary& v, std::size_t k, std::optional<std::size_t> genome);
J kegg_class_json(const Ctx& ctx, std::size_t k, std::optional<std::size_t> genome);
J genome_set_json(const Ctx& ctx, std::size_t k);
J pipeline_tool_json(const Ctx& ctx, std::size_t k);

// Files attached to a run or an assembly outside the analyses.
constexpr std::size_t kExtraAnnotations = 2;
std::string extra_annotation_alias(const std::string& owner_acc, std::size_t k);
std::string extra_annotation_text(const std::string& owner_acc, std::size_t k);
J extra_annotation_json(const Ctx& ctx, const std::string& owner_path, const std::string& owner_acc,
                        const std::string& type, std::size_t k);
J europe_pmc_annotations_json(std::size_t p);

template <class Make>
J fixed_list(const Ctx& ctx, std::size_t count, Make make) {
  no_include(ctx);
  return page_envelope(ctx, count, [&](std::size_t k) { return make(k); });
}
std::optional<J> smaller_routes(const Ctx& ctx, const std::vector<std::string>& seg);

}  // namespace mgnify::mock::v1routes
