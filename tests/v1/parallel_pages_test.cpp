// ClientOptions::parallel_pages on v1 lists: page URLs guessed from the first
// page's links, each page used only if the page before it named it, and the
// fall-back to plain link walking when a guess is wrong.

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mgnify/detail/make_walk.hpp"
#include "mgnify/testing/fake_transport.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v1/client_templates.hpp"
#include "skip.hpp"
#include "support/v1_rig.hpp"

using mgnify::v1::Query;

namespace {

std::vector<std::string> sample_ids(mgnify::Paged<mgnify::v1::Sample>& paged) {
  std::vector<std::string> ids;
  for (const auto& s : paged) {
    ids.push_back(s.id());
    REQUIRE(ids.size() <= 1000);
  }
  return ids;
}

// Every sample of MGYS00000001, one page at a time, no fetching ahead.
std::vector<std::string> serial_samples(const mgnify::test::V1Rig& rig, int page_size) {
  auto o = rig.options();
  o.read_ahead = false;
  mgnify::v1::LegacyClient client(o);
  auto paged = client.study_samples("MGYS00000001", {}, mgnify::test::pages(page_size));
  return sample_ids(paged);
}

std::vector<std::string> targets(const mgnify::test::V1Rig& rig, const std::string& path) {
  std::vector<std::string> out;
  for (const auto& r : rig.server.requests()) {
    if (r.path == path) out.push_back(r.target);
  }
  return out;
}

}  // namespace

TEST_CASE("v1: parallel_pages walks a page-number list with guessed page URLs, in order",
          "[v1][integration][parallel]") {
  mgnify::test::V1Rig rig;
  const auto expected = serial_samples(rig, 12);  // 300 samples: 25 pages
  REQUIRE(expected.size() == 300);
  rig.server.clear_requests();
  auto o = rig.options();
  o.parallel_pages = 4;
  mgnify::v1::LegacyClient client(o);
  const std::string path = rig.path("studies/MGYS00000001/samples");
  auto paged = client.study_samples("MGYS00000001", {}, mgnify::test::pages(12));
  CHECK(sample_ids(paged) == expected);
  CHECK(mgnify::detail::walk_engine(paged).predicting_now());
  CHECK(paged.pages_fetched() == 25);
  // One request per page: no guess beyond `pages`, no page twice.
  const auto sent = targets(rig, path);
  CHECK(sent.size() == 25);
  CHECK(std::set<std::string>(sent.begin(), sent.end()).size() == 25);
  // The guessed URLs are the ones the service's links name (sorted query, page replaced).
  CHECK(std::set<std::string>(sent.begin(), sent.end()).count(path + "?page=25&page_size=12") == 1);
  CHECK_FALSE(paged.resume_token().has_value());
}

TEST_CASE("v1: with parallel_pages a failure mid-walk surfaces at its page and the walk resumes",
          "[v1][integration][parallel]") {
  mgnify::test::V1Rig rig;
  const auto expected = serial_samples(rig, 20);  // 15 pages
  rig.server.clear_requests();
  auto o = rig.options();
  o.parallel_pages = 4;
  o.retry.max_attempts = 1;
  mgnify::v1::LegacyClient client(o);
  const std::string path = rig.path("studies/MGYS00000001/samples");
  // The first request (page 1) passes; whichever page is requested next fails.
  mgnify::mock::Fault pass;
  pass.action = mgnify::mock::Fault::Action::pass;
  rig.server.push_fault(path, pass);
  rig.server.push_fault(path, mgnify::mock::Fault::status_only(500));
  auto paged = client.study_samples("MGYS00000001", {}, mgnify::test::pages(20));
  std::vector<std::string> ids;
  std::string failed_url;
  try {
    for (const auto& s : paged) {
      ids.push_back(s.id());
      REQUIRE(ids.size() <= 300);
    }
    FAIL("expected ServerError");
  } catch (const mgnify::ServerError& e) {
    failed_url = e.url();
  }
  // Every item before the failed page, none after it.
  const auto at = failed_url.find("page=");
  REQUIRE(at != std::string::npos);
  const int failed_page = std::stoi(failed_url.substr(at + 5));
  INFO("failed " << failed_url);
  CHECK(failed_page >= 2);
  CHECK(ids ==
        std::vector<std::string>(expected.begin(), expected.begin() + (failed_page - 1) * 20));
  REQUIRE(paged.resume_token());
  CHECK(*paged.resume_token() == failed_url);
  CHECK(paged.pages_in_flight() == 0);

  SECTION("the same range retries the page and goes on") {
    for (const auto& s : paged) ids.push_back(s.id());
    CHECK(ids == expected);
    CHECK(mgnify::detail::walk_engine(paged).predicting_now());
  }
  SECTION("the resume token starts a new walk there, guessing from that page") {
    auto rest = client.follow<mgnify::v1::Sample>(*paged.resume_token());
    for (const auto& s : rest) ids.push_back(s.id());
    CHECK(ids == expected);
    CHECK(mgnify::detail::walk_engine(rest).predicting_now());
  }
}

