// One accession rule per kind, applied alike by LegacyClient, V2Client,
// ProteinClient and the `mgnify` binary: the same text is refused by all of
// them before any request, or sent by all of them in the same canonical
// spelling, over libcurl to the mock on loopback.

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "mgnify/accession.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"
#include "mock/mock_server.hpp"
#include "support/all_services.hpp"

namespace {

// The kinds, as the calls below name them.
enum class Kind { study, sample, run, assembly, analysis, genome, protein };

mgnify::mock::MockServer& rule_mock() {
  static mgnify::mock::MockServer& server = mgnify::test::start_all_services();
  return server;
}

/// What one client or command did with one text: refused it, or sent it.
struct Outcome {
  bool refused = false;
  std::string sent;  // the accession's path segment as the mock received it
  std::string error;

  bool operator==(const Outcome& o) const { return refused == o.refused && sent == o.sent; }
};

std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  return o.refused ? os << "refused (" << o.error << ")" : os << "sent " << o.sent;
}

/// The segment after `/<collection>/` in the first request the mock saw
/// (after `/studies/insdc/` for a look-up of an INSDC study accession).
std::string sent_segment(const std::string& collection) {
  for (const auto& r : rule_mock().requests()) {
    const std::string path = r.target.substr(0, r.target.find('?'));
    const std::string marker = "/" + collection + "/";
    auto at = path.find(marker);
    if (at == std::string::npos) continue;
    std::string rest = path.substr(at + marker.size());
    if (rest.rfind("insdc/", 0) == 0) rest = rest.substr(6);
    return rest.substr(0, rest.find('/'));
  }
  return "<no request to /" + collection + "/>";
}

Outcome through_sdk(const std::function<void()>& call, const std::string& collection) {
  rule_mock().clear_requests();
  try {
    call();
  } catch (const mgnify::InvalidArgument& e) {
    CHECK(rule_mock().requests().empty());
    return {true, "", e.what()};
  } catch (const mgnify::Error&) {
    // Sent, and answered (a 404 for an accession the mock does not hold).
  }
  return {false, sent_segment(collection), ""};
}

Outcome through_cli(const std::vector<std::string>& command, const std::string& text,
                    const std::string& collection) {
  rule_mock().clear_requests();
  std::vector<std::string> args = {"--rate-limit", "0", "--retries", "1"};
  args.insert(args.end(), command.begin(), command.end());
  args.push_back(text);
  const auto run = mgnify::test::cli::run_piped(
      MGNIFY_CLI_PATH, args,
      {"MGNIFY_PROTEINS_URL=" + rule_mock().proteins_url(),
       "MGNIFY_API_V1_URL=" + rule_mock().v1_url(), "MGNIFY_API_V2_URL=" + rule_mock().v2_url()});
  REQUIRE_FALSE(run.timed_out);
  if (run.code == 2) {
    // A usage error: one line, before any request.
    CHECK(run.err.rfind("mgnify: ", 0) == 0);
    CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
    CHECK(rule_mock().requests().empty());
    return {true, "", run.err};
  }
  return {false, sent_segment(collection), ""};
}

mgnify::ClientOptions options_for(const std::string& url) {
  return mgnify::test::cli::sdk_options(url);
}

struct Channel {
  std::string name;
  std::function<Outcome(const std::string&)> apply;
};

using Call = std::function<void(const std::string&)>;

Channel sdk(std::string name, std::string collection, Call call) {
  return Channel{std::move(name), [call, collection](const std::string& text) {
                   return through_sdk([&] { call(text); }, collection);
                 }};
}

Channel cli(std::vector<std::string> command, std::string collection) {
  std::string name = "mgnify";
  for (const auto& word : command) name += " " + word;
  return Channel{name, [command, collection](const std::string& text) {
                   return through_cli(command, text, collection);
                 }};
}

