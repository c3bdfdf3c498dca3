// Hostile input: every accession, lineage, search string and filter value a
// caller passes is either refused with InvalidArgument before any request, or
// percent-encoded so that it stays inside its own path segment or query value.
// Each case is proven on the wire: the mock's raw request target is compared
// with the exact expected bytes, and no request carries an injected header.

#include <catch2/catch.hpp>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "faults/fault_support.hpp"

using namespace mgnify::test::faults;

namespace {

struct Hostile {
  const char* name;
  std::string value;
  std::string segment;  // as a path segment; empty: refused
  std::string query;    // as a query value, spaces as %20
  std::string plus;     // as a query value, spaces as '+'
};

const std::vector<Hostile>& hostile_inputs() {
  static const std::vector<Hostile> all = {
      {"slash", "a/b", "a%2Fb", "a%2Fb", "a%2Fb"},
      {"dot-dot", "..", "", "..", ".."},
      {"dot-dot path", "../../admin", "..%2F..%2Fadmin", "..%2F..%2Fadmin", "..%2F..%2Fadmin"},
      {"encoded slash", "a%2Fb", "a%252Fb", "a%252Fb", "a%252Fb"},
      {"question mark", "a?b=c", "a%3Fb%3Dc", "a%3Fb%3Dc", "a%3Fb%3Dc"},
      {"hash", "a#frag", "a%23frag", "a%23frag", "a%23frag"},
      {"CR/LF header injection", "a\r\nX-Injected: 1", "a%0D%0AX-Injected:%201",
       "a%0D%0AX-Injected:%201", "a%0D%0AX-Injected:+1"},
      {"NUL", std::string("a\0b", 3), "a%00b", "a%00b", "a%00b"},
      {"non-UTF-8 bytes", "\xff\xfe\xc3", "%FF%FE%C3", "%FF%FE%C3", "%FF%FE%C3"},
      {"ampersand and equals", "x&page=9", "x%26page%3D9", "x%26page%3D9", "x%26page%3D9"},
      {"space and plus", "a b+c", "a%20b%2Bc", "a%20b%2Bc", "a+b%2Bc"},
  };
  return all;
}

bool has_control_or_space(const std::string& s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7F) return true;
  }
  return false;
}

/// Runs `call`, which must either throw InvalidArgument without a request
/// (when `expected_target` is empty) or send exactly one request whose raw
/// target is `expected_target`.
void prove(MockServer& server, const std::string& expected_target,
           const std::function<void()>& call) {
  server.clear_requests();
  bool invalid = false;
  try {
    call();
  } catch (const mgnify::InvalidArgument&) {
    invalid = true;
  } catch (const mgnify::Error&) {
    // The service may well answer 404 or 422; what matters is what was sent.
  }
  const auto requests = server.requests();
  if (expected_target.empty()) {
    CHECK(invalid);
    CHECK(requests.empty());
    return;
  }
  CHECK_FALSE(invalid);
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].target == expected_target);
  CHECK_FALSE(has_control_or_space(requests[0].target));
  CHECK(requests[0].headers.count("x-injected") == 0);
}

}  // namespace

TEST_CASE("hostile input: proteins", "[security][hostile]") {
  auto h = make_harness(Service::proteins, Tweaks{{}, false, {}});
  auto o = h->options();
  o.base_url = h->server->proteins_url();
  o.retry.max_attempts = 1;
  mgnify::proteins::ProteinClient client(o);
  const std::string prefix = mgnify::mock::kProteinsPrefix;
  for (const auto& in : hostile_inputs()) {
    INFO(in.name);
    // Accessions have a strict form: anything else is refused before a request.
    prove(*h->server, "", [&] { client.protein(in.value); });
    prove(*h->server, "", [&] { mgnify::proteins::SearchQuery::by_pfam(in.value); });
    // Lineages are free text: control characters are refused, the rest is encoded.
    const bool control = in.value.find_first_of(std::string("\r\n\0", 3)) != std::string::npos;
    prove(*h->server, control ? "" : prefix + "/protein/search?biome_lineage=" + in.query,
          [&] { client.search(mgnify::proteins::SearchQuery::by_lineage(in.value)); });
  }
}

