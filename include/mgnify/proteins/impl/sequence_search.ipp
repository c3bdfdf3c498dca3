#pragma once

// Bodies of SequenceSearchQuery (mgnify/proteins/sequence_search.hpp).

#include <cmath>
#include <cstddef>
#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/proteins/sequence_search.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace proteins {

namespace detail {

/// The shortest text that reads back as the same double, in the classic
/// locale: 0.01 is sent as "0.01", not "0.010000" (std::to_string would send
/// 1e-30 as "0.000000").
MGNIFY_DECL std::string shortest_number_text(double value) {
  std::string best;
  for (int precision = 1; precision <= 17; ++precision) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(precision);
    out << value;
    std::istringstream back(out.str());
    back.imbue(std::locale::classic());
    double read = 0;
    back >> read;
    // "10", not "1e+01", which also reads back as 10.
    if (read == value && (best.empty() || out.str().size() < best.size())) best = out.str();
  }
  if (!best.empty()) return best;
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out << value;
  return out.str();
}

MGNIFY_DECL bool is_residue_letter(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

MGNIFY_DECL bool is_nucleotide_letter(char c) noexcept {
  switch (c) {
    case 'A':
    case 'C':
    case 'G':
    case 'T':
    case 'U':
    case 'N':
    case 'a':
    case 'c':
    case 'g':
    case 't':
    case 'u':
    case 'n':
      return true;
    default:
      return false;
  }
}

/// A character for a message: printable ASCII as itself, anything else as its byte value.
MGNIFY_DECL std::string describe_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7f) return std::string("'") + c + "'";
  std::ostringstream out;
  out << "byte 0x" << std::hex << static_cast<int>(byte);
  return out.str();
}

/// InvalidArgument unless every set value is finite and within (0, max].
MGNIFY_DECL void check_cutoff(const char* name, const std::optional<double>& value,
                              std::optional<double> max) {
  if (!value) return;
  const bool ok = std::isfinite(*value) && *value > 0 && (!max || *value <= *max);
  if (!ok) {
    throw InvalidArgument(std::string("sequence search cut-off ") + name + " must be " +
                          (max ? "greater than 0 and at most " + shortest_number_text(*max)
                               : std::string("greater than 0")) +
                          ", got " + shortest_number_text(*value));
  }
}

/// InvalidArgument when the inclusion threshold is looser than the reporting one.
MGNIFY_DECL void check_order(const char* inclusion, const std::optional<double>& inc,
                             const char* reporting, const std::optional<double>& rep,
                             bool smaller_is_stricter) {
  if (!inc || !rep) return;
  const bool ok = smaller_is_stricter ? *inc <= *rep : *inc >= *rep;
  if (!ok) {
    throw InvalidArgument(std::string("sequence search cut-off ") + inclusion + " (" +
                          shortest_number_text(*inc) + ") must be " +
                          (smaller_is_stricter ? "at most " : "at least ") + reporting + " (" +
                          shortest_number_text(*rep) +
                          "): an inclusion threshold cannot be looser than the reporting one");
  }
}

MGNIFY_DECL void add_cutoff(http::Query& form, const char* name,
                            const std::optional<double>& value) {
  if (value) form.add(name, shortest_number_text(*value));
}

}  // namespace detail

