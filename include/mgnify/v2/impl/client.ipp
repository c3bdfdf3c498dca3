#pragma once

// Bodies of V2Client and download_job (mgnify/v2/client.hpp): construction, sessions, tokens,
// downloads and text. The calls on studies, samples and runs are in impl/client_studies.ipp,
// assemblies, analyses, biomes, publications and super studies in impl/client_analyses.ipp, genomes
// in impl/client_genomes.ipp: apart so that the compiled library builds them in other units
// (include/mgnify/impl/units/), in parallel and in less memory.

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

namespace mgnify {
inline namespace v0 {
namespace v2 {

MGNIFY_DECL files::DownloadJob download_job(const DownloadFile& file, std::filesystem::path path,
                                            files::DownloadOptions options) {
  if (!file.has_url()) throw InvalidArgument("download '" + file.alias + "' has no url");
  if (!options.expected_size && file.file_size_bytes && *file.file_size_bytes >= 0) {
    options.expected_size = static_cast<std::uint64_t>(*file.file_size_bytes);
  }
  return files::DownloadJob{*file.url, std::move(path), std::move(options)};
}

MGNIFY_DECL V2Client::V2Client(ClientOptions options, V2Options v2)
    : state_(std::make_shared<State>(
          std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                          defaults::kBaseUrl),
          v2)) {}

MGNIFY_DECL V2Client::V2Client(std::shared_ptr<http::Session> session, V2Options v2)
    : state_(std::make_shared<State>(require(std::move(session)), v2)) {}

MGNIFY_DECL http::Session& V2Client::session() const noexcept { return *state_->session; }
MGNIFY_DECL std::shared_ptr<http::Session> V2Client::shared_session() const noexcept {
  return state_->session;
}
MGNIFY_DECL const std::string& V2Client::base_url() const noexcept {
  return state_->session->base_url();
}

// ---- private helpers ---------------------------------------------------------

MGNIFY_DECL mgnify::detail::GenomeSearchCalls V2Client::genome_search_calls() const {
  return mgnify::detail::GenomeSearchCalls(*state_->session, mgnify::detail::kV2GenomeSearch);
}

MGNIFY_DECL std::shared_ptr<http::Session> V2Client::require(
    std::shared_ptr<http::Session> session) {
  if (!session) throw InvalidArgument("V2Client needs a session");
  return session;
}

MGNIFY_DECL bool V2Client::valid_webin_username(const std::string& username) {
  std::string rest = username;
  if (rest.rfind("mg-", 0) == 0) rest = rest.substr(3);
  if (rest.rfind("Webin-", 0) != 0 || rest.size() == 6) return false;
  for (std::size_t i = 6; i < rest.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(rest[i]))) return false;
  }
  return true;
}

MGNIFY_DECL std::int64_t V2Client::resume_page(const std::string& token) {
  // A v2 token is the number of the page that failed.
  const std::optional<std::int64_t> page = mgnify::detail::parse_positive_integer(token);
  if (!page) {
    throw InvalidArgument("ListOptions::resume_token '" + token +
                          "' is not a page of a v2 list (a page number)");
  }
  return *page;
}

MGNIFY_DECL std::string V2Client::segment(const std::string& value) {
  return http::encode_path_segment(value);
}
MGNIFY_DECL std::string V2Client::sub(const char* head, const std::string& id, const char* tail) {
  return head + segment(id) + tail;
}
// ---- auth ----------------------------------------------------------------------

MGNIFY_DECL TokenResponse V2Client::login(const std::string& username,
                                          const std::string& password) {
  if (!valid_webin_username(username)) {
    throw InvalidArgument(
        "username must be a Webin account ('Webin-<digits>' or "
        "'mg-Webin-<digits>'), got '" +
        username + "'");
  }
  if (password.empty()) throw InvalidArgument("password must not be empty");
  http::CallOptions call;
  call.send_token = false;
  const auto response = state_->session->post_json(
      state_->session->url("auth/sliding"), {{"username", username}, {"password", password}}, call);
  auto token = mgnify::detail::decode_response<TokenResponse>(response);
  state_->session->set_token(token.token);
  return token;
}

MGNIFY_DECL TokenResponse V2Client::refresh() {
  const auto current = state_->session->token();
  if (!current) throw InvalidArgument("refresh() needs a token: call login() or set_token() first");
  auto token = State::refresh_token(*state_->session, *current);
  state_->session->set_token(token.token);
  return token;
}

MGNIFY_DECL bool V2Client::verify() const {
  const auto current = state_->session->token();
  if (!current) throw InvalidArgument("verify() needs a token: call login() or set_token() first");
  http::CallOptions call;
  call.send_token = false;
  try {
    state_->session->post_json(state_->session->url("auth/verify"), {{"token", *current}}, call);
    return true;
  } catch (const AuthError& e) {
    if (e.status() == 401) return false;
    throw;
  }
}

MGNIFY_DECL void V2Client::set_token(std::optional<std::string> token) {
  state_->session->set_token(std::move(token));
}
MGNIFY_DECL void V2Client::logout() { state_->session->set_token(std::nullopt); }
MGNIFY_DECL bool V2Client::logged_in() const { return state_->session->has_token(); }

// ---- files ---------------------------------------------------------------------

MGNIFY_DECL files::DownloadResult V2Client::download(const std::string& url,
                                                     const std::filesystem::path& path,
                                                     const files::DownloadOptions& options,
                                                     const CallOptions& call) const {
  files::DownloadOptions joined = options;
  joined.cancel = mgnify::detail::joined(options.cancel, call);
  return files::download(*state_->session, url, path, joined);
}
MGNIFY_DECL files::DownloadResult V2Client::download(const DownloadFile& file,
                                                     const std::filesystem::path& path,
                                                     files::DownloadOptions options,
                                                     const CallOptions& call) const {
  files::DownloadJob job = download_job(file, path, std::move(options));
  return download(job.url, job.path, job.options, call);
}
MGNIFY_DECL std::vector<Result<files::DownloadResult>> V2Client::download_many(
    const std::vector<files::DownloadJob>& jobs, const BatchOptions& batch,
    files::BatchProgressCallback bytes_progress, const CallOptions& call) const {
  BatchOptions joined = batch;
  joined.cancel = mgnify::detail::joined(batch.cancel, call);
  return files::download_many(*state_->session, jobs, joined, std::move(bytes_progress));
}

// ---- the service's description and text bodies ---------------------------------

MGNIFY_DECL nlohmann::json V2Client::openapi(const CallOptions& call) const {
  const auto response =
      state_->session->get(state_->session->url("openapi.json"), http::per_call(call));
  return mgnify::detail::parse_body(response.body, response.url);
}
MGNIFY_DECL std::string V2Client::openapi_text(const CallOptions& call) const {
  return http::read_text(*state_->session, state_->session->url("openapi.json"), http::media::kJson,
                         call)
      .text;
}
MGNIFY_DECL http::TextBody V2Client::read_text(const std::string& url, const std::string& accept,
                                               const CallOptions& call) const {
  return http::read_text(*state_->session, url, accept, call);
}
MGNIFY_DECL http::StreamResult V2Client::stream_text(const std::string& url,
                                                     const http::BodySink& sink,
                                                     const std::string& accept,
                                                     const http::StreamOptions& options,
                                                     const CallOptions& call) const {
  return http::stream_text(*state_->session, url, accept, sink, options, call);
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
