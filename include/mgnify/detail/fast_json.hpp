#pragma once

// The fast decoding path: simdjson On-Demand straight into the models.
//
// Why simdjson: no nlohmann-based path (DOM, or a no-op SAX pass) decodes
// as fast as a Python client parses the same bytes (docs/performance.md has
// the measurements, BENCHMARKS.md the current figures). simdjson's
// On-Demand API finds the structure of a page in one vectorised pass and lets the decoder read only
// the fields it names; every object keeps its own text (raw_json()) in a RawJson that is parsed by
// nlohmann only if the caller reads `raw`.
//
// The fast decoders cover the hot documents (v1 list pages, v2 pages of the
// list models, protein records) and accept only the common shape. Anything
// else -- a type mismatch, a missing required field, a number out of range,
// invalid JSON -- throws Fallback, and decode_body() decodes the same bytes
// again through nlohmann and the models' from_json, which produces either the
// identical struct or the precise DecodeError (JSON path, URL). Both paths are
// compared field by field on every mock page and fixture file by the
// differential tests (tests/v1, v2 and proteins fast_decode_test.cpp).
//
// A name repeated within one object is valid JSON; nlohmann keeps its last
// value. Every fast reader therefore sets its whole target from the value in
// hand (clearing a map, resetting an optional or a nested struct first) and
// never merges into what an earlier occurrence left, so the last one wins
// here too (fuzz/divergences/ holds documents where a merge would differ).
//
// On-Demand validates only the values it reads. The readers therefore read
// every value of the document once, including those no model names (through
// validate()), so that one pass both decodes and validates: a document with a
// malformed value anywhere goes to the nlohmann path and fails there.

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/detail/json_text.hpp"
#include "mgnify/detail/number_text.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {
namespace fast {

namespace od = simdjson::ondemand;

/// Leaves the fast path; decode_body() then decodes through nlohmann.
struct Fallback {};

template <class T>
T take(simdjson::simdjson_result<T>&& r) {
  T value{};
  if (std::move(r).get(value) != simdjson::SUCCESS) throw Fallback{};
  return value;
}

/// Where the text of the current top-level object lives. Nested objects'
/// RawJson share `owner` (see the rule in raw_json.hpp).
/// The owner may be filled after the RawJson are made (see ItemSource).
struct Source {
  std::shared_ptr<const std::string> owner;
  const char* base = nullptr;  // the owner's first byte in the parsed buffer

  RawJson raw(std::string_view sub) const {
    return RawJson::from_range(owner, static_cast<std::size_t>(sub.data() - base), sub.size());
  }
};

/// A Source owning a copy of `text`, known in advance (a root object).
inline Source own(std::string_view text) {
  Source s;
  s.owner = std::make_shared<const std::string>(text);
  s.base = text.data();
  return s;
}

inline bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Opens the root object; its text is the body without the surrounding
/// whitespace. try_decode() checks that nothing follows it.
inline od::object open_root(od::document& doc, std::string_view body, std::string_view& text) {
  od::object obj = take(doc.get_object());
  std::size_t begin = 0;
  std::size_t end = body.size();
  while (begin < end && is_json_space(body[begin])) ++begin;
  while (end > begin && is_json_space(body[end - 1])) --end;
  text = body.substr(begin, end - begin);
  return obj;
}

/// The text of an object being read: known from the start (a page item, the
/// root), or, for a nested object, found once its last field has been read,
/// so that its structure is walked once.
class ObjectText {
 public:
  explicit ObjectText(std::string_view known) : known_(known) {}
  /// `value` is the object's value, not yet opened.
  explicit ObjectText(od::value& value) : start_(value.raw_json_token().data()), value_(&value) {}

  /// The object's first byte in the parsed buffer.
  const char* start() const noexcept { return value_ ? start_ : known_.data(); }

  /// Valid once every field of the object has been read.
  std::string_view after_read() const {
    if (!value_) return known_;
    // The iterator now stands on the token after the closing brace.
    const char* end = take(value_->current_location());
    while (end > start_ && is_json_space(end[-1])) --end;
    if (end <= start_ || end[-1] != '}') throw Fallback{};
    return std::string_view(start_, static_cast<std::size_t>(end - start_));
  }

 private:
  std::string_view known_;
  const char* start_ = nullptr;
  od::value* value_ = nullptr;
};

/// A top-level item of a page, which owns a copy of its own text. Its end is
/// known only once it has been read, so the copy is made then (keep()); the
/// RawJson handed out while reading point into the copy by offset.
class ItemSource {
 public:
  explicit ItemSource(const ObjectText& text)
      : owner_(std::make_shared<std::string>()), source_{owner_, text.start()} {}
  const Source& source() const noexcept { return source_; }
  /// Copies the item's text; call once the whole item has been read.
  void keep(std::string_view text) { owner_->assign(text); }

