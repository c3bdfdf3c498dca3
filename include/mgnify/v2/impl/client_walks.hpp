#pragma once

// V2Client's shared state and the member templates (get, paged, many) that every part of its
// bodies instantiates (impl/client.ipp and impl/client_<area>.ipp); the compiled library
// instantiates them for each area's models in a unit of its own (include/mgnify/impl/units/v2.hpp).

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/config.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/counted_pages.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/detail/make_walk.hpp"
#include "mgnify/detail/number_text.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/v2/client.hpp"
#include "mgnify/v2/fast_decode.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

template <class D>
struct BasicV2Client<D>::State {
  State(std::shared_ptr<http::Session> s, V2Options o)
      : session(std::move(s)), v2(o), batch_concurrency(former_batch_concurrency(o)) {
    if (batch_concurrency == 0) {
      throw InvalidArgument("V2Options::concurrency must be at least 1");
    }
    if (parallel_pages() == 0) {
      throw InvalidArgument("ClientOptions::parallel_pages must be at least 1");
    }
    // A present but rejected token gets 401 even for public data, so the
    // session answers a 401 to a call that carried one by refreshing the
    // token once (or, by option, dropping it) and repeating the call:
    // downloads and text included, since they run through the same session.
    http::TokenRefresh policy;
    // The session owns the policy; it calls it only while it is alive.
    policy.refresh = [raw = session.get()](const std::string& rejected, const CancelToken& cancel) {
      return refresh_token(*raw, rejected, CallOptions(cancel)).token;
    };
    policy.anonymous_fallback = v2.anonymous_fallback_on_auth_failure;
    policy.not_found_hint = kPrivateNotFoundHint;
    session->set_token_refresh(std::move(policy));
  }
  std::size_t parallel_pages() const { return session->options().parallel_pages; }
  std::shared_ptr<http::Session> session;
  V2Options v2;
  /// Requests in flight for a batch whose BatchOptions::concurrency is 0.
  std::size_t batch_concurrency;

  /// The deprecated V2Options::concurrency, obeyed while it lasts (defaults::kConcurrency unless
  /// set).
  static std::size_t former_batch_concurrency(const V2Options& o) {
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    return o.concurrency;
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
  }

  static TokenResponse refresh_token(http::Session& session, const std::string& token,
                                     const CallOptions& call = {}) {
    http::RequestOptions request = http::per_call(call);
    request.send_token = false;
    const auto response =
        session.post_json(session.url("auth/sliding/refresh"), {{"token", token}}, request);
    return mgnify::detail::decode_response<TokenResponse>(response);
  }

  http::Response get(const std::string& url, const CallOptions& call) {
    return session->get(url, http::per_call(call));
  }
};

template <class D>
template <class T>
T BasicV2Client<D>::get(const std::string& path, const http::Query& query,
                        const CallOptions& call) const {
  const auto response =
      state_->session->get(state_->session->url(path, query), http::per_call(call));
  T out = mgnify::detail::decode_response<T>(response);
  mgnify::detail::keep_sent_numbers(out.raw, response.body);
  return out;
}

namespace detail {

/// A counted walk's tokens: the page `index` pages after `start_page`, while
/// `pages` knows it to exist. Not a template: every model's walk shares it.
inline mgnify::detail::PageTokenAt counted_page_tokens(
    std::int64_t start_page, std::shared_ptr<mgnify::detail::CountedPages> pages) {
  return [start_page, pages = std::move(pages)](std::size_t index,
                                                const PageEnvelope&) -> std::optional<std::string> {
    if (index > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() - start_page)) {
      return std::nullopt;
    }
    const std::int64_t page = start_page + static_cast<std::int64_t>(index);
    if (!pages->has_page(page)) return std::nullopt;
    return std::to_string(page);
  };
}

}  // namespace detail

template <class D>
template <class T>
Paged<T> BasicV2Client<D>::paged(const std::string& path, http::Query filters,
                                 const ListOptions& list, const CallOptions& call) const {
  mgnify::detail::validate(list, {"v2", kMaxPageSize, true});
  const std::int64_t page_size = list.page_size.value_or(kMaxPageSize);
  const std::int64_t start_page =
      list.resume_token ? BasicV2Client::resume_page(*list.resume_token) : list.start_page;
  std::shared_ptr<State> state = state_;
  // Every page is checked against the total and the server's page size
  // (detail/counted_pages.hpp), which also decides where the walk ends.
  auto pages = std::make_shared<mgnify::detail::CountedPages>(page_size);
  mgnify::detail::WalkSpec spec;
  spec.first_token = std::to_string(start_page);
  spec.max_items = list.max_items;
  spec.call = mgnify::detail::list_call(list, call);
  auto fetch = [state, path, filters = std::move(filters), page_size, pages](
                   const std::string& token,
                   const mgnify::detail::PageProgress& progress) -> mgnify::Page<T> {
    const std::int64_t page = std::stoll(token);
    http::Query query = filters;
    query.set("page", token);
    query.set("page_size", std::to_string(page_size));
    const auto response = state->get(state->session->url(path, query), progress.call());
    progress.received();
    auto decoded = mgnify::detail::decode_response_fast<v2::CountedPage<T>>(response);
    const auto items = static_cast<std::int64_t>(decoded.items.size());
    if (const auto choice = pages->open_size_choice(page, items, decoded.count)) {
      // A walk resumed on a short page: it is either the list's last page
      // or a page of a server that clamps to its length. The page after it,
      // empty past the end of a v2 list, tells which, so that no item is
      // silently left out.
      query.set("page", std::to_string(page + 1));
      const auto look_ahead = state->get(state->session->url(path, query), progress.call());
      const bool more =
          !mgnify::detail::decode_response_fast<v2::CountedPage<T>>(look_ahead).items.empty();
      pages->settle_size(more ? choice->if_more : choice->if_last);
    }
    const auto next = pages->accept(page, items, decoded.count, response.url);
    mgnify::Page<T> out;
    out.total = decoded.count;
    out.url = response.url;
    out.page = page;
    out.page_size = pages->server_size().value_or(page_size);
    if (next) out.next = std::to_string(*next);
    out.items = std::move(decoded.items);
    return out;
  };
  if (state_->session->options().read_ahead) {
    // Page numbers are known once the first page gave `count` and the
    // server's page size, so several pages can be in flight; the fetcher
    // only uses the thread-safe State and CountedPages.
    spec.mode = mgnify::detail::WalkMode::counted;
    spec.window = state_->parallel_pages();
    spec.token_at = detail::counted_page_tokens(start_page, pages);
  }
  return mgnify::detail::make_walk<T>(std::move(spec), std::move(fetch));
}

template <class D>
template <class T, class Fn>
std::vector<Result<T>> BasicV2Client<D>::many(const std::vector<std::string>& ids,
                                              const BatchOptions& batch, const CallOptions& call,
                                              Fn fn) const {
  return mgnify::detail::run_batch(
      ids.size(), batch, state_->batch_concurrency, call,
      [&ids, &fn](std::size_t i, const CallOptions& item) { return fn(ids[i], item); });
}

}  // namespace v2
MGNIFY_NAMESPACE_END

// Header-only, the bodies come here rather than at the end of v2/client.hpp, so that they see
// State whichever of the two headers a program includes first.
#if MGNIFY_HEADER_ONLY
#include "mgnify/v2/impl/client.ipp"
#include "mgnify/v2/impl/client_analyses.ipp"
#include "mgnify/v2/impl/client_genomes.ipp"
#include "mgnify/v2/impl/client_studies.ipp"
#endif
