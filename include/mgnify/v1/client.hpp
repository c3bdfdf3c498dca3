#pragma once

// LegacyClient: the MGnify legacy v1 hypermedia API (deprecated by MGnify in
// June 2026; new code should prefer the v2 API). Lists are lazy Paged<T>
// ranges that follow links.next exactly as the server sent it, so page-number
// and cursor lists walk the same way and every filter in the first URL is
// kept on every later page. With ClientOptions::parallel_pages > 1, page-number
// lists also request later pages by URLs guessed from the first page's links;
// a guessed page is used only if the page before it named that very URL as
// links.next (see detail::guess_page_url and Paged's predicted mode). Page-number
// lists are counted besides: every page is checked against meta.pagination
// (detail::count_check), so a changed count or a missing page is an error,
// never a shorter walk.

#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/auth.hpp"
#include "mgnify/batch.hpp"
#include "mgnify/concurrency/parallel_map.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/counted_pages.hpp"
#include "mgnify/detail/fast_json.hpp"
#include "mgnify/detail/genome_search_calls.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/detail/make_walk.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/options.hpp"
#include "mgnify/paged.hpp"
#include "mgnify/result.hpp"
#include "mgnify/v1/analyses.hpp"
#include "mgnify/v1/annotations.hpp"
#include "mgnify/v1/europe_pmc.hpp"
#include "mgnify/v1/fast_decode.hpp"
#include "mgnify/v1/genome_annotations.hpp"
#include "mgnify/v1/genome_search.hpp"
#include "mgnify/v1/genomes.hpp"
#include "mgnify/v1/pipeline_tools.hpp"
#include "mgnify/v1/query.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/v1/samples.hpp"
#include "mgnify/v1/studies.hpp"
#include "mgnify/v1/text.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v1 {

inline constexpr const char* kDefaultBaseUrl = "https://www.ebi.ac.uk/metagenomics/api/v1";

/// The largest ListOptions::page_size of the v1 page-number lists (the server
/// would clamp a larger one silently), and of the per-analysis annotation lists.
inline constexpr int kMaxPageSize = 250;
inline constexpr int kMaxAnnotationPageSize = 1000;

namespace detail {

/// The value of query parameter `name` in `url`, percent-decoded.
inline std::optional<std::string> query_value(const std::string& url, std::string_view name) {
  const auto q = url.find('?');
  if (q == std::string::npos) return std::nullopt;
  const auto end = std::min(url.find('#', q), url.size());
  std::size_t start = q + 1;
  while (start < end) {
    auto amp = std::min(url.find('&', start), end);
    const std::string_view item(url.data() + start, amp - start);
    if (item.size() > name.size() && item.compare(0, name.size(), name) == 0 &&
        item[name.size()] == '=') {
      return http::percent_decode(item.substr(name.size() + 1), true);
    }
    start = amp + 1;
  }
  return std::nullopt;
}

/// A v1 list envelope as a typed page envelope; `links` is moved from.
template <class T>
void fill_envelope(mgnify::Page<T>& page, ListLinks&& links, const Pagination& pagination) {
  page.total = pagination.count;
  page.page = pagination.page;
  page.pages = pagination.pages;
  if (links.next) page.cursor = query_value(*links.next, "cursor");
  page.next = links.next;
  page.links = PageLinks{std::move(links.first), std::move(links.last), std::move(links.next),
                         std::move(links.prev)};
}

/// The URL with its `page` query parameter set to `page`, or nullopt unless
/// it has exactly one such parameter holding a number (a cursor link, say).
inline std::optional<std::string> with_page(const std::string& url, std::int64_t page) {
  const auto q = url.find('?');
  if (q == std::string::npos || url.find('#') != std::string::npos) return std::nullopt;
  std::optional<std::size_t> value_at;
  std::size_t value_len = 0;
  std::size_t start = q + 1;
  while (start <= url.size()) {
    auto amp = url.find('&', start);
    if (amp == std::string::npos) amp = url.size();
    if (url.compare(start, 5, "page=") == 0 && amp > start + 5) {
      if (value_at) return std::nullopt;  // two page parameters: no guessing
      value_at = start + 5;
      value_len = amp - *value_at;
      if (value_len > 18) return std::nullopt;
      for (std::size_t i = *value_at; i < amp; ++i) {
        if (url[i] < '0' || url[i] > '9') return std::nullopt;
      }
    }
    start = amp + 1;
  }
  if (!value_at) return std::nullopt;
  std::string out = url;
  out.replace(*value_at, value_len, std::to_string(page));
  return out;
}

/// Predicted mode for v1 page-number lists (DRF's JsonApiPageNumberPagination):
/// every page link is the request URL with `page` replaced, so page p0 + i is
/// links.next of the first page with page=p0+i. Guessed only when the first
/// page bears that out: its links.next names page p0 + 1 and its links.last is
/// links.next rewritten to page `pages`. Paged then uses a guessed page only if
/// the page before it named exactly that URL as links.next.
template <class T>
std::optional<std::string> guess_page_url(std::size_t index, const Page<T>& first) {
  if (!first.next) return std::nullopt;
  const auto& page = first.page;
  const auto& pages = first.pages;
  if (!page || !pages || *page < 1 || *pages < *page) return std::nullopt;
  // The page numbers are the server's: compared before adding, so that no
  // sum can overflow (page + index <= pages).
  if (index == 0 || index > static_cast<std::uint64_t>(*pages - *page)) return std::nullopt;
  const std::int64_t wanted = *page + static_cast<std::int64_t>(index);
  if (with_page(*first.next, *page + 1) != first.next) return std::nullopt;
  if (!first.links.last || with_page(*first.next, *pages) != *first.links.last) return std::nullopt;
  return with_page(*first.next, wanted);
}

/// A guessed page must also say it is the page that was meant. Its count is
/// checked with every other page's (count_check).
template <class T>
bool is_guessed_page(std::size_t index, const Page<T>& page, const Page<T>& first) {
  return first.page && page.page && *page.page == *first.page + static_cast<std::int64_t>(index);
}

/// A page-number walk is counted: its first page's meta.pagination (page,
/// pages, count) and length tell the server's page size, and every page the
/// walk uses, guessed or linked, must be the next page number, fit that size
/// and the same count, and have a links.next exactly when the count leaves
/// more items. Anything else is a ListChangedError naming the page's URL as
/// the resume point. A list whose first page has no page number (a cursor
/// list) is a link walk and ends only on a null links.next.
template <class T>
mgnify::detail::PageVerify<T> count_check(const std::string& first_url) {
  std::optional<std::int64_t> requested;
  if (auto size = query_value(first_url, "page_size")) {
    const auto& text = *size;
    if (!text.empty() && text.size() <= 18 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      const std::int64_t value = std::stoll(text);
      if (value > 0) requested = value;
    }
  }
  struct Walk {
    explicit Walk(std::optional<std::int64_t> size) : pages(size) {}
    mgnify::detail::CountedPages pages;
    std::optional<bool> counted;              // decided by the first page
    std::optional<std::int64_t> next_number;  // the page number the next page must have
  };
  auto walk = std::make_shared<Walk>(requested);
  return [walk](const std::string& token, const Page<T>& page) {
    const bool numbered = page.page && page.total;
    if (!walk->counted) walk->counted = numbered;
    if (!*walk->counted) return;
    if (!numbered) {
      throw ListChangedError(page.url, token,
                             "a page-number list went on with a page that has no page number");
    }
    const std::string here = std::to_string(*page.page);
    if (walk->next_number && *page.page != *walk->next_number) {
      throw ListChangedError(page.url, token,
                             "links.next led to page " + here + " where page " +
                                 std::to_string(*walk->next_number) + " comes next");
    }
    std::optional<std::int64_t> next;
    try {
      next = walk->pages.accept(*page.page, static_cast<std::int64_t>(page.items.size()),
                                *page.total, page.url, page.pages);
    } catch (const ListChangedError& e) {
      throw ListChangedError(e.url(), token, e.detail());  // resumed by URL, not by number
    }
    if (next && !page.next) {
      throw ListChangedError(page.url, token,
                             "page " + here + " has no links.next, but a count of " +
                                 std::to_string(*page.total) + " leaves more pages");
    }
    if (!next && page.next) {
      throw ListChangedError(page.url, token,
                             "page " + here + " is the last one for a count of " +
                                 std::to_string(*page.total) + ", yet links.next names another");
    }
    walk->next_number = next;
  };
}

/// The links and meta.pagination of a list body, read with simdjson's DOM
/// parser (a vectorised pass, well under a millisecond for a page of 100) so
/// that a walk can request the next page before this one's items are decoded.
/// nullopt unless the body has the usual shape; decoding then has the last word.
template <class T>
std::optional<Page<T>> peek_list_envelope(const std::string& body, const std::string& url) {
  thread_local simdjson::dom::parser parser;
  const simdjson::padded_string padded(body);
  simdjson::dom::object root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS) return std::nullopt;
  auto text = [](simdjson::dom::object obj, const char* key, std::optional<std::string>& out) {
    simdjson::dom::element e;
    if (obj[key].get(e) != simdjson::SUCCESS || e.is_null()) return true;
    std::string_view v;
    if (e.get_string().get(v) != simdjson::SUCCESS) return false;
    out = std::string(v);
    return true;
  };
  auto number = [](simdjson::dom::object obj, const char* key, std::optional<std::int64_t>& out) {
    simdjson::dom::element e;
    if (obj[key].get(e) != simdjson::SUCCESS || e.is_null()) return true;
    std::int64_t v = 0;
    if (e.get_int64().get(v) != simdjson::SUCCESS) return false;
    out = v;
    return true;
  };
  ListLinks links;
  Pagination pagination;
  simdjson::dom::object obj;
  if (root["links"].get_object().get(obj) == simdjson::SUCCESS) {
    if (!text(obj, "first", links.first) || !text(obj, "last", links.last) ||
        !text(obj, "next", links.next) || !text(obj, "prev", links.prev)) {
      return std::nullopt;
    }
  }
  simdjson::dom::object meta;
  if (root["meta"].get_object().get(meta) == simdjson::SUCCESS &&
      meta["pagination"].get_object().get(obj) == simdjson::SUCCESS) {
    if (!number(obj, "page", pagination.page) || !number(obj, "pages", pagination.pages) ||
        !number(obj, "count", pagination.count)) {
      return std::nullopt;
    }
  }
  Page<T> envelope;
  fill_envelope(envelope, std::move(links), pagination);
  envelope.url = url;
  return envelope;
}

