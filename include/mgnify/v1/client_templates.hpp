#pragma once

// The templates LegacyClient instantiates for each model type it lists or
// fetches: the list walk (links.next, predicted pages, the count check), the
// envelope peek and the decoders. With MGNIFY_SEPARATE_COMPILATION the
// compiled library holds them for every model of mgnify/v1; a file that lists
// or fetches a model type of its own (resources<MyModel>, follow<MyModel>,
// ...) includes this header as well.

#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/config.hpp"
#include "mgnify/detail/counted_pages.hpp"
#include "mgnify/detail/fast_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/detail/make_walk.hpp"
#include "mgnify/detail/number_text.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/paged.hpp"
#include "mgnify/result.hpp"
#include "mgnify/v1/defaults.hpp"
#include "mgnify/v1/fast_decode.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {
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

/// A v1 list envelope as a page envelope; `links` is moved from.
inline void fill_envelope(PageEnvelope& page, PageLinks&& links, const Pagination& pagination) {
  page.total = pagination.count;
  page.page = pagination.page;
  page.pages = pagination.pages;
  if (links.next) page.cursor = query_value(*links.next, "cursor");
  page.next = links.next;
  page.links = std::move(links);
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
inline std::optional<std::string> guess_page_url(std::size_t index, const PageEnvelope& first) {
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
inline bool is_guessed_page(std::size_t index, const PageEnvelope& page,
                            const PageEnvelope& first) {
  return first.page && page.page && *page.page == *first.page + static_cast<std::int64_t>(index);
}

/// A page-number walk is counted: its first page's meta.pagination (page,
/// pages, count) and length tell the server's page size, and every page the
/// walk uses, guessed or linked, must be the next page number, fit that size
/// and the same count, and have a links.next exactly when the count leaves
/// more items. Anything else is a ListChangedError naming the page's URL as
/// the resume point. A list whose first page has no page number (a cursor
/// list) is a link walk that ends on a null links.next; where its pages state
/// a count, every page must state the same one, the items may not outgrow it,
/// and a walk from the list's start must have yielded exactly that many when
/// links.next ends it (a walk resumed at a cursor cannot know what came before).
/// Not a template: it reads only the envelope, so every model's walk shares
/// one copy instead of compiling its own (count_check below adapts it).
class CountCheck {
 public:
  explicit CountCheck(const std::string& first_url)
      : pages_(requested_size(first_url)), from_start_(!query_value(first_url, "cursor")) {}

  /// Checks the page whose envelope is given and which held `items` items.
  void check(const std::string& token, std::size_t items, std::optional<std::int64_t> page,
             std::optional<std::int64_t> total, std::optional<std::int64_t> pages,
             const std::string& url, bool has_next) {
    const bool numbered = page && total;
    if (!counted_) counted_ = numbered;
    if (!*counted_) return check_cursor_page(token, items, total, url, has_next);
    if (!numbered) {
      throw ListChangedError(url, token,
                             "a page-number list went on with a page that has no page number");
    }
    const std::string here = std::to_string(*page);
    if (next_number_ && *page != *next_number_) {
      throw ListChangedError(url, token,
                             "links.next led to page " + here + " where page " +
                                 std::to_string(*next_number_) + " comes next");
    }
    std::optional<std::int64_t> next;
    try {
      next = pages_.accept(*page, static_cast<std::int64_t>(items), *total, url, pages);
    } catch (const ListChangedError& e) {
      throw ListChangedError(e.url(), token, e.detail());  // resumed by URL, not by number
    }
    if (next && !has_next) {
      throw ListChangedError(url, token,
                             "page " + here + " has no links.next, but a count of " +
                                 std::to_string(*total) + " leaves more pages");
    }
    if (!next && has_next) {
      throw ListChangedError(url, token,
                             "page " + here + " is the last one for a count of " +
                                 std::to_string(*total) + ", yet links.next names another");
    }
    next_number_ = next;
  }

 private:
  void check_cursor_page(const std::string& token, std::size_t items,
                         std::optional<std::int64_t> total, const std::string& url, bool has_next) {
    items_seen_ += static_cast<std::int64_t>(items);
    if (!cursor_count_) cursor_count_ = total;
    if (!cursor_count_ || !total) return;
    const std::string count = std::to_string(*cursor_count_);
    if (*total != *cursor_count_) {
      throw ListChangedError(
          url, token,
          "the count changed from " + count + " to " + std::to_string(*total) + " during the walk");
    }
    if (items_seen_ > *total) {
      throw ListChangedError(url, token,
                             "the pages held " + std::to_string(items_seen_) +
                                 " items, more than the count of " + count);
    }
    if (!has_next && from_start_ && items_seen_ != *total) {
      throw ListChangedError(url, token,
                             "links.next ended the list after " + std::to_string(items_seen_) +
                                 " of the " + count + " items its count promised");
    }
  }

  static std::optional<std::int64_t> requested_size(const std::string& first_url) {
    if (auto size = query_value(first_url, "page_size")) {
      const auto& text = *size;
      if (!text.empty() && text.size() <= 18 &&
          std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        const std::int64_t value = std::stoll(text);
        if (value > 0) return value;
      }
    }
    return std::nullopt;
  }

  mgnify::detail::CountedPages pages_;
  std::optional<bool> counted_;               // decided by the first page
  std::optional<std::int64_t> next_number_;   // the page number the next page must have
  bool from_start_;                           // a cursor walk not resumed mid-list
  std::optional<std::int64_t> cursor_count_;  // a cursor list's count, from its first page
  std::int64_t items_seen_ = 0;
};

/// CountCheck as a walk's PageVerify.
inline mgnify::detail::PageVerify count_check(const std::string& first_url) {
  auto walk = std::make_shared<CountCheck>(first_url);
  return [walk](const std::string& token, const PageEnvelope& page, std::size_t items) {
    walk->check(token, items, page.page, page.total, page.pages, page.url, page.next.has_value());
  };
}

/// A list body's links and meta.pagination, without its items.
struct ListEnvelope {
  PageLinks links;
  Pagination pagination;
};

/// The links and meta.pagination of a list body, read with simdjson's DOM
/// parser (a vectorised pass, well under a millisecond for a page of 100) so
/// that a walk can request the next page before this one's items are decoded.
/// nullopt unless the body has the usual shape; decoding then has the last word.
/// Not a template, like CountCheck: the same parse serves every model.
inline std::optional<ListEnvelope> peek_envelope_fields(const std::string& body) {
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
  PageLinks links;
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
  return ListEnvelope{std::move(links), pagination};
}

/// peek_envelope_fields as a page envelope, which the walk announces.
inline std::optional<PageEnvelope> peek_list_envelope(const std::string& body,
                                                      const std::string& url) {
  auto fields = peek_envelope_fields(body);
  if (!fields) return std::nullopt;
  PageEnvelope envelope;
  fill_envelope(envelope, std::move(fields->links), fields->pagination);
  envelope.url = url;
  return envelope;
}

/// Fetches one list page. Every URL but the first came from a response, so it
/// must stay on the base URL's host. When the walk can use it, the envelope
/// is announced before the items are decoded (see Paged).
template <class T>
Page<T> fetch_list_page(http::Session& session, const std::string& url, bool check,
                        const mgnify::detail::PageProgress& progress) {
  if (check) session.check_link(url);
  const http::Response response = session.get(url, http::per_call(progress.call()));
  progress.received();
  if (progress.wants_envelope()) {
    if (auto envelope = peek_list_envelope(response.body, response.url)) {
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

template <class T>
Paged<T> make_paged(std::shared_ptr<http::Session> session, std::string first_url,
                    std::optional<std::size_t> max_items, bool check_first,
                    const CallOptions& call) {
  mgnify::detail::WalkSpec spec;
  spec.first_token = first_url;
  spec.max_items = max_items;
  spec.call = call;
  // The fetcher only touches the thread-safe Session, so it may run ahead.
  spec.read_ahead = session->options().read_ahead;
  spec.window = session->options().parallel_pages;
  if (spec.read_ahead && spec.window > 1) {
    spec.mode = mgnify::detail::WalkMode::predicted;
    spec.token_at = &guess_page_url;
    spec.check = &is_guessed_page;
  }
  spec.verify = count_check(first_url);
  auto fetch = [session = std::move(session), first = std::move(first_url), check_first](
                   const std::string& token, const mgnify::detail::PageProgress& progress) {
    return fetch_list_page<T>(*session, token, check_first || token != first, progress);
  };
  return mgnify::detail::make_walk<T>(std::move(spec), std::move(fetch));
}

template <class T>
Document<T> decode_document(const http::Response& response) {
  Document<T> document = mgnify::detail::decode_response<Document<T>>(response);
  Resource* resource = nullptr;
  if constexpr (std::is_same<T, Resource>::value) {
    resource = &document.data;
  } else if constexpr (std::is_base_of<ResourceModel, T>::value) {
    resource = &document.data.resource;
  }
  if (resource) {
    mgnify::detail::keep_sent_numbers(resource->raw,
                                      mgnify::detail::member_text(response.body, "data"));
  }
  return document;
}

template <class T>
ListPage<T> decode_list_page(const http::Response& response) {
  return mgnify::detail::decode_response_fast<ListPage<T>>(response);
}

template <class T, class Client>
std::vector<Result<T>> get_batch(const Client& client, const std::string& collection,
                                 const std::vector<std::string>& ids, const BatchOptions& batch,
                                 const CallOptions& call) {
  return mgnify::detail::run_batch(ids.size(), batch, defaults::kConcurrency, call,
                                   [&](std::size_t i, const CallOptions& item) {
                                     return client.template resource<T>(collection, ids[i], item);
                                   });
}

}  // namespace detail
}  // namespace v1
MGNIFY_NAMESPACE_END