 private:
  std::shared_ptr<std::string> owner_;
  Source source_;
};

inline bool is_null(od::value& v) { return take(v.is_null()); }

/// A number as nlohmann parses it: a non-negative integer unsigned, a negative
/// one (and "-0") signed, anything else a double; an integer past 64 bits,
/// which simdjson 3.0 declines, a double read from its text as nlohmann reads
/// it (so that a document with one stays on this path and keeps its text).
inline nlohmann::json number_value(od::value& v) {
  std::string_view token = v.raw_json_token();
  while (!token.empty() && is_json_space(token.back())) token.remove_suffix(1);
  od::number_type type{};
  if (v.get_number_type().get(type) == simdjson::SUCCESS) {
    switch (type) {
      case od::number_type::signed_integer: {
        std::int64_t n = 0;
        if (v.get_int64().get(n) != simdjson::SUCCESS) break;
        if (n >= 0 && !token.empty() && token.front() != '-') return static_cast<std::uint64_t>(n);
        return n;
      }
      case od::number_type::unsigned_integer: {
        std::uint64_t n = 0;
        if (v.get_uint64().get(n) != simdjson::SUCCESS) break;
        return n;
      }
      case od::number_type::floating_point_number: {
        double d = 0;
        if (v.get_double().get(d) != simdjson::SUCCESS) break;
        return d;
      }
    }
  }
  // Malformed, or out of a double's range: nlohmann refuses it too, on its own path.
  // Only a number's characters go to nlohmann alone: its lexer ends the input at a NUL
  // byte, so "49\0" would read as 49 here although the document is not JSON.
  for (const char c : token) {
    if (!is_json_number_char(c)) throw Fallback{};
  }
  try {
    return nlohmann::json::parse(token.begin(), token.end());
  } catch (const nlohmann::json::exception&) {
    throw Fallback{};
  }
}

/// A value as nlohmann would have parsed it (same number kinds: non-negative
/// integers unsigned, negative ones signed, everything else double).
/// `depth` counts the levels below the first call; past kMaxJsonDepth the
/// document goes to the nlohmann path, which refuses it (parse_body), instead
/// of recursing until the stack runs out.
inline nlohmann::json to_nlohmann(od::value v, std::size_t depth = 0) {
  if (depth > kMaxJsonDepth) throw Fallback{};
  switch (take(v.type())) {
    case od::json_type::object: {
      nlohmann::json out = nlohmann::json::object();
      od::object obj = take(v.get_object());
      for (auto f : obj) {
        od::field field = take(std::move(f));
        std::string_view key = take(field.unescaped_key());
        out[std::string(key)] = to_nlohmann(field.value(), depth + 1);
      }
      return out;
    }
    case od::json_type::array: {
      nlohmann::json out = nlohmann::json::array();
      od::array arr = take(v.get_array());
      for (auto e : arr) out.push_back(to_nlohmann(take(std::move(e)), depth + 1));
      return out;
    }
    case od::json_type::string:
      return std::string(take(v.get_string()));
    case od::json_type::boolean:
      return take(v.get_bool());
    case od::json_type::null:
      if (!is_null(v)) throw Fallback{};
      return nullptr;
    case od::json_type::number:
      return number_value(v);
  }
  throw Fallback{};
}

/// Reads a value only to check it, as nlohmann's parser would: members no
/// model names still have to be valid JSON.
/// `depth` as in to_nlohmann.
inline void validate(od::value v, std::size_t depth = 0) {
  if (depth > kMaxJsonDepth) throw Fallback{};
  switch (take(v.type())) {
    case od::json_type::object: {
      od::object obj = take(v.get_object());
      for (auto f : obj) {
        od::field field = take(std::move(f));
        take(field.unescaped_key());
        validate(field.value(), depth + 1);
      }
      return;
    }
    case od::json_type::array: {
      od::array arr = take(v.get_array());
      for (auto e : arr) validate(take(std::move(e)), depth + 1);
      return;
    }
    case od::json_type::string:
      take(v.get_string());
      return;
    case od::json_type::boolean:
      take(v.get_bool());
      return;
    case od::json_type::null:
      if (!is_null(v)) throw Fallback{};
      return;
    case od::json_type::number:
      number_value(v);
      return;
  }
  throw Fallback{};
}

/// Models with a hand-written fast decoder specialise this with
///   static void read(od::object obj, const ObjectText& text, const Source& src, T& out);
template <class T, class = void>
struct Model {
  static constexpr bool enabled = false;
};

/// Non-object values with a hand-written fast reader (such as the v2 enums)
/// specialise this with
///   static void read(od::value v, T& out);
/// it must accept exactly what the type's from_json accepts, or throw Fallback.
template <class T, class = void>
struct Value {
  static constexpr bool enabled = false;
};

/// Iterates the fields of `obj`, handing each to `on_field(key, value)`.
template <class F>
void for_fields(od::object& obj, F&& on_field) {
  for (auto f : obj) {
    od::field field = take(std::move(f));
    const std::string_view key = take(field.unescaped_key());
    od::value v = field.value();
    on_field(key, v);
  }
}

/// Reads one value into `out` with the conversions of the nlohmann path.
template <class T>
void read(od::value v, T& out, const Source& src) {
  if constexpr (std::is_same_v<T, std::string>) {
    out.assign(take(v.get_string()));
  } else if constexpr (std::is_same_v<T, bool>) {
    out = take(v.get_bool());
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    out = take(v.get_int64());
  } else if constexpr (std::is_same_v<T, double>) {
    out = take(v.get_double());
  } else if constexpr (is_optional<T>::value) {
    if (is_null(v)) {
      out.reset();
    } else {
      read(v, out.emplace(), src);
    }
  } else if constexpr (is_std_vector<T>::value) {
    out.clear();
    od::array arr = take(v.get_array());
    for (auto e : arr) read(take(std::move(e)), out.emplace_back(), src);
  } else if constexpr (std::is_same_v<T, nlohmann::json>) {
    out = to_nlohmann(v);
  } else if constexpr (std::is_same_v<T, RawJson>) {
    // The text is kept as it is and parsed only if read, so it is checked here.
    const od::json_type type = take(v.type());
    if (type == od::json_type::object) {
      const ObjectText text(v);
      od::object obj = take(v.get_object());
      for_fields(obj, [](std::string_view, od::value& member) { validate(member); });
      out = src.raw(text.after_read());
    } else if (type == od::json_type::array) {
      od::array arr = take(v.get_array());
      const std::string_view text = take(arr.raw_json());
      take(arr.reset());
      for (auto e : arr) validate(take(std::move(e)));
      out = src.raw(text);
    } else {
      out = to_nlohmann(v);
    }
  } else if constexpr (Value<T>::enabled) {
    Value<T>::read(v, out);
  } else if constexpr (Model<T>::enabled) {
    const ObjectText text(v);
    Model<T>::read(take(v.get_object()), text, src, out);
  } else {
    // Everything else (enums, dates, rarely sent objects) goes through the
    // model's own from_json on a small nlohmann value, so the conversion rules
    // are the same by construction.
    const nlohmann::json j = to_nlohmann(v);
    try {
      out = j.get<T>();
    } catch (const DecodeError&) {
      throw Fallback{};
    } catch (const nlohmann::json::exception&) {
      throw Fallback{};
    }
  }
}

/// read_optional: null gives nullopt.
template <class T>
void optional_field(od::value v, std::optional<T>& out, const Source& src) {
  read(v, out, src);
}
/// read_required: null is an error (reported by the nlohmann path).
template <class T>
void required_field(od::value v, T& out, const Source& src, bool& seen) {
  if (is_null(v)) throw Fallback{};
  read(v, out, src);
  seen = true;
}

/// What reading one object through a field table has gathered so far.
struct TableProgress {
  /// Required entries read, by their position in the table.
  std::uint64_t required_seen = 0;
  /// Renamed entries whose current name was last seen holding a value.
  std::uint64_t current_set = 0;
  /// The last value sent under each renamed entry's older name, by the
  /// position of that name in the table. Such documents are rare; the value
  /// is converted at the end (FormerFieldResolver), and only if needed.
  std::vector<std::pair<unsigned, nlohmann::json>> former;
};

/// Reads one field of an object through a model's field table: the entry at
/// `entry` (its position in the table) reads `value` with the rules of its
/// kind (detail/fields.hpp); the other entries do nothing.
class FieldTableReader {
 public:
  FieldTableReader(unsigned entry, od::value& value, const Source& src, TableProgress& progress)
      : entry_(entry), value_(value), src_(src), progress_(progress) {}