MGNIFY_DECL SequenceSearchQuery::SequenceSearchQuery(std::string_view text) {
  std::size_t pos = 0;
  bool record_started = false;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.front() == '>') {
      if (record_started) {
        throw InvalidArgument(
            "sequence search takes one sequence, and the input holds more than one FASTA record");
      }
      record_started = true;
      header_ = std::string(line.substr(1));
      continue;
    }
    for (const char c : line) {
      if (c == ' ' || c == '\t') continue;
      record_started = true;
      if (!residues_.empty() && residues_.back() == '*') {
        throw InvalidArgument("sequence search: '*' may only end the sequence, and residue " +
                              std::to_string(residues_.size()) + " is followed by more");
      }
      if (!detail::is_residue_letter(c) && c != '*') {
        throw InvalidArgument(
            "sequence search takes a protein sequence (letters A-Z), and residue " +
            std::to_string(residues_.size() + 1) + " is " + detail::describe_char(c));
      }
      residues_.push_back(c);
      if (residues_.size() > kMaxResidues) {
        throw InvalidArgument("sequence search takes at most " + std::to_string(kMaxResidues) +
                              " residues, and the sequence is longer");
      }
    }
  }
  for (const char c : header_) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      throw InvalidArgument("sequence search: the FASTA header contains a control character");
    }
  }
  const std::size_t letters =
      residues_.size() - (residues_.empty() || residues_.back() != '*' ? 0 : 1);
  if (letters == 0)
    throw InvalidArgument("sequence search needs a protein sequence, and got no residues");
  constexpr std::size_t kNucleotideCheckLength = 10;
  bool nucleotides_only = letters >= kNucleotideCheckLength;
  for (std::size_t i = 0; nucleotides_only && i < letters; ++i) {
    nucleotides_only = detail::is_nucleotide_letter(residues_[i]);
  }
  if (nucleotides_only) {
    throw InvalidArgument(
        "sequence search takes a protein sequence, and this one is only A, C, G, T/U and N: "
        "translate a nucleotide sequence first");
  }
}

MGNIFY_DECL SequenceSearchQuery& SequenceSearchQuery::cutoffs(const EvalueCutoffs& c) & {
  const std::optional<double> max = kMaxEvalue;
  detail::check_cutoff("incE (sequence E-value)", c.sequence, max);
  detail::check_cutoff("incdomE (hit E-value)", c.hit, max);
  detail::check_cutoff("E (reporting sequence E-value)", c.report_sequence, max);
  detail::check_cutoff("domE (reporting hit E-value)", c.report_hit, max);
  detail::check_order("incE", c.sequence, "E", c.report_sequence, true);
  detail::check_order("incdomE", c.hit, "domE", c.report_hit, true);
  cutoffs_ = c;
  return *this;
}

MGNIFY_DECL SequenceSearchQuery& SequenceSearchQuery::cutoffs(const BitscoreCutoffs& c) & {
  detail::check_cutoff("incT (sequence bit score)", c.sequence, std::nullopt);
  detail::check_cutoff("incdomT (hit bit score)", c.hit, std::nullopt);
  detail::check_cutoff("T (reporting sequence bit score)", c.report_sequence, std::nullopt);
  detail::check_cutoff("domT (reporting hit bit score)", c.report_hit, std::nullopt);
  detail::check_order("incT", c.sequence, "T", c.report_sequence, false);
  detail::check_order("incdomT", c.hit, "domT", c.report_hit, false);
  cutoffs_ = c;
  return *this;
}

MGNIFY_DECL http::Query SequenceSearchQuery::to_form() const {
  http::Query form;
  form.add("seqdb", database_name(database_));
  form.add("seq", header_.empty() ? residues_ : ">" + header_ + "\n" + residues_);
  if (const auto* e = std::get_if<EvalueCutoffs>(&cutoffs_)) {
    detail::add_cutoff(form, "incE", e->sequence);
    detail::add_cutoff(form, "incdomE", e->hit);
    detail::add_cutoff(form, "E", e->report_sequence);
    detail::add_cutoff(form, "domE", e->report_hit);
  } else if (const auto* t = std::get_if<BitscoreCutoffs>(&cutoffs_)) {
    detail::add_cutoff(form, "incT", t->sequence);
    detail::add_cutoff(form, "incdomT", t->hit);
    detail::add_cutoff(form, "T", t->report_sequence);
    detail::add_cutoff(form, "domT", t->report_hit);
  }
  return form;
}

MGNIFY_DECL std::string SequenceSearchQuery::describe() const {
  std::string s = std::string("seqdb=") + database_name(database_) +
                  " residues=" + std::to_string(residues_.size());
  const http::Query form = to_form();
  for (const auto& p : form.params()) {
    if (p.key == "seqdb" || p.key == "seq") continue;
    s += " " + p.key + "=" + p.value;
  }
  return s;
}

}  // namespace proteins
MGNIFY_NAMESPACE_END
