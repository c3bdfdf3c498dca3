#include "protein_data.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>

namespace mgnify::mock::proteins_data {

namespace {

// splitmix64: a fixed, well-mixed hash so every field derives from the accession alone.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::string padded(std::uint64_t value, std::size_t width) {
  std::string s = std::to_string(value);
  if (s.size() < width) s.insert(0, width - s.size(), '0');
  return s;
}

// Biomes that representatives are observed in (indexes into biomes()).
const std::array<int, 10> kProteinBiomeIds = {46, 47, 48, 49, 132, 134, 140, 201, 301, 302};

struct Summary {
  std::uint64_t number;
  std::vector<int> biome_ids;
  std::vector<std::size_t> family_indexes;  // into families()
};

Summary summarise_regular(std::size_t i) {
  Summary s;
  s.number = 10 + 3 * static_cast<std::uint64_t>(i);
  const int primary = kProteinBiomeIds[i % kProteinBiomeIds.size()];
  s.biome_ids.push_back(primary);
  if (i % 3 == 0) {
    const int secondary = kProteinBiomeIds[(i / 3 + 3) % kProteinBiomeIds.size()];
    if (secondary != primary) s.biome_ids.push_back(secondary);
  }
  if (i % 5 < 3) s.family_indexes.push_back(0);  // PF00005: 1,200 of 2,000
  if (i % 2 == 0) s.family_indexes.push_back(1 + (i / 2) % (families().size() - 1));
  return s;
}

const std::vector<Summary>& summaries() {
  static const std::vector<Summary> all = [] {
    std::vector<Summary> out;
    out.reserve(kRegularCount + 1);
    for (std::size_t i = 0; i < kRegularCount; ++i) out.push_back(summarise_regular(i));
    Summary docs;
    docs.number = kDocsExample;
    docs.biome_ids = {132};
    for (std::size_t f = 0; f < families().size(); ++f) {
      if (std::string(families()[f].accession) == "PF04659") docs.family_indexes.push_back(f);
    }
    out.push_back(docs);
    return out;
  }();
  return all;
}

const Summary* find_summary(std::uint64_t number) {
  const auto& all = summaries();
  auto it = std::lower_bound(all.begin(), all.end(), number,
                             [](const Summary& s, std::uint64_t n) { return s.number < n; });
  return it != all.end() && it->number == number ? &*it : nullptr;
}

const Biome* find_biome(int id) {
  for (const auto& b : biomes()) {
    if (b.id == id) return &b;
  }
  return nullptr;
}

bool lineage_covers(const std::string& lineage, const std::string& biome) {
  return biome == lineage ||
         (biome.size() > lineage.size() && biome.compare(0, lineage.size(), lineage) == 0 &&
          biome[lineage.size()] == ':');
}

std::string sequence_for(std::uint64_t number, std::size_t length, bool full_length) {
  static const char kAmino[] = "ACDEFGHIKLMNPQRSTVWY";
  std::string seq;
  seq.reserve(length);
  std::uint64_t state = mix(number ^ 0x5EED);
  for (std::size_t k = 0; k < length; ++k) {
    state = mix(state);
    seq.push_back(kAmino[state % 20]);
  }
  // Full-length ORFs start at a methionine; fragments may start anywhere.
  if (full_length && !seq.empty()) seq[0] = 'M';
  return seq;
}

}  // namespace

const std::vector<Biome>& biomes() {
  static const std::vector<Biome> all = {
      {1, "root"},
      {2, "root:Engineered"},
      {3, "root:Environmental"},
      {4, "root:Host-associated"},
      {46, "root:Engineered:Wastewater"},
      {47, "root:Engineered:Wastewater:Industrial wastewater"},
      {48, "root:Engineered:Wastewater:Activated Sludge"},
      {49, "root:Engineered:Bioreactor"},
      {120, "root:Environmental:Aquatic"},
      {132, "root:Environmental:Aquatic:Marine"},
      {134, "root:Environmental:Aquatic:Marine:Coastal"},
      {140, "root:Environmental:Aquatic:Freshwater"},
      {150, "root:Environmental:Air"},
      {200, "root:Environmental:Terrestrial"},
      {201, "root:Environmental:Terrestrial:Soil"},
      {300, "root:Host-associated:Human"},
      {301, "root:Host-associated:Human:Digestive system"},
      {302, "root:Host-associated:Human:Digestive system:Large intestine"},
  };
  return all;
}

