#pragma once

// The v1 mock's text bodies: contig FASTA and GFF, QC charts as TSV and CSV
// of JSON:API documents.

#include "small_endpoints.hpp"

namespace mgnify::mock::v1routes {

std::string contig_sequence(std::size_t s, std::size_t c);
std::optional<std::size_t> find_contig(std::size_t s, const std::string& contig_id);
std::string contig_gff(std::size_t s, std::size_t c, bool antismash);
std::string qc_tsv(std::size_t s, const std::string& chart);
void send_text(const httplib::Request& req, httplib::Response& res,
               const std::function<std::string()>& body, const std::string& type);
std::string csv_cell(const J& v);
std::string csv_of(const J& doc);

}  // namespace mgnify::mock::v1routes
