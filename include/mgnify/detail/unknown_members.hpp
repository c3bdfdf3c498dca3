#pragma once

// Lists the JSON members a decoded model received but does not know: the keys
// of its raw document that its field table does not name, in nested models
// too. Decoding keeps such members (they encode back as received), so a
// service that adds a field breaks nothing; this is how a maintainer notices
// that it did (scripts/live_check.sh).

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

/// "/a~1b" for key "a/b" under "": RFC 6901 escaping.
inline std::string json_pointer_append(const std::string& base, const std::string& key) {
  std::string out = base + "/";
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

template <class T>
void collect_unknown_in(const T& member, const std::string& path, std::vector<std::string>& out);

class UnknownMemberCollector {
 public:
  /// `received`: the object whose fields are visited, if known.
  UnknownMemberCollector(std::string path, std::vector<std::string>& out,
                         const nlohmann::json* received = nullptr)
      : path_(std::move(path)), out_(out), received_(received) {}

  template <class T>
  void required(const char* key, const T& member) {
    note(key, member);
  }
  template <class T>
  void optional(const char* key, const T& member) {
    note(key, member);
  }
  template <class T>
  void defaulted(const char* key, const T& member) {
    note(key, member);
  }
  void scalar_text(const char* key, const std::string&) { known_.insert(key); }
  /// Both names are known; nested models are looked into where the value came.
  template <class T>
  void renamed(const char* key, const char* former, const T& member) {
    known_.insert(former);
    if (received_ && sent_as_former(*received_, key, former)) {
      known_.insert(key);
      note_nested(json_pointer_append(path_, former), member, received_->at(former).is_array());
    } else {
      note(key, member);
    }
  }
  /// Every member of `received` that no field named.
  void report_unlisted(const nlohmann::json& received) const {
    if (!received.is_object()) return;
    for (const auto& item : received.items()) {
      if (known_.count(item.key()) == 0) out_.push_back(json_pointer_append(path_, item.key()));
    }
  }

 private:
  template <class T>
  void note(const char* key, const T& member) {
    known_.insert(key);
    note_nested(json_pointer_append(path_, key), member, true);
  }
  /// `as_sent`: false for a list that came as its one element on its own.
  template <class T>
  void note_nested(const std::string& path, const T& member, bool as_sent) {
    if constexpr (holds_table_models<T>()) {
      if constexpr (is_optional<T>::value) {
        if constexpr (is_std_vector<typename T::value_type>::value) {
          if (!as_sent && member && member->size() == 1) {
            return collect_unknown_in(member->front(), path, out_);
          }
        }
      }
      collect_unknown_in(member, path, out_);
    }
  }

  std::string path_;
  std::vector<std::string>& out_;
  const nlohmann::json* received_;
  std::set<std::string> known_;
};

template <class T>
void collect_unknown_in(const T& member, const std::string& path, std::vector<std::string>& out) {
  if constexpr (wraps_resource<T>::value) {
    const std::string attributes_path = json_pointer_append(path, "attributes");
    UnknownMemberCollector collector(attributes_path, out);
    T::fields(member, collector);
    collector.report_unlisted(member.resource.attributes.json());
  } else if constexpr (has_fields<T>::value) {
    UnknownMemberCollector collector(path, out, &member.raw.json());
    T::fields(member, collector);
    collector.report_unlisted(member.raw.json());
  } else if constexpr (is_optional<T>::value) {
    if (member) collect_unknown_in(*member, path, out);
  } else if constexpr (is_std_vector<T>::value) {
    for (std::size_t i = 0; i < member.size(); ++i) {
      collect_unknown_in(member[i], path + "/" + std::to_string(i), out);
    }
  }
}

/// JSON Pointers ("/biome/new_key", "/attributes/new-key") to the members
/// `model` received that its field tables do not name.
template <class M>
std::vector<std::string> unknown_members(const M& model) {
  static_assert(has_fields<M>::value, "unknown_members needs a model with a field table");
  std::vector<std::string> out;
  collect_unknown_in(model, "", out);
  return out;
}

}  // namespace detail
MGNIFY_NAMESPACE_END
