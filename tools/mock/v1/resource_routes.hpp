#pragma once

// The v1 mock's routes of the main resources (studies, samples, runs,
// assemblies, analyses, biomes and the rest) by path segments.

#include "lookups.hpp"

namespace mgnify::mock::v1routes {

J root_doc(const Ctx& ctx);
J studies_routes(const Ctx& ctx, const std::vector<std::string>& seg);
J samples_routes(const Ctx& ctx, const std::vector<std::string>& seg);
J runs_routes(const Ctx& ctx, const std::vector<std::string>& seg);
J assemblies_routes(const Ctx& ctx, const std::vector<std::string>& seg);
J analyses_routes(const Ctx& ctx, const std::vector<std::string>& seg);
J biomes_routes(const Ctx& ctx, const std::vector<std::string>& seg);
J misc_routes(const Ctx& ctx, const std::vector<std::string>& seg);
J mydata(const Ctx& ctx);

}  // namespace mgnify::mock::v1routes
