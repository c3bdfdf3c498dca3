#pragma once

// Schema-driven conformance checks (issue 14, part 4), shared by the v2, proteins
// and v1 suites: a small JSON-Schema instance generator, the variants every
// schema is generated in, and the checks every generated document must pass.
//
// Documents are generated rather than written by hand because a hand-written
// document covers the shapes its author thought of: a generated one has every
// property of the schema, including one added to the schema after the test was
// written, in every combination of present, absent and null.
//
// The generator understands the subset of JSON Schema the OpenAPI documents of
// the services use ($ref, type, properties/required, anyOf/oneOf with a null
// branch, nullable, items, enum, const, format date-time/date,
// additionalProperties, propertyNames, minimum). Any other keyword that
// constrains values makes it throw, so a schema that starts using one fails the
// test loudly instead of being generated wrongly; annotations (title,
// description, default, examples, ...) are ignored.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/detail/fast_json.hpp"

namespace mgnify::test::schema_instances {

using json = nlohmann::json;

enum class Text { plain, empty, non_ascii, escapes };
enum class Integer { typical, max, min, zero };
enum class Number { typical, integral, tiny, huge };

/// How one document is generated from a schema.
struct Profile {
  bool optional_members = true;    // properties not listed in `required`
  bool nulls = false;              // every nullable value null
  bool unknown_members = false;    // members no schema names, at every object level
  std::size_t container_size = 1;  // items of an array, entries of a map
  Text text = Text::plain;         // every string without a format
  Integer integer = Integer::typical;
  Number number = Number::typical;
  bool boolean = true;
  std::size_t date_time = 0;  // index into date_times() and dates()
  std::size_t enum_pick = 0;  // index into each enum; the enum's size picks a value outside it
  std::size_t branch = 0;     // which non-null branch of an anyOf (or type list)
};

struct Variant {
  std::string name;
  Profile profile;
};

inline const char* const kNonAscii =
    "Gef\xC3\xA4\xC3\x9F \xE2\x80\x93 \xF0\x9F\xA6\xA0";  // "Gefäß – 🦠"
inline const char* const kOutsideEnum = "not-in-the-enum";

/// Date-times as the services write them (Django: a fraction only when the
/// microseconds are not zero; v1: no zone), plus text that is not one, which
/// the SDK keeps as sent.
inline const std::vector<std::string>& date_times() {
  static const std::vector<std::string> values = {
      "2025-07-29T11:32:54.168Z",  "2025-07-29T11:32:54Z",      "2025-07-29T11:32:54.168123+02:00",
      "2025-07-29T11:32:54+02:00", "1998-11-20T09:40:00-03:30", "2016-03-15T00:05:04",
      "2016-03-15T00:05:04.5",     "not a date-time",
  };
  return values;
}

inline const std::vector<std::string>& dates() {
  static const std::vector<std::string> values = {"2014-04-25", "1970-01-01",
                                                  "2014-04-25T10:00:00Z", "sometime in 2014"};
  return values;
}

/// Every variant a schema is generated in. Variants that give the same
/// document for a schema (no enum in it, say) are run once.
inline const std::vector<Variant>& variants() {
  static const std::vector<Variant> all = [] {
    std::vector<Variant> out;
    auto add = [&out](std::string name, const std::function<void(Profile&)>& edit) {
      Profile p;
      edit(p);
      out.push_back({std::move(name), p});
    };
    for (const bool unknown : {false, true}) {
      const std::string suffix = unknown ? " + unknown members" : "";
      add("every member" + suffix, [&](Profile& p) { p.unknown_members = unknown; });
      add("optional members absent" + suffix, [&](Profile& p) {
        p.optional_members = false;
        p.unknown_members = unknown;
      });
      add("nullable members null" + suffix, [&](Profile& p) {
        p.nulls = true;
        p.unknown_members = unknown;
      });
      add("optional members absent, nullable ones null" + suffix, [&](Profile& p) {
        p.optional_members = false;
        p.nulls = true;
        p.unknown_members = unknown;
      });
    }
    add("empty arrays and maps", [](Profile& p) { p.container_size = 0; });
    add("two items per array and map + unknown members", [](Profile& p) {
      p.container_size = 2;
      p.unknown_members = true;
    });
    for (std::size_t i = 0; i < date_times().size(); ++i) {
      add("date-time '" + date_times()[i] + "'", [i](Profile& p) { p.date_time = i; });
    }
    add("integers INT64_MAX", [](Profile& p) { p.integer = Integer::max; });
    add("integers INT64_MIN", [](Profile& p) { p.integer = Integer::min; });
    add("integers 0", [](Profile& p) { p.integer = Integer::zero; });
    add("numbers written as integers", [](Profile& p) { p.number = Number::integral; });
    add("numbers 5e-324", [](Profile& p) { p.number = Number::tiny; });
    add("numbers -1.7976931348623157e308", [](Profile& p) { p.number = Number::huge; });
    add("strings empty", [](Profile& p) { p.text = Text::empty; });
    add("strings non-ASCII", [](Profile& p) { p.text = Text::non_ascii; });
    add("strings with escapes", [](Profile& p) { p.text = Text::escapes; });
    add("booleans false", [](Profile& p) { p.boolean = false; });
    // The largest enum of the schemas has 10 values: picks 1..10 reach each of
    // them and one value outside it (pick 0 is in every variant above), in
    // each of the first three branches of an anyOf (an enum can sit in any).
    for (std::size_t b = 0; b <= 2; ++b) {
      for (std::size_t k = 0; k <= 10; ++k) {
        if (b == 0 && k == 0) continue;
        std::string name = b == 0 ? "" : "anyOf branch #" + std::to_string(b);
        if (k > 0) name += (b == 0 ? "" : ", ") + std::string("enum value #") + std::to_string(k);
        add(name, [b, k](Profile& p) {
          p.branch = b;
          p.enum_pick = k;
          p.unknown_members = b > 0;
        });
      }
    }
    return out;
  }();
  return all;
}

/// Follows `$ref`s ("#/components/schemas/X") from `schema` into `root`.
inline const json& resolve(const json& root, const json& schema) {
  const json* s = &schema;
  for (int hops = 0; s->is_object() && s->contains("$ref"); ++hops) {
    const std::string ref = s->at("$ref").get<std::string>();
    if (hops > 16) throw std::runtime_error("$ref chain too long at " + ref);
    if (ref.rfind("#/", 0) != 0) throw std::runtime_error("only local $refs are supported: " + ref);
    s = &root.at(json::json_pointer(ref.substr(1)));
  }
  if (!s->is_object()) throw std::runtime_error("a schema must be an object: " + s->dump());
  return *s;
}

/// Generates one instance of a schema under a Profile. `root` holds the
/// schemas that `$ref`s point into ("#/components/schemas/...").
class Generator {
 public:
  Generator(const json& root, const Profile& profile) : root_(root), p_(profile) {}

