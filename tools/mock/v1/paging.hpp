#pragma once

// The v1 mock's pagination: page-number envelopes and cursor envelopes as
// DRF builds them.

#include "render.hpp"

namespace mgnify::mock::v1routes {

std::optional<long> positive_int(const std::optional<std::string>& text);

struct PageRules {
  long default_size = 25;
  long max_size = 250;
};

// A list rendered as CSV is not paginated, and refused past this many rows.
constexpr std::size_t kCsvMaxRows = 1250;
J page_envelope(const Ctx& ctx, std::size_t count, const std::function<J(std::size_t)>& item,
                PageRules rules = {}, Includes* inc = nullptr);
std::string b64encode(const std::string& in);
std::optional<std::string> b64decode(const std::string& in);
J cursor_envelope(const Ctx& ctx, const std::vector<std::string>& positions,
                  const std::function<J(std::size_t)>& item);

}  // namespace mgnify::mock::v1routes
