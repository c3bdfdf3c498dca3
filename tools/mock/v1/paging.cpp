#include "paging.hpp"

namespace mgnify::mock::v1routes {

std::optional<long> positive_int(const std::optional<std::string>& text) {
  if (!text || text->empty() || text->size() > 9) return std::nullopt;
  long v = 0;
  for (char c : *text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v <= 0) return std::nullopt;
  return v;
}

J page_envelope(const Ctx& ctx, std::size_t count, const std::function<J(std::size_t)>& item,
                PageRules rules, Includes* inc) {
  const bool csv = ctx.param("format") == std::optional<std::string>("csv");
  if (csv && count > kCsvMaxRows) {
    throw HttpError{413, error_body("The requested data is too long to be returned as a single "
                                    "CSV. Please use the API to fetch paginated data.",
                                    "413", "payload_too_large", std::string("/data"))};
  }
  const long size =
      csv ? std::max<long>(1, static_cast<long>(count))
          : std::min(positive_int(ctx.param("page_size")).value_or(rules.default_size),
                     rules.max_size);
  const long pages = count == 0 ? 1
                                : static_cast<long>((count + static_cast<std::size_t>(size) - 1) /
                                                    static_cast<std::size_t>(size));
  long page = 1;
  if (auto p = ctx.param("page")) {
    if (*p == "last") {
      page = pages;
    } else {
      auto v = positive_int(p);
      if (!v || *v > pages) not_found("Invalid page.");
      page = *v;
    }
  }
  J data = J::array();
  const std::size_t begin = static_cast<std::size_t>((page - 1) * size);
  const std::size_t end = std::min(count, begin + static_cast<std::size_t>(size));
  for (std::size_t i = begin; i < end; ++i) data.push_back(item(i));
  auto link = [&](long n) {
    return n < 1 ? J(nullptr) : J(ctx.link_with("page", std::to_string(n)));
  };
  J out;
  out["links"] = {{"first", link(1)},
                  {"last", link(pages)},
                  {"next", link(page < pages ? page + 1 : 0)},
                  {"prev", link(page - 1)}};
  out["data"] = std::move(data);
  if (inc && !inc->included.empty()) out["included"] = inc->included;
  out["meta"] = {{"pagination", {{"page", page}, {"pages", pages}, {"count", count}}}};
  return out;
}

std::string b64encode(const std::string& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                       (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], t[v & 63]};
  }
  if (i + 1 == in.size()) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += {t[v >> 18], t[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    const unsigned v =
        (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], '='};
  }
  return out;
}
std::optional<std::string> b64decode(const std::string& in) {
  std::string out;
  unsigned buf = 0;
  int bits = 0;
  for (char c : in) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+' || c == '-')
      v = 62;
    else if (c == '/' || c == '_')
      v = 63;
    else if (c == '=')
      break;
    else
      return std::nullopt;
    buf = (buf << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buf >> bits) & 0xFF));
    }
  }
  return out;
}

// DRF CursorPagination over `positions` (ascending): the cursor is base64 of
// "p=<position>" (forward, after it) or "r=1&p=<position>" (reverse, before it).
J cursor_envelope(const Ctx& ctx, const std::vector<std::string>& positions,
                  const std::function<J(std::size_t)>& item) {
  const std::size_t size =
      static_cast<std::size_t>(positive_int(ctx.param("page_size")).value_or(25));
  std::size_t begin = 0;
  if (auto cursor = ctx.param("cursor")) {
    auto decoded = b64decode(*cursor);
    std::string position;
    bool reverse = false;
    if (decoded) {
      std::string rest = *decoded;
      if (rest.rfind("r=1&", 0) == 0) {
        reverse = true;
        rest = rest.substr(4);
      }
      if (rest.rfind("p=", 0) == 0) position = rest.substr(2);
    }
    if (position.empty()) not_found("Invalid cursor");
    auto it = std::lower_bound(positions.begin(), positions.end(), position);
    if (reverse) {
      const std::size_t before = static_cast<std::size_t>(it - positions.begin());
      begin = before > size ? before - size : 0;
    } else {
      begin = static_cast<std::size_t>(
          std::upper_bound(positions.begin(), positions.end(), position) - positions.begin());
    }
  }
  const std::size_t end = std::min(positions.size(), begin + size);
  J data = J::array();
  for (std::size_t i = begin; i < end; ++i) data.push_back(item(i));
  J next = nullptr, prev = nullptr;
  if (end < positions.size() && end > begin)
    next = ctx.link_with("cursor", b64encode("p=" + positions[end - 1]));
  if (begin > 0 && begin < positions.size())
    prev = ctx.link_with("cursor", b64encode("r=1&p=" + positions[begin]));
  J out;
  out["links"] = {{"next", next}, {"prev", prev}};
  out["data"] = std::move(data);
  out["meta"] = {{"pagination", {{"count", positions.size()}}}};
  return out;
}

}  // namespace mgnify::mock::v1routes
