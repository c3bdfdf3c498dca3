// The SDK side of every benchmark scenario. run.sh calls it once per timed run;
// it prints one JSON line (seconds, items, bytes). Each program is written the
// way a user would use the SDK: public client calls, default options except
// the rate limit (the mock is local, the default limit is for the public service).

#include <curl/curl.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/mgnify.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"

namespace {

mgnify::ClientOptions options(const bench::Args& a, const std::string& base) {
  mgnify::ClientOptions o;
  o.base_url = base;
  o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  o.read_ahead = a.num("read-ahead", 1) != 0;
  // Pages of a list in flight at once (ClientOptions::parallel_pages, both clients).
  o.parallel_pages = static_cast<std::size_t>(a.num("parallel", 1));
  return o;
}

std::string protein_accession(long long i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "MGYP%012lld", 10 + 3 * (i % 2000));
  return buf;
}

// 1. Search a family, then fetch every hit's record, `concurrency` in flight.
int fanout(const bench::Args& a) {
  mgnify::proteins::ProteinClient client(options(a, a.need("proteins")));
  auto query = mgnify::proteins::SearchQuery::by_pfam(a.str("family", "PF00005"));
  query.limit(static_cast<int>(a.num("limit", 1000)));
  mgnify::BatchOptions batch;
  batch.concurrency = static_cast<std::size_t>(a.num("concurrency", 16));
  const auto start = bench::Clock::now();
  const auto results = client.search_and_fetch(query, batch);
  const double s = bench::seconds_since(start);
  long long ok = 0;
  for (const auto& r : results) ok += r.ok() ? 1 : 0;
  if (ok != static_cast<long long>(results.size())) {
    std::cerr << "fanout: " << results.size() - static_cast<std::size_t>(ok) << " failures\n";
    return 1;
  }
  bench::report(s, ok);
  return 0;
}

// 2. Every v1 study: links.next, or with --parallel k the page URLs guessed
// from the first page's links and checked against each page's links.next.
int linkwalk(const bench::Args& a) {
  mgnify::v1::LegacyClient client(options(a, a.need("v1")));
  mgnify::ListOptions list;
  list.page_size = static_cast<int>(a.num("page-size", 100));
  const auto start = bench::Clock::now();
  long long n = 0;
  for (const auto& study : client.studies({}, list)) n += study.id().empty() ? 0 : 1;
  bench::report(bench::seconds_since(start), n);
  return 0;
}

// 3. Every v2 analysis, `parallel` pages in flight once the count is known.
int counted(const bench::Args& a) {
  auto o = options(a, a.need("v2"));
  o.parallel_pages = static_cast<std::size_t>(a.num("parallel", 8));
  mgnify::v2::V2Client client(o);
  mgnify::ListOptions list;
  list.page_size = static_cast<int>(a.num("page-size", 100));
  const auto start = bench::Clock::now();
  long long n = 0;
  for (const auto& analysis : client.analyses(list)) n += analysis.accession.empty() ? 0 : 1;
  bench::report(bench::seconds_since(start), n);
  return 0;
}

// 4. Sequential detail GETs on one keep-alive connection.
int small(const bench::Args& a) {
  mgnify::proteins::ProteinClient client(options(a, a.need("proteins")));
  const long long count = a.num("count", 10000);
  const auto start = bench::Clock::now();
  long long n = 0;
  for (long long i = 0; i < count; ++i)
    n += client.protein(protein_accession(i)).sequence.empty() ? 0 : 1;
  bench::report(bench::seconds_since(start), n);
  return 0;
}

struct Doc {
  std::string kind;
  std::string body;
};

std::vector<Doc> load_corpus(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<Doc> docs;
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    // A body as the transport delivers it: reserved with kBodyPadding spare
    // bytes (it knew the length), so the decoder may read it in place.
    std::string body;
    body.reserve(line.size() - tab - 1 + mgnify::http::kBodyPadding);
    body.append(line, tab + 1, std::string::npos);
    docs.push_back({line.substr(0, tab), std::move(body)});
  }
  if (docs.empty()) throw std::runtime_error("empty corpus " + path);
  return docs;
}

// Writes the decode corpus: raw bodies of v1 list pages and protein records,
// one "kind<TAB>json" line each, exactly as the mock serves them.
int corpus(const bench::Args& a) {
  auto o = options(a, a.need("v1"));
  mgnify::http::Session v1(mgnify::with_default_transport(o), "");
  mgnify::http::Session proteins(mgnify::with_default_transport(options(a, a.need("proteins"))),
                                 "");
  std::ofstream out(a.need("out"));
  long long bytes = 0;
  auto put = [&](const char* kind, const std::string& body) {
    out << kind << '\t' << body << '\n';
    bytes += static_cast<long long>(body.size());
  };
  const int page_size = static_cast<int>(a.num("page-size", 100));
  for (const char* list : {"studies", "samples"}) {
    std::string url =
        v1.url(list, mgnify::http::Query().set("page_size", std::to_string(page_size)));
    for (int pages = 0; pages < a.num("pages", 1000000); ++pages) {
      const auto r = v1.get(url);
      put(list[1] == 't' ? "v1studies" : "v1samples", r.body);
      const auto doc = nlohmann::json::parse(r.body);
      const auto& next = doc.at("links").at("next");
      if (!next.is_string()) break;
      url = next.get<std::string>();
    }
  }
  for (long long i = 0; i < a.num("proteins-count", 2000); ++i) {
    put("protein", proteins.get(proteins.url("protein/" + protein_accession(i))).body);
  }
  bench::report(0, 0, bytes);
  return 0;
}

