// Schema-driven conformance of the v2 models (issue 14, part 4): for every
// response schema of both OpenAPI documents, documents generated from the
// schema (tests/core/schema_instances.hpp) decode through json.get<T>() and
// decode_body<T>() to the same model and encode back to themselves.
//
// The schema-to-model table is explicit, and a response schema without an
// entry fails the test: a schema the service adds later is not silently left
// unchecked.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/schema_instances.hpp"
#include "mgnify/detail/fast_json.hpp"
#include "mgnify/v2.hpp"
#include "mgnify/v2/fast_decode.hpp"
#include "skip.hpp"

namespace openapi_schema_test {

using json = nlohmann::json;
namespace si = mgnify::test::schema_instances;

struct Entry {
  std::string type;     // the SDK type, for messages
  si::Checker one;      // the schema as a whole response
  si::Checker page;     // NinjaPaginationResponseSchema_<schema>_: mgnify::v2::CountedPage<type>
  std::string ignored;  // why the SDK never decodes this schema (then no checkers)
};

template <class T>
Entry model(const char* type) {
  return {type, &si::check_model<T>, &si::check_model<mgnify::v2::CountedPage<T>>, ""};
}

/// The token is redacted on encoding (a credential must not reach logs), so
/// the round trip of this one model is checked field by field instead.
std::optional<si::Failure> check_token(const json& doc, const std::string& url) {
  using mgnify::TokenResponse;
  std::optional<TokenResponse> slow;
  std::optional<TokenResponse> fast;
  try {
    slow = doc.get<TokenResponse>();
    fast = mgnify::detail::decode_body<TokenResponse>(doc.dump(), url);
  } catch (const std::exception& e) {
    return si::Failure{"decoding throws", e.what()};
  }
  const auto sent = doc.find("token_type");
  const std::string sent_type =
      sent != doc.end() && sent->is_string() ? sent->get<std::string>() : std::string();
  if (slow->token != doc.at("token") || fast->token != slow->token ||
      slow->token_type != sent_type || fast->token_type != sent_type) {
    return si::Failure{"token fields differ from the document", json(*slow).dump()};
  }
  if (json(*slow).at("token") != mgnify::kRedactedToken) {
    return si::Failure{"the token is encoded", json(*slow).dump()};
  }
  return std::nullopt;
}

#define MGNIFY_SCHEMA_MODEL(T) model<mgnify::v2::T>("mgnify::v2::" #T)

/// Component schema name -> SDK model. Page schemas
/// (NinjaPaginationResponseSchema_X_) use the entry of X.
const std::map<std::string, Entry>& model_table() {
  static const std::map<std::string, Entry> table = {
      {"AdditionalContainedGenomeSchema", MGNIFY_SCHEMA_MODEL(AdditionalContainedGenomeSchema)},
      {"AnalysedRun", MGNIFY_SCHEMA_MODEL(AnalysedRun)},
      {"AnalysedRunDetail", MGNIFY_SCHEMA_MODEL(AnalysedRunDetail)},
      {"Assembly", MGNIFY_SCHEMA_MODEL(Assembly)},
      {"AssemblyDetail", MGNIFY_SCHEMA_MODEL(AssemblyDetail)},
      {"Biome", MGNIFY_SCHEMA_MODEL(Biome)},
      {"GenomeAssemblyLinkSchema", MGNIFY_SCHEMA_MODEL(GenomeAssemblyLinkSchema)},
      {"GenomeCatalogueDetail", MGNIFY_SCHEMA_MODEL(GenomeCatalogueDetail)},
      {"GenomeCatalogueList", MGNIFY_SCHEMA_MODEL(GenomeCatalogue)},
      {"GenomeDetail", MGNIFY_SCHEMA_MODEL(GenomeDetail)},
      {"GenomeList", MGNIFY_SCHEMA_MODEL(Genome)},
      {"GenomeWithAnnotations", MGNIFY_SCHEMA_MODEL(GenomeWithAnnotations)},
      {"MGnifyAnalysis", MGNIFY_SCHEMA_MODEL(Analysis)},
      {"MGnifyAnalysisDetail", MGNIFY_SCHEMA_MODEL(AnalysisDetail)},
      {"MGnifyAnalysisTypedAnnotation", MGNIFY_SCHEMA_MODEL(AnalysisTypedAnnotation)},
      {"MGnifyAnalysisWithAnnotations", MGNIFY_SCHEMA_MODEL(AnalysisWithAnnotations)},
      {"MGnifyPublication", MGNIFY_SCHEMA_MODEL(Publication)},
      {"MGnifyPublicationDetail", MGNIFY_SCHEMA_MODEL(PublicationDetail)},
      {"MGnifySample", MGNIFY_SCHEMA_MODEL(Sample)},
      {"MGnifySampleDetail", MGNIFY_SCHEMA_MODEL(SampleDetail)},
      {"MGnifySampleWithMetadata", MGNIFY_SCHEMA_MODEL(SampleWithMetadata)},
      {"MGnifyStudy", MGNIFY_SCHEMA_MODEL(Study)},
      {"MGnifyStudyDetail", MGNIFY_SCHEMA_MODEL(StudyDetail)},
      {"PublicationAnnotations", MGNIFY_SCHEMA_MODEL(PublicationAnnotations)},
      {"SuperStudy", MGNIFY_SCHEMA_MODEL(SuperStudy)},
      {"SuperStudyDetail", MGNIFY_SCHEMA_MODEL(SuperStudyDetail)},
      {"WebinTokenResponse", {"mgnify::TokenResponse", &check_token, nullptr, ""}},
      {"Schema",
       {"", nullptr, nullptr, "POST auth/verify: V2Client::verify() reads only the status"}},
  };
  return table;
}

#undef MGNIFY_SCHEMA_MODEL

/// Failures in code this test may not change (detail/). None today; a new
/// entry needs a [!mayfail] test case calling report_known_failures, as
/// tests/v1/schema_conformance_test.cpp has.
const std::vector<si::KnownFailure>& known_failures() {
  static const std::vector<si::KnownFailure> known = {};
  return known;
}

const char* const kDocuments[] = {"openapi_v2.mgnipy-f4e66b3.json",
                                  "openapi_v2.mgnipy-f523197.json"};

/// "f4e66b3" for "openapi_v2.mgnipy-f4e66b3.json": short enough for one line of output.
std::string suite_of(const std::string& file) {
  const auto dash = file.rfind('-');
  const auto dot = file.rfind('.');
  return file.substr(dash + 1, dot - dash - 1);
}

/// Response schema name -> the operations answering with it: every GET, and
/// every POST whose 200 response is JSON.
std::map<std::string, std::set<std::string>> response_schemas(const json& doc,
                                                              const std::string& file) {
  std::map<std::string, std::set<std::string>> out;
  const json::json_pointer schema_at("/responses/200/content/application~1json/schema");
  for (const auto& path : doc.at("paths").items()) {
    for (const char* method : {"get", "post"}) {
      const auto op = path.value().find(method);
      if (op == path.value().end()) continue;
      const std::string operation = std::string(method) + " " + path.key();
      if (!op->contains(schema_at)) {
        if (std::string(method) == "get")
          FAIL_CHECK(file << ": " << operation << " has no JSON 200 response");
        continue;
      }
      const std::string ref = op->at(schema_at).value("$ref", "");
      const std::string prefix = "#/components/schemas/";
      if (ref.rfind(prefix, 0) != 0) {
        FAIL_CHECK(file << ": " << operation
                        << ": the 200 schema is not a $ref to a component schema");
        continue;
      }
      out[ref.substr(prefix.size())].insert(operation);
    }
  }
  return out;
}

/// Runs every response schema of every document; `used` collects the table entries that matched.
si::Report run_all(const std::string& fixtures, std::set<std::string>& used) {
  si::Report report;
  const std::regex page_schema("NinjaPaginationResponseSchema_(.+)_");
  for (const char* file : kDocuments) {
    const auto path = std::filesystem::path(fixtures) / "v2" / file;
    INFO("OpenAPI document " << path);
    std::ifstream in(path);
    REQUIRE(in.good());
    const json doc = json::parse(in);
    const auto schemas = response_schemas(doc, file);
    CHECK(schemas.size() >= 25);
    for (const auto& [name, operations] : schemas) {
      std::smatch m;
      const bool page = std::regex_match(name, m, page_schema);
      const std::string item = page ? m[1].str() : name;
      const auto entry = model_table().find(item);
      if (entry == model_table().end()) {
        std::string ops;
        for (const auto& o : operations) ops += "\n  " + o;
        FAIL_CHECK(file << ": response schema " << name
                        << " has no entry in the model table; used by:" << ops);
        continue;
      }
      used.insert(item);
      if (!entry->second.ignored.empty()) continue;
      const si::Checker& check = page ? entry->second.page : entry->second.one;
      if (!check) {
        FAIL_CHECK(file << ": " << name << ": " << entry->second.type << " has no "
                        << (page ? "page" : "single-object") << " form in the table");
        continue;
      }
      const json& schema = doc.at("components").at("schemas").at(name);
      si::run_schema(suite_of(file), name, doc, schema, check, known_failures(), report);
    }
  }
  return report;
}

}  // namespace openapi_schema_test

TEST_CASE("documents generated from every v2 response schema decode both ways alike and round-trip",
          "[v2][schema]") {
  namespace t = openapi_schema_test;
  const std::string fixtures = MGNIFY_FIXTURES_DIR;
  if (fixtures.empty())
    MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: no OpenAPI documents to generate from");
  std::set<std::string> used;
  const auto report = t::run_all(fixtures, used);
  WARN(mgnify::test::schema_instances::summary("v2 response schemas of openapi_v2.mgnipy-<commit>.json", report));
  mgnify::test::schema_instances::expect_no_unexpected_failures(report, t::known_failures());
  for (const auto& [name, entry] : t::model_table()) {
    INFO("model table entry " << name << " -> " << entry.type);
    CHECK(used.count(name) == 1);  // an entry no document uses is stale (or misspelt)
  }
  // 55 response schemas in the two documents, 7 to 58 distinct variants each.
  REQUIRE(report.per_schema.size() >= 50);
  REQUIRE(report.documents >= 1000);
}
