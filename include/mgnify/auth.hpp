#pragma once

// What a login answers, for every client that has one: v2 (auth/sliding and
// auth/sliding/refresh) and v1 (utils/token/obtain).

#include <nlohmann/json.hpp>
#include <string>

#include "mgnify/detail/fields.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

struct TokenResponse {
  /// A sliding JWT, sent back as "Authorization: Bearer <token>". Never logged.
  std::string token;
  /// "Bearer" where the service says (v2); empty where it does not (v1).
  std::string token_type;
  /// The answer as received, token included: members this SDK does not name
  /// are kept, and token_type stays absent where the service left it out.
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("token", self.token);
    v.defaulted("token_type", self.token_type);
  }
};

inline void from_json(const nlohmann::json& j, TokenResponse& t) {
  mgnify::detail::read_fields(j, t, "token");
}

/// The token is redacted: to_json output ends up in logs and debug dumps, and
/// a bearer token there is a credential leak. Keep `t.token` itself to store it.
inline constexpr const char* kRedactedToken = "<redacted>";
inline void to_json(nlohmann::json& j, const TokenResponse& t) {
  mgnify::detail::write_fields(j, t);
  j["token"] = kRedactedToken;
}

MGNIFY_NAMESPACE_END