// 5. Decoding MB/s: the SDK's typed decoding as the clients do it
// (detail::decode_body: simdjson with the nlohmann fallback; mode sdk), the
// nlohmann path of json.get<T>() (mode nlohmann), or nlohmann::json::parse
// alone (mode parse) over the corpus, cycled until `mb` megabytes are done.
int decode(const bench::Args& a) {
  const auto docs = load_corpus(a.need("corpus"));
  const auto target = static_cast<long long>(a.num("mb", 100)) * 1000 * 1000;
  const std::string mode = a.str("mode", "sdk");
  if (mode != "sdk" && mode != "nlohmann" && mode != "parse") {
    std::cerr << "unknown decode mode " << mode << "\n";
    return 2;
  }
  long long bytes = 0;
  long long items = 0;
  const auto start = bench::Clock::now();
  for (std::size_t i = 0; bytes < target; i = (i + 1) % docs.size()) {
    const Doc& d = docs[i];
    if (mode == "parse") {
      items += static_cast<long long>(nlohmann::json::parse(d.body).size());
    } else if (mode == "nlohmann") {
      const auto doc = mgnify::detail::parse_body(d.body, d.kind);
      if (d.kind == "v1studies") {
        items += static_cast<long long>(
            mgnify::detail::decode<mgnify::v1::ListPage<mgnify::v1::Study>>(doc, d.kind)
                .data.size());
      } else if (d.kind == "v1samples") {
        items += static_cast<long long>(
            mgnify::detail::decode<mgnify::v1::ListPage<mgnify::v1::Sample>>(doc, d.kind)
                .data.size());
      } else {
        items +=
            mgnify::detail::decode<mgnify::proteins::Protein>(doc, d.kind).sequence.empty() ? 0 : 1;
      }
    } else {
      if (d.kind == "v1studies") {
        items += static_cast<long long>(
            mgnify::detail::decode_body<mgnify::v1::ListPage<mgnify::v1::Study>>(d.body, d.kind)
                .data.size());
      } else if (d.kind == "v1samples") {
        items += static_cast<long long>(
            mgnify::detail::decode_body<mgnify::v1::ListPage<mgnify::v1::Sample>>(d.body, d.kind)
                .data.size());
      } else {
        items +=
            mgnify::detail::decode_body<mgnify::proteins::Protein>(d.body, d.kind).sequence.empty()
                ? 0
                : 1;
      }
    }
    bytes += static_cast<long long>(d.body.size());
  }
  bench::report(bench::seconds_since(start), items, bytes);
  return 0;
}

// 6. Memory: walk `items` v1 samples (the list again from the start when it
// ends). Peak RSS comes from /usr/bin/time -v around this process.
int memory(const bench::Args& a) {
  mgnify::v1::LegacyClient client(options(a, a.need("v1")));
  const long long target = a.num("items", 100000);
  const auto start = bench::Clock::now();
  long long n = 0;
  while (n < target) {
    mgnify::ListOptions list;
    list.page_size = static_cast<int>(a.num("page-size", 100));
    list.max_items = static_cast<std::size_t>(target - n);
    const long long before = n;
    for (const auto& sample : client.samples({}, list)) n += sample.id().empty() ? 0 : 1;
    if (n == before) break;
  }
  bench::report(bench::seconds_since(start), n);
  return 0;
}

// Transport facts for BENCHMARKS.md: what libcurl offers, whether responses
// arrive compressed, and whether handles are reused.
int transport(const bench::Args& a) {
  const curl_version_info_data* v = curl_version_info(CURLVERSION_NOW);
  auto feature = [&](int bit) { return (v->features & bit) ? "yes" : "no"; };
  std::cout << "libcurl " << v->version << ", HTTP/2: " << feature(CURL_VERSION_HTTP2)
            << ", gzip: " << feature(CURL_VERSION_LIBZ)
            << ", brotli: " << feature(CURL_VERSION_BROTLI)
#ifdef CURL_VERSION_ZSTD
            << ", zstd: " << feature(CURL_VERSION_ZSTD)
#endif
            << "\n";
  auto transport = std::make_shared<mgnify::http::CurlTransport>();
  auto o = options(a, a.need("v1"));
  o.transport = transport;
  mgnify::http::Session session(mgnify::with_default_transport(o), "");
  const auto r = session.get(session.url("studies", mgnify::http::Query().set("page_size", "100")));
  std::cout << "v1 page: Content-Encoding: " << r.headers.get("Content-Encoding").value_or("(none)")
            << ", decoded body " << r.body.size() << " bytes\n";
  for (int i = 0; i < 99; ++i) session.get(session.url("biomes"));
  std::cout << "100 sequential requests used " << transport->handles_created()
            << " easy handle(s)\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const auto a = bench::parse(argc, argv);
    if (a.scenario == "fanout") return fanout(a);
    if (a.scenario == "linkwalk") return linkwalk(a);
    if (a.scenario == "counted") return counted(a);
    if (a.scenario == "small") return small(a);
    if (a.scenario == "corpus") return corpus(a);
    if (a.scenario == "decode") return decode(a);
    if (a.scenario == "memory") return memory(a);
    if (a.scenario == "transport") return transport(a);
    std::cerr << "unknown scenario " << a.scenario << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "sdk_bench: " << e.what() << "\n";
    return 1;
  }
}