TEST_CASE("v1: parallel_pages with a cursor list follows links.next",
          "[v1][integration][parallel]") {
  mgnify::test::V1Rig rig;
  auto o = rig.options();
  o.parallel_pages = 4;
  mgnify::v1::LegacyClient client(o);
  auto contigs = client.analysis_contigs("MGYA00000001", {}, mgnify::test::pages(100));
  std::vector<std::string> ids;
  for (const auto& c : contigs) {
    ids.push_back(c.contig_id);
    REQUIRE(ids.size() <= 600);
  }
  CHECK(ids.size() == 600);
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == 600);
  std::string trail;
  for (const auto& r : rig.server.requests()) trail += r.target + "\n";
  INFO("requests:\n" << trail);
  CHECK(rig.server.requests().size() == 6);
}

TEST_CASE("v1: parallel_pages with max_items requests no page beyond the limit",
          "[v1][integration][parallel]") {
  mgnify::test::V1Rig rig;
  auto o = rig.options();
  o.parallel_pages = 8;
  mgnify::v1::LegacyClient client(o);
  auto studies = client.studies({}, mgnify::test::pages(10, 25));
  CHECK(studies.collect().size() == 25);
  CHECK(rig.server.hits(rig.path("studies")) == 3);
}

TEST_CASE("v1: parallel_pages must be at least 1", "[v1][parallel]") {
  mgnify::ClientOptions o;
  o.parallel_pages = 0;
  CHECK_THROWS_AS(mgnify::v1::LegacyClient(o), mgnify::InvalidArgument);
}

namespace {

// A scripted v1 service for the cases the mock never produces: studies
// 1..`count`, `page_size` per page, DRF page links; `tweak` edits a page.
struct Scripted {
  static constexpr const char* kBase = "https://h.example/metagenomics/api/v1";
  int count = 14;
  int page_size = 2;
  std::function<void(int page, nlohmann::json& body)> tweak;
  std::shared_ptr<mgnify::testing::FakeTransport> transport =
      std::make_shared<mgnify::testing::FakeTransport>();

  static std::string page_url(int page, int page_size) {
    return std::string(kBase) + "/studies?page=" + std::to_string(page) +
           "&page_size=" + std::to_string(page_size);
  }
  static nlohmann::json study(int i) {
    const std::string acc =
        "MGYS" + std::string(8 - std::to_string(i).size(), '0') + std::to_string(i);
    return {{"type", "studies"}, {"id", acc}, {"attributes", {{"accession", acc}}}};
  }
  nlohmann::json page_body(int page, int first, int last, int pages) const {
    nlohmann::json data = nlohmann::json::array();
    for (int i = first; i <= last; ++i) data.push_back(study(i));
    auto link = [&](int p) {
      return p < 1 || p > pages ? nlohmann::json(nullptr) : nlohmann::json(page_url(p, page_size));
    };
    return {{"links",
             {{"first", link(1)},
              {"last", link(pages)},
              {"next", link(page + 1)},
              {"prev", link(page - 1)}}},
            {"data", data},
            {"meta", {{"pagination", {{"page", page}, {"pages", pages}, {"count", count}}}}}};
  }

