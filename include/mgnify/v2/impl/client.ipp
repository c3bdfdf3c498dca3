#pragma once

// Bodies of V2Client and download_job (mgnify/v2/client.hpp): construction, sessions, tokens,
// downloads and text. The calls on studies, samples and runs are in impl/client_studies.ipp,
// assemblies, analyses, biomes, publications and super studies in impl/client_analyses.ipp, genomes
// in impl/client_genomes.ipp: apart only to keep each file readable; the compiled library builds
// the members in one unit and the walks and decoders of each area's models in another
// (include/mgnify/impl/units/v2.hpp).

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
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/v2/client.hpp"
#include "mgnify/v2/fast_decode.hpp"
#include "mgnify/v2/impl/client_walks.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

MGNIFY_DECL files::DownloadJob download_job(const DownloadFile& file, std::filesystem::path path,
                                            files::DownloadOptions options) {
  if (!file.has_url()) throw InvalidArgument("download '" + file.alias + "' has no url");
  if (!options.expected_size && file.file_size_bytes && *file.file_size_bytes >= 0) {
    options.expected_size = static_cast<std::uint64_t>(*file.file_size_bytes);
  }
  return files::DownloadJob{*file.url, std::move(path), std::move(options)};
}

template <class D>
BasicV2Client<D>::BasicV2Client(ClientOptions options, V2Options v2)
    : BasicV2Client(std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                                    defaults::kBaseUrl),
                    v2) {}

template <class D>
BasicV2Client<D>::BasicV2Client(std::shared_ptr<http::Session> session, V2Options v2)
    : ServiceVerbs(session),
      GenomeSearchVerbs<GenomeSearchResult>(session, mgnify::detail::kV2GenomeSearch),
      state_(std::make_shared<State>(session, v2)) {}

// ---- private helpers ---------------------------------------------------------

template <class D>
bool BasicV2Client<D>::valid_webin_username(const std::string& username) {
  std::string rest = username;
  if (rest.rfind("mg-", 0) == 0) rest = rest.substr(3);
  if (rest.rfind("Webin-", 0) != 0 || rest.size() == 6) return false;
  for (std::size_t i = 6; i < rest.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(rest[i]))) return false;
  }
  return true;
}

template <class D>
std::int64_t BasicV2Client<D>::resume_page(const std::string& token) {
  // A v2 token is the number of the page that failed.
  const std::optional<std::int64_t> page = mgnify::detail::parse_positive_integer(token);
  if (!page) {
    throw InvalidArgument("ListOptions::resume_token '" + token +
                          "' is not a page of a v2 list (a page number)");
  }
  return *page;
}

template <class D>
std::string BasicV2Client<D>::segment(const std::string& value) {
  return http::encode_path_segment(value);
}
template <class D>
std::string BasicV2Client<D>::sub(const char* head, const std::string& id, const char* tail) {
  return head + segment(id) + tail;
}
// ---- auth ----------------------------------------------------------------------

template <class D>
TokenResponse BasicV2Client<D>::login(const std::string& username, const std::string& password,
                                      const CallOptions& call) {
  if (!valid_webin_username(username)) {
    throw InvalidArgument(
        "username must be a Webin account ('Webin-<digits>' or "
        "'mg-Webin-<digits>'), got '" +
        username + "'");
  }
  if (password.empty()) throw InvalidArgument("password must not be empty");
  http::RequestOptions request = http::per_call(call);
  request.send_token = false;
  const auto response =
      state_->session->post_json(state_->session->url("auth/sliding"),
                                 {{"username", username}, {"password", password}}, request);
  auto token = mgnify::detail::decode_response<TokenResponse>(response);
  state_->session->set_token(token.token);
  return token;
}

template <class D>
TokenResponse BasicV2Client<D>::refresh(const CallOptions& call) {
  const auto current = state_->session->token();
  if (!current) throw InvalidArgument("refresh() needs a token: call login() or set_token() first");
  auto token = State::refresh_token(*state_->session, *current, call);
  state_->session->set_token(token.token);
  return token;
}

template <class D>
bool BasicV2Client<D>::verify(const CallOptions& call) const {
  const auto current = state_->session->token();
  if (!current) throw InvalidArgument("verify() needs a token: call login() or set_token() first");
  http::RequestOptions request = http::per_call(call);
  request.send_token = false;
  try {
    state_->session->post_json(state_->session->url("auth/verify"), {{"token", *current}}, request);
    return true;
  } catch (const AuthError& e) {
    if (e.status() == 401) return false;
    throw;
  }
}

template <class D>
void BasicV2Client<D>::set_token(std::optional<std::string> token) {
  state_->session->set_token(std::move(token));
}
template <class D>
void BasicV2Client<D>::logout() {
  state_->session->set_token(std::nullopt);
}
template <class D>
bool BasicV2Client<D>::logged_in() const {
  return state_->session->has_token();
}

// ---- files ---------------------------------------------------------------------

template <class D>
files::DownloadResult BasicV2Client<D>::download(const DownloadFile& file,
                                                 const std::filesystem::path& path,
                                                 files::DownloadOptions options,
                                                 const CallOptions& call) const {
  files::DownloadJob job = download_job(file, path, std::move(options));
  return download(job.url, job.path, job.options, call);
}

// ---- the service's description and text bodies ---------------------------------

template <class D>
nlohmann::json BasicV2Client<D>::openapi(const CallOptions& call) const {
  const auto response =
      state_->session->get(state_->session->url("openapi.json"), http::per_call(call));
  return mgnify::detail::parse_body(response.body, response.url);
}
template <class D>
std::string BasicV2Client<D>::openapi_text(const CallOptions& call) const {
  return http::read_text(*state_->session, state_->session->url("openapi.json"), http::media::kJson,
                         call)
      .text;
}

}  // namespace v2
MGNIFY_NAMESPACE_END
