// docs/clients.md's table, the shared part checked at compile time: the three
// clients take the verbs they share from one part (ServiceVerbs, and for v1
// and v2 GenomeSearchVerbs), with one signature each, and every blocking call
// ends with the same per-call options.

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/call_options.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/genome_search/verbs.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/service_verbs.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"

namespace {

using mgnify::BatchOptions;
using mgnify::CallOptions;
using mgnify::CancelToken;
using mgnify::ServiceVerbs;
using mgnify::proteins::ProteinClient;
using mgnify::v1::LegacyClient;
using mgnify::v2::V2Client;
namespace files = mgnify::files;
namespace http = mgnify::http;

template <class T>
const T& val();  // declval for unevaluated operands, as a const lvalue

// The shared verbs are ServiceVerbs' own members, not look-alikes: taking
// their address through a client gives the same pointer-to-member type.
template <class Client>
constexpr bool shares_service_verbs() {
  return std::is_base_of_v<ServiceVerbs, Client> &&
         std::is_same_v<decltype(&Client::read_text), decltype(&ServiceVerbs::read_text)> &&
         std::is_same_v<decltype(val<Client>().stream_text(
                            val<std::string>(), val<std::string>(), val<http::BodySink>(),
                            val<http::StreamOptions>(), val<CallOptions>())),
                        http::StreamResult> &&
         std::is_same_v<decltype(&Client::download_many), decltype(&ServiceVerbs::download_many)> &&
         std::is_same_v<decltype(&Client::session), decltype(&ServiceVerbs::session)> &&
         std::is_same_v<decltype(&Client::shared_session),
                        decltype(&ServiceVerbs::shared_session)> &&
         std::is_same_v<decltype(&Client::base_url), decltype(&ServiceVerbs::base_url)>;
}
static_assert(shares_service_verbs<ProteinClient>());
static_assert(shares_service_verbs<LegacyClient>());
static_assert(shares_service_verbs<V2Client>());

// download is overloaded (each client adds its record type), so it is checked by a call.
template <class Client>
constexpr bool downloads_urls() {
  return std::is_same_v<decltype(val<Client>().download(
                            val<std::string>(), val<std::filesystem::path>(),
                            val<files::DownloadOptions>(), val<CallOptions>())),
                        files::DownloadResult>;
}
static_assert(downloads_urls<ProteinClient>());
static_assert(downloads_urls<LegacyClient>());
static_assert(downloads_urls<V2Client>());

template <class Client, class SearchResult>
constexpr bool shares_genome_search() {
  using Verbs = mgnify::GenomeSearchVerbs<SearchResult>;
  return std::is_base_of_v<Verbs, Client> &&
         std::is_same_v<decltype(&Client::genome_search), decltype(&Verbs::genome_search)> &&
         std::is_same_v<decltype(&Client::submit_gather), decltype(&Verbs::submit_gather)> &&
         std::is_same_v<decltype(&Client::gather_status), decltype(&Verbs::gather_status)> &&
         std::is_same_v<decltype(&Client::wait_for_gather), decltype(&Verbs::wait_for_gather)> &&
         std::is_same_v<decltype(&Client::gather_results), decltype(&Verbs::gather_results)> &&
         std::is_same_v<decltype(&Client::download_gather_results),
                        decltype(&Verbs::download_gather_results)>;
}
static_assert(shares_genome_search<LegacyClient, mgnify::v1::GenomeSearchResult>());
static_assert(shares_genome_search<V2Client, mgnify::v2::GenomeSearchResult>());

// The per-call options come last on the calls that block, in every client,
// and a bare CancelToken still converts to them.
static_assert(std::is_invocable_v<decltype(&ProteinClient::search), const ProteinClient&,
                                  const mgnify::proteins::SearchQuery&, const CallOptions&>);
static_assert(std::is_same_v<decltype(val<ProteinClient>().protein(
                                 val<mgnify::proteins::Accession>(), val<CallOptions>())),
                             mgnify::proteins::Protein>);
static_assert(
    std::is_same_v<decltype(val<ProteinClient>().get_proteins(
                       val<std::vector<std::string>>(), val<BatchOptions>(), val<CallOptions>())),
                   std::vector<mgnify::Result<mgnify::proteins::Protein>>>);
static_assert(
    std::is_same_v<decltype(val<LegacyClient>().study(val<std::string>(), val<CallOptions>())),
                   mgnify::v1::Study>);
static_assert(
    std::is_same_v<decltype(val<V2Client>().study(val<std::string>(), val<CallOptions>())),
                   mgnify::v2::StudyDetail>);
static_assert(
    std::is_same_v<decltype(val<LegacyClient>().get_studies(
                       val<std::vector<std::string>>(), val<BatchOptions>(), val<CallOptions>())),
                   std::vector<mgnify::Result<mgnify::v1::Study>>>);
static_assert(
    std::is_same_v<decltype(val<V2Client>().get_studies(val<std::vector<std::string>>(),
                                                        val<BatchOptions>(), val<CallOptions>())),
                   std::vector<mgnify::Result<mgnify::v2::StudyDetail>>>);
static_assert(
    std::is_same_v<decltype(val<V2Client>().get_publications(
                       val<std::vector<std::int64_t>>(), val<BatchOptions>(), val<CallOptions>())),
                   std::vector<mgnify::Result<mgnify::v2::PublicationDetail>>>);
static_assert(std::is_invocable_v<decltype(&ServiceVerbs::read_text), const V2Client&,
                                  const std::string&, const std::string&, const CancelToken&>);
static_assert(
    std::is_invocable_v<decltype(&V2Client::openapi_text), const V2Client&, const CancelToken&>);

static_assert(
    std::is_same_v<decltype(val<V2Client&>().refresh(val<CallOptions>())), mgnify::TokenResponse>);

// A list call takes CallOptions last, like every other call, so a walk is
// governed by the same three switches: (filters, list, call).
static_assert(
    std::is_same_v<decltype(val<LegacyClient>().studies(
                       val<mgnify::v1::Query>(), val<mgnify::ListOptions>(), val<CallOptions>())),
                   mgnify::Paged<mgnify::v1::Study>>);
static_assert(std::is_same_v<decltype(val<LegacyClient>().study_samples(
                                 val<std::string>(), val<mgnify::v1::Query>(),
                                 val<mgnify::ListOptions>(), val<CallOptions>())),
                             mgnify::Paged<mgnify::v1::Sample>>);
static_assert(std::is_same_v<decltype(val<V2Client>().studies(val<mgnify::v2::StudyQuery>(),
                                                              val<mgnify::ListOptions>(),
                                                              val<CallOptions>())),
                             mgnify::Paged<mgnify::v2::Study>>);
static_assert(
    std::is_same_v<decltype(val<V2Client>().study_samples(
                       val<std::string>(), val<mgnify::ListOptions>(), val<CallOptions>())),
                   mgnify::Paged<mgnify::v2::SampleWithMetadata>>);
// The options between the ids and the CallOptions may be left out, in every client:
// (ids..., call) for a list, a batch and v2's genome lookup, (ids..., filters, call) for a
// list with filters.
static_assert(std::is_same_v<decltype(val<LegacyClient>().study_samples(val<std::string>(),
                                                                        val<CallOptions>())),
                             mgnify::Paged<mgnify::v1::Sample>>);
static_assert(std::is_same_v<decltype(val<LegacyClient>().study_samples(
                                 val<std::string>(), val<mgnify::v1::Query>(), val<CallOptions>())),
                             mgnify::Paged<mgnify::v1::Sample>>);
static_assert(std::is_same_v<decltype(val<V2Client>().genome_catalogues(val<CallOptions>())),
                             mgnify::Paged<mgnify::v2::GenomeCatalogue>>);
static_assert(
    std::is_same_v<decltype(val<V2Client>().genome(val<std::string>(), val<CallOptions>())),
                   mgnify::v2::GenomeDetail>);
static_assert(std::is_same_v<decltype(val<V2Client>().get_studies(val<std::vector<std::string>>(),
                                                                  val<CancelToken>())),
                             std::vector<mgnify::Result<mgnify::v2::StudyDetail>>>);
static_assert(std::is_same_v<decltype(val<ProteinClient>().get_proteins(
                                 val<std::vector<std::string>>(), val<CallOptions>())),
                             std::vector<mgnify::Result<mgnify::proteins::Protein>>>);
// A passed deadline is one error type whatever the call, and still a timeout.
static_assert(std::is_base_of_v<mgnify::TransportError, mgnify::DeadlineExceededError>);
// No options struct carries a token of its own beside the call's.
template <class Options, class = void>
struct has_cancel_member : std::false_type {};
template <class Options>
struct has_cancel_member<Options, std::void_t<decltype(&Options::cancel)>> : std::true_type {};
static_assert(!has_cancel_member<BatchOptions>::value);
static_assert(!has_cancel_member<files::DownloadOptions>::value);
static_assert(!has_cancel_member<http::StreamOptions>::value);
static_assert(!has_cancel_member<mgnify::JobWaitOptions>::value);
static_assert(!has_cancel_member<mgnify::ListOptions>::value);
static_assert(has_cancel_member<CallOptions>::value);

mgnify::ClientOptions offline() {
  mgnify::ClientOptions o;
  o.base_url = "http://127.0.0.1:9/api";  // nothing is sent in this test
  return o;
}

}  // namespace

TEST_CASE("the three clients are their shared part, over the session they were given",
          "[core][client-shape]") {
  const ProteinClient proteins(offline());
  const LegacyClient legacy(offline());
  const V2Client v2(offline());
  for (const ServiceVerbs* verbs : std::vector<const ServiceVerbs*>{&proteins, &legacy, &v2}) {
    CHECK(verbs->base_url() == "http://127.0.0.1:9/api");
  }
  // The part and the client reach one session: a token set through it is the client's.
  const auto session = std::make_shared<http::Session>(mgnify::with_default_transport(offline()),
                                                       mgnify::v2::defaults::kBaseUrl);
  V2Client shared(session);
  const ServiceVerbs& part = shared;
  CHECK(&part.session() == session.get());
  shared.set_token(std::string("abc"));
  CHECK(part.session().token() == std::optional<std::string>("abc"));
  CHECK_THROWS_AS(V2Client(std::shared_ptr<http::Session>()), mgnify::InvalidArgument);
  CHECK_THROWS_AS(LegacyClient(std::shared_ptr<http::Session>()), mgnify::InvalidArgument);
  CHECK_THROWS_AS(ProteinClient(std::shared_ptr<http::Session>()), mgnify::InvalidArgument);
}