  mgnify::v1::LegacyClient client(std::size_t parallel) {
    const int pages = (count + page_size - 1) / page_size;
    transport->fallback([this, pages](const mgnify::http::Request& request) {
      mgnify::http::Response r;
      r.status = 200;
      r.headers.set("Content-Type", "application/json");
      const auto at = request.url.find("page=");
      const int page = at == std::string::npos ? 1 : std::stoi(request.url.substr(at + 5));
      nlohmann::json body =
          page_body(page, (page - 1) * page_size + 1, std::min(count, page * page_size), pages);
      if (tweak) tweak(page, body);
      r.body = body.dump();
      return r;
    });
    mgnify::ClientOptions o;
    o.base_url = kBase;
    o.transport = transport;
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.parallel_pages = parallel;
    return mgnify::v1::LegacyClient(o);
  }

  std::vector<std::string> walk(mgnify::Paged<mgnify::v1::Study>& paged) {
    std::vector<std::string> ids;
    for (const auto& s : paged) {
      ids.push_back(s.accession);
      REQUIRE(ids.size() <= 100);
    }
    return ids;
  }
  std::vector<std::string> all() const {
    std::vector<std::string> ids;
    for (int i = 1; i <= count; ++i) ids.push_back(study(i)["id"].get<std::string>());
    return ids;
  }
  std::multiset<std::string> requested() const {
    std::multiset<std::string> out;
    for (const auto& r : transport->requests()) out.insert(r.url);
    return out;
  }
};

}  // namespace

TEST_CASE("v1: guessed pages are checked, and a wrong guess falls back to links.next",
          "[v1][parallel]") {
  Scripted s;  // 14 studies, 7 pages of 2
  SECTION("every guess right: one request per page") {
    auto client = s.client(3);
    auto paged = client.studies({}, mgnify::test::pages(2));
    CHECK(s.walk(paged) == s.all());
    CHECK(mgnify::detail::walk_engine(paged).predicting_now());
    CHECK(s.requested().size() == 7);
  }
  SECTION("page 3 names page 4 by a URL of another form: the rest follows links.next") {
    const std::string reordered = std::string(Scripted::kBase) + "/studies?page_size=2&page=4";
    s.tweak = [reordered](int page, nlohmann::json& body) {
      if (page == 3) body["links"]["next"] = reordered;
    };
    auto client = s.client(3);
    auto paged = client.studies({}, mgnify::test::pages(2));
    CHECK(s.walk(paged) == s.all());
    CHECK_FALSE(mgnify::detail::walk_engine(paged).predicting_now());
    const auto sent = s.requested();
    CHECK(sent.count(std::string(Scripted::kBase) + "/studies?page_size=2") == 1);
    for (int p = 2; p <= 3; ++p) CHECK(sent.count(Scripted::page_url(p, 2)) == 1);
    CHECK(sent.count(reordered) == 1);
    // Guesses made before the mismatch was seen: at most the window.
    CHECK(sent.size() <= 7 + 4);
  }
  SECTION("a page that says it is another page is fetched again, then fails the walk") {
    s.tweak = [](int page, nlohmann::json& body) {
      if (page == 4) body["meta"]["pagination"]["page"] = 5;
    };
    auto client = s.client(3);
    auto paged = client.studies({}, mgnify::test::pages(2));
    std::vector<std::string> ids;
    try {
      for (const auto& study : paged) {
        ids.push_back(study.accession);
        REQUIRE(ids.size() <= 100);
      }
      FAIL("a page numbered 5 was taken for page 4");
    } catch (const mgnify::ListChangedError& e) {
      CHECK(e.resume_token() == Scripted::page_url(4, 2));
      CHECK(e.detail().find("led to page 5 where page 4 comes next") != std::string::npos);
    }
    const auto all = s.all();
    CHECK(ids == std::vector<std::string>(all.begin(), all.begin() + 6));
    CHECK_FALSE(mgnify::detail::walk_engine(paged).predicting_now());
    CHECK(s.requested().count(Scripted::page_url(4, 2)) == 2);
  }
  SECTION("links.last that does not fit the scheme: no guessing, pages one by one") {
    s.tweak = [](int page, nlohmann::json& body) {
      if (page == 1) body["links"]["last"] = std::string(Scripted::kBase) + "/studies?page=last";
    };
    auto client = s.client(3);
    auto paged = client.studies({}, mgnify::test::pages(2));
    CHECK(s.walk(paged) == s.all());
    CHECK(s.requested().size() == 7);
    CHECK(paged.pages_in_flight() == 0);
  }
}

