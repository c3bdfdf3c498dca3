#pragma once

// The page vocabulary shared by every service: PageEnvelope (what a page
// says about the list: count, page number, page size, links, cursor) and
// Page<T> (an envelope with its items), typed the same way for every service,
// so nothing has to be read back out of JSON. The services' wire envelopes
// (v1::ListPage, v2::CountedPage) are decoded into these.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

/// The links a page named (v1's `links`; cursor lists send only next and
/// prev); absent ones are empty.
struct PageLinks {
  std::optional<std::string> first;
  std::optional<std::string> last;
  std::optional<std::string> next;
  std::optional<std::string> prev;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.optional("first", self.first);
    v.optional("last", self.last);
    v.optional("next", self.next);
    v.optional("prev", self.prev);
  }
};

/// Everything a page says about its list, without its items.
struct PageEnvelope {
  /// The walk's token for the following page (absent on the last page): the
  /// links.next URL for v1, the page number for v2. Paged::resume_token()
  /// hands out these tokens.
  std::optional<std::string> next;
  /// Total number of items in the list (`count`), when the service says.
  std::optional<std::int64_t> total;
  /// This page's number, for lists numbered by page.
  std::optional<std::int64_t> page;
  /// Number of pages in the list (v1 page-number lists).
  std::optional<std::int64_t> pages;
  /// Items per page the server uses: the requested size, or the smaller one
  /// a server that clamps page sizes answered with (v2).
  std::optional<std::int64_t> page_size;
  /// The envelope's links (v1).
  PageLinks links;
  /// The `cursor` of the following page, for cursor-paginated lists (v1 contigs).
  std::optional<std::string> cursor;
  /// The URL this page came from.
  std::string url;
};

/// One page as the service sent it: its envelope and its items.
template <class T>
struct Page : PageEnvelope {
  std::vector<T> items;
};

/// Fetches the page named by a token; see Paged.
template <class T>
using PageFetcher = std::function<Page<T>(const std::string& token)>;

MGNIFY_NAMESPACE_END
