#pragma once

// RawJson: the `raw` member of every model (and v1's Resource::attributes).
//
// Models keep the JSON object they were decoded from so that fields this SDK
// does not name stay reachable and survive a round trip (to_json starts from
// raw). Keeping that object as a nlohmann::json DOM would make decoding a DOM
// parse plus one deep copy per object and per nesting level. A RawJson holds
// one of:
//   - a nlohmann::json value (models built by hand or through json.get<T>()),
//     shared, immutable, by every copy;
//   - the object's original JSON text, parsed into a nlohmann::json only when
//     raw is first read (the fast decoding path keeps simdjson's raw_json());
//   - a view of a sub-object of another RawJson (a JSON Pointer into it).
// The text form allocates nothing of its own: it holds the text and a shared
// owner of its bytes, so a decoded model costs no allocation for its raw.
// Lazy forms are resolved at most once per RawJson, with a compare-and-swap,
// so concurrent readers of one model are safe. A copy shares the parsed value
// when it is made after the first read; a copy made before parses its own
// when it is read.
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
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

class RawJson {
 public:
  /// An empty object, like the default of the former nlohmann::json members.
  RawJson() = default;
  // Implicit on purpose: `model.raw = some_json;` keeps compiling.
  RawJson(nlohmann::json value) : form_(Form::value) {  // NOLINT
    auto shared = std::make_shared<const nlohmann::json>(std::move(value));
    resolved_.store(shared.get(), std::memory_order_relaxed);
    holder_ = std::move(shared);
  }
  RawJson& operator=(nlohmann::json value) {
    *this = RawJson(std::move(value));
    return *this;
  }

  RawJson(const RawJson& other) : holder_(other.holder_), text_(other.text_), form_(other.form_) {
    const void* resolved = other.resolved_.load(std::memory_order_acquire);
    if (resolved && form_ == Form::text) static_cast<const Parsed*>(resolved)->retain();
    resolved_.store(resolved, std::memory_order_relaxed);
  }
  RawJson(RawJson&& other) noexcept
      : holder_(std::move(other.holder_)), text_(other.text_), form_(other.form_) {
    resolved_.store(other.resolved_.exchange(nullptr, std::memory_order_relaxed),
                    std::memory_order_relaxed);
    other.text_ = {};
    other.form_ = Form::empty;
  }
  RawJson& operator=(const RawJson& other) {
    if (this != &other) *this = RawJson(other);
    return *this;
  }
  RawJson& operator=(RawJson&& other) noexcept {
    if (this != &other) {
      release();
      holder_ = std::move(other.holder_);
      text_ = other.text_;
      form_ = other.form_;
      resolved_.store(other.resolved_.exchange(nullptr, std::memory_order_relaxed),
                      std::memory_order_relaxed);
      other.text_ = {};
      other.form_ = Form::empty;
    }
    return *this;
  }
  ~RawJson() { release(); }

  /// Lazily parsed text: `text` is a range of `owner`, which several RawJson
  /// may share (nested objects of one document).
  static RawJson from_text(std::shared_ptr<const std::string> owner, std::string_view text) {
    const auto offset = static_cast<std::size_t>(text.data() - owner->data());
    return from_range(std::move(owner), offset, text.size());
  }
  /// Lazily parsed text, the `size` bytes at `offset` in `owner`. The owner
  /// may still be empty here: it must hold the text before this RawJson (or
  /// a copy) is read, which lets a decoder hand out the nested objects' raw
  /// while it reads an object, and copy the object's text once it knows where
  /// it ends.
  static RawJson from_range(std::shared_ptr<const std::string> owner, std::size_t offset,
                            std::size_t size) {
    RawJson r;
    r.text_ = TextRange{owner.get(), offset, size};
    r.holder_ = std::move(owner);
    r.form_ = Form::text;
    return r;
  }
  /// Lazily parsed text owned by the RawJson itself.
  static RawJson from_text(std::string text) {
    auto owner = std::make_shared<const std::string>(std::move(text));
    const std::string_view view(*owner);
    return from_text(std::move(owner), view);
  }
  /// A sub-object of `parent` named by a JSON Pointer ("/biomes/0"); nothing is copied.
  static RawJson view(const RawJson& parent, std::string pointer);

  /// The JSON value; parses the text on first use.
  const nlohmann::json& json() const {
    if (const void* resolved = resolved_.load(std::memory_order_acquire)) {
      return form_ == Form::text ? static_cast<const Parsed*>(resolved)->value
                                 : *static_cast<const nlohmann::json*>(resolved);
    }
    if (form_ == Form::empty) return empty_object();
    return resolve();
  }
  operator const nlohmann::json&() const { return json(); }  // NOLINT

  /// True when the value has not been built yet (it is still only text or a view).
  bool is_lazy() const noexcept {
    return (form_ == Form::text || form_ == Form::view) &&
           resolved_.load(std::memory_order_acquire) == nullptr;
  }
  /// The original JSON text, when this RawJson was made from text (else empty).
  std::string_view text() const { return text_.view(); }

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
  enum class Form : unsigned char { empty, value, text, view };

  // The parsed value of a text form, shared by copies made after the parse.
  struct Parsed {
    nlohmann::json value;
    mutable std::atomic<std::size_t> references{1};

    void retain() const { references.fetch_add(1, std::memory_order_relaxed); }
    void release() const {
      if (references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }
  };

  struct View;

  static const nlohmann::json& empty_object() {
    static const nlohmann::json empty = nlohmann::json::object();
    return empty;
  }

  void release() noexcept {
    const void* resolved = resolved_.load(std::memory_order_relaxed);
    if (resolved && form_ == Form::text) static_cast<const Parsed*>(resolved)->release();
    resolved_.store(nullptr, std::memory_order_relaxed);
  }

  // Two threads may both parse; the first to publish wins and the other's
  // result is dropped, so every reader sees one value.
  const nlohmann::json& resolve() const;

  struct TextRange {
    const std::string* owner = nullptr;
    std::size_t offset = 0;
    std::size_t size = 0;
    std::string_view view() const {
      return owner ? std::string_view(*owner).substr(offset, size) : std::string_view();
    }
  };

  // Keeps what `resolved_` and `text_` point into alive: the value, the
  // text's owner, or the View.
  std::shared_ptr<const void> holder_;
  TextRange text_;
  // The value once known: a Parsed (text form, owned with the copies that
  // share it) or a nlohmann::json (value and view forms, owned by holder_).
  mutable std::atomic<const void*> resolved_{nullptr};
  Form form_ = Form::empty;
};

struct RawJson::View {
  RawJson parent;
  std::string pointer;
};

inline void to_json(nlohmann::json& j, const RawJson& r) { j = r.json(); }
inline void from_json(const nlohmann::json& j, RawJson& r) { r = RawJson(j); }

MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/impl/raw_json.ipp"
#endif