TEST_CASE("hostile input: v1", "[security][hostile]") {
  auto h = make_harness(Service::v1, Tweaks{{}, false, {}});
  auto o = h->options();
  o.base_url = h->server->v1_url();
  o.retry.max_attempts = 1;
  mgnify::v1::LegacyClient client(o);
  const std::string prefix = mgnify::mock::kV1Prefix;
  for (const auto& in : hostile_inputs()) {
    INFO(in.name);
    const std::string& seg = in.segment;
    // Accessions are checked by the rule of their kind, as in v2; other ids are encoded.
    prove(*h->server, "", [&] { client.study(in.value); });
    prove(*h->server, "", [&] { client.analysis(in.value); });
    prove(*h->server, "", [&] { client.genome(in.value); });
    prove(*h->server, "", [&] { client.sample(in.value); });
    prove(*h->server, "", [&] { client.run(in.value); });
    prove(*h->server, seg.empty() ? "" : prefix + "/biomes/" + seg + "/samples",
          [&] { client.biome_samples(in.value).begin(); });
    prove(*h->server, prefix + "/studies?search=" + in.query,
          [&] { client.studies(mgnify::v1::Query().search(in.value)).begin(); });
    prove(*h->server, prefix + "/samples?metadata_key=" + in.query,
          [&] { client.samples(mgnify::v1::Query().metadata_key(in.value)).begin(); });
  }
}

TEST_CASE("hostile input: v2", "[security][hostile]") {
  auto h = make_harness(Service::v2, Tweaks{{}, false, {}});
  auto o = h->options();
  o.base_url = h->server->v2_url();
  o.retry.max_attempts = 1;
  mgnify::v2::V2Client client(o);
  const std::string prefix = mgnify::mock::kV2Prefix;
  for (const auto& in : hostile_inputs()) {
    INFO(in.name);
    const std::string& seg = in.segment;
    // Accessions are checked by the rule of their kind; other ids are encoded.
    prove(*h->server, "", [&] { client.study(in.value); });
    prove(*h->server, "", [&] { client.analysis(in.value); });
    prove(*h->server, "", [&] { client.sample(in.value); });
    prove(*h->server, "", [&] { client.assembly(in.value); });
    prove(*h->server, seg.empty() ? "" : prefix + "/super-studies/" + seg,
          [&] { client.super_study(in.value); });
    prove(*h->server, prefix + "/studies/?search=" + in.plus + "&page=1&page_size=100",
          [&] { client.studies(mgnify::v2::StudyQuery().search(in.value)).begin(); });
    prove(*h->server, prefix + "/studies/?biome_lineage=" + in.query + "&page=1&page_size=100",
          [&] { client.studies(mgnify::v2::StudyQuery().biome_lineage(in.value)).begin(); });
  }
}

TEST_CASE("links from responses are followed only on the base URL's host", "[security][links]") {
  auto h = make_harness(Service::v1, Tweaks{{}, false, {}});
  const std::string base = h->server->v1_url();
  auto o = h->options();
  o.base_url = base;
  mgnify::v1::LegacyClient client(o);
  const std::string port = std::to_string(h->server->port());
  const std::vector<std::string> foreign = {
      "http://localhost:" + port + "/metagenomics/api/v1/studies",
      "https://evil.invalid/metagenomics/api/v1/studies",
      "https://127.0.0.1:" + port +
          "/metagenomics/api/v1/studies",                // another scheme is another origin
      "http://127.0.0.1:1/metagenomics/api/v1/studies",  // and another port
      "http://127.0.0.1:" + port + "@evil.invalid/metagenomics/api/v1/studies",
      "ftp://127.0.0.1:" + port + "/metagenomics/api/v1/studies",
      "/metagenomics/api/v1/studies",
  };
  for (const auto& url : foreign) {
    INFO(url);
    h->server->clear_requests();
    CHECK_THROWS_AS(client.follow<mgnify::v1::Study>(url), mgnify::InvalidArgument);
    CHECK_THROWS_AS(client.follow_one<mgnify::v1::Study>(url), mgnify::InvalidArgument);
    CHECK_THROWS_AS(client.fetch_page<mgnify::v1::Study>(url), mgnify::InvalidArgument);
    CHECK(h->server->requests().empty());
  }
  SECTION("the base URL's own links are followed") {
    auto paged = client.follow<mgnify::v1::Study>(base + "/studies?page_size=3",
                                                  mgnify::ListOptions{std::nullopt, 1, 5});
    CHECK(paged.collect().size() == 5);
    CHECK(client.follow_one<mgnify::v1::Study>(base + "/studies/MGYS00000002").id() ==
          "MGYS00000002");
  }
  SECTION("allow_foreign_links lets a caller opt in") {
    auto open = o;
    open.allow_foreign_links = true;
    mgnify::v1::LegacyClient trusting(open);
    CHECK(trusting.follow_one<mgnify::v1::Study>(foreign[0] + "/MGYS00000002").id() ==
          "MGYS00000002");
  }
}
