#pragma once

// CountedPage<T>: the v2 list envelope as sent, {"count": <total>, "items":
// [...]}. No links: the next page is derived from count and page_size (see
// V2Client's pager), which is why it is called counted. A walk hands out its
// pages as mgnify::Page<T> (mgnify/page.hpp).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

template <class T>
struct CountedPage {
  std::int64_t count = 0;
  std::vector<T> items;
  /// The envelope's members as sent, `items` left out (each item keeps its
  /// own raw): members the SDK does not know survive a round trip.
  RawJson raw{};
};

template <class T>
void from_json(const nlohmann::json& j, CountedPage<T>& page) {
  if (!j.is_object()) {
    throw DecodeError("", "", std::string("expected a {count, items} page, got ") + j.type_name());
  }
  mgnify::detail::read_required(j, "count", page.count);
  auto it = j.find("items");
  if (it == j.end() || !it->is_array()) {
    throw DecodeError("/items", "", "required list is missing");
  }
  page.items.clear();
  page.items.reserve(it->size());
  for (std::size_t i = 0; i < it->size(); ++i) {
    page.items.push_back(mgnify::detail::convert_at<T>((*it)[i], "/items/" + std::to_string(i)));
  }
  nlohmann::json envelope = nlohmann::json::object();
  for (auto member = j.begin(); member != j.end(); ++member) {
    if (member.key() != "items") envelope[member.key()] = *member;
  }
  page.raw = std::move(envelope);
}

template <class T>
void to_json(nlohmann::json& j, const CountedPage<T>& page) {
  j = page.raw.is_object() ? page.raw.json() : nlohmann::json::object();
  mgnify::detail::JsonFieldWriter{j}.required("count", page.count);
  j["items"] = page.items;
}

}  // namespace v2
MGNIFY_NAMESPACE_END
