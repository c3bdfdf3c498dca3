#pragma once

// Fast (simdjson) decoders of v2 pages ({count, items}). The list models the
// counted walks return (analyses, studies, samples, runs, assemblies, biomes)
// have hand-written field readers; items of other pages go through the
// model's own from_json on a small nlohmann value. Same structs as from_json;
// see detail/fast_json.hpp for the fallback contract.

#include <optional>
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

namespace mgnify {
inline namespace v0 {
namespace detail {
namespace fast {

namespace v2_detail {

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

inline bool sample_field(std::string_view key, od::value& v, const Source& src,
                         mgnify::v2::Sample& s, bool& has_accession) {
  if (key == "accession") {
    required_field(v, s.accession, src, has_accession);
  } else if (key == "ena_accessions") {
    keep_field(v, s.ena_accessions, src);
  } else if (key == "sample_title") {
    optional_field(v, s.sample_title, src);
  } else if (key == "biome") {
    optional_field(v, s.biome, src);
  } else if (key == "updated_at") {
    optional_field(v, s.updated_at, src);
  } else {
    return false;
  }
  return true;
}

inline bool analysis_field(std::string_view key, od::value& v, const Source& src,
                           mgnify::v2::Analysis& a, bool& has_accession) {
  if (key == "accession") {
    required_field(v, a.accession, src, has_accession);
  } else if (key == "study_accession") {
    keep_field(v, a.study_accession, src);
  } else if (key == "experiment_type") {
    keep_field(v, a.experiment_type, src);
  } else if (key == "run") {
    optional_field(v, a.run, src);
  } else if (key == "sample") {
    optional_field(v, a.sample, src);
  } else if (key == "assembly") {
    optional_field(v, a.assembly, src);
  } else if (key == "pipeline_version") {
    optional_field(v, a.pipeline_version, src);
  } else {
    return false;
  }
  return true;
}

}  // namespace v2_detail

/// An enum keeps the text it came from; every download of a v2 page has two,
/// and decoding them through a nlohmann value cost a tenth of a page's decode.
template <class E>
struct Value<mgnify::v2::Enumerated<E>> {
  static constexpr bool enabled = true;
  static void read(od::value v, mgnify::v2::Enumerated<E>& out) {
    out = mgnify::v2::Enumerated<E>::parse(std::string(take(v.get_string())));
  }
};

template <>
struct Model<mgnify::v2::IndexFile> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src,
                   mgnify::v2::IndexFile& f) {
    // from_json reads relative_url (the older servers' name) only when url is absent or null.
    std::optional<std::string> url;
    std::optional<std::string> relative_url;
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      if (key == "index_type") {
        keep_field(v, f.index_type, src);
      } else if (key == "url") {
        optional_field(v, url, src);
      } else if (key == "relative_url") {
        optional_field(v, relative_url, src);
      }
    });
    f.url = url ? std::move(url) : std::move(relative_url);
    f.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::v2::Biome> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src, mgnify::v2::Biome& b) {
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      if (key == "biome_name") {
        keep_field(v, b.biome_name, src);
      } else if (key == "lineage") {
        optional_field(v, b.lineage, src);
      }
    });
    b.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::v2::Study> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src, mgnify::v2::Study& s) {
    bool has_accession = false;
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      if (key == "accession") {
        required_field(v, s.accession, src, has_accession);
      } else if (key == "ena_accessions") {
        keep_field(v, s.ena_accessions, src);
      } else if (key == "title") {
        keep_field(v, s.title, src);
      } else if (key == "biome") {
        optional_field(v, s.biome, src);
      } else if (key == "updated_at") {
        optional_field(v, s.updated_at, src);
      } else if (key == "metadata") {
        s.metadata = to_nlohmann(v);
      }
    });
    if (!has_accession) throw Fallback{};
    s.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::v2::Sample> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src,
                   mgnify::v2::Sample& s) {
    bool has_accession = false;
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      v2_detail::sample_field(key, v, src, s, has_accession);
    });
    if (!has_accession) throw Fallback{};
    s.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::v2::SampleWithMetadata> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src,
                   mgnify::v2::SampleWithMetadata& s) {
    bool has_accession = false;
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      if (v2_detail::sample_field(key, v, src, s, has_accession)) return;
      if (key == "metadata") s.metadata = to_nlohmann(v);
    });
    if (!has_accession) throw Fallback{};
    s.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::v2::AnalysedRun> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src,
                   mgnify::v2::AnalysedRun& r) {
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      if (key == "experiment_type") {
        keep_field(v, r.experiment_type, src);
      } else if (key == "accession") {
        optional_field(v, r.accession, src);
      } else if (key == "sample_accession") {
        optional_field(v, r.sample_accession, src);
      } else if (key == "study_accession") {
        optional_field(v, r.study_accession, src);
      } else if (key == "instrument_model") {
        optional_field(v, r.instrument_model, src);
      } else if (key == "instrument_platform") {
        optional_field(v, r.instrument_platform, src);
      }
    });
    r.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::v2::Assembly> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src,
                   mgnify::v2::Assembly& a) {
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      if (key == "accession") {
        optional_field(v, a.accession, src);
      } else if (key == "updated_at") {
        optional_field(v, a.updated_at, src);
      }
    });
    a.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::v2::DownloadFile> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src,
                   mgnify::v2::DownloadFile& d) {
    std::optional<mgnify::v2::IndexFile> single;
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      if (key == "alias") {
        keep_field(v, d.alias, src);
      } else if (key == "download_type") {
        keep_field(v, d.download_type, src);
      } else if (key == "file_type") {
        keep_field(v, d.file_type, src);
      } else if (key == "short_description") {
        keep_field(v, d.short_description, src);
      } else if (key == "long_description") {
        keep_field(v, d.long_description, src);
      } else if (key == "download_group") {
        optional_field(v, d.download_group, src);
      } else if (key == "file_size_bytes") {
        optional_field(v, d.file_size_bytes, src);
      } else if (key == "index_files") {
        optional_field(v, d.index_files, src);
      } else if (key == "index_file") {
        optional_field(v, single, src);
      } else if (key == "url") {
        optional_field(v, d.url, src);
      }
    });
    // Servers before Aug 2025 sent one index_file; from_json reads it only without index_files.
    if (!d.index_files && single)
      d.index_files = std::vector<mgnify::v2::IndexFile>{std::move(*single)};
    d.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::v2::Analysis> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src,
                   mgnify::v2::Analysis& a) {
    bool has_accession = false;
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      v2_detail::analysis_field(key, v, src, a, has_accession);
    });
    if (!has_accession) throw Fallback{};
    a.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::v2::AnalysisDetail> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src,
                   mgnify::v2::AnalysisDetail& a) {
    bool has_accession = false;
    v2_detail::for_fields(obj, [&](std::string_view key, od::value& v) {
      if (v2_detail::analysis_field(key, v, src, a, has_accession)) return;
      if (key == "downloads") {
        keep_field(v, a.downloads, src);
      } else if (key == "read_run") {
        if (take(v.type()) == od::json_type::object) {
          mgnify::v2::AnalysedRun one;
          fast::read(v, one, src);
          a.read_run = std::vector<mgnify::v2::AnalysedRun>{std::move(one)};
        } else {
          optional_field(v, a.read_run, src);
        }
      } else if (key == "quality_control_summary") {
        a.quality_control_summary = to_nlohmann(v);
      } else if (key == "results_dir") {
        optional_field(v, a.results_dir, src);
      } else if (key == "metadata") {
        a.metadata = to_nlohmann(v);
      }
    });
    if (!has_accession) throw Fallback{};
    a.raw = src.raw(text);
  }
};

/// A v2 page: each item owns a copy of its own text.
template <class T>
struct Document<mgnify::v2::Page<T>> {
  static constexpr bool enabled = true;
  static void read(od::document& doc, std::string_view body, mgnify::v2::Page<T>& out) {
    std::string_view text;
    od::object root = open_root(doc, body, text);
    bool has_count = false;
    bool has_items = false;
    const Source none;
    for (auto f : root) {
      od::field field = take(std::move(f));
      const std::string_view key = take(field.unescaped_key());
      od::value v = field.value();
      if (key == "count") {
        required_field(v, out.count, none, has_count);
      } else if (key == "items") {
        has_items = true;
        out.items.clear();
        od::array items = take(v.get_array());
        for (auto e : items) {
          od::value item = take(std::move(e));
          T model{};
          if constexpr (Model<T>::enabled) {
            std::string_view text;
            od::object obj = open_object(item, text);
            Model<T>::read(obj, text, own(text), model);
          } else {
            fast::read(item, model, none);
          }
          out.items.push_back(std::move(model));
        }
      }
    }
    if (!has_count || !has_items) throw Fallback{};
  }
};

}  // namespace fast
}  // namespace detail
}  // namespace v0
}  // namespace mgnify