  json instance(const json& schema) { return value(schema, 0); }

 private:
  static constexpr int kMaxDepth = 32;

  const json& resolve(const json& schema) const {
    return mgnify::test::schema_instances::resolve(root_, schema);
  }

  static void check_keywords(const json& s) {
    static const std::set<std::string> understood = {
        "$ref", "type", "properties", "required", "additionalProperties", "propertyNames", "items",
        "enum", "const", "anyOf", "oneOf", "nullable", "format", "minimum",
        // annotations
        "title", "description", "default", "examples", "example", "deprecated", "readOnly"};
    for (const auto& item : s.items()) {
      if (understood.count(item.key()) == 0) {
        throw std::runtime_error("keyword '" + item.key() + "' is not supported by the generator");
      }
    }
  }

  static bool is_null_schema(const json& s) {
    const auto type = s.find("type");
    return type != s.end() && type->is_string() && *type == "null";
  }

  json value(const json& schema, int depth) {
    if (depth > kMaxDepth) throw std::runtime_error("schema nests too deep (a recursive $ref?)");
    const json& s = resolve(schema);
    check_keywords(s);
    bool nullable = s.value("nullable", false);
    std::vector<const json*> branches;
    for (const char* key : {"anyOf", "oneOf"}) {
      const auto list = s.find(key);
      if (list == s.end()) continue;
      for (const auto& b : *list) {
        const json& rb = resolve(b);
        if (is_null_schema(rb)) {
          nullable = true;
        } else {
          branches.push_back(&b);
        }
      }
    }
    std::vector<std::string> types;
    if (const auto type = s.find("type"); type != s.end()) {
      for (const auto& t : type->is_array() ? *type : json::array({*type})) {
        if (t == "null") {
          nullable = true;
        } else {
          types.push_back(t.get<std::string>());
        }
      }
    }
    if (nullable && p_.nulls) return nullptr;
    if (!branches.empty()) return value(*branches[p_.branch % branches.size()], depth + 1);
    if (const auto c = s.find("const"); c != s.end()) return *c;
    if (const auto e = s.find("enum"); e != s.end()) return enum_value(*e);
    if (types.empty()) {
      if (s.contains("properties") || s.contains("additionalProperties")) {
        types.push_back("object");
      } else if (s.contains("items")) {
        types.push_back("array");
      } else if (nullable) {
        return nullptr;
      } else {
        return text();  // any JSON value is valid
      }
    }
    const std::string& type = types[p_.branch % types.size()];
    if (type == "object") return object(s, depth);
    if (type == "array") return array(s, depth);
    if (type == "string") return string(s);
    if (type == "integer") return integer(s);
    if (type == "number") return number();
    if (type == "boolean") return p_.boolean;
    throw std::runtime_error("type '" + type + "' is not supported by the generator");
  }