  template <class T>
  void required(const char*, T& member) {
    const std::uint64_t bit = std::uint64_t{1} << index_;
    if (!claims()) return;
    if (is_null(value_)) throw Fallback{};
    read(value_, member, src_);
    progress_.required_seen |= bit;
  }
  template <class T>
  void optional(const char*, std::optional<T>& member) {
    if (claims()) read(value_, member, src_);
  }
  template <class T>
  void defaulted(const char*, T& member) {
    if (!claims()) return;
    if (is_null(value_)) {
      member = T{};
    } else {
      read(value_, member, src_);
    }
  }
  void scalar_text(const char*, std::string& member) {
    if (!claims()) return;
    const od::json_type type = take(value_.type());
    if (type == od::json_type::string) {
      member.assign(take(value_.get_string()));
    } else if (type == od::json_type::null) {
      if (!is_null(value_)) throw Fallback{};
      member.clear();
    } else {
      member = to_nlohmann(value_).dump();
    }
  }
  /// Two entries: the current name, read as an optional field, then the
  /// older one, kept aside until the whole object has been read.
  template <class T>
  void renamed(const char*, const char*, std::optional<T>& member) {
    const unsigned current = index_;
    index_ += 2;
    if (entry_ == current) {
      read(value_, member, src_);
      const std::uint64_t bit = std::uint64_t{1} << current;
      progress_.current_set = member ? progress_.current_set | bit : progress_.current_set & ~bit;
    } else if (entry_ == current + 1) {
      nlohmann::json value = to_nlohmann(value_);
      for (auto& [at, kept] : progress_.former) {
        if (at == entry_) {
          kept = std::move(value);
          return;
        }
      }
      progress_.former.emplace_back(entry_, std::move(value));
    }
  }

