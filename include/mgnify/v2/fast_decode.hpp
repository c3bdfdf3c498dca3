#pragma once

// Fast (simdjson) decoders of v2 pages ({count, items}). Every v2 model has a
// field table and is read through it (detail/fast_json.hpp, FieldTableReader).
// Same structs as from_json; see detail/fast_json.hpp for the fallback contract.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/detail/fast_json.hpp"
#include "mgnify/v2/analyses.hpp"
#include "mgnify/v2/assemblies.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/downloads.hpp"
#include "mgnify/v2/page.hpp"
#include "mgnify/v2/runs.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {
namespace fast {

/// An enum keeps the text it came from; every download of a v2 page has two,
/// and decoding them through a nlohmann value cost a tenth of a page's decode.
template <class E>
struct Value<mgnify::v2::Enumerated<E>> {
  static constexpr bool enabled = true;
  static void read(od::value v, mgnify::v2::Enumerated<E>& out) {
    out = mgnify::v2::Enumerated<E>::parse(std::string(take(v.get_string())));
  }
};

/// A v2 page: each item owns a copy of its own text.
template <class T>
struct Document<mgnify::v2::CountedPage<T>> {
  static constexpr bool enabled = true;
  static void read(od::document& doc, std::string_view body, mgnify::v2::CountedPage<T>& out) {
    std::string_view text;
    od::object root = open_root(doc, body, text);
    bool has_count = false;
    bool has_items = false;
    const Source none;
    nlohmann::json envelope = nlohmann::json::object();
    for (auto f : root) {
      od::field field = take(std::move(f));
      const std::string_view key = take(field.unescaped_key());
      od::value v = field.value();
      if (key == "count") {
        required_field(v, out.count, none, has_count);
        envelope["count"] = out.count;
      } else if (key == "items") {
        has_items = true;
        out.items.clear();
        od::array items = take(v.get_array());
        for (auto e : items) {
          od::value item = take(std::move(e));
          T& model = out.items.emplace_back();
          if constexpr (Model<T>::enabled) {
            const ObjectText text(item);
            ItemSource src(text);
            Model<T>::read(take(item.get_object()), text, src.source(), model);
            src.keep(text.after_read());
          } else {
            fast::read(item, model, none);
          }
        }
      } else {
        envelope[std::string(key)] = to_nlohmann(v);
      }
    }
    if (!has_count || !has_items) throw Fallback{};
    out.raw = std::move(envelope);
  }
};

}  // namespace fast
}  // namespace detail
MGNIFY_NAMESPACE_END