  json enum_value(const json& values) {
    const std::size_t n = values.size();
    const std::size_t k = (p_.enum_pick + shift_) % (n + 1);
    if (k < n) return values[k];
    // A value outside the set: the SDK must keep it (open value sets).
    std::optional<std::int64_t> largest;
    for (const auto& v : values) {
      if (v.is_number_integer() && (!largest || v.get<std::int64_t>() > *largest)) {
        largest = v.get<std::int64_t>();
      }
    }
    if (largest) return *largest + 1;
    return kOutsideEnum;
  }

  std::vector<std::string> map_keys(const json& s) const {
    std::vector<std::string> keys;
    if (const auto names = s.find("propertyNames"); names != s.end()) {
      const json& n = resolve(*names);
      if (const auto e = n.find("enum"); e != n.end()) {
        for (const auto& k : *e) {
          if (k.is_string()) keys.push_back(k.get<std::string>());
        }
      }
    }
    for (const char* fallback : {"alpha", "Total proteins", "\xC3\xBC-key"}) {
      keys.push_back(fallback);
    }
    return keys;
  }

  json object(const json& s, int depth) {
    json out = json::object();
    std::set<std::string> required;
    if (const auto r = s.find("required"); r != s.end()) {
      for (const auto& k : *r) required.insert(k.get<std::string>());
    }
    if (const auto props = s.find("properties"); props != s.end()) {
      for (const auto& item : props->items()) {
        if (!p_.optional_members && required.count(item.key()) == 0) continue;
        out[item.key()] = value(item.value(), depth + 1);
      }
    }
    for (const auto& key : required) {
      if (!out.contains(key)) out[key] = text();
    }
    const auto extra = s.find("additionalProperties");
    const bool typed_map = extra != s.end() && extra->is_object() && !extra->empty();
    const bool closed = extra != s.end() && extra->is_boolean() && !extra->get<bool>();
    const bool free_form = !typed_map && !closed && (extra != s.end() || !s.contains("properties"));
    const auto keys = map_keys(s);
    if (typed_map) {
      for (std::size_t i = 0; i < p_.container_size && i < keys.size(); ++i) {
        out[keys[i]] = value(*extra, depth + 1);
      }
    } else if (free_form && p_.container_size > 0) {
      // A free-form object (ENA metadata, quality_control_summary, ...): a
      // member of each JSON kind the services put there.
      out[keys[0]] = text();
      out[keys[1]] = integer(json::object());
      out[keys[2]] = {{"list", {number(), p_.boolean, nullptr, text()}}, {"empty", json::object()}};
    }
    if (p_.unknown_members && !closed && !typed_map) {
      out["zz_unknown_object"] = {{"nested", {{"list", {1, "two", nullptr, false, 2.5}}}},
                                  {"text", kNonAscii}};
      out["zz_unknown_null"] = nullptr;
    }
    return out;
  }

