#pragma once

// Fast (simdjson) decoder of a protein record (GET /protein/{mgyp}). Same
// struct as from_json; see detail/fast_json.hpp for the fallback contract.
// The record owns one copy of its text; the biome, Pfam and contig entries'
// raw are ranges of that copy.

#include <string>
#include <string_view>
#include <utility>

#include "mgnify/detail/fast_json.hpp"
#include "mgnify/proteins/models.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace detail {
namespace fast {

namespace proteins_detail {

/// read_array: absent or null leaves the list empty; anything but an array is an error.
template <class T>
void read_entries(od::value v, std::vector<T>& out, const Source& src) {
  out.clear();
  if (is_null(v)) return;
  read(v, out, src);
}

}  // namespace proteins_detail

template <>
struct Model<mgnify::proteins::BiomeEntry> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src, mgnify::proteins::BiomeEntry& b) {
    bool has_id = false;
    for (auto f : obj) {
      od::field field = take(std::move(f));
      const std::string_view key = take(field.unescaped_key());
      od::value v = field.value();
      if (key == "id") {
        required_field(v, b.id, src, has_id);
      } else if (key == "name") {
        keep_field(v, b.name, src);
      } else if (key == "count") {
        optional_field(v, b.count, src);
      }
    }
    if (!has_id) throw Fallback{};
    b.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::proteins::PfamAnnotation> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src,
                   mgnify::proteins::PfamAnnotation& p) {
    bool has_accession = false;
    for (auto f : obj) {
      od::field field = take(std::move(f));
      const std::string_view key = take(field.unescaped_key());
      od::value v = field.value();
      if (key == "accession") {
        required_field(v, p.accession, src, has_accession);
      } else if (key == "name") {
        keep_field(v, p.name, src);
      } else if (key == "clan") {
        optional_field(v, p.clan, src);
      } else if (key == "evalue") {
        optional_field(v, p.evalue, src);
      } else if (key == "bit_score") {
        optional_field(v, p.bit_score, src);
      } else if (key == "hmm_start") {
        optional_field(v, p.hmm_start, src);
      } else if (key == "hmm_end") {
        optional_field(v, p.hmm_end, src);
      } else if (key == "env_start") {
        optional_field(v, p.env_start, src);
      } else if (key == "env_end") {
        optional_field(v, p.env_end, src);
      }
    }
    if (!has_accession) throw Fallback{};
    p.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::proteins::ContigEntry> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src, mgnify::proteins::ContigEntry& c) {
    c.strand.reset();
    for (auto f : obj) {
      od::field field = take(std::move(f));
      const std::string_view key = take(field.unescaped_key());
      od::value v = field.value();
      if (key == "study_accession") {
        keep_field(v, c.study_accession, src);
      } else if (key == "assembly_accession") {
        keep_field(v, c.assembly_accession, src);
      } else if (key == "contig_accession") {
        keep_field(v, c.contig_accession, src);
      } else if (key == "contig_name") {
        keep_field(v, c.contig_name, src);
      } else if (key == "start") {
        optional_field(v, c.start, src);
      } else if (key == "end") {
        optional_field(v, c.end, src);
      } else if (key == "strand") {
        // The same spelling rules as from_json, on the same (small) value.
        try {
          c.strand = mgnify::proteins::detail::parse_strand(to_nlohmann(v));
        } catch (const DecodeError&) {
          throw Fallback{};
        }
      }
    }
    c.raw = src.raw(text);
  }
};

template <>
struct Model<mgnify::proteins::Protein> {
  static constexpr bool enabled = true;
  static void read(od::object obj, std::string_view text, const Source& src, mgnify::proteins::Protein& p) {
    bool has_mgyp = false;
    for (auto f : obj) {
      od::field field = take(std::move(f));
      const std::string_view key = take(field.unescaped_key());
      od::value v = field.value();
      if (key == "mgyp") {
        required_field(v, p.mgyp, src, has_mgyp);
      } else if (key == "sequence") {
        keep_field(v, p.sequence, src);
      } else if (key == "full_length") {
        optional_field(v, p.full_length, src);
      } else if (key == "cluster_size") {
        optional_field(v, p.cluster_size, src);
      } else if (key == "biomes") {
        proteins_detail::read_entries(v, p.biomes, src);
      } else if (key == "pfam_annotations") {
        proteins_detail::read_entries(v, p.pfam_annotations, src);
      } else if (key == "study_assembly_contigs") {
        proteins_detail::read_entries(v, p.study_assembly_contigs, src);
      }
    }
    if (!has_mgyp) throw Fallback{};
    p.raw = src.raw(text);
  }
};

/// A protein record: the whole body is the record.
template <>
struct Document<mgnify::proteins::Protein> {
  static constexpr bool enabled = true;
  static void read(od::document& doc, std::string_view body, mgnify::proteins::Protein& out) {
    std::string_view text;
    od::object obj = open_root(doc, body, text);
    Model<mgnify::proteins::Protein>::read(obj, text, own(text), out);
  }
};

}  // namespace fast
}  // namespace detail
}  // namespace v0
}  // namespace mgnify