TEST_CASE("v1: with_page rewrites only a numeric page parameter", "[v1][parallel]") {
  using mgnify::v1::detail::with_page;
  CHECK(with_page("https://h/x?page=2&page_size=25", 7) ==
        std::optional<std::string>("https://h/x?page=7&page_size=25"));
  CHECK(with_page("https://h/x?lineage=root&ordering=&page=1&page_size=25", 12) ==
        std::optional<std::string>("https://h/x?lineage=root&ordering=&page=12&page_size=25"));
  CHECK(with_page("https://h/x?page_size=25&page=3", 4) ==
        std::optional<std::string>("https://h/x?page_size=25&page=4"));
  CHECK_FALSE(with_page("https://h/x?cursor=cD02MTU%3D", 2));
  CHECK_FALSE(with_page("https://h/x?page=last", 2));
  CHECK_FALSE(with_page("https://h/x?page=1&page=2", 3));
  CHECK_FALSE(with_page("https://h/x", 3));
  CHECK_FALSE(with_page("https://h/x?page=2#frag", 3));
}

TEST_CASE("v1: page numbers near the int64 limit are never added past it", "[v1][parallel]") {
  // A hostile envelope: page and pages at the top of int64. Adding the index
  // to the page number first would be signed overflow (UBSan aborts on it).
  const std::string body =
      R"({"data": [], "links": {"next": "https://h/x?page=9223372036854775806",)"
      R"( "last": "https://h/x?page=9223372036854775807"},)"
      R"( "meta": {"pagination": {"page": 9223372036854775805, "pages": 9223372036854775807, "count": 1}}})";
  auto envelope = mgnify::v1::detail::peek_list_envelope(body, "u");
  REQUIRE(envelope);
  for (std::size_t index : {std::size_t{3}, std::size_t{1} << 62, ~std::size_t{0}}) {
    INFO(index);
    CHECK_FALSE(mgnify::v1::detail::guess_page_url(index, *envelope));
  }
}

#ifdef MGNIFY_FIXTURES_DIR
#include <fstream>
#include <sstream>

TEST_CASE("v1: the guessing scheme holds on captured page-number envelopes",
          "[v1][parallel][fixtures]") {
  const std::string dir = MGNIFY_FIXTURES_DIR;
  if (dir.empty())
    MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: captured page envelopes not checked");
  auto read = [&](const std::string& name) {
    std::ifstream in(dir + "/v1/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  // Page 1 of 2 (dev server): links.next names page 2 and links.last is it rewritten.
  const std::string body = read("dev_analysis_interpro_identifiers_page1_MGYA00141547.json");
  REQUIRE_FALSE(body.empty());
  auto envelope = mgnify::v1::detail::peek_list_envelope(body, "u");
  REQUIRE(envelope);
  CHECK(envelope->total == std::optional<std::int64_t>(50));
  CHECK(mgnify::v1::detail::guess_page_url(1, *envelope) == envelope->next);
  CHECK_FALSE(mgnify::v1::detail::guess_page_url(2, *envelope));  // there is no page 3
  // Single pages (prod and dev) have no next link: nothing to guess.
  for (const char* name :
       {"prod_study_downloads_list_MGYS00001392.json", "dev_samples_list_lineage_root.json"}) {
    auto single = mgnify::v1::detail::peek_list_envelope(read(name), "u");
    REQUIRE(single);
    CHECK_FALSE(single->next);
    CHECK_FALSE(mgnify::v1::detail::guess_page_url(1, *single));
  }
  // The cursor envelope has no page parameter.
  auto cursor = mgnify::v1::detail::peek_list_envelope(
      read("docs_contigs_cursor_page_MGYA00585528_ELIDED.json"), "u");
  REQUIRE(cursor);
  REQUIRE(cursor->next);
  CHECK_FALSE(mgnify::v1::detail::guess_page_url(1, *cursor));
}
#endif
