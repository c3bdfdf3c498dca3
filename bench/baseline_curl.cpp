// Baseline (a): the floor for any C++ client. What a competent user writes by
// hand: one libcurl easy handle reused for every request (so one keep-alive
// connection), the body appended to a std::string, nlohmann::json::parse on it.
// No retries, no error mapping, no typed models, no concurrency.

#include <curl/curl.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "bench_args.hpp"

namespace {

std::size_t append(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

class Fetcher {
 public:
  Fetcher()
      : h_(curl_easy_init()), headers_(curl_slist_append(nullptr, "Accept: application/json")) {
    if (!h_ || !headers_) throw std::runtime_error("curl init failed");
    curl_easy_setopt(h_, CURLOPT_WRITEFUNCTION, &append);
    curl_easy_setopt(h_, CURLOPT_WRITEDATA, &body_);
    curl_easy_setopt(h_, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(h_, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(h_, CURLOPT_TCP_NODELAY, 1L);
  }
  ~Fetcher() {
    curl_slist_free_all(headers_);
    curl_easy_cleanup(h_);
  }
  Fetcher(const Fetcher&) = delete;
  Fetcher& operator=(const Fetcher&) = delete;

  nlohmann::json get(const std::string& url) {
    body_.clear();
    curl_easy_setopt(h_, CURLOPT_URL, url.c_str());
    const CURLcode rc = curl_easy_perform(h_);
    if (rc != CURLE_OK) throw std::runtime_error(std::string(curl_easy_strerror(rc)) + ": " + url);
    long status = 0;
    curl_easy_getinfo(h_, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) throw std::runtime_error("HTTP " + std::to_string(status) + ": " + url);
    return nlohmann::json::parse(body_);
  }

 private:
  CURL* h_;
  curl_slist* headers_;
  std::string body_;
};

std::string protein_accession(long long i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "MGYP%012lld", 10 + 3 * (i % 2000));
  return buf;
}

// 1. Serial: search, then one GET per hit.
int fanout(const bench::Args& a) {
  Fetcher f;
  const std::string base = a.need("proteins");
  const auto start = bench::Clock::now();
  const auto hits = f.get(base + "/protein/search?pfam_accession=" + a.str("family", "PF00005") +
                          "&limit=" + std::to_string(a.num("limit", 1000)));
  long long n = 0;
  for (const auto& hit : hits) {
    n += f.get(base + "/protein/" + hit.at("mgyp").get<std::string>()).at("sequence").is_string()
             ? 1
             : 0;
  }
  bench::report(bench::seconds_since(start), n);
  return 0;
}

// 2. Follow links.next through every v1 study page.
int linkwalk(const bench::Args& a) {
  Fetcher f;
  std::string url = a.need("v1") + "/studies?page_size=" + std::to_string(a.num("page-size", 100));
  const auto start = bench::Clock::now();
  long long n = 0;
  for (;;) {
    const auto doc = f.get(url);
    n += static_cast<long long>(doc.at("data").size());
    const auto& next = doc.at("links").at("next");
    if (!next.is_string()) break;
    url = next.get<std::string>();
  }
  bench::report(bench::seconds_since(start), n);
  return 0;
}

// 3. Serial page-number walk over v2 analyses.
int counted(const bench::Args& a) {
  Fetcher f;
  const long long page_size = a.num("page-size", 100);
  const auto start = bench::Clock::now();
  long long n = 0;
  for (long long page = 1;; ++page) {
    const auto doc = f.get(a.need("v2") + "/analyses/?page=" + std::to_string(page) +
                           "&page_size=" + std::to_string(page_size));
    n += static_cast<long long>(doc.at("items").size());
    if (page * page_size >= doc.at("count").get<long long>()) break;
  }
  bench::report(bench::seconds_since(start), n);
  return 0;
}

// 4. Sequential detail GETs.
int small(const bench::Args& a) {
  Fetcher f;
  const std::string base = a.need("proteins");
  const long long count = a.num("count", 10000);
  const auto start = bench::Clock::now();
  long long n = 0;
  for (long long i = 0; i < count; ++i) {
    n += f.get(base + "/protein/" + protein_accession(i)).at("sequence").is_string() ? 1 : 0;
  }
  bench::report(bench::seconds_since(start), n);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  try {
    const auto a = bench::parse(argc, argv);
    if (a.scenario == "fanout") return fanout(a);
    if (a.scenario == "linkwalk") return linkwalk(a);
    if (a.scenario == "counted") return counted(a);
    if (a.scenario == "small") return small(a);
    std::cerr << "unknown scenario " << a.scenario << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "baseline_curl: " << e.what() << "\n";
    return 1;
  }
}
