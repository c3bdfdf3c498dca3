#include "settings.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mgnify/cache/response_cache.hpp>
#include <mgnify/error.hpp>
#include <mgnify/files/download_errors.hpp>
#include <mgnify/tables/table.hpp>

namespace mgnify_cli {

const char* service_env_var(Service service) {
  switch (service) {
    case Service::proteins:
      return "MGNIFY_PROTEINS_URL";
    case Service::v1:
      return "MGNIFY_API_V1_URL";
    case Service::v2:
      return "MGNIFY_API_V2_URL";
  }
  return "";
}

bool is_environment_variable_name(std::string_view text) {
  // POSIX portable names, bounded so that a long token of only letters and
  // digits is still not taken for one.
  constexpr std::size_t kLongestName = 64;
  if (text.empty() || text.size() > kLongestName) return false;
  const auto is_letter = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  };
  if (!is_letter(text.front())) return false;
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return is_letter(c) || (c >= '0' && c <= '9'); });
}

mgnify::ClientOptions client_options(const Settings& settings, Service service) {
  mgnify::ClientOptions options;
  if (!settings.base_url.empty()) {
    options.base_url = settings.base_url;
  } else if (const char* env = std::getenv(service_env_var(service)); env && *env) {
    options.base_url = env;
  }
  if (!settings.token_env.empty()) {
    // Users pass `--token-env "$TOKEN"` by mistake, and then the argument is
    // the secret itself: only what could be a variable's name is ever echoed.
    if (!is_environment_variable_name(settings.token_env)) {
      throw UsageError(
          "--token-env takes the name of an environment variable, and its argument looks like "
          "a value (a token?), so it is not shown; use e.g. MGNIFY_TOKEN=... mgnify "
          "--token-env MGNIFY_TOKEN ...");
    }
    const char* token = std::getenv(settings.token_env.c_str());
    if (!token || !*token) {
      throw UsageError("--token-env: environment variable " + settings.token_env +
                       " is not set or empty");
    }
    options.token = std::string(token);
  }
  if (settings.retries) options.retry.max_attempts = *settings.retries;
  if (settings.timeout_seconds) {
    options.request_timeout =
        std::chrono::milliseconds(static_cast<long long>(*settings.timeout_seconds * 1000));
  }
  if (settings.rate_limit) {
    if (*settings.rate_limit == 0) {
      options.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    } else {
      options.rate_limit.requests_per_second = *settings.rate_limit;
    }
  }
  if (settings.rate_burst) options.rate_limit.burst = *settings.rate_burst;
  std::string cache_dir = settings.cache_dir;
  if (const char* env = std::getenv(kCacheDirEnvVar); cache_dir.empty() && env && *env) {
    cache_dir = env;
  }
  if (!cache_dir.empty()) {
    mgnify::CacheOptions cache;
    cache.directory = cache_dir;
    if (settings.cache_ttl_seconds) cache.ttl = std::chrono::seconds(*settings.cache_ttl_seconds);
    try {
      options.cache = std::make_shared<mgnify::ResponseCache>(std::move(cache));
    } catch (const mgnify::FileError& e) {
      // A directory the user gave (or named in the environment) that cannot
      // be used is a mistake in the input, like an empty one.
      const std::string source = settings.cache_dir.empty() ? kCacheDirEnvVar : "--cache";
      throw UsageError(source + ": " + e.what());
    }
  } else if (settings.cache_ttl_seconds) {
    throw UsageError("--cache-ttl applies only with --cache or " + std::string(kCacheDirEnvVar));
  }
  options.user_agent_suffix = "mgnify-cli";
  return options;
}

void check_output_settings(const Settings& settings) {
  // JSON keeps whole records; a selection the user asked for must not be dropped silently.
  if (!settings.columns.empty() && settings.format != Format::tsv) {
    throw UsageError("--columns applies to --format tsv only");
  }
}