  json array(const json& s, int depth) {
    json out = json::array();
    const json any = json::object();
    const auto items = s.find("items");
    for (std::size_t i = 0; i < p_.container_size; ++i) {
      // Later items take later enum values, so that two items differ.
      shift_ += i;
      out.push_back(value(items == s.end() ? any : *items, depth + 1));
      shift_ -= i;
    }
    return out;
  }

  json string(const json& s) const {
    const std::string format = s.value("format", "");
    if (format == "date-time") return date_times()[p_.date_time % date_times().size()];
    if (format == "date") return dates()[p_.date_time % dates().size()];
    return text();
  }

  json text() const {
    switch (p_.text) {
      case Text::plain:
        return "text";
      case Text::empty:
        return "";
      case Text::non_ascii:
        return kNonAscii;
      case Text::escapes:
        return std::string("quote \" backslash \\ slash / newline \n tab \t \x01 end");
    }
    return "text";
  }

  json integer(const json& s) const {
    std::int64_t v = 1859;
    switch (p_.integer) {
      case Integer::typical:
        break;
      case Integer::max:
        v = std::numeric_limits<std::int64_t>::max();
        break;
      case Integer::min:
        v = std::numeric_limits<std::int64_t>::min();
        break;
      case Integer::zero:
        v = 0;
        break;
    }
    if (const auto m = s.find("minimum"); m != s.end() && m->is_number()) {
      const double least = std::ceil(m->get<double>());
      if (static_cast<double>(v) < least) v = static_cast<std::int64_t>(least);
    }
    return v;
  }

  json number() const {
    switch (p_.number) {
      case Number::typical:
        return 87.55205535888672;
      case Number::integral:
        return 3;
      case Number::tiny:
        return 5e-324;
      case Number::huge:
        return -1.7976931348623157e308;
    }
    return 0.5;
  }