/// A relative path whose segments ("taxonomy/ssu", "studies/MGYS1/samples")
/// are each percent-encoded alone, so a '/' separates segments and nothing else.
inline std::string encode_segments(const std::string& path) {
  std::string out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    if (!out.empty() || start > 0) out += "/";
    out += http::encode_path_segment(
        path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

/// Fetches one list page. Every URL but the first came from a response, so it
/// must stay on the base URL's host. When the walk can use it, the envelope
/// is announced before the items are decoded (see Paged).
template <class T>
Page<T> fetch_list_page(http::Session& session, const std::string& url, bool check,
                        const mgnify::detail::PageProgress<T>& progress) {
  if (check) session.check_link(url);
  http::CallOptions call;
  call.cancel = progress.cancel();
  const http::Response response = session.get(url, call);
  progress.received();
  if (progress.wants_envelope()) {
    if (auto envelope = peek_list_envelope<T>(response.body, response.url)) {
      progress.envelope(std::move(*envelope));
    }
  }
  ListPage<T> list = mgnify::detail::decode_response_fast<ListPage<T>>(response);
  Page<T> page;
  page.items = std::move(list.data);
  fill_envelope(page, std::move(list.links), list.pagination);
  page.url = response.url;
  return page;
}

/// How a v1 list pages, which decides the ListOptions it accepts.
enum class ListKind {
  numbered,     // page and page_size, at most kMaxPageSize per page
  annotations,  // the per-analysis annotation lists: numbered, up to 1000 per page
  cursor        // an opaque cursor in links.next; page_size without a maximum
};

inline mgnify::detail::ListLimits list_limits(ListKind kind) {
  switch (kind) {
    case ListKind::annotations:
      return {"v1 annotation", kMaxAnnotationPageSize, true};
    case ListKind::cursor:
      return {"v1 cursor", std::numeric_limits<int>::max(), false};
    case ListKind::numbered:
      break;
  }
  return {"v1", kMaxPageSize, true};
}

/// The kind of `/{collection}/{id}/{relation}`: an analysis's contigs walk by
/// cursor, its annotation and taxonomy lists serve up to 1000 per page.
inline ListKind relation_kind(const std::string& collection, const std::string& relation) {
  if (collection != "analyses") return ListKind::numbered;
  if (relation == "contigs") return ListKind::cursor;
  static const char* const annotation_lists[] = {
      "go-terms",       "go-slim",      "interpro-identifiers", "pfam-entries",
      "kegg-orthologs", "kegg-modules", "genome-properties",    "antismash-gene-clusters"};
  for (const char* name : annotation_lists) {
    if (relation == name) return ListKind::annotations;
  }
  return relation.rfind("taxonomy", 0) == 0 ? ListKind::annotations : ListKind::numbered;
}

/// The first page's query: the filters, then the page size and page that
/// `list` asks for, checked against what this kind of list accepts.
inline http::Query list_params(const Query& filters, const ListOptions& list, ListKind kind) {
  mgnify::detail::validate(list, list_limits(kind));
  http::Query params = filters.params();
  if (list.page_size) params.set("page_size", std::to_string(*list.page_size));
  if (list.start_page != 1) params.set("page", std::to_string(list.start_page));
  return params;
}

template <class T>
Paged<T> make_paged(std::shared_ptr<http::Session> session, std::string first_url,
                    std::optional<std::size_t> max_items, bool check_first) {
  mgnify::detail::WalkSpec<T> spec;
  spec.first_token = first_url;
  spec.max_items = max_items;
  // The fetcher only touches the thread-safe Session, so it may run ahead.
  spec.read_ahead = session->options().read_ahead;
  spec.window = session->options().parallel_pages;
  if (spec.read_ahead && spec.window > 1) {
    spec.mode = mgnify::detail::WalkMode::predicted;
    spec.token_at = &guess_page_url<T>;
    spec.check = &is_guessed_page<T>;
  }
  spec.verify = count_check<T>(first_url);
  spec.fetch = [session = std::move(session), first = std::move(first_url), check_first](
                   const std::string& token, const mgnify::detail::PageProgress<T>& progress) {
    return fetch_list_page<T>(*session, token, check_first || token != first, progress);
  };
  return mgnify::detail::make_walk(std::move(spec));
}

}  // namespace detail

/// A bulk-download job for a listed file: its links.self URL, verified against
/// its `file-checksum` when the service published one (a checksum already set in
/// `options` wins). Throws InvalidArgument when the record has no self link or
/// names an algorithm other than MD5, SHA1 or SHA256.
inline files::DownloadJob download_job(const Download& file, std::filesystem::path path,
                                       files::DownloadOptions options = {}) {
  const auto url = file.self_link();
  if (!url || url->empty()) {
    throw InvalidArgument("download '" + file.alias + "' has no links.self URL");
  }
  if (!options.checksum && file.file_checksum) {
    options.checksum = files::Checksum::from_record(file.file_checksum->checksum_algorithm,
                                                    file.file_checksum->checksum);
  }
  return files::DownloadJob{*url, std::move(path), std::move(options)};
}

/// The genome search methods (genome_search, submit_gather, gather_status,
/// wait_for_gather, gather_results, download_gather_results) come from
/// GenomeSearchMethods; see docs/v1.md.
class LegacyClient : public mgnify::detail::GenomeSearchMethods<LegacyClient, GenomeSearchResult> {
 public:
  explicit LegacyClient(ClientOptions options = {})
      : session_(std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                                 kDefaultBaseUrl)) {
    validate();
  }
  /// Shares a session (its connections, rate limit and token) with other code.
  explicit LegacyClient(std::shared_ptr<http::Session> session) : session_(std::move(session)) {
    if (!session_) throw InvalidArgument("LegacyClient needs a session");
    validate();
  }

  http::Session& session() const noexcept { return *session_; }
  /// The session itself, to share it (its connections, rate limit and token) with other code.
  std::shared_ptr<http::Session> shared_session() const noexcept { return session_; }
  const std::string& base_url() const noexcept { return session_->base_url(); }

  /// The API root: category name -> absolute URL.
  std::map<std::string, std::string> root() const {
    // The root is the only route with a trailing slash.
    const http::Response response = session_->get(session_->base_url() + "/");
    const nlohmann::json doc = mgnify::detail::parse_body(response.body, response.url);
    return mgnify::detail::decode<RootDoc>(doc, response.url).categories;
  }

  // ---- any collection by its path: the JSON:API layer under the typed methods ----
  // `collection` is a path such as "studies" or "annotations/go-terms"; each of
  // its segments is percent-encoded here, as is `id`.

  /// The collection's list (`/{collection}`).
  template <class T = Resource>
  Paged<T> resources(const std::string& collection, const Query& filters = {},
                     const ListOptions& list = {}) const {
    return list_at<T>(collection_path(collection), filters, list);
  }
  /// One object of the collection by id (accession, lineage, version, ...).
  template <class T = Resource>
  T resource(const std::string& collection, const std::string& id) const {
    return document<T>(collection, id).data;
  }
  /// One object with the compound `included` objects the query asks for
  /// (Query::include).
  template <class T = Resource>
  Document<T> document(const std::string& collection, const std::string& id,
                       const Query& query = {}) const {
    const http::Response response =
        session_->get(session_->url(item_path(collection, id), query.params()));
    return mgnify::detail::decode_response<Document<T>>(response);
  }
  /// A related list of one object (`/{collection}/{id}/{relation}`; the relation
  /// may have segments, as "taxonomy/ssu" does).
  template <class T = Resource>
  Paged<T> related(const std::string& collection, const std::string& id,
                   const std::string& relation, const Query& filters = {},
                   const ListOptions& list = {}) const {
    require_text("relation", relation);
    return list_at<T>(item_path(collection, id) + "/" + detail::encode_segments(relation), filters,
                      list, detail::relation_kind(collection, relation));
  }

  // ---- top-level lists (plural) and their objects (singular) -----------------
  Paged<Study> studies(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Study>("studies", filters, list);
  }
  Study study(const std::string& accession) const { return resource<Study>("studies", accession); }
  Paged<Sample> samples(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Sample>("samples", filters, list);
  }
  Sample sample(const std::string& accession) const {
    return resource<Sample>("samples", accession);
  }
  Paged<Run> runs(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Run>("runs", filters, list);
  }
  Run run(const std::string& accession) const { return resource<Run>("runs", accession); }
  Paged<Assembly> assemblies(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Assembly>("assemblies", filters, list);
  }
  Assembly assembly(const std::string& accession) const {
    return resource<Assembly>("assemblies", accession);
  }
  Paged<Analysis> analyses(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Analysis>("analyses", filters, list);
  }
  Analysis analysis(const std::string& accession) const {
    return resource<Analysis>("analyses", accession);
  }
  Paged<Biome> biomes(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Biome>("biomes", filters, list);
  }
  Biome biome(const std::string& lineage) const { return resource<Biome>("biomes", lineage); }
  Paged<Publication> publications(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Publication>("publications", filters, list);
  }
  Publication publication(const std::string& pubmed_id) const {
    return resource<Publication>("publications", pubmed_id);
  }
  Paged<ExperimentType> experiment_types(const Query& filters = {},
                                         const ListOptions& list = {}) const {
    return resources<ExperimentType>("experiment-types", filters, list);
  }
  ExperimentType experiment_type(const std::string& name) const {
    return resource<ExperimentType>("experiment-types", name);
  }
  Paged<Pipeline> pipelines(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Pipeline>("pipelines", filters, list);
  }
  Pipeline pipeline(const std::string& version) const {
    return resource<Pipeline>("pipelines", version);
  }
  Paged<Genome> genomes(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Genome>("genomes", filters, list);
  }
  Genome genome(const std::string& accession) const {
    return resource<Genome>("genomes", accession);
  }
  Paged<GenomeCatalogue> genome_catalogues(const Query& filters = {},
                                           const ListOptions& list = {}) const {
    return resources<GenomeCatalogue>("genome-catalogues", filters, list);
  }
  GenomeCatalogue genome_catalogue(const std::string& catalogue_id) const {
    return resource<GenomeCatalogue>("genome-catalogues", catalogue_id);
  }
  Paged<SuperStudy> super_studies(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<SuperStudy>("super-studies", filters, list);
  }
  SuperStudy super_study(const std::string& id) const {
    return resource<SuperStudy>("super-studies", id);
  }
  Paged<GoTerm> go_terms(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<GoTerm>("annotations/go-terms", filters, list);
  }
  GoTerm go_term(const std::string& accession) const {
    return resource<GoTerm>("annotations/go-terms", accession);
  }
  Paged<InterproIdentifier> interpro_identifiers(const Query& filters = {},
                                                 const ListOptions& list = {}) const {
    return resources<InterproIdentifier>("annotations/interpro-identifiers", filters, list);
  }
  InterproIdentifier interpro_identifier(const std::string& accession) const {
    return resource<InterproIdentifier>("annotations/interpro-identifiers", accession);
  }
  Paged<PfamEntry> pfam_entries(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<PfamEntry>("annotations/pfam-entries", filters, list);
  }
  PfamEntry pfam_entry(const std::string& accession) const {
    return resource<PfamEntry>("annotations/pfam-entries", accession);
  }
  Paged<KeggOrtholog> kegg_orthologs(const Query& filters = {},
                                     const ListOptions& list = {}) const {
    return resources<KeggOrtholog>("annotations/kegg-orthologs", filters, list);
  }
  KeggOrtholog kegg_ortholog(const std::string& accession) const {
    return resource<KeggOrtholog>("annotations/kegg-orthologs", accession);
  }
  Paged<KeggModule> kegg_modules(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<KeggModule>("annotations/kegg-modules", filters, list);
  }
  KeggModule kegg_module(const std::string& accession) const {
    return resource<KeggModule>("annotations/kegg-modules", accession);
  }
  Paged<GenomeProperty> genome_properties(const Query& filters = {},
                                          const ListOptions& list = {}) const {
    return resources<GenomeProperty>("annotations/genome-properties", filters, list);
  }
  GenomeProperty genome_property(const std::string& accession) const {
    return resource<GenomeProperty>("annotations/genome-properties", accession);
  }
  Paged<AntismashGeneCluster> antismash_gene_clusters(const Query& filters = {},
                                                      const ListOptions& list = {}) const {
    return resources<AntismashGeneCluster>("annotations/antismash-gene-clusters", filters, list);
  }
  AntismashGeneCluster antismash_gene_cluster(const std::string& accession) const {
    return resource<AntismashGeneCluster>("annotations/antismash-gene-clusters", accession);
  }
  Paged<Organism> organisms(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<Organism>("annotations/organisms", filters, list);
  }

  // ---- batches ----------------------------------------------------------------
  // One outcome per id, in input order; one failure never aborts the batch.
  // BatchOptions::concurrency 0 means kDefaultConcurrency.

  static constexpr std::size_t kDefaultConcurrency = 8;
  std::vector<Result<Study>> get_studies(const std::vector<std::string>& accessions,
                                         const BatchOptions& batch = {}) const {
    return get_resources<Study>("studies", accessions, batch);
  }
  std::vector<Result<Sample>> get_samples(const std::vector<std::string>& accessions,
                                          const BatchOptions& batch = {}) const {
    return get_resources<Sample>("samples", accessions, batch);
  }
  std::vector<Result<Run>> get_runs(const std::vector<std::string>& accessions,
                                    const BatchOptions& batch = {}) const {
    return get_resources<Run>("runs", accessions, batch);
  }
  std::vector<Result<Assembly>> get_assemblies(const std::vector<std::string>& accessions,
                                               const BatchOptions& batch = {}) const {
    return get_resources<Assembly>("assemblies", accessions, batch);
  }
  std::vector<Result<Analysis>> get_analyses(const std::vector<std::string>& accessions,
                                             const BatchOptions& batch = {}) const {
    return get_resources<Analysis>("analyses", accessions, batch);
  }
  std::vector<Result<Genome>> get_genomes(const std::vector<std::string>& accessions,
                                          const BatchOptions& batch = {}) const {
    return get_resources<Genome>("genomes", accessions, batch);
  }
  std::vector<Result<Publication>> get_publications(const std::vector<std::string>& pubmed_ids,
                                                    const BatchOptions& batch = {}) const {
    return get_resources<Publication>("publications", pubmed_ids, batch);
  }
  /// Many objects of any collection by id, as the get_* batches above.
  template <class T = Resource>
  std::vector<Result<T>> get_resources(const std::string& collection,
                                       const std::vector<std::string>& ids,
                                       const BatchOptions& batch = {}) const {
    return mgnify::detail::run_batch(ids.size(), batch, kDefaultConcurrency, [&](std::size_t i) {
      return resource<T>(collection, ids[i]);
    });
  }

  // Related lists of a study.
  Paged<Sample> study_samples(const std::string& acc, const Query& filters = {},
                              const ListOptions& list = {}) const {
    return related<Sample>("studies", acc, "samples", filters, list);
  }
  Paged<Download> study_downloads(const std::string& acc, const Query& filters = {},
                                  const ListOptions& list = {}) const {
    return related<Download>("studies", acc, "downloads", filters, list);
  }
  Paged<Biome> study_biomes(const std::string& acc, const Query& filters = {},
                            const ListOptions& list = {}) const {
    return related<Biome>("studies", acc, "biomes", filters, list);
  }
  /// Studies sharing samples with this one.
  Paged<Study> study_studies(const std::string& acc, const Query& filters = {},
                             const ListOptions& list = {}) const {
    return related<Study>("studies", acc, "studies", filters, list);
  }
  /// Sampling locations; the service documents no typed shape, so these stay Resources.
  Paged<Resource> study_geocoordinates(const std::string& acc, const Query& filters = {},
                                       const ListOptions& list = {}) const {
    return related<Resource>("studies", acc, "geocoordinates", filters, list);
  }
  Paged<Publication> study_publications(const std::string& acc, const Query& filters = {},
                                        const ListOptions& list = {}) const {
    return related<Publication>("studies", acc, "publications", filters, list);
  }
  Paged<Analysis> study_analyses(const std::string& acc, const Query& filters = {},
                                 const ListOptions& list = {}) const {
    return related<Analysis>("studies", acc, "analyses", filters, list);
  }

  // Related lists of a biome (each covers the whole subtree).
  Paged<Sample> biome_samples(const std::string& lineage, const Query& filters = {},
                              const ListOptions& list = {}) const {
    return related<Sample>("biomes", lineage, "samples", filters, list);
  }
  /// The subtree below a biome, the biome itself included.
  Paged<Biome> biome_children(const std::string& lineage, const Query& filters = {},
                              const ListOptions& list = {}) const {
    return related<Biome>("biomes", lineage, "children", filters, list);
  }
  Paged<Genome> biome_genomes(const std::string& lineage, const Query& filters = {},
                              const ListOptions& list = {}) const {
    return related<Genome>("biomes", lineage, "genomes", filters, list);
  }
  Paged<Study> biome_studies(const std::string& lineage, const Query& filters = {},
                             const ListOptions& list = {}) const {
    return related<Study>("biomes", lineage, "studies", filters, list);
  }

  // Related lists of a sample, run and assembly.
  Paged<Run> sample_runs(const std::string& acc, const Query& filters = {},
                         const ListOptions& list = {}) const {
    return related<Run>("samples", acc, "runs", filters, list);
  }
  Paged<Study> sample_studies(const std::string& acc, const Query& filters = {},
                              const ListOptions& list = {}) const {
    return related<Study>("samples", acc, "studies", filters, list);
  }
  Paged<Analysis> run_analyses(const std::string& acc, const Query& filters = {},
                               const ListOptions& list = {}) const {
    return related<Analysis>("runs", acc, "analyses", filters, list);
  }
  Paged<Assembly> run_assemblies(const std::string& acc, const Query& filters = {},
                                 const ListOptions& list = {}) const {
    return related<Assembly>("runs", acc, "assemblies", filters, list);
  }
  Paged<Analysis> assembly_analyses(const std::string& acc, const Query& filters = {},
                                    const ListOptions& list = {}) const {
    return related<Analysis>("assemblies", acc, "analyses", filters, list);
  }
  Paged<Run> assembly_runs(const std::string& acc, const Query& filters = {},
                           const ListOptions& list = {}) const {
    return related<Run>("assemblies", acc, "runs", filters, list);
  }

  // Related lists of an analysis.
  /// Cursor-paginated: the pager follows the opaque links.next; the total is
  /// meta.pagination.count.
  Paged<AnalysisContig> analysis_contigs(const std::string& acc, const Query& filters = {},
                                         const ListOptions& list = {}) const {
    return related<AnalysisContig>("analyses", acc, "contigs", filters, list);
  }
  Paged<Download> analysis_downloads(const std::string& acc, const Query& filters = {},
                                     const ListOptions& list = {}) const {
    return related<Download>("analyses", acc, "downloads", filters, list);
  }
  Paged<GoTerm> analysis_go_terms(const std::string& acc, const Query& filters = {},
                                  const ListOptions& list = {}) const {
    return related<GoTerm>("analyses", acc, "go-terms", filters, list);
  }
  Paged<GoTerm> analysis_go_slim(const std::string& acc, const Query& filters = {},
                                 const ListOptions& list = {}) const {
    return related<GoTerm>("analyses", acc, "go-slim", filters, list);
  }
  Paged<InterproIdentifier> analysis_interpro_identifiers(const std::string& acc,
                                                          const Query& filters = {},
                                                          const ListOptions& list = {}) const {
    return related<InterproIdentifier>("analyses", acc, "interpro-identifiers", filters, list);
  }
  Paged<PfamEntry> analysis_pfam_entries(const std::string& acc, const Query& filters = {},
                                         const ListOptions& list = {}) const {
    return related<PfamEntry>("analyses", acc, "pfam-entries", filters, list);
  }
  Paged<KeggOrtholog> analysis_kegg_orthologs(const std::string& acc, const Query& filters = {},
                                              const ListOptions& list = {}) const {
    return related<KeggOrtholog>("analyses", acc, "kegg-orthologs", filters, list);
  }
  Paged<KeggModule> analysis_kegg_modules(const std::string& acc, const Query& filters = {},
                                          const ListOptions& list = {}) const {
    return related<KeggModule>("analyses", acc, "kegg-modules", filters, list);
  }
  Paged<GenomeProperty> analysis_genome_properties(const std::string& acc,
                                                   const Query& filters = {},
                                                   const ListOptions& list = {}) const {
    return related<GenomeProperty>("analyses", acc, "genome-properties", filters, list);
  }
  Paged<AntismashGeneCluster> analysis_antismash_gene_clusters(const std::string& acc,
                                                               const Query& filters = {},
                                                               const ListOptions& list = {}) const {
    return related<AntismashGeneCluster>("analyses", acc, "antismash-gene-clusters", filters, list);
  }
  /// Use ssu/lsu/itsonedb/unite for pipeline 4+ analyses: the legacy list is
  /// empty for them on the real service.
  Paged<Organism> analysis_taxonomy(const std::string& acc, TaxonomyKind kind,
                                    const Query& filters = {}, const ListOptions& list = {}) const {
    return related<Organism>("analyses", acc, taxonomy_path(kind), filters, list);
  }

  // Genomes and catalogues.
  Paged<Download> genome_downloads(const std::string& acc, const Query& filters = {},
                                   const ListOptions& list = {}) const {
    return related<Download>("genomes", acc, "downloads", filters, list);
  }
  Paged<Genome> catalogue_genomes(const std::string& id, const Query& filters = {},
                                  const ListOptions& list = {}) const {
    return related<Genome>("genome-catalogues", id, "genomes", filters, list);
  }
  Paged<Download> catalogue_downloads(const std::string& id, const Query& filters = {},
                                      const ListOptions& list = {}) const {
    return related<Download>("genome-catalogues", id, "downloads", filters, list);
  }

  // Super-studies and publications.
  Paged<Study> super_study_flagship_studies(const std::string& id, const Query& filters = {},
                                            const ListOptions& list = {}) const {
    return related<Study>("super-studies", id, "flagship-studies", filters, list);
  }
  Paged<Study> super_study_related_studies(const std::string& id, const Query& filters = {},
                                           const ListOptions& list = {}) const {
    return related<Study>("super-studies", id, "related-studies", filters, list);
  }
  Paged<Study> publication_studies(const std::string& pubmed_id, const Query& filters = {},
                                   const ListOptions& list = {}) const {
    return related<Study>("publications", pubmed_id, "studies", filters, list);
  }
  Paged<Sample> publication_samples(const std::string& pubmed_id, const Query& filters = {},
                                    const ListOptions& list = {}) const {
    return related<Sample>("publications", pubmed_id, "samples", filters, list);
  }

  // Files (docs/downloads.md): streamed to <path>.part, resumed, verified, renamed.
  /// Downloads `url` over this client's session; the token goes only to its origin.
  files::DownloadResult download(const std::string& url, const std::filesystem::path& path,
                                 const files::DownloadOptions& options = {}) const {
    return files::download(*session_, url, path, options);
  }
  /// Downloads a listed file, verified against its `file-checksum` (see download_job).
  files::DownloadResult download(const Download& file, const std::filesystem::path& path,
                                 files::DownloadOptions options = {}) const {
    files::DownloadJob job = download_job(file, path, std::move(options));
    return files::download(*session_, job.url, job.path, job.options);
  }
  /// Several downloads at once as `batch` says (concurrency, 0 meaning
  /// files::kDefaultDownloadConcurrency; files finished; cancel); one outcome
  /// per job, in order (files::download_many, which `bytes_progress` is passed to).
  std::vector<Result<files::DownloadResult>> download_many(
      const std::vector<files::DownloadJob>& jobs, const BatchOptions& batch = {},
      files::BatchProgressCallback bytes_progress = {}) const {
    return files::download_many(*session_, jobs, batch, std::move(bytes_progress));
  }

  /// Walks any list URL a response gave (a relationship's links.related, a
  /// Paged's resume_token()). Only URLs on the base URL's host are accepted.
  /// The URL names its page and page size, so of `list` only max_items applies.
  template <class T>
  Paged<T> follow(const std::string& url, const ListOptions& list = {}) const {
    if (list.page_size || list.start_page != 1) {
      throw InvalidArgument(
          "follow() walks the URL as given, which names its page and page size; only "
          "ListOptions::max_items applies");
    }
    session_->check_link(url);
    return detail::make_paged<T>(session_, url, list.max_items, true);
  }
  /// Walks a relationship's related list.
  template <class T>
  Paged<T> follow(const Relationship& relationship, const ListOptions& list = {}) const {
    if (!relationship.related) throw InvalidArgument("relationship has no links.related URL");
    return follow<T>(*relationship.related, list);
  }
  /// One list page exactly as sent (data, links, meta.pagination, included),
  /// for callers who paginate by hand or need the envelope.
  template <class T>
  ListPage<T> fetch_page(const std::string& url) const {
    session_->check_link(url);
    return mgnify::detail::decode_response_fast<ListPage<T>>(session_->get(url));
  }
  /// Fetches a single object by its URL (links.self, a to-one links.related).
  template <class T>
  T follow_one(const std::string& url) const {
    session_->check_link(url);
    return mgnify::detail::decode_response<Document<T>>(session_->get(url)).data;
  }

  /// Exchanges ENA/Webin credentials for a token and sends it on every later
  /// request. Bad credentials throw AuthError with the server's message.
  TokenResponse login(const std::string& username, const std::string& password) {
    if (username.empty() || password.empty()) {
      throw InvalidArgument("login needs a non-empty username and password");
    }
    http::CallOptions call;
    call.send_token = false;
    http::Response response;
    try {
      response = session_->post_json(session_->url("utils/token/obtain"),
                                     {{"username", username}, {"password", password}}, call);
    } catch (const AuthError&) {
      throw;
    } catch (const ApiError& e) {
      // The service rejects credentials with 400; to a caller that is an auth failure.
      if (e.status() == 400) throw AuthError(e.info());
      throw;
    }
    const nlohmann::json doc = mgnify::detail::parse_body(response.body, response.url);
    TokenResponse token;
    try {
      const auto data = doc.find("data");
      if (data == doc.end() || !data->is_object())
        throw DecodeError("/data", "", "required field is missing");
      token = data->get<TokenResponse>();
    } catch (const DecodeError& e) {
      const std::string path =
          e.json_path().rfind("/data", 0) == 0 ? e.json_path() : "/data" + e.json_path();
      throw DecodeError(path, response.url, e.detail());
    }
    session_->set_token(token.token);
    return token;
  }
  /// A token obtained earlier (login() on another client, a saved one).
  void set_token(std::optional<std::string> token) { session_->set_token(std::move(token)); }
  /// Forgets the token; later requests are anonymous.
  void logout() { session_->set_token(std::nullopt); }
  bool logged_in() const { return session_->has_token(); }

  /// GET mydata: the caller's own studies, private ones included (needs a token).
  Paged<Study> my_studies(const Query& filters = {}, const ListOptions& list = {}) const {
    return list_at<Study>("mydata", filters, list);
  }

  // ---- smaller endpoints ------------------------------------------------------

  /// POST utils/token/verify with the current token: true when the service
  /// accepts it, false when it rejects it (400: undecodable or expired).
  bool verify() const {
    const auto current = session_->token();
    if (!current) throw InvalidArgument("verify() needs a token: call login() first");
    http::CallOptions call;
    call.send_token = false;
    try {
      session_->post_json(session_->url("utils/token/verify"), {{"token", *current}}, call);
      return true;
    } catch (const ApiError& e) {
      if (e.status() == 400) return false;
      throw;
    }
  }

  /// A sample's metadata as resources (key, value, unit), one page at a time.
  Paged<SampleAnnotation> sample_metadata(const std::string& acc, const Query& filters = {},
                                          const ListOptions& list = {}) const {
    return related<SampleAnnotation>("samples", acc, "metadata", filters, list);
  }
  /// The most recently updated studies (at most 25 on the real service).
  Paged<Study> recent_studies(const Query& filters = {}, const ListOptions& list = {}) const {
    return list_at<Study>("studies/recent", filters, list);
  }
  /// The ten biomes with the most samples; not paginated.
  std::vector<Biome> top10_biomes() const {
    return mgnify::detail::decode_response_fast<ListPage<Biome>>(
               session_->get(session_->url("biomes/top10")))
        .data;
  }
  /// Every tool of every pipeline release.
  Paged<PipelineTool> pipeline_tools(const Query& filters = {},
                                     const ListOptions& list = {}) const {
    return list_at<PipelineTool>("pipeline-tools", filters, list);
  }
  /// One tool at one version (`pipeline-tools/{tool_name}/{version}`).
  PipelineTool pipeline_tool(const std::string& tool_name, const std::string& version) const {
    require_text("tool_name", tool_name);
    require_text("version", version);
    return follow_one<PipelineTool>(session_->url("pipeline-tools/" +
                                                  http::encode_path_segment(tool_name) + "/" +
                                                  http::encode_path_segment(version)));
  }
  /// The tools one pipeline release runs (`pipelines/{version}/tools`).
  Paged<PipelineTool> pipeline_release_tools(const std::string& version, const Query& filters = {},
                                             const ListOptions& list = {}) const {
    return related<PipelineTool>("pipelines", version, "tools", filters, list);
  }
  Paged<Sample> pipeline_samples(const std::string& version, const Query& filters = {},
                                 const ListOptions& list = {}) const {
    return related<Sample>("pipelines", version, "samples", filters, list);
  }
  Paged<Analysis> pipeline_analyses(const std::string& version, const Query& filters = {},
                                    const ListOptions& list = {}) const {
    return related<Analysis>("pipelines", version, "analyses", filters, list);
  }
  Paged<Sample> experiment_type_samples(const std::string& name, const Query& filters = {},
                                        const ListOptions& list = {}) const {
    return related<Sample>("experiment-types", name, "samples", filters, list);
  }
  Paged<Run> experiment_type_runs(const std::string& name, const Query& filters = {},
                                  const ListOptions& list = {}) const {
    return related<Run>("experiment-types", name, "runs", filters, list);
  }
  Paged<Analysis> experiment_type_analyses(const std::string& name, const Query& filters = {},
                                           const ListOptions& list = {}) const {
    return related<Analysis>("experiment-types", name, "analyses", filters, list);
  }

  /// Genome catalogues whose biome lies in this biome's subtree.
  Paged<GenomeCatalogue> biome_genome_catalogues(const std::string& lineage,
                                                 const Query& filters = {},
                                                 const ListOptions& list = {}) const {
    return related<GenomeCatalogue>("biomes", lineage, "genome-catalogues", filters, list);
  }
  Paged<GenomeCatalogue> super_study_related_genome_catalogues(const std::string& id,
                                                               const Query& filters = {},
                                                               const ListOptions& list = {}) const {
    return related<GenomeCatalogue>("super-studies", id, "related-genome-catalogues", filters,
                                    list);
  }
  Paged<Biome> super_study_biomes(const std::string& id, const Query& filters = {},
                                  const ListOptions& list = {}) const {
    return related<Biome>("super-studies", id, "biomes", filters, list);
  }
  /// An organism and every organism below it (`annotations/organisms/{lineage}`, a list).
  Paged<Organism> organism_subtree(const std::string& lineage, const Query& filters = {},
                                   const ListOptions& list = {}) const {
    require_text("lineage", lineage);
    return list_at<Organism>("annotations/organisms/" + http::encode_path_segment(lineage), filters,
                             list);
  }
  Paged<Analysis> organism_analyses(const std::string& lineage, const Query& filters = {},
                                    const ListOptions& list = {}) const {
    return related<Analysis>("annotations/organisms", lineage, "analyses", filters, list);
  }

  // Genome catalogues' groupings and annotation vocabularies.
  Paged<GenomeSet> genome_sets(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<GenomeSet>("genomeset", filters, list);
  }
  GenomeSet genome_set(const std::string& name) const {
    return resource<GenomeSet>("genomeset", name);
  }
  Paged<Genome> genome_set_genomes(const std::string& name, const Query& filters = {},
                                   const ListOptions& list = {}) const {
    return related<Genome>("genomeset", name, "genomes", filters, list);
  }
  Paged<CogCategory> cogs(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<CogCategory>("cogs", filters, list);
  }
  Paged<KeggClass> kegg_classes(const Query& filters = {}, const ListOptions& list = {}) const {
    return resources<KeggClass>("kegg-classes", filters, list);
  }
  /// The catalogues' KEGG modules (`kegg-modules`; the annotation vocabulary is kegg_modules()).
  Paged<GenomeKeggModule> genome_kegg_modules(const Query& filters = {},
                                              const ListOptions& list = {}) const {
    return resources<GenomeKeggModule>("kegg-modules", filters, list);
  }
  Paged<GenomeAntismashCluster> genome_antismash_clusters(const Query& filters = {},
                                                          const ListOptions& list = {}) const {
    return resources<GenomeAntismashCluster>("antismash-geneclusters", filters, list);
  }
  Paged<CogCategory> genome_cog_counts(const std::string& acc, const Query& filters = {},
                                       const ListOptions& list = {}) const {
    return related<CogCategory>("genomes", acc, "cogs", filters, list);
  }
  Paged<KeggClass> genome_kegg_class_counts(const std::string& acc, const Query& filters = {},
                                            const ListOptions& list = {}) const {
    return related<KeggClass>("genomes", acc, "kegg-class", filters, list);
  }
  Paged<GenomeKeggModule> genome_kegg_module_counts(const std::string& acc,
                                                    const Query& filters = {},
                                                    const ListOptions& list = {}) const {
    return related<GenomeKeggModule>("genomes", acc, "kegg-module", filters, list);
  }
  Paged<GenomeAntismashCluster> genome_antismash_cluster_counts(
      const std::string& acc, const Query& filters = {}, const ListOptions& list = {}) const {
    return related<GenomeAntismashCluster>("genomes", acc, "antismash-genecluster", filters, list);
  }

  /// Files attached to a run or an assembly beyond the analysis results; each
  /// record's links.self is the file, for download().
  Paged<Download> run_extra_annotations(const std::string& acc, const Query& filters = {},
                                        const ListOptions& list = {}) const {
    return related<Download>("runs", acc, "extra-annotations", filters, list);
  }
  Paged<Download> assembly_extra_annotations(const std::string& acc, const Query& filters = {},
                                             const ListOptions& list = {}) const {
    return related<Download>("assemblies", acc, "extra-annotations", filters, list);
  }

  /// Europe PMC's text-mined annotations of a publication
  /// (`publications/{pubmed_id}/europe_pmc_annotations`, proxied live by the service).
  EuropePmcAnnotations publication_europe_pmc_annotations(const std::string& pubmed_id) const {
    require_text("pubmed_id", pubmed_id);
    const http::Response response = session_->get(session_->url(
        "publications/" + http::encode_path_segment(pubmed_id) + "/europe_pmc_annotations"));
    return decode_data<EuropePmcAnnotations>(response);
  }

  // ---- text bodies (FASTA, GFF, TSV, CSV) ---------------------------------------
  // Read whole (bounded by ClientOptions::max_body_bytes) or streamed to a sink
  // (bounded by StreamOptions::max_bytes); see http/text.hpp.

  /// One contig's sequence as FASTA (`analyses/{acc}/contigs/{contig_id}`).
  std::string analysis_contig_fasta(const std::string& acc, const std::string& contig_id,
                                    const CancelToken& cancel = CancelToken::never()) const {
    return http::read_text(*session_, contig_url(acc, contig_id, ""), http::media::kFasta, cancel)
        .text;
  }
  http::StreamResult stream_analysis_contig_fasta(const std::string& acc,
                                                  const std::string& contig_id,
                                                  const http::BodySink& sink,
                                                  const http::StreamOptions& options = {}) const {
    return http::stream_text(*session_, contig_url(acc, contig_id, ""), http::media::kFasta, sink,
                             options);
  }
  /// One contig's annotations as GFF (`.../contigs/{contig_id}/annotations`);
  /// ContigGff::antismash asks for the antiSMASH GFF instead.
  std::string analysis_contig_gff(const std::string& acc, const std::string& contig_id,
                                  ContigGff kind = ContigGff::pipeline,
                                  const CancelToken& cancel = CancelToken::never()) const {
    return http::read_text(*session_, contig_url(acc, contig_id, "/annotations", kind),
                           http::media::kGff, cancel)
        .text;
  }
  http::StreamResult stream_analysis_contig_gff(const std::string& acc,
                                                const std::string& contig_id,
                                                const http::BodySink& sink,
                                                const http::StreamOptions& options = {},
                                                ContigGff kind = ContigGff::pipeline) const {
    return http::stream_text(*session_, contig_url(acc, contig_id, "/annotations", kind),
                             http::media::kGff, sink, options);
  }
  /// A QC chart's data as TSV (`analyses/{acc}/gc-distribution`, ...).
  std::string analysis_qc_chart(const std::string& acc, QcChart chart,
                                const CancelToken& cancel = CancelToken::never()) const {
    return http::read_text(*session_, qc_url(acc, chart), http::media::kTsv, cancel).text;
  }
  http::StreamResult stream_analysis_qc_chart(const std::string& acc, QcChart chart,
                                              const http::BodySink& sink,
                                              const http::StreamOptions& options = {}) const {
    return http::stream_text(*session_, qc_url(acc, chart), http::media::kTsv, sink, options);
  }
  /// A whole list as CSV (`{path}?format=csv`, e.g. "studies" or
  /// "biomes/root:Engineered/samples"; each segment is encoded here). The
  /// service renders at most kMaxCsvRows rows and answers a longer list with
  /// 413, thrown as ApiError.
  std::string list_csv(const std::string& path, const Query& q = {},
                       const CancelToken& cancel = CancelToken::never()) const {
    return http::read_text(*session_, csv_url(path, q), http::media::kCsv, cancel).text;
  }
  http::StreamResult stream_list_csv(const std::string& path, const http::BodySink& sink,
                                     const Query& q = {},
                                     const http::StreamOptions& options = {}) const {
    return http::stream_text(*session_, csv_url(path, q), http::media::kCsv, sink, options);
  }
  /// Any text URL (a download's links.self, say), read whole. As with
  /// download(), the token goes only to the base URL's origin.
  http::TextBody read_text(const std::string& url, const std::string& accept = "*/*",
                           const CancelToken& cancel = CancelToken::never()) const {
    return http::read_text(*session_, url, accept, cancel);
  }
  /// Any text URL, streamed to `sink`.
  http::StreamResult stream_text(const std::string& url, const http::BodySink& sink,
                                 const std::string& accept = "*/*",
                                 const http::StreamOptions& options = {}) const {
    return http::stream_text(*session_, url, accept, sink, options);
  }

 private:
  /// `path` is already encoded.
  template <class T>
  Paged<T> list_at(const std::string& path, const Query& filters, const ListOptions& list,
                   detail::ListKind kind = detail::ListKind::numbered) const {
    return detail::make_paged<T>(session_,
                                 session_->url(path, detail::list_params(filters, list, kind)),
                                 list.max_items, false);
  }
  static std::string collection_path(const std::string& collection) {
    require_text("collection", collection);
    return detail::encode_segments(collection);
  }
  static std::string item_path(const std::string& collection, const std::string& id) {
    require_text("id", id);
    return collection_path(collection) + "/" + http::encode_path_segment(id);
  }

  /// `{"data": <plain object>}`, the shape of the service's non-resource views.
  template <class T>
  static T decode_data(const http::Response& response) {
    const nlohmann::json doc = mgnify::detail::parse_body(response.body, response.url);
    const auto data = doc.is_object() ? doc.find("data") : doc.end();
    if (!doc.is_object() || data == doc.end() || data->is_null()) {
      throw DecodeError("/data", response.url, "required field is missing");
    }
    try {
      return mgnify::detail::convert_at<T>(*data, "/data");
    } catch (const DecodeError& e) {
      throw DecodeError(e.json_path(), response.url, e.detail());
    }
  }

  static void require_text(const char* what, const std::string& value) {
    if (value.empty()) throw InvalidArgument(std::string(what) + " must not be empty");
  }

  std::string contig_url(const std::string& acc, const std::string& contig_id, const char* tail,
                         ContigGff kind = ContigGff::pipeline) const {
    require_text("analysis accession", acc);
    require_text("contig_id", contig_id);
    http::Query query;
    if (kind == ContigGff::antismash) query.set("antismash", "True");
    return session_->url("analyses/" + http::encode_path_segment(acc) + "/contigs/" +
                             http::encode_path_segment(contig_id) + tail,
                         query);
  }
  std::string qc_url(const std::string& acc, QcChart chart) const {
    require_text("analysis accession", acc);
    return session_->url("analyses/" + http::encode_path_segment(acc) + "/" + qc_chart_path(chart));
  }
  std::string csv_url(const std::string& path, const Query& q) const {
    require_text("list path", path);
    http::Query query = q.params();
    query.set("format", "csv");
    return session_->url(detail::encode_segments(path), query);
  }

  struct RootDoc {
    std::map<std::string, std::string> categories;
    friend void from_json(const nlohmann::json& j, RootDoc& out) {
      if (!j.is_object()) throw DecodeError("", "", "expected an object");
      auto data = j.find("data");
      if (data == j.end() || !data->is_object())
        throw DecodeError("/data", "", "expected an object");
      for (const auto& [name, value] : data->items()) {
        out.categories[name] = mgnify::detail::convert_at<std::string>(value, "/data/" + name);
      }
    }
  };

  friend class mgnify::detail::GenomeSearchMethods<LegacyClient, GenomeSearchResult>;
  mgnify::detail::GenomeSearchCalls genome_search_calls() const {
    return mgnify::detail::GenomeSearchCalls(*session_, mgnify::detail::kV1GenomeSearch);
  }

  void validate() const {
    if (session_->options().parallel_pages == 0) {
      throw InvalidArgument("ClientOptions::parallel_pages must be at least 1");
    }
  }

  std::shared_ptr<http::Session> session_;
};

}  // namespace v1
}  // namespace v0
}  // namespace mgnify