 private:
  bool claims() noexcept { return index_++ == entry_; }

  unsigned entry_;
  od::value& value_;
  const Source& src_;
  TableProgress& progress_;
  unsigned index_ = 0;
};

/// Once an object has been read: a renamed field whose current name held no
/// value takes the value sent under its older name, converted as the nlohmann
/// path converts it (read_former).
class FormerFieldResolver {
 public:
  explicit FormerFieldResolver(const TableProgress& progress) : progress_(progress) {}

  template <class T>
  void required(const char*, T&) {
    ++index_;
  }
  template <class T>
  void optional(const char*, T&) {
    ++index_;
  }
  template <class T>
  void defaulted(const char*, T&) {
    ++index_;
  }
  void scalar_text(const char*, std::string&) { ++index_; }
  template <class T>
  void renamed(const char*, const char* former, std::optional<T>& member) {
    const unsigned current = index_;
    index_ += 2;
    if (progress_.current_set & (std::uint64_t{1} << current)) return;
    for (const auto& [at, value] : progress_.former) {
      if (at != current + 1) continue;
      try {
        read_former(value, former, member);
      } catch (const DecodeError&) {
        throw Fallback{};
      } catch (const nlohmann::json::exception&) {
        throw Fallback{};
      }
    }
  }

 private:
  const TableProgress& progress_;
  unsigned index_ = 0;
};

/// The keys of a field table in order, and its required entries as a mask
/// (FieldTableReader's numbering), collected once per table.
class TableLayout {
 public:
  template <class T>
  void required(const char* key, T&) {
    mask_ |= std::uint64_t{1} << add(key);
  }
  template <class T>
  void optional(const char* key, T&) {
    add(key);
  }
  template <class T>
  void defaulted(const char* key, T&) {
    add(key);
  }
  void scalar_text(const char* key, const std::string&) { add(key); }
  template <class T>
  void renamed(const char* key, const char* former, T&) {
    add(key);
    add(former);
  }

  const std::vector<std::string_view>& keys() const noexcept { return keys_; }
  std::uint64_t required_mask() const noexcept { return mask_; }

  /// The entry named `key`, trying `hint` (the entry after the previous
  /// match: documents tend to list fields in the table's order) first.
  std::optional<unsigned> find(std::string_view key, unsigned hint) const {
    if (hint < keys_.size() && keys_[hint] == key) return hint;
    for (unsigned i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == key) return i;
    }
    return std::nullopt;
  }

 private:
  unsigned add(const char* key) {
    keys_.emplace_back(key);
    return static_cast<unsigned>(keys_.size() - 1);
  }

  std::vector<std::string_view> keys_;
  std::uint64_t mask_ = 0;
};

template <class M>
const TableLayout& table_layout() {
  static const TableLayout layout = [] {
    TableLayout collected;
    const M probe{};
    M::fields(probe, collected);
    return collected;
  }();
  return layout;
}

