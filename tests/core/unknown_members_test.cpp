// unknown_members names what a service sent that the models do not know, so
// that the live check can report a field MGnify added. Decoding keeps such
// members; this only lists them.

#include "mgnify/detail/unknown_members.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mgnify/proteins.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"

using Catch::Matchers::Equals;
using nlohmann::json;

TEST_CASE("unknown_members lists members outside a v2 model's field table, nested ones included",
          "[unknown_members]") {
  const auto genome =
      json{{"accession", "MGYG000000001"},
           {"catalogue_id", "marine-v1-0"},
           {"brand_new", 1},
           {"biome", {{"biome_name", "Marine"}, {"lineage", "root:Marine"}, {"depth/x~", true}}}}
          .get<mgnify::v2::Genome>();
  std::vector<std::string> unknown = mgnify::detail::unknown_members(genome);
  std::sort(unknown.begin(), unknown.end());
  CHECK_THAT(unknown, Equals(std::vector<std::string>{"/biome/depth~1x~0", "/brand_new"}));
}

TEST_CASE("unknown_members is empty when every member is known", "[unknown_members]") {
  const auto genome = json{{"accession", "MGYG000000001"}, {"biome", {{"biome_name", "Marine"}}}}
                          .get<mgnify::v2::Genome>();
  CHECK(mgnify::detail::unknown_members(genome).empty());
}

TEST_CASE("unknown_members looks into every element of a list of nested models",
          "[unknown_members]") {
  const auto protein =
      json{{"mgyp", "MGYP000000000001"},
           {"biomes", json::array({json{{"id", 1}}, json{{"id", 2}, {"extra", 0}}})}}
          .get<mgnify::proteins::Protein>();
  CHECK_THAT(mgnify::detail::unknown_members(protein),
             Equals(std::vector<std::string>{"/biomes/1/extra"}));
}

TEST_CASE("unknown_members reads a v1 model's attributes against its attribute table",
          "[unknown_members]") {
  const auto study =
      json{{"type", "studies"},
           {"id", "MGYS00000001"},
           {"attributes",
            {{"accession", "MGYS00000001"}, {"study-name", "x"}, {"carbon-footprint", 3}}}}
          .get<mgnify::v1::Study>();
  CHECK_THAT(mgnify::detail::unknown_members(study),
             Equals(std::vector<std::string>{"/attributes/carbon-footprint"}));
}
