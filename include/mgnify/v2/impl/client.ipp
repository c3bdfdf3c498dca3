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

MGNIFY_DECL V2Client::V2Client(ClientOptions options, V2Options v2)
    : V2Client(std::make_shared<http::Session>(with_default_transport(std::move(options)),
                                               defaults::kBaseUrl),
               v2) {}

MGNIFY_DECL V2Client::V2Client(std::shared_ptr<http::Session> session, V2Options v2)
    : ServiceVerbs(session),
      GenomeSearchVerbs<GenomeSearchResult>(session, mgnify::detail::kV2GenomeSearch),
      state_(std::make_shared<State>(session, v2)) {}

// ---- private helpers ---------------------------------------------------------

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

MGNIFY_DECL TokenResponse V2Client::login(const std::string& username, const std::string& password,
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

MGNIFY_DECL TokenResponse V2Client::refresh(const CallOptions& call) {
  const auto current = state_->session->token();
  if (!current) throw InvalidArgument("refresh() needs a token: call login() or set_token() first");
  auto token = State::refresh_token(*state_->session, *current, call);
  state_->session->set_token(token.token);
  return token;
}

MGNIFY_DECL bool V2Client::verify(const CallOptions& call) const {
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

MGNIFY_DECL void V2Client::set_token(std::optional<std::string> token) {
  state_->session->set_token(std::move(token));
}
MGNIFY_DECL void V2Client::logout() { state_->session->set_token(std::nullopt); }
MGNIFY_DECL bool V2Client::logged_in() const { return state_->session->has_token(); }

// ---- files ---------------------------------------------------------------------

MGNIFY_DECL files::DownloadResult V2Client::download(const DownloadFile& file,
                                                     const std::filesystem::path& path,
                                                     files::DownloadOptions options,
                                                     const CallOptions& call) const {
  files::DownloadJob job = download_job(file, path, std::move(options));
  return download(job.url, job.path, job.options, call);
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

}  // namespace v2
MGNIFY_NAMESPACE_END