const std::vector<Family>& families() {
  // Index 0 must stay PF00005: summarise_regular assigns it to 3 of every 5.
  static const std::vector<Family> all = {
      {"PF00005", "ABC transporter", "CL0023"},
      {"PF00072", "Response regulator receiver domain", "CL0304"},
      {"PF00528", "Binding-protein-dependent transport system inner membrane component", nullptr},
      {"PF07690", "Major Facilitator Superfamily", "CL0015"},
      {"PF00106", "short chain dehydrogenase", "CL0063"},
      {"PF04659", "Archaeal flagella protein", nullptr},
      {"PF13561", "Enoyl-(Acyl carrier protein) reductase", "CL0063"},
  };
  return all;
}

const std::vector<Superseded>& superseded() {
  static const std::vector<Superseded> all = {
      {900001, 13, LocationForm::absolute_url},
      {900002, 16, LocationForm::relative_path},
      {900003, 19, LocationForm::bare_accession},
      // A two-hop chain: 900004 -> 900005 -> 22.
      {900004, 900005, LocationForm::bare_accession},
      {900005, 22, LocationForm::bare_digits},
      // Superseded by a representative that no longer exists: 302, then 404.
      {900009, 11, LocationForm::relative_path},
  };
  return all;
}

const std::vector<std::uint64_t>& representative_numbers() {
  static const std::vector<std::uint64_t> all = [] {
    std::vector<std::uint64_t> out;
    for (const auto& s : summaries()) out.push_back(s.number);
    return out;
  }();
  return all;
}

bool is_representative(std::uint64_t number) { return find_summary(number) != nullptr; }

std::string accession(std::uint64_t number) { return "MGYP" + padded(number, 12); }