  const json& root_;
  Profile p_;
  std::size_t shift_ = 0;
};

/// Checks `instance` against `schema` in the generator's subset (formats are
/// not checked) and appends what does not match to `errors`. Used to hold
/// the hand-written schemas of the proteins and v1 services against the
/// captured responses.
inline void validate(const json& root, const json& schema, const json& instance,
                     const std::string& path, std::vector<std::string>& errors) {
  const json& s = resolve(root, schema);
  if (instance.is_null() && s.value("nullable", false)) return;
  for (const char* key : {"anyOf", "oneOf"}) {
    const auto list = s.find(key);
    if (list == s.end()) continue;
    for (const auto& branch : *list) {
      std::vector<std::string> branch_errors;
      validate(root, branch, instance, path, branch_errors);
      if (branch_errors.empty()) return;
    }
    errors.push_back(path + ": " + instance.dump() + " matches no branch of " + key);
    return;
  }
  if (const auto e = s.find("enum"); e != s.end()) {
    if (std::find(e->begin(), e->end(), instance) == e->end()) {
      errors.push_back(path + ": " + instance.dump() + " is not in the enum");
    }
    return;
  }
  if (const auto type = s.find("type"); type != s.end()) {
    bool matches = false;
    for (const auto& t : type->is_array() ? *type : json::array({*type})) {
      matches = matches || (t == "null" && instance.is_null()) ||
                (t == "string" && instance.is_string()) ||
                (t == "integer" && instance.is_number_integer()) ||
                (t == "number" && instance.is_number()) ||
                (t == "boolean" && instance.is_boolean()) ||
                (t == "object" && instance.is_object()) || (t == "array" && instance.is_array());
    }
    if (!matches) {
      errors.push_back(path + ": " + instance.dump() + " is not of type " + type->dump());
      return;
    }
  }
  if (instance.is_object()) {
    const auto props = s.find("properties");
    if (const auto r = s.find("required"); r != s.end()) {
      for (const auto& key : *r) {
        if (!instance.contains(key.get<std::string>())) {
          errors.push_back(path + ": required member " + key.dump() + " is missing");
        }
      }
    }
    const auto extra = s.find("additionalProperties");
    for (const auto& member : instance.items()) {
      const std::string at = path + "/" + member.key();
      if (props != s.end() && props->contains(member.key())) {
        validate(root, props->at(member.key()), member.value(), at, errors);
      } else if (extra != s.end() && extra->is_object() && !extra->empty()) {
        validate(root, *extra, member.value(), at, errors);
      } else if (extra != s.end() && extra->is_boolean() && !extra->get<bool>()) {
        errors.push_back(at + ": member not allowed");
      }
    }
  }
  if (instance.is_array()) {
    if (const auto items = s.find("items"); items != s.end()) {
      for (std::size_t i = 0; i < instance.size(); ++i) {
        validate(root, *items, instance[i], path + "/" + std::to_string(i), errors);
      }
    }
  }
}

/// Why a document failed: which check, and what to look at.
struct Failure {
  std::string check;
  std::string detail;
};

using Checker = std::function<std::optional<Failure>(const json& doc, const std::string& url)>;

/// The checks every document passes for a model type T: it decodes through
/// nlohmann (json.get<T>()) and through decode_body<T> (simdjson where T has a
/// fast reader, nlohmann otherwise), both give the same model, and encoding it
/// gives back the document exactly (unknown members kept, null stays null,
/// absent stays absent). decode_body reads the document twice: compact, and
/// indented with every non-ASCII character escaped, because the fast path
/// keeps the text of each object as sent and parses it later.
template <class T>
std::optional<Failure> check_model(const json& doc, const std::string& url) {
  std::optional<T> slow;
  try {
    slow = doc.get<T>();
  } catch (const std::exception& e) {
    return Failure{"json.get<T>() throws", e.what()};
  }
  const json slow_json(*slow);
  for (const std::string& body : {doc.dump(), doc.dump(2, ' ', true)}) {
    std::optional<T> fast;
    try {
      fast = mgnify::detail::decode_body<T>(body, url);
    } catch (const std::exception& e) {
      return Failure{"decode_body<T>() throws", e.what() + std::string("\nbody: ") + body};
    }
    const json fast_json(*fast);
    if (slow_json != fast_json) {
      return Failure{
          "decode_body<T>() and json.get<T>() differ",
          "body: " + body + "\njson.get<T>() encodes to " + slow_json.dump() +
              "\ndecode_body<T>() encodes to " + fast_json.dump() +
              "\npatch from the first to the second: " + json::diff(slow_json, fast_json).dump()};
    }
  }
  if (slow_json != doc) {
    return Failure{"round trip changes the document",
                   "encoded: " + slow_json.dump() + "\npatch from the document to the encoding: " +
                       json::diff(doc, slow_json).dump()};
  }
  return std::nullopt;
}

/// A failure that belongs to code this test may not change (v1, proteins,
/// detail/): reported by a [!mayfail] test case until it is fixed.
struct KnownFailure {
  std::string where;    // a substring of "<suite> / <schema>"
  std::string variant;  // a substring of the variant name; "" for every variant
  std::string check;    // the Failure::check it fails with
  std::string defect;   // what is wrong, for the report
};

/// What a run generated and found.
struct Report {
  std::map<std::string, std::size_t> per_schema;  // "<suite> / <schema>" -> documents
  std::size_t documents = 0;
  std::size_t known_failing = 0;
  struct Seen {
    std::size_t documents = 0;
    std::string smallest;  // the shortest failing document
    std::string variant;
    Failure failure;
    Checker check;  // to shrink `smallest` for the report
  };
  std::map<std::size_t, Seen> known;  // index into the known-failure list
  /// Unexpected failures: reported by the caller (see expect_no_unexpected_failures).
  struct Unexpected {
    std::string where;
    std::string variant;
    std::string document;
    Failure failure;
    Checker check;
  };
  std::vector<Unexpected> unexpected;
};

inline const KnownFailure* match(const std::vector<KnownFailure>& known, const std::string& where,
                                 const std::string& variant, std::size_t& index) {
  for (std::size_t i = 0; i < known.size(); ++i) {
    if (where.find(known[i].where) == std::string::npos) continue;
    if (!known[i].variant.empty() && variant.find(known[i].variant) == std::string::npos) continue;
    index = i;
    return &known[i];
  }
  return nullptr;
}

/// Generates every variant of `schema` and runs `check` on each distinct document.
inline void run_schema(const std::string& suite, const std::string& schema_name, const json& root,
                       const json& schema, const Checker& check,
                       const std::vector<KnownFailure>& known, Report& report) {
  const std::string where = suite + " / " + schema_name;
  std::set<std::string> seen;
  for (const auto& variant : variants()) {
    json doc;
    try {
      doc = Generator(root, variant.profile).instance(schema);
    } catch (const std::exception& e) {
      report.unexpected.push_back(
          {where, variant.name, "", {"the generator throws", e.what()}, nullptr});
      return;
    }
    std::string text = doc.dump();
    if (!seen.insert(text).second) continue;
    ++report.per_schema[where];
    ++report.documents;
    const auto failure = check(doc, "test://schema/" + schema_name);
    if (!failure) continue;
    std::size_t index = 0;
    const KnownFailure* k = match(known, where, variant.name, index);
    if (k != nullptr && k->check == failure->check) {
      ++report.known_failing;
      auto& seen_known = report.known[index];
      ++seen_known.documents;
      if (seen_known.smallest.empty() || text.size() < seen_known.smallest.size()) {
        seen_known.smallest = text;
        seen_known.variant = variant.name;
        seen_known.failure = *failure;
        seen_known.check = check;
      }
      continue;
    }
    report.unexpected.push_back({where, variant.name, std::move(text), *failure, check});
  }
}

/// Runs every schema of `root`'s components that `wanted` accepts through its
/// entry in `models`; a schema without an entry fails.
inline Report run_schemas(const std::string& suite, const json& root,
                          const std::map<std::string, Checker>& models,
                          const std::vector<KnownFailure>& known,
                          const std::function<bool(const std::string&)>& wanted) {
  Report report;
  for (const auto& schema : root.at("components").at("schemas").items()) {
    if (!wanted(schema.key())) continue;
    const auto entry = models.find(schema.key());
    if (entry == models.end()) {
      FAIL_CHECK("schema " << schema.key() << " has no entry in the model table");
      continue;
    }
    run_schema(suite, schema.key(), root, schema.value(), entry->second, known, report);
  }
  return report;
}

/// A JSON file (a captured fixture).
inline json read_json_file(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return json::parse(in);
}

/// Removes every member and array item of `node` whose removal keeps
/// `still_fails()` true, so that a report shows only what matters.
inline void shrink(json& node, const std::function<bool()>& still_fails) {
  if (node.is_object()) {
    std::vector<std::string> keys;
    for (const auto& item : node.items()) keys.push_back(item.key());
    for (const auto& key : keys) {
      json saved = std::move(node[key]);
      node.erase(key);
      if (still_fails()) continue;
      node[key] = std::move(saved);
      shrink(node[key], still_fails);
    }
  } else if (node.is_array()) {
    for (std::size_t i = node.size(); i-- > 0;) {
      json saved = node[i];
      node.erase(i);
      if (still_fails()) continue;
      node.insert(node.begin() + static_cast<std::ptrdiff_t>(i), std::move(saved));
      shrink(node[i], still_fails);
    }
  }
}

/// The smallest document that still fails `check` as `failure` did: the same
/// check, and for a decoding error the same message.
inline std::string minimal_failing(const std::string& document, const Checker& check,
                                   const Failure& failure) {
  json doc = json::parse(document);
  const bool same_message = failure.check.find("throws") != std::string::npos;
  shrink(doc, [&] {
    const auto f = check(doc, "test://schema/shrinking");
    return f && f->check == failure.check && (!same_message || f->detail == failure.detail);
  });
  return doc.dump();
}

/// Fails once per unexpected failure, with everything needed to debug it, and
/// once per known failure that no longer fails (so that the list stays true).
/// The first failure of each schema and check also shows its minimal document.
inline void expect_no_unexpected_failures(const Report& report,
                                          const std::vector<KnownFailure>& known) {
  std::set<std::string> shrunk;
  for (const auto& u : report.unexpected) {
    std::string minimal = "(shown for the first failure of this schema and check only)";
    if (u.check && shrunk.insert(u.where + "\n" + u.failure.check).second) {
      minimal = minimal_failing(u.document, u.check, u.failure);
    }
    INFO("schema: " << u.where);
    INFO("variant: " << u.variant);
    INFO("document: " << u.document);
    INFO("minimal failing document: " << minimal);
    INFO(u.failure.detail);
    FAIL_CHECK(u.failure.check);
  }
  for (std::size_t i = 0; i < known.size(); ++i) {
    if (report.known.count(i) != 0) continue;
    INFO("known failure: " << known[i].where << " [" << known[i].variant << "] " << known[i].check
                           << ": " << known[i].defect);
    FAIL_CHECK("a known failure no longer fails: remove it from the list");
  }
}

/// One assertion per known failure, failing while the defect is there, with
/// the smallest document that shows it. A suite with known failures reports
/// them from a test case of its own that Catch lets fail:
///
///   TEST_CASE("known v1 schema conformance failures", "[v1][schema][!mayfail]") {
///     const auto report = run_all(/*only_known=*/true);  // run_schema on named_by() schemas
///     mgnify::test::schema_instances::report_known_failures(report, known_failures());
///   }
inline void report_known_failures(const Report& report, const std::vector<KnownFailure>& known) {
  for (std::size_t i = 0; i < known.size(); ++i) {
    const auto it = report.known.find(i);
    const Report::Seen none;
    const Report::Seen& seen = it == report.known.end() ? none : it->second;
    const std::string minimal =
        seen.check ? minimal_failing(seen.smallest, seen.check, seen.failure) : "";
    INFO("defect: " << known[i].defect);
    INFO("where: " << known[i].where << " [" << known[i].variant << "]: " << known[i].check);
    INFO("minimal failing document (from variant '" << seen.variant << "'): " << minimal);
    INFO(seen.failure.detail);
    CHECK(seen.documents == 0);
  }
}

/// True for the schemas some known failure names: all the [!mayfail] test
/// case needs to generate.
inline bool named_by(const std::vector<KnownFailure>& known, const std::string& where) {
  for (const auto& k : known) {
    if (where.find(k.where) != std::string::npos) return true;
  }
  return false;
}

/// The per-schema counts, one line each, and the total.
inline std::string summary(const std::string& title, const Report& report) {
  std::ostringstream out;
  out << title << ": generated documents per schema\n";
  for (const auto& [where, n] : report.per_schema) out << "  " << n << "  " << where << "\n";
  out << "  total: " << report.documents << " documents from " << report.per_schema.size()
      << " schemas";
  if (report.known_failing > 0) {
    out << "; " << report.known_failing << " of them fail with known defects ("
        << report.known.size() << ", see the [!mayfail] test case)";
  }
  return out.str();
}

}  // namespace mgnify::test::schema_instances
