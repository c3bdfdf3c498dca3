#include "faults/fault_support.hpp"

#include <string>

namespace mgnify::test::faults {

namespace {

namespace pdata = mgnify::mock::proteins_data;
namespace v1d = mgnify::mock::v1data;
namespace v2d = mgnify::mock::v2data;

constexpr std::size_t kItems = 12;

template <class T, class Fn>
std::vector<mgnify::Result<std::string>> ids_of(std::vector<mgnify::Result<T>> results, Fn id) {
  std::vector<mgnify::Result<std::string>> out;
  out.reserve(results.size());
  for (auto& r : results) {
    if (r.ok()) {
      out.emplace_back(id(r.value()));
    } else {
      out.push_back(mgnify::Result<std::string>::failure(r.exception()));
    }
  }
  return out;
}

void setup_proteins(Harness& h, const Tweaks& t) {
  mgnify::mock::register_proteins_routes(*h.server);
  h.server->start();
  if (t.with_token) h.token = "proteins-secret-token";
  auto o = h.options();
  o.base_url = h.server->proteins_url();
  if (t.options) t.options(o);
  auto client = std::make_shared<mgnify::proteins::ProteinClient>(o);
  for (std::size_t i = 0; i < kItems; ++i)
    h.items.push_back(pdata::accession(pdata::representative_numbers()[i]));
  const std::string lineage = "root:Engineered";
  const auto matches = pdata::with_lineage(lineage);
  REQUIRE(matches.size() >= 100);
  for (std::size_t i = 0; i < 100; ++i) h.list_ids.push_back(pdata::accession(matches[i]));
  h.page_size = 100;
  const auto query = mgnify::proteins::SearchQuery::by_lineage(lineage).limit(100);
  h.list_first_url = client->search_url(query);
  h.list_path = origin_path(h.list_first_url);
  h.list_wrong_shape = R"({"mgyp": "MGYP000000000010"})";
  const auto items = h.items;
  h.detail = [client, items](std::size_t i) { return client->protein(items[i]).mgyp; };
  h.item_url = [client, items](std::size_t i) {
    return client->protein_url(mgnify::proteins::Accession(items[i]));
  };
  h.item_path = [f = h.item_url](std::size_t i) { return origin_path(f(i)); };
  h.get_many = [client, items](const std::vector<std::size_t>& idx) {
    std::vector<std::string> accs;
    for (auto i : idx) accs.push_back(items[i]);
    mgnify::BatchOptions batch;
    batch.concurrency = 4;
    return ids_of(client->get_proteins(accs, batch),
                  [](const mgnify::proteins::Protein& p) { return p.mgyp; });
  };
  // No lists in this service: the search is the one multi-item call.
  h.walk = [client, query, url = h.list_first_url](const Injector& inject) {
    WalkOutcome out;
    if (inject) inject(url);
    auto run = [&] {
      out.ids.clear();
      for (const auto& hit : client->search(query)) out.ids.push_back(hit.mgyp);
    };
    try {
      run();
    } catch (...) {
      out.error = std::current_exception();
      out.resume_token = url;
      run();
    }
    return out;
  };
}

void setup_v1(Harness& h, const Tweaks& t) {
  mgnify::mock::register_v1_routes(*h.server);
  h.server->start();
  if (t.with_token) h.token = v1d::kTestToken;
  auto o = h.options();
  o.base_url = h.server->v1_url();
  if (t.options) t.options(o);
  auto client = std::make_shared<mgnify::v1::LegacyClient>(o);
  for (std::size_t i = 0; i < kItems; ++i) h.items.push_back(v1d::study_accession(i));
  for (std::size_t s = 0; s < v1d::kBigStudySamples; ++s)
    h.list_ids.push_back(v1d::sample_accession(s));
  h.page_size = 60;
  h.list_path = std::string(mgnify::mock::kV1Prefix) + "/studies/MGYS00000001/samples";
  h.list_wrong_shape =
      R"({"links": {"first": null, "last": null, "next": null, "prev": null}, "data": {"type": "samples", "id": "ERS1000000"}, "meta": {"pagination": {"page": 2, "pages": 5, "count": 300}}})";
  const auto items = h.items;
  const std::string base = h.server->v1_url();
  h.detail = [client, items](std::size_t i) { return client->study(items[i]).id(); };
  h.item_url = [base, items](std::size_t i) { return base + "/studies/" + items[i]; };
  h.item_path = [f = h.item_url](std::size_t i) { return origin_path(f(i)); };
  h.get_many = [client, items](const std::vector<std::size_t>& idx) {
    std::vector<std::string> ids;
    for (auto i : idx) ids.push_back(items[i]);
    mgnify::BatchOptions batch;
    batch.concurrency = 4;
    return ids_of(client->get_studies(ids, batch),
                  [](const mgnify::v1::Study& s) { return s.id(); });
  };
  const std::size_t page_size = h.page_size;
  h.walk = [client, page_size](const Injector& inject) {
    auto paged = client->study_samples(
        "MGYS00000001", {}, mgnify::ListOptions{static_cast<int>(page_size), 1, std::nullopt});
    return walk_paged(
        paged, page_size, [](const mgnify::v1::Sample& s) { return s.id(); },
        // Before the page is fetched, the resume token is its links.next URL.
        [](mgnify::Paged<mgnify::v1::Sample>& p) { return p.resume_token().value_or(""); }, inject);
  };
}

void setup_v2(Harness& h, const Tweaks& t) {
  mgnify::mock::register_v2_routes(*h.server);
  h.server->start();
  if (t.with_token) h.token = v2d::kValidToken;
  auto o = h.options();
  o.base_url = h.server->v2_url();
  if (t.options) t.options(o);
  auto client = std::make_shared<mgnify::v2::V2Client>(o);
  const auto& studies = v2d::dataset().studies;
  for (std::size_t i = 0; i < kItems; ++i) h.items.push_back(studies[i].accession);
  for (int i = 0; i < v2d::kPublicStudies; ++i)
    h.list_ids.push_back(studies[static_cast<std::size_t>(i)].accession);
  h.page_size = 20;
  h.list_path = std::string(mgnify::mock::kV2Prefix) + "/studies/";
  h.list_wrong_shape = R"({"count": 120, "items": {"accession": "MGYS00000001"}})";
  const auto items = h.items;
  const std::string base = h.server->v2_url();
  h.detail = [client, items](std::size_t i) { return client->study(items[i]).accession; };
  h.item_url = [base, items](std::size_t i) { return base + "/studies/" + items[i]; };
  h.item_path = [f = h.item_url](std::size_t i) { return origin_path(f(i)); };
  h.get_many = [client, items](const std::vector<std::size_t>& idx) {
    std::vector<std::string> ids;
    for (auto i : idx) ids.push_back(items[i]);
    return ids_of(client->get_studies(ids),
                  [](const mgnify::v2::StudyDetail& s) { return s.accession; });
  };
  const std::size_t page_size = h.page_size;
  h.walk = [client, page_size, base](const Injector& inject) {
    mgnify::ListOptions list;
    list.page_size = static_cast<int>(page_size);
    auto paged = client->studies({}, list);
    return walk_paged(
        paged, page_size, [](const mgnify::v2::Study& s) { return s.accession; },
        [base, page_size](mgnify::Paged<mgnify::v2::Study>& p) {
          return base + "/studies/?page=" + std::to_string(p.pages_fetched() + 1) +
                 "&page_size=" + std::to_string(page_size);
        },
        inject);
  };
}

}  // namespace

std::unique_ptr<Harness> make_harness(Service service, const Tweaks& tweaks) {
  auto h = std::make_unique<Harness>();
  h->service = service;
  // Each keep-alive connection holds a mock worker thread, so the default
  // pool (well above any concurrency here) stays.
  h->server = std::make_unique<MockServer>(tweaks.server);
  switch (service) {
    case Service::proteins:
      setup_proteins(*h, tweaks);
      break;
    case Service::v1:
      setup_v1(*h, tweaks);
      break;
    case Service::v2:
      setup_v2(*h, tweaks);
      break;
  }
  return h;
}

}  // namespace mgnify::test::faults