std::optional<std::uint64_t> parse_accession(const std::string& text) {
  std::string digits = text;
  if (digits.size() >= 4) {
    std::string head = digits.substr(0, 4);
    for (auto& c : head) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (head == "MGYP") digits = digits.substr(4);
  }
  if (digits.empty() || digits.size() > 12) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

nlohmann::ordered_json protein_record(std::uint64_t number) {
  const Summary* s = find_summary(number);
  if (s == nullptr) return nullptr;
  const std::uint64_t h = mix(number);
  const bool docs = number == kDocsExample;
  const bool full_length = docs ? false : (number % 4 != 1);
  const std::size_t length = docs ? 421 : 120 + static_cast<std::size_t>((h >> 16) % 280);
  nlohmann::ordered_json rec;
  rec["mgyp"] = accession(number);
  rec["sequence"] = sequence_for(number, length, full_length);
  rec["full_length"] = full_length;
  rec["cluster_size"] = docs ? 1 : 1 + static_cast<int>(h % 40);

  auto biome_list = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < s->biome_ids.size(); ++k) {
    const Biome* b = find_biome(s->biome_ids[k]);
    nlohmann::ordered_json entry;
    entry["count"] = docs ? 1 : 1 + static_cast<int>((h >> (8 + 4 * k)) % 5);
    entry["id"] = b->id;
    entry["name"] = b->lineage;
    biome_list.push_back(std::move(entry));
  }
  rec["biomes"] = std::move(biome_list);

  auto domains = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < s->family_indexes.size(); ++k) {
    const Family& f = families()[s->family_indexes[k]];
    const std::uint64_t dh = mix(h + k + 1);
    const int span = 60 + static_cast<int>(dh % 40);
    const int env_start = 1 + static_cast<int>(k) * (static_cast<int>(length) / 2) +
                          static_cast<int>((dh >> 8) % 10);
    nlohmann::ordered_json d;
    d["accession"] = f.accession;
    d["name"] = f.name;
    d["clan"] = f.clan ? nlohmann::ordered_json(f.clan) : nlohmann::ordered_json(nullptr);
    d["evalue"] = (1.0 + static_cast<double>((dh >> 16) % 90) / 10.0) *
                  std::pow(10.0, -static_cast<double>(5 + (dh >> 24) % 40));
    d["bit_score"] = 20.0 + static_cast<double>((dh >> 32) % 20000) / 128.0;
    d["hmm_start"] = 1 + static_cast<int>((dh >> 40) % 5);
    d["hmm_end"] = span;
    d["env_start"] = env_start;
    d["env_end"] = std::min(env_start + span, static_cast<int>(length));
    domains.push_back(std::move(d));
  }
  rec["pfam_annotations"] = std::move(domains);

  auto contigs = nlohmann::ordered_json::array();
  const std::size_t contig_count = docs ? 1 : 1 + static_cast<std::size_t>(number % 2);
  for (std::size_t k = 0; k < contig_count; ++k) {
    const std::uint64_t ch = mix(h ^ (k + 101));
    const std::uint64_t contig_number = 500000000000ULL + ch % 99999999999ULL;
    const int start = 1 + static_cast<int>(ch % 5000);
    const int node = 1 + static_cast<int>((ch >> 20) % 90000);
    nlohmann::ordered_json c;
    c["study_accession"] = "ERP" + std::to_string(100000 + (ch >> 8) % 40);
    c["assembly_accession"] = "ERZ" + std::to_string(500000 + (ch >> 12) % 4000);
    c["contig_accession"] = "MGYC" + padded(contig_number, 12);
    c["contig_name"] = "ENA-OSOD0" + std::to_string(node) + "-metagenome-assembly--contig:-NODE-" +
                       std::to_string(node) + "-length-" + std::to_string(length * 3 + start + 200) +
                       "-cov-1.824140";
    c["start"] = start;
    c["end"] = start + static_cast<int>(length) * 3 - 1;
    c["strand"] = (docs || (ch >> 3) % 2 == 1) ? "-" : "+";
    contigs.push_back(std::move(c));
  }
  rec["study_assembly_contigs"] = std::move(contigs);
  return rec;
}

nlohmann::ordered_json search_hit(std::uint64_t number) {
  const auto rec = protein_record(number);
  nlohmann::ordered_json hit;
  hit["mgyp"] = rec.at("mgyp");
  hit["full_length"] = rec.at("full_length");
  hit["cluster_size"] = rec.at("cluster_size");
  return hit;
}

std::vector<std::uint64_t> with_biome_id(int biome_id) {
  std::vector<std::uint64_t> out;
  for (const auto& s : summaries()) {
    if (std::find(s.biome_ids.begin(), s.biome_ids.end(), biome_id) != s.biome_ids.end()) {
      out.push_back(s.number);
    }
  }
  return out;
}

std::vector<std::uint64_t> with_pfam(const std::string& canonical_pfam) {
  std::vector<std::uint64_t> out;
  for (const auto& s : summaries()) {
    for (std::size_t f : s.family_indexes) {
      if (families()[f].accession == canonical_pfam) {
        out.push_back(s.number);
        break;
      }
    }
  }
  return out;
}

std::vector<std::uint64_t> with_lineage(const std::string& lineage) {
  std::vector<std::uint64_t> out;
  for (const auto& s : summaries()) {
    for (int id : s.biome_ids) {
      const Biome* b = find_biome(id);
      if (b != nullptr && lineage_covers(lineage, b->lineage)) {
        out.push_back(s.number);
        break;
      }
    }
  }
  return out;
}

bool lineage_known(const std::string& lineage) {
  for (const auto& b : biomes()) {
    if (lineage_covers(lineage, b.lineage)) return true;
  }
  return false;
}

}  // namespace mgnify::mock::proteins_data
