#pragma once

// What a login answers, for every client that has one: v2 (auth/sliding and
// auth/sliding/refresh) and v1 (utils/token/obtain).

#include <nlohmann/json.hpp>
#include <string>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {

struct TokenResponse {
  /// A sliding JWT, sent back as "Authorization: Bearer <token>". Never logged.
  std::string token;
  /// "Bearer" where the service says (v2); empty where it does not (v1).
  std::string token_type;
};

inline void from_json(const nlohmann::json& j, TokenResponse& t) {
  mgnify::detail::expect_object(j, "token");
  mgnify::detail::read_required(j, "token", t.token);
  mgnify::detail::read_or_keep(j, "token_type", t.token_type);
}

/// The token is redacted: to_json output ends up in logs and debug dumps, and
/// a bearer token there is a credential leak. Keep `t.token` itself to store it.
inline constexpr const char* kRedactedToken = "<redacted>";
inline void to_json(nlohmann::json& j, const TokenResponse& t) {
  j = nlohmann::json{{"token", kRedactedToken}, {"token_type", t.token_type}};
}

}  // namespace v0
}  // namespace mgnify