/// Reads every field of `obj` into `out` through M's field table.
template <class M>
void read_table(od::object& obj, const Source& src, M& out) {
  const TableLayout& layout = table_layout<M>();
  // A longer table than the required-field mask holds goes to the nlohmann path.
  if (layout.keys().size() > 64) throw Fallback{};
  TableProgress progress;
  unsigned hint = 0;
  for_fields(obj, [&](std::string_view key, od::value& v) {
    const std::optional<unsigned> entry = layout.find(key, hint);
    if (!entry) return validate(v);
    hint = *entry + 1;
    FieldTableReader reader(*entry, v, src, progress);
    M::fields(out, reader);
  });
  // A missing required field: the nlohmann path reports it with its name.
  if ((progress.required_seen & layout.required_mask()) != layout.required_mask()) {
    throw Fallback{};
  }
  if (!progress.former.empty()) {
    FormerFieldResolver resolver(progress);
    M::fields(out, resolver);
  }
}

/// Every model with a field table has a fast reader derived from it (v1
/// resources: v1/fast_decode.hpp).
template <class M>
struct Model<M, std::enable_if_t<has_fields<M>::value && !wraps_resource<M>::value>> {
  static constexpr bool enabled = true;
  static void read(od::object obj, const ObjectText& text, const Source& src, M& out) {
    read_table(obj, src, out);
    out.raw = src.raw(text.after_read());
  }
};

/// The decoder of a whole document; services specialise it for their pages.
///   static void read(od::document& doc, std::string_view body, T& out);
template <class T, class = void>
struct Document {
  static constexpr bool enabled = false;
};

inline od::parser& thread_parser() {
  thread_local od::parser parser;
  return parser;
}

/// Runs Document<T> on `body`; false when the document needs the nlohmann path.
template <class T>
bool try_decode(const std::string& body, T& out) {
  static_assert(http::kBodyPadding >= simdjson::SIMDJSON_PADDING);
  try {
    // simdjson reads up to SIMDJSON_PADDING bytes past the end. A body the
    // transport delivered with that much spare capacity is read in place;
    // any other is copied into a padded buffer first. Nothing keeps pointers
    // into `body`: every model's raw text is copied out of it (own()).
    std::optional<simdjson::padded_string> copy;
    simdjson::padded_string_view input(body);
    if (input.padding() < simdjson::SIMDJSON_PADDING) {
      copy.emplace(body);
      input = simdjson::padded_string_view(*copy);
    }
    od::document doc = take(thread_parser().iterate(input));
    Document<T>::read(doc, std::string_view(input.data(), input.size()), out);
    // Content after the root value (a second document) is left to nlohmann,
    // which rejects it. Past the last token the location is out of bounds.
    const char* after_root = nullptr;
    return doc.current_location().get(after_root) == simdjson::OUT_OF_BOUNDS;
  } catch (const Fallback&) {
    return false;
  }
}

}  // namespace fast

/// The text of object member `key` of the JSON object `body` (its last, when
/// the name is repeated), or an empty view when `body` has no such object.
inline std::string_view member_text(const std::string& body, std::string_view key) {
  try {
    const simdjson::padded_string copy(body);
    fast::od::document doc = fast::take(fast::thread_parser().iterate(copy));
    fast::od::object root = fast::take(doc.get_object());
    std::string_view found;
    for (auto f : root) {
      fast::od::field field = fast::take(std::move(f));
      if (fast::take(field.unescaped_key()) != key) continue;
      fast::od::value value = field.value();
      if (fast::take(value.type()) != fast::od::json_type::object) {
        found = {};
        continue;
      }
      fast::od::object object = fast::take(value.get_object());
      const std::string_view text = fast::take(object.raw_json());
      found = std::string_view(body).substr(static_cast<std::size_t>(text.data() - copy.data()),
                                            text.size());
    }
    return found;
  } catch (const fast::Fallback&) {
    return {};
  }
}

/// Decodes a response body into T: simdjson for the documents that have a fast
/// decoder, nlohmann (parse_body + from_json) for the others and whenever the
/// fast path declines. The result is the same struct either way.
template <class T>
T decode_body(const std::string& body, const std::string& url) {
  if constexpr (fast::Document<T>::enabled) {
    T out{};
    if (fast::try_decode(body, out)) return out;
  }
  return decode<T>(parse_body(body, url), url);
}

template <class T>
T decode_response_fast(const http::Response& response) {
  return decode_body<T>(response.body, response.url);
}

}  // namespace detail
MGNIFY_NAMESPACE_END
