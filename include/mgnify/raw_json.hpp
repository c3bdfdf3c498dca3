#pragma once

// RawJson: the `raw` member of every model (and v1's Resource::attributes).
//
// Models keep the JSON object they were decoded from so that fields this SDK
// does not name stay reachable and survive a round trip (to_json starts from
// raw). Keeping that object as a nlohmann::json DOM made decoding a DOM parse
// plus one deep copy per object and per nesting level, which dominated the
// decoding cost (bench/analysis.md). A RawJson holds one of:
//   - a nlohmann::json value (models built by hand or through json.get<T>()),
//   - the object's original JSON text, parsed into a nlohmann::json only when
//     raw is first read (the fast decoding path keeps simdjson's raw_json()),
//   - a view of a sub-object of another RawJson (a JSON Pointer into it).
// Materialisation happens at most once, under std::call_once, so concurrent
// readers of one model (or of copies of it) are safe. Copies share the same
// immutable state, so copying a model never copies its JSON.
//
// Rule for nested models (a BiomeEntry inside a Protein, a Sample inside a v2
// Analysis, ...): when the parent keeps the whole object, a nested model does
// not keep its own copy. On the fast path its text is a range of the buffer
// its parent's text lives in (shared, not copied); on the nlohmann path
// (json.get<Parent>()) it is a view into the parent's raw by JSON Pointer.
// Models decoded on their own (json.get<BiomeEntry>()) keep their own value.
// Top-level items of a list page each own a copy of their own text, so that
// keeping one item does not keep the whole page body alive.
//
// Models declare it as `RawJson raw{};`: with the braces, aggregate
// initialisation that leaves it out (`FileChecksum{"00", "CRC32"}`) does not
// trip -Wmissing-field-initializers in the caller's build.

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {

class RawJson {
 public:
  /// An empty object, like the default of the former nlohmann::json members.
  RawJson() = default;
  // Implicit on purpose: `model.raw = some_json;` keeps compiling.
  RawJson(nlohmann::json value) : state_(std::make_shared<State>()) {  // NOLINT
    state_->value = std::move(value);
    state_->ready = true;
  }
  RawJson& operator=(nlohmann::json value) {
    *this = RawJson(std::move(value));
    return *this;
  }

  /// Lazily parsed text. `owner` keeps the bytes of `text` alive; several
  /// RawJson may share one owner (nested objects of one document).
  static RawJson from_text(std::shared_ptr<const std::string> owner, std::string_view text) {
    RawJson r;
    r.state_ = std::make_shared<State>();
    r.state_->owner = std::move(owner);
    r.state_->text = text;
    return r;
  }
  /// Lazily parsed text owned by the RawJson itself.
  static RawJson from_text(std::string text) {
    auto owner = std::make_shared<const std::string>(std::move(text));
    const std::string_view view(*owner);
    return from_text(std::move(owner), view);
  }
  /// A sub-object of `parent` named by a JSON Pointer ("/biomes/0"); nothing is copied.
  static RawJson view(const RawJson& parent, std::string pointer) {
    RawJson r;
    r.state_ = std::make_shared<State>();
    r.state_->parent = parent.state_ ? parent.state_ : std::make_shared<State>(ready_object());
    r.state_->pointer = std::move(pointer);
    return r;
  }

  /// The JSON value; parses the text on first use.
  const nlohmann::json& json() const {
    if (!state_) return empty_object();
    return resolve(*state_);
  }
  operator const nlohmann::json&() const { return json(); }  // NOLINT

  /// True when the value has not been built yet (it is still only text or a view).
  bool is_lazy() const noexcept {
    return state_ && !state_->ready && !state_->done.load(std::memory_order_acquire);
  }
  /// The original JSON text, when this RawJson was made from text (else empty).
  std::string_view text() const noexcept { return state_ ? state_->text : std::string_view(); }

  // Read accessors of nlohmann::json, forwarded. operator[] is at() here:
  // indexing a const json with a missing key is undefined in nlohmann.
  template <class K>
  const nlohmann::json& operator[](K&& key) const {
    return json().at(std::forward<K>(key));
  }
  template <class K>
  const nlohmann::json& at(K&& key) const {
    return json().at(std::forward<K>(key));
  }
  template <class K>
  bool contains(K&& key) const {
    return json().contains(std::forward<K>(key));
  }
  template <class K>
  nlohmann::json::const_iterator find(K&& key) const {
    return json().find(std::forward<K>(key));
  }
  nlohmann::json::const_iterator begin() const { return json().cbegin(); }
  nlohmann::json::const_iterator end() const { return json().cend(); }
  auto items() const { return json().items(); }
  nlohmann::json::value_t type() const { return json().type(); }
  bool is_null() const { return json().is_null(); }
  bool is_string() const { return json().is_string(); }
  bool is_number() const { return json().is_number(); }
  bool is_boolean() const { return json().is_boolean(); }
  bool is_object() const { return json().is_object(); }
  bool is_array() const { return json().is_array(); }
  bool empty() const { return json().empty(); }
  std::size_t size() const { return json().size(); }
  const char* type_name() const { return json().type_name(); }
  std::string dump(int indent = -1) const { return json().dump(indent); }
  template <class T>
  T get() const {
    return json().template get<T>();
  }
  template <class T>
  T value(const std::string& key, const T& fallback) const {
    return json().value(key, fallback);
  }
  std::string value(const std::string& key, const char* fallback) const {
    return json().value(key, std::string(fallback));
  }

  friend bool operator==(const RawJson& a, const RawJson& b) { return a.json() == b.json(); }
  friend bool operator!=(const RawJson& a, const RawJson& b) { return !(a == b); }
  friend bool operator==(const RawJson& a, const nlohmann::json& b) { return a.json() == b; }
  friend bool operator==(const nlohmann::json& a, const RawJson& b) { return a == b.json(); }
  friend bool operator!=(const RawJson& a, const nlohmann::json& b) { return !(a == b); }
  friend bool operator!=(const nlohmann::json& a, const RawJson& b) { return !(a == b); }

 private:
  struct State {
    State() = default;
    explicit State(nlohmann::json v) : value(std::move(v)), ready(true) {}
    // Set when built from a value: no synchronisation needed to read it.
    nlohmann::json value;
    bool ready = false;
    // Text form.
    std::shared_ptr<const std::string> owner;
    std::string_view text;
    // View form.
    std::shared_ptr<const State> parent;
    std::string pointer;
    // Written once under `once`.
    mutable std::once_flag once;
    mutable nlohmann::json lazy;
    mutable const nlohmann::json* target = nullptr;
    mutable std::atomic<bool> done{false};
  };

  static nlohmann::json ready_object() { return nlohmann::json::object(); }
  static const nlohmann::json& empty_object() {
    static const nlohmann::json empty = nlohmann::json::object();
    return empty;
  }

  static const nlohmann::json& resolve(const State& s) {
    if (s.ready) return s.value;
    std::call_once(s.once, [&s] { materialise(s); });
    return s.parent ? *s.target : s.lazy;
  }

  static void materialise(const State& s) {
    if (s.parent) {
      const nlohmann::json& whole = resolve(*s.parent);
      try {
        s.target = &whole.at(nlohmann::json::json_pointer(s.pointer));
      } catch (const nlohmann::json::exception& e) {
        throw DecodeError(s.pointer, "", std::string("raw view does not resolve: ") + e.what());
      }
    } else {
      try {
        s.lazy = nlohmann::json::parse(s.text.begin(), s.text.end());
      } catch (const nlohmann::json::exception& e) {
        throw DecodeError("", "", std::string("raw JSON text does not parse: ") + e.what());
      }
    }
    s.done.store(true, std::memory_order_release);
  }

  std::shared_ptr<State> state_;
};

inline void to_json(nlohmann::json& j, const RawJson& r) { j = r.json(); }
inline void from_json(const nlohmann::json& j, RawJson& r) { r = RawJson(j); }

}  // namespace v0
}  // namespace mgnify