int exit_code_for(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const UsageError&) {
    return kUsage;
  } catch (const mgnify::InvalidArgument&) {
    return kUsage;
  } catch (const mgnify::NotFoundError&) {
    return kNotFound;
  } catch (const NothingMatched&) {
    return kNotFound;
  } catch (const mgnify::AuthError&) {
    return kAuth;
  } catch (const mgnify::ValidationError&) {
    // The service rejected a parameter the user gave.
    return kUsage;
  } catch (const mgnify::RateLimitedError&) {
    return kUnavailable;
  } catch (const mgnify::ServerError& e) {
    // Gateway and maintenance answers mean "try later"; a 500 is a bug somewhere.
    const int s = e.status();
    return s == 502 || s == 503 || s == 504 ? kUnavailable : kOther;
  } catch (const mgnify::TransportError& e) {
    // A handshake that fails (https:// to a plain-HTTP server, a certificate
    // that does not verify) fails the same way later: not a "retry later".
    return e.kind() == mgnify::TransportError::Kind::tls ? kOther : kUnavailable;
  } catch (...) {
    return kOther;
  }
}

std::string error_message(const std::exception& error) {
  if (const auto* limit = dynamic_cast<const mgnify::tables::TableLimitError*>(&error)) {
    const std::string option = limit->limit() == "max_columns" ? "--max-columns" : "--max-cells";
    return "the table would have " + std::to_string(limit->needed()) +
           (limit->limit() == "max_columns" ? " columns" : " cells") + ", more than " + option +
           " (" + std::to_string(limit->bound()) + "); raise " + option + " to write it";
  }
  const auto* transport = dynamic_cast<const mgnify::TransportError*>(&error);
  if (!transport || transport->kind() != mgnify::TransportError::Kind::tls) return error.what();
  return "TLS failure for " + transport->url() + ": " + transport->detail() +
         "; check the base URL (https:// to a plain-HTTP server?) and the server's certificate";
}

const std::vector<ExitCodeMeaning>& exit_code_table() {
  static const std::vector<ExitCodeMeaning> table = {
      {kOk, "success"},
      {kOther,
       "any other failure (undecodable response, checksum or size mismatch, local file error, "
       "HTTP 500, a TLS failure: check the base URL, a table past --max-columns or "
       "--max-cells)"},
      {kUsage,
       "bad usage: unknown option, malformed accession, value out of range, unset --token-env "
       "variable, or a parameter the service rejected (400/422)"},
      {kNotFound,
       "not found (404), a -p/-g filter that matched no file, or files that no API "
       "publishes a URL for"},
      {kAuth, "authentication or permission failure (401/403)"},
      {kUnavailable,
       "throttled or unavailable after retries: 429, 502/503/504, network failure or timeout; "
       "a genome gather job still running after --wait"},
      {kInterrupted,
       "interrupted by Ctrl-C (SIGINT; 143 for SIGTERM); download first reports what is done "
       "and what is left, and the same command resumes; genome gather names the job that "
       "--job collects later"},
  };
  return table;
}

const std::vector<std::string>& environment_notes() {
  static const std::vector<std::string> notes = {
      "Base URLs: --base-url, else MGNIFY_PROTEINS_URL / MGNIFY_API_V1_URL / MGNIFY_API_V2_URL, "
      "else the public services.",
      "Response cache: --cache DIR, else MGNIFY_CACHE_DIR; a directory of your own that group "
      "and others cannot write to. Only successful GET responses without a token are kept.",
      "Tokens are read from the environment variable named by --token-env and are never "
      "printed."};
  return notes;
}

std::string exit_code_help() {
  std::string text = "Exit codes:\n";
  for (const auto& row : exit_code_table()) {
    text += "  " + std::to_string(row.code) + "  " + row.meaning + "\n";
  }
  text += "\n";
  for (const auto& note : environment_notes()) text += note + "\n";
  return text;
}

}  // namespace mgnify_cli
