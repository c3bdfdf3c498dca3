#pragma once

// The v2 list envelope: {"count": <total>, "items": [...]}. No links: the next
// page is derived from count and page_size (see V2Client's pager).

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

template <class T>
struct Page {
  std::int64_t count = 0;
  std::vector<T> items;
};

template <class T>
void from_json(const nlohmann::json& j, Page<T>& page) {
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
}

template <class T>
void to_json(nlohmann::json& j, const Page<T>& page) {
  j = nlohmann::json{{"count", page.count}, {"items", page.items}};
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
