#include "text_bodies.hpp"

namespace mgnify::mock::v1routes {

// FASTA, GFF and TSV as the service sends them: text, not JSON, and errors
// as the JSON:API error list.

std::string contig_sequence(std::size_t s, std::size_t c) {
  static const char bases[] = "ACGT";
  const std::size_t length = 500 + (c * 7919) % 40000;
  std::string out;
  out.reserve(length + length / 80 + 1);
  std::uint64_t x = (s + 1) * 0x9E3779B97F4A7C15ULL + c;
  for (std::size_t i = 0; i < length; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    out.push_back(bases[x & 3]);
    if (i % 80 == 79 && i + 1 < length) out.push_back('\n');
  }
  out.push_back('\n');
  return out;
}

// The contig index of `contig_id` in analysis `s`, as contig_json names them.
std::optional<std::size_t> find_contig(std::size_t s, const std::string& contig_id) {
  const std::string stem = d::run_accession(s) + ".1-contig-";
  if (contig_id.rfind(stem, 0) != 0) return std::nullopt;
  auto n = positive_int(contig_id.substr(stem.size()));
  if (!n || static_cast<std::size_t>(*n) > d::analysis_contigs(s)) return std::nullopt;
  return static_cast<std::size_t>(*n - 1);
}

std::string contig_gff(std::size_t s, std::size_t c, bool antismash) {
  const std::string id = d::run_accession(s) + ".1-contig-" + std::to_string(c + 1);
  const std::size_t length = 500 + (c * 7919) % 40000;
  std::string out =
      "##gff-version 3\n##sequence-region " + id + " 1 " + std::to_string(length) + "\n";
  const std::size_t genes = 1 + length / 3000;
  for (std::size_t g = 0; g < genes; ++g) {
    const std::size_t start = 1 + g * 3000;
    const std::size_t end = std::min(length, start + 899);
    out += id + (antismash ? "\tantiSMASH\tCDS\t" : "\tProdigal\tCDS\t") + std::to_string(start) +
           "\t" + std::to_string(end) + "\t.\t" + (g % 2 == 0 ? "+" : "-") + "\t0\tID=" + id + "_" +
           std::to_string(g + 1) +
           (antismash ? ";as_type=NRPS;as_gene_clusters=region1\n"
                      : ";pfam=PF00" + std::to_string(100 + (c + g) % 900) + ";cog=" +
                            cog_categories()[(c + g) % cog_categories().size()].name + "\n");
  }
  return out;
}

std::string qc_tsv(std::size_t s, const std::string& chart) {
  std::string out;
  if (chart == "summary") {
    out = "Submitted nucleotide sequences\t" + std::to_string(100000 + s * 17) +
          "\nNucleotide sequences after format-specific filtering\t" +
          std::to_string(99000 + s * 17) + "\nNucleotide sequences after length filtering\t" +
          std::to_string(98000 + s * 17) +
          "\nNucleotide sequences after undetermined bases filtering\t" +
          std::to_string(97500 + s * 17) + "\n";
  } else if (chart == "gc-distribution") {
    for (int bin = 0; bin < 100; bin += 5) {
      out += std::to_string(bin) + ".0\t" + std::to_string((bin * (s + 3)) % 997) + "\n";
    }
  } else if (chart == "nucleotide-distribution") {
    out = "pos\tA\tC\tG\tT\tN\n";
    for (int pos = 1; pos <= 20; ++pos) {
      const int a = 24 + (pos + static_cast<int>(s)) % 3;
      out += std::to_string(pos) + "\t" + std::to_string(a) + "\t25\t25\t" +
             std::to_string(50 - a) + "\t0\n";
    }
  } else {
    for (int len = 100; len <= 300; len += 25) {
      out += std::to_string(len) + "\t" + std::to_string((len * (s + 1)) % 5000) + "\n";
    }
  }
  return out;
}

void send_text(const httplib::Request& req, httplib::Response& res,
               const std::function<std::string()>& body, const std::string& type) {
  try {
    send(req, res, 200, body(), type);
  } catch (const HttpError& e) {
    for (const auto& [k, v] : e.headers) res.set_header(k, v);
    send(req, res, e.status, e.body, e.content_type);
  }
}

// ?format=csv on a list: the serializer's attributes as columns (dasherized
// names turned back into the underscore field names), every row at once.
std::string csv_cell(const J& v) {
  std::string text = v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  return quoted + "\"";
}
std::string csv_of(const J& doc) {
  std::vector<std::string> columns;
  const J& data = doc.at("data");
  for (const auto& item : data) {
    const J attrs = item.value("attributes", J::object());
    for (const auto& [key, value] : attrs.items()) {
      if (std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
    }
  }
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    std::string name = columns[i];
    std::replace(name.begin(), name.end(), '-', '_');
    out += (i ? "," : "") + name;
  }
  out += "\r\n";
  for (const auto& item : data) {
    const J attrs = item.value("attributes", J::object());
    for (std::size_t i = 0; i < columns.size(); ++i) {
      out += (i ? "," : "") + csv_cell(attrs.value(columns[i], J(nullptr)));
    }
    out += "\r\n";
  }
  return out;
}

}  // namespace mgnify::mock::v1routes