std::vector<Channel> channels_for(Kind kind) {
  using mgnify::v1::LegacyClient;
  using mgnify::v2::V2Client;
  const auto v1 = std::make_shared<const LegacyClient>(options_for(rule_mock().v1_url()));
  const auto v2 = std::make_shared<const V2Client>(options_for(rule_mock().v2_url()));
  const auto proteins = std::make_shared<const mgnify::proteins::ProteinClient>(
      options_for(rule_mock().proteins_url()));
  switch (kind) {
    case Kind::study:
      return {sdk("LegacyClient::study", "studies", [v1](const std::string& t) { v1->study(t); }),
              // API v2 names a study by MGYS; its INSDC accessions have their own look-up.
              sdk("V2Client::study or study_by_insdc_accession", "studies",
                  [v2](const std::string& t) {
                    if (mgnify::is_insdc_study_accession(t)) {
                      v2->study_by_insdc_accession(t);
                    } else {
                      v2->study(t);
                    }
                  }),
              cli({"v1", "studies", "get"}, "studies"), cli({"v2", "studies", "get"}, "studies")};
    case Kind::sample:
      return {sdk("LegacyClient::sample", "samples", [v1](const std::string& t) { v1->sample(t); }),
              sdk("V2Client::sample", "samples", [v2](const std::string& t) { v2->sample(t); }),
              cli({"v1", "samples", "get"}, "samples"), cli({"v2", "samples", "get"}, "samples")};
    case Kind::run:
      return {sdk("LegacyClient::run", "runs", [v1](const std::string& t) { v1->run(t); }),
              sdk("V2Client::run", "runs", [v2](const std::string& t) { v2->run(t); }),
              cli({"v1", "runs", "get"}, "runs"), cli({"v2", "runs", "get"}, "runs")};
    case Kind::assembly:
      return {
          sdk("LegacyClient::assembly", "assemblies",
              [v1](const std::string& t) { v1->assembly(t); }),
          sdk("V2Client::assembly", "assemblies", [v2](const std::string& t) { v2->assembly(t); }),
          cli({"v1", "assemblies", "get"}, "assemblies"),
          cli({"v2", "assemblies", "get"}, "assemblies")};
    case Kind::analysis:
      return {
          sdk("LegacyClient::analysis", "analyses",
              [v1](const std::string& t) { v1->analysis(t); }),
          sdk("V2Client::analysis", "analyses", [v2](const std::string& t) { v2->analysis(t); }),
          cli({"v1", "analyses", "get"}, "analyses"), cli({"v2", "analyses", "get"}, "analyses")};
    case Kind::genome:
      return {sdk("LegacyClient::genome", "genomes", [v1](const std::string& t) { v1->genome(t); }),
              sdk("V2Client::genome", "genomes", [v2](const std::string& t) { v2->genome(t); }),
              cli({"v1", "genomes", "get"}, "genomes"), cli({"v2", "genomes", "get"}, "genomes")};
    case Kind::protein:
      return {sdk("ProteinClient::protein", "protein",
                  [proteins](const std::string& t) { proteins->protein(t); }),
              cli({"protein", "get"}, "protein")};
  }
  return {};
}

/// A text and what every client and command must do with it: send this
/// canonical spelling, or (nullopt) refuse it before any request.
struct Expect {
  std::string text;
  std::optional<std::string> sent;
};

struct KindInputs {
  Kind kind;
  std::vector<Expect> cases;
};

const std::optional<std::string> kRefused;

}  // namespace

TEST_CASE("every client and the CLI accept, refuse and send an accession alike",
          "[cli][accession]") {
  const std::vector<KindInputs> inputs = {
      {Kind::study,
       {{"MGYS00000001", "MGYS00000001"},
        {" mgys1 ", "MGYS00000001"},
        {"MGYS1", "MGYS00000001"},
        {"1", kRefused},
        {"MGYS0", kRefused},
        {"MGYS123456789", kRefused},
        {"MGYS1x", kRefused},
        {"MGYA00000001", kRefused},
        {"ERP100001", "ERP100001"},
        {" erp100001", "ERP100001"},
        {"prjeb40001", "PRJEB40001"},
        {"PRJXX1", kRefused},
        {"ERP1;x", kRefused}}},
      {Kind::sample,
       {{"ERS1000003", "ERS1000003"},
        {" ers1000003 ", "ERS1000003"},
        {"SAMEA1000003", "SAMEA1000003"},
        {"samea1000003", "SAMEA1000003"},
        {"1000003", kRefused},
        {"ERS", kRefused},
        {"ERR3000003", kRefused},
        {"MGYS00000001", kRefused}}},
      {Kind::run,
       {{"ERR3000003", "ERR3000003"},
        {"err3000003 ", "ERR3000003"},
        {"3000003", kRefused},
        {"ERR", kRefused},
        {"ERS1000003", kRefused}}},
      {Kind::assembly,
       {{"ERZ4000003", "ERZ4000003"},
        {" erz4000003", "ERZ4000003"},
        {"4000003", kRefused},
        {"ERZ", kRefused},
        {"ERR3000003", kRefused}}},
      {Kind::analysis,
       {{"MGYA00000004", "MGYA00000004"},
        {"mgya4", "MGYA00000004"},
        {"MGYA4", "MGYA00000004"},
        {"4", "MGYA00000004"},  // deprecated, accepted this release
        {"MGYA0", kRefused},
        {"MGYA123456789", kRefused},
        {"MGYA4x", kRefused},
        {"MGYS00000004", kRefused}}},
      {Kind::genome,
       {{"MGYG000000001", "MGYG000000001"},
        {"mgyg1", "MGYG000000001"},
        {"MGYG00000001", "MGYG000000001"},
        {"1", kRefused},
        {"MGYG0", kRefused},
        {"MGYG0000000001", kRefused}}},
      {Kind::protein,
       {{"MGYP000261684433", "MGYP000261684433"},
        {"mgyp261684433", "MGYP000261684433"},
        {"261684433", "MGYP000261684433"},  // deprecated, accepted this release
        {"MGYP0", kRefused},
        {"MGYC000564781877", kRefused},
        {"PF00005", kRefused}}},
  };
  for (const KindInputs& kind : inputs) {
    const std::vector<Channel> channels = channels_for(kind.kind);
    for (const Expect& c : kind.cases) {
      const Outcome expected{!c.sent, c.sent.value_or(""), ""};
      for (const Channel& channel : channels) {
        INFO(channel.name << " '" << c.text << "'");
        CHECK(channel.apply(c.text) == expected);
      }
    }
  }
}
